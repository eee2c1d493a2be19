"""06.01 / 13.10 / 13.11 Pair stages of the VisibilityIndex: which blocker pieces matter for
which pair of models, resolved for all pairs at once (numpy).

Only *active* pieces count (13.10: obscuring areas neither model is within; 13.11: dense
features of areas either model is within). For pairs (I, J) of models (round or not):

1. ``umbra_blocked`` (certificate "definitely blocked"): per observer, for every piece, the
   chord t1-t2 joining the piece's silhouette vertices seen from the observer's centre and
   the umbra of that chord lit by the observer's bounding circle (two tangent half-planes
   through t1 and t2 and the far side of the chord). A target whose bounding circle lies
   in it (margins 1e-6") cannot be seen: every segment between the bases crosses the
   chord's relative interior, which lies in the piece's open interior (or crosses the
   piece's edge into it). Candidates come from one angular sort of the targets per
   observer and ``searchsorted`` over the chords' angular intervals; the tests run in
   batches of a few thousand (observer, piece, target) triples.
2. ``capsule_inputs``: for the pairs left, the exact centre crossing (separating axes)
   -> ``centre_free``; the pieces meeting the capsule around the centre segment (radius =
   the larger bounding radius) and the obstacle vertices inside it: the inputs of the exact
   test (sim.rules.los_batch / sim.rules.los_kernels). No such piece -> ``clear`` (visible
   and fully visible both ways).

Every stage is a sound filter or certificate followed by an exact test on the pair's own
data, so the answer for a pair does not depend on which other pairs are resolved with it.
Kernels use the vertex-major packed pieces (``Pieces.soa``) and 1-D coordinate arrays:
small-axis reductions and (E, V, 2) gathers cost far more than the arithmetic here.
"""

from __future__ import annotations

import numpy as np

from sim.rules.los_batch import sat_cross_k
from sim.rules.visibility import AREA, DENSE

__all__ = ["umbra_blocked", "capsule_inputs"]

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
    C = ix.centres
    ax, ay = C[:, 0].take(I.take(p)), C[:, 1].take(I.take(p))
    bx, by = C[:, 0].take(J.take(p)), C[:, 1].take(J.take(p))
    cross = sat_cross_k(ax, ay, bx, by, pk, k)
    _, _, _, vx, vy = pk.soa                                     # (V, K)
    Vx, Vy = vx.take(k, axis=1), vy.take(k, axis=1)              # (V, E)
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    L2[L2 <= 0] = 1.0
    rx, ry = Vx - ax, Vy - ay
    t = np.clip((rx * dx + ry * dy) / L2, 0, 1)
    rx -= t * dx
    ry -= t * dy
    dvs2 = rx * rx + ry * ry
    Wx, Wy = np.roll(Vx, -1, axis=0) - Vx, np.roll(Vy, -1, axis=0) - Vy
    WW = np.maximum(Wx * Wx + Wy * Wy, 1e-30)
    de = np.full(len(p), np.inf)
    for px, py in ((ax, ay), (bx, by)):
        qx, qy = px - Vx, py - Vy
        uu = np.clip((qx * Wx + qy * Wy) / WW, 0, 1)
        qx -= uu * Wx
        qy -= uu * Wy
        de = np.minimum(de, (qx * qx + qy * qy).min(axis=0))
    dist = np.where(cross, 0.0, np.sqrt(np.minimum(dvs2.min(axis=0), de)))
    centre_free = np.ones(P, bool)
    centre_free[p[cross]] = False
    hit = dist < R[p] + 1e-9
    p, k, dvs2 = p[hit], k[hit], dvs2[:, hit]
    pstart = np.searchsorted(p, np.arange(P + 1), side="left").astype(np.int64)
    # obstacle vertices (real ones, not padding) within R of the centre segment
    real = np.arange(dvs2.shape[0])[:, None] < pk.nverts[k][None, :]
    inside = real & (np.sqrt(dvs2) <= R[p][None, :])
    ep, ev = np.nonzero(inside.T)
    opts = pk.verts[k[ep], ev]
    ostart = np.searchsorted(p[ep], np.arange(P + 1), side="left").astype(np.int64)
    return pstart, k, ostart, opts, centre_free


_TWO_PI = 2.0 * np.pi
_GROW = 1e-6            # bounding circles grown by this much (both sides): margins of the certificate
_CHUNK = 8192           # triples per batch: keeps temporaries small (cache, no fresh mmap pages)


def umbra_blocked(ix, obs, tgt, dense_only: bool = False) -> np.ndarray:
    """Stage 1 for directed pairs (observer ``obs``, target ``tgt``): ``blocked`` where the
    target's (grown) bounding circle lies wholly in the umbra of a chord t1-t2 of one
    convex active piece, lit by the observer's (grown) bounding circle.

    The chord joins the piece's silhouette vertices seen from the observer's centre; any
    segment from the light to a point of the umbra crosses the chord's relative interior,
    hence enters the piece's open interior (a chord of a convex piece is inside it), so
    every sight segment between the footprints is blocked. Candidates: per observer, the
    targets whose direction lies in the chord's angular interval (one sort and
    ``searchsorted`` for all observers), then three half-plane tests per (observer, piece,
    target) and the 13.10 / 13.11 activity of the piece for the pair."""
    P = len(obs)
    blocked = np.zeros(P, bool)
    pk = ix.blk.pieces
    K = len(pk)
    if K == 0 or P == 0:
        return blocked
    C = ix.centres
    tx, ty = C[tgt, 0], C[tgt, 1]
    th = np.arctan2(ty - C[obs, 1], tx - C[obs, 0])
    th %= _TWO_PI
    uo, oinv = np.unique(obs, return_inverse=True)
    key = np.concatenate([th, th + _TWO_PI])
    key += np.tile(oinv * 16.0, 2)
    order = np.argsort(key)
    sk = key[order]
    order %= P
    ln = _chord_lines(ix, uo, dense_only)
    lo = ln["lo"] + np.repeat(16.0 * np.arange(len(uo)), K)
    s = np.searchsorted(sk, lo, "left")
    cnt = np.searchsorted(sk, lo + ln["width"], "right") - s
    cnt[~ln["valid"]] = 0
    cum = np.cumsum(cnt)
    tot = int(cum[-1])
    if tot == 0:
        return blocked
    rb = ix.rad[tgt] + _GROW
    NA = ix.within.shape[1]
    wflat = ix.within.ravel()
    trow = tgt * NA
    L = ln["L"]
    cuts = np.searchsorted(cum, np.arange(_CHUNK, tot, _CHUNK), "left")
    for l0, l1 in zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [len(cnt)]])):
        c = cnt[l0:l1]
        n = int(c.sum())
        if n == 0:
            continue
        ik = np.repeat(np.arange(l0, l1), c)
        pos = np.arange(n) - np.repeat(np.cumsum(c) - c - s[l0:l1], c)
        p = order.take(pos)
        qx, qy, r = tx.take(p), ty.take(p), rb.take(p)
        ok = None
        for row in (6, 0, 3):               # chord first: it rejects the near targets
            v = L[row].take(ik) * qx
            v += L[row + 1].take(ik) * qy
            v += r
            t = v <= L[row + 2].take(ik)
            ok = t if ok is None else ok & t
        ik, p = ik[ok], p[ok]
        if not dense_only:
            tw = wflat.take(trow.take(p) + ln["area"].take(ik))
            keep = np.where(tw, ln["act_in"].take(ik), ln["act_out"].take(ik))
            p = p[keep]
        blocked[p] = True
    return blocked


def _chord_lines(ix, obs, dense_only: bool = False):
    """For every observer in ``obs`` and every piece (flattened observer-major, U*K): the
    chord t1-t2 between the piece's silhouette vertices seen from the observer's centre
    and the three half-planes n . x <= o (rows of ``L``: 0-2 tangent to the observer's
    grown bounding circle through t1, 3-5 through t2, 6-8 the chord line facing the
    observer) whose intersection is the umbra of that chord. Also the chord's angular
    interval seen from the centre (``lo``, ``width``), ``valid``, the piece's ``area`` and
    whether it is active for the observer and a target within / not within that area."""
    pk = ix.blk.pieces
    nx, ny, off, vx, vy = pk.soa                                 # (V, K)
    V, K = nx.shape
    U = len(obs)
    cx, cy = ix.centres[obs, 0], ix.centres[obs, 1]
    F = nx[:, None, :] * cx[None, :, None]
    F += ny[:, None, :] * cy[None, :, None]
    F = (F > off[:, None, :]).reshape(V, U * K)                  # edge v faces the centre
    T = F != np.roll(F, 1, axis=0)                               # silhouette vertices
    a = np.zeros(U * K, np.int64)
    b = np.zeros(U * K, np.int64)
    for v in range(V - 1, -1, -1):
        a[T[v]] = v
    for v in range(V):
        b[T[v]] = v
    valid = T.sum(axis=0) == 2
    kk = np.tile(np.arange(K), U)
    fa, fb = a * K + kk, b * K + kk
    x1, y1, x2, y2 = vx.take(fa), vy.take(fa), vx.take(fb), vy.take(fb)
    ccx, ccy = np.repeat(cx, K), np.repeat(cy, K)
    r = np.repeat(ix.rad[obs] + _GROW, K)
    sw = (x1 - ccx) * (y2 - ccy) - (y1 - ccy) * (x2 - ccx) < 0   # t1 -> t2 counter-clockwise
    x1, x2 = np.where(sw, x2, x1), np.where(sw, x1, x2)
    y1, y2 = np.where(sw, y2, y1), np.where(sw, y1, y2)
    a1 = np.arctan2(y1 - ccy, x1 - ccx)
    a2 = np.arctan2(y2 - ccy, x2 - ccx)
    ex, ey = x2 - x1, y2 - y1
    le = np.sqrt(ex * ex + ey * ey)
    valid &= le > 1e-9
    le[le == 0] = 1.0
    ncx, ncy = -ey / le, ex / le                                 # chord normal towards the centre
    oc = ncx * x1 + ncy * y1
    valid &= ncx * ccx + ncy * ccy - r >= oc + 1e-9              # light strictly on the near side
    rows = [None] * 9
    rows[6], rows[7], rows[8] = ncx, ncy, oc                     # target beyond the chord
    for base, (px, py, qx, qy, sg) in ((0, (x1, y1, x2, y2, 1.0)), (3, (x2, y2, x1, y1, -1.0))):
        wx, wy = ccx - px, ccy - py
        d2 = wx * wx + wy * wy
        h = np.sqrt(np.maximum(d2 - r * r, 0.0))
        # unit normal n, n . (c - t) = -r: the light on the negative side, tangent at t;
        # the sign keeps the other chord end on the light's side
        n_x = (-r * wx - sg * h * wy) / d2
        n_y = (-r * wy + sg * h * wx) / d2
        valid &= (d2 > r * r) & (n_x * (qx - px) + n_y * (qy - py) <= 0)
        rows[base], rows[base + 1], rows[base + 2] = n_x, n_y, n_x * px + n_y * py
    area = np.tile(ix.blk.area, U)
    kind = np.tile(ix.blk.kind, U)
    w_obs = ix.within[np.repeat(obs, K), area]
    if dense_only:
        act_in = act_out = kind == DENSE
    else:
        act_in = (kind == DENSE)                                 # target within the area
        act_out = np.where(kind == DENSE, w_obs, ~w_obs)         # target not within it
    valid &= act_in | act_out
    return {"L": rows, "valid": valid, "lo": a1 % _TWO_PI, "width": (a2 - a1) % _TWO_PI,
            "area": area, "act_in": act_in, "act_out": act_out}
