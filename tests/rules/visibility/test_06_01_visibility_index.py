"""06.01 VisibilityIndex: symmetry where the rules make it so, move-and-back, incremental update
equals full recompute, and agreement with the single-pair functions (random layouts)."""

import dataclasses

import numpy as np
from hypothesis import given, settings, strategies as st

from sim.rules.geometry import round_base
from sim.rules.terrain import default_table, place
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible, model_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

KW = (frozenset({"INFANTRY"}), frozenset({"VEHICLE"}))


def build(seed, n=24, include_friendly=False, areas=None):
    rng = np.random.default_rng(seed)
    areas = default_table() if areas is None else areas
    models = []
    for k in range(n):
        army = "red" if k % 2 == 0 else "blue"
        y = rng.uniform(1, 43)
        models.append(ModelEntry(f"{army}/{k}", round_base(int(rng.choice([25, 32, 40])), rng.uniform(1, 59), y),
                                 army, f"{army}{k % 3}", KW[k % 4 == 0],
                                 lone_operative=12.0 if k == 5 else None))
    return VisibilityIndex(areas, models, include_friendly=include_friendly), rng


def snapshot(idx):
    return (idx.los.copy(), idx.fully_visible.copy(), idx.cover.copy(), idx.visible.copy())


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_los_symmetric_hidden_not(seed):
    idx, _ = build(seed, include_friendly=True)
    assert np.array_equal(idx.los, idx.los.T)
    assert np.all(np.diag(idx.visible))


def test_hidden_breaks_symmetry():
    ruins = place("ruins", 30, 22)
    models = [ModelEntry("r", round_base(32, 10.7, 24), "red", "r", frozenset({"INFANTRY"})),
              ModelEntry("b", round_base(32, 27, 24), "blue", "b", frozenset({"INFANTRY"}))]
    idx = VisibilityIndex([ruins], models)
    assert idx.los[0, 1] and idx.los[1, 0]
    assert idx.visible[1, 0] and not idx.visible[0, 1]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_move_and_back_restores_matrices(seed):
    idx, rng = build(seed)
    before = snapshot(idx)
    k = int(rng.integers(0, len(idx.ids)))
    fp = idx.fps[k]
    idx.update([idx.ids[k]], [fp.moved(rng.uniform(1, 59), rng.uniform(1, 43))])
    idx.update([idx.ids[k]], [fp])
    assert same(before, snapshot(idx))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_incremental_equals_full_recompute(seed, friendly):
    idx, rng = build(seed, include_friendly=friendly)
    for _ in range(3):
        ks = rng.choice(len(idx.ids), size=int(rng.integers(1, 4)), replace=False)
        idx.update([idx.ids[k] for k in ks],
                   [idx.fps[k].moved(rng.uniform(1, 59), rng.uniform(1, 43)) for k in ks])
    inc = snapshot(idx)
    idx.full_recompute()
    assert same(inc, snapshot(idx))


def test_index_agrees_with_pair_functions():
    idx, _ = build(99, n=20)
    blk = TerrainBlockers.build(default_table())
    for i in range(len(idx.ids)):
        for j in range(len(idx.ids)):
            if idx.army[i] == idx.army[j]:
                continue
            a, b = idx.fps[i], idx.fps[j]
            assert idx.los[i, j] == model_visible(a, b, blk)
            assert idx.fully_visible[i, j] == model_fully_visible(a, b, blk)


def test_index_agrees_with_pair_functions_on_a_table_with_dense_heights():
    """Part A ruling 12 / 13.11: the batch engine reads the heights as the scalar rule does (a
    dense feature of 2" or less blocks no sight line): ruins and containers given 2", 1.5" and
    3" (the low ones no longer block; the areas still obscure), every enemy pair the same."""
    heights = {("ruins", 0): 2.0, ("ruins", 1): 3.0, ("armoured container", 0): 1.5}
    areas, seen = [], {}
    for area in default_table():
        k = seen[area.name] = seen.get(area.name, -1) + 1
        h = heights.get((area.name, k % 2))
        areas.append(area if h is None else dataclasses.replace(
            area, features=tuple(dataclasses.replace(f, height=h) if f.solid else f for f in area.features)))
    assert sum(f.low for a in areas for f in a.features) == 5
    blk, flat = TerrainBlockers.build(areas), TerrainBlockers.build(default_table())
    differ = 0
    for seed in (5, 99):
        idx, _ = build(seed, n=24, areas=areas)
        for i in range(len(idx.ids)):
            for j in range(len(idx.ids)):
                if idx.army[i] == idx.army[j]:
                    continue
                a, b = idx.fps[i], idx.fps[j]
                assert idx.los[i, j] == model_visible(a, b, blk)
                fully = model_fully_visible(a, b, blk)
                assert idx.fully_visible[i, j] == fully
                if not differ:  # (the flat table's answer until one pair differs)
                    differ += fully != model_fully_visible(a, b, flat)
    assert differ > 0              # (the heights decide some pairs)


def _entries(seed, n=16):
    rng = np.random.default_rng(seed)
    return [ModelEntry(f"m{k}", round_base(32, rng.uniform(1, 59), rng.uniform(1, 43)),
                       "red" if k % 2 else "blue", f"u{k % 4}", KW[k % 3 == 0]) for k in range(n)]


def test_built_index_is_a_fresh_build_and_independent():
    """VisibilityIndex.built: the copy of a cached build equals a fresh build array for array,
    before and after the same moves, and moving one copy changes neither the cache nor another
    copy."""
    from sim.rules.visibility.index import _BUILT
    areas, models = tuple(default_table()), _entries(3)
    _BUILT.clear()
    first = VisibilityIndex.built(areas, models)
    second = VisibilityIndex.built(areas, models)
    assert len(_BUILT) == 1 and second is not first
    fresh = VisibilityIndex(areas, models)
    assert same(snapshot(second), snapshot(fresh))
    moved = [fresh.fps[2].moved(30.0, 20.0), fresh.fps[5].moved(12.0, 30.0)]
    for idx in (second, fresh):
        idx.update(["m2", "m5"], moved)
    assert same(snapshot(second), snapshot(fresh))
    third = VisibilityIndex.built(areas, models)
    assert same(snapshot(third), snapshot(first))
    assert not same(snapshot(third), snapshot(second))
