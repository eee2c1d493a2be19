"""06.01 Fully visible, batched: many round model pairs in one numpy pass.

``fully_visible_round`` gives, for every pair, the answer of
sim.rules.los_kernels.footprint_fully_visible on the same pieces and obstacle vertices (the
CSR inputs of sim.rules.los_batch): B's outline decided exactly (a point inside every arc
between crossings of the critical lines, and the crossings), B's interior sampled at its
centre and a ring of 8 points at half size. Each sample point is tested exactly as
los_kernels.points_visible_from does (``points_visible_round``): the segment from A's outline
towards the point, then the candidate lines through it (tangent to A, through an obstacle
vertex). Stages, each only for the pairs still open:

0. certificate "not fully visible": a sample every pair has (ring of 16 outline points,
   inner ring, centre) inside the umbra of one piece's chord lit by A (as in
   los_pairs.umbra_blocked; a cheap guess), confirmed by the exact point test;
1. those fixed samples, directly then exactly: the exact stage takes one directly blocked
   point per pair first (centre first), then the rest for the pairs it did not settle;
2. the outline arcs between critical crossings (crossings and one point per arc).

A sample found in shadow is a real point of B that the kernel also samples and tests the
same way, so every stage returns the kernel's answer; pairs reaching the end are fully
visible. Non-round bases stay with the kernel (sim.rules.visibility_index).
"""

from __future__ import annotations

import numpy as np

from sim.rules.los_batch import _TOL, _blocked_xy, _disc_chord, _tangent, ragged_expand
from sim.rules.los_kernels import Pieces

__all__ = ["points_visible_round", "fully_visible_round"]

_RING, _INNER = 16, 8


def _fixed_offsets() -> np.ndarray:
    """Unit offsets of the samples every pair gets in los_kernels.boundary_samples: the ring
    of 16 outline points, the inner ring of 8 at half size and the centre."""
    t = np.linspace(0, 2 * np.pi, _RING, endpoint=False)
    u = np.linspace(0, 2 * np.pi, _INNER, endpoint=False) + np.pi / _INNER
    return np.concatenate([np.stack([np.cos(t), np.sin(t)], 1),
                           0.5 * np.stack([np.cos(u), np.sin(u)], 1), np.zeros((1, 2))])


_FIXED = _fixed_offsets()
_PRI = np.arange(len(_FIXED))[::-1].copy()    # exact-test order of the fixed samples: centre first
_SMALL = 64                                     # below this many points, one exact round


def points_visible_round(qx, qy, owner, D, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Exact: is sample point (qx, qy) of pair ``owner`` seen from the pair's disc A?

    los_kernels.points_visible_from for many points of many pairs: first the segment from
    A's outline (towards q from A's centre) to q; for the points it leaves blocked, the
    candidate lines through q (the two tangents to A, and the line through q and each
    obstacle vertex of the pair), each line's A-to-q part tested against the pair's pieces.
    ``D`` = (ax, ay, ra) per pair."""
    vis = np.zeros(len(qx), dtype=bool)
    if len(qx) == 0:
        return vis
    ax, ay, ra = (a.take(owner) for a in D)
    dx, dy = qx - ax, qy - ay
    f = ra / np.maximum(np.sqrt(dx * dx + dy * dy), 1e-12)
    vis = ~_blocked_xy(ax + f * dx, ay + f * dy, qx, qy, owner, pk, pstart, pidx)
    rest = np.flatnonzero(~vis)
    if len(rest) == 0:
        return vis
    vis[rest] = _points_exact(qx[rest], qy[rest], owner[rest], D, pk, pstart, pidx, ostart, opts)
    return vis


def _points_exact(rx, ry, ro, D, pk, pstart, pidx, ostart, opts) -> np.ndarray:
    """The exact stage of ``points_visible_round`` (candidate lines through each point)."""
    rest = np.arange(len(rx))
    vis = np.zeros(len(rx), dtype=bool)
    ax, ay, ra = (a.take(ro) for a in D)
    z = np.zeros(len(rest))
    fam = [_tangent(rx, ry, z, ax, ay, ra, 1.0, rt) for rt in (1.0, -1.0)]
    item = [np.arange(len(rest))] * 2
    it, pos = ragged_expand(ostart, ro)
    if len(it):
        z = np.zeros(len(it))
        fam.append(_tangent(rx.take(it), ry.take(it), z, opts[pos, 0], opts[pos, 1], z, 1.0, 1.0))
        item.append(it)
    nx, ny, s = (np.concatenate(x) for x in zip(*fam))
    item = np.concatenate(item)
    good = ~np.isnan(nx)
    nx, ny, s, item = nx[good], ny[good], s[good], item[good]
    o = ro.take(item)
    t0, t1 = _disc_chord(nx, ny, s, *(a.take(o) for a in D))
    ok = ~np.isnan(t0)
    nx, ny, s, item, o, t0, t1 = nx[ok], ny[ok], s[ok], item[ok], o[ok], t0[ok], t1[ok]
    px, py = rx.take(item), ry.take(item)
    x0, y0 = nx * s, ny * s
    tq = (px - x0) * -ny + (py - y0) * nx
    inside = (tq >= t0 - _TOL) & (tq <= t1 + _TOL)
    tf = np.where(tq >= t1, t1, np.where(tq <= t0, t0, tq))
    free = ~_blocked_xy(x0 - tf * ny, y0 + tf * nx, px, py, o, pk, pstart, pidx)
    vis[rest[item[free | inside]]] = True
    return vis


def _shadowed(qx, qy, owner, D, pk, pstart, pidx, ostart, opts, pri=None) -> np.ndarray:
    """The pairs (sorted ``owner`` values) with a sample point not seen from A: the points
    of ``points_visible_round``, but the exact stage first takes one directly blocked point
    per pair (the lowest ``pri``), then the rest for the pairs it did not settle."""
    ax, ay, ra = (a.take(owner) for a in D)
    dx, dy = qx - ax, qy - ay
    f = ra / np.maximum(np.sqrt(dx * dx + dy * dy), 1e-12)
    bl = np.flatnonzero(_blocked_xy(ax + f * dx, ay + f * dy, qx, qy, owner, pk, pstart, pidx))
    if len(bl) == 0:
        return bl
    if pri is not None:
        bl = bl[np.lexsort((pri[bl], owner[bl]))]
    o = owner[bl]
    head = np.ones(len(bl), bool)
    head[1:] = o[1:] != o[:-1]
    found = np.zeros(len(D[0]), bool)
    rounds = (head, ~head) if len(bl) > _SMALL else (np.ones(len(bl), bool),)
    for sel in rounds:
        b = bl[sel]
        b = b[~found[owner[b]]]
        if len(b):
            ex = _points_exact(qx[b], qy[b], owner[b], D, pk, pstart, pidx, ostart, opts)
            found[owner[b[~ex]]] = True
    return np.flatnonzero(found)


def _umbra_points(D, q, pk: Pieces, pstart, pidx, pts_x, pts_y) -> np.ndarray:
    """(len(q), S) mask: sample point s of pair q[i] (``pts_x``/``pts_y``, (len(q), S)) lies
    in the umbra of one of the pair's pieces lit by disc A (grown by 1e-6"): the umbra of
    the chord between the piece's silhouette vertices seen from A's centre (as in
    los_pairs.umbra_blocked). Only a cheap guess of a shadowed point: callers confirm it
    with the exact point test."""
    e, pos = ragged_expand(pstart, q)
    k = pidx.take(pos)
    nx, ny, off, vx, vy = (a.take(k, axis=1) for a in pk.soa)  # (V, E)
    cx, cy, r = D[0].take(q.take(e)), D[1].take(q.take(e)), D[2].take(q.take(e)) + 1e-6
    F = nx * cx + ny * cy > off
    T = F != np.roll(F, 1, axis=0)
    V = len(F)
    a, b = T.argmax(axis=0), V - 1 - T[::-1].argmax(axis=0)
    E = np.arange(len(e))
    x1, y1, x2, y2 = vx[a, E], vy[a, E], vx[b, E], vy[b, E]
    sw = (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx) < 0      # t1 -> t2 counter-clockwise
    x1, x2 = np.where(sw, x2, x1), np.where(sw, x1, x2)
    y1, y2 = np.where(sw, y2, y1), np.where(sw, y1, y2)
    ex, ey = x2 - x1, y2 - y1
    le = np.sqrt(ex * ex + ey * ey)
    valid = (T.sum(axis=0) == 2) & (le > 1e-9)
    le[le == 0] = 1.0
    ncx, ncy = -ey / le, ex / le                                # chord normal towards A
    oc = ncx * x1 + ncy * y1
    valid &= ncx * cx + ncy * cy - r >= oc + 1e-9
    Px, Py = pts_x[e], pts_y[e]                                 # (E, S)
    inside = (ncx[:, None] * Px + ncy[:, None] * Py + 1e-6 <= oc[:, None]) & valid[:, None]
    for px, py, qx, qy, sg in ((x1, y1, x2, y2, 1.0), (x2, y2, x1, y1, -1.0)):
        wx, wy = cx - px, cy - py
        d2 = wx * wx + wy * wy
        h = np.sqrt(np.maximum(d2 - r * r, 0.0))
        n_x = (-r * wx - sg * h * wy) / d2
        n_y = (-r * wy + sg * h * wx) / d2
        ok = (d2 > r * r) & (n_x * (qx - px) + n_y * (qy - py) <= 0)
        inside &= ok[:, None] & (n_x[:, None] * Px + n_y[:, None] * Py + 1e-6
                                 <= (n_x * px + n_y * py)[:, None])
    cnt = pstart[q + 1] - pstart[q]
    return np.logical_or.reduceat(inside, np.cumsum(cnt) - cnt, axis=0)


def _critical_angles(D, q, ostart, opts):
    """For pairs ``q``: the angles (about B's centre) where the critical lines of
    los_kernels.footprint_fully_visible (through an obstacle vertex tangent to A, through
    two obstacle vertices) cross B's outline. Returns (owner pair, angle)."""
    ax, ay, ra, bx, by, rb = D
    oq, pos = ragged_expand(ostart, q)
    oq = q.take(oq)
    ox, oy = opts[pos, 0], opts[pos, 1]
    z = np.zeros(len(pos))
    fam = [_tangent(ox, oy, z, ax.take(oq), ay.take(oq), ra.take(oq), 1.0, rt) for rt in (1.0, -1.0)]
    own = [oq, oq]
    # lines through two obstacle vertices of the same pair (i < j)
    cnt = ostart[q + 1] - ostart[q]
    first = np.repeat(np.cumsum(cnt) - cnt, cnt)
    local = np.arange(len(pos)) - first
    m = np.repeat(cnt, cnt) - 1 - local
    a = np.repeat(np.arange(len(pos)), m)
    b = a + 1 + (np.arange(int(m.sum())) - np.repeat(np.cumsum(m) - m, m))
    if len(a):
        z = np.zeros(len(a))
        fam.append(_tangent(ox[a], oy[a], z, ox[b], oy[b], z, 1.0, 1.0))
        own.append(oq[a])
    nx, ny, s = (np.concatenate(x) for x in zip(*fam))
    own = np.concatenate(own)
    cx, cy, r = bx.take(own), by.take(own), rb.take(own)
    d = nx * cx + ny * cy - s
    ok = np.abs(d) <= r                      # NaN lines drop out here
    nx, ny, d, own, r = nx[ok], ny[ok], d[ok], own[ok], r[ok]
    base = np.arctan2(-ny, -nx)
    off = np.arccos(np.clip(d / r, -1.0, 1.0))
    return np.concatenate([own, own]), np.concatenate([base + off, base - off])


def fully_visible_round(ca, ra, cb, rb, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Fully visible, round A[q] and B[q], many pairs at once: the answer of
    los_kernels.footprint_fully_visible on the same pieces and obstacle vertices.

    Stage 1: the samples every pair has there (ring of 16 outline points, inner ring,
    centre), tested exactly; one not seen settles "not fully visible" (a real point of B in
    shadow). Stage 2, for the pairs left: the outline arcs between crossings of the critical
    lines, one point inside each arc and the crossings themselves, tested exactly (between
    crossings a point's status cannot change, so the outline is decided exactly)."""
    P = len(ca)
    out = np.ones(P, dtype=bool)
    q = np.flatnonzero(pstart[1:] > pstart[:-1])
    if len(q) == 0:
        return out
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    F = len(_FIXED)
    px = D[3].take(q)[:, None] + rb.take(q)[:, None] * _FIXED[:, 0]
    py = D[4].take(q)[:, None] + rb.take(q)[:, None] * _FIXED[:, 1]
    # stage 0: a fixed sample in a piece's umbra, confirmed by the exact point test
    if len(q) > _SMALL // 2:                 # (a small batch is cheaper without it)
        um = _umbra_points(D, q, pk, pstart, pidx, px, py)
        w = np.flatnonzero(um.any(axis=1))
        j = (um[w] * (F - _PRI)).argmax(axis=1)
        sh = ~_points_exact(px[w, j], py[w, j], q[w], D[:3], pk, pstart, pidx, ostart, opts)
        out[q[w[sh]]] = False
        keep = out[q]
        q, px, py = q[keep], px[keep], py[keep]
        if len(q) == 0:
            return out
    px, py = px.ravel(), py.ravel()
    own = np.repeat(q, F)
    pri = np.tile(_PRI, len(q))
    out[_shadowed(px, py, own, D[:3], pk, pstart, pidx, ostart, opts, pri)] = False
    q = q[out[q]]
    if len(q) == 0:
        return out
    own, ang = _critical_angles(D, q, ostart, opts)
    is_x = np.concatenate([np.ones(len(own), bool), np.zeros(len(q) * _RING, bool)])
    own = np.concatenate([own, np.repeat(q, _RING)])
    ang = np.concatenate([np.mod(ang, 2 * np.pi),
                          np.tile(np.linspace(0, 2 * np.pi, _RING, endpoint=False), len(q))])
    order = np.lexsort((ang, own))
    own, ang, is_x = own[order], ang[order], is_x[order]
    nxt = np.arange(1, len(own) + 1)
    wrap = nxt == np.searchsorted(own, own, "right")
    nxt[wrap] = np.searchsorted(own, own[wrap], "left")
    mids = 0.5 * (ang + ang[nxt] + np.where(wrap, 2 * np.pi, 0.0))
    ang = np.concatenate([mids, ang[is_x]])
    own = np.concatenate([own, own[is_x]])
    rr = rb.take(own)
    px = D[3].take(own) + rr * np.cos(ang)
    py = D[4].take(own) + rr * np.sin(ang)
    out[_shadowed(px, py, own, D[:3], pk, pstart, pidx, ostart, opts)] = False
    return out
