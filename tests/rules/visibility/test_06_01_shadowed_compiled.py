"""06.01 sim.rules.visibility.full._shadowed (the pairs with a sample point of B that no segment
from A reaches: the exact test of kernels.points_visible_from, batched) and its compiled twin
(sim.rules.compiled: ``visibility.shadowed``) give the same pairs: the samples of round_samples
for every ordered pair of seeded random layouts' bases; points among crowded pieces (inside
them, on their vertices, inside A, A of no radius); pairs without pieces or obstacle vertices;
and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_discs
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import certs as CE
from sim.rules.visibility import full as FU
from sim.rules.visibility.kernels import Pieces
from sim.rules.visibility.pairs import capsule_inputs

KERN = C.KERNELS["visibility.shadowed"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(qx, qy, owner, D, pk, pstart, pidx, ostart, opts):
    return twin_answer(KERN, qx, qy, owner, D, pk, pstart, pidx, ostart, opts)


@built
@pytest.mark.parametrize("seed", range(4))
def test_shadowed_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(3):
        ix, I, J, D, pstart, pidx = certificate_pairs(rng)
        _p, _i, ostart, opts, _free = capsule_inputs(ix, np.minimum(I, J), np.maximum(I, J))
        q = np.arange(len(I), dtype=np.intp)
        F = len(CE.FIXED)
        px = (D[3][:, None] + D[5][:, None] * CE.FIXED[:, 0]).ravel()
        py = (D[4][:, None] + D[5][:, None] * CE.FIXED[:, 1]).ravel()
        ox, oy, oo = FU._arc_samples(D, q, ostart, opts)
        qx, qy, own = np.concatenate([px, ox]), np.concatenate([py, oy]), np.concatenate([q.repeat(F), oo])
        hit = _same(qx, qy, own, D[:3], ix.blk.pieces, pstart, pidx, ostart, opts)
        found += len(hit)
        pick = rng.random(len(qx)) < 0.1
        _same(qx[pick], qy[pick], own[pick], D[:3], ix.blk.pieces, pstart, pidx, ostart, opts)
    assert found


@built
@pytest.mark.parametrize("seed", range(3))
def test_shadowed_compiled_among_crowded_pieces(seed):
    rng = np.random.default_rng(1000 + seed)
    polys, ca, ra, cb, rb, pieces, verts = crowded_discs(rng, 50)
    pk = Pieces(polys)
    ca, cb, ra = np.array(ca), np.array(cb), np.array(ra)
    pstart = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.intp)
    pidx = np.concatenate([np.asarray(p, dtype=np.intp) for p in pieces])
    ostart = np.concatenate([[0], np.cumsum([len(v) for v in verts])]).astype(np.intp)
    opts = np.concatenate(verts)
    own = np.arange(len(ca), dtype=np.intp).repeat(3)
    t = rng.uniform(-0.3, 1.3, size=len(own))[:, None]
    pts = ca[own] + t * (cb[own] - ca[own]) + rng.normal(0, 0.6, size=(len(own), 2))
    pts[::5] = opts[ostart[own[::5]]]                        # on an obstacle vertex
    pts[4::7] = ca[own[4::7]]                                # at A's centre
    ang = rng.uniform(0, 2 * np.pi, size=len(own))
    on = np.arange(2, len(own), 6)                           # on A's outline (its chord a point)
    pts[on] = ca[own[on]] + ra[own[on], None] * np.stack([np.cos(ang[on]), np.sin(ang[on])], axis=1)
    for r in (ra, np.zeros_like(ra)):
        D = (ca[:, 0].copy(), ca[:, 1].copy(), r)
        hit = _same(pts[:, 0].copy(), pts[:, 1].copy(), own, D, pk, pstart, pidx, ostart, opts)
        assert 0 < len(hit) < len(ca)
    none = np.zeros_like(pstart)
    assert len(_same(pts[:, 0].copy(), pts[:, 1].copy(), own, D, pk, none, pidx[:0], none, opts[:0])) == 0
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra)
    _same(pts[:, 0].copy(), pts[:, 1].copy(), own, D, pk, pstart, pidx, np.zeros_like(ostart), opts[:0])


@built
def test_shadowed_compiled_leaves_other_inputs_to_the_reference():
    polys, ca, ra, cb, _rb, pieces, verts = crowded_discs(np.random.default_rng(9), 8)
    pk = Pieces(polys)
    ca, cb = np.array(ca), np.array(cb)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), np.array(ra))
    pstart = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.intp)
    pidx = np.concatenate([np.asarray(p, dtype=np.intp) for p in pieces])
    ostart = np.concatenate([[0], np.cumsum([len(v) for v in verts])]).astype(np.intp)
    opts = np.concatenate(verts)
    own = np.arange(len(ca), dtype=np.intp)
    qx, qy = cb[:, 0].copy(), cb[:, 1].copy()
    assert KERN.compiled(qx, qy, own, D, pk, pstart, pidx, ostart, opts) is not None
    nan = np.where(own == 0, np.nan, qx)
    for a in [(qx.astype(np.float32), qy, own, D, pstart, pidx, ostart, opts),
              (qx, qy, own.astype(np.int32), D, pstart, pidx, ostart, opts),
              (nan, qy, own, D, pstart, pidx, ostart, opts), (qx, qy, own + len(ca), D, pstart, pidx, ostart, opts),
              (qx, qy, own, D, pstart, pidx + len(pk), ostart, opts),
              (qx, qy, own, D, pstart[::-1].copy(), pidx, ostart, opts),
              (qx, qy, own, D, pstart, pidx, ostart[::-1].copy(), opts),
              (qx, qy, own, D, pstart, pidx, ostart, opts.astype(np.float32)),
              (qx[:-1], qy, own, D, pstart, pidx, ostart, opts), (qx, qy, own, (D[0][:-1],) + D[1:], pstart, pidx, ostart, opts)]:
        assert KERN.compiled(*a[:4], pk, *a[4:]) is None
