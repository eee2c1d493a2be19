"""06.01 The batched line-of-sight path of the VisibilityIndex (sim.rules.visibility.pairs,
sim.rules.visibility.batch) against the single-pair exact functions on random layouts, including
bases that overlap blockers (outline-crossing generators) and the lazy fully-visible rows."""

import numpy as np

from sim.rules.geometry import round_base
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible, model_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import random_layout


def _index(areas, fps):
    models = [ModelEntry(f"m{k}", fp, "red" if k % 2 == 0 else "blue", f"u{k % 2}",
                         frozenset({"INFANTRY"})) for k, fp in enumerate(fps)]
    return VisibilityIndex(areas, models)


def test_batched_los_matches_pair_function():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(150):
        areas, a, b = random_layout(rng)
        # extra models anywhere (they may overlap terrain: outline crossings)
        extra = [round_base(int(rng.choice([25, 32, 60])), *rng.uniform(1, 29, size=2)) for _ in range(4)]
        fps = [a, b] + extra
        idx = _index(areas, fps)
        blk = TerrainBlockers.build(areas)
        for i in range(len(fps)):
            for j in range(len(fps)):
                if idx.army[i] != idx.army[j]:
                    assert idx.los[i, j] == model_visible(fps[i], fps[j], blk), (i, j)
                    checked += 1
    assert checked > 1000


def test_lazy_fully_visible_rows_match_eager_matrix():
    rng = np.random.default_rng(9)
    for _ in range(40):
        areas, a, b = random_layout(rng)
        fps = [a, b] + [round_base(32, *rng.uniform(1, 29, size=2)) for _ in range(6)]
        lazy = _index(areas, fps)
        rows = [lazy.row_fully_visible(i).copy() for i in range(len(fps))]
        eager = _index(areas, fps)
        blk = TerrainBlockers.build(areas)
        assert np.array_equal(np.array(rows), eager.fully_visible)
        for i in range(len(fps)):
            for j in range(len(fps)):
                if lazy.army[i] != lazy.army[j]:
                    assert rows[i][j] == model_fully_visible(fps[i], fps[j], blk)
                    assert lazy.has_cover(f"m{i}", f"m{j}") == bool(eager.cover[i, j])
