"""sim.rules.arrays: np.roll by one, np.tile of a 1-D array, np.flatnonzero and np.unique of a
1-D array without numpy's wrappers give numpy's own answers (values, order, dtype, shape);
first_last gives the argmax and sum answers the silhouette kernels read, packed or not."""

from __future__ import annotations

import numpy as np

import pytest

from sim.rules import arrays
from sim.rules.arrays import col_max, col_min, first_last, flatnonzero, roll_next, roll_prev, sorted_unique, tile


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


def test_flatnonzero_is_numpys():
    """Any shape (a 2-D mask read flat, as np.flatnonzero does), views, none and every entry
    true, and a non-bool array (its non-zero entries)."""
    rng = np.random.default_rng(7)
    m = rng.random((6, 9)) < 0.3
    for a in (m, m[0], m[:, 2], m.T, m[::2, 1::3], np.zeros(0, bool), np.zeros((3, 4), bool),
              np.ones(5, bool), np.array([0, 3, 0, -1, 2]), rng.integers(0, 2, (2, 3, 4))):
        got, want = flatnonzero(a), np.flatnonzero(a)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


def test_sorted_unique_is_numpys_and_leaves_its_argument():
    """Keys with repeats, in any order, already sorted, one, none, negative ones; the argument
    is not sorted in place (the caller's key arrays are read again)."""
    rng = np.random.default_rng(11)
    for a in (rng.integers(0, 50, 400), rng.integers(-5, 5, 30), np.arange(10), np.arange(10)[::-1],
              np.array([7]), np.zeros(0, np.int64), np.array([3, 3, 3]), rng.integers(0, 9, 20).astype(np.int32)):
        before = a.copy()
        got, want = sorted_unique(a), np.unique(a)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
        assert np.array_equal(a, before)


def test_column_bounds_are_numpys_axis_0_reductions():
    """(N, 2) spots of one to thousands of rows, negative ones, a strided view, -0.0 and +0.0,
    infinities: the same values, dtype and shape as a.min(axis=0) and a.max(axis=0)."""
    rng = np.random.default_rng(12)
    cases = [rng.uniform(-60, 60, (n, 2)) for n in (1, 2, 7, arrays._COLUMNS_FROM - 1, arrays._COLUMNS_FROM,
                                                     300, 5000)]
    cases += [np.arange(400.0).reshape(100, 4)[::2, 1:3]]   # (a strided view of 50 rows)
    special = [np.arange(40.0).reshape(10, 4)[::3, 1:3], np.array([[0.0, -0.0], [-0.0, 0.0]]),
               np.array([[np.inf, 1.0], [2.0, -np.inf]]), rng.integers(-9, 9, (20, 2))]
    # (each also repeated past arrays._COLUMNS_FROM rows: the column-by-column path; and a
    # strided view of that size)
    cases += special + [np.tile(a, (arrays._COLUMNS_FROM, 1)) for a in special]
    cases += [np.tile(np.array([[0.0, -0.0], [-0.0, 0.0]]), (40, 2))[::2, 1:3]]
    for a in cases:
        for got, want in ((col_min(a), a.min(axis=0)), (col_max(a), a.max(axis=0))):
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 6, 8, 9, 12])
@pytest.mark.parametrize("cols", [0, 1, 7, arrays._PACKED_MIN - 1, arrays._PACKED_MIN, 3000])
def test_first_last_is_argmax_both_ways_and_the_count(rows, cols):
    """Every column shape (none, one, several True rows, all of them), on both sides of the
    packed path's thresholds (eight rows, _PACKED_MIN columns)."""
    rng = np.random.default_rng(rows * 10_000 + cols)
    for p in (0.0, 0.15, 0.5, 1.0):
        t = rng.random((rows, cols)) < p
        a, b, n = first_last(t)
        want = (t.argmax(axis=0), (rows - 1) - t[::-1].argmax(axis=0), t.sum(axis=0))
        for got, w in zip((a, b, n), want):
            assert got.dtype == w.dtype and got.shape == w.shape and np.array_equal(got, w)


def test_first_last_of_a_silhouette_reads_its_two_ends():
    # (a square's edges facing a point: edge 1 and 2 face it; the changes around the outline
    # are at rows 1 and 3: the silhouette's first and last vertex)
    faces = np.array([False, True, True, False])
    t = np.repeat((faces != np.roll(faces, 1))[:, None], arrays._PACKED_MIN, axis=1)
    a, b, n = first_last(t)
    assert set(a.tolist()) == {1} and set(b.tolist()) == {3} and set(n.tolist()) == {2}


def test_any_last_and_min_max_last_are_numpys_reductions():
    """any_last and min_max_last (segments_blocked's reductions over a piece's vertices) give
    numpy's m.any(axis=-1), a.min(axis=-1) and a.max(axis=-1): shapes, dtypes and values, for
    last axes of 1 to 9, with ties, zeros of both signs and NaN."""
    from sim.rules.arrays import any_last, min_max_last
    rng = np.random.default_rng(4)
    for V in range(1, 10):
        for shape in ((7, 5, V), (0, 3, V), (4, V)):
            a = rng.integers(-3, 4, size=shape).astype(float)
            a[a == 0] = rng.choice([0.0, -0.0], size=int((a == 0).sum()))
            if a.size and V > 2:
                a.flat[int(rng.integers(a.size))] = np.nan
            kept = a.copy()
            lo, hi = min_max_last(a)
            for got, want in ((lo, a.min(axis=-1)), (hi, a.max(axis=-1))):
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.array_equal(got, want, equal_nan=True)
            m = a > 0
            m_kept = m.copy()
            got = any_last(m)
            assert got.dtype == bool and got.shape == m.shape[:-1]
            assert np.array_equal(got, m.any(axis=-1))
            # (their inputs left as they were)
            assert np.array_equal(a, kept, equal_nan=True) and np.array_equal(m, m_kept)
