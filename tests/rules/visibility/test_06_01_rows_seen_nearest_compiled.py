"""06.01 / 01.04 index.rows_seen_nearest (per shooting model of a block of consecutive rows: any
target model visible, the least distance to them) and its compiled twin (sim.rules.compiled:
``visibility.rows_seen_nearest``) give the same bits, on the blocks of a seeded table's index
and on random matrices of any layout in memory (zeros, infinities); and what it leaves to the
reference (a NaN or a negative zero, whose keeping is numpy's reduction's own; a block of no
column, which the reference refuses)."""

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.visibility.index import VisibilityIndex
from test_13_08_cover_every import _table
from twins import twin_answer

KERN = C.KERNELS["visibility.rows_seen_nearest"]


class _Sub(np.ndarray):
    """A subclass of numpy's array (as np.matrix and masked arrays are): declined."""


built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(*args):
    return twin_answer(KERN, *args)


@built
@pytest.mark.parametrize("seed", range(3))
def test_rows_seen_nearest_compiled_is_its_reference_on_tables(seed):
    areas, models = _table(seed)
    idx = VisibilityIndex(areas, models)
    runs = [(u * 4, u * 4 + 4) for u in range(12)]
    met = set()
    for r0, r1 in runs:
        for c0, c1 in runs:
            seen, near = _same(idx.visible_resolved(slice(r0, r1), slice(c0, c1)), idx.dist, r0, r1, c0, c1)
            assert seen.tolist() == idx.visible_block(slice(r0, r1), slice(c0, c1)).any(axis=1).tolist()
            met.update(seen.tolist())
    assert met == {True, False}


@built
def test_rows_seen_nearest_compiled_is_its_reference_on_random_blocks():
    rng = np.random.default_rng(11)
    for t in range(3000):
        n = int(rng.integers(1, 12))
        vis, d = rng.random((n, n)) < 0.3, rng.uniform(0, 50, (n, n))
        if t % 5 == 0:
            d[rng.random((n, n)) < 0.3] = 0.0
        if t % 7 == 0:
            d[0, 0] = np.inf
        if t % 3 == 1:
            vis, d = np.asfortranarray(vis), d[:, ::-1]
        r0, c0 = int(rng.integers(0, n + 1)), int(rng.integers(0, n))
        _same(vis, d, r0, int(rng.integers(r0, n + 1)), c0, int(rng.integers(c0 + 1, n + 1)))


@built
def test_rows_seen_nearest_compiled_declines_what_it_does_not_take():
    vis, d = np.zeros((4, 4), bool), np.arange(16.0).reshape(4, 4) + 1.0
    vis[1, 3] = True
    seen, near = KERN.compiled(vis, d, 0, 2, 2, 4)
    assert seen.tolist() == [False, True] and near.tolist() == [3.0, 7.0]
    with pytest.raises(ValueError):                 # (no column: numpy's minimum has no identity)
        KERN(vis, d, 0, 2, 2, 2)
    for bad in (np.nan, -0.0):
        e = d.copy()
        e[1, 2] = bad
        assert KERN.compiled(vis, e, 0, 2, 2, 4) is None
    e = d.copy()
    e[1, 2] = 0.0                                   # (a positive zero is answered)
    _same(vis, e, 0, 2, 2, 4)
    for args in ((vis, d, 0, 2, 2, 5), (vis, d, -1, 2, 2, 4), (vis, d, 2, 1, 2, 4), (vis, d, 0, 2, 3, 2),
                 (vis, d, 0, np.int64(2), 2, 4), (vis.astype(np.uint8), d, 0, 2, 2, 4),
                 (vis, d.astype(np.float32), 0, 2, 2, 4), (vis, d[:3], 0, 2, 2, 4)):
        assert KERN.compiled(*args) is None
    assert KERN.compiled(vis.view(_Sub), d, 0, 2, 2, 4) is None     # (numpy arrays themselves only)
    assert KERN.compiled(vis, np.ma.array(d), 0, 2, 2, 4) is None

    class Lookalike(bytearray):
        dtype, ndim, shape = np.dtype(np.float64), 2, (4, 4)

    assert KERN.compiled(vis, Lookalike(bytes(8)), 0, 2, 2, 4) is None

