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

__all__ = [
    "Footprint", "footprint", "round_base", "outline", "core", "distance", "within",
    "engaged", "overlaps", "distance_matrix", "disc_distances", "footprint_polygon_distance",
    "EPS", "OVAL_VERTICES", "ENGAGEMENT_RANGE",
]

EPS = 1e-9            # inches; measuring tolerance for "not more than X" (01.04.01)
OVAL_VERTICES = 64
ENGAGEMENT_RANGE = 2.0
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


def core(fp: Footprint) -> tuple[np.ndarray, float]:
    """01.04 The footprint as (convex core polygon (k, 2) counter-clockwise, radius)."""
    if fp.shape == "round":
        return np.array([[fp.x, fp.y]], dtype=float), 0.5 * fp.length
    hl, hw = 0.5 * fp.length, 0.5 * fp.width
    if fp.shape == "rect":
        pts = np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]], dtype=float)
    else:
        t = np.linspace(0.0, 2.0 * math.pi, OVAL_VERTICES, endpoint=False)
        pts = np.stack([hl * np.cos(t), hw * np.sin(t)], axis=1)
    return _rotate(pts, fp.angle) + np.array([fp.x, fp.y]), 0.0


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
    t = np.clip(t, 0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return np.sqrt(dx * dx + dy * dy)


def _point_in_convex(p: np.ndarray, poly: np.ndarray) -> bool:
    if len(poly) < 3:
        return False
    e = np.roll(poly, -1, axis=0) - poly
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


def _convex_distance(p: np.ndarray, q: np.ndarray) -> float:
    """Closest distance between two convex polygons (points / segments allowed); 0 if they meet."""
    if _point_in_convex(p[0], q) or _point_in_convex(q[0], p):
        return 0.0
    pe = np.roll(p, -1, axis=0)
    qe = np.roll(q, -1, axis=0)
    if len(p) > 1 and len(q) > 1 and _edges_cross(p, pe, q, qe):
        return 0.0
    d1 = _point_segment_dist(p[:, None, :], q[None, :, :], qe[None, :, :]).min()
    d2 = _point_segment_dist(q[:, None, :], p[None, :, :], pe[None, :, :]).min()
    return float(min(d1, d2))


def distance(a: Footprint, b: Footprint) -> float:
    """01.04 Closest edge-to-edge distance between two footprints in inches (0 if overlapping)."""
    if a.shape == "round" and b.shape == "round":
        d = math.hypot(a.x - b.x, a.y - b.y) - 0.5 * (a.length + b.length)
        return max(0.0, d)
    return _hull_distance(a, b)


@functools.lru_cache(maxsize=4096)
def _hull_distance(a: Footprint, b: Footprint) -> float:
    """``distance`` when a base is not round (footprints are immutable: the same two give the
    same answer, so the answers for bases that have not moved are kept; an oval's core has
    64 vertices, so each is a (64, 64) computation)."""
    pa, ra = core(a)
    pb, rb = core(b)
    return max(0.0, _convex_distance(pa, pb) - ra - rb)


def within(a: Footprint, b: Footprint, inches: float) -> bool:
    """01.04.01 "Within X": the closest distance is not more than X (measured edge to edge)."""
    return distance(a, b) <= inches + EPS


def engaged(a: Footprint, b: Footprint) -> bool:
    """03.04 Engagement range: within 2" horizontally (2-D plan, so no vertical term)."""
    return within(a, b, ENGAGEMENT_RANGE)


def overlaps(a: Footprint, b: Footprint) -> bool:
    """01.04 Footprints share area (touching edges is not overlapping); for scenario checks."""
    if a.shape == "round" and b.shape == "round":
        return math.hypot(a.x - b.x, a.y - b.y) < 0.5 * (a.length + b.length) - 1e-7
    pa, ra = core(a)
    pb, rb = core(b)
    if ra == 0 and rb == 0:
        # strict SAT: overlap on every axis by more than a hair
        for poly in (pa, pb):
            e = np.roll(poly, -1, axis=0) - poly
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
    pe = np.roll(pts, -1, axis=0)
    qe = np.roll(poly, -1, axis=0)
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
    diff = ca[:, None, :] - cb[None, :, :]
    out = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff)) - ra[:, None] - rb[None, :]
    np.maximum(out, 0.0, out=out)
    return out


def distance_matrix(fps_a, fps_b) -> np.ndarray:
    """01.04 Edge-to-edge distances between every footprint of ``fps_a`` and of ``fps_b``.

    Round-to-round pairs are computed in one vectorised step; round bases against one oval
    or rectangular hull in one step per hull (``_round_core_distances``, the arithmetic of
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
    round_a = np.array([f.shape == "round" for f in fps_a])
    round_b = np.array([f.shape == "round" for f in fps_b])
    nb = np.flatnonzero(~round_b).tolist()
    for i in np.flatnonzero(~round_a).tolist():
        out[i, round_b] = _round_core_distances(cb[round_b], rb[round_b], core(fps_a[i])[0])
        for j in nb:
            out[i, j] = distance(fps_a[i], fps_b[j])
    for j in nb:
        out[round_a, j] = _round_core_distances(ca[round_a], ra[round_a], core(fps_b[j])[0])
    return out


def _round_core_distances(centres: np.ndarray, radii: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """01.04 ``distance`` from round bases (centres (N, 2), radii (N,)) to one footprint with
    the convex polygon core ``pts`` (radius 0), for all N at once, with the arithmetic of
    ``_convex_distance`` entry by entry: 0 if the centre is in the core, otherwise the
    nearer of the core's vertices to the centre and the centre to the core's edges; minus
    the radius, at least 0."""
    c = centres[:, None, :]
    if len(pts) >= 3:
        e = np.roll(pts, -1, axis=0) - pts
        w = c - pts[None]
        inside = np.all(e[:, 0] * w[..., 1] - e[:, 1] * w[..., 0] >= -EPS, axis=1)
    else:
        inside = np.zeros(len(centres), dtype=bool)
    pe = np.roll(pts, -1, axis=0)
    d = np.minimum(_point_segment_dist(pts[None], c, c).min(axis=1, initial=np.inf),
                   _point_segment_dist(c, pts[None], pe[None]).min(axis=1, initial=np.inf))
    d[inside] = 0.0
    return np.maximum(d - radii, 0.0)
