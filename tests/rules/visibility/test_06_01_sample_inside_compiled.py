"""06.01 sim.rules.visibility.certs.sample_inside (the certificate "not fully visible": one of
B's fixed samples inside a convex piece, and outside A) and its compiled twin
(sim.rules.compiled: ``visibility.sample_inside``) give the same answers: every ordered pair of
seeded random layouts' bases with their capsule pieces; B's disc laid over crowded pieces (a
third of them not convex), A over B or apart; and the inputs the twin leaves to the
reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import certs as _certs  # noqa: F401  (its kernel registered)

KERN = C.KERNELS["visibility.sample_inside"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(D, q, pk, pstart, pidx) -> np.ndarray:
    return twin_answer(KERN, D, q, pk, pstart, pidx)


@built
@pytest.mark.parametrize("seed", range(3))
def test_sample_inside_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    for _ in range(4):
        ix, I, _J, D, pstart, pidx = certificate_pairs(rng)
        q = np.arange(len(I), dtype=np.intp)
        _same(D, q, ix.blk.pieces, pstart, pidx)
        _same(D, q[rng.random(len(q)) < 0.3], ix.blk.pieces, pstart, pidx)


@built
@pytest.mark.parametrize("seed", range(3))
def test_sample_inside_compiled_over_crowded_pieces(seed):
    """B's centre on a piece's vertex or at its middle, B small and large; A on B's centre (its
    samples inside A) and apart."""
    rng = np.random.default_rng(600 + seed)
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(rng, pairs=60)
    first = pidx[pstart[:-1]]
    found = []
    for b in (pk.verts[first, 0], pk.verts[first].mean(axis=1), cb):
        for r in (rb, 0.2 * rb + 0.05, 3.0 * rb + 0.1):
            for a in (ca, b):
                D = (a[:, 0].copy(), a[:, 1].copy(), ra, b[:, 0].copy(), b[:, 1].copy(), r)
                found += _same(D, np.arange(len(ca), dtype=np.intp), pk, pstart, pidx).tolist()
    assert 0 < sum(found) < len(found)


@built
def test_sample_inside_compiled_leaves_other_inputs_to_the_reference():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(9), pairs=10)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    q = np.arange(len(ca), dtype=np.intp)
    assert KERN.compiled(D, q, pk, pstart, pidx) is not None
    nan = (np.where(q == 0, np.nan, D[0]),) + D[1:]
    no_radius = D[:5] + (np.where(q == 2, 0.0, rb),)
    for d, qq, ps, pi in [((D[0].astype(np.float32),) + D[1:], q, pstart, pidx),
                          (D, q.astype(np.int32), pstart, pidx), (nan, q, pstart, pidx),
                          (no_radius, q, pstart, pidx), (D, q + len(ca), pstart, pidx),
                          (D, q, pstart, pidx + len(pk)), (D, q, pstart[::-1].copy(), pidx),
                          ((D[0][:-1],) + D[1:], q, pstart, pidx)]:
        assert KERN.compiled(d, qq, pk, ps, pi) is None


@built
def test_sample_inside_compiled_at_the_margin_from_a():
    """B a speck inside a piece, A's outline a hair either side of _CLOSE from it: a sample
    within _CLOSE of A counts as seen."""
    pk, ca, ra, _cb, _rb, pstart, pidx = crowded_pieces(np.random.default_rng(21), pairs=40)
    b = pk.verts[pidx[pstart[:-1]]].mean(axis=1)
    found = []
    for gap in (0.5e-4, 1.5e-4):
        a = b + np.array([1.0, 0.0]) * (ra + gap)[:, None]
        D = (a[:, 0].copy(), a[:, 1].copy(), ra, b[:, 0].copy(), b[:, 1].copy(), np.full(len(ra), 1e-6))
        found.append(_same(D, np.arange(len(ra), dtype=np.intp), pk, pstart, pidx))
    assert not found[0].any() and found[1].any()
