"""03.01 The geometry kernels of movement, vectorised (numpy): distances from points and
swept segments to polygons and bases, Minkowski sums of convex cores for hull bases, and the
distances between a base and the bodies of a ``BodyIndex``. Pure arithmetic: the rules that use
them are sim.rules.movement.legality and the solvers."""

from __future__ import annotations

import functools
import math
from typing import Sequence

import numpy as np

from sim.rules.arrays import col_max, col_min, flatnonzero, roll_next
from sim.rules.compiled import kernel
from sim.rules.geometry import Footprint, core, disc_distances, distance, distance_matrix

Point = tuple[float, float]

from sim.rules.movement.index import TOUCH, BodyIndex, _Poly, EdgeSet


# --- geometric kernels (vectorised) --------------------------------------------------------

def _seg_point_dist2(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Squared distances from points p (M, 2) to segments a-b (S, 2): (S, M)."""
    ax, ay = a[:, 0, None], a[:, 1, None]
    abx, aby = b[:, 0, None] - ax, b[:, 1, None] - ay
    return _ab_dist2(abx, aby, p[:, 0] - ax, p[:, 1] - ay)


def _ab_dist2(abx: np.ndarray, aby: np.ndarray, apx: np.ndarray, apy: np.ndarray) -> np.ndarray:
    """``_seg_point_dist2`` from each segment's vector ab (S, 1) and each point less the
    segment's start, ap (S, M): t = (ap . ab) / |ab|^2 (0 for a segment of no length) clipped
    to [0, 1], then |ap - t ab|^2. The plain form's operations entry by entry, in place (the
    clip as max then min: a t of -0.0 for +0.0 changes no square), so the same bits."""
    den = abx * abx + aby * aby
    t = apx * abx
    t += apy * aby
    t /= np.where(den > 0, den, 1.0)
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    dx = t * abx
    np.subtract(apx, dx, out=dx)
    t *= aby
    np.subtract(apy, t, out=t)
    dx *= dx
    t *= t
    dx += t
    return dx


def _seg_point_dist(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Distances from points p (M, 2) to segments a-b (S, 2): (S, M)."""
    return np.sqrt(_seg_point_dist2(a, b, p))


def _points_in_polygon(p: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon for points p (K, 2), polygon edges v->w (E, 2): (K,) bool.
    (Points on the boundary may go either way; callers pair this with a distance test.)"""
    y, x = p[:, 1:2], p[:, 0:1]
    cond = (v[None, :, 1] > y) != (w[None, :, 1] > y)
    dy = w[:, 1] - v[:, 1]
    xc = v[:, 0] + (y - v[:, 1]) * (w[:, 0] - v[:, 0]) / np.where(dy != 0, dy, 1.0)
    return (np.count_nonzero(cond & (xc > x), axis=1) % 2) == 1


@functools.lru_cache(maxsize=1024)
def core_edges(fp: Footprint) -> EdgeSet:
    """The edges of a hull's core polygon (a base that is not round: geometry.core) as an
    EdgeSet of one polygon, for the distance from segments to its closed area
    (``segments_polys_distance(a, b, core_edges(fp))[:, 0]``). Footprints are immutable: the
    same base, the same set, kept."""
    poly = core(fp)[0]
    return EdgeSet([_Poly("", "", poly, roll_next(poly), poly.min(axis=0), poly.max(axis=0))])


def points_polys_distance(c: np.ndarray, es: EdgeSet) -> np.ndarray:
    """01.04 Distance from each point c[k] (K, 2) to the closed area of each polygon of
    ``es``: (K, P), 0 inside (``segments_polys_distance`` for zero-length segments, cheaper)."""
    tx, ty = c[:, 0:1] - es.vx, c[:, 1:2] - es.vy
    t = ((tx * es.ex + ty * es.ey) / es.el2).clip(0.0, 1.0)
    qx, qy = tx - t * es.ex, ty - t * es.ey
    d = np.sqrt(np.minimum.reduceat(qx * qx + qy * qy, es.starts, axis=1))
    o1 = es.ex * ty - es.ey * tx
    y = c[:, 1:2]
    up = (es.vy <= y) & (es.wy > y) & (o1 > 0)
    down = (es.wy <= y) & (es.vy > y) & (o1 < 0)
    inside = np.add.reduceat((up | down).astype(np.int64), es.starts, axis=1) % 2 == 1
    d[inside] = 0.0
    return d


# (its compiled twin runs where built: sim.rules.compiled)
points_polys_distance = kernel("movement.points_polys_distance", points_polys_distance)


# Per-entry kernels measure each (point or segment, polygon) pair on its own (every operation is
# entry by entry, then a reduction over that polygon's edges alone), so measuring every polygon
# of a set at once gives each pair's value to the bit, as measuring just the near ones does. The
# near ones alone pay when the set is large against the few near; one pass over the whole set
# when several are near and the arrays are small (each pass costs ~20-55 us of numpy calls
# before its arithmetic, ~0.015-0.035 us an entry): WHOLE_* entries (rows x edges) of one
# pass cost about one call's overhead.
WHOLE_POINTS = 1400
WHOLE_SEGMENTS = 1600


def _whole_pays(near: np.ndarray, cols: np.ndarray, per_call: int, edges: int) -> bool:
    """Whether one pass over every polygon is cheaper than one per near polygon."""
    n = len(cols)
    return n >= 2 and len(near) * edges <= per_call * (n - 1)


def near_points_distance(c: np.ndarray, near: np.ndarray, es: EdgeSet) -> np.ndarray:
    """``points_polys_distance`` only where ``near`` (K, P) is true (inf elsewhere)."""
    cols = flatnonzero(near.any(axis=0))
    if _whole_pays(near, cols, WHOLE_POINTS, len(es.vx)):
        out = points_polys_distance(c, es)
        out[~near] = np.inf
        return out
    out = np.full(near.shape, np.inf)
    for p in cols.tolist():
        rows = flatnonzero(near[:, p])
        out[rows, p] = points_polys_distance(c[rows], es.single(p))[:, 0]
    return out


def near_polys_distance(a: np.ndarray, b: np.ndarray, near: np.ndarray, es: EdgeSet) -> np.ndarray:
    """``segments_polys_distance`` only where ``near`` (K, P) is true (inf elsewhere): each
    polygon is measured against just the segments near it, which is far cheaper when a few
    candidates sit near a few of many features (several near and few segments: all at once)."""
    cols = flatnonzero(near.any(axis=0))
    if _whole_pays(near, cols, WHOLE_SEGMENTS, len(es.vx)):
        out = segments_polys_distance(a, b, es)
        out[~near] = np.inf
        return out
    out = np.full(near.shape, np.inf)
    for p in cols.tolist():
        rows = flatnonzero(near[:, p])
        out[rows, p] = segments_polys_distance(a[rows], b[rows], es.single(p))[:, 0]
    return out


def segments_polys_distance(a: np.ndarray, b: np.ndarray, es: EdgeSet) -> np.ndarray:
    """01.04 Distance from each segment a[k]-b[k] (K, 2) to the closed area of each polygon of
    ``es``: (K, P), 0 where the segment meets the area (crosses an edge, or starts inside).
    One vectorised pass over all the edges (a zero-length segment is a point)."""
    ax, ay, bx, by = a[:, 0:1], a[:, 1:2], b[:, 0:1], b[:, 1:2]
    vx, vy, ex, ey, el2 = es.vx, es.vy, es.ex, es.ey, es.el2
    # squared distance from the segment ends to every edge
    tax, tay = ax - vx, ay - vy
    t = ((tax * ex + tay * ey) / el2).clip(0.0, 1.0)
    qx, qy = tax - t * ex, tay - t * ey
    d2 = qx * qx + qy * qy
    tbx, tby = bx - vx, by - vy
    t = ((tbx * ex + tby * ey) / el2).clip(0.0, 1.0)
    qx, qy = tbx - t * ex, tby - t * ey
    np.minimum(d2, qx * qx + qy * qy, out=d2)
    # ... and from every polygon vertex to the segment
    sx, sy = bx - ax, by - ay
    sl2 = sx * sx + sy * sy
    px, py = -tax, -tay                            # vertex - a
    t = ((px * sx + py * sy) / np.where(sl2 > 0, sl2, 1.0)).clip(0.0, 1.0)
    qx, qy = px - t * sx, py - t * sy
    np.minimum(d2, qx * qx + qy * qy, out=d2)
    # proper crossings of the segment with an edge; a inside (crossing-number rule)
    o1 = ex * tay - ey * tax                       # side of a w.r.t. edge
    o2 = ex * tby - ey * tbx                       # side of b
    o3 = sx * py - sy * px                         # side of v w.r.t. the segment
    o4 = sx * (es.wy - ay) - sy * (es.wx - ax)     # side of w
    meet = ((o1 * o2) < 0) & ((o3 * o4) < 0)
    up = (vy <= ay) & (es.wy > ay)
    down = (es.wy <= ay) & (vy > ay)
    meet_i = meet.view(np.int8) if meet.dtype == np.bool_ else meet.astype(np.int8)
    cross_n = ((up & (o1 > 0)) | (down & (o1 < 0))).astype(np.int64)
    starts = es.starts
    d = np.sqrt(np.minimum.reduceat(d2, starts, axis=1))
    hit = (np.add.reduceat(meet_i.astype(np.int64), starts, axis=1) > 0) \
        | (np.add.reduceat(cross_n, starts, axis=1) % 2 == 1)
    d[hit] = 0.0
    return d


# (its compiled twin runs where built: sim.rules.compiled)
segments_polys_distance = kernel("movement.segments_polys_distance", segments_polys_distance)


def _minkowski_sum(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """The Minkowski sum of two counter-clockwise convex polygons (points allowed), ccw: the
    edges of both merged by polar angle from the sum of their lowest vertices."""
    if len(P) == 1 or len(Q) == 1:
        return P + Q[0] if len(Q) == 1 else Q + P[0]
    def start(X):
        k = np.lexsort((X[:, 0], X[:, 1]))[0]
        return np.concatenate((X[k:], X[:k]))  # (np.roll(X, -k, axis=0), without its overhead)
    P, Q = start(P), start(Q)
    e = np.vstack([roll_next(P) - P, roll_next(Q) - Q])
    ang = np.mod(np.arctan2(e[:, 1], e[:, 0]), 2 * np.pi)
    e = e[np.argsort(ang, kind="stable")]
    pts = P[0] + Q[0] + np.vstack([np.zeros((1, 2)), e.cumsum(axis=0)[:-1]])
    return pts


def _swept(off: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The area a convex base (core offsets ``off``, ccw) sweeps moving from p to q, ccw."""
    d = np.asarray(q, dtype=float) - np.asarray(p, dtype=float)
    if not np.any(d):
        return off + p
    return _minkowski_sum(off + p, np.array([[0.0, 0.0], d]))


def _segments_enter_convex(a: np.ndarray, b: np.ndarray, poly: np.ndarray,
                           tol: float = TOUCH) -> np.ndarray:
    """(K,) whether segment a[k]-b[k] reaches more than ``tol`` inside the ccw convex polygon
    (Cyrus-Beck clipping against the polygon shrunk by ``tol``)."""
    e = roll_next(poly) - poly
    ln = np.hypot(e[:, 0], e[:, 1])
    ok = ln > 0
    e, v, ln = e[ok], poly[ok], ln[ok]
    nx, ny = -e[:, 1] / ln, e[:, 0] / ln                 # inward unit normals (ccw)
    f0 = (a[:, 0:1] - v[:, 0]) * nx + (a[:, 1:2] - v[:, 1]) * ny - tol      # (K, E)
    df = (b[:, 0:1] - a[:, 0:1]) * nx + (b[:, 1:2] - a[:, 1:2]) * ny
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -f0 / df
    lo = np.where(df > 0, t, -np.inf).max(axis=1, initial=0.0)
    hi = np.where(df < 0, t, np.inf).min(axis=1, initial=1.0)
    flat_out = ((df == 0) & (f0 < 0)).any(axis=1)
    return (np.maximum(lo, 0.0) <= np.minimum(hi, 1.0)) & ~flat_out


def _convex_signed(p: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """For points p (K, 2) and a ccw convex polygon: the smallest inward edge distance (K,)
    (positive inside, negative outside; a lower bound of the depth)."""
    e = roll_next(poly) - poly
    ln = np.hypot(e[:, 0], e[:, 1])
    ln = np.where(ln > 0, ln, 1.0)
    w = p[:, None, :] - poly[None, :, :]
    return ((e[None, :, 0] * w[..., 1] - e[None, :, 1] * w[..., 0]) / ln).min(axis=1)


def _points_convex_distance(p: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Distance from points p (K, 2) to a ccw convex polygon's closed area (K,). (The root of
    the least squared distance: the least of the roots, to the bit, as the root is monotone
    and correctly rounded; inside where no edge has the point on its right: the sign of each
    edge's cross product, which ``_convex_signed`` divides by the edge's positive length. The
    edges and the points less their starts are worked out once for both.)"""
    if len(poly) == 1:
        return np.hypot(p[:, 0] - poly[0, 0], p[:, 1] - poly[0, 1])
    nxt = roll_next(poly)
    ax, ay = poly[:, 0, None], poly[:, 1, None]
    ex, ey = nxt[:, 0, None] - ax, nxt[:, 1, None] - ay     # (E, 1) each edge
    wx, wy = p[:, 0] - ax, p[:, 1] - ay                     # (E, K) each point less each start
    d = np.sqrt(_ab_dist2(ex, ey, wx, wy).min(axis=0))
    if len(poly) >= 3:
        wy *= ex
        wx *= ey
        d[(wy >= wx).all(axis=0)] = 0.0   # (e x w = ex wy - ey wx >= 0, by the same products)
    return d


# (its compiled twin runs where built: sim.rules.compiled)
_points_convex_distance = kernel("movement.points_convex_distance", _points_convex_distance)


def points_convexes_distance(p: np.ndarray, polys: Sequence[np.ndarray]) -> np.ndarray:
    """``_points_convex_distance`` of the points p (K, 2) to each of ``polys``: (len(polys), K).
    The polygons with the same vertex count (3 or more) in one step: each entry's arithmetic is
    that polygon's own, and its least squared edge distance the least of the same numbers (all
    at least +0.0, so the order of the minimum changes nothing): the same bits."""
    out = np.empty((len(polys), len(p)))
    groups: dict[int, list[int]] = {}
    for h, poly in enumerate(polys):
        groups.setdefault(len(poly), []).append(h)
    for v, hs in groups.items():
        if v < 3 or len(hs) == 1:
            for h in hs:
                out[h] = _points_convex_distance(p, polys[h])
            continue
        P = np.stack([polys[h] for h in hs])                   # (G, E, 2)
        N = np.concatenate((P[:, 1:], P[:, :1]), axis=1)       # (roll_next along the edges)
        ax, ay = P[:, :, 0, None], P[:, :, 1, None]
        ex, ey = N[:, :, 0, None] - ax, N[:, :, 1, None] - ay  # (G, E, 1)
        wx, wy = p[:, 0] - ax, p[:, 1] - ay                    # (G, E, K)
        d = np.sqrt(_ab_dist2(ex, ey, wx, wy).min(axis=1))
        wy *= ex
        wx *= ey
        d[(wy >= wx).all(axis=1)] = 0.0
        out[hs] = d
    return out


# (its compiled twin runs where built: sim.rules.compiled)
points_convexes_distance = kernel("movement.points_convexes_distance", points_convexes_distance)


def _convex_overlap(P: np.ndarray, Q: np.ndarray, tol: float = TOUCH) -> bool:
    """Two ccw convex polygons share area by more than ``tol`` (separating-axis test)."""
    for poly in (P, Q):
        e = roll_next(poly) - poly
        n = np.stack([e[:, 1], -e[:, 0]], axis=1)
        ln = np.linalg.norm(n, axis=1, keepdims=True)
        n = n / np.where(ln > 0, ln, 1.0)
        sa, sb = P @ n.T, Q @ n.T
        if np.any((sa.max(0) <= sb.min(0) + tol) | (sb.max(0) <= sa.min(0) + tol)):
            return False
    return True


def _convex_penetrates_polygon(H: np.ndarray, poly: _Poly, tol: float = TOUCH) -> bool:
    """A ccw convex polygon H shares area with the simple polygon ``poly`` by more than tol."""
    v, w = poly.pts, poly.nxt
    # a vertex (or the centroid) of H well inside the polygon
    probe = np.vstack([H, H.mean(axis=0, keepdims=True)])
    inside = _points_in_polygon(probe, v, w)
    if inside.any():
        edge_d = _seg_point_dist(v, w, probe[inside]).min(axis=0)
        if np.any(edge_d > tol):
            return True
    # a vertex of the polygon well inside H
    if len(H) >= 3 and np.any(_convex_signed(v, H) > tol):
        return True
    # edges crossing properly (both ends clear of the other edge's line by more than tol)
    he = roll_next(H)

    def orient_n(p0, p1, q):
        ex, ey = p1[..., 0] - p0[..., 0], p1[..., 1] - p0[..., 1]
        ln = np.hypot(ex, ey)
        return (ex * (q[..., 1] - p0[..., 1]) - ey * (q[..., 0] - p0[..., 0])) \
            / np.where(ln > 0, ln, 1.0)
    A, B = H[:, None, :], he[:, None, :]
    V, W_ = v[None, :, :], w[None, :, :]
    d1, d2 = orient_n(V, W_, A), orient_n(V, W_, B)
    d3, d4 = orient_n(A, B, V), orient_n(A, B, W_)
    cross = (((d1 > tol) & (d2 < -tol)) | ((d1 < -tol) & (d2 > tol))) & \
            (((d3 > tol) & (d4 < -tol)) | ((d3 < -tol) & (d4 > tol)))
    return bool(cross.any())


# (its compiled twin runs where built: sim.rules.compiled)
_convex_penetrates_polygon = kernel("movement.convex_penetrates_polygon", _convex_penetrates_polygon)


def _offsets(fp: Footprint) -> np.ndarray:
    """A hull footprint's core polygon relative to its centre (k, 2)."""
    return core(fp)[0] - np.array([fp.x, fp.y])


# --- distances -----------------------------------------------------------------------------

def near_rows(idx: BodyIndex, centres: np.ndarray, bound: float, reach: float,
              rows: np.ndarray | None = None) -> np.ndarray:
    """Rows of ``idx`` (among ``rows``, default all) whose bodies may lie within ``reach`` of a
    footprint of bounding radius ``bound`` at any of ``centres`` (K, 2): a cheap superset."""
    if rows is None:
        rows = np.arange(len(idx))
    if len(rows) == 0 or len(centres) == 0:
        return rows[:0]
    return rows_near_box(idx, col_min(centres), col_max(centres), bound, reach, rows)


def rows_near_box(idx: BodyIndex, cmin: np.ndarray, cmax: np.ndarray, bound: float, reach: float,
                  rows: np.ndarray) -> np.ndarray:
    """``near_rows`` given the smallest and largest coordinates of the centres (2,) each (for
    callers that ask it of the same centres more than once); ``rows`` not empty."""
    pad = bound + reach + 1e-6      # generous: a superset, never a borderline miss
    lo, hi = cmin - pad, cmax + pad
    xlo, xhi, ylo, yhi = idx.boxes()     # (every body's box, kept on the index)
    keep = (xhi >= lo[0]) & (xlo <= hi[0]) & (yhi >= lo[1]) & (ylo <= hi[1])
    return rows[keep[rows]]


# (its compiled twin runs where built: sim.rules.compiled)
rows_near_box = kernel("movement.rows_near_box", rows_near_box)


def _pair_terms(fp: Footprint, centres: np.ndarray, other: Footprint):
    """For ``fp`` placed at each of ``centres`` (K, 2) and one fixed footprint ``other``:
    (points (K, 2), convex polygon, radius) such that the edge distance between the two is
    ``_points_convex_distance(points, polygon) - radius`` (at least 0): the translation trick
    for a hull against a disc, and the Minkowski difference for two hulls (exact for convex
    cores)."""
    if fp.shape == "round":
        r = 0.5 * fp.length
        if other.shape == "round":
            return centres, np.array([[other.x, other.y]]), r + 0.5 * other.length
        return centres, core(other)[0], r
    if other.shape == "round":
        return np.array([other.x, other.y]) - centres, _offsets(fp), 0.5 * other.length
    return centres, _hull_difference(fp, other), 0.0


@functools.lru_cache(maxsize=2048)
def _hull_difference(fp: Footprint, other: Footprint) -> np.ndarray:
    """``_pair_terms``' polygon for two hulls: the Minkowski sum of ``other``'s core and the
    reflection of ``fp``'s core offsets. Footprints are immutable, so the polygon of a pair is
    kept (the most recent 2048: a search tests one base at its facing against the same bases
    at many spots); its array is read-only."""
    poly = _minkowski_sum(core(other)[0], -_offsets(fp))
    poly.flags.writeable = False
    return poly


def placed_distances(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint]) -> np.ndarray:
    """01.04 Edge-to-edge distances (K, n) from ``fp`` placed (same facing) at each of
    ``centres`` to each footprint of ``others``; vectorised over the K spots for every shape."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K, n = len(centres), len(others)
    out = np.empty((K, n))
    if not K or not n:
        return out
    rnd = [j for j, o in enumerate(others) if o.shape == "round"]
    if fp.shape == "round" and rnd:
        c = np.array([(others[j].x, others[j].y) for j in rnd], dtype=float)
        r = np.array([0.5 * others[j].length for j in rnd])
        out[:, rnd] = disc_distances(centres, np.full(K, 0.5 * fp.length), c, r)
    if fp.shape != "round" and rnd:
        _hull_to_discs(fp, centres, others, rnd, out)
    hulls = [j for j, o in enumerate(others) if o.shape != "round"]
    if fp.shape == "round" and hulls:  # (_pair_terms: the centres against each hull's core)
        d = points_convexes_distance(centres, [core(others[j])[0] for j in hulls])
        out[:, hulls] = np.maximum(d.T - 0.5 * fp.length, 0.0)
        return out
    for j in hulls:
        o = others[j]
        pts, poly, r = _pair_terms(fp, centres, o)
        out[:, j] = np.maximum(_points_convex_distance(pts, poly) - r, 0.0)
    return out


def placed_distances_paired(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint]) -> np.ndarray:
    """``placed_distances`` of each of ``others`` with its own spots only: ``centres`` (m, K, 2),
    row i the K spots of ``fp`` measured against ``others[i]``: (m, K), entry (i, k) =
    ``placed_distances(fp, centres[i], [others[i]])[k, 0]``. A hull ``fp`` against round bases
    takes every pair in one kernel call (``_hull_to_discs``' translation trick: each disc's
    centre less its spots, against the hull's core); each entry has its pair's own arithmetic,
    so the same bits."""
    centres = np.asarray(centres, dtype=float)
    m, K = centres.shape[0], centres.shape[1]
    out = np.empty((m, K))
    rnd = [i for i, o in enumerate(others) if o.shape == "round"]
    if fp.shape != "round" and len(rnd) > 1:
        c = np.array([(others[i].x, others[i].y) for i in rnd], dtype=float)
        r = np.array([0.5 * others[i].length for i in rnd])
        pts = (c[:, None, :] - centres[rnd]).reshape(-1, 2)
        d = _points_convex_distance(pts, _offsets(fp)).reshape(len(rnd), K)
        out[rnd] = np.maximum(d - r[:, None], 0.0)
        rest = [i for i in range(m) if others[i].shape != "round"]
    else:
        rest = range(m)
    for i in rest:
        out[i] = placed_distances(fp, centres[i], [others[i]])[:, 0]
    return out


_BATCH = 1 << 16  # (points x polygon edges in one kernel call: temporaries of at most a few MB)


def _hull_to_discs(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint], rnd: list[int],
                   out: np.ndarray) -> None:
    """``placed_distances``' columns ``rnd`` (round bases) for a hull ``fp``: _pair_terms'
    translation trick for every disc at once (the discs' centres less each spot, against the
    hull's core about its centre). Every entry has the arithmetic of the pair-by-pair loop
    (elementwise kernels, minima along the polygon only), so the answers are the same to the bit."""
    K = len(centres)
    off = _offsets(fp)
    c = np.array([(others[j].x, others[j].y) for j in rnd], dtype=float)
    r = np.array([0.5 * others[j].length for j in rnd])
    step = max(1, _BATCH // max(1, K * len(off)))
    for s in range(0, len(rnd), step):
        cs = c[s:s + step]
        pts = (cs[:, None, :] - centres[None, :, :]).reshape(-1, 2)
        d = _points_convex_distance(pts, off).reshape(len(cs), K)
        out[:, rnd[s:s + step]] = np.maximum(d - r[s:s + step, None], 0.0).T


def placed_overlaps(fp: Footprint, centres: np.ndarray, others: Sequence[Footprint]) -> np.ndarray:
    """03.01 (K,) whether ``fp`` placed at each of ``centres`` would overlap (share area by
    more than TOUCH) one of ``others``; vectorised over the K spots for every shape."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K = len(centres)
    out = np.zeros(K, dtype=bool)
    if fp.shape == "round" and K:
        # (round against round, every disc at once: a centre distance under the two radii less
        # TOUCH, the loop's own numbers entry by entry; such a pair is within the bounding
        # circles' reach too, so the loop's answer to the bit)
        rnd = [o for o in others if o.shape == "round"]
        if rnd:
            ox = np.array([o.x for o in rnd], dtype=float)
            oy = np.array([o.y for o in rnd], dtype=float)
            lim = (0.5 * fp.length + np.array([0.5 * o.length for o in rnd], dtype=float)) - TOUCH
            d = np.hypot(centres[:, 0, None] - ox, centres[:, 1, None] - oy)
            out |= (d < lim).any(axis=1)
            if len(rnd) == len(others):
                return out
            others = [o for o in others if o.shape != "round"]
    for o in others:
        reach = np.hypot(centres[:, 0] - o.x, centres[:, 1] - o.y) \
            < fp.bounding_radius + o.bounding_radius
        if not reach.any():
            continue
        pts, poly, r = _pair_terms(fp, centres[reach], o)
        if r > 0:
            hit = _points_convex_distance(pts, poly) < r - TOUCH
        else:
            hit = _convex_signed(pts, poly) > TOUCH
        out[flatnonzero(reach)[hit]] = True
    return out


def distances_from(fp: Footprint, centres: np.ndarray, idx: BodyIndex,
                   rows: np.ndarray) -> np.ndarray:
    """01.04 Edge-to-edge distances (K, len(rows)) from the footprint ``fp`` placed (same facing)
    at each of ``centres`` (K, 2) to the bodies ``rows`` of ``idx``. Round-to-round pairs are
    one vectorised step; a hull on either side goes through ``placed_distances``."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    K, M = len(centres), len(rows)
    out = np.empty((K, M))
    if K == 0 or M == 0:
        return out
    rnd = idx.round[rows]
    if fp.shape == "round":
        r = 0.5 * fp.length
        if rnd.any():
            sel = rows[rnd]
            out[:, rnd] = disc_distances(centres, np.full(K, r), idx.centres[sel], idx.radius[sel])
        hm = flatnonzero(~rnd)
        if len(hm):
            d = points_convexes_distance(centres, [idx.core(int(j)) for j in rows[hm].tolist()])
            out[:, hm] = np.maximum(d.T - r, 0)
        return out
    return placed_distances(fp, centres, [idx.fps[int(j)] for j in rows.tolist()])


def fps_to_rows(fps: Sequence[Footprint], idx: BodyIndex, rows: np.ndarray) -> np.ndarray:
    """01.04 Edge-to-edge distances (len(fps), len(rows)) from each footprint to each body
    ``rows`` of ``idx``: one vectorised step for round-to-round pairs."""
    n, m = len(fps), len(rows)
    out = np.empty((n, m))
    if not n or not m:
        return out
    rnd = [i for i, f in enumerate(fps) if f.shape == "round"]
    if rnd:
        c = np.array([(fps[i].x, fps[i].y) for i in rnd], dtype=float)
        r = np.array([0.5 * fps[i].length for i in rnd])
        rr = idx.round[rows]
        sub = np.empty((len(rnd), m))
        if rr.any():
            sub[:, rr] = disc_distances(c, r, idx.centres[rows[rr]], idx.radius[rows[rr]])
        hk = flatnonzero(~rr)
        if len(hk):
            d = points_convexes_distance(c, [idx.core(int(j)) for j in rows[hk].tolist()])
            sub[:, hk] = np.maximum(d.T - r[:, None], 0.0)
        out[rnd] = sub
    for i, f in enumerate(fps):
        if f.shape != "round":
            out[i] = distances_from(f, np.array([[f.x, f.y]]), idx, rows)[0]
    return out


# (its compiled twin runs where built: sim.rules.compiled)
fps_to_rows = kernel("movement.fps_to_rows", fps_to_rows)


def fps_distance_matrix(fps: Sequence[Footprint]) -> np.ndarray:
    """Symmetric edge-to-edge distance matrix among ``fps`` (0 on the diagonal): geometry's
    ``distance_matrix`` (round bases in one step, round against each hull in one step per
    hull), with each pair of hulls measured once by ``distance`` and mirrored."""
    out = distance_matrix(fps, fps)
    hulls = [i for i, f in enumerate(fps) if f.shape != "round"]
    for k, i in enumerate(hulls):
        for j in hulls[k + 1:]:
            out[i, j] = out[j, i] = distance(fps[j], fps[i])
    np.fill_diagonal(out, 0.0)
    return out


def unit_distance(fps_a: Sequence[Footprint], fps_b: Sequence[Footprint]) -> float:
    """01.04 The distance between two units: the closest edge-to-edge distance between any
    model of one and any model of the other (inf if either is empty)."""
    best = math.inf
    for a in fps_a:
        for b in fps_b:
            best = min(best, distance(a, b))
    return best


def path_length(path: Sequence[Point]) -> float:
    """03.01 The distance a model moves along a polyline of its base centre: the sum of its
    straight segments (rotations are free). 0 for a path of one point or none."""
    pts = [(float(x), float(y)) for x, y in path]
    return math.fsum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(pts, pts[1:]))
