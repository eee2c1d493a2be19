"""01.04 Rows of the edge-to-edge distance matrix against a table of footprints that changes a
few at a time (models moving): ``geometry.distance_matrix(fps, table)``, to the bit, with what
that function derives from the whole table each call (every centre and radius as arrays, which
bases are round, the packed cores of the hulls) kept between calls and brought up to date
footprint by footprint. A move of one unit asks for its models' rows against every model on the
table (sim.world.spatial, sim.rules.visibility): without this, each such call read the whole
table in Python first, a cost that grew with the table as the rows themselves do not need to."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.rules.geometry import (Footprint, _hull_block, _hull_pack, _round_core_distances,
                                disc_distances, distance_matrix)


# A footprint's rows measured by any table (a footprint is immutable; its rows are good while
# what they were measured against is the same): id(footprint) -> (footprint, {"hulls": (the hulls, the
# round base's row against them), "rounds": (the round bases' centres and radii, the hull's
# row against them), "hull row": (the hulls, the hull's row against them)}). Bounded: cleared
# when MEMO_KEEP footprints are held.
_MEMO: dict = {}
MEMO_KEEP = 4096
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
            self._pack, self._hulls_now = None, None
        else:
            self._round_centres[k, 0], self._round_centres[k, 1] = fp.x, fp.y
            self.radii[i] = self._round_radii[k] = 0.5 * fp.length

    def rows(self, fps_a: Sequence[Footprint]) -> np.ndarray:
        """``geometry.distance_matrix(fps_a, self.fps)``, step for step; the entries between a
        round base and a hull, and between two hulls, read from ``_MEMO`` where that footprint's
        row was measured against the same footprints (another table's, often: the spatial
        index and the visibility index each measure a moved model's row)."""
        fps_a = list(fps_a)
        n, m = len(fps_a), len(self.fps)
        if n == 0 or m == 0:
            return np.zeros((n, m))
        ca = np.array([[f.x, f.y] for f in fps_a], dtype=float)
        ra = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in fps_a])
        out = disc_distances(ca, ra, self.centres, self.radii)
        ha = [i for i, f in enumerate(fps_a) if f.shape != "round"]
        hb, rnd_b = self.hulls, self.rounds
        if ha:
            if rnd_b:
                out[np.ix_(ha, rnd_b)] = self._hull_round_rows([fps_a[i] for i in ha])
            if hb:
                out[np.ix_(ha, hb)] = self._hull_hull_rows([fps_a[i] for i in ha])
        if hb:
            rnd_a = [i for i, f in enumerate(fps_a) if f.shape == "round"]
            if rnd_a:
                out[np.ix_(rnd_a, hb)] = self._round_hull_rows([fps_a[i] for i in rnd_a], ca[rnd_a], ra[rnd_a])
        return out

    def _hull_key(self) -> tuple:
        """The table's hulls (footprints, in table order): what a round base's row against
        them depends on. Kept until a hull moves."""
        if self._hulls_now is None:
            self._hulls_now = tuple(self.fps[j] for j in self.hulls)
        return self._hulls_now

    def _round_hull_rows(self, fps: list, ca: np.ndarray, ra: np.ndarray) -> np.ndarray:
        """``_round_core_distances`` of these round bases (centres ``ca``, radii ``ra``) against
        the table's hulls: (len(fps), hulls); a base's row read from ``_MEMO`` where it was
        measured against the same hulls, measured again only against the hulls that moved (or
        changed) since, in one call: the bases that need any against every hull any of them
        needs (each entry is its own base's and hull's arithmetic, and hulls packed together
        give the same bits as alone, ``_hull_pack``'s padding: the same bits either way)."""
        key = self._hull_key()
        H = len(key)
        out = np.empty((len(fps), H))
        need = np.zeros((len(fps), H), dtype=bool)
        for k, f in enumerate(fps):
            got = _kept(f).get("hulls")
            if got is None or len(got[0]) != H:
                need[k] = True
                continue
            out[k] = got[1]
            if got[0] is not key:
                need[k] = [a is not b and a != b for a, b in zip(got[0], key)]
        ks = np.flatnonzero(need.any(axis=1))
        if len(ks):
            js = np.flatnonzero(need[ks].any(axis=0))
            if len(js) == H:
                if self._pack is None:
                    self._pack = _hull_pack(key)
                pack = self._pack
            else:
                pack = _hull_pack(tuple(key[j] for j in js.tolist()))
            d = _round_core_distances(ca[ks], ra[ks], pack)
            for x, k in enumerate(ks.tolist()):
                take = need[k, js]
                out[k, js[take]] = d[x, take]
                _memo(fps[k])["hulls"] = (key, out[k].copy())
        return out

    def _hull_round_rows(self, fps: list) -> np.ndarray:
        """``_round_core_distances`` of the table's round bases against each hull of ``fps``
        (transposed: (len(fps), round bases)); a hull's row measured again only at the round
        bases that moved (or changed) since ``_MEMO`` kept it, against the same round bases
        in the same order. The entries to measure, in one call: the round bases any of them
        needs against the hulls that need any (each entry is its own base's and hull's
        arithmetic, and hulls packed together give the same bits as alone, ``_hull_pack``'s
        padding)."""
        rc, rr = self._round_centres, self._round_radii
        out = np.empty((len(fps), len(rr)))
        need = np.zeros((len(fps), len(rr)), dtype=bool)
        for k, f in enumerate(fps):
            got = _kept(f).get("rounds")
            if got is not None and got[0].shape == rc.shape:
                out[k] = got[2]
                need[k] = (got[0] != rc).any(axis=1) | (got[1] != rr)
            else:
                need[k] = True
        ks = np.flatnonzero(need.any(axis=1))
        if len(ks):
            js = np.flatnonzero(need[ks].any(axis=0))
            d = _round_core_distances(rc[js], rr[js], _hull_pack(tuple(fps[k] for k in ks)))
            for x, k in enumerate(ks.tolist()):
                take = need[k, js]
                out[k, js[take]] = d[take, x]
        snap = (rc.copy(), rr.copy())
        for k, f in enumerate(fps):
            _memo(f)["rounds"] = (*snap, out[k].copy())
        return out

    def _hull_hull_rows(self, fps: list) -> np.ndarray:
        """``_hull_block`` of each hull of ``fps`` against the table's hulls: (len(fps), hulls);
        a hull's row measured again only against the hulls that moved since ``_MEMO`` kept it,
        in one call: those hulls against every hull any of them needs (each pair's answer is
        its own: ``_hull_block`` measures pair by pair, or together with ``_convex_distance``'s
        bits)."""
        key = self._hull_key()
        hb = self.hulls
        out = np.empty((len(fps), len(hb)))
        need = np.zeros((len(fps), len(hb)), dtype=bool)
        for k, f in enumerate(fps):
            got = _kept(f).get("hull row")
            if got is not None and len(got[0]) == len(key):
                out[k] = got[1]
                need[k] = [a is not b and a != b for a, b in zip(got[0], key)]
            else:
                need[k] = True
        ks = np.flatnonzero(need.any(axis=1)).tolist()
        if ks:
            ys = np.flatnonzero(need[ks].any(axis=0))
            cols = [hb[y] for y in ys.tolist()]
            scratch = np.empty((len(fps), len(self.fps)))
            _hull_block(fps, ks, self.fps, cols, scratch)
            for k in ks:
                take = ys[need[k, ys]]
                out[k, take] = scratch[k, [hb[y] for y in take.tolist()]]
        for k, f in enumerate(fps):
            _memo(f)["hull row"] = (key, out[k].copy())
        return out

    def copy(self) -> "DistanceRows":
        new = object.__new__(DistanceRows)
        new.__dict__.update(self.__dict__)
        new.fps = list(self.fps)
        new.centres, new.radii = self.centres.copy(), self.radii.copy()
        new._round_centres, new._round_radii = self._round_centres.copy(), self._round_radii.copy()
        return new


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


__all__ = ["DistanceRows", "distance_matrix", "full_matrix", "forget_tables"]
