"""06.01 Fully visible, batched: many round model pairs in one numpy pass.

``fully_visible_round`` gives, for every pair, the answer of
sim.rules.visibility.kernels.footprint_fully_visible on the same pieces and obstacle vertices (the
CSR inputs of sim.rules.visibility.batch): B's outline decided exactly (a point inside every arc
between crossings of the critical lines, and the crossings), B's interior sampled at its
centre and a ring of 8 points at half size. Each sample point is tested exactly as
kernels.points_visible_from does (``points_visible_round``): the segment from A's outline
towards the point, then the candidate lines through it (tangent to A, through an obstacle
vertex). Stages, each only for the pairs still open (certificates: sim.rules.visibility.certs):

1. "not fully visible": a point of B's fixed outline ring in the umbra of one piece lit by A;
2. "fully visible": every segment from one apex (on A's outline, at A's centre, behind the
   arc of tangent points on either side) to B free;
3. "not fully visible": one of B's fixed samples inside a piece;
4. every sample of the kernel (the fixed ones, then the outline arcs' ones): a certificate
   per point where no piece comes near A's outline (a free direction; or every direction
   into a nearer piece), then the exact point test for the points left.

Every certificate agrees with the kernel (margins far above its 1e-9" tolerance); a sample
found in shadow is a real point of B that the kernel also samples and tests the same way.
Non-round bases stay with the kernel (sim.rules.visibility.index).
"""

from __future__ import annotations

import numpy as np

from sim.rules.visibility.batch import _TOL, _blocked_xy, _disc_chord, _tangent, ragged_expand
from sim.rules.visibility.certs import (
    FIXED,
    RING,
    near_a,
    point_certificates,
    ring_shadowed,
    sample_inside,
    star_free,
)
from sim.rules.visibility.kernels import Pieces
from sim.rules.arrays import flatnonzero, sorted_unique, tile
from sim.rules.compiled import kernel

__all__ = ["points_visible_round", "fully_visible_round", "round_samples"]


def points_visible_round(qx, qy, owner, D, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Exact: is sample point (qx, qy) of pair ``owner`` seen from the pair's disc A?

    kernels.points_visible_from for many points of many pairs: first the segment from
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
    rest = flatnonzero(~vis)
    if len(rest) == 0:
        return vis
    vis[rest] = _points_exact(qx[rest], qy[rest], owner[rest], D, pk, pstart, pidx, ostart, opts)
    return vis


def _points_exact(rx, ry, ro, D, pk, pstart, pidx, ostart, opts) -> np.ndarray:
    """The exact stage of ``points_visible_round``: the candidate lines through each point
    (the two tangents to A, the lines through the obstacle vertices)."""
    vis = np.zeros(len(rx), dtype=bool)
    ax, ay, ra = (a.take(ro) for a in D)
    z = np.zeros(len(rx))
    fam = [_tangent(rx, ry, z, ax, ay, ra, 1.0, rt) for rt in (1.0, -1.0)]
    item = [np.arange(len(rx))] * 2
    it, pos = ragged_expand(ostart, ro)
    if len(it):
        z = np.zeros(len(it))
        fam.append(_tangent(rx.take(it), ry.take(it), z, opts[pos, 0], opts[pos, 1], z, 1.0, 1.0))
        item.append(it)
    nx, ny, s = (np.concatenate(x) for x in zip(*fam))
    vis[_seen_along(nx, ny, s, np.concatenate(item), rx, ry, ro, D, pk, pstart, pidx)] = True
    return vis


def _seen_along(nx, ny, s, item, rx, ry, ro, D, pk, pstart, pidx) -> np.ndarray:
    """The points ``item`` (indices into rx, ry) whose line (n, s) meets disc A and whose
    A-to-point part is free (or the point is on A's chord)."""
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
    return item[free | inside]


def _shadowed(qx, qy, owner, D, pk, pstart, pidx, ostart, opts) -> np.ndarray:
    """The pairs (sorted ``owner`` values) with a sample point not seen from A: the points
    of ``points_visible_round`` (the segment from A's outline first, then the exact test
    for the points it leaves blocked)."""
    ax, ay, ra = (a.take(owner) for a in D)
    dx, dy = qx - ax, qy - ay
    f = ra / np.maximum(np.sqrt(dx * dx + dy * dy), 1e-12)
    b = flatnonzero(_blocked_xy(ax + f * dx, ay + f * dy, qx, qy, owner, pk, pstart, pidx))
    if len(b) == 0:
        return b
    ex = _points_exact(qx[b], qy[b], owner[b], D, pk, pstart, pidx, ostart, opts)
    return sorted_unique(owner[b[~ex]])


# (its compiled twin runs where built: sim.rules.compiled)
_shadowed = kernel("visibility.shadowed", _shadowed)


def _critical_angles(D, q, ostart, opts):
    """For pairs ``q``: the angles (about B's centre) where the critical lines of
    kernels.footprint_fully_visible (through an obstacle vertex tangent to A, through
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
    first = (cnt.cumsum() - cnt).repeat(cnt)
    local = np.arange(len(pos)) - first
    m = cnt.repeat(cnt) - 1 - local
    a = np.arange(len(pos)).repeat(m)
    b = a + 1 + (np.arange(int(m.sum())) - (m.cumsum() - m).repeat(m))
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
    off = np.arccos((d / r).clip(-1.0, 1.0))
    return np.concatenate([own, own]), np.concatenate([base + off, base - off])


# star apexes: angle from the direction of B, and distance from A's centre as a fraction of
# its radius (the last one: A's centre)
def fully_visible_round(ca, ra, cb, rb, pk: Pieces, pstart, pidx, ostart, opts) -> np.ndarray:
    """06.01 Fully visible, round A[q] and B[q], many pairs at once: the answer of
    kernels.footprint_fully_visible on the same pieces and obstacle vertices (stages:
    the module docstring)."""
    P = len(ca)
    out = np.ones(P, dtype=bool)
    q = flatnonzero(pstart[1:] > pstart[:-1])
    if len(q) == 0:
        return out
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    sh = ring_shadowed(D, q, pk, pstart, pidx)
    out[q[sh]] = False
    q = q[~sh]
    if len(q) == 0:
        return out
    near = np.zeros(P, dtype=bool)
    near[q] = near_a(D, q, pk, pstart, pidx)
    q = q[~star_free(D, q, pk, pstart, pidx, near)]
    round_samples(D, q, near, out, pk, pstart, pidx, ostart, opts)
    return out


def round_samples(D, q, near, out, pk: Pieces, pstart, pidx, ostart, opts) -> None:
    """Stages 3 and 4 of ``fully_visible_round`` (the module docstring) for the round pairs
    ``q`` that stages 1 and 2 left open (``D`` = (ax, ay, ra, bx, by, rb) per pair, ``near``
    their near_a): their answers written into ``out`` (False where not fully visible)."""
    if len(q) == 0:
        return
    rb = D[5]
    sh = sample_inside(D, q, pk, pstart, pidx)
    out[q[sh]] = False
    q = q[~sh]
    if len(q) == 0:
        return
    # every sample of the kernel: the fixed ones, then the outline arcs' ones
    F = len(FIXED)
    px = (D[3].take(q)[:, None] + rb.take(q)[:, None] * FIXED[:, 0]).ravel()
    py = (D[4].take(q)[:, None] + rb.take(q)[:, None] * FIXED[:, 1]).ravel()
    own = q.repeat(F)
    ox, oy, oo = _arc_samples(D, q, ostart, opts)
    px, py = np.concatenate([px, ox]), np.concatenate([py, oy])
    own = np.concatenate([own, oo])
    seen = np.zeros(len(px), dtype=bool)
    f = flatnonzero(~near.take(own))             # (near A: the exact test only)
    if len(f):
        sf, hf = point_certificates(px[f], py[f], own[f], D, pk, pstart, pidx)
        seen[f] = sf
        out[own[f[hf]]] = False
    t = flatnonzero(~seen & out.take(own))      # the exact test for the points left
    if len(t):
        out[_shadowed(px[t], py[t], own[t], D[:3], pk, pstart, pidx, ostart, opts)] = False


def _arc_samples(D, q, ostart, opts):
    """B's outline samples of kernels.boundary_samples for pairs ``q`` besides the fixed
    ring: one point inside every arc between consecutive crossings of the critical lines
    and ring angles, and the crossings. Returns (x, y, owner pair)."""
    rb = D[5]
    own, ang = _critical_angles(D, q, ostart, opts)
    is_x = np.concatenate([np.ones(len(own), bool), np.zeros(len(q) * RING, bool)])
    own = np.concatenate([own, q.repeat(RING)])
    ang = np.concatenate([np.mod(ang, 2 * np.pi),
                          tile(np.linspace(0, 2 * np.pi, RING, endpoint=False), len(q))])
    order = np.lexsort((ang, own))
    own, ang, is_x = own[order], ang[order], is_x[order]
    nxt = np.arange(1, len(own) + 1)
    wrap = nxt == own.searchsorted(own, "right")
    nxt[wrap] = own.searchsorted(own[wrap], "left")
    mids = 0.5 * (ang + ang[nxt] + np.where(wrap, 2 * np.pi, 0.0))
    ang = np.concatenate([mids, ang[is_x]])
    own = np.concatenate([own, own[is_x]])
    rr = rb.take(own)
    return D[3].take(own) + rr * np.cos(ang), D[4].take(own) + rr * np.sin(ang), own


# (its compiled twin runs where built: sim.rules.compiled; its angles are numpy's own)
_arc_samples = kernel("visibility.arc_samples", _arc_samples)
