"""sim.rules.arrays: np.roll by one and np.tile of a 1-D array without numpy's
wrappers give numpy's own answers (values, order, dtype, shape)."""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import roll_next, roll_prev, tile


def test_rolls_by_one_are_numpys():
    for a in (np.arange(5.0), np.arange(12.0).reshape(4, 3), np.arange(24).reshape(2, 4, 3),
              np.array([True, False, False]), np.zeros((0, 3))):
        for got, want in ((roll_next(a), np.roll(a, -1, axis=0)), (roll_prev(a), np.roll(a, 1, axis=0))):
            assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
        if a.ndim > 1:
            got, want = roll_next(a, 1), np.roll(a, -1, axis=1)
            assert got.shape == want.shape and np.array_equal(got, want)


def test_tile_of_a_1d_array_is_numpys():
    for a in (np.arange(5), np.arange(0), np.array([True, False]), np.linspace(0, 1, 7)):
        for k in (0, 1, 2, 4):
            got, want = tile(a, k), np.tile(a, k)
            assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
