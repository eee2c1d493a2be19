"""01.04 Measuring distances: model footprints on the 2-D battlefield (Part A ruling 1).

A model is its base, seen from above, in inches. Every footprint is handled as a convex
*core* grown by a radius:

* ``round``: the core is the centre point, the radius is half the diameter (exact circle);
* ``rect``: the core is the rotated rectangle, radius 0 (exact);
* ``oval``: the core is a polygon of ``OVAL_VERTICES`` points on the ellipse, radius 0.
  The polygon is inscribed, so it lies inside the true ellipse by at most
  ``a * (1 - cos(pi / OVAL_VERTICES))`` (``a`` = half the length): 0.0012 * a, i.e. under
  0.005" for any oval up to 8" long. That is the documented tolerance for ovals.

Distances are edge to edge (closest points), 0 when footprints touch or overlap.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from sim.rules.arrays import flatnonzero, roll_next
from sim.rules.compiled import kernel

__all__ = [
    "Footprint", "footprint", "round_base", "outline", "core", "distance", "within",
    "within_distance", "engaged", "in_engagement_range", "overlaps", "distance_matrix",
    "disc_distances", "footprint_polygon_distance", "point_distances", "farthest_distance",
    "wholly_within_distance", "EPS", "OVAL_VERTICES", "ENGAGEMENT_RANGE",
]

EPS = 1e-9            # inches; measuring tolerance for "not more than X" (01.04.01)
OVAL_VERTICES = 64
ENGAGEMENT_RANGE = 2.0  # 03.04 within 2" horizontally (the 5" vertical term never applies: 2-D)
SHAPES = ("round", "oval", "rect")


@dataclass(frozen=True, slots=True)
class Footprint:
    """01.04 A model's base in plan view: shape, centre, length x width (inches), angle (deg)."""

    shape: str
    x: float
    y: float
    length: float
    width: float
    angle: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def bounding_radius(self) -> float:
        """Radius of a circle about the centre that holds the whole footprint."""
        if self.shape == "rect":
            return 0.5 * math.hypot(self.length, self.width)
        return 0.5 * max(self.length, self.width)

    def moved(self, x: float, y: float, angle: float | None = None) -> "Footprint":
        return Footprint(self.shape, float(x), float(y), self.length, self.width,
                         self.angle if angle is None else float(angle))


def footprint(shape: str, x: float, y: float, length: float, width: float,
              angle: float = 0.0) -> Footprint:
    """01.04 Build a footprint, checking the shape and sizes (round: length == width)."""
    if shape not in SHAPES:
        raise ValueError(f"footprint shape must be one of {SHAPES}, found {shape!r}")
    if not (length > 0 and width > 0):
        raise ValueError(f"footprint sizes must be positive, found {length} x {width}")
    if shape == "round" and abs(length - width) > 1e-12:
        raise ValueError(f"a round base has length == width, found {length} x {width}")
    return Footprint(shape, float(x), float(y), float(length), float(width), float(angle))


def round_base(mm: float, x: float, y: float) -> Footprint:
    """01.04 A round base of ``mm`` millimetres at (x, y): diameter = mm / 25.4 inches."""
    d = float(mm) / 25.4
    return footprint("round", x, y, d, d)


def _rotate(pts: np.ndarray, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return pts @ np.array([[c, s], [-s, c]])


@functools.lru_cache(maxsize=1024)
def core(fp: Footprint) -> tuple[np.ndarray, float]:
    """01.04 The footprint as (convex core polygon (k, 2) counter-clockwise, radius).

    Footprints are immutable, so the answer for one is kept (the most recent 1024); its
    array is read-only."""
    if fp.shape == "round":
        pts = np.array([[fp.x, fp.y]], dtype=float)
        pts.flags.writeable = False
        return pts, 0.5 * fp.length
    pts = _core_offsets(fp.shape, fp.length, fp.width, fp.angle) + np.array([fp.x, fp.y])
    pts.flags.writeable = False
    return pts, 0.0


@functools.lru_cache(maxsize=256)
def _core_offsets(shape: str, length: float, width: float, angle: float) -> np.ndarray:
    """A hull's core about its centre, turned to its facing (``core`` less the centre): the
    same for every footprint of that shape, size and facing, wherever it stands, so kept (a
    moved base is a new footprint with the same offsets). Read-only."""
    hl, hw = 0.5 * length, 0.5 * width
    if shape == "rect":
        pts = np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]], dtype=float)
    else:
        t = np.linspace(0.0, 2.0 * math.pi, OVAL_VERTICES, endpoint=False)
        pts = np.stack([hl * np.cos(t), hw * np.sin(t)], axis=1)
    off = _rotate(pts, angle)
    off.flags.writeable = False
    return off


def outline(fp: Footprint, n: int = 32) -> np.ndarray:
    """01.04 A polygon of the footprint's outline, for drawing: (n, 2) points (rect: 4)."""
    if fp.shape == "rect":
        return core(fp)[0]
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    pts = np.stack([0.5 * fp.length * np.cos(t), 0.5 * fp.width * np.sin(t)], axis=1)
    return _rotate(pts, fp.angle) + np.array([fp.x, fp.y])


# --- distances between convex cores ------------------------------------------------------

def _point_segment_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points p (..., 2) to segments a-b (..., 2), broadcasting."""
    # (elementwise products and sums, no einsum: every element gets exactly the same
    # arithmetic whatever the shapes broadcast, so one pair and a batch agree to the bit)
    abx, aby = b[..., 0] - a[..., 0], b[..., 1] - a[..., 1]
    apx, apy = p[..., 0] - a[..., 0], p[..., 1] - a[..., 1]
    den = abx * abx + aby * aby
    t = np.where(den > 0, (apx * abx + apy * aby) / np.where(den > 0, den, 1.0), 0.0)
    t = t.clip(0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return np.sqrt(dx * dx + dy * dy)


def _point_in_convex(p: np.ndarray, poly: np.ndarray) -> bool:
    if len(poly) < 3:
        return False
    e = roll_next(poly) - poly
    w = p - poly
    cross = e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]
    return bool(np.all(cross >= -EPS))


def _edges_cross(p: np.ndarray, pe: np.ndarray, q: np.ndarray, qe: np.ndarray) -> bool:
    """Does some edge p[i]-pe[i] properly cross some edge q[j]-qe[j] (both orientation
    products strictly negative)? All (i, j) at once."""
    def orient(a, b, c):
        return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) \
            - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0])
    a0, a1, b0, b1 = p[:, None, :], pe[:, None, :], q[None, :, :], qe[None, :, :]
    d1, d2 = orient(b0, b1, a0), orient(b0, b1, a1)
    d3, d4 = orient(a0, a1, b0), orient(a0, a1, b1)
    return bool(np.any((d1 * d2 < 0) & (d3 * d4 < 0)))


def _circle(poly: np.ndarray) -> tuple[np.ndarray, float]:
    """A circle holding a polygon: its vertex mean and the farthest vertex."""
    c = poly.mean(axis=0)
    d = poly - c
    return c, float(np.sqrt((d * d).sum(axis=1).max()))


_PRUNE_SLACK = 1e-7     # inches: far above the rounding of the bounds, far below any distance
_APART = 0.01           # inches: bounding circles this far apart have no point or edge in common


def _convex_distance(p: np.ndarray, q: np.ndarray, pe: np.ndarray | None = None,
                     qe: np.ndarray | None = None, circles=None) -> float:
    """Closest distance between two convex polygons (points / segments allowed); 0 if they meet.

    The minimum over every (vertex, edge) distance of both ways round, computed only over
    the entries that can be the minimum: a real entry bounds it from above (``U``: the
    vertex of each nearest the other's bounding circle against all the other's edges), and
    a vertex (edge) whose distance to the other's bounding circle exceeds ``U`` is left
    out. Each entry kept has the arithmetic of the full (vertex, edge) grid, so the answer
    is the full grid's minimum to the bit. When the bounding circles are apart, the
    polygons cannot meet, so the containment and crossing tests are skipped. ``pe``,
    ``qe`` (the polygons rolled by one vertex) and ``circles`` (``_circle`` of each) may
    be given precomputed."""
    (cp, rp), (cq, rq) = circles if circles is not None else (_circle(p), _circle(q))
    pe = roll_next(p) if pe is None else pe
    qe = roll_next(q) if qe is None else qe
    dc = cp - cq
    if math.sqrt(float(dc[0] * dc[0] + dc[1] * dc[1])) <= rp + rq + _APART:
        if _point_in_convex(p[0], q) or _point_in_convex(q[0], p):
            return 0.0
        if len(p) > 1 and len(q) > 1 and _edges_cross(p, pe, q, qe):
            return 0.0
    # lower bounds: a vertex to the other's circle; an edge (midpoint m, half-length h) too
    lb_p = np.hypot(p[:, 0] - cq[0], p[:, 1] - cq[1]) - rq
    lb_q = np.hypot(q[:, 0] - cp[0], q[:, 1] - cp[1]) - rp
    i0, j0 = int(np.argmin(lb_p)), int(np.argmin(lb_q))
    u = min(_point_segment_dist(p[i0], q, qe).min(), _point_segment_dist(q[j0], p, pe).min())
    cut = u + _PRUNE_SLACK
    ep_lb = _edge_bounds(p, pe, cq) - rq
    eq_lb = _edge_bounds(q, qe, cp) - rp
    ip, iq = flatnonzero(lb_p <= cut), flatnonzero(lb_q <= cut)
    jp, jq = flatnonzero(ep_lb <= cut), flatnonzero(eq_lb <= cut)
    d1 = _point_segment_dist(p[ip][:, None, :], q[jq][None, :, :], qe[jq][None, :, :]).min(initial=np.inf)
    d2 = _point_segment_dist(q[iq][:, None, :], p[jp][None, :, :], pe[jp][None, :, :]).min(initial=np.inf)
    return float(min(d1, d2))


# (its compiled twin runs where built: sim.rules.compiled)
_convex_distance = kernel("geometry.convex_distance", _convex_distance)


def _edge_bounds(poly: np.ndarray, pe: np.ndarray, c: np.ndarray) -> np.ndarray:
    """A lower bound of the distance from point ``c`` to each edge poly[k]-pe[k]: the
    distance to the edge's midpoint less half its length."""
    m = 0.5 * (poly + pe)
    h = 0.5 * np.hypot(pe[:, 0] - poly[:, 0], pe[:, 1] - poly[:, 1])
    return np.hypot(m[:, 0] - c[0], m[:, 1] - c[1]) - h


def distance(a: Footprint, b: Footprint) -> float:
    """01.04 Closest edge-to-edge distance between two footprints in inches (0 if overlapping)."""
    if a.shape == "round" and b.shape == "round":
        d = math.hypot(a.x - b.x, a.y - b.y) - 0.5 * (a.length + b.length)
        return max(0.0, d)
    return _hull_distance(a, b)


@functools.lru_cache(maxsize=4096)
def _hull_distance(a: Footprint, b: Footprint) -> float:
    """``distance`` when a base is not round (footprints are immutable: the same two give the
    same answer, so the answers for bases that have not moved are kept)."""
    pa, ra, pae, ca = _hull(a)
    pb, rb, pbe, cb = _hull(b)
    return max(0.0, _convex_distance(pa, pb, pae, pbe, (ca, cb)) - ra - rb)


@functools.lru_cache(maxsize=1024)
def _hull(fp: Footprint):
    """``core`` of a footprint with its polygon rolled by one vertex and ``_circle``."""
    pts, r = core(fp)
    pe = roll_next(pts)
    pe.flags.writeable = False
    return pts, r, pe, _circle(pts)


def within_distance(d, inches: float):
    """01.04.01 "Within X" for a distance already measured (edge to edge): not more than X,
    up to the measuring tolerance EPS. ``d`` is a float (a bool back) or a numpy array (a bool
    array back, element by element)."""
    return d <= inches + EPS


def within(a: Footprint, b: Footprint, inches: float) -> bool:
    """01.04.01 "Within X": the closest distance is not more than X (measured edge to edge)."""
    return within_distance(distance(a, b), inches)


def in_engagement_range(d):
    """03.04 Engagement range for a distance already measured (edge to edge): within 2"
    horizontally (2-D plan, so no vertical term). A float or a numpy array, as
    ``within_distance``."""
    return within_distance(d, ENGAGEMENT_RANGE)


def engaged(a: Footprint, b: Footprint) -> bool:
    """03.04 Engagement range: within 2" horizontally (2-D plan, so no vertical term)."""
    return in_engagement_range(distance(a, b))


def overlaps(a: Footprint, b: Footprint) -> bool:
    """01.04 Footprints share area (touching edges is not overlapping); for scenario checks."""
    if a.shape == "round" and b.shape == "round":
        return math.hypot(a.x - b.x, a.y - b.y) < 0.5 * (a.length + b.length) - 1e-7
    if math.hypot(a.x - b.x, a.y - b.y) > a.bounding_radius + b.bounding_radius + 1e-6:
        return False  # (bounding circles apart: the cores cannot meet; the exact test decides the rest)
    pa, ra = core(a)
    pb, rb = core(b)
    if ra == 0 and rb == 0:
        # strict SAT: overlap on every axis by more than a hair
        for poly in (pa, pb):
            e = roll_next(poly) - poly
            n = np.stack([e[:, 1], -e[:, 0]], axis=1)
            n /= np.linalg.norm(n, axis=1, keepdims=True)
            sa, sb = pa @ n.T, pb @ n.T
            if np.any((sa.max(0) <= sb.min(0) + 1e-7) | (sb.max(0) <= sa.min(0) + 1e-7)):
                return False
        return True
    return _convex_distance(pa, pb) < ra + rb - 1e-7


def footprint_polygon_distance(fp: Footprint, poly) -> float:
    """01.04 Distance from a footprint to a simple (possibly non-convex) polygon's closed area.

    0 when any part of the footprint is inside the polygon or touches it.
    """
    poly = np.asarray(poly, dtype=float)
    pts, r = core(fp)
    from sim.rules.polygons import point_in_polygon  # local import: polygons imports geometry
    if point_in_polygon(pts[0], poly) >= 0 or point_in_polygon(poly[0], pts) >= 0:
        return 0.0
    pe = roll_next(pts)
    qe = roll_next(poly)
    if len(pts) > 1 and _edges_cross(pts, pe, poly, qe):
        return 0.0
    d1 = _point_segment_dist(pts[:, None, :], poly[None, :, :], qe[None, :, :]).min()
    d2 = _point_segment_dist(poly[:, None, :], pts[None, :, :], pe[None, :, :]).min() \
        if len(pts) > 1 else np.inf
    return max(0.0, float(min(d1, d2)) - r)


def disc_distances(ca: np.ndarray, ra: np.ndarray, cb: np.ndarray, rb: np.ndarray) -> np.ndarray:
    """01.04 Edge-to-edge distances between round bases given as centres (n, 2), (m, 2) and
    radii (n,), (m,): (n, m), at least 0. ``distance_matrix``'s round-to-round step, also read
    directly by indexes that keep the centres and radii as arrays."""
    dx = ca[:, 0, None] - cb[:, 0]
    dy = ca[:, 1, None] - cb[:, 1]
    dx *= dx
    dy *= dy
    dx += dy   # (the squared length, as dx * dx + dy * dy: IEEE products and a sum, no einsum)
    out = np.sqrt(dx, out=dx)
    out -= ra[:, None]
    out -= rb
    np.maximum(out, 0.0, out=out)
    return out


# (its compiled twin runs where built: sim.rules.compiled)
disc_distances = kernel("geometry.disc_distances", disc_distances)


def distance_matrix(fps_a, fps_b) -> np.ndarray:
    """01.04 Edge-to-edge distances between every footprint of ``fps_a`` and of ``fps_b``.

    Round-to-round pairs are computed in one vectorised step; round bases against the oval
    or rectangular hulls in one step (``_round_core_distances``, the arithmetic of
    ``distance``); hull-to-hull pairs (rare: large models) with ``distance``.
    """
    fps_a, fps_b = list(fps_a), list(fps_b)
    n, m = len(fps_a), len(fps_b)
    if n == 0 or m == 0:
        return np.zeros((n, m))
    ca = np.array([[f.x, f.y] for f in fps_a], dtype=float)
    cb = np.array([[f.x, f.y] for f in fps_b], dtype=float)
    ra = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps_a])
    rb = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps_b])
    out = disc_distances(ca, ra, cb, rb)
    ha = [i for i, f in enumerate(fps_a) if f.shape != "round"]
    hb = [j for j, f in enumerate(fps_b) if f.shape != "round"]
    if ha:
        rnd_b = [j for j, f in enumerate(fps_b) if f.shape == "round"]
        if rnd_b:
            out[np.ix_(ha, rnd_b)] = _round_core_distances(
                cb[rnd_b], rb[rnd_b], _hull_pack(tuple(fps_a[i] for i in ha))).T
        if hb:
            _hull_block(fps_a, ha, fps_b, hb, out)
    if hb:
        rnd_a = [i for i, f in enumerate(fps_a) if f.shape == "round"]
        if rnd_a:
            out[np.ix_(rnd_a, hb)] = _round_core_distances(
                ca[rnd_a], ra[rnd_a], _hull_pack(tuple(fps_b[j] for j in hb)))
    return out


def _hull_block(fps_a, ha: list[int], fps_b, hb: list[int], out: np.ndarray) -> None:
    """``out[i, j] = distance(fps_a[i], fps_b[j])`` for every hull i of ``ha`` and j of ``hb``
    (``_hull_block_values`` of their ``_hull``s)."""
    a, b = [fps_a[i] for i in ha], [fps_b[j] for j in hb]
    out[np.ix_(ha, hb)] = _hull_block_values(a, b, [_hull(f) for f in a], [_hull(f) for f in b])


def _hull_block_values(fps_a: list, fps_b: list, hulls_a: list, hulls_b: list) -> np.ndarray:
    """``distance`` between each footprint of ``fps_a`` and each of ``fps_b``, none of them
    round (``hulls_a``, ``hulls_b``: their ``_hull``s): (len(fps_a), len(fps_b)). A pair whose
    bounding circles (``_circle``) are apart (``_convex_distance``'s test) cannot meet: those
    pairs are measured together, whatever their cores' vertex counts, in one call
    (``_apart_distances``); the others go through ``_hull_distance`` (its answers kept)."""
    out = np.empty((len(hulls_a), len(hulls_b)))
    # (_convex_distance's test for every pair at once: the same IEEE arithmetic elementwise)
    ca = np.array([h[3][0] for h in hulls_a]).reshape(-1, 2)
    cb = np.array([h[3][0] for h in hulls_b]).reshape(-1, 2)
    rca = np.array([h[3][1] for h in hulls_a])
    rcb = np.array([h[3][1] for h in hulls_b])
    dx = ca[:, None, 0] - cb[None, :, 0]
    dy = ca[:, None, 1] - cb[None, :, 1]
    near = np.sqrt(dx * dx + dy * dy) <= (rca[:, None] + rcb[None, :]) + _APART
    for x, y in zip(*near.nonzero()):
        out[x, y] = _hull_distance(fps_a[x], fps_b[y])
    xs, ys = (~near).nonzero()
    if len(xs):
        d = _apart_distances(_hulls_padded(hulls_a), xs, _hulls_padded(hulls_b), ys)
        # (a hull's radius is 0: _hull_distance's max(0.0, d - 0.0 - 0.0), elementwise)
        out[xs, ys] = np.maximum(d - 0.0 - 0.0, 0.0)
    return out


# (its compiled twin runs where built: sim.rules.compiled)
_hull_block_values = kernel("geometry.hull_block_values", _hull_block_values)


def _hulls_padded(hulls: list) -> tuple:
    """The cores of ``_hull``s as arrays of one vertex count, the most any has, for
    ``_apart_distances``: (vertices (m, V, 2), the next vertex of each (m, V, 2), which are
    real (m, V), circle centres (m, 2), circle radii (m,)). A core with fewer vertices is
    padded with copies of its first vertex and of its first edge: each entry they give is one
    of its real entries again, so no minimum changes."""
    V = max(len(h[0]) for h in hulls)
    m = len(hulls)
    P = np.empty((m, V, 2))
    PE = np.empty((m, V, 2))
    real = np.ones((m, V), dtype=bool)
    for k, h in enumerate(hulls):
        n = len(h[0])
        P[k, :n] = h[0]
        PE[k, :n] = h[2]
        if n < V:
            P[k, n:] = h[0][0]
            PE[k, n:] = h[2][0]
            real[k, n:] = False
    return P, PE, real, np.array([h[3][0] for h in hulls]).reshape(-1, 2), np.array([h[3][1] for h in hulls])


def _apart_distances(pa: tuple, xs: np.ndarray, pb: tuple, ys: np.ndarray) -> np.ndarray:
    """``_convex_distance`` of many pairs of polygons at once: the ``xs[k]``-th of ``pa`` and
    the ``ys[k]``-th of ``pb`` (``_hulls_padded``), each pair's bounding circles apart. The
    same bounds, the same entries kept and the same arithmetic entry by entry (all
    elementwise), so each answer is ``_convex_distance``'s to the bit: every pair measures
    exactly the (vertex, edge) entries it keeps (a padded vertex or edge has an infinite
    bound: never kept), all pairs' in one flat array."""
    P, PE, real_p, cp, rp = (a[xs] for a in pa)
    Q, QE, real_q, cq, rq = (a[ys] for a in pb)
    n = len(xs)
    ar = np.arange(n)
    lb_p = np.hypot(P[..., 0] - cq[:, 0, None], P[..., 1] - cq[:, 1, None]) - rq[:, None]
    lb_q = np.hypot(Q[..., 0] - cp[:, 0, None], Q[..., 1] - cp[:, 1, None]) - rp[:, None]
    lb_p[~real_p] = np.inf
    lb_q[~real_q] = np.inf
    i0, j0 = np.argmin(lb_p, axis=1), np.argmin(lb_q, axis=1)
    u = np.minimum(_point_segment_dist(P[ar, i0][:, None, :], Q, QE).min(axis=1),
                   _point_segment_dist(Q[ar, j0][:, None, :], P, PE).min(axis=1))
    cut = (u + _PRUNE_SLACK)[:, None]
    ep_lb = _edge_bounds_many(P, PE, cq) - rq[:, None]
    eq_lb = _edge_bounds_many(Q, QE, cp) - rp[:, None]
    ep_lb[~real_p] = np.inf
    eq_lb[~real_q] = np.inf
    best = np.full(n, np.inf)
    for V, lb_v, A, B, lb_e in ((P, lb_p, Q, QE, eq_lb), (Q, lb_q, P, PE, ep_lb)):
        # every pair's kept vertices against its kept edges (bound <= cut: the entries
        # _convex_distance keeps, and only those), pair by pair in one flat array
        keep_v, keep_e = lb_v <= cut, lb_e <= cut
        nv, ne = keep_v.sum(axis=1), keep_e.sum(axis=1)
        count = nv * ne                                    # (each pair's entries)
        owner = flatnonzero(count)
        if not len(owner):
            continue
        pv, iv = keep_v.nonzero()
        _pe, ie = keep_e.nonzero()
        reps = ne[pv]
        t = np.arange(len(pv)).repeat(reps)            # (each entry's vertex, in pv)
        at = np.arange(len(t)) - (reps.cumsum() - reps).repeat(reps)
        pair = pv[t]
        e = ie[(ne.cumsum() - ne)[pair] + at]            # (its edge: the pair's first kept one on)
        d = _point_segment_dist(V[pair, iv[t]], A[pair, e], B[pair, e])
        starts = (count.cumsum() - count)[owner]         # (entries are in pair order)
        best[owner] = np.minimum(best[owner], np.minimum.reduceat(d, starts))
    return best


# (its compiled twin runs where built: sim.rules.compiled)
_apart_distances = kernel("geometry.apart_distances", _apart_distances)


def _edge_bounds_many(poly: np.ndarray, pe: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``_edge_bounds`` for many polygons (n, k, 2) and points (n, 2) at once: (n, k)."""
    m = 0.5 * (poly + pe)
    h = 0.5 * np.hypot(pe[..., 0] - poly[..., 0], pe[..., 1] - poly[..., 1])
    return np.hypot(m[..., 0] - c[:, 0, None], m[..., 1] - c[:, 1, None]) - h


@functools.lru_cache(maxsize=256)
def _hull_pack(fps: tuple) -> tuple:
    """The cores of hulls (footprints that are not round) for ``_round_core_distances``, as
    (H, V) coordinate arrays (px, py, pex, pey: each vertex and the next), padded to the
    longest with degenerate edges at the first vertex (their distances repeat that
    vertex's, their containment products are 0: no answer changes); then what that function
    derives from them alone (abx, aby: each edge; den: its squared length; den's where it is
    positive, 1 elsewhere; whether every edge has a length)."""
    V = max(len(core(f)[0]) for f in fps)
    P = np.empty((len(fps), V, 2))
    PE = np.empty((len(fps), V, 2))
    for h, f in enumerate(fps):
        pts = core(f)[0]
        k = len(pts)
        P[h, :k] = pts
        PE[h, :k] = roll_next(pts)
        P[h, k:] = pts[0]
        PE[h, k:] = pts[0]
    px, py, pex, pey = P[..., 0].copy(), P[..., 1].copy(), PE[..., 0].copy(), PE[..., 1].copy()
    abx, aby = pex - px, pey - py
    den = abx * abx + aby * aby
    pos = den > 0
    out = (px, py, pex, pey, abx, aby, np.where(pos, den, 1.0), pos)
    for a in out:
        a.flags.writeable = False
    return out + (bool(pos.all()),)


def _round_core_distances(centres: np.ndarray, radii: np.ndarray, pack: tuple) -> np.ndarray:
    """01.04 ``distance`` from round bases (centres (N, 2), radii (N,)) to hulls with convex
    polygon cores (``_hull_pack``: radius 0, 3 vertices or more): (N, H), all at once, with
    the arithmetic of ``_point_segment_dist`` entry by entry: 0 if the centre is in the
    core, otherwise the nearer of the core's vertices to the centre and the centre to the
    core's edges; minus the radius, at least 0. (Each entry's operations are those of the
    plain form: t = (ap . ab) / den where den > 0, else 0, clipped to [0, 1]; the arrays are
    reused in place, which changes no value.)"""
    px, py, _pex, _pey, abx, aby, den1, pos, every_edge = pack
    cx, cy = centres[:, 0][:, None, None], centres[:, 1][:, None, None]
    apx, apy = cx - px, cy - py                         # (N, H, V) vertex to centre
    w = abx * apy
    w -= aby * apx
    inside = (w >= -EPS).all(axis=2)
    # vertices to the centre (a degenerate segment: t = 0, so the arithmetic is this), squared:
    # the root is taken once, of the least (sqrt is monotone and correctly rounded, so the
    # root of the least is the least of the roots, to the bit)
    np.multiply(apx, apx, out=w)
    w += apy * apy
    dv = w.min(axis=2)
    t = apx * abx
    t += apy * aby
    t /= den1
    if not every_edge:
        t[:, ~pos] = 0.0   # (np.where(den > 0, ..., 0.0); pos is (H, V))
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)                           # (np.clip(t, 0.0, 1.0))
    dx = t * abx
    np.subtract(apx, dx, out=dx)
    t *= aby
    np.subtract(apy, t, out=t)                          # (dy)
    dx *= dx
    t *= t
    dx += t
    d = np.sqrt(np.minimum(dv, dx.min(axis=2)))
    d[inside] = 0.0
    return np.maximum(d - radii[:, None], 0.0)


# (its compiled twin runs where built: sim.rules.compiled)
_round_core_distances = kernel("geometry.round_core_distances", _round_core_distances)


def point_distances(points, fp: Footprint) -> np.ndarray:
    """01.04 Distances (N,) from points (N, 2) to the footprint's closed area (0 inside it),
    with the arithmetic of ``distance`` (``_round_core_distances`` with radius-0 points)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    if fp.shape == "round":
        return np.maximum(np.hypot(pts[:, 0] - fp.x, pts[:, 1] - fp.y) - 0.5 * fp.length, 0.0)
    return _round_core_distances(pts, np.zeros(len(pts)), _hull_pack((fp,)))[:, 0]


def farthest_distance(fp: Footprint, target: Footprint) -> float:
    """01.04.01 How far the farthest point of the base ``fp`` is from ``target`` (edge to
    edge): a round base's centre distance plus its radius (exact while the centre is outside
    the target: the distance to a convex base grows at most 1:1, and exactly so straight away
    from it; a base centred on the target, which no set-up allows, is overstated); a hull's farthest core
    vertex (exact for a rectangle; an oval's core lies inside the ellipse by the tolerance in
    the module docstring)."""
    if fp.shape == "round":
        return float(point_distances([(fp.x, fp.y)], target)[0]) + 0.5 * fp.length
    return float(point_distances(core(fp)[0], target).max())


def wholly_within_distance(fp: Footprint, target: Footprint, inches: float) -> bool:
    """01.04.01 "Wholly within X" of a model (e.g. 18.04 disembarking wholly within 3" of the
    transport): every part of the base ``fp`` within X of ``target`` (``farthest_distance``
    not more than X, up to EPS)."""
    return bool(within_distance(farthest_distance(fp, target), inches))
