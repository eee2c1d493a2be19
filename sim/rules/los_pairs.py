"""06.01 / 13.10 / 13.11 Pair stages of the VisibilityIndex: which blocker pieces matter for
which pair of models, resolved for all pairs at once (numpy).

For pairs (I, J) of models (round or not) the stages are:

0. *centre candidates*: pieces that may cross the centre-to-centre segment. For many pairs,
   a uniform grid of cells (``PieceGrid``) holds, per cell, a bit mask of the pieces whose
   bounding box comes within half a cell of it; the segment is sampled every cell width and
   the masks of the sampled cells are OR-ed (every point of the segment is within half a
   cell of a sample, so no crossed piece is missed). Few pairs: a bounding-box test.
   Only *active* pieces count (13.10: obscuring areas neither model is within; 13.11: dense
   features of areas either model is within).
1. exact centre crossing (separating axes) -> ``centre_free``; a convex piece crossed by
   both outer common tangents of the two bounding circles and meeting neither circle
   separates the footprints -> ``blocked``.
2. for the pairs left, the pieces meeting the capsule around the centre segment (radius =
   the larger bounding radius) and the obstacle vertices inside it: the inputs of the exact
   test (sim.rules.los_batch / sim.rules.los_kernels). No such piece -> ``clear`` (visible
   and fully visible both ways).

Every stage is a superset filter followed by an exact test on the pair's own data, so the
answer for a pair does not depend on which other pairs are resolved with it.
"""

from __future__ import annotations

import numpy as np

from sim.rules.los_batch import _sat_cross
from sim.rules.los_kernels import Pieces
from sim.rules.visibility import AREA, DENSE

__all__ = ["PieceGrid", "centre_stage", "capsule_inputs"]

_GRID_MIN_PAIRS = 1500


class PieceGrid:
    """Uniform grid of cells holding bit masks (uint64 words) of nearby pieces; bit b
    stands for piece ``perm[b]`` (pieces by decreasing bounding-box diagonal)."""

    def __init__(self, pk: Pieces, select: np.ndarray, cell: float = 3.0):
        self.cell = cell
        self.K = len(pk)
        self.W = max(1, (self.K + 63) // 64)
        size = np.hypot(pk.bbox[:, 2] - pk.bbox[:, 0], pk.bbox[:, 3] - pk.bbox[:, 1])
        self.perm = np.argsort(-size, kind="stable")      # bit b <-> piece perm[b]
        rank = np.empty(len(pk), dtype=np.int64)
        rank[self.perm] = np.arange(len(pk))
        idx = np.flatnonzero(select)
        if len(idx) == 0:
            self.nx = self.ny = 1
            self.x0 = self.y0 = 0.0
            self.masks = np.zeros((2, self.W), dtype=np.uint64)
            return
        bb = pk.bbox[idx]
        g = 0.5 * cell + 1e-6
        self.x0 = float(bb[:, 0].min()) - g - cell
        self.y0 = float(bb[:, 1].min()) - g - cell
        self.nx = int(np.ceil((bb[:, 2].max() + g + cell - self.x0) / cell)) + 1
        self.ny = int(np.ceil((bb[:, 3].max() + g + cell - self.y0) / cell)) + 1
        masks = np.zeros((self.nx * self.ny + 1, self.W), dtype=np.uint64)
        for k, b in zip(rank[idx], bb):
            i0 = int(np.floor((b[0] - g - self.x0) / cell))
            i1 = int(np.floor((b[2] + g - self.x0) / cell))
            j0 = int(np.floor((b[1] - g - self.y0) / cell))
            j1 = int(np.floor((b[3] + g - self.y0) / cell))
            ii, jj = np.meshgrid(np.arange(i0, i1 + 1), np.arange(j0, j1 + 1), indexing="ij")
            masks[(jj * self.nx + ii).ravel(), k // 64] |= np.uint64(1) << np.uint64(k % 64)
        self.masks = masks

    def segment_candidates(self, a: np.ndarray, b: np.ndarray):
        """(segment index, piece index) of pieces that may meet segments a-b, sorted by
        segment then by decreasing piece size."""
        d = b - a
        L = np.hypot(d[:, 0], d[:, 1])
        n = np.maximum(np.ceil(L / self.cell), 1.0)
        nmax = int(n.max()) + 1
        t = np.minimum(np.arange(nmax)[None, :] / n[:, None], 1.0)    # (P, nmax)
        x = (a[:, 0:1] + t * d[:, 0:1] - self.x0) / self.cell
        y = (a[:, 1:2] + t * d[:, 1:2] - self.y0) / self.cell
        ix = np.floor(x).astype(np.int64)
        iy = np.floor(y).astype(np.int64)
        inside = (ix >= 0) & (ix < self.nx) & (iy >= 0) & (iy < self.ny)
        cellid = np.where(inside, iy * self.nx + ix, self.nx * self.ny)
        g = self.masks[cellid]                                        # (P, nmax, W)
        m = g[:, 0].copy()
        for c in range(1, g.shape[1]):
            m |= g[:, c]
        bits = np.unpackbits(m.view(np.uint8), axis=1, bitorder="little")
        p, bit = np.nonzero(bits)
        keep = bit < self.K
        return p[keep], self.perm[bit[keep]]


def _active_entries(ix, I, J, p, k, dense_only: bool):
    kind = ix.blk.kind[k]
    if dense_only:
        keep = kind == DENSE
    else:
        ar = ix.blk.area[k]
        either = ix.within[I[p], ar] | ix.within[J[p], ar]
        keep = np.where(kind == AREA, ~either, either)
    return p[keep], k[keep]


def _bbox_candidates(ix, I, J, R, dense_only: bool):
    pk = ix.blk.pieces
    ci, cj = ix.centres[I], ix.centres[J]
    lo = np.minimum(ci, cj) - R[:, None]
    hi = np.maximum(ci, cj) + R[:, None]
    bb = pk.bbox
    cand = ((bb[None, :, 0] <= hi[:, 0:1]) & (bb[None, :, 2] >= lo[:, 0:1])
            & (bb[None, :, 1] <= hi[:, 1:2]) & (bb[None, :, 3] >= lo[:, 1:2]))
    p, k = np.nonzero(cand)
    return _active_entries(ix, I, J, p, k, dense_only)


def _grid_candidates(ix, I, J):
    """Centre-segment candidates for many pairs (not dense_only): grid over the obscuring
    area pieces, plus the dense pieces of the areas either model is within."""
    grid = ix._grid
    p, k = grid.segment_candidates(ix.centres[I], ix.centres[J])
    p, k = _active_entries(ix, I, J, p, k, False)
    w = ix.within[I] | ix.within[J]
    pa, aa = np.nonzero(w)
    if len(pa):
        ds, di = ix._dense_of_area
        cnt = ds[aa + 1] - ds[aa]
        pd = np.repeat(pa, cnt)
        first = np.cumsum(cnt) - cnt
        kd = di[np.arange(int(cnt.sum())) - np.repeat(first, cnt) + np.repeat(ds[aa], cnt)]
        p = np.concatenate([p, pd])
        k = np.concatenate([k, kd])
    return p, k


def centre_stage(ix, I, J, dense_only: bool = False):
    """Stages 0-1: ``blocked`` per pair: one convex active piece crossed by both outer common
    tangents of the two bounding circles, and meeting neither circle, separates the
    footprints. Each pair's candidate pieces are tried largest first, in rounds, and a pair
    leaves as soon as one piece blocks it."""
    P = len(I)
    blocked = np.zeros(P, bool)
    pk = ix.blk.pieces
    if len(pk) == 0 or P == 0:
        return blocked
    if P >= _GRID_MIN_PAIRS and not dense_only:
        p, k = _grid_candidates(ix, I, J)
    else:
        R = np.maximum(ix.rad[I], ix.rad[J]) + 1e-6
        p, k = _bbox_candidates(ix, I, J, R * 0.0, dense_only)
    if len(p) == 0:
        return blocked
    a, b = ix.centres[I[p]], ix.centres[J[p]]
    pc, pr = _piece_circles(ix)
    near = _seg_point_dist(a, b, pc[k]) <= pr[k]          # cheap: bounding circle of the piece
    p, k = p[near], k[near]
    if len(p) > 1 and not bool(np.all(p[1:] >= p[:-1])):
        order = np.argsort(p, kind="stable")
        p, k = p[order], k[order]
    first = np.searchsorted(p, p, side="left")
    rank = np.arange(len(p)) - first
    for rnd in (0, 1, None):
        sel = (rank == rnd) if rnd is not None else (rank > 1)
        sel &= ~blocked[p]
        e = np.flatnonzero(sel)
        if len(e):
            blocked[p[e][_blocks(ix, I[p[e]], J[p[e]], k[e], pc, pr)]] = True
    return blocked


def _blocks(ix, i, j, k, pc, pr) -> np.ndarray:
    """Does convex piece k separate the bounding circles of models i and j?"""
    pk = ix.blk.pieces
    ra, rb = ix.rad[i] + 1e-6, ix.rad[j] + 1e-6
    ae, be_ = ix.centres[i], ix.centres[j]
    d = be_ - ae
    D = np.hypot(d[:, 0], d[:, 1])
    Ds = np.where(D > 0, D, 1.0)
    u = d / Ds[:, None]
    w = np.stack([-u[:, 1], u[:, 0]], axis=1)
    ct = np.clip((ra - rb) / Ds, -1.0, 1.0)
    st = np.sqrt(1.0 - ct * ct)
    ok = D > ra + rb
    tang = []
    for sg in (1.0, -1.0):
        nvec = ct[:, None] * u + sg * st[:, None] * w     # unit normal of the tangent
        t0, t1 = ae + ra[:, None] * nvec, be_ + rb[:, None] * nvec
        ok &= _seg_point_dist(t0, t1, pc[k]) <= pr[k]     # cheap necessary condition
        tang.append((t0, t1))
    ok &= np.hypot(*(ae - pc[k]).T) > ra                   # cheap: circle far from piece
    ok &= np.hypot(*(be_ - pc[k]).T) > rb
    for t0, t1 in tang:
        sel = np.flatnonzero(ok)
        ks = k[sel]
        ok[sel] = _sat_cross(t0[sel], t1[sel], pk.verts[ks], pk.normals[ks], pk.offs[ks])
    sel = np.flatnonzero(ok)
    ks = k[sel]
    V, nrm, off = pk.verts[ks], pk.normals[ks], pk.offs[ks]
    ok[sel] = (_point_convex_dist(ae[sel], V, nrm, off) > ra[sel]) & \
              (_point_convex_dist(be_[sel], V, nrm, off) > rb[sel])
    return ok


def _piece_circles(ix):
    """Per piece: a centre and a radius holding it (grown by 1e-7")."""
    pc = getattr(ix.blk, "_circles", None)
    if pc is None:
        pk = ix.blk.pieces
        n = np.maximum(pk.nverts, 1)[:, None]
        real = (np.arange(pk.verts.shape[1])[None, :] < pk.nverts[:, None])[..., None]
        c = (pk.verts * real).sum(axis=1) / n
        r = np.hypot(*(pk.verts - c[:, None]).transpose(2, 0, 1)).max(axis=1) + 1e-7
        pc = ix.blk._circles = (c, r)
    return pc


def _seg_point_dist(a, b, c):
    """Distance from points c (E, 2) to segments a-b (E, 2)."""
    d = b - a
    L2 = np.einsum("ei,ei->e", d, d)
    t = np.clip(np.einsum("ei,ei->e", c - a, d) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    q = c - a - t[:, None] * d
    return np.sqrt(np.einsum("ei,ei->e", q, q))


def _point_convex_dist(c, V, nrm, off):
    """Distance from points c (E, 2) to convex pieces (E, V, 2); 0 when inside."""
    W = np.roll(V, -1, axis=1) - V
    WW = np.maximum(np.einsum("evi,evi->ev", W, W), 1e-30)
    u = np.clip(np.einsum("evi,evi->ev", c[:, None] - V, W) / WW, 0, 1)
    q = c[:, None] - V - u[..., None] * W
    d = np.sqrt(np.einsum("evi,evi->ev", q, q).min(axis=1))
    inside = (np.einsum("ei,evi->ev", c, nrm) - off <= 0).all(axis=1)
    return np.where(inside, 0.0, d)


def capsule_inputs(ix, I, J, dense_only: bool = False):
    """Stage 2 for pairs (I, J): the active pieces meeting each pair's capsule (CSR:
    ``pstart``, ``pidx``, piece indices ascending per pair) and the obstacle vertices within
    the capsule radius of the centre segment (CSR: ``ostart``, ``opts``)."""
    P = len(I)
    pk = ix.blk.pieces
    zero = np.zeros(P + 1, dtype=np.int64)
    if len(pk) == 0 or P == 0:
        return zero, np.zeros(0, np.int64), zero, np.zeros((0, 2)), np.ones(P, bool)
    R = np.maximum(ix.rad[I], ix.rad[J]) + 1e-6
    p, k = _bbox_candidates(ix, I, J, R, dense_only)
    a, b = ix.centres[I[p]], ix.centres[J[p]]
    V = pk.verts[k]
    cross = _sat_cross(a, b, V, pk.normals[k], pk.offs[k])
    d = b - a
    L2 = np.einsum("ei,ei->e", d, d)
    t = np.clip(np.einsum("evi,ei->ev", V - a[:, None], d) / np.where(L2 > 0, L2, 1.0)[:, None], 0, 1)
    dv = V - a[:, None] - t[..., None] * d[:, None]
    dvs2 = np.einsum("evi,evi->ev", dv, dv)
    W = np.roll(V, -1, axis=1) - V
    WW = np.maximum(np.einsum("evi,evi->ev", W, W), 1e-30)
    de = np.full(len(p), np.inf)
    for pt in (a, b):
        uu = np.clip(np.einsum("evi,evi->ev", pt[:, None] - V, W) / WW, 0, 1)
        q = pt[:, None] - V - uu[..., None] * W
        de = np.minimum(de, np.einsum("evi,evi->ev", q, q).min(axis=1))
    dist = np.where(cross, 0.0, np.sqrt(np.minimum(dvs2.min(axis=1), de)))
    centre_free = np.ones(P, bool)
    centre_free[p[cross]] = False
    hit = dist < R[p] + 1e-9
    p, k, dvs2 = p[hit], k[hit], dvs2[hit]
    pstart = np.searchsorted(p, np.arange(P + 1), side="left").astype(np.int64)
    # obstacle vertices (real ones, not padding) within R of the centre segment
    real = np.arange(V.shape[1])[None, :] < pk.nverts[k][:, None]
    inside = real & (np.sqrt(dvs2) <= R[p][:, None])
    ep, ev = np.nonzero(inside)
    opts = pk.verts[k[ep], ev]
    ostart = np.searchsorted(p[ep], np.arange(P + 1), side="left").astype(np.int64)
    return pstart, k, ostart, opts, centre_free
