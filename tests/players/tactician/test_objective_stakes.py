"""The tactician's objective stakes (sim.players.tactician.judge.objective_stakes), read off the
in-range rows the phases' control checks keep (sim.phases.scoring.in_range_rows): the same rows
as every living model measured against every objective where it stands now (14.01.01), and so
the same dict, float for float, at every decision of whole tactician battles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.phases.scoring import in_range_rows
from sim.players import play_battle
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import judge as J
from sim.rules import objectives as OBJ
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[3]


def from_scratch(battle) -> tuple:
    """Which living model is in range of which objective, every model measured where it stands
    now (models_in_range_all), and the stakes tallied from that (judge.stakes_of)."""
    ts = battle.turn_state
    objs = list(ts.objectives) if ts is not None else []
    rows, where = J.stake_models()
    if not objs or not rows:
        return None, {}
    fps = W.spatial().fps
    hit = OBJ.models_in_range_all([fps[k] for k in where], objs)
    return hit, J.stakes_of(battle, rows, hit)


class Checked(TacticianPlayer):
    """A tactician that compares the stakes with the count from scratch before each choice."""

    seen = 0

    def choose(self, battle):
        got = J.objective_stakes(battle)
        hit, want = from_scratch(battle)
        assert repr(sorted(got.items())) == repr(sorted(want.items()))
        if hit is not None:  # (the kept rows themselves: the same bools as measuring afresh)
            _rows, where = J.stake_models()
            kept = in_range_rows(W.spatial(), battle.turn_state.objectives, where)
            assert kept.shape == hit.shape and (kept == hit).all()
        Checked.seen += bool(want)
        return super().choose(battle)


@pytest.mark.parametrize("seed", [1, 2])
def test_objective_stakes_are_the_count_from_scratch_at_every_decision(seed):
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    mission = dataclasses.replace(spec.mission, players=("tactician", "tactician"))
    spec = dataclasses.replace(spec, mission=mission)
    Checked.seen = 0
    with Battle(spec, seed=seed) as b:
        play_battle(b, spec, players=[Checked(s, b, spec) for s in (0, 1)])
        assert b.turn_state.over
    assert Checked.seen > 20  # (stakes were there to compare, not only empty dicts)
