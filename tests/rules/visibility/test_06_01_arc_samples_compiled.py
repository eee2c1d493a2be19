"""06.01 sim.rules.visibility.full._arc_samples (B's outline samples between the crossings of the
critical lines, and the crossings: kernels.boundary_samples' outline for round pairs) and its
compiled twin (sim.rules.compiled: ``visibility.arc_samples``, its angles numpy's own) give the
same samples to the bit: every ordered pair of seeded random layouts' bases with their obstacle
vertices; discs among crowded pieces (touching, overlapping, of no radius as A); pairs without
obstacle vertices; a crossing placed exactly on a ring angle; and the inputs the twin leaves to
the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_discs
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import full as _full  # noqa: F401  (its kernel registered)
from sim.rules.visibility.pairs import capsule_inputs

KERN = C.KERNELS["visibility.arc_samples"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(D, q, ostart, opts):
    return twin_answer(KERN, D, q, ostart, opts)


def _crowded(rng, pairs=60):
    _polys, ca, ra, cb, rb, _pieces, verts = crowded_discs(rng, pairs)
    ca, cb = np.array(ca), np.array(cb)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), np.array(ra), cb[:, 0].copy(), cb[:, 1].copy(), np.array(rb))
    ostart = np.concatenate([[0], np.cumsum([len(v) for v in verts])]).astype(np.intp)
    return D, ostart, np.concatenate(verts)


@built
@pytest.mark.parametrize("seed", range(4))
def test_arc_samples_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    for _ in range(4):
        ix, I, J, D, _ps, _pi = certificate_pairs(rng)
        _p, _i, ostart, opts, _free = capsule_inputs(ix, np.minimum(I, J), np.maximum(I, J))
        q = np.arange(len(I), dtype=np.intp)
        x, _y, own = _same(D, q, ostart, opts)
        assert len(x) > 16 * len(q)               # (crossings besides the ring)
        _same(D, q[rng.random(len(q)) < 0.3], ostart, opts)


@built
@pytest.mark.parametrize("seed", range(3))
def test_arc_samples_compiled_among_crowded_pieces(seed):
    rng = np.random.default_rng(800 + seed)
    D, ostart, opts = _crowded(rng)
    q = np.arange(len(D[0]), dtype=np.intp)
    _same(D, q, ostart, opts)
    _same(D[:2] + (np.zeros_like(D[2]),) + D[3:], q, ostart, opts)    # A a point
    _same(D, q[::3].copy(), ostart, opts)
    none = np.zeros_like(ostart)                                      # no obstacle vertices
    x, _y, _own = _same(D, q, none, opts[:0])
    assert len(x) == 16 * len(q)


@built
def test_arc_samples_compiled_with_a_crossing_on_a_ring_angle():
    """A line through two obstacle vertices placed so that it crosses B's outline exactly at
    angle 0 (B's centre at the origin, radius 1, the line x = 1... tangent there) and at a
    right angle: the sort's ties between a crossing and a ring angle."""
    D = tuple(np.array([v]) for v in (-5.0, 0.0, 0.5, 0.0, 0.0, 1.0))
    for verts in ([[1.0, -3.0], [1.0, 3.0]], [[-3.0, 1.0], [3.0, 1.0]], [[0.0, -3.0], [0.0, 3.0]]):
        opts = np.array(verts)
        _same(D, np.array([0], dtype=np.intp), np.array([0, 2], dtype=np.intp), opts)


@built
def test_arc_samples_compiled_leaves_other_inputs_to_the_reference():
    D, ostart, opts = _crowded(np.random.default_rng(9), pairs=8)
    q = np.arange(len(D[0]), dtype=np.intp)
    assert KERN.compiled(D, q, ostart, opts) is not None
    nan = (np.where(q == 0, np.nan, D[0]),) + D[1:]
    zero_b = D[:5] + (np.where(q == 1, 0.0, D[5]),)
    for d, qq, os_, op in [((D[0].astype(np.float32),) + D[1:], q, ostart, opts),
                           (D, q.astype(np.int32), ostart, opts), (nan, q, ostart, opts),
                           (D, q[::-1].copy(), ostart, opts), (D, np.array([0, 0], dtype=np.intp), ostart, opts),
                           (D, q + len(q), ostart, opts), (D, q, ostart[::-1].copy(), opts),
                           (D, q, ostart, opts.astype(np.float32)), (zero_b, q, ostart, opts),
                           ((D[0][:-1],) + D[1:], q, ostart, opts)]:
        assert KERN.compiled(d, qq, os_, op) is None
