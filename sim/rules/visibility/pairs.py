"""06.01 / 13.10 / 13.11 Pair stages of the VisibilityIndex: which blocker pieces matter for
which pair of models, resolved for all pairs at once (numpy).

Only *active* pieces count (13.10: obscuring areas neither model is within; 13.11: dense
features of areas either model is within). For pairs (I, J) of models (round or not):

1. the "definitely blocked" certificate (sim.rules.visibility.umbra: the umbra of one convex
   piece's chord);
2. ``capsule_inputs``: for the pairs left, the pieces whose bounding circle comes near the
   centre segment, then the exact centre crossing (separating axes) -> ``centre_free``;
   the pieces meeting the capsule around the centre segment (radius = the larger bounding
   radius) and the obstacle vertices inside it (each position once per pair): the inputs
   of the exact test (sim.rules.visibility.batch / sim.rules.visibility.kernels). No such piece ->
   ``clear`` (visible and fully visible both ways).

Every stage is a sound filter or certificate followed by an exact test on the pair's own
data, so the answer for a pair does not depend on which other pairs are resolved with it.
Kernels use the vertex-major packed pieces (``Pieces.soa``) and 1-D coordinate arrays:
small-axis reductions and (E, V, 2) gathers cost far more than the arithmetic here. Large
inputs go in chunks of some thousands of entries (sim.rules.visibility.index keeps glibc
from trimming the heap between them). Also here: area outlines packed as edge arrays and
the areas round bases are within.
"""

from __future__ import annotations

import math

import numpy as np

from sim.rules.geometry import EPS
from sim.rules.visibility.batch import sat_cross_k
from sim.rules.visibility.sight import AREA, DENSE
from sim.rules.arrays import flatnonzero, roll_next
from sim.rules.compiled import kernel

__all__ = ["capsule_inputs", "pack_area_edges", "area_boxes",
           "within_candidates", "within_candidates_one", "within_pairs", "within_one", "edge_lists"]


def pack_area_edges(polys):
    """Area outlines as padded edge arrays (A, E): start, end, and a real-edge mask
    (padding repeats an area's last edge, so minima are unchanged)."""
    E = max((len(p) for p in polys), default=1)
    P0 = np.zeros((len(polys), E, 2))
    P1 = np.zeros((len(polys), E, 2))
    real = np.zeros((len(polys), E), dtype=bool)
    for k, poly in enumerate(polys):
        n = len(poly)
        P0[k, :n], P1[k, :n] = poly, roll_next(poly)
        P0[k, n:], P1[k, n:] = P0[k, n - 1], P1[k, n - 1]
        real[k, :n] = True
    ab = P1 - P0
    return (P0[..., 0], P0[..., 1], ab[..., 0], ab[..., 1], ab[..., 0] ** 2 + ab[..., 1] ** 2,
            P1[..., 1], real)


def area_boxes(polys) -> np.ndarray:
    """(A, 4) bounding boxes (xmin, ymin, xmax, ymax) of the area outlines."""
    if not polys:
        return np.zeros((0, 4))
    return np.array([[p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()]
                     for p in (np.asarray(q, float) for q in polys)])


def within_candidates(centres, rad, boxes):
    """(model, area) pairs whose box, grown by the model's radius (+ EPS + 1e-6"), holds the
    model's centre: the only ones a disc can be within."""
    g = rad[:, None] + (EPS + 1e-6)
    cx, cy = centres[:, 0:1], centres[:, 1:2]
    m = (cx >= boxes[:, 0] - g) & (cx <= boxes[:, 2] + g) & (cy >= boxes[:, 1] - g) \
        & (cy <= boxes[:, 3] + g)
    return m.nonzero()


def within_candidates_one(cx: float, cy: float, rad: float, boxes) -> list:
    """``within_candidates`` for one model (centre, radius as floats; ``boxes`` the boxes as
    a sequence of 4-tuples): the areas, the same arithmetic in plain Python (a moved model:
    cheaper than a dozen small numpy calls)."""
    g = rad + (EPS + 1e-6)
    return [a for a, (x0, y0, x1, y1) in enumerate(boxes)
            if cx >= x0 - g and cx <= x1 + g and cy >= y0 - g and cy <= y1 + g]


def edge_lists(edges) -> tuple:
    """``pack_area_edges``'s arrays as plain tuples: per area, its real edges as tuples
    (x0, y0, abx, aby, ab2, y1) (``within_one``'s input); None for an area with an edge of
    length 0 (within_pairs's NaN arithmetic, left to it)."""
    x0, y0, abx, aby, ab2, y1, real = (a.tolist() for a in edges)
    out = []
    for a in range(len(real)):
        es = tuple((x0[a][e], y0[a][e], abx[a][e], aby[a][e], ab2[a][e], y1[a][e])
                   for e in range(len(real[a])) if real[a][e])
        out.append(es if es and all(e[4] > 0 for e in es) else None)
    return tuple(out)  # (immutable: an index's copies share it)


def within_one(cx: float, cy: float, rad: float, area_edges) -> bool:
    """``within_pairs`` for one (model, area) pair, the same arithmetic in plain Python
    (``area_edges``: the area's entry of ``edge_lists``; a model moved)."""
    best = None
    crossings = 0
    for x0, y0, abx, aby, ab2, y1 in area_edges:
        apx, apy = cx - x0, cy - y0
        t = min(max((apx * abx + apy * aby) / ab2, 0.0), 1.0)
        dx, dy = apx - t * abx, apy - t * aby
        d2 = dx * dx + dy * dy
        if best is None or d2 < best:
            best = d2
        if (y0 > cy) != (y1 > cy) and x0 + (cy - y0) * abx / (y1 - y0) > cx:
            crossings += 1
    return crossings % 2 == 1 or math.sqrt(best) <= rad + EPS


def within_pairs(centres, rad, area, edges) -> np.ndarray:
    """13.x For (model, area) pairs: the disc (centre, radius ``rad``) is within the area
    (centre inside the outline by crossing parity, or the outline within ``rad`` + EPS),
    one row of edges per pair."""
    x0, y0, abx, aby, ab2, y1, real = (a[area] for a in edges)
    cx, cy = centres[:, 0:1], centres[:, 1:2]
    apx, apy = cx - x0, cy - y0
    t = ((apx * abx + apy * aby) / ab2).clip(0, 1)
    dx, dy = apx - t * abx, apy - t * aby
    dmin = np.sqrt((dx * dx + dy * dy).min(axis=1))
    straddle = ((y0 > cy) != (y1 > cy)) & real
    with np.errstate(divide="ignore", invalid="ignore"):
        xc = x0 + (cy - y0) * abx / (y1 - y0)
    inside = (straddle & (xc > cx)).sum(axis=1) % 2 == 1
    return inside | (dmin <= rad + EPS)


# (its compiled twin runs where built: sim.rules.compiled)
within_pairs = kernel("visibility.within_pairs", within_pairs)


def _near_segment(ix, I, J, R, ks=None) -> np.ndarray:
    """(P, K): does piece k's bounding circle come within R[p] (+ 1e-6") of the segment
    between the centres of models I[p] and J[p]; with ``ks``, of those pieces only (P,
    len(ks)): the same entries."""
    cx, cy, rho = ix.blk.pieces.circle
    if ks is not None:
        cx, cy, rho = cx[ks], cy[ks], rho[ks]
    C = ix.centres
    ax, ay = C[I, 0][:, None], C[I, 1][:, None]
    dx, dy = C[J, 0][:, None] - ax, C[J, 1][:, None] - ay
    wx, wy = cx - ax, cy - ay                                   # (P, K)
    L2 = dx * dx + dy * dy
    t = ((wx * dx + wy * dy) / np.where(L2 > 0, L2, 1.0)).clip(0.0, 1.0)
    wx -= t * dx
    wy -= t * dy
    g = R[:, None] + rho + 1e-6
    return wx * wx + wy * wy <= g * g


_SWEEP_MIN = 4096   # (pairs x pieces below which the whole grid is cheaper than the sweep)
_SWEEP_KEEP = 0.5   # (the sweep only when it leaves out more than half the grid)


def near_pairs(ix, I, J, R, ks) -> tuple[np.ndarray, np.ndarray]:
    """The True entries (pair p, piece k) of ``_near_segment(ix, I, J, R, ks)``, pair-major,
    pieces ascending (``ks``: piece indices, ascending; k as a piece index): with many pairs
    and pieces, each pair tested only against the pieces whose centre lies within the x range
    of its segment widened by R[p] and the largest piece radius (the pieces sorted by x: any
    other is farther from every point of the segment along x alone), with ``_near_segment``'s
    arithmetic entry by entry: the same entries."""
    P, K = len(I), len(ks)
    if P * K <= _SWEEP_MIN:
        p, k = _near_segment(ix, I, J, R, ks).nonzero()
        return p, ks[k]
    cx, cy, rho = ix.blk.pieces.circle
    order = ks[np.argsort(cx[ks], kind="stable")]
    xs = cx[order]
    C = ix.centres
    ax, ay, bx, by = C[I, 0], C[I, 1], C[J, 0], C[J, 1]
    g = R + (float(rho[ks].max()) + 1e-5)
    lo = xs.searchsorted(np.minimum(ax, bx) - g, "left")
    c = xs.searchsorted(np.maximum(ax, bx) + g, "right") - lo
    E = int(c.sum())
    if E == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    if E > _SWEEP_KEEP * P * K:     # (most pieces in most pairs' range: the grid costs less)
        p, k = _near_segment(ix, I, J, R, ks).nonzero()
        return p, ks[k]
    p = np.arange(P).repeat(c)
    k = order[np.arange(E) - (c.cumsum() - c - lo).repeat(c)]
    axp, ayp = ax[p], ay[p]
    dx, dy = bx[p] - axp, by[p] - ayp
    wx, wy = cx[k] - axp, cy[k] - ayp
    L2 = dx * dx + dy * dy
    t = ((wx * dx + wy * dy) / np.where(L2 > 0, L2, 1.0)).clip(0.0, 1.0)
    wx -= t * dx
    wy -= t * dy
    gg = R[p] + rho[k] + 1e-6
    keep = wx * wx + wy * wy <= gg * gg
    p, k = p[keep], k[keep]
    # (pair-major, pieces ascending: one key per entry, each entry's own, so any sort gives this
    # order; stable is cheapest on runs already in pair order, and np.lexsort costs ~6x)
    o = np.argsort(p * len(cx) + k, kind="stable")
    return p[o], k[o]


# (its compiled twin runs where built: sim.rules.compiled)
near_pairs = kernel("visibility.near_pairs", near_pairs)


def _candidates(ix, I, J, R, dense_only: bool):
    """Entries (pair p, piece k), pair-major: the pieces active for the pair (13.10 / 13.11)
    whose bounding circle comes within R[p] (+ 1e-6") of the pair's centre segment (the
    others neither cross it nor come within R of it)."""
    p, k = near_pairs(ix, I, J, R, _pieces_near_box(ix, I, J, R))
    kind = ix.blk.kind[k]
    if dense_only:
        keep = kind == DENSE
    else:
        ar = ix.blk.area[k]
        either = ix.within[I[p], ar] | ix.within[J[p], ar]
        keep = np.where(kind == AREA, ~either, either)
    return p[keep], k[keep]


def _pieces_near_box(ix, I, J, R) -> np.ndarray:
    """The pieces (ascending) whose bounding circle comes within max(R) (+ 1e-6") of the box
    holding every centre of models I and J: every piece ``_near_segment`` can find near one
    of the pairs' segments (each segment lies in the box), and on a large table with the
    pairs in one part of it, far fewer than all."""
    cx, cy, rho = ix.blk.pieces.circle
    C = ix.centres
    m = np.concatenate([I, J])
    x, y = C[m, 0], C[m, 1]
    g = rho + (float(R.max()) + 1e-5)
    near = (cx >= x.min() - g) & (cx <= x.max() + g) & (cy >= y.min() - g) & (cy <= y.max() + g)
    return flatnonzero(near)


def capsule_inputs(ix, I, J, dense_only: bool = False):
    """Stage 2 for pairs (I, J): the active pieces meeting each pair's capsule (CSR:
    ``pstart``, ``pidx``, piece indices ascending per pair) and the obstacle vertices within
    the capsule radius of the centre segment (CSR: ``ostart``, ``opts``; each point once per
    pair)."""
    P = len(I)
    pk = ix.blk.pieces
    zero = np.zeros(P + 1, dtype=np.int64)
    if len(pk) == 0 or P == 0:
        return zero, np.zeros(0, np.int64), zero, np.zeros((0, 2)), np.ones(P, bool)
    R = np.maximum(ix.rad[I], ix.rad[J]) + 1e-6
    p, k = _candidates(ix, I, J, R, dense_only)
    n = len(p)
    cross = np.empty(n, bool)
    dist = np.empty(n)
    inside = np.empty((n, pk.soa[0].shape[0]), bool)     # vertex within R of the segment
    for c0 in range(0, n, _CAP_CHUNK):                      # entry chunks: small 1-D arrays
        sl = slice(c0, c0 + _CAP_CHUNK)
        cross[sl], dist[sl], inside[sl] = _capsule_chunk(ix, I, J, R, p[sl], k[sl])
    centre_free = np.ones(P, bool)
    centre_free[p[cross]] = False
    hit = dist < R[p] + 1e-9
    p, k, inside = p[hit], k[hit], inside[hit]
    pstart = p.searchsorted(np.arange(P + 1), side="left").astype(np.int64)
    # obstacle vertices (real ones, not padding) within R of the centre segment
    ep, ev = inside.nonzero()
    opts = pk.verts[k[ep], ev]
    pe = p[ep]
    # a vertex shared by several pieces (a polygon's convex pieces) once per pair: the same
    # candidate lines, once
    if len(pe) > 1:
        key = pe * (int(pk.vid.max()) + 1) + pk.vid[k[ep], ev]
        o = np.argsort(key, kind="stable")
        dup = np.zeros(len(pe), dtype=bool)
        dup[o[1:]] = key[o[1:]] == key[o[:-1]]
        opts, pe = opts[~dup], pe[~dup]
    ostart = pe.searchsorted(np.arange(P + 1), side="left").astype(np.int64)
    return pstart, k, ostart, opts, centre_free


_CAP_CHUNK = 8192       # (pair, piece) entries per chunk of capsule_inputs


def _capsule_chunk(ix, I, J, R, p, k):
    """Centre crossing and capsule distance of entries (pair p, piece k), and which real
    vertices of the piece lie within R of the centre segment (entry, vertex)."""
    pk = ix.blk.pieces
    C = ix.centres
    ip, jp = I.take(p), J.take(p)
    ax, ay = C[:, 0].take(ip), C[:, 1].take(ip)
    bx, by = C[:, 0].take(jp), C[:, 1].take(jp)
    cross = sat_cross_k(ax, ay, bx, by, pk, k)
    inside, d = _capsule_distances(ax, ay, bx, by, R.take(p), pk, k)
    return cross, np.where(cross, 0.0, d), inside


def _capsule_distances(ax, ay, bx, by, r, pk, k):
    """For entries (segment (ax, ay)-(bx, by), piece k, radius r): which real vertices of the
    piece lie within r of the segment (entry, vertex), and the distance between the segment
    and the piece's outline (the nearer of its vertices to the segment and the segment's ends
    to its edges)."""
    _, _, _, vx, vy = pk.soa                                     # (V, K)
    Vx, Vy = vx.take(k, axis=1), vy.take(k, axis=1)              # (V, E)
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    L2[L2 <= 0] = 1.0
    rx, ry = Vx - ax, Vy - ay
    t = ((rx * dx + ry * dy) / L2).clip(0, 1)
    rx -= t * dx
    ry -= t * dy
    dvs2 = rx * rx + ry * ry
    del rx, ry, t
    real = np.arange(dvs2.shape[0])[:, None] < pk.nverts[k][None, :]
    inside = (real & (np.sqrt(dvs2) <= r[None, :])).T
    Wx, Wy = roll_next(Vx) - Vx, roll_next(Vy) - Vy
    WW = np.maximum(Wx * Wx + Wy * Wy, 1e-30)
    de = np.full(len(k), np.inf)
    for px, py in ((ax, ay), (bx, by)):
        qx, qy = px - Vx, py - Vy
        uu = ((qx * Wx + qy * Wy) / WW).clip(0, 1)
        qx -= uu * Wx
        qy -= uu * Wy
        de = np.minimum(de, (qx * qx + qy * qy).min(axis=0))
    return inside, np.sqrt(np.minimum(dvs2.min(axis=0), de))


# (its compiled twin runs where built: sim.rules.compiled)
_capsule_distances = kernel("visibility.capsule_distances", _capsule_distances)
