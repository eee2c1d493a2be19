"""06.01 / 13.08 Fully visible for the pairs one read asks (PairResolution._ensure_full) is
worked out in one call of the staged test (``_full_pairs``) whatever batches the pairs' kept
capsule inputs come from (several _resolve batches since the last move, and pairs with none
kept, measured then): the rows joined by ``_csr_concat``, each pair's answer its own, the same
as an index that resolves every pair from one batch (a recompute's)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.visibility.index import VisibilityIndex
from sim.rules.visibility.index_pairs import _csr_concat

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


@pytest.mark.parametrize("seed", [1, 2, 3])
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
    # three reads of sight, each its own _resolve batch (its capsule inputs kept); the pairs
    # of models that did not move were resolved when the index was made (none kept)
    for rows in np.array_split(friends, 3):
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
