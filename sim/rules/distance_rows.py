"""01.04 Rows of the edge-to-edge distance matrix against a table of footprints that changes a
few at a time (models moving): ``geometry.distance_matrix(fps, table)``, to the bit, with what
that function derives from the whole table each call (every centre and radius as arrays, which
bases are round, the packed cores of the hulls) kept between calls and brought up to date
footprint by footprint. A move of one unit asks for its models' rows against every model on the
table (sim.world.spatial, sim.rules.visibility): without this, each such call read the whole
table in Python first, a cost that grew with the table as the rows themselves do not need to.

Far pairs (``rows(..., far=True)``): a pair whose bounding circles are more than ``FAR`` (plus a
margin) apart cannot matter to a rule that compares a distance with ``FAR`` or less (every
threshold the shipped rules read but a weapon's range above it: docs/distance-readers.md), so
its exact distance, the costly part of a row when one base is not round, is left unmeasured:
the row holds the bounding circles' distance, a lower bound above ``FAR``, and a mask says
which entries are such bounds. Every entry at or below ``FAR`` is exact. A reader that needs a
far entry's exact value (a minimum read as a value, a weapon's range above ``FAR``) measures
it when it asks (``refine``), with the arithmetic the whole row would have used, so every
answer is the same to the bit. A move's rows then cost what the models near it cost, not
what the whole table does (issue 29: battles that grow linearly)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.rules.arrays import count_true, flatnonzero, roll_next
from sim.rules.geometry import (Footprint, _hull_block, _hull_pack, _round_core_distances, core,
                                disc_distances, distance_matrix)


# A footprint's rows measured by any table (a footprint is immutable; its rows are good while
# what they were measured against is the same): id(footprint) -> (footprint, {"hulls": (the hulls, the
# round base's row against them), "rounds": (the round bases' centres and radii, the hull's
# row against them), "hull row": (the hulls, the hull's row against them)}). Bounded: cleared
# when MEMO_KEEP footprints are held.
_MEMO: dict = {}
MEMO_KEEP = 4096
# inches: a pair of footprints whose bounding circles are more than FAR + FAR_MARGIN apart is
# far (its distance is more than FAR: the bound is at most the distance, to rounding far below
# the margin). Above the longest weapon range in the shipped data (48") and every other
# distance the rules compare with (30" at most): readers asking about FAR or less never measure
# a far pair; a weapon's range above it measures only the far pairs whose bounds are within it
# (``refine_block``'s ``within``), a value read above it only those that can be the smallest
# (``refine_rows_min``). (At 30", the core rules' own longest distance, a move measures fewer
# pairs, but the default armies' 36" weapons then measure on demand what the moves no longer
# did: the x1 battle 2-3% slower, the x4 battle no faster, 5 December.)
FAR = 50.0
FAR_MARGIN = 1e-3
# (a row with at most this many far pairs is measured whole: the far pairs' bookkeeping costs
# more than measuring a few; the x1 table's rows have a few across its corners)
FAR_FEW = 24
# sim.world.spatial / sim.rules.visibility keep, beside each distance matrix, an int8 matrix of
# codes: 0 the entry is exact; FAR_ROW the entry (i, j) is the bound from row i's measure (model
# i moved last); FAR_COL it is the bound from row j's measure (``refine`` measures it from that
# side, as the whole row would have: the same arithmetic, whether or not the other side's gives
# the same bits)
FAR_ROW, FAR_COL = 1, 2
_NONE: dict = {}


def _kept(fp: Footprint) -> dict:
    """What ``_MEMO`` holds for this footprint object ({} if nothing). Keyed by the object (the
    spatial index and the visibility index hold the same footprint objects, and an identity
    test costs less than a footprint's hash); the entry holds the object, so its id is not
    reused while the entry stands."""
    got = _MEMO.get(id(fp))
    return got[1] if got is not None and got[0] is fp else _NONE


def _memo(fp: Footprint) -> dict:
    got = _MEMO.get(id(fp))
    if got is None or got[0] is not fp:
        if len(_MEMO) >= MEMO_KEEP:
            _MEMO.clear()
        got = _MEMO[id(fp)] = (fp, {})
    return got[1]


class DistanceRows:
    """The table ``fps`` (a list: ``set`` replaces one footprint) and ``rows(fps_a)`` =
    ``distance_matrix(fps_a, fps)``: the same steps on the same arrays, each entry the same
    arithmetic (distance_matrix's steps are elementwise), so the same bits."""

    def __init__(self, fps: Sequence[Footprint]) -> None:
        self._build(list(fps))

    def _build(self, fps: list) -> None:
        self.fps = fps
        n = len(self.fps)
        self.centres = np.array([[f.x, f.y] for f in self.fps], dtype=float).reshape(n, 2)
        self.radii = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in self.fps])
        # each footprint's bounding circle's radius (a round base's own radius: its distances
        # to round bases are the exact ones; a hull's holds its core polygon)
        self.bounds = np.array([_bound(f) for f in self.fps])
        # which bases are round: fixed while no base changes between round and not (a model
        # moving keeps its base; tuples: a copy shares them)
        self.hulls = tuple(j for j, f in enumerate(self.fps) if f.shape != "round")
        self.rounds = tuple(j for j, f in enumerate(self.fps) if f.shape == "round")
        self._round_centres = self.centres[list(self.rounds)].reshape(len(self.rounds), 2)
        self._round_radii = self.radii[list(self.rounds)]
        pos = [-1] * n  # (each table index: its place among the round bases, -1 for a hull)
        for k, j in enumerate(self.rounds):
            pos[j] = k
        self._round_pos = tuple(pos)
        # _hull_pack of the table's hulls and their footprints (_hull_key), made when next read
        # after a hull moved
        self._pack, self._hulls_now = None, None

    def set(self, i: int, fp: Footprint) -> None:
        """Footprint ``i`` of the table is now ``fp`` (a model moved; or, rarely, its base
        changed between round and not: the table is read again)."""
        k = self._round_pos[i]
        if (fp.shape == "round") != (k >= 0):
            fps = list(self.fps)
            fps[i] = fp
            self._build(fps)
            return
        self.fps[i] = fp
        self.centres[i, 0], self.centres[i, 1] = fp.x, fp.y
        if k < 0:
            self._hulls_now = None
            if self._pack is not None:  # (its row made anew: the others stand)
                self._pack = _pack_set(self._pack, self.hulls.index(i), fp)
        else:
            self._round_centres[k, 0], self._round_centres[k, 1] = fp.x, fp.y
            self.radii[i] = self._round_radii[k] = 0.5 * fp.length
        self.bounds[i] = _bound(fp)

    def rows(self, fps_a: Sequence[Footprint], far: bool = False, limit: float | None = None,
             among: np.ndarray | None = None):
        """``geometry.distance_matrix(fps_a, self.fps)``, step for step; the entries between a
        round base and a hull, and between two hulls, read from ``_MEMO`` where that footprint's
        row was measured against the same footprints (another table's: a visibility index
        kept apart from a battle measures its own moved rows; in a battle it copies the
        spatial index's, sim.systems.visibility).

        ``far``: (the rows, a bool mask of the same shape or None when every entry is
        measured): the far pairs with a base that is not round (the module docstring) left
        unmeasured, each holding its bounding circles' distance (above ``FAR``), marked True in
        the mask; every other entry as above. ``limit`` (far mode): in ``FAR``'s place, a shorter
        cutoff for a reader that compares with no more than it (sim.world.spatial's engagement
        neighbours: the pairs within 2" measured, the others left bounds above ``limit``).
        ``among`` (far mode; a bool per footprint of the table, or per row and footprint):
        only the entries it marks True measured (the others left the bounds, marked far,
        whatever their distance: a reader of some columns only, the engagement neighbours'
        enemy models; or entries another row will overwrite, sim.world.spatial's later
        movers')."""
        fps_a = list(fps_a)
        n, m = len(fps_a), len(self.fps)
        if n == 0 or m == 0:
            return (np.zeros((n, m)), None) if far else np.zeros((n, m))
        ca = np.array([[f.x, f.y] for f in fps_a], dtype=float)
        ra = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps_a])
        # (every entry with a hull is measured below, or left the bound when far)
        out = self.bounds_of(fps_a, ca)
        near = out <= (FAR if limit is None else limit) + FAR_MARGIN if far else None
        if among is not None:
            near &= among
        if near is not None:
            # (a row with nothing, or next to nothing, far: measured whole; a row's own count,
            # so rows measured together are measured as each alone would be)
            few = m - np.count_nonzero(near, axis=1) <= FAR_FEW
            if few.all():
                near = None
            elif count_true(few):
                near[few] = True
        approx = None   # (far: the far entries, if any)
        ha = [i for i, f in enumerate(fps_a) if f.shape != "round"]
        hb, rnd_b = self.hulls, self.rounds
        if ha and rnd_b:
            approx = _block(out, near, approx, ha, rnd_b, self._hull_round_rows, [fps_a[i] for i in ha])
        if ha and hb:
            approx = _block(out, near, approx, ha, hb, self._hull_hull_rows, [fps_a[i] for i in ha])
        rnd_a = [i for i, f in enumerate(fps_a) if f.shape == "round"] if hb else []
        if rnd_a:
            approx = _block(out, near, approx, rnd_a, hb, self._round_hull_rows,
                            [fps_a[i] for i in rnd_a], ca[rnd_a], ra[rnd_a])
        return (out, approx) if far else out

    def bounds_of(self, fps_a: Sequence[Footprint], ca: np.ndarray | None = None) -> np.ndarray:
        """The bounding circles' distances of ``fps_a`` to every footprint of the table (``rows``'s
        first step, distance_matrix's round-to-round step: the distance between two round bases,
        at most the distance otherwise, to rounding far below FAR_MARGIN); ``ca``: their centres
        as an array, if made already."""
        if ca is None:
            ca = np.array([[f.x, f.y] for f in fps_a], dtype=float).reshape(len(fps_a), 2)
        return disc_distances(ca, np.array([_bound(f) for f in fps_a]), self.centres, self.bounds)

    def _hull_key(self) -> tuple:
        """The table's hulls (footprints, in table order): what a round base's row against
        them depends on. Kept until a hull moves."""
        if self._hulls_now is None:
            self._hulls_now = tuple(self.fps[j] for j in self.hulls)
        return self._hulls_now

    def _round_hull_rows(self, fps: list, ca: np.ndarray, ra: np.ndarray, near=None,
                         bound=None) -> np.ndarray:
        """``_round_core_distances`` of these round bases (centres ``ca``, radii ``ra``) against
        the table's hulls: (len(fps), hulls); a base's row read from ``_MEMO`` where it was
        measured against the same hulls, measured again only against the hulls that moved (or
        changed) since, in one call: the bases that need any against every hull any of them
        needs (each entry is its own base's and hull's arithmetic, and hulls packed together
        give the same bits as alone, ``_hull_pack``'s padding: the same bits either way).
        With ``near`` (a mask of the entries to measure): the others are ``bound``'s (the
        kept row holds NaN where nothing was measured)."""
        key = self._hull_key()
        H = len(key)
        out = np.empty((len(fps), H))
        kept = []   # (the row kept in _MEMO against these very hulls: nothing to keep again)
        for k, f in enumerate(fps):
            got = _kept(f).get("hulls")
            if got is None or len(got[0]) != H:
                out[k] = np.nan
                kept.append(False)
            else:
                out[k] = got[1]
                kept.append(got[0] is key)
                if got[0] is not key:
                    out[k, [a is not b and a != b for a, b in zip(got[0], key)]] = np.nan
        need = np.isnan(out)
        if near is not None:
            need &= near
        ks = flatnonzero(need.any(axis=1))
        if len(ks):
            js = flatnonzero(need[ks].any(axis=0))
            if self._pack is None:
                self._pack = _hull_pack(key)
            pack = self._pack if len(js) == H else _pack_rows(self._pack, js)
            d = _round_core_distances(ca[ks], ra[ks], pack)
            blk = np.ix_(ks, js)
            out[blk] = np.where(need[blk], d, out[blk])
            for k in ks.tolist():
                kept[k] = False
        rows = None     # (one copy of the block; each base keeps its row of it, read-only)
        for k, f in enumerate(fps):
            if not kept[k]:
                if rows is None:
                    rows = out.copy()
                    rows.flags.writeable = False
                _memo(f)["hulls"] = (key, rows[k])
        return out if near is None else np.where(near, out, bound)

    def _hull_round_rows(self, fps: list, near=None, bound=None) -> np.ndarray:
        """``_round_core_distances`` of the table's round bases against each hull of ``fps``
        (transposed: (len(fps), round bases)); a hull's row measured again only at the round
        bases that moved (or changed) since ``_MEMO`` kept it, against the same round bases
        in the same order. The entries to measure, in one call: the round bases any of them
        needs against the hulls that need any (each entry is its own base's and hull's
        arithmetic, and hulls packed together give the same bits as alone, ``_hull_pack``'s
        padding). ``near``, ``bound``: as ``_round_hull_rows``."""
        rc, rr = self._round_centres, self._round_radii
        out = np.empty((len(fps), len(rr)))
        for k, f in enumerate(fps):
            got = _kept(f).get("rounds")
            if got is not None and got[0].shape == rc.shape:
                out[k] = got[2]
                out[k, (got[0] != rc).any(axis=1) | (got[1] != rr)] = np.nan
            else:
                out[k] = np.nan
        need = np.isnan(out)
        if near is not None:
            need &= near
        ks = flatnonzero(need.any(axis=1))
        if len(ks):
            js = flatnonzero(need[ks].any(axis=0))
            d = _round_core_distances(rc[js], rr[js], _hull_pack(tuple(fps[k] for k in ks)))
            blk = np.ix_(ks, js)
            out[blk] = np.where(need[blk], d.T, out[blk])
        snap = (rc.copy(), rr.copy())
        rows = out.copy()   # (one copy; each hull keeps its row of it, read-only)
        rows.flags.writeable = False
        for k, f in enumerate(fps):
            _memo(f)["rounds"] = (*snap, rows[k])
        return out if near is None else np.where(near, out, bound)

    def _hull_hull_rows(self, fps: list, near=None, bound=None) -> np.ndarray:
        """``_hull_block`` of each hull of ``fps`` against the table's hulls: (len(fps), hulls);
        a hull's row measured again only against the hulls that moved since ``_MEMO`` kept it,
        in one call: those hulls against every hull any of them needs (each pair's answer is
        its own: ``_hull_block`` measures pair by pair, or together with ``_convex_distance``'s
        bits). ``near``, ``bound``: as ``_round_hull_rows``."""
        key = self._hull_key()
        hb = self.hulls
        out = np.empty((len(fps), len(hb)))
        for k, f in enumerate(fps):
            got = _kept(f).get("hull row")
            if got is not None and len(got[0]) == len(key):
                out[k] = got[1]
                if got[0] is not key:
                    out[k, [a is not b and a != b for a, b in zip(got[0], key)]] = np.nan
            else:
                out[k] = np.nan
        need = np.isnan(out)
        if near is not None:
            need &= near
        ks = flatnonzero(need.any(axis=1)).tolist()
        if ks:
            ys = flatnonzero(need[ks].any(axis=0))
            cols = [hb[y] for y in ys.tolist()]
            scratch = np.empty((len(fps), len(self.fps)))
            _hull_block(fps, ks, self.fps, cols, scratch)
            blk = np.ix_(ks, ys)
            out[blk] = np.where(need[blk], scratch[np.ix_(ks, cols)], out[blk])
        rows = out.copy()   # (one copy; each hull keeps its row of it, read-only)
        rows.flags.writeable = False
        for k, f in enumerate(fps):
            _memo(f)["hull row"] = (key, rows[k])
        return out if near is None else np.where(near, out, bound)

    def copy(self) -> "DistanceRows":
        new = object.__new__(DistanceRows)
        new.__dict__.update(self.__dict__)
        new.fps = list(self.fps)
        new.centres, new.radii = self.centres.copy(), self.radii.copy()
        new.bounds = self.bounds.copy()
        new._round_centres, new._round_radii = self._round_centres.copy(), self._round_radii.copy()
        return new


def _block(out: np.ndarray, near, approx, rows: list, cols, measure, *args):
    """``out``'s block at ``rows`` x ``cols`` measured by ``measure(*args)``: every entry; or,
    with ``near`` (far mode: a mask of ``out``'s shape), the near ones only, the others left
    their bounds and marked in ``approx`` (made when first needed). Returns ``approx``."""
    blk = np.ix_(rows, cols)
    nb = None if near is None else near[blk]
    if nb is None or nb.all():
        out[blk] = measure(*args)
        return approx
    if count_true(nb):    # (none near: the block stays its bounds, nothing measured)
        out[blk] = measure(*args, nb, out[blk])
    if approx is None:
        approx = np.zeros(out.shape, dtype=bool)
    approx[blk] = ~nb
    return approx


def _pack_set(pack: tuple, h: int, fp: Footprint):
    """``_hull_pack`` with hull ``h`` now ``fp`` (a new pack; None when its core has more
    vertices than the pack holds: made whole when next read): that row's entries with
    ``_hull_pack``'s arithmetic, the others the pack's."""
    V = pack[0].shape[1]
    pts = core(fp)[0]
    k = len(pts)
    if k > V:
        return None
    P = np.empty((V, 2))
    PE = np.empty((V, 2))
    P[:k] = pts
    PE[:k] = roll_next(pts)
    P[k:] = pts[0]
    PE[k:] = pts[0]
    px, py, pex, pey = P[:, 0].copy(), P[:, 1].copy(), PE[:, 0].copy(), PE[:, 1].copy()
    abx, aby = pex - px, pey - py
    den = abx * abx + aby * aby
    pos = den > 0
    out = []
    for a, row in zip(pack[:8], (px, py, pex, pey, abx, aby, np.where(pos, den, 1.0), pos)):
        a = a.copy()
        a[h] = row
        a.flags.writeable = False
        out.append(a)
    return tuple(out) + (bool(out[7].all()),)


def _pack_rows(pack: tuple, js: np.ndarray) -> tuple:
    """``_hull_pack`` of some of a pack's hulls (``js``, ascending), read from the pack: the
    same rows, padded to the pack's longest hull (``_hull_pack``'s padding changes no answer of
    ``_round_core_distances``), without building the cores again."""
    sub = tuple(a[js] for a in pack[:8])
    return sub + (bool(sub[7].all()),)


def _bound(f: Footprint) -> float:
    """The radius of a circle about the footprint's centre that holds it: a round base's own
    (the exact distances between round bases are the bounding circles'), a hull's
    ``bounding_radius`` (its core polygon's vertices lie on or inside the outline)."""
    return 0.5 * f.length if f.shape == "round" else f.bounding_radius


def refine(dist: np.ndarray, far: np.ndarray, fps: Sequence[Footprint], I, J) -> None:
    """Make the entries (I[k], J[k]) of a kept distance matrix ``dist`` exact where its code
    matrix ``far`` (FAR_ROW / FAR_COL, the module's) marks them bounds: each measured as
    ``distance_matrix`` measures it from the side whose row held it (the model that moved
    last), so the value is the one the whole row would have held, to the bit; written to both
    (i, j) and (j, i) as the rows were, and marked exact. ``fps``: the table's footprints now
    (a far entry's two models have not moved since it was written: a move's rows are written
    before the matrix is read, sim.world.spatial)."""
    I = np.asarray(I, dtype=np.intp).ravel()
    J = np.asarray(J, dtype=np.intp).ravel()
    code = far[I, J]
    m = code != 0
    if not count_true(m):
        return
    I, J, code = I[m], J[m], code[m]
    A = np.where(code == FAR_ROW, I, J)     # the side measured from
    B = np.where(code == FAR_ROW, J, I)
    ua, ia = np.unique(A, return_inverse=True)
    ub, ib = np.unique(B, return_inverse=True)
    d = distance_matrix([fps[a] for a in ua.tolist()], [fps[b] for b in ub.tolist()])
    v = d[ia.ravel(), ib.ravel()]
    dist[A, B] = v
    dist[B, A] = v
    far[A, B] = 0
    far[B, A] = 0


def refine_block(dist: np.ndarray, far: np.ndarray, fps: Sequence[Footprint], rows, cols,
                 within: float | None = None) -> None:
    """``refine`` of every far entry among ``rows`` x ``cols`` (index arrays): that block of
    ``dist`` is then every distance, exact (a reader comparing with more than FAR).
    ``within``: only the far entries whose bound is at most ``within`` (plus FAR_MARGIN: a
    bound is at most its distance up to rounding, which can put it an ulp above; the others'
    distances are above ``within``): the block then answers every comparison with ``within``
    or less as the exact distances would, and its entries at or below ``within`` are exact (a
    weapon's range above FAR reads no more)."""
    rows = np.asarray(rows, dtype=np.intp)
    cols = np.asarray(cols, dtype=np.intp)
    blk = np.ix_(rows, cols)
    sub = far[blk]
    if within is not None and count_true(sub):
        sub = (sub != 0) & (dist[blk] <= within + FAR_MARGIN)
    if count_true(sub):
        i, j = sub.nonzero()
        refine(dist, far, fps, rows[i], cols[j])


def refine_rows_min(dist: np.ndarray, far: np.ndarray, fps: Sequence[Footprint], rows, cols,
                    block: np.ndarray) -> np.ndarray:
    """The minimum of each row of ``block`` (= ``dist[rows][:, cols]``, index arrays), exact:
    a row whose minimum is at or below FAR is exact already (every bound is above FAR, and at
    most its distance); in a row above it, the bounds at or below the smallest exact entry of
    the row (plus FAR_MARGIN: a bound can stand an ulp above its distance) are measured
    (``refine``; a bound above that is a distance above the smallest) and the row read again:
    its minimum is then a measured entry or an exact one, the same value every entry measured
    gives."""
    mins = block.min(axis=1)
    high = flatnonzero(mins > FAR)
    if len(high):
        r = np.asarray(rows, dtype=np.intp)[high]
        c = np.asarray(cols, dtype=np.intp)
        sub = far[np.ix_(r, c)] != 0
        if count_true(sub):
            vals = block[high]
            exact_min = np.where(sub, np.inf, vals).min(axis=1)
            sub &= vals <= exact_min[:, None] + FAR_MARGIN
            i, j = sub.nonzero()
            refine(dist, far, fps, r[i], c[j])
            mins[high] = dist[np.ix_(r, c)].min(axis=1)
    return mins


# full_matrix's tables, the most recent last: footprints -> a read-only matrix
_FULL: dict[tuple, np.ndarray] = {}
FULL_KEEP = 4   # (a benchmark alternates three tables; a batch of battles plays one)
_BLOCK = 64     # rows measured at a time (the temporaries of a hull's rows stay small)


def full_matrix(fps: Sequence[Footprint]) -> np.ndarray:
    """``geometry.distance_matrix(fps, fps)`` (read-only), kept for the last FULL_KEEP tables:
    battles of one scenario (every seed of a ``sim stats`` run) start from the same table, and
    the spatial index and the visibility index each start from this matrix. Measured in blocks
    of rows (each entry's arithmetic is the same whichever rows share its call)."""
    fps = tuple(fps)
    hit = _FULL.pop(fps, None)
    if hit is not None:
        _FULL[fps] = hit  # (the most recent last again)
    else:
        table = DistanceRows(fps)
        hit = np.empty((len(fps), len(fps)))
        for r0 in range(0, len(fps), _BLOCK):
            hit[r0:r0 + _BLOCK] = table.rows(fps[r0:r0 + _BLOCK])
        hit.flags.writeable = False
        _FULL[fps] = hit
        while len(_FULL) > FULL_KEEP:
            del _FULL[next(iter(_FULL))]
    return hit


def forget_tables() -> None:
    """Drop the kept matrices and rows (a benchmark timing a battle's first set-up)."""
    _FULL.clear()
    _MEMO.clear()


__all__ = ["DistanceRows", "FAR", "FAR_COL", "FAR_ROW", "distance_matrix", "full_matrix", "forget_tables", "refine",
           "refine_block", "refine_rows_min"]
