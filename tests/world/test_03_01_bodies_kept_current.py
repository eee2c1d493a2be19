"""03.01 The table as the movement rules read it (sim.plan.moves.bodies: a BodyIndex kept on the
spatial index) is brought up to date after moves and removals it has not been read since, in
whatever order they come: each time it is read it is the index built afresh from the world
(the models on the battlefield, where they stand). A removal notes its row and a move its
footprint; a removal followed by a move before the next read must keep both."""

from __future__ import annotations

from pathlib import Path

import esper
import numpy as np
import pytest

from sim.battle import Battle
from sim.components import Unit, Wounds
from sim.plan import moves as MV
from sim.rules.movement.index import Body, BodyIndex
from sim.scenario.load import load_scenario
from sim.world import mutations as M
from sim.world import queries as W

from battle_checker import assert_same_bodies

ROOT = Path(__file__).resolve().parents[2]


def _fresh() -> BodyIndex:
    return BodyIndex([Body(W.model_id(m), esper.component_for_entity(u, Unit).id,
                           esper.component_for_entity(u, Unit).owner, W.footprint(m))
                      for u in W.all_units() for m in W.unit_models(u)])


@pytest.mark.parametrize("seed", range(1, 7))
def test_03_01_bodies_after_unread_removals_and_moves_are_the_world_afresh(seed):
    """Models destroyed, units moved (a small step: no rule is asked here) and units taken into
    strategic reserves, in a random order, the table read only now and then."""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    rng = np.random.default_rng(seed)
    with Battle(spec, seed=seed):
        MV.bodies()
        units = [u for u in W.all_units() if W.unit_models(u)]
        for _ in range(16):
            u = units[rng.integers(len(units))]
            ms = W.unit_models(u)
            if not ms:
                continue
            op = rng.integers(5)
            if op == 0:     # one model destroyed and removed
                m = ms[rng.integers(len(ms))]
                esper.component_for_entity(m, Wounds).remaining = 0
                M.mark_destroyed(m, "test")
                M.remove_casualties([m])
            elif op in (1, 2):   # the unit moved a little
                dx, dy = rng.uniform(-0.05, 0.05, 2)
                M.move_models([(m, W.footprint(m).x + dx, W.footprint(m).y + dy) for m in ms])
            elif op == 3:
                M.to_reserves(u)
            else:
                assert_same_bodies(MV.bodies(), _fresh())
        assert_same_bodies(MV.bodies(), _fresh())


def test_03_01_a_removal_then_a_move_unread_keep_both():
    """The sequence a battle checker that reads after every command never leaves pending."""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    with Battle(spec, seed=1):
        MV.bodies()
        u, v = [u for u in W.all_units() if len(W.unit_models(u)) > 1][:2]
        m = W.unit_models(u)[0]
        esper.component_for_entity(m, Wounds).remaining = 0
        M.mark_destroyed(m, "test")
        M.remove_casualties([m])
        M.move_models([(k, W.footprint(k).x + 0.01, W.footprint(k).y) for k in W.unit_models(v)])
        kept = MV.bodies()
        assert W.model_id(m) not in kept.row
        assert_same_bodies(kept, _fresh())
