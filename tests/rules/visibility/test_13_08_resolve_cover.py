"""13.08 VisibilityIndex.resolve_cover: the fully-visible entries cover reads for many pairs,
worked out in one batch (a player about to weigh every unit's attacks asks for them all at
once), but for the pairs only the one-pair kernel settles, left to cover_every as it leaves
them (one by one, only while a row is open). After it, reading the cover of those pairs block
by block resolves only such pairs, and every answer is the one an index of the same models
resolved block by block gives (and the whole block's): only when an entry is worked out
changes, never what."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.visibility import index_full as IF
from sim.rules.visibility.index import VisibilityIndex
from sim.rules.visibility.index_pairs import PairResolution

from test_13_08_cover_every import _blocks, _table


def _ask_all(idx: VisibilityIndex, blocks) -> tuple[np.ndarray, np.ndarray]:
    """Every (observer, target) pair of the blocks, as index arrays."""
    n = len(idx.ids)
    I, J = [], []
    for rows, cols in blocks:
        r = np.arange(n)[rows] if isinstance(rows, slice) else rows
        c = np.arange(n)[cols] if isinstance(cols, slice) else cols
        I.append(np.repeat(r, len(c)))
        J.append(np.tile(c, len(r)))
    return np.concatenate(I), np.concatenate(J)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_13_08_resolve_cover_leaves_cover_every_only_the_one_pair_kernels_pairs(seed, monkeypatch):
    areas, models = _table(seed)
    batched, lazy, whole = (VisibilityIndex(areas, models) for _ in range(3))
    n = len(models)
    reach = np.repeat(np.random.default_rng(seed + 7).choice([0.0, 6.0, 12.0], size=n // 4), 4)
    for idx in (batched, lazy):  # (short reaches: read block by block, many batches of their own)
        idx.set_reach(reach)
    calls, kernel = [], []
    real = PairResolution._ensure_full
    monkeypatch.setattr(PairResolution, "_ensure_full",
                        lambda self, I, J, defer=None: calls.append((self, I, J)) or real(self, I, J, defer))
    one_pair = IF.footprint_fully_visible
    monkeypatch.setattr(IF, "footprint_fully_visible", lambda *a: kernel.append(a) or one_pair(*a))
    rng = np.random.default_rng(seed + 50)
    for step in range(3):
        ks = rng.choice(n, size=int(rng.integers(2, 6)), replace=False)
        fps = [batched.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks]
        for idx in (batched, lazy, whole):
            idx.update([idx.ids[k] for k in ks], fps)
        blocks = _blocks(batched, rng)
        I, J = _ask_all(batched, blocks)
        calls.clear()
        kernel.clear()
        batched.resolve_cover(I, J)
        assert sum(c[0] is batched for c in calls) <= 1  # (one batch)
        assert not kernel  # (no pair settled one by one: cover_every's to do, while a row is open)
        area = (batched.hideable & batched.within_any)[J]
        left = ~batched._fv_known[I[~area], J[~area]]
        hull = ~(batched.round[I[~area]] & batched.round[J[~area]])
        assert not (left & ~hull).any()  # (every pair cover can read, but the one-pair kernel's)
        calls.clear()
        for rows, cols in blocks:
            got = batched.cover_every(rows, cols).tolist()
            assert got == lazy.cover_every(rows, cols).tolist(), (step, rows, cols)
            assert got == whole.cover_block(rows, cols).all(axis=1).tolist(), (step, rows, cols)
        for c, cI, cJ in calls:  # (what is left to resolve: only pairs with a base that is not round)
            assert c is not batched or not (batched.round[cI] & batched.round[cJ]).any()
        assert any(c[0] is lazy for c in calls)  # (else this would not test the difference)
    known = batched._fv_known & whole._fv_known
    assert np.array_equal(batched._fv[known], whole._fv[known])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_13_08_deferred_pairs_are_kept_with_their_inputs_until_a_model_moves(seed, monkeypatch):
    """The pairs a batch leaves to the one-pair kernel are kept with their pieces and obstacle
    vertices (``_deferred``): asking for them again, nothing moved, finds no capsule inputs and
    runs no certificate stage for them; cover_every and a whole block settle them with those
    inputs to the answers of an index that never deferred; a model's move drops its pairs."""
    areas, models = _table(seed)
    idx, plain = VisibilityIndex(areas, models), VisibilityIndex(areas, models)
    n = len(models)
    stages = []
    real = PairResolution._full_pairs
    monkeypatch.setattr(PairResolution, "_full_pairs",
                        lambda self, I, J, *a, **k: stages.append((self, I, J)) or real(self, I, J, *a, **k))
    rng = np.random.default_rng(seed + 90)
    deferred_seen = 0
    for step in range(3):
        ks = rng.choice(n, size=int(rng.integers(2, 6)), replace=False)
        fps = [idx.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks]
        held_before = set(idx._deferred)
        for x in (idx, plain):
            x.update([x.ids[k] for k in ks], fps)
        moved = set(ks.tolist())
        assert not any(i in moved or j in moved for i, j in idx._deferred)     # (dropped on the move)
        assert {(i, j) for i, j in held_before if i not in moved and j not in moved} <= set(idx._deferred)
        mask = np.zeros((n, n), dtype=bool)
        mask[tuple(np.array(list(idx._deferred), dtype=np.int64).reshape(-1, 2).T)] = True
        assert np.array_equal(idx._deferred_at, mask)
        blocks = _blocks(idx, rng)
        I, J = _ask_all(idx, blocks)
        idx.resolve_cover(I, J)
        held = [k for k in idx._deferred if not idx._fv_known[k]]
        deferred_seen += len(held)
        stages.clear()
        idx.resolve_cover(I, J)     # (again: the deferred pairs are handed on as kept)
        for c, cI, cJ in stages:
            if c is idx:
                assert not set(zip(cI.tolist(), cJ.tolist())) & set(held)
        for rows, cols in blocks:
            assert idx.cover_every(rows, cols).tolist() == plain.cover_block(rows, cols).all(axis=1).tolist()
        for rows, cols in blocks:   # (a whole block: every deferred pair settled, to the same answer)
            assert np.array_equal(idx.cover_block(rows, cols), plain.cover_block(rows, cols))
    assert np.array_equal(idx._fv[idx._fv_known & plain._fv_known], plain._fv[idx._fv_known & plain._fv_known])
    assert deferred_seen > 10  # (else this would not test the keeping)


def test_13_08_a_full_recompute_keeps_no_deferred_pair():
    """A full recompute (every pair worked out again from the footprints as they stand now)
    drops the deferred pairs' kept inputs with everything else: none is handed on afterwards."""
    for seed in (1, 2, 3):
        areas, models = _table(seed)
        idx = VisibilityIndex(areas, models)
        rng = np.random.default_rng(seed + 130)
        ks = rng.choice(len(models), size=4, replace=False)
        idx.update([idx.ids[k] for k in ks], [idx.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks])
        idx.resolve_cover(*_ask_all(idx, _blocks(idx, rng)))
        if not idx._deferred:
            continue
        k = int(ks[0])
        idx.fps[k] = idx.fps[k].moved(idx.fps[k].x + 0.5, idx.fps[k].y)   # (edited in place, then all again)
        idx.full_recompute()
        assert not idx._deferred and not idx._deferred_at.any()
        return
    pytest.fail("no table left a deferred pair (this would not test the forgetting)")
