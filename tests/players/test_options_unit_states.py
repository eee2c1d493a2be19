"""sim.players.options.own_unit_states: the side's units on the battlefield, each with its
UnitState, kept while the spatial index's presence_version stands; always the list asked
afresh (own_units, each unit's state read again), object for object: through whole random
battles (deployment, reserves and transports included), and for a unit brought back from
destruction, whose state is a new object."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
import pytest

from phased import mission_scenario, model, unit
from scen import kill
from sim.battle import Battle
from sim.commands import StartBattle
from sim.components import Unit
from sim.players import options as O
from sim.players import play_battle
from sim.players.random_player import RandomPlayer
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario
from sim.world import mutations as M
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


def _fresh(b, side: int) -> list:
    return [(u, W.unit_state(u)) for u in O.own_units(b, side)]


def _same(kept: list, fresh: list) -> bool:
    return len(kept) == len(fresh) and all(u == v and s is t for (u, s), (v, t) in zip(kept, fresh))


@pytest.mark.parametrize("name, seed", [("battle_default", 3), ("reserves", 1), ("transport", 2), ("deployment", 4)])
def test_the_kept_states_are_the_fresh_ones_at_every_choice(monkeypatch, name, seed):
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    choose = RandomPlayer.choose
    checked = 0

    def checking(self, battle):
        nonlocal checked
        battle._enter()
        for side in (0, 1):
            assert _same(O.own_unit_states(battle, side), _fresh(battle, side))
            checked += 1
        return choose(self, battle)

    monkeypatch.setattr(RandomPlayer, "choose", checking)
    with Battle(spec, seed=seed) as b:
        play_battle(b, spec)
    assert checked > 50


def test_a_unit_brought_back_from_destruction_is_kept_with_its_new_state():
    red = [unit("r1", model((20, 10), ["blade"])), unit("r2", model((30, 10), ["blade"]))]
    blue = [unit("b1", model((20, 30), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        r1 = b.units["r1"]
        old = W.unit_state(r1)
        assert _same(O.own_unit_states(b, 0), [(r1, old), (b.units["r2"], W.unit_state(b.units["r2"]))])
        kill(b, "r1/1")
        b._enter()
        assert [u for u, _s in O.own_unit_states(b, 0)] == [b.units["r2"]]
        M.restore_to_reserves(r1)   # (V.RESURGE: a new state, in reserves)
        assert W.unit_state(r1) is not old
        M.set_up(r1, [(m, 20.0, 12.0) for m in esper.component_for_entity(r1, Unit).models])
        assert _same(O.own_unit_states(b, 0), _fresh(b, 0))
        assert O.own_unit_states(b, 0)[0][1] is W.unit_state(r1) is not old
