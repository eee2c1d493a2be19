"""06.01 / 13.10 / 13.11 The "definitely blocked" stage of the VisibilityIndex's pair
resolution (the first of sim.rules.visibility.pairs' stages), for all pairs at once (numpy).

``umbra_blocked``: per observer, for every piece, the chord t1-t2 joining the piece's
silhouette vertices seen from the observer's centre and the umbra of that chord lit by the
observer's bounding circle (two tangent half-planes through t1 and t2 and the far side of the
chord). A target whose bounding circle lies in it (margins 1e-6") cannot be seen: every
segment between the bases crosses the chord's relative interior, which lies in the piece's
open interior (or crosses the piece's edge into it). Candidates: the targets of the angular
bins (256 per turn, one sort of the targets by observer and bin) a chord's angular interval
meets; the tests go in batches of some thousands of (observer, piece, target) triples,
piece-major (pieces with most candidates first), dropping pairs already blocked. With few
targets per observer, no sort: each pair's own candidates are the pieces whose bounding
circle comes near its centre segment. One model against many (a model moved): lit from
each of the many, whose chords the index keeps between moves (``ChordCache``).

A certificate only: a pair it leaves goes to the exact stages, so which side lights a pair,
or which pairs share a batch, changes the work and never an answer.
"""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import first_last, flatnonzero, roll_prev, tile
from sim.rules.compiled import kernel
from sim.rules.visibility.pairs import _pieces_near_box, near_pairs
from sim.rules.visibility.sight import DENSE

_NO_RADIUS = np.zeros(1)    # (_pieces_near_box about the centres themselves)

__all__ = ["umbra_blocked", "ChordCache"]


_TWO_PI = 2.0 * np.pi


def _mod_2pi(x):
    """``x % 2pi`` (numpy's float remainder, bit for bit) for x in [-2pi, 2pi], cheaper."""
    out = np.where(x < 0, x + _TWO_PI, x)
    out[x >= _TWO_PI] = 0.0
    return out


_GROW = 1e-6            # bounding circles grown by this much (both sides): margins of the certificate
_CHUNK = 8192           # triples per batch (pairs blocked by a batch leave the next ones)
_OBS_CHUNK = 100        # observers per part: (observers x pieces) chord arrays
_BINS = 256             # angular bins per turn for the umbra candidates (finer bins pass fewer candidates
                        # to the tests but cost a longer count per observer: 1024 cost ~10% more)
_BIN_SCALE = _BINS / _TWO_PI
_SPARSE = 8             # fewer targets than this per observer: no angular sort (_umbra_sparse)


def umbra_blocked(ix, obs, tgt, dense_only: bool = False) -> np.ndarray:
    """Stage 1 for directed pairs (observer ``obs``, target ``tgt``): ``blocked`` where the
    target's (grown) bounding circle lies wholly in the umbra of a chord t1-t2 of one
    convex active piece, lit by the observer's (grown) bounding circle.

    The chord joins the piece's silhouette vertices seen from the observer's centre; any
    segment from the light to a point of the umbra crosses the chord's relative interior,
    hence enters the piece's open interior (a chord of a convex piece is inside it), so
    every sight segment between the footprints is blocked. Candidates: per observer, the
    targets whose direction lies in the chord's angular interval (angular bins, one sort
    for all observers; with few targets per observer, the pieces near each pair's centre
    segment), then three half-plane tests per (observer, piece, target) and the 13.10 /
    13.11 activity of the piece for the pair."""
    P = len(obs)
    blocked = np.zeros(P, bool)
    K = len(ix.blk.pieces)
    if K == 0 or P == 0:
        return blocked
    uo, oinv = _unique_inverse(obs)
    # the certificate is symmetric (every segment between the two bases is blocked, and a
    # piece's 13.10 / 13.11 activity depends on the pair only): light the umbrae from the
    # side with fewer models (one chord set per observer; a moved model's pairs then share
    # one observer whichever side of I < J it falls on)
    if len(uo) > 1 and np.count_nonzero(np.bincount(tgt)) < len(uo):
        ut, tinv = _unique_inverse(tgt)
        obs, tgt, uo, oinv = tgt, obs, ut, tinv
    if P < _SPARSE * len(uo):
        return _umbra_sparse(ix, obs, tgt, dense_only)
    if len(uo) == 1 and not dense_only and getattr(ix, "kept_chords", None) is not None:
        return _umbra_one_target(ix, tgt, int(uo[0]))
    if len(uo) <= _OBS_CHUNK:
        return _umbra_part(ix, obs, tgt, uo, oinv, dense_only)
    step = -(-len(uo) // -(-len(uo) // _OBS_CHUNK))  # equal parts of <= _OBS_CHUNK observers
    for u0 in range(0, len(uo), step):          # observers in parts: small (U*K) arrays
        sel = flatnonzero((oinv >= u0) & (oinv < u0 + step))
        blocked[sel] = _umbra_part(ix, obs[sel], tgt[sel], uo[u0:u0 + step],
                                   oinv[sel] - u0, dense_only)
    return blocked


def _unique_inverse(a):
    """``np.unique(a, return_inverse=True)``, without its sort when ``a`` is already in
    order (the pairs of a full recompute are, observer-major)."""
    if len(a) > 1 and (a[1:] >= a[:-1]).all():
        first = np.empty(len(a), dtype=bool)
        first[0] = True
        np.not_equal(a[1:], a[:-1], out=first[1:])
        return a[first], first.cumsum() - 1
    return np.unique(a, return_inverse=True)


def _umbra_part(ix, obs, tgt, uo, oinv, dense_only):
    """``umbra_blocked`` for the pairs of observers ``uo`` (``oinv``: index into ``uo``)."""
    # (a piece whose umbra holds a target meets the segment between the pair's centres: its
    # chord crosses it, and a chord of a convex piece lies in the piece; so only the pieces
    # near the box holding every centre of these pairs can block one)
    ks = _pieces_near_box(ix, obs, tgt, _NO_RADIUS)
    if len(ks) == 0:
        return np.zeros(len(obs), bool)
    return _umbra_chords(ix, obs, tgt, uo, oinv, ks, dense_only)


def _umbra_chords(ix, obs, tgt, uo, oinv, ks, dense_only):
    """06.01 / 13.10 / 13.11 ``umbra_blocked``'s test of the pairs of observers ``uo``
    (``oinv``: index into ``uo``) against the chords of the pieces ``ks`` (ascending, not
    empty) seen from each observer: a pair is blocked where its target's grown bounding circle
    lies in the three half-planes of a valid chord of its observer, the piece active for the
    pair. Candidates first: the targets of the angular bins each chord's interval meets (a
    superset of the triples that pass: the umbra lies in the cone from the observer's centre
    through the chord, a grown circle in it well inside the cone), then the tests."""
    P = len(obs)
    blocked = np.zeros(P, bool)
    K = len(ks)
    C = ix.centres
    tx, ty = C[tgt, 0], C[tgt, 1]
    th = np.arctan2(ty - C[obs, 1], tx - C[obs, 0])
    th = _mod_2pi(th)
    # targets by observer and angular bin (twice: angle and angle + 2 pi, for intervals
    # through angle 0); a chord's candidates are the targets of the bins its angular
    # interval meets (a superset: the half-plane tests decide)
    U = len(uo)
    tb = np.minimum((th * _BIN_SCALE).astype(np.int64), _BINS - 1)
    key = np.concatenate([tb, tb + _BINS])
    key += tile(oinv * (2 * _BINS), 2)
    order = np.argsort(key)
    order %= P
    first = np.zeros(U * 2 * _BINS + 1, dtype=np.int64)
    np.bincount(key, minlength=U * 2 * _BINS).cumsum(out=first[1:])
    ln = _chord_lines(ix, uo, dense_only, ks)
    base = (np.arange(U) * (2 * _BINS)).repeat(K)
    b0 = np.minimum((ln["lo"] * _BIN_SCALE).astype(np.int64), _BINS - 1)
    b1 = np.minimum(((ln["lo"] + ln["width"]) * _BIN_SCALE).astype(np.int64), 2 * _BINS - 1)
    s = first.take(base + b0)
    cnt = first.take(base + b1 + 1) - s
    cnt[~ln["valid"]] = 0
    # lines piece-major, pieces with the most candidates first: triples of pairs already
    # blocked by an earlier batch are dropped (blocked is an OR over lines)
    kord = np.argsort(-cnt.reshape(len(uo), K).sum(axis=0), kind="stable")
    perm = (np.arange(len(uo)) * K + kord[:, None]).ravel()
    cnt, s = cnt.take(perm), s.take(perm)
    cum = cnt.cumsum()
    tot = int(cum[-1])
    if tot == 0:
        return blocked
    rb = ix.rad[tgt] + _GROW
    NA = ix.within.shape[1]
    wflat = ix.within.ravel()
    trow = tgt * NA
    L = ln["L"]
    cuts = cum.searchsorted(np.arange(_CHUNK, tot, _CHUNK), "left")
    for l0, l1 in zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [len(cnt)]])):
        c = cnt[l0:l1]
        n = int(c.sum())
        if n == 0:
            continue
        ik = perm[l0:l1].repeat(c)
        pos = np.arange(n) - (c.cumsum() - c - s[l0:l1]).repeat(c)
        p = order.take(pos)
        if l0:
            live = ~blocked.take(p)
            ik, p = ik[live], p[live]
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


# (its compiled twin runs where built: sim.rules.compiled)
_umbra_chords = kernel("visibility.umbra_chords", _umbra_chords)


def _chord_lines(ix, obs, dense_only: bool = False, ks=None):
    """For every observer in ``obs`` and every piece (flattened observer-major, U*K; with
    ``ks``, those pieces, ascending): the chord t1-t2 between the piece's silhouette vertices
    seen from the observer's centre and the umbra of that chord (``_chord_rows``)."""
    pk = ix.blk.pieces
    nx, ny, off, vx, vy = pk.soa                                 # (V, K)
    if ks is not None:
        nx, ny, off, vx, vy = (a.take(ks, axis=1) for a in pk.soa)
    V, K = nx.shape
    U = len(obs)
    cx, cy = ix.centres[obs, 0], ix.centres[obs, 1]
    F = np.empty((V, U, K), dtype=bool)
    for v in range(V):                                           # (U, K) float rows only
        fv = cx[:, None] * nx[v]
        fv += cy[:, None] * ny[v]
        np.greater(fv, off[v], out=F[v])
    F = F.reshape(V, U * K)                                      # edge v faces the centre
    T = F != roll_prev(F)                               # silhouette vertices
    del F                                                        # (dels: keep the peak small)
    a, b, nt = first_last(T)                                     # first / last silhouette vertex
    valid = nt == 2                                              # (a, b only read where valid)
    del T
    kk = tile(np.arange(K) if ks is None else ks, U)
    k_local = tile(np.arange(K), U)
    a *= K
    a += k_local
    b *= K
    b += k_local
    return _chord_rows(ix, obs.repeat(K), kk, vx.take(a), vy.take(a), vx.take(b),
                       vy.take(b), valid, dense_only)


def _chord_rows(ix, ob, kk, x1, y1, x2, y2, valid, dense_only: bool):
    """For entries (observer ``ob``, piece ``kk``) with silhouette vertices (x1, y1), (x2, y2)
    seen from the observer's centre: the three half-planes n . x <= o (rows of ``L``: 0-2
    tangent to the observer's grown bounding circle through t1, 3-5 through t2, 6-8 the
    chord line facing the observer) whose intersection is the umbra of the chord t1-t2.
    Also the chord's angular interval seen from the centre (``lo``, ``width``), ``valid``,
    the piece's ``area`` and whether it is active for the observer and a target within /
    not within that area."""
    ccx, ccy = ix.centres[ob, 0], ix.centres[ob, 1]
    r = ix.rad[ob] + _GROW
    sw = (x1 - ccx) * (y2 - ccy) - (y1 - ccy) * (x2 - ccx) < 0   # t1 -> t2 counter-clockwise
    x1, x2 = np.where(sw, x2, x1), np.where(sw, x1, x2)
    y1, y2 = np.where(sw, y2, y1), np.where(sw, y1, y2)
    del sw
    a1 = np.arctan2(y1 - ccy, x1 - ccx)
    a2 = np.arctan2(y2 - ccy, x2 - ccx)
    width = _mod_2pi(a2 - a1)
    del a2
    a1 = _mod_2pi(a1)
    ex, ey = x2 - x1, y2 - y1
    le = np.sqrt(ex * ex + ey * ey)
    valid &= le > 1e-9
    le[le == 0] = 1.0
    ncx, ncy = -ey / le, ex / le                                 # chord normal towards the centre
    del ex, ey, le
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
        del wx, wy, d2, h, n_x, n_y
    del x1, y1, x2, y2, px, py, qx, qy, ccx, ccy, r
    area = ix.blk.area.take(kk)
    kind = ix.blk.kind.take(kk)
    w_obs = ix.within[ob, area]
    if dense_only:
        act_in = act_out = kind == DENSE
    else:
        act_in = (kind == DENSE)                                 # target within the area
        act_out = np.where(kind == DENSE, w_obs, ~w_obs)         # target not within it
    valid &= act_in | act_out
    # only a convex piece holds its chords (Pieces.convex: convex_pieces can leave a
    # non-convex sliver along an L wall's diagonal; its pairs go to the exact stages)
    valid &= ix.blk.pieces.convex.take(kk)
    return {"L": rows, "valid": valid, "lo": a1, "width": width,
            "area": area, "act_in": act_in, "act_out": act_out}


def _umbra_sparse(ix, obs, tgt, dense_only):
    """``umbra_blocked`` for pairs whose observers have few targets each (a model moved):
    the chords only of the pieces whose bounding circle comes near the segment between the
    pair's centres (within the larger bounding radius: the others meet no segment between
    the bases, so their umbra holds no target), each tested against its pair's target."""
    pk = ix.blk.pieces
    C = ix.centres
    R = np.maximum(ix.rad[obs], ix.rad[tgt]) + 1e-6
    p, kk = near_pairs(ix, obs, tgt, R, _pieces_near_box(ix, obs, tgt, R))
    blocked = np.zeros(len(obs), bool)
    if len(p) == 0:
        return blocked
    ob = obs.take(p)
    nx, ny, off, vx, vy = (a.take(kk, axis=1) for a in pk.soa)  # (V, E)
    F = nx * C[ob, 0] + ny * C[ob, 1] > off                      # edge v faces the centre
    T = F != roll_prev(F)
    a, b, nt = first_last(T)
    E = np.arange(len(p))
    ln = _chord_rows(ix, ob, kk, vx[a, E], vy[a, E], vx[b, E], vy[b, E], nt == 2,
                     dense_only)
    tg = tgt.take(p)
    qx, qy, r = C[tg, 0], C[tg, 1], ix.rad[tg] + _GROW
    L = ln["L"]
    ok = ln["valid"]
    for row in (6, 0, 3):
        ok &= L[row] * qx + L[row + 1] * qy + r <= L[row + 2]
    if not dense_only:
        tw = ix.within[tg, ln["area"]]
        ok &= np.where(tw, ln["act_in"], ln["act_out"])
    blocked[p[ok]] = True
    return blocked


class ChordCache:
    """``_chord_lines`` of every model as an observer (rows: the index's model order), kept
    until the model moves (``fresh``): the chord rows ``L`` (n * K, 9), the angular interval
    (``lo``; ``span``: its width + 1e-9 rad, -1 where the chord is not ``valid``) and
    ``act_out`` (the piece active for a target not within its area); ``act_in`` is the
    observer's no matter (a dense piece)."""

    __slots__ = ("L", "lo", "span", "act_out", "fresh")

    def __init__(self, n: int, K: int):
        self.L = np.empty((n * K, 9))   # (row observer * K + piece: an entry's rows in one line)
        self.lo = np.empty((n, K))
        self.span = np.empty((n, K))
        self.act_out = np.zeros((n, K), dtype=bool)
        self.fresh = np.zeros(n, dtype=bool)

    def fill(self, ix, obs) -> None:
        """Compute the rows of observers ``obs`` (unique) that are not fresh."""
        obs = obs[~self.fresh.take(obs)]
        if len(obs) == 0:
            return
        K = self.lo.shape[1]
        ln = _chord_lines(ix, obs)
        self.L[(obs[:, None] * K + np.arange(K)).ravel()] = np.array(ln["L"]).T
        self.lo[obs] = ln["lo"].reshape(-1, K)
        self.span[obs] = np.where(ln["valid"], ln["width"] + 1e-9, -1.0).reshape(-1, K)
        self.act_out[obs] = ln["act_out"].reshape(-1, K)
        self.fresh[obs] = True


def _umbra_one_target(ix, obs, t: int):
    """``umbra_blocked`` for pairs (observer ``obs[p]``, model ``t``) of one model and many
    others (a model moved), lit from the others' side (the certificate holds either way:
    every segment between the two bases crosses the chord): their chords are kept between
    moves (``ix.kept_chords``, a ChordCache); candidates are the (observer, piece) entries
    whose angular interval holds the direction of t's centre (the umbra lies in the cone
    from the observer's centre through the chord), then the three half-plane tests and the
    13.10 / 13.11 activity of the piece, as in ``_umbra_part``."""
    cache = ix.kept_chords(obs)
    C = ix.centres
    P = len(obs)
    blocked = np.zeros(P, bool)
    tx, ty = C[t, 0], C[t, 1]
    th = _mod_2pi(np.arctan2(ty - C[obs, 1], tx - C[obs, 0]))
    d = th[:, None] - cache.lo.take(obs, axis=0)
    d = np.where(d < 0, d + _TWO_PI, d)
    p, k = (d <= cache.span.take(obs, axis=0)).nonzero()
    if len(p) == 0:
        return blocked
    ob = obs.take(p)
    L = cache.L.take(ob * cache.lo.shape[1] + k, axis=0).T
    r = ix.rad[t] + _GROW
    ok = None
    for row in (6, 0, 3):               # (the arithmetic of _umbra_part, entry by entry)
        v = L[row] * tx
        v += L[row + 1] * ty
        v += r
        q = v <= L[row + 2]
        ok = q if ok is None else ok & q
    p, k, ob = p[ok], k[ok], ob[ok]
    ar = ix.blk.area.take(k)
    keep = np.where(ix.within[t].take(ar), ix.blk.kind.take(k) == DENSE,
                    cache.act_out[ob, k])
    blocked[p[keep]] = True
    return blocked
