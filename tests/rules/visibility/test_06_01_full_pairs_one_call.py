"""06.01 / 13.08 Fully visible for the pairs one read asks (PairResolution._ensure_full) is
worked out in one call of the staged test (``_full_pairs``) whatever batches the pairs' kept
capsule inputs come from (several _resolve batches, and pairs with none kept, measured then):
the rows joined by ``batch.csr_concat``, each pair's answer its own, the same as an index that
resolves every pair from one batch (a recompute's)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.visibility.index import VisibilityIndex
from sim.rules.visibility.batch import csr_concat as _csr_concat

from test_13_08_cover_every import _table


def test_csr_concat_keeps_every_row_in_order():
    a = (np.array([0, 2, 2, 3]), np.array([10, 11, 12]))
    b = (np.array([0, 0, 1]), np.array([20]))
    c = (np.array([0, 2]), np.array([30, 31]))
    start, data = _csr_concat([a, b, c])
    rows = [data[start[k]:start[k + 1]].tolist() for k in range(len(start) - 1)]
    assert rows == [[10, 11], [], [12], [], [20], [30, 31]]
    two_d = _csr_concat([(np.array([0, 1]), np.ones((1, 2))), (np.array([0, 2]), np.zeros((2, 2)))])
    assert two_d[0].tolist() == [0, 1, 3] and two_d[1].shape == (3, 2)


@pytest.mark.parametrize("seed", [1, 2])
def test_06_01_fully_visible_of_pairs_from_several_batches_in_one_call(seed, monkeypatch):
    areas, models = _table(seed)
    lazy, whole = VisibilityIndex(areas, models), VisibilityIndex(areas, models)
    n = len(models)
    lazy.set_reach([0.0] * n)  # (a read after a move takes no pairs along: a batch per read)
    rng = np.random.default_rng(seed)
    ks = rng.choice(n, size=6, replace=False)
    fps = [lazy.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks]
    for idx in (lazy, whole):
        idx.update([idx.ids[k] for k in ks], fps)
    whole.full_recompute()
    whole._ensure_all()  # (every pair from the one batch of a recompute: one part)
    enemy = np.flatnonzero(lazy.army != lazy.army[0])
    friends = np.flatnonzero(lazy.army == lazy.army[0])
    # three reads of sight, each its own _resolve batch (its capsule inputs kept); before the
    # last two, every kept batch forgotten (as when many are kept): the pairs of the models
    # that did not move, resolved when the index was made, and those of the first read have
    # none kept
    for k, rows in enumerate(np.array_split(friends, 3)):
        if k == 1:
            lazy._forget_capsules()
        lazy.visible_block(rows, enemy)
    calls = []
    real = type(lazy)._full_pairs
    monkeypatch.setattr(type(lazy), "_full_pairs",
                        lambda self, I, J, *a, **k: calls.append(len(I)) or real(self, I, J, *a, **k))
    I, J = np.nonzero(~lazy._fv_known)
    kept, _rows = lazy._kept_capsule_rows(np.minimum(I, J), np.maximum(I, J))
    assert len(np.unique(kept[kept >= 0])) >= 2 and (kept < 0).any()  # (every kind of part)
    lazy._ensure_full(I, J)
    assert len(calls) == 1 and calls[0] > 0
    assert lazy._fv_known.all()
    assert np.array_equal(lazy._fv, whole._fv)
    assert np.array_equal(lazy.cover, whole.cover)


def test_06_01_capsule_inputs_are_kept_while_neither_model_moves(monkeypatch):
    """A pair's capsule inputs (its pieces and obstacle vertices, from its two footprints and
    the terrain) are kept from the batch that found them until one of its two models moves:
    each kept row is what capsule_inputs gives the pair now; a moved model's pairs have none;
    a batch past _CAPSULES_KEEP finds every one before it forgotten."""
    import sim.rules.visibility.index_pairs as IP
    from sim.rules.visibility.pairs import capsule_inputs
    areas, models = _table(4)
    idx = VisibilityIndex(areas, models)
    n = len(models)
    rng = np.random.default_rng(8)
    for step in range(3):
        ks = rng.choice(n, size=2, replace=False)
        idx.update([idx.ids[k] for k in ks], [idx.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks])
        lo, hi = np.triu_indices(n, 1)
        batch, row = idx._kept_capsule_rows(lo, hi)
        moved = np.isin(lo, ks) | np.isin(hi, ks)
        assert (batch[moved] == -1).all()
        kept = np.flatnonzero(batch >= 0)
        assert len(kept) > 100
        now = capsule_inputs(idx, lo[kept], hi[kept])
        for x, q in enumerate(kept.tolist()):
            ps, pi, os_, op = idx._capsules[batch[q]]
            r = row[q]
            assert pi[ps[r]:ps[r + 1]].tolist() == now[1][now[0][x]:now[0][x + 1]].tolist()
            assert np.array_equal(op[os_[r]:os_[r + 1]], now[3][now[2][x]:now[2][x + 1]])
        idx.visible_block(slice(0, n), slice(0, n))   # (the moved models' pairs: a new batch)
    # the limit: the batch after the last one kept finds every one forgotten, itself kept
    monkeypatch.setattr(IP, "_CAPSULES_KEEP", len(idx._capsules))
    idx.update([idx.ids[0]], [idx.fps[0].moved(30.0, 20.0)])
    idx.visible_block(slice(0, n), slice(0, n))
    assert len(idx._capsules) == 1
    lo, hi = np.triu_indices(n, 1)
    batch, _row = idx._kept_capsule_rows(lo, hi)
    assert (batch[(lo != 0) & (hi != 0)] == -1).all() and (batch[lo == 0] == 0).any()
