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
        self._pack = None  # _hull_pack of the table's hulls, made when next read after a hull moved

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
            self._pack = None
        else:
            self._round_centres[k, 0], self._round_centres[k, 1] = fp.x, fp.y
            self.radii[i] = self._round_radii[k] = 0.5 * fp.length

    def rows(self, fps_a: Sequence[Footprint]) -> np.ndarray:
        """``geometry.distance_matrix(fps_a, self.fps)``, step for step."""
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
                out[np.ix_(ha, rnd_b)] = _round_core_distances(
                    self._round_centres, self._round_radii, _hull_pack(tuple(fps_a[i] for i in ha))).T
            if hb:
                _hull_block(fps_a, ha, self.fps, hb, out)
        if hb:
            rnd_a = [i for i, f in enumerate(fps_a) if f.shape == "round"]
            if rnd_a:
                if self._pack is None:
                    self._pack = _hull_pack(tuple(self.fps[j] for j in hb))
                out[np.ix_(rnd_a, hb)] = _round_core_distances(ca[rnd_a], ra[rnd_a], self._pack)
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
    """Drop the kept matrices (a benchmark timing a battle's first set-up)."""
    _FULL.clear()


__all__ = ["DistanceRows", "distance_matrix", "full_matrix", "forget_tables"]
