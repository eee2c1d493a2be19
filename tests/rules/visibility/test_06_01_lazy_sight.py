"""06.01 VisibilityIndex line of sight resolved when read (VisibilityIndex.update only marks the
moved models' pairs unknown; _ensure_los, with the pairs of units within reach of each other
at the first read): whatever blocks are read, in whatever order, with
or without a reach and a ``need`` mask, every answer equals a full recompute's (an index built
afresh on the same footprints), on the default table and random layouts, round, oval and
rectangular bases, after random moves."""

import numpy as np
import pytest

from sim.rules.geometry import round_base
from sim.rules.terrain import default_table
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import random_layout
from random_bases import random_base


def _models(rng, fps):
    kw = [frozenset({"INFANTRY"}), frozenset({"VEHICLE"}), frozenset()]
    return [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k % 6}",
                       kw[int(rng.integers(0, 3))]) for k, f in enumerate(fps)]


def _block_index(rng, n):
    if rng.random() < 0.2:
        a = int(rng.integers(0, n))
        return slice(a, int(rng.integers(a + 1, n + 1)))
    return np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False))


def _ix(s, n):
    return np.arange(n)[s] if isinstance(s, slice) else s


def _read_randomly(rng, idx, ref, reads=12):
    """Random block reads of the lazy index, each compared with the eager one."""
    n = len(idx.ids)
    for _ in range(reads):
        rows, cols = _block_index(rng, n), _block_index(rng, n)
        r, c = _ix(rows, n), _ix(cols, n)
        what = rng.integers(0, 6)
        if what == 0:
            need = rng.random((len(r), len(c))) < 0.5
            got = idx.visible_block(rows, cols, need)
            assert np.array_equal(got[need], ref.visible[r[:, None], c][need])
        elif what == 1:
            assert np.array_equal(idx.visible_block(rows, cols), ref.visible[r[:, None], c])
        elif what == 2:
            assert np.array_equal(idx.cover_block(rows, cols), ref.cover[r[:, None], c])
        elif what == 3:
            i = int(rng.integers(0, n))
            assert np.array_equal(idx.row_fully_visible(i), ref.fully_visible[i])
        elif what == 4:
            i, j = (int(x) for x in rng.integers(0, n, 2))
            assert idx.is_visible(idx.ids[i], idx.ids[j]) == bool(ref.visible[i, j])
            assert idx.is_fully_visible(idx.ids[i], idx.ids[j]) == bool(ref.fully_visible[i, j])
        else:
            i = int(rng.integers(0, n))
            u = idx.units[int(rng.integers(0, n))]
            cols_u = [k for k, x in enumerate(idx.units) if x == u]
            assert idx.unit_visible(idx.ids[i], u) == bool(ref.visible[i, cols_u].any())
            assert idx.unit_cover_flags(idx.ids[i], u) == ref.cover[i, cols_u].tolist()


def _same(idx, ref):
    for name in ("los", "fully_visible", "cover", "visible"):
        assert np.array_equal(getattr(idx, name), getattr(ref, name)), name


def _run(rng, areas, fps, moves, size):
    models = _models(rng, fps)
    idx = VisibilityIndex(areas, models)
    idx.set_reach(rng.choice([0.0, 6.0, 12.0, np.inf], size=len(models)))
    for u in ("u1", "u4"):
        idx.set_unit_made_ranged_attacks(u, True)
    for _ in range(moves):
        ks = rng.choice(len(models), size=int(rng.integers(1, 4)), replace=False)
        for k in ks:
            fps[k] = random_base(rng, *(rng.uniform(1, size[0] - 1), rng.uniform(1, size[1] - 1)))
        idx.update([models[k].id for k in ks], [fps[k] for k in ks])
        ref = VisibilityIndex(areas, [ModelEntry(m.id, f, m.army, m.unit, m.keywords)
                                      for m, f in zip(models, fps)])
        for u in ("u1", "u4"):
            ref.set_unit_made_ranged_attacks(u, True)
        _read_randomly(rng, idx, ref)
    _same(idx, ref)


@pytest.mark.parametrize("seed", range(3))
def test_lazy_sight_on_the_default_table_equals_a_full_recompute(seed):
    rng = np.random.default_rng(900 + seed)
    fps = [random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43)) for _ in range(18)]
    _run(rng, default_table(), fps, 5, (60, 44))


def test_lazy_sight_on_random_layouts_equals_a_full_recompute():
    rng = np.random.default_rng(41)
    for _ in range(8):
        areas, a, b = random_layout(rng)
        fps = [random_base(rng, *rng.uniform(1, 29, 2)) for _ in range(8)] + [a, b]
        _run(rng, areas, fps, 3, (30, 30))


def test_update_resolves_nothing_and_a_read_only_what_is_near():
    fps = [round_base(32, 2 + 4 * k, 2 + 3 * (k % 5)) for k in range(14)]
    models = [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")   # (one unit each)
              for k, f in enumerate(fps)]
    idx = VisibilityIndex(default_table(), models)
    idx.set_reach([1.0] * len(models))
    pairs = idx.stats["pairs"]
    idx.update(["m0", "m1"], [round_base(32, 30, 20), round_base(32, 31, 22)])
    assert idx.stats["pairs"] == pairs                  # nothing resolved by the move
    assert not idx._los_known[0].all()
    idx.is_visible("m0", "m3")                          # one read: that pair and the near ones
    assert idx._los_known[0, 3] and idx._los_known[3, 0]
    far = idx.dist[0] > 1.01
    far[idx.army == idx.army[0]] = False
    far[3] = False
    assert far.any() and not idx._los_known[0, far].any()
    idx.set_reach([100.0] * len(models))               # every unit within reach of every other
    idx.update(["m0"], [round_base(32, 30, 21)])
    idx.is_visible("m0", "m3")
    assert idx._los_known.all()
    ref = VisibilityIndex(default_table(), [ModelEntry(m.id, f, m.army, m.unit, m.keywords)
                                            for m, f in zip(models, idx.fps)])
    _same(idx, ref)


def test_a_whole_matrix_read_resolves_the_pairs_earlier_reads_left():
    """Pairs left unknown by the batch of a first read (out of every reach), from two moves
    apart, are resolved by a read of the whole matrix (``los``, ``visible``): it looks in every
    row moved since every pair was last known, not only those moved since the last batch."""
    fps = [round_base(32, 2 + 4 * k, 2 + 3 * (k % 5)) for k in range(14)]
    models = [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")
              for k, f in enumerate(fps)]
    idx = VisibilityIndex(default_table(), models)
    idx.set_reach([1.0] * len(models))
    idx.update(["m0"], [round_base(32, 30, 20)])
    idx.is_visible("m0", "m3")                          # the batch: m0's far pairs left unknown
    idx.update(["m5"], [round_base(32, 40, 30)])
    idx.is_visible("m5", "m2")                          # another batch: m5's rows only
    assert not idx._los_known[0].all() and not idx._los_known[5].all()
    ref = VisibilityIndex(default_table(), [ModelEntry(m.id, f, m.army, m.unit, m.keywords)
                                            for m, f in zip(models, idx.fps)])
    assert np.array_equal(idx.los, ref.los)
    assert idx._los_known.all()
    _same(idx, ref)
