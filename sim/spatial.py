"""Edge-to-edge distances between every pair of models, kept up to date incrementally.

01.04 distances and 03.04 engagement are read many times per activation; the matrix is built
once per battle (numpy) and only the rows and columns of models that moved are recomputed.
Models are indexed in creation order, so each unit's models are one contiguous range."""

from __future__ import annotations

import numpy as np

from sim.rules import geometry

ENGAGEMENT_RANGE = 2.0  # 03.04


class SpatialIndex:
    def __init__(self, footprints: list, unit_of: list[int]):
        self.fps = list(footprints)
        self.unit_of = np.asarray(unit_of, dtype=np.int64)  # unit index per model
        self.present = np.ones(len(self.fps), dtype=bool)  # on the battlefield
        self.dist = geometry.distance_matrix(self.fps, self.fps)
        np.fill_diagonal(self.dist, np.inf)
        # 03.04 engagement neighbours, sparse: model index -> models within 2"
        self.near: list[set[int]] = [set() for _ in self.fps]
        for i, j in zip(*np.nonzero(self.dist <= ENGAGEMENT_RANGE + 1e-9)):
            self.near[int(i)].add(int(j))
        self.version = 0
        self._engaged: dict[int, np.ndarray] = {}
        self._alive_units = None
        self.living: dict[int, list[int]] = {}  # unit entity -> living models (sim.world)

    def move(self, index: int, fp) -> None:
        self.fps[index] = fp
        row = geometry.distance_matrix([fp], self.fps)[0]
        row[index] = np.inf
        self.dist[index, :] = row
        self.dist[:, index] = row
        for j in self.near[index]:
            self.near[j].discard(index)
        self.near[index] = {int(j) for j in np.nonzero(row <= ENGAGEMENT_RANGE + 1e-9)[0]}
        for j in self.near[index]:
            self.near[j].add(index)
        self._changed()

    def remove(self, index: int) -> None:
        self.present[index] = False
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._engaged.clear()
        self.living.clear()
        self._alive_units = None

    def units_with_models(self, n_units: int) -> np.ndarray:
        """A boolean per unit: it still has a model on the battlefield (not destroyed)."""
        if self._alive_units is None:
            self._alive_units = np.bincount(self.unit_of[self.present], minlength=n_units) > 0
        return self._alive_units

    def engaged_units(self, model_indices: list[int], n_units: int) -> np.ndarray:
        """03.04 A boolean per unit: is any of these models within 2" of a model of that unit."""
        key = hash(tuple(model_indices))
        hit = self._engaged.get(key)
        if hit is not None:
            return hit
        out = np.zeros(n_units, dtype=bool)
        present, unit_of = self.present, self.unit_of
        for i in model_indices:
            for j in self.near[i]:
                if present[j]:
                    out[unit_of[j]] = True
        self._engaged[key] = out
        return out

    def nearest(self, model_index: int, others: list[int]) -> float:
        return float(self.dist[model_index, others].min()) if others else float("inf")
