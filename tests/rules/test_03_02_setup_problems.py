"""03.02 deployment.setup_problems: each model of a unit as set up is named with the first
other model (in the order given) whose base it would stand on. The candidates are read for
every model at once (bounding boxes); the answers are the plain form's (every other model
tested in order), on seeded random tables of round, oval and rectangular bases."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.deployment import setup_problems
from sim.rules.geometry import overlaps, round_base

from random_bases import random_base


def _plain_hits(models, others):
    return [next((oid for oid, ofp in others if overlaps(fp, ofp)), None) for _m, fp in models]


@pytest.mark.parametrize("seed", range(8))
def test_setup_problems_names_the_first_base_each_model_stands_on(seed):
    rng = np.random.default_rng(seed)
    others = [(f"o{i}", random_base(rng, *rng.uniform(0, 20, size=2))) for i in range(int(rng.integers(0, 60)))]
    models = [(f"m{i}", random_base(rng, *rng.uniform(0, 20, size=2))) for i in range(int(rng.integers(1, 8)))]
    got = setup_problems(models, others, ())
    for (mid, _fp), hit in zip(models, _plain_hits(models, others)):
        said = [p for p in got if p.startswith(f"{mid}: it would be set up on o")]
        assert said == ([f"{mid}: it would be set up on {hit}'s base (03.02, 03.01)"] if hit else [])


def test_setup_problems_touching_is_not_standing_on():
    a, b = round_base(32, 10.0, 10.0), round_base(32, 10.0 + 32 / 25.4, 10.0)
    assert not any("set up on" in p for p in setup_problems([("m", b)], [("o", a)], ()))
    c = round_base(32, 10.0 + 32 / 25.4 - 0.01, 10.0)
    assert any("set up on o's base" in p for p in setup_problems([("m", c)], [("o", a)], ()))


@pytest.mark.parametrize("seed", range(4))
def test_setup_problems_names_the_feature_each_model_would_stand_in(seed):
    """(Part A ruling 13: the terrain of every model read together, each base's answer its own.)"""
    from sim.rules.movement.legality import end_blocker, terrain_index
    from sim.rules.terrain import default_table
    rng = np.random.default_rng(seed)
    areas = default_table()
    terr = terrain_index(areas)
    models = [(f"m{i}", random_base(rng, *rng.uniform([0, 0], [60, 44]))) for i in range(40)]
    got = [p for p in setup_problems(models, [], areas) if "Part A ruling 13" in p]
    want = [f"{mid}: {b[0]} (03.02, Part A ruling 13)" for mid, fp in models
            if (b := end_blocker(fp, terr)) is not None]
    assert got == want and len(want) > 3
