"""06.01 sim.rules.visibility.certs.near_a (a piece of the pair within _FREE of the observer's
outline: the fully-visible certificates' star from A is then not asked) and its compiled twin
(sim.rules.compiled: ``visibility.near_a``) give the same answers: every ordered pair of seeded
random layouts' bases with their capsule pieces; observers among crowded pieces (some not
convex: their bounding circles are read) at exactly the limit from an edge line and a hair
either side of it; and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import crowded_discs, layout_and_bases
from sim.rules import compiled as C
from sim.rules.visibility import certs as CE
from sim.rules.visibility.index import ModelEntry, VisibilityIndex
from sim.rules.visibility.kernels import Pieces
from sim.rules.visibility.pairs import capsule_inputs

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
        areas, fps, _blk, _within = layout_and_bases(rng, 10)
        ix = VisibilityIndex(areas, [ModelEntry(f"m{k}", fp, "red" if k % 2 else "blue", f"u{k % 4}",
                                                frozenset({"INFANTRY"})) for k, fp in enumerate(fps)])
        n = len(fps)
        I, J = np.nonzero(~np.eye(n, dtype=bool))
        pstart, pidx, _os, _op, _free = capsule_inputs(ix, np.minimum(I, J), np.maximum(I, J))
        c = ix.centres
        D = (c[I, 0].copy(), c[I, 1].copy(), ix.radius[I].copy(), c[J, 0].copy(), c[J, 1].copy(),
             ix.radius[J].copy())
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
    polys, ca, ra, cb, rb, pieces, _verts = crowded_discs(rng, pairs=60)
    for k in range(0, len(polys), 3):
        if len(polys[k]) >= 4:
            polys[k][0] = 0.9 * polys[k].mean(axis=0) + 0.1 * polys[k][0]
    pk = Pieces(polys)
    pstart = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.intp)
    pidx = np.concatenate([np.asarray(p, dtype=np.intp) for p in pieces])
    ca, cb, ra, rb = np.array(ca), np.array(cb), np.array(ra), np.array(rb)
    found = []
    for shift in (0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-8, -1e-8):
        a = ca.copy()
        for p, mine in enumerate(pieces):
            k = mine[0]
            v = int(rng.integers(pk.nverts[k]))
            n, o = pk.normals[k, v], pk.offs[k, v]
            # (A's centre where the edge line's signed distance is exactly its radius + _FREE)
            a[p] = a[p] - (n @ a[p] - o - (ra[p] + CE._FREE + shift)) * n
        D = (a[:, 0].copy(), a[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
        found += _same(D, np.arange(len(a), dtype=np.intp), pk, pstart, pidx).tolist()
    assert 0 < sum(found) < len(found)


@built
def test_near_a_compiled_leaves_other_inputs_to_the_reference():
    polys, ca, ra, cb, rb, pieces, _verts = crowded_discs(np.random.default_rng(9), pairs=10)
    pk = Pieces(polys)
    pstart = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.intp)
    pidx = np.concatenate([np.asarray(p, dtype=np.intp) for p in pieces])
    ca, cb = np.array(ca), np.array(cb)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), np.array(ra), cb[:, 0].copy(), cb[:, 1].copy(), np.array(rb))
    q = np.arange(len(ca), dtype=np.intp)
    assert KERN.compiled(D, q, pk, pstart, pidx) is not None
    nan = (np.where(q == 0, np.nan, D[0]),) + D[1:]
    for d, qq, ps, pi in [((D[0].astype(np.float32),) + D[1:], q, pstart, pidx),
                          (D, q.astype(np.int32), pstart, pidx), (nan, q, pstart, pidx),
                          (D, q + len(ca), pstart, pidx), (D, q, pstart, pidx + len(pk)),
                          (D, q, pstart[::-1].copy(), pidx), ((D[0][:-1],) + D[1:], q, pstart, pidx)]:
        assert KERN.compiled(d, qq, pk, ps, pi) is None
