"""06.01 sim.rules.visibility.certs.ring_shadowed (the certificate "not fully visible": a
point of B's outline ring in the umbra of a piece lit by A) and its compiled twin
(sim.rules.compiled: ``visibility.ring_shadowed``) give the same answers: every ordered pair
of bases of seeded random layouts with the pieces the capsule stage finds for it, and discs
among crowded pieces (over them, touching, overlapping each other, of no radius as a light,
some pieces not convex); and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from sim.rules.visibility import certs as _certs  # noqa: F401  (its kernel registered)

KERN = C.KERNELS["visibility.ring_shadowed"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(D, q, pk, pstart, pidx) -> np.ndarray:
    got, want = KERN.compiled(D, q, pk, pstart, pidx), KERN.reference(D, q, pk, pstart, pidx)
    assert got is not None and C._same_bits(got, want)
    return want


def _layout_pairs(rng):
    """A layout's bases as the fully-visible stage hands them over (certificate_pairs: every
    ordered pair, A's light and B's disc, each pair's capsule pieces)."""
    ix, _I, _J, D, pstart, pidx = certificate_pairs(rng)
    return D, ix.blk.pieces, pstart, pidx


@built
@pytest.mark.parametrize("seed", range(3))
def test_ring_shadowed_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    shadowed = []
    for _ in range(5):
        D, pk, pstart, pidx = _layout_pairs(rng)
        q = np.flatnonzero(pstart[1:] > pstart[:-1])
        shadowed += _same(D, q, pk, pstart, pidx).tolist()
        _same(D, q[rng.random(len(q)) < 0.3], pk, pstart, pidx)
    assert 0.05 < np.mean(shadowed) < 0.95


@built
@pytest.mark.parametrize("seed", range(3))
def test_ring_shadowed_compiled_is_its_reference_among_crowded_pieces(seed):
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(200 + seed))
    assert not pk.convex.all()                      # (a third of them not convex: their chords
    rb[rb < 0.05] = 0.05                            # are not valid; B's ring about a disc of some size)
    for light in (ra, np.zeros(len(ra))):
        D = (ca[:, 0].copy(), ca[:, 1].copy(), light, cb[:, 0].copy(), cb[:, 1].copy(), rb)
        got = _same(D, np.arange(len(ca)), pk, pstart, pidx)
        assert 0 < got.sum() < len(got)


@built
def test_ring_shadowed_compiled_leaves_other_inputs_to_the_reference():
    D, pk, pstart, pidx = _layout_pairs(np.random.default_rng(4))
    q = np.flatnonzero(pstart[1:] > pstart[:-1])
    assert KERN.compiled(D, q, pk, pstart, pidx) is not None
    nan = D[:2] + (np.where(np.arange(len(D[2])) == 0, np.nan, D[2]),) + D[3:]
    bad = [
        (D[:5] + (D[5].astype(np.float32),), q, pstart, pidx),   # another float type
        (D, q.astype(np.int32), pstart, pidx),                    # another index type
        (nan, q, pstart, pidx),                                   # no number
        (D, q + len(D[0]), pstart, pidx),                         # no such pair
        (D, q, pstart, pidx + len(pk)),                           # no such piece
        (D, q, pstart[::-1].copy(), pidx),                        # rows going back
        (D[:5] + (D[5][:-1],), q, pstart, pidx),                  # lengths that differ
    ]
    for d, qq, ps, pi in bad:
        assert KERN.compiled(d, qq, pk, ps, pi) is None
