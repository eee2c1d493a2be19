"""06.01 / 13.08 The hull observers' star certificates (sim.rules.visibility.hull_full): the
outline apexes (``_outline_apexes``: the core vertex farthest in each direction from the
direction of B) and the separation from apexes (``_apexes_free``), and their compiled twins
(sim.rules.compiled: ``visibility.outline_apexes``, ``visibility.apexes_free``) give the same
answers to the bit: every pair with an oval or rectangular observer of seeded random layouts,
apexes of every kind (the outline's, the cores' means), sub-sets of the pairs; a direction in
which two vertices are equally far, which the twin leaves to the reference (its matrix product
may be the BLAS's); and the inputs the twins leave to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs
from sim.rules import compiled as C
from twins import twin_answer
from sim.rules.visibility import hull_full as _hull_full  # noqa: F401  (its kernels registered)

OUTLINE = C.KERNELS["visibility.outline_apexes"]
FREE = C.KERNELS["visibility.apexes_free"]
built = pytest.mark.skipif(OUTLINE.compiled is None or FREE.compiled is None,
                           reason="the compiled kernels are not built here")


_same = twin_answer


@built
@pytest.mark.parametrize("seed", range(4))
def test_hull_apexes_compiled_are_their_references_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    answers = []
    for _ in range(4):
        ix, I, _J, D, pstart, pidx = certificate_pairs(rng, hulls=True)
        pk = ix.blk.pieces
        q = np.flatnonzero(~ix.round[I])
        assert len(q)
        cores = [ix._core(i)[0] for i in I[q].tolist()]
        px, py, ok = _same(OUTLINE, cores, D, q)
        answers += _same(FREE, px, py, ok, D, q, pk, pstart, pidx).tolist()
        sub = np.sort(rng.choice(q, size=max(1, len(q) // 3), replace=False))
        cs = [ix._core(i)[0] for i in I[sub].tolist()]
        _same(FREE, *_same(OUTLINE, cs, D, sub), D, sub, pk, pstart, pidx)
        m = np.array([ix._core(i)[0].mean(axis=0) for i in I[q].tolist()])   # (one apex a pair)
        answers += _same(FREE, m[:, :1].copy(), m[:, 1:].copy(), np.ones((len(q), 1), dtype=bool),
                         D, q, pk, pstart, pidx).tolist()
    assert 0 < sum(answers) < len(answers)


@built
def test_outline_apexes_compiled_leaves_two_equally_far_vertices_to_the_reference():
    """A square observer with B straight along one of its edges' normals: two vertices are
    equally far that way; the twin declines, the reference answers (its first)."""
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    D = tuple(np.array([v]) for v in (0.5, 0.5, 0.8, 10.0, 0.5, 0.5))
    q = np.array([0], dtype=np.intp)
    assert OUTLINE.compiled([square], D, q) is None
    px, py, _ok = OUTLINE.reference([square], D, q)
    assert (px[0, 0], py[0, 0]) == (1.0, 0.0)
    tilted = square @ np.array([[np.cos(0.3), np.sin(0.3)], [-np.sin(0.3), np.cos(0.3)]])
    _same(OUTLINE, [tilted], D, q)


@built
def test_hull_apexes_compiled_leave_other_inputs_to_the_reference():
    rng = np.random.default_rng(7)
    ix, I, _J, D, pstart, pidx = certificate_pairs(rng, hulls=True)
    pk = ix.blk.pieces
    q = np.flatnonzero(~ix.round[I])
    cores = [ix._core(i)[0] for i in I[q].tolist()]
    px, py, ok = OUTLINE.reference(cores, D, q)
    nan = (np.where(np.arange(len(D[0])) == q[0], np.nan, D[0]),) + D[1:]
    for args in [(cores, D, q.astype(np.int32)), (cores[:-1], D, q), (tuple(cores), D, q),
                 (cores[:-1] + [cores[0].astype(np.float32)], D, q), (cores, nan, q),
                 (cores, D, q + len(D[0]))]:
        assert OUTLINE.compiled(*args) is None
    for args in [(px.astype(np.float32), py, ok), (px, py, ok.astype(np.uint8)), (px[:-1], py, ok),
                 (np.where(px > 0, np.nan, px), py, ok)]:
        assert FREE.compiled(*args, D, q, pk, pstart, pidx) is None
    assert FREE.compiled(px, py, ok, D, q, pk, pstart, pidx + len(pk)) is None


@built
@pytest.mark.parametrize("seed", range(2))
def test_hull_apexes_compiled_at_their_limits(seed):
    """B's disc a hair either side of clear of A's (1e-6"), an apex a hair either side of B's
    grown disc (its radius * 1.000001), and a direction a hair off two vertices' tie (inside
    the twin's band: declined)."""
    rng = np.random.default_rng(50 + seed)
    ix, I, _J, D, pstart, pidx = certificate_pairs(rng, hulls=True)
    pk = ix.blk.pieces
    q = np.flatnonzero(~ix.round[I])
    cores = [ix._core(i)[0] for i in I[q].tolist()]
    ax, ay, ra, bx, by, rb = (a.copy() for a in D)
    u = np.stack([bx - ax, by - ay], axis=1)
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    oks = []
    for gap in (0.5e-6, 1e-6, 2e-6, 5e-6, 2e-5):
        b = np.stack([ax, ay], axis=1) + u * (ra + rb + gap)[:, None]
        D2 = (ax, ay, ra, b[:, 0].copy(), b[:, 1].copy(), rb)
        oks.append(_same(OUTLINE, cores, D2, q)[2].all(axis=1))
    assert not oks[0].any() and oks[-1].all()
    answers = []
    for f in (1.0000005, 1.000001, 1.0000015):
        t = rng.uniform(0, 2 * np.pi, size=len(q))
        r = (rb[q] + 1e-7) * f
        px = (bx[q] + r * np.cos(t))[:, None]
        py = (by[q] + r * np.sin(t))[:, None]
        answers.append(_same(FREE, px, py, np.ones((len(q), 1), dtype=bool), D, q, pk, pstart, pidx))
    assert not answers[0].any() and answers[2].any()
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    for tilt in (1e-13, -1e-13, 1e-11):
        Dt = tuple(np.array([v]) for v in (0.5, 0.5, 0.8, 10.0, 0.5 + 9.5 * tilt, 0.5))
        assert OUTLINE.compiled([square], Dt, np.array([0], dtype=np.intp)) is None
