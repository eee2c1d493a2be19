"""15.02 Command Re-roll asked only when the roll can come out better, and as each player's
setting says (issue 28 item 2): never after an advance roll of 6 or a charge roll of 12 (the
highest a re-roll could give); ``[mission] command_reroll`` per side: always (the default),
only failed rolls, never; the default and scripted players follow it (what is not asked is
not answered). The options as a person reads them are counted from 1."""

from __future__ import annotations

import dataclasses

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, SelectToMove, StartBattle
from sim.errors import ScenarioError
from sim.rules import command_reroll as RR
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario


def _to_phase(b, name):
    while str(b.turn_state.phase) != name:
        b.run_command(EndPhase())


def _spec(asks=None):
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 16), ["blade"]))]
    spec = mission_scenario(red, blue)
    if asks is not None:
        spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, command_reroll=asks))
    return spec


def _asked(b) -> list[dict]:
    return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"].startswith("Command Re-roll")]


def test_whole_roll_raisable_is_false_only_at_the_highest_total():
    assert not RR.whole_roll_raisable([6]) and RR.whole_roll_raisable([5])
    assert not RR.whole_roll_raisable([6, 6]) and RR.whole_roll_raisable([6, 5]) and RR.whole_roll_raisable([1, 1])


@pytest.mark.parametrize("roll, asked", [(6, 0), (5, 1)])
def test_an_advance_roll_of_6_is_not_offered(roll, asked):
    with Battle(_spec(), dice=ForcedDice([roll])) as b:
        b.run_command(StartBattle())
        b.run_command(SelectToMove("r1", "advance"))
        assert len(_asked(b)) == asked


@pytest.mark.parametrize("dice, asked", [([6, 6], 0), ([3, 4], 1)])
def test_a_charge_roll_of_12_is_not_offered(dice, asked):
    with Battle(_spec(), dice=ForcedDice(dice)) as b:
        b.run_command(StartBattle())
        _to_phase(b, "charge")
        b.run_command(DeclareCharge("r1"))
        assert len(_asked(b)) == asked


@pytest.mark.parametrize("setting, dice, asked, used", [
    ("always", [3, 4], 1, 0),       # a charge that reached: asked, the default declines
    ("failed", [3, 4], 0, 0),       # only failed rolls: a charge that reached is not asked about
    ("failed", [1, 1, 4, 4], 1, 1),  # ...a failed one is (and the default re-rolls it)
    ("never", [1, 1, 4, 4], 0, 0),  # never: the default player does not re-roll a failed charge
])
def test_the_players_setting_decides_what_is_asked(setting, dice, asked, used):
    with Battle(_spec((setting, "always")), dice=ForcedDice(dice)) as b:
        b.run_command(StartBattle())
        _to_phase(b, "charge")
        b.run_command(DeclareCharge("r1"))
        assert len(_asked(b)) == asked
        assert len(of_type(b, "stratagem")) == used


def test_asked_dice_by_setting():
    assert RR.asked_dice("always", [0, 2, 3], [2]) == [0, 2, 3]
    assert RR.asked_dice("failed", [0, 2, 3], [2]) == [2]
    assert RR.asked_dice("never", [0, 2, 3], [2]) == []
    assert RR.failed_dice("save", [1, 2]) == [1, 2] and RR.failed_dice("damage", [1, 2]) == []
    assert RR.failed_dice("hit", [0, 1, 2], failing=[1]) == [1]


def test_options_read_by_a_person_count_from_1():
    assert RR.option_words("pool 0 hit 3: 1") == "pool 1, hit die 4 (rolled 1)"
    assert RR.option_words("hazard 0: 2") == "hazard die 1 (rolled 2)"
    assert RR.option_words("decline") == "decline"
    assert RR.about_words("pool 2 wound 0 (was 1)") == "pool 3, wound die 1 (was 1)"


def _data(asks):
    return {"battle": {"name": "t", "seed": 1, "board": [60, 44]},
            "weapons": {"blade": weapon("melee", 2, 3, 4, 0, 1)},
            "armies": [{"name": "A", "units": [unit("r1", model((20, 10), ["blade"]))]},
                       {"name": "B", "units": [unit("b1", model((20, 30), ["blade"]))]}],
            "mission": {"first": "red", "deployed": False, "command_reroll": asks}}


def test_the_scenario_sets_it_per_side_and_refuses_a_bad_value():
    assert parse_scenario(_data({"blue": "failed"}), "t.toml").mission.command_reroll == ("always", "failed")
    assert _spec().mission.command_reroll == ("always", "always")  # (none said: always)
    with pytest.raises(ScenarioError, match="sometimes"):
        parse_scenario(_data({"red": "sometimes"}), "t.toml")
