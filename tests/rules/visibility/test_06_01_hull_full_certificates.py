"""06.01 Fully visible for pairs with an oval or rectangular base: the certificates of
sim.rules.visibility.hull_full (a sample of B in a piece's umbra: no; a free region from A towards
B's bounding disc: yes) settle a pair only with the answer of
kernels.footprint_fully_visible, and the VisibilityIndex answers what the scalar rule
(model_fully_visible) answers, on the default table and random layouts."""

import numpy as np
import pytest

from sim.rules.visibility import index_full as full_index  # (where the index settles fully visible)
from sim.rules.visibility.batch import csr_subset
from sim.rules.visibility.hull_full import full_certificates
from sim.rules.visibility.kernels import footprint_fully_visible
from sim.rules.visibility.pairs import capsule_inputs
from sim.rules.terrain import default_table
from sim.rules.visibility.sight import model_fully_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import random_layout
from random_bases import random_base


def _layouts(rng, count):
    for t in range(count):
        if t % 2:
            areas = default_table()
            fps = [random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43)) for _ in range(16)]
        else:
            areas, a, b = random_layout(rng)
            fps = [random_base(rng, *rng.uniform(1, 29, 2)) for _ in range(8)] + [a, b]
        yield VisibilityIndex(areas, [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")
                                      for k, f in enumerate(fps)])


def _hull_pairs(idx):
    """Directed pairs not both round, with sight and a piece in the capsule."""
    n = len(idx.ids)
    I, J = np.nonzero((idx.army[:, None] != idx.army[None, :]) & idx.los & ~idx._clear
                      & ~(idx.round[:, None] & idx.round[None, :]))
    assert n and len(I) <= n * n
    return I, J


@pytest.mark.parametrize("seed", range(2))
def test_settled_pairs_get_the_kernel_answer(seed, monkeypatch):
    import sim.rules.visibility.hull_full as H
    outline = []
    real = H._outline_apexes_free

    def counted(*a):
        out = real(*a)
        outline.append(int(out.sum()))
        return out
    monkeypatch.setattr(H, "_outline_apexes_free", counted)
    rng = np.random.default_rng(70 + seed)
    settled = {True: 0, False: 0}
    left = 0
    for idx in _layouts(rng, 12):
        I, J = _hull_pairs(idx)
        if len(I) == 0:
            continue
        pstart, pidx, ostart, opts, _ = capsule_inputs(idx, np.minimum(I, J), np.maximum(I, J))
        done, ans, _D, _near = full_certificates(idx, I, J, idx.blk.pieces, pstart, pidx)
        for q in range(len(I)):
            if not done[q]:
                left += 1
                continue
            (ac, ar), (bc, br) = idx._core(I[q]), idx._core(J[q])
            ps, pi = csr_subset(pstart, pidx, np.array([q]))
            os_, op = csr_subset(ostart, opts, np.array([q]))
            want = footprint_fully_visible(ac, ar, bc, br, idx.blk.pieces.subset(pi), op)
            assert bool(ans[q]) == want, (q, idx.fps[I[q]], idx.fps[J[q]])
            settled[want] += 1
    assert settled[True] > 20 and settled[False] > 20 and left > 0
    assert sum(outline) > 0                         # (the apexes on a hull's outline settle some)


def test_index_fully_visible_with_hulls_is_the_scalar_rule(monkeypatch):
    calls = []
    real = full_index.footprint_fully_visible

    def counted(*a):
        calls.append(1)
        return real(*a)
    monkeypatch.setattr(full_index, "footprint_fully_visible", counted)
    rng = np.random.default_rng(5)
    pairs = 0
    for idx in _layouts(rng, 10):
        fv = idx.fully_visible
        I, J = _hull_pairs(idx)
        pairs += len(I)
        for i, j in zip(I.tolist(), J.tolist()):
            assert fv[i, j] == model_fully_visible(idx.fps[i], idx.fps[j], idx.blk), (i, j)
    assert 0 < len(calls) < pairs                   # the certificates settle some, not all


def test_round_and_hull_pairs_share_one_call_of_each_certificate(monkeypatch):
    """PairResolution._full_pairs settles round pairs and pairs with a hull together
    (hull_full.full_certificates: a round pair's first stages are fully_visible_round's, on
    the same discs), then the round pairs' samples (full.round_samples): one call of each
    stage a batch, and every answer the kernel's."""
    import sim.rules.visibility.full as F
    import sim.rules.visibility.hull_full as H
    counts = {"ring_shadowed": [], "star_free": []}
    for name, got in counts.items():
        for mod in (F, H):
            real = getattr(mod, name)
            monkeypatch.setattr(mod, name, lambda *a, _r=real, _g=got: _g.append(1) or _r(*a))
    rng = np.random.default_rng(11)
    mixed = 0
    for idx in _layouts(rng, 8):
        n = len(idx.ids)
        I, J = np.nonzero((idx.army[:, None] != idx.army[None, :]) & idx.los & ~idx._clear)
        if len(I) == 0:
            continue
        rnd = idx.round[I] & idx.round[J]
        mixed += bool(rnd.any() and not rnd.all())
        pstart, pidx, ostart, opts, _ = capsule_inputs(idx, np.minimum(I, J), np.maximum(I, J))
        for got in counts.values():
            got.clear()
        out = idx._full_pairs(I, J, pstart, pidx, ostart, opts)
        assert len(counts["ring_shadowed"]) <= 1 and len(counts["star_free"]) <= 1
        for q in range(len(I)):
            (ac, ar), (bc, br) = idx._core(I[q]), idx._core(J[q])
            ps, pi = csr_subset(pstart, pidx, np.array([q]))
            os_, op = csr_subset(ostart, opts, np.array([q]))
            assert bool(out[q]) == footprint_fully_visible(ac, ar, bc, br, idx.blk.pieces.subset(pi), op), \
                (q, n, idx.fps[I[q]], idx.fps[J[q]])
    assert mixed >= 3
