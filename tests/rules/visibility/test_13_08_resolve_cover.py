"""13.08 VisibilityIndex.resolve_cover: the fully-visible entries cover reads for many pairs,
worked out in one batch (a player about to weigh every unit's attacks asks for them all at
once). After it, reading the cover of those pairs block by block (cover_every) resolves
nothing more, and every answer is the one an index of the same models resolved block by
block gives (and the whole block's): only when an entry is worked out changes, never what."""

from __future__ import annotations

import numpy as np
import pytest

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
def test_13_08_resolve_cover_then_cover_every_resolves_nothing_more(seed, monkeypatch):
    areas, models = _table(seed)
    batched, lazy, whole = (VisibilityIndex(areas, models) for _ in range(3))
    n = len(models)
    reach = np.repeat(np.random.default_rng(seed + 7).choice([0.0, 6.0, 12.0], size=n // 4), 4)
    for idx in (batched, lazy):  # (short reaches: read block by block, many batches of their own)
        idx.set_reach(reach)
    calls = []
    real = PairResolution._ensure_full
    monkeypatch.setattr(PairResolution, "_ensure_full",
                        lambda self, I, J, defer=None: calls.append(self) or real(self, I, J, defer))
    rng = np.random.default_rng(seed + 50)
    for step in range(3):
        ks = rng.choice(n, size=int(rng.integers(2, 6)), replace=False)
        fps = [batched.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks]
        for idx in (batched, lazy, whole):
            idx.update([idx.ids[k] for k in ks], fps)
        blocks = _blocks(batched, rng)
        I, J = _ask_all(batched, blocks)
        calls.clear()
        batched.resolve_cover(I, J)
        assert sum(c is batched for c in calls) <= 1  # (one batch)
        area = (batched.hideable & batched.within_any)[J]
        assert batched._fv_known[I[~area], J[~area]].all()  # (every pair cover can read)
        calls.clear()
        for rows, cols in blocks:
            got = batched.cover_every(rows, cols).tolist()
            assert got == lazy.cover_every(rows, cols).tolist(), (step, rows, cols)
            assert got == whole.cover_block(rows, cols).all(axis=1).tolist(), (step, rows, cols)
        assert not any(c is batched for c in calls)  # (nothing left to resolve)
        assert any(c is lazy for c in calls)  # (else this would not test the difference)
    known = batched._fv_known & whole._fv_known
    assert np.array_equal(batched._fv[known], whole._fv[known])
