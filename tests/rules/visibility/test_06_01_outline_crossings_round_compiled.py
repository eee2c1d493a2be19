"""06.01 batch.outline_crossings_round (where blocker pieces' edges cross the round bases'
outlines: the extra generators of the exact sight test where a piece overlaps a base) and its
compiled twin (sim.rules.compiled: ``visibility.outline_crossings_round``) give the same bits
and order: circles among random pieces (overlapping some, clear of others, an edge tangent to
a circle), each circle's CSR row given directly or through ``rows`` (as the sight index asks of
both bases of its pairs); and the inputs the twin leaves to the reference."""

import numpy as np
import pytest
from random_pieces import random_pieces

from sim.rules import compiled as C
from sim.rules.visibility import batch as VB  # noqa: F401  (registers the kernel)
from sim.rules.visibility.kernels import Pieces

KERN = C.KERNELS["visibility.outline_crossings_round"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _case(rng, pk, n):
    """n circles, each with a CSR row of a few pieces (some the pieces near it)."""
    K = len(pk.nverts)
    c = rng.uniform(-1, 21, size=(n, 2))
    r = rng.choice([0.5, 0.63, 1.0, 2.5], size=n)
    rows = [np.sort(rng.choice(K, size=int(rng.integers(0, min(K, 5) + 1)), replace=False)) for _ in range(n)]
    start = np.concatenate([[0], np.cumsum([len(x) for x in rows])]).astype(np.intp)
    idx = np.concatenate(rows).astype(np.intp) if n else np.zeros(0, np.intp)
    return c, r, start, idx


@built
@pytest.mark.parametrize("seed", range(6))
def test_outline_crossings_round_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(10):
        pk = random_pieces(rng, int(rng.integers(1, 10)))
        c, r, start, idx = _case(rng, pk, 30)
        for rows in (None, np.tile(np.arange(15), 2).astype(np.intp)):
            args = (c, r, pk, start, idx, rows)
            got, want = KERN.compiled(*args), KERN.reference(*args)
            assert got is not None and C._same_bits(got, want)
            found += len(want[0])
    assert found > 50


@built
def test_outline_crossings_round_compiled_tangent_and_declines():
    """A unit square's top edge tangent to a circle (one double root, both signs) and a
    circle through its corner; then the inputs the twin declines."""
    pk = Pieces([np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])])
    c = np.array([[0.5, 2.0], [2.0, 1.0]])
    r = np.array([1.0, 1.0])
    start, idx = np.array([0, 1, 2], dtype=np.intp), np.array([0, 0], dtype=np.intp)
    args = (c, r, pk, start, idx)
    want = KERN.reference(*args)
    assert len(want[0]) >= 2 and C._same_bits(KERN.compiled(*args), want)
    assert KERN.compiled(c, r, pk, start, idx, np.array([0, 5], dtype=np.intp)) is None   # (no such row)
    assert KERN.compiled(c, r, pk, start, np.array([0, 3], dtype=np.intp)) is None        # (no such piece)
    assert KERN.compiled(np.array([[np.nan, 2.0], [2.0, 1.0]]), r, pk, start, idx) is None
    assert KERN.compiled(c.astype(np.float32), r, pk, start, idx) is None
