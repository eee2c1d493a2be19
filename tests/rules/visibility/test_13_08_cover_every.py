"""13.08 VisibilityIndex.cover_every (per attacking model: every target model qualifies for
cover), which resolves only the fully-visible entries that can change its answer, answers
exactly as the whole block does (``cover_block(rows, cols).all(axis=1)`` on an index of the
same models resolved block by block) on seeded random tables: round, oval and rectangular
bases against walls and inside ruins, INFANTRY and not, read as slices and index arrays,
before and after moves; and it does leave entries unresolved and defers pairs to the
one-pair kernel (else this would not test the staged path)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.terrain import default_table
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from random_bases import random_base

KW = (frozenset({"INFANTRY"}), frozenset({"VEHICLE"}))


def _table(seed: int, units: int = 12, per_unit: int = 4):
    """Units of ``per_unit`` models (one run each, armies alternating), half of the models
    next to a dense wall, bases of every shape, every third unit INFANTRY."""
    rng = np.random.default_rng(seed)
    areas = default_table()
    walls = [np.array(f.polygon, float) for a in areas for f in a.solid_features]
    models = []
    for u in range(units):
        army = ("red", "blue")[u % 2]
        for k in range(per_unit):
            if k % 2:
                w = walls[int(rng.integers(len(walls)))]
                x, y = w[int(rng.integers(len(w)))] + rng.normal(0, 0.8, size=2)
            else:
                x, y = rng.uniform([2, 2], [58, 42])
            models.append(ModelEntry(f"{army}/{u}/{k}", random_base(rng, float(x), float(y)),
                                     army, f"{army}{u}", KW[u % 3 != 0]))
    return areas, models


def _blocks(idx: VisibilityIndex, rng: np.random.Generator):
    """Every (shooting unit, target unit) pair of opposing units, in a random order, each as
    slices or as index arrays (with a model left out, as after a loss)."""
    runs = {}
    for i, u in enumerate(idx.units):
        runs.setdefault(u, []).append(i)
    units = list(runs)
    out = []
    for a in units:
        for b in units:
            if idx.army[runs[a][0]] == idx.army[runs[b][0]]:
                continue
            ra, rb = runs[a], runs[b]
            if rng.random() < 0.5:
                out.append((slice(ra[0], ra[-1] + 1), slice(rb[0], rb[-1] + 1)))
            else:
                out.append((np.array(ra[1:]), np.array(rb[:-1] if rng.random() < 0.5 else rb)))
    return [out[k] for k in rng.permutation(len(out))]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("reach", ["none", "mixed"])
def test_13_08_cover_every_matches_the_whole_block(seed, reach, monkeypatch):
    areas, models = _table(seed)
    lazy, whole = VisibilityIndex(areas, models), VisibilityIndex(areas, models)
    if reach == "mixed":  # (the first cover read after a move takes the pairs in reach along)
        pick = np.random.default_rng(seed + 7).choice([0.0, 6.0, 12.0, 24.0], size=len(models) // 4)
        lazy.set_reach(np.repeat(pick, 4))
    settled = []
    real = VisibilityIndex._settle_deferred
    monkeypatch.setattr(VisibilityIndex, "_settle_deferred",
                        lambda self, item: settled.append(item) or real(self, item))
    rng = np.random.default_rng(seed + 50)
    left_unknown = 0
    for step in range(4):
        if step:  # a few models move (the same in both)
            ks = rng.choice(len(models), size=int(rng.integers(2, 6)), replace=False)
            fps = [lazy.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks]
            for idx in (lazy, whole):
                idx.update([idx.ids[k] for k in ks], fps)
        for rows, cols in _blocks(lazy, rng):
            every = lazy.cover_every(rows, cols)
            assert every.tolist() == whole.cover_block(rows, cols).all(axis=1).tolist(), (step, rows, cols)
        left_unknown += int((~lazy._fv_known & whole._fv_known).sum())
    # the entries it did resolve are the whole matrix's, and it left some to the whole block
    assert np.array_equal(lazy.cover, whole.cover)
    assert left_unknown > 0
    assert settled  # (pairs deferred to the one-pair kernel were settled one by one)


def test_13_08_the_first_cover_read_after_a_move_takes_the_pairs_in_reach_along():
    """After a move, one cover_every call resolves with its own block every enemy pair with
    sight and in reach whose fully visible can decide cover (not qualifying by area), but for
    the pairs only the one-pair kernel settles (left unknown); the next move's first read does
    it again; beyond the reach nothing more is taken."""
    areas, models = _table(5)
    idx = VisibilityIndex(areas, models)
    n = len(models)
    enemy = idx.army[:, None] != idx.army[None, :]
    area = (idx.hideable & idx.within_any)[None, :]
    rng = np.random.default_rng(9)
    for reach in (np.inf, 0.0):
        idx.set_reach([reach] * n)
        ks = rng.choice(n, size=4, replace=False)
        idx.update([idx.ids[k] for k in ks], [idx.fps[k].moved(*rng.uniform([2, 2], [58, 42])) for k in ks])
        idx.cover_every(slice(0, 4), slice(4, 8))       # (units red0 and blue1)
        idx.cover_every(slice(0, 4), slice(4, 8))       # (nothing pending now)
        open_ = ~idx._fv_known & idx._los_known & idx._los & enemy & ~area
        open_[0:4, 4:8] = False
        I, J = np.nonzero(open_)
        if reach == np.inf:
            assert not (idx.round[I] & idx.round[J]).any()   # (only pairs the kernel settles)
        else:
            assert len(I) > 0   # (pairs out of reach stay unknown)
