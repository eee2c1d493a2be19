"""The tactician's objective stakes (sim.players.tactician.judge.objective_stakes), read off the
in-range rows the phases' control checks keep (sim.phases.scoring.in_range_rows): the same
dict, float for float, as a count from scratch (every living model measured against every
objective where it stands now, 14.01.01), at every decision of whole tactician battles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
import pytest

from sim.battle import Battle
from sim.components import Roster, Unit
from sim.players import play_battle
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import judge as J
from sim.rules import objectives as OBJ
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[3]


def from_scratch(battle) -> dict:
    """objective_stakes's rule, every model measured now (models_in_range_all)."""
    ts = battle.turn_state
    objs = list(ts.objectives) if ts is not None else []
    out: dict = {}
    if not objs:
        return out
    fps = W.spatial().fps
    rows = []
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        r = esper.component_for_entity(u, Roster)
        lv = W.living(u)
        for slot, row in zip(lv.slots, lv.rows.tolist()):
            rows.append((unit.id, unit.owner, r.OC[slot], fps[row]))
    if not rows:
        return out
    hits = OBJ.models_in_range_all([fp for *_x, fp in rows], objs).T.tolist()
    for hit in hits:
        level = {0: 0, 1: 0}
        by_unit: dict = {}
        for (uid, owner, oc, _fp), h in zip(rows, hit):
            if h:
                level[owner] += oc
                n, s = by_unit.get(uid, (0, 0))
                by_unit[uid] = (n + 1, s + oc)
        for uid, (n, s) in by_unit.items():
            owner = esper.component_for_entity(battle.units[uid], Unit).owner
            margin = level[owner] - level[1 - owner]
            if margin < 0 or not s:
                continue
            weight = 1.0 if margin <= s else 1.0 / 3.0
            out[uid] = out.get(uid, 0.0) + weight * J.OC_WORTH * s / n
    return out


class Checked(TacticianPlayer):
    """A tactician that compares the stakes with the count from scratch before each choice."""

    seen = 0

    def choose(self, battle):
        got, want = J.objective_stakes(battle), from_scratch(battle)
        assert repr(sorted(got.items())) == repr(sorted(want.items()))
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
