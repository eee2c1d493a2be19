"""13.08 index.cover_rows_known (VisibilityIndex.cover_every over a block of consecutive rows
whose fully visible is resolved: per attacking model, every target model qualifies for cover)
and its compiled twin (sim.rules.compiled: ``visibility.cover_rows_known``) give the same bits,
on the blocks of seeded tables (bases of every shape at the walls, INFANTRY and not) and on
random matrices of any layout in memory; the twin, like the reference, answers None while an
entry of the block is unresolved; and what it leaves to the reference."""

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.visibility.index import VisibilityIndex
from test_13_08_cover_every import _table

KERN = C.KERNELS["visibility.cover_rows_known"]


class _Sub(np.ndarray):
    """A subclass of numpy's array (as np.matrix and masked arrays are): declined."""


built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _both(*args):
    got, want = KERN.compiled(*args), KERN.reference(*args)
    assert (got is None) == (want is None), (got, want)
    assert got is None or C._same_bits(got, want)
    return want


@built
@pytest.mark.parametrize("seed", range(3))
def test_cover_rows_known_compiled_is_its_reference_on_tables(seed):
    """Every (unit, enemy unit) block of a seeded table, resolved, then after a few models move
    (their pairs unresolved: both answer None until cover_every resolves what it needs)."""
    areas, models = _table(seed)
    idx = VisibilityIndex(areas, models)
    idx.fully_visible  # (every pair resolved)
    rng = np.random.default_rng(seed)
    runs = [(u * 4, u * 4 + 4) for u in range(12)]
    met = set()
    for step in range(3):
        if step:
            ks = rng.choice(len(models), size=3, replace=False)
            idx.update([idx.ids[k] for k in ks], [idx.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks])
        unknown = 0
        for r0, r1 in runs:
            for c0, c1 in runs:
                want = _both(idx._fv_known, idx._fv, idx.hideable, idx.within_any, r0, r1, c0, c1)
                if want is None:
                    unknown += 1
                    continue
                met.update(want.tolist())
                assert want.tolist() == idx.cover_every(slice(r0, r1), slice(c0, c1)).tolist()
        assert (unknown > 0) == (step > 0)
        idx.fully_visible
    assert met == {True, False}


@built
def test_cover_rows_known_compiled_is_its_reference_on_random_blocks():
    """Random matrices, C and Fortran order, reversed views, empty blocks, unresolved entries."""
    rng = np.random.default_rng(7)
    for t in range(3000):
        n = int(rng.integers(1, 12))
        kb, fb = rng.random((n, n)) < 0.97, rng.random((n, n)) < 0.5
        hide, within = rng.random(n) < 0.5, rng.random(n) < 0.5
        if t % 3 == 1:
            kb, fb, hide = np.asfortranarray(kb), fb[:, ::-1], hide[::-1]
        r0 = int(rng.integers(0, n + 1))
        c0 = int(rng.integers(0, n + 1))
        _both(kb, fb, hide, within, r0, int(rng.integers(r0, n + 1)), c0, int(rng.integers(c0, n + 1)))


@built
def test_cover_rows_known_compiled_declines_what_it_does_not_take():
    n = 6
    kb, fb = np.ones((n, n), bool), np.zeros((n, n), bool)
    hide, within = np.zeros(n, bool), np.ones(n, bool)
    assert KERN.compiled(kb, fb, hide, within, 0, 3, 3, 6).tolist() == [True] * 3
    fb[1, 4] = True
    assert KERN.compiled(kb, fb, hide, within, 0, 3, 3, 6).tolist() == [True, False, True]
    hide[4] = True                                   # (column 4 qualifies by area: in cover)
    assert KERN.compiled(kb, fb, hide, within, 0, 3, 3, 6).tolist() == [True] * 3
    kb[2, 5] = False                                 # (an unresolved entry: None, as the reference)
    assert KERN.compiled(kb, fb, hide, within, 0, 3, 3, 6) is None
    assert KERN.reference(kb, fb, hide, within, 0, 3, 3, 6) is None
    kb[2, 5] = True
    for args in ((kb, fb, hide, within, 0, 3, 3, 7),        # (past the end: a slice clips it)
                 (kb, fb, hide, within, -1, 3, 3, 6),       # (from the end)
                 (kb, fb, hide, within, 3, 2, 3, 6),        # (a stop before its start)
                 (kb, fb, hide, within, np.int64(0), 3, 3, 6),
                 (kb, fb, hide, within, None, 3, 3, 6),
                 (kb.astype(np.uint8), fb, hide, within, 0, 3, 3, 6),
                 (kb, fb, hide[:5], within, 0, 3, 3, 6),
                 (kb, fb[:5], hide, within, 0, 3, 3, 6)):
        assert KERN.compiled(*args) is None
    # (only numpy arrays themselves: a subclass answers as its class (a matrix in two
    # dimensions), a masked array hides values, and another object's array attributes need not
    # describe its buffer)
    assert KERN.compiled(kb.view(_Sub), fb, hide, within, 0, 3, 3, 6) is None
    assert KERN.compiled(kb, np.ma.array(fb, mask=np.ones_like(fb)), hide, within, 0, 3, 3, 6) is None

    class Lookalike(bytearray):
        dtype, ndim, shape = np.dtype(bool), 1, (10**6,)

    assert KERN.compiled(kb, fb, Lookalike(b"\x01"), within, 0, 3, 3, 6) is None

