"""06.01 / 13.10 / 13.11 Batched line-of-sight kernels: many model pairs in one numpy pass.

The same exact algorithm as sim.rules.visibility.kernels (see its module docstring), vectorised
over pairs of round footprints whose blocker pieces do not overlap either base. Each pair
has a *ragged* list of blocker pieces (indices into one shared ``Pieces``) and of obstacle
vertices, given as CSR-style arrays: pair q owns ``idx[start[q]:start[q + 1]]``.

* ``segments_blocked_ragged``: segment s is tested only against the pieces of its owner
  pair, with the same separating-axis test and 1e-9" tolerance as
  ``kernels.segments_blocked``.
* ``pairs_visible_round``: candidate lines (common tangents of every pair of generators:
  the two discs and the obstacle vertices) are built for every pair at once, in three
  rounds, each only for the pairs still unresolved (common tangents of the two discs; lines
  tangent to a disc through an obstacle vertex; lines through two obstacle vertices; the
  first two in one pass for a few pairs), and reduced per pair. Coordinates travel as 1-D
  arrays and pieces as ``Pieces.soa``; round 2 goes in batches (pairs found visible leave).
  Segment tests run in chunks of some thousands of (segment, piece) entries.
* ``outline_crossings_round``: where blocker edges cross a base's outline (extra
  generators when a piece overlaps a base, as in kernels._outline_crossings).

Fully visible, batched the same way, is in sim.rules.visibility.full.
"""

from __future__ import annotations

import numpy as np

from sim.rules.visibility.kernels import SIGHT_EPS, Pieces
from sim.rules.arrays import flatnonzero, roll_next, tile
from sim.rules.compiled import kernel

__all__ = ["ragged_expand", "csr_subset", "segments_blocked_ragged", "pairs_visible_round",
           "outline_crossings_round"]

_TOL = 1e-9
_LINES = 10000          # candidate lines per batch (pairs found visible leave between batches)


def ragged_expand(start: np.ndarray, owner: np.ndarray):
    """For items with owner q, expand to (item index, position in [start[q], start[q+1]))."""
    cnt = start[owner + 1] - start[owner]
    tot = int(cnt.sum())
    item = np.arange(len(owner)).repeat(cnt)
    first = cnt.cumsum() - cnt
    pos = np.arange(tot) - first.repeat(cnt) + start[owner].repeat(cnt)
    return item, pos


# (its compiled twin runs where built: sim.rules.compiled)
ragged_expand = kernel("visibility.ragged_expand", ragged_expand)


def csr_concat(parts) -> tuple[np.ndarray, np.ndarray]:
    """CSR lists (start offsets, data) one after the other: one list of all their rows."""
    starts, off = [parts[0][0]], parts[0][0][-1]
    for s, _d in parts[1:]:
        starts.append(s[1:] + off)
        off = off + s[-1]
    return np.concatenate(starts), np.concatenate([d for _s, d in parts])


def csr_subset(start, data, sel):
    """Rows ``sel`` of a CSR list (start offsets, data): (new start, new data)."""
    cnt = start[sel + 1] - start[sel]
    ns = np.zeros(len(sel) + 1, dtype=np.int64)
    cnt.cumsum(out=ns[1:])
    first = ns[:-1]
    pos = np.arange(int(ns[-1])) - first.repeat(cnt) + start[sel].repeat(cnt)
    return ns, data[pos]


# (its compiled twin runs where built: sim.rules.compiled)
csr_subset = kernel("visibility.csr_subset", csr_subset)


def sat_cross_k(ax, ay, bx, by, pk: Pieces, k) -> np.ndarray:
    """The test of kernels.segments_blocked, entry by entry, for segments (ax, ay)-(bx, by)
    (1-D arrays) against pieces ``k`` of ``pk``, on the packed vertex-major copy (``Pieces.soa``); the segment's
    own axis is tried only where the piece's edge axes found no gap. Runs in chunks of
    ``_SAT_CHUNK`` entries."""
    E = len(k)
    Vm = int(pk.nverts.max()) if len(pk) else 1
    if E <= _SAT_CHUNK:
        return _sat_chunk(ax, ay, bx, by, pk, k, Vm)
    out = np.empty(E, dtype=bool)
    for c0 in range(0, E, _SAT_CHUNK):
        sl = slice(c0, c0 + _SAT_CHUNK)
        out[sl] = _sat_chunk(ax[sl], ay[sl], bx[sl], by[sl], pk, k[sl], Vm)
    return out


# (its compiled twin runs where built: sim.rules.compiled)
sat_cross_k = kernel("visibility.sat_cross_k", sat_cross_k)

_SAT_CHUNK = 8192       # entries per chunk of sat_cross_k
_BLK_CHUNK = 16384      # (segment, piece) entries per batch of _blocked_xy


def _sat_chunk(ax, ay, bx, by, pk: Pieces, k, Vm: int) -> np.ndarray:
    """One chunk of ``sat_cross_k`` (pieces of at most ``Vm`` vertices)."""
    nx, ny, off, vx, vy = pk.soa
    gx, gy = nx[:Vm].take(k, axis=1), ny[:Vm].take(k, axis=1)
    pa = gx * ax
    pa += gy * ay
    gx *= bx
    gy *= by
    gx += gy
    np.minimum(pa, gx, out=pa)
    pa -= off[:Vm].take(k, axis=1)
    cross = ~(pa >= -SIGHT_EPS).any(axis=0)
    e = flatnonzero(cross)
    if len(e) == 0:
        return cross
    ax, ay = ax[e], ay[e]
    dx, dy = bx[e] - ax, by[e] - ay
    L = np.sqrt(dx * dx + dy * dy)
    ok = L > 1e-12
    Ls = np.where(ok, L, 1.0)
    mx, my = np.where(ok, -dy / Ls, 0.0), np.where(ok, dx / Ls, 0.0)
    ke = k[e]
    vp = vx[:Vm].take(ke, axis=1) * mx
    vp += vy[:Vm].take(ke, axis=1) * my
    vp -= mx * ax + my * ay
    sep = ((vp.min(axis=0) >= -SIGHT_EPS) | (vp.max(axis=0) <= SIGHT_EPS)) & ok
    cross[e[sep]] = False
    return cross


def segments_blocked_ragged(p0, p1, owner, pk: Pieces, start, idx) -> np.ndarray:
    """13.11 Segment s (p0[s]-p1[s]) crosses one of the pieces idx[start[o]:start[o+1]],
    o = owner[s]?"""
    return _blocked_xy(p0[:, 0], p0[:, 1], p1[:, 0], p1[:, 1], owner, pk, start, idx)


def _blocked_xy(x0, y0, x1, y1, owner, pk: Pieces, start, idx) -> np.ndarray:
    """``segments_blocked_ragged`` on coordinate arrays; segments in chunks of at most
    about ``_BLK_CHUNK`` (segment, piece) entries."""
    S = len(x0)
    out = np.zeros(S, dtype=bool)
    if S == 0:
        return out
    cnt = start[owner + 1] - start[owner]
    cum = cnt.cumsum()
    tot = int(cum[-1])
    if tot <= _BLK_CHUNK:
        _blocked_part(x0, y0, x1, y1, owner, cnt, pk, start, idx, out)
        return out
    cuts = cum.searchsorted(np.arange(_BLK_CHUNK, tot, _BLK_CHUNK), "right")
    for s0, s1 in zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [S]])):
        if s1 > s0:
            sl = slice(s0, s1)
            _blocked_part(x0[sl], y0[sl], x1[sl], y1[sl], owner[sl], cnt[sl], pk, start, idx,
                          out[sl])
    return out


def _blocked_part(x0, y0, x1, y1, owner, cnt, pk: Pieces, start, idx, out) -> None:
    """One batch of ``_blocked_xy`` (``out``: its part of the answer, all False on entry).
    With many entries and several pieces a segment, two passes: each segment's first piece,
    then the other pieces of the segments that one did not block (a segment is blocked by any
    of its pieces: most are blocked, and a blocked segment's other pieces need no test)."""
    tot = int(cnt.sum())
    if tot == 0:
        return
    ends = cnt.cumsum()
    e_s = np.arange(len(owner)).repeat(cnt)
    pos = np.arange(tot) - (ends - cnt - start[owner]).repeat(cnt)
    k = idx.take(pos)
    if tot < _TWO_PASS_MIN or tot < _TWO_PASS * len(owner):
        cross = sat_cross_k(x0.take(e_s), y0.take(e_s), x1.take(e_s), y1.take(e_s), pk, k)
        out[e_s[cross]] = True
        return
    seg = flatnonzero(cnt)
    first = (ends - cnt).take(seg)
    cross = sat_cross_k(x0.take(seg), y0.take(seg), x1.take(seg), y1.take(seg), pk, k.take(first))
    out[seg[cross]] = True
    rest = ~out.take(e_s)
    rest[first] = False
    r = flatnonzero(rest)
    if len(r):
        e = e_s.take(r)
        cross = sat_cross_k(x0.take(e), y0.take(e), x1.take(e), y1.take(e), pk, k.take(r))
        out[e[cross]] = True


_TWO_PASS = 2           # pieces a segment on average from which _blocked_part tests in two passes
_TWO_PASS_MIN = 1024    # (and entries in all: below, the second pass's calls cost more than it saves)


def _tangent(c1x, c1y, r1, c2x, c2y, r2, sgn, root):
    """One family of common tangent lines of discs (c1, r1), (c2, r2): the arithmetic of
    kernels._common_tangents for one (sign, root), on coordinate arrays. ``sgn`` and
    ``root`` (+-1.0) may be arrays: several families in one call, the same arithmetic entry
    by entry (multiplying by +-1 is exact). Returns unit normals (nx, ny) and offsets s
    (n . x = s); invalid lines are NaN."""
    dx, dy = c1x - c2x, c1y - c2y
    D2 = dx * dx + dy * dy
    delta = r1 - sgn * r2
    h2 = D2 - delta * delta
    valid = (D2 > 1e-18) & (h2 >= -1e-12)
    h = np.sqrt(np.maximum(h2, 0.0))
    D2s = np.where(D2 > 1e-18, D2, 1.0)
    nx = (delta * dx + root * h * -dy) / D2s
    ny = (delta * dy + root * h * dx) / D2s
    nx[~valid] = np.nan
    ny[~valid] = np.nan
    return nx, ny, nx * c1x + ny * c1y - r1


def _disc_chord(nx, ny, s, cx, cy, r):
    """Interval (t0, t1) along u = perp(n) from x0 = n s where lines meet discs (c, r)."""
    wx, wy = cx - nx * s, cy - ny * s
    tc = wx * -ny + wy * nx
    dist = np.abs(wx * nx + wy * ny)
    ok = dist <= r + _TOL
    half = np.sqrt(np.maximum(r * r - dist * dist, 0.0))
    return np.where(ok, tc - half, np.nan), np.where(ok, tc + half, np.nan)


def _lines_free(nx, ny, s, owner, D, pk, pstart, pidx) -> np.ndarray:
    """For lines (n, s) of pair owner: is the line's A-to-B part unblocked (or do the
    footprints meet along it)? ``D`` = (ax, ay, ra, bx, by, rb) per pair."""
    good = ~np.isnan(nx)
    nx, ny, s, owner = nx[good], ny[good], s[good], owner[good]
    # both discs in one call (entry by entry the same arithmetic): A's chords, then B's
    n = len(owner)
    t0, t1 = _disc_chord(tile(nx, 2), tile(ny, 2), tile(s, 2),
                         *(np.concatenate([D[i].take(owner), D[i + 3].take(owner)]) for i in range(3)))
    ta0, ta1, tb0, tb1 = t0[:n], t1[:n], t0[n:], t1[n:]
    ok = ~(np.isnan(ta0) | np.isnan(tb0))
    nx, ny, s, owner = nx[ok], ny[ok], s[ok], owner[ok]
    ta0, ta1, tb0, tb1 = ta0[ok], ta1[ok], tb0[ok], tb1[ok]
    fwd = ta1 <= tb0 + _TOL
    bwd = tb1 <= ta0 + _TOL
    touch = ~fwd & ~bwd
    t_from = np.where(fwd, ta1, ta0)
    t_to = np.where(fwd, tb0, tb1)
    del ta0, ta1, tb0, tb1, fwd, bwd, ok, good           # (dels: keep the peak small)
    x0, y0 = nx * s, ny * s
    del s
    p0x, p0y = x0 - t_from * ny, y0 + t_from * nx
    p1x, p1y = x0 - t_to * ny, y0 + t_to * nx
    del x0, y0, nx, ny, t_from, t_to
    free = ~_blocked_xy(p0x, p0y, p1x, p1y, owner, pk, pstart, pidx)
    return owner[free | touch]


def outline_crossings_round(c, r, pk: Pieces, start, idx, rows=None):
    """06.01 Points where the edges of the pieces of CSR row ``rows[q]`` (default q) cross the
    circle (c[q], r[q]): the extra generators of kernels._outline_crossings (they matter
    only when a piece overlaps a base). Returns (circle q, points), ordered by circle, then
    the root's sign (-, +), then piece and edge (one call for both bases of many pairs)."""
    q, pos = ragged_expand(start, np.arange(len(c)) if rows is None else rows)
    k = idx.take(pos)
    # only pieces whose box, grown by the radius + 0.01", holds the circle's centre can
    # cross it (a crossing is a point of the circle on an edge, inside the piece's box)
    g = r.take(q) + 0.01
    cx, cy = c[:, 0].take(q), c[:, 1].take(q)
    bb = pk.bbox
    near = flatnonzero((cx >= bb[:, 0].take(k) - g) & (cx <= bb[:, 2].take(k) + g)
                          & (cy >= bb[:, 1].take(k) - g) & (cy <= bb[:, 3].take(k) + g))
    if len(near) == 0:                      # the usual case: no piece overlaps a base
        return q[:0], np.zeros((0, 2))
    q, k = q.take(near), k.take(near)
    a = pk.verts[k]
    b = roll_next(a, 1)
    V = a.shape[1]
    a, b = a.reshape(-1, 2), b.reshape(-1, 2)
    q = q.repeat(V)
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
    own = np.concatenate(owners)
    order = np.argsort(own, kind="stable")            # by circle; the signs stay in order
    return own[order], np.concatenate(pts)[order]


# (its compiled twin runs where built: sim.rules.compiled)
outline_crossings_round = kernel("visibility.outline_crossings_round", outline_crossings_round)


_ONE_PASS = 64          # pairs up to which rounds 0 and 1 of pairs_visible_round go in one pass


def _first_lines(D, qs, oi, oown, ox, oy):
    """Candidate lines of rounds 0 and 1 of ``pairs_visible_round`` in one _tangent call
    (sign and root per line): the four common tangents of A and B of pairs ``qs``, then
    the two tangents to A and the two to B through obstacle vertices ``oi``. Returns
    (nx, ny, s, owner pair)."""
    oq = oown[oi]
    nq, no = len(qs), len(oi)
    pm = np.array([1.0, -1.0, 1.0, -1.0])
    sg = np.concatenate([np.ones(2 * nq), -np.ones(2 * nq), np.ones(4 * no)])
    rt = np.concatenate([pm.repeat(nq), pm.repeat(no)])
    c1 = [np.concatenate([tile(D[i].take(qs), 4), tile(D[i].take(oq), 2),
                          tile(D[i + 3].take(oq), 2)]) for i in range(3)]
    c2 = [np.concatenate([tile(D[3].take(qs), 4), tile(ox.take(oi), 4)]),
          np.concatenate([tile(D[4].take(qs), 4), tile(oy.take(oi), 4)]),
          np.concatenate([tile(D[5].take(qs), 4), np.zeros(4 * no)])]
    return (*_tangent(*c1, *c2, sg, rt), np.concatenate([tile(qs, 4), tile(oq, 4)]))


def pairs_visible_round(ca, ra, cb, rb, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Exact sight between round footprints A[q] and B[q] for many pairs at once.

    Pieces of pair q: ``pidx[pstart[q]:pstart[q+1]]``; obstacle vertices (generators):
    ``opts[ostart[q]:ostart[q+1]]``. Pieces overlapping a disc need the outline crossings
    among the generators (see ``outline_crossings_round``). Candidate lines in rounds, each
    only for the pairs still unresolved: the four common tangents of A and B; lines tangent
    to A or B through an obstacle vertex (with the first round, for up to ``_ONE_PASS``
    pairs); lines through two obstacle vertices."""
    Q = len(ca)
    vis = np.zeros(Q, dtype=bool)
    if Q == 0:
        return vis
    vis |= (pstart[1:] - pstart[:-1]) == 0
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    ox, oy = opts[:, 0].copy(), opts[:, 1].copy()
    oown = np.arange(Q).repeat(ostart[1:] - ostart[:-1])
    # round 0: common tangents of A and B; round 1: tangent to A or B through an obstacle
    # vertex. With few pairs (one model moved) both in one pass: numpy calls cost more than
    # the extra lines. With many, round 1 only for the pairs round 0 leaves (vis is an OR
    # over lines)
    qs = flatnonzero(~vis)
    if Q <= _ONE_PASS:
        lines = _first_lines(D, qs, flatnonzero(~vis[oown]), oown, ox, oy)
        vis[_lines_free(*lines, D, pk, pstart, pidx)] = True
    else:
        none = np.zeros(0, dtype=np.int64)
        vis[_lines_free(*_first_lines(D, qs, none, oown, ox, oy), D, pk, pstart, pidx)] = True
        lines = _first_lines(D, none, flatnonzero(~vis[oown]), oown, ox, oy)
        vis[_lines_free(*lines, D, pk, pstart, pidx)] = True
    # round 2: lines through two obstacle vertices of the same pair, in batches
    oi = flatnonzero(~vis[oown])
    if len(oi) > 1:
        oq = oown[oi]
        local = oi - ostart[oq]
        cnt = (ostart[oq + 1] - ostart[oq]) - 1 - local
        a = oi.repeat(cnt)
        first = cnt.cumsum() - cnt
        b = a + 1 + (np.arange(int(cnt.sum())) - first.repeat(cnt))
        for c0 in range(0, len(a), _LINES):
            a1, b1 = a[c0:c0 + _LINES], b[c0:c0 + _LINES]
            live = ~vis[oown[a1]]
            a1, b1 = a1[live], b1[live]
            if len(a1):
                z = np.zeros(len(a1))
                nx, ny, s = _tangent(ox[a1], oy[a1], z, ox[b1], oy[b1], z, 1.0, 1.0)
                vis[_lines_free(nx, ny, s, oown[a1], D, pk, pstart, pidx)] = True
    return vis


# (its compiled twin runs where built: sim.rules.compiled)
pairs_visible_round = kernel("visibility.pairs_visible_round", pairs_visible_round)
