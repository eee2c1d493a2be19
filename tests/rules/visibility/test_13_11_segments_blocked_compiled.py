"""13.11 kernels.segments_blocked (does a segment cross the open interior of a blocker piece?
the separating-axis test on the pieces' edge normals and the segment's own) and its compiled
twin (sim.rules.compiled: ``visibility.segments_blocked``) give the same bits: random segments
among random pieces, segments from and to the pieces' vertices (exactly on their edges), along
an edge, of no length and of a length below 1e-12; and the inputs the twin leaves to the
reference (an ``active`` mask among them)."""

import numpy as np
import pytest
from random_pieces import random_pieces

from sim.rules import compiled as C
from sim.rules.visibility import kernels as VK  # noqa: F401  (registers the kernel)

KERN = C.KERNELS["visibility.segments_blocked"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _segments(rng, pk, n):
    p0 = rng.uniform(-2, 22, size=(n, 2))
    p1 = rng.uniform(-2, 22, size=(n, 2))
    K, V = pk.verts.shape[:2]
    m = n // 4
    k, v = rng.integers(0, K, size=m), rng.integers(0, V, size=m)
    p0[:m] = pk.verts[k, v]                                    # (from a vertex)
    p1[m:2 * m] = pk.verts[k, (v + 1) % V]                     # (to a vertex)
    p0[2 * m:2 * m + 3] = pk.verts[0, 0]                       # (along the first edge)
    p1[2 * m:2 * m + 3] = pk.verts[0, 1]
    p1[2 * m + 3] = p0[2 * m + 3]                              # (no length)
    p1[2 * m + 4] = p0[2 * m + 4] + 1e-13                      # (below 1e-12)
    return p0, p1


@built
@pytest.mark.parametrize("seed", range(6))
def test_segments_blocked_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    met = set()
    for _ in range(10):
        pk = random_pieces(rng, int(rng.integers(1, 12)))
        p0, p1 = _segments(rng, pk, 80)
        got, want = KERN.compiled(p0, p1, pk), KERN.reference(p0, p1, pk)
        assert got is not None and C._same_bits(got, want)
        met.update(want.tolist())
    assert met == {True, False}


@built
def test_segments_blocked_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(0)
    pk = random_pieces(rng, 3)
    p0, p1 = _segments(rng, pk, 20)
    assert KERN.compiled(p0, p1, pk) is not None
    assert KERN.compiled(p0, p1, pk, np.ones(3, dtype=bool)) is None     # (an active mask)
    bad = p0.copy()
    bad[0, 0] = np.nan
    assert KERN.compiled(bad, p1, pk) is None
    assert KERN.compiled(p0.astype(np.float32), p1, pk) is None
    assert C._same_bits(KERN.compiled(p0[:0], p1[:0], pk), KERN.reference(p0[:0], p1[:0], pk))


@built
def test_segments_blocked_compiled_at_the_tolerance():
    """A unit square: a segment touching its corner on a diagonal (only the segment's own
    normal parts them, at a gap of nought), and segments along its right edge just inside it
    by less than SIGHT_EPS and by more: the reference's answers, which turn at the tolerance."""
    from sim.rules.visibility.kernels import Pieces
    pk = Pieces([np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])])
    p0 = np.array([[0.0, 2.0], [1.0 - 0.5e-9, -1.0], [1.0 - 2e-9, -1.0], [0.0, 2.0 + 1e-6]])
    p1 = np.array([[2.0, 0.0], [1.0 - 0.5e-9, 2.0], [1.0 - 2e-9, 2.0], [2.0, 0.0 + 1e-6]])
    want = KERN.reference(p0, p1, pk)
    assert want.tolist() == [False, False, True, False]
    assert C._same_bits(KERN.compiled(p0, p1, pk), want)
