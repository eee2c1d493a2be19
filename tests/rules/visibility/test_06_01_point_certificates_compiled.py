"""06.01 sim.rules.visibility.certs.point_certificates (per sample point of B: "seen", a free
direction towards A; "hidden", every direction towards A into a nearer piece) and its compiled
twin (sim.rules.compiled: ``visibility.point_certificates``, its angles numpy's own) give the
same answers to the bit: the samples of round_samples (the fixed ones and the outline arcs')
for every ordered pair of seeded random layouts' bases, thousands of points (several of the
reference's chunks); points among crowded pieces, a third not convex, inside and touching
them and inside A; and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import certs as CE
from sim.rules.visibility import full as FU
from sim.rules.visibility.pairs import capsule_inputs

KERN = C.KERNELS["visibility.point_certificates"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _same(qx, qy, owner, D, pk, pstart, pidx):
    return twin_answer(KERN, qx, qy, owner, D, pk, pstart, pidx)


def _samples(D, q, ostart, opts):
    """round_samples' points for pairs ``q``: the fixed ones, then the outline arcs'."""
    F = len(CE.FIXED)
    px = (D[3][q][:, None] + D[5][q][:, None] * CE.FIXED[:, 0]).ravel()
    py = (D[4][q][:, None] + D[5][q][:, None] * CE.FIXED[:, 1]).ravel()
    ox, oy, oo = FU._arc_samples(D, q, ostart, opts)
    return np.concatenate([px, ox]), np.concatenate([py, oy]), np.concatenate([q.repeat(F), oo])


@built
@pytest.mark.parametrize("seed", range(4))
def test_point_certificates_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    seen = hidden = 0
    for _ in range(3):
        ix, I, J, D, pstart, pidx = certificate_pairs(rng)
        _p, _i, ostart, opts, _free = capsule_inputs(ix, np.minimum(I, J), np.maximum(I, J))
        q = np.arange(len(I), dtype=np.intp)
        qx, qy, own = _samples(D, q, ostart, opts)
        assert len(qx) > 2 * CE._PT_CHUNK
        s, h = _same(qx, qy, own, D, ix.blk.pieces, pstart, pidx)
        seen, hidden = seen + s.sum(), hidden + h.sum()
        pick = rng.random(len(qx)) < 0.2
        _same(qx[pick], qy[pick], own[pick], D, ix.blk.pieces, pstart, pidx)
    assert seen and hidden


@built
@pytest.mark.parametrize("seed", range(3))
def test_point_certificates_compiled_among_crowded_pieces(seed):
    """Points about B and scattered between the discs and the pieces (inside them, on their
    edges, inside A), a third of the pieces not convex."""
    rng = np.random.default_rng(900 + seed)
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(rng, pairs=50)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    own = np.arange(len(ca), dtype=np.intp).repeat(40)
    t = rng.uniform(-0.3, 1.3, size=len(own))[:, None]
    pts = ca[own] + t * (cb[own] - ca[own]) + rng.normal(0, 0.8, size=(len(own), 2))
    verts = pk.verts[pidx[pstart[own]], 0]                  # some on a piece's vertex
    pts[::7] = verts[::7]
    pts[3::11] = ca[own[3::11]]                             # some at A's centre
    s, h = _same(pts[:, 0].copy(), pts[:, 1].copy(), own, D, pk, pstart, pidx)
    assert s.any() and h.any() and not (s & h).any()


@built
def test_point_certificates_compiled_without_points_or_pieces():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(4), pairs=5)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    z = np.zeros(0)
    _same(z, z, np.zeros(0, dtype=np.intp), D, pk, pstart, pidx)
    own = np.arange(5, dtype=np.intp)
    s, h = _same(cb[:, 0].copy(), cb[:, 1].copy(), own, D, pk, np.zeros(6, dtype=np.intp), pidx[:0])
    # (no piece: every point outside A by more than the margin is seen, none hidden)
    assert (s == (np.linalg.norm(cb - ca, axis=1) > ra + CE._CLOSE)).all() and not h.any()


@built
def test_point_certificates_compiled_leaves_other_inputs_to_the_reference():
    pk, ca, ra, cb, rb, pstart, pidx = crowded_pieces(np.random.default_rng(9), pairs=10)
    D = (ca[:, 0].copy(), ca[:, 1].copy(), ra, cb[:, 0].copy(), cb[:, 1].copy(), rb)
    own = np.arange(len(ca), dtype=np.intp)
    qx, qy = cb[:, 0].copy(), cb[:, 1].copy()
    assert KERN.compiled(qx, qy, own, D, pk, pstart, pidx) is not None
    nan = np.where(own == 0, np.nan, qx)
    for args in [(qx.astype(np.float32), qy, own, D, pstart, pidx), (qx, qy, own.astype(np.int32), D, pstart, pidx),
                 (nan, qy, own, D, pstart, pidx), (qx, qy, own + len(ca), D, pstart, pidx),
                 (qx, qy, own, D, pstart, pidx + len(pk)), (qx, qy, own, D, pstart[::-1].copy(), pidx),
                 (qx[:-1], qy, own, D, pstart, pidx), (qx, qy, own, (D[0][:-1],) + D[1:], pstart, pidx)]:
        assert KERN.compiled(*args[:4], pk, *args[4:]) is None
