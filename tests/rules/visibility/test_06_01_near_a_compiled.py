"""06.01 sim.rules.visibility.certs.near_a (a piece of the pair within _FREE of the observer's
outline: the fully-visible certificates' star from A is then not asked) and its compiled twin
(sim.rules.compiled: ``visibility.near_a``) give the same answers: every ordered pair of seeded
random layouts' bases with their capsule pieces; observers among crowded pieces (some not
convex: their bounding circles are read) at exactly the limit from an edge line and a hair
either side of it; and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from sim.rules.visibility import certs as CE

KERN = C.KERNELS["visibility.near_a"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(D, q, pk, pstart, pidx) -> np.ndarray:
    got, want = KERN.compiled(D, q, pk, pstart, pidx), KERN.reference(D, q, pk, pstart, pidx)
    assert got is not None and C._same_bits(got, want)
    return want


@built
@pytest.mark.parametrize("seed", range(3))
def test_near_a_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(5):
        ix, I, _J, D, pstart, pidx = certificate_pairs(rng)
        q = np.arange(len(I), dtype=np.intp)
        found += _same(D, q, ix.blk.pieces, pstart, pidx).tolist()
        _same(D, q[rng.random(len(q)) < 0.3], ix.blk.pieces, pstart, pidx)
    assert 0 < sum(found) < len(found)


@built
@pytest.mark.parametrize("seed", range(3))
def test_near_a_compiled_at_the_limit_of_an_edge_line(seed):
    """Each pair's observer moved to lie exactly ``radius + _FREE`` off one of its pieces' edge
    lines (outside), then a hair either side, among crowded pieces a third of them not convex."""
    rng = np.random.default_rng(400 + seed)
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(rng, pairs=60)
    found = []
    for shift in (0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-8, -1e-8):
        a = ca.copy()
        for p in range(len(a)):
            k = pidx[pstart[p]]
            v = int(rng.integers(pk.nverts[k]))
            n, o = pk.normals[k, v], pk.offs[k, v]
            # (A's centre where the edge line's signed distance is exactly its radius + _FREE)
            a[p] = a[p] - (n @ a[p] - o - (ra[p] + CE._FREE + shift)) * n
        D = (a[:, 0].copy(), a[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
        found += _same(D, np.arange(len(a), dtype=np.intp), pk, pstart, pidx).tolist()
    assert 0 < sum(found) < len(found)


@built
def test_near_a_compiled_leaves_other_inputs_to_the_reference():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(9), pairs=10)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    q = np.arange(len(ca), dtype=np.intp)
    assert KERN.compiled(D, q, pk, pstart, pidx) is not None
    nan = (np.where(q == 0, np.nan, D[0]),) + D[1:]
    for d, qq, ps, pi in [((D[0].astype(np.float32),) + D[1:], q, pstart, pidx),
                          (D, q.astype(np.int32), pstart, pidx), (nan, q, pstart, pidx),
                          (D, q + len(ca), pstart, pidx), (D, q, pstart, pidx + len(pk)),
                          (D, q, pstart[::-1].copy(), pidx), ((D[0][:-1],) + D[1:], q, pstart, pidx)]:
        assert KERN.compiled(d, qq, pk, ps, pi) is None
