"""13.08 / 06.01 The VisibilityIndex keeps all three matrices (visible, fully visible, cover)
current: cover is (a) INFANTRY/BEASTS/SWARM within a terrain area or (b) not fully visible,
entry by entry, after a full recompute and after moves (incremental rows and columns equal a
recompute), the single-entry and row queries read the same matrices, the matrices handed out
cannot be written, and fully visible matches the single-pair function on a big table whose
bases stand against walls (pieces near the observer's outline) and inside ruins."""

import numpy as np
import pytest

from sim.rules.geometry import round_base
from sim.rules.terrain import default_table
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible, model_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

KW = (frozenset({"INFANTRY"}), frozenset({"VEHICLE"}))


def _against_walls(seed, n=40):
    """Models on the default table, half of them next to (or overlapping) a dense wall."""
    rng = np.random.default_rng(seed)
    areas = default_table()
    walls = [np.array(f.polygon, float) for a in areas for f in a.solid_features]
    models = []
    for k in range(n):
        if k % 2:
            w = walls[int(rng.integers(len(walls)))]
            x, y = w[int(rng.integers(len(w)))] + rng.normal(0, 0.6, size=2)
        else:
            x, y = rng.uniform([1, 1], [59, 43])
        army = "red" if k % 4 < 2 else "blue"
        models.append(ModelEntry(f"{army}/{k}", round_base(int(rng.choice([25, 32, 40])), x, y),
                                 army, f"{army}{k % 3}", KW[k % 5 == 0]))
    return areas, models


def _check_cover(idx):
    a = idx.hideable & idx.within_any
    assert np.array_equal(idx.cover, a[None, :] | ~idx.fully_visible)
    for i in range(0, len(idx.ids), 7):
        assert np.array_equal(idx.row_cover(i), idx.cover[i])
        assert np.array_equal(idx.row_fully_visible(i), idx.fully_visible[i])
        for j in range(0, len(idx.ids), 5):
            assert idx.has_cover(idx.ids[i], idx.ids[j]) == bool(idx.cover[i, j])
            assert idx.is_fully_visible(idx.ids[i], idx.ids[j]) == bool(idx.fully_visible[i, j])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cover_is_kept_with_fully_visible_through_moves(seed):
    areas, models = _against_walls(seed)
    idx = VisibilityIndex(areas, models)
    _check_cover(idx)
    rng = np.random.default_rng(seed + 100)
    for _ in range(4):
        ks = rng.choice(len(models), size=int(rng.integers(1, 4)), replace=False)
        idx.update([idx.ids[k] for k in ks],
                   [idx.fps[k].moved(*rng.uniform([1, 1], [59, 43])) for k in ks])
        _check_cover(idx)
    moved = (idx.los.copy(), idx.visible.copy(), idx.fully_visible.copy(), idx.cover.copy())
    idx.full_recompute()
    for a, b in zip(moved, (idx.los, idx.visible, idx.fully_visible, idx.cover)):
        assert np.array_equal(a, b)
    unit = idx.units[3]
    cols = [i for i, u in enumerate(idx.units) if u == unit]
    assert idx.unit_cover_flags(idx.ids[0], unit) == idx.cover[0, cols].tolist()


def test_matrices_handed_out_are_read_only():
    areas, models = _against_walls(4, n=12)
    idx = VisibilityIndex(areas, models)
    with pytest.raises(ValueError):
        idx.cover[0, 1] = True
    with pytest.raises(ValueError):
        idx.row_cover(0)[1] = True


def test_fully_visible_matches_pair_function_with_bases_against_walls():
    areas, models = _against_walls(7, n=48)
    idx = VisibilityIndex(areas, models)
    blk = TerrainBlockers.build(areas)
    checked = 0
    for i in range(len(models)):
        for j in range(len(models)):
            if idx.army[i] == idx.army[j]:
                continue
            a, b = idx.fps[i], idx.fps[j]
            assert idx.los[i, j] == model_visible(a, b, blk), (i, j)
            if idx.los[i, j] and not idx._clear[i, j]:
                assert idx.fully_visible[i, j] == model_fully_visible(a, b, blk), (i, j)
                checked += 1
    assert checked > 150
