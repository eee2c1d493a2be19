"""06.01 / 13.10 / 13.11 Batched line-of-sight kernels: many model pairs in one numpy pass.

The same exact algorithm as sim.rules.los_kernels (see its module docstring), vectorised
over pairs of round footprints whose blocker pieces do not overlap either base. Each pair
has a *ragged* list of blocker pieces (indices into one shared ``Pieces``) and of obstacle
vertices, given as CSR-style arrays: pair q owns ``idx[start[q]:start[q + 1]]``.

* ``segments_blocked_ragged``: segment s is tested only against the pieces of its owner
  pair, with a bounding-box prefilter (a box gap of more than 1e-7" cannot be a crossing)
  and the same separating-axis test and 1e-9" tolerance as ``los_kernels.segments_blocked``.
* ``pairs_visible_round``: candidate lines (common tangents of every pair of generators:
  the two discs and the obstacle vertices) are built for every pair at once, in two rounds
  (lines touching a disc first, then lines through two obstacle vertices only for the pairs
  still unresolved), and reduced per pair.
* ``outline_crossings_round``: where blocker edges cross a base's outline (extra
  generators when a piece overlaps a base, as in los_kernels._outline_crossings).
"""

from __future__ import annotations

import numpy as np

from sim.rules.los_kernels import SIGHT_EPS, Pieces, boundary_samples

__all__ = ["ragged_expand", "segments_blocked_ragged", "pairs_visible_round",
           "outline_crossings_round"]

_TOL = 1e-9
_BOX_GAP = 1e-7


def ragged_expand(start: np.ndarray, owner: np.ndarray):
    """For items with owner q, expand to (item index, position in [start[q], start[q+1]))."""
    cnt = start[owner + 1] - start[owner]
    tot = int(cnt.sum())
    item = np.repeat(np.arange(len(owner)), cnt)
    first = np.cumsum(cnt) - cnt
    pos = np.arange(tot) - np.repeat(first, cnt) + np.repeat(start[owner], cnt)
    return item, pos


def _sat_cross(a, b, V, nrm, off):
    """Segments a-b (E, 2) enter the open interior of convex pieces (E, V, 2): the test of
    los_kernels.segments_blocked, entry by entry."""
    pa = np.einsum("ei,evi->ev", a, nrm)
    pb = np.einsum("ei,evi->ev", b, nrm)
    sep = (np.minimum(pa, pb) >= off - SIGHT_EPS).any(axis=1)
    d = b - a
    L = np.hypot(d[:, 0], d[:, 1])
    ok = L > 1e-12
    Ls = np.where(ok, L, 1.0)
    m = np.stack([np.where(ok, -d[:, 1] / Ls, 0.0), np.where(ok, d[:, 0] / Ls, 0.0)], axis=1)
    vp = np.einsum("ei,evi->ev", m, V)
    s0 = np.einsum("ei,ei->e", m, a)
    sep |= ((vp.min(axis=1) >= s0 - SIGHT_EPS) | (vp.max(axis=1) <= s0 + SIGHT_EPS)) & ok
    return ~sep


def segments_blocked_ragged(p0, p1, owner, pk: Pieces, start, idx) -> np.ndarray:
    """13.11 Segment s (p0[s]-p1[s]) crosses one of the pieces idx[start[o]:start[o+1]],
    o = owner[s]?"""
    S = len(p0)
    if S == 0:
        return np.zeros(0, dtype=bool)
    e_s, pos = ragged_expand(start, owner)
    if len(e_s) == 0:
        return np.zeros(S, dtype=bool)
    k = idx[pos]
    lo = np.minimum(p0, p1)
    hi = np.maximum(p0, p1)
    bb = pk.bbox[k]
    ls, hs = lo[e_s], hi[e_s]
    near = ((bb[:, 0] <= hs[:, 0] + _BOX_GAP) & (bb[:, 2] >= ls[:, 0] - _BOX_GAP)
            & (bb[:, 1] <= hs[:, 1] + _BOX_GAP) & (bb[:, 3] >= ls[:, 1] - _BOX_GAP))
    e_s, k = e_s[near], k[near]
    if len(e_s) == 0:
        return np.zeros(S, dtype=bool)
    cross = _sat_cross(p0[e_s], p1[e_s], pk.verts[k], pk.normals[k], pk.offs[k])
    out = np.zeros(S, dtype=bool)
    out[e_s[cross]] = True
    return out


def _tangent(c1, r1, c2, r2, sgn: float, root: float):
    """One family of common tangent lines of discs (c1, r1), (c2, r2): the arithmetic of
    los_kernels._common_tangents for one (sign, root); invalid lines are NaN."""
    d = c1 - c2
    D2 = np.einsum("mi,mi->m", d, d)
    perp = np.stack([-d[:, 1], d[:, 0]], axis=1)
    delta = r1 - sgn * r2
    h2 = D2 - delta * delta
    valid = (D2 > 1e-18) & (h2 >= -1e-12)
    h = np.sqrt(np.maximum(h2, 0.0))
    D2s = np.where(D2 > 1e-18, D2, 1.0)
    n = (delta[:, None] * d + root * h[:, None] * perp) / D2s[:, None]
    n[~valid] = np.nan
    return n, np.einsum("mi,mi->m", n, c1) - r1


def _disc_chord(n, s, c, r):
    """Interval (t0, t1) along u = perp(n) from x0 = n s where lines meet discs (c, r)."""
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    w = c - n * s[:, None]
    tc = np.einsum("li,li->l", w, u)
    dist = np.abs(np.einsum("li,li->l", w, n))
    ok = dist <= r + _TOL
    half = np.sqrt(np.maximum(r * r - dist * dist, 0.0))
    return np.where(ok, tc - half, np.nan), np.where(ok, tc + half, np.nan)


def _lines_free(n, s, owner, ca, ra, cb, rb, pk, pstart, pidx) -> np.ndarray:
    """For lines (n, s) of pair owner: is the line's A-to-B part unblocked (or do the
    footprints meet along it)?"""
    good = ~np.isnan(n[:, 0])
    n, s, owner = n[good], s[good], owner[good]
    ta0, ta1 = _disc_chord(n, s, ca[owner], ra[owner])
    tb0, tb1 = _disc_chord(n, s, cb[owner], rb[owner])
    ok = ~(np.isnan(ta0) | np.isnan(tb0))
    n, s, owner = n[ok], s[ok], owner[ok]
    ta0, ta1, tb0, tb1 = ta0[ok], ta1[ok], tb0[ok], tb1[ok]
    fwd = ta1 <= tb0 + _TOL
    bwd = tb1 <= ta0 + _TOL
    touch = ~fwd & ~bwd
    t_from = np.where(fwd, ta1, ta0)
    t_to = np.where(fwd, tb0, tb1)
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    free = ~segments_blocked_ragged(x0 + t_from[:, None] * u, x0 + t_to[:, None] * u,
                                    owner, pk, pstart, pidx)
    return owner[free | touch]


def outline_crossings_round(c, r, pk: Pieces, start, idx):
    """Points where the edges of pair q's pieces cross the circle (c[q], r[q]): the extra
    generators of los_kernels._outline_crossings (they matter only when a piece overlaps a
    base). Returns (owner pair, points)."""
    q, pos = ragged_expand(start, np.arange(len(c)))
    k = idx[pos]
    a = pk.verts[k]
    b = np.roll(a, -1, axis=1)
    V = a.shape[1]
    a, b = a.reshape(-1, 2), b.reshape(-1, 2)
    q = np.repeat(q, V)
    d = b - a
    f = a - c[q]
    A = np.einsum("ei,ei->e", d, d)
    B = 2 * np.einsum("ei,ei->e", f, d)
    C = np.einsum("ei,ei->e", f, f) - r[q] * r[q]
    disc = B * B - 4 * A * C
    ok = (A > 0) & (disc >= 0)
    sq = np.sqrt(np.where(ok, disc, 0.0))
    owners, pts = [], []
    for sgn in (-1.0, 1.0):
        t = (-B + sgn * sq) / np.where(A > 0, 2 * A, 1.0)
        good = ok & (t >= 0) & (t <= 1)
        owners.append(q[good])
        pts.append(a[good] + t[good, None] * d[good])
    return np.concatenate(owners), np.concatenate(pts)


def pairs_visible_round(ca, ra, cb, rb, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Exact sight between round footprints A[q] and B[q] for many pairs at once.

    Pieces of pair q: ``pidx[pstart[q]:pstart[q+1]]``; obstacle vertices (generators):
    ``opts[ostart[q]:ostart[q+1]]``. No piece may overlap either disc (callers send those
    pairs to los_kernels.pair_visible, which adds outline crossings as generators)."""
    Q = len(ca)
    vis = np.zeros(Q, dtype=bool)
    if Q == 0:
        return vis
    vis |= (pstart[1:] - pstart[:-1]) == 0
    oown = np.repeat(np.arange(Q), ostart[1:] - ostart[:-1])
    # round 1: lines tangent to a disc (A-B, A-obstacle, B-obstacle)
    qs = np.flatnonzero(~vis)
    ns, ss, ow = [], [], []
    for sg in (1.0, -1.0):
        for rt in (1.0, -1.0):
            n, s = _tangent(ca[qs], ra[qs], cb[qs], rb[qs], sg, rt)
            ns.append(n); ss.append(s); ow.append(qs)
    oi = np.flatnonzero(~vis[oown])
    oq = oown[oi]
    zero = np.zeros(len(oi))
    for c, r in ((ca, ra), (cb, rb)):
        for rt in (1.0, -1.0):
            n, s = _tangent(c[oq], r[oq], opts[oi], zero, 1.0, rt)
            ns.append(n); ss.append(s); ow.append(oq)
    ok = _lines_free(np.concatenate(ns), np.concatenate(ss), np.concatenate(ow),
                     ca, ra, cb, rb, pk, pstart, pidx)
    vis[ok] = True
    # round 2: lines through two obstacle vertices of the same pair
    oi = np.flatnonzero(~vis[oown])
    if len(oi) > 1:
        oq = oown[oi]
        local = oi - ostart[oq]
        cnt = (ostart[oq + 1] - ostart[oq]) - 1 - local
        a = np.repeat(oi, cnt)
        first = np.cumsum(cnt) - cnt
        b = a + 1 + (np.arange(int(cnt.sum())) - np.repeat(first, cnt))
        if len(a):
            z = np.zeros(len(a))
            n, s = _tangent(opts[a], z, opts[b], z, 1.0, 1.0)
            ok = _lines_free(n, s, oown[a], ca, ra, cb, rb, pk, pstart, pidx)
            vis[ok] = True
    return vis
