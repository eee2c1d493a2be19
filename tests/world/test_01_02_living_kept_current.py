"""01.02.04 / 05.04 The per-unit answers kept on the spatial index that depend only on which of a
unit's models are on the battlefield (sim.world.queries: its living models, its keywords and its
ranged weapons' abilities) stay good through moves, which leave them, and are forgotten by
whatever changes them: a removal, a unit taken into strategic reserves and one set up again.
Each time they are read they equal the answers worked out afresh."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.battle import Battle
from sim.components import Wounds
from sim.scenario.load import load_scenario
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import resources as R

import esper

ROOT = Path(__file__).resolve().parents[2]


def _answers(units) -> list:
    return [(W.living_slots(u), W.unit_keywords(u), W.unit_ranged_weapon_effects(u)) for u in units]


def _afresh(units) -> list:
    sp = R.current.spatial
    kept = (dict(sp.living), dict(sp.keywords), dict(sp.ranged_abilities))
    for cache in (sp.living, sp.keywords, sp.ranged_abilities):
        cache.clear()
    try:
        return _answers(units)
    finally:
        sp.living.update(kept[0]); sp.keywords.update(kept[1]); sp.ranged_abilities.update(kept[2])


@pytest.mark.parametrize("seed", range(1, 7))
def test_01_02_living_models_after_moves_removals_and_set_ups_are_the_world_afresh(seed):
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    rng = np.random.default_rng(seed)
    with Battle(spec, seed=seed):
        units = W.all_units()
        away: dict[int, list] = {}     # unit in strategic reserves -> where its models stood
        for _ in range(24):
            assert _answers(units) == _afresh(units)
            u = units[rng.integers(len(units))]
            ms = W.unit_models(u)
            op = rng.integers(4)
            if u in away:          # set up again where it stood (03.02)
                M.set_up(u, away.pop(u))
            elif not ms:
                continue
            elif op == 0:          # one model destroyed and removed
                m = ms[rng.integers(len(ms))]
                esper.component_for_entity(m, Wounds).remaining = 0
                M.mark_destroyed(m, "test")
                M.remove_casualties([m])
            elif op == 1:          # into strategic reserves (20.02)
                away[u] = [(m, W.footprint(m).x, W.footprint(m).y) for m in ms]
                M.to_reserves(u)
            else:                  # the unit moved a little
                dx, dy = rng.uniform(-0.05, 0.05, 2)
                M.move_models([(m, W.footprint(m).x + dx, W.footprint(m).y + dy) for m in ms])
        assert _answers(units) == _afresh(units)
