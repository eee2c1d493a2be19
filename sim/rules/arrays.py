"""np.roll by one and np.tile of a 1-D array, as the geometry, movement and visibility kernels use
them, without numpy's Python-level wrappers (np.roll and np.tile are Python functions that
normalise their arguments on every call: ~20 us each on a small array, and a moved model's sight
or a battle's move checks make thousands of such calls). The same values in the same order and
dtype: only the data moved."""

from __future__ import annotations

import numpy as np


def roll_next(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """np.roll(a, -1, axis): entry i holds a's entry i + 1, the last the first."""
    if axis == 0:
        return np.concatenate((a[1:], a[:1]))
    return np.concatenate((a[:, 1:], a[:, :1]), axis=1)


def roll_prev(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """np.roll(a, 1, axis): entry i holds a's entry i - 1, the first the last."""
    if axis == 0:
        return np.concatenate((a[-1:], a[:-1]))
    return np.concatenate((a[:, -1:], a[:, :-1]), axis=1)


def tile(a: np.ndarray, k: int) -> np.ndarray:
    """np.tile(a, k) of a 1-D array: a, k times over."""
    return a.reshape(1, -1).repeat(k, axis=0).reshape(-1)
