"""Whole-battle rules a review found broken, each fixed with its test: a unit eligible to fight
when its enemy died (12.04), a unit selected to advance that does not move (09.02, 09.06), one
unit at a time (09.02, 11.02), no stratagem on one's own battle-shocked unit (15.01), Deadly
Demise after a Desperate Escape (24.08), coherency removals as a decision (03.03, ruling 29), and
default players finishing whole battles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Fight, Move, Overrun, SelectToMove, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


def _to(b, phase, step=None):
    while not (str(b.turn_state.phase) == phase and (step is None or str(b.turn_state.step) == step)):
        b.run_command(EndPhase())


def test_12_04_a_unit_whose_enemy_died_before_it_fought_is_still_picked_for_an_overrun_fight():
    red = [unit("rk", model((20, 20), ["blade"])), unit("r1", model((22.6, 20), ["blade"]))]
    blue = [unit("b1", model((21.3, 21.5), ["blade"]))]  # engaged with both
    # rk's two attacks: hits 6, 6; wounds 6, 6; b1's saves 1, 1: destroyed before r1 fights
    with Battle(mission_scenario(red, blue), dice=ForcedDice([6, 6, 6, 6, 1, 1])) as b:
        b.run_command(StartBattle())
        _to(b, "fight", "fight")
        from sim.commands import Selection
        b.run_command(Fight("rk", (Selection("rk/1", "blade", "b1"),)))
        b._enter()
        assert W.unit_destroyed(b.units["b1"])
        # r1 was engaged at the start of the Fight step: still eligible, and may be picked, as
        # an overrun fight now that it is unengaged (12.06; no enemy within 5": no pile-in)
        assert b.turn_state.chooser == 0
        with pytest.raises(Refusal, match=r"a normal fight needs an engaged unit \(12.05\)"):
            b.submit(Fight("r1", ()))
        b.run_command(Overrun("r1"))
        b.run_command(Fight("r1", ()))
        assert W.unit_state(b.units["r1"]).selected_to_fight and b.turn_state.overrun is None


def test_09_06_a_unit_selected_to_advance_that_does_not_move_has_advanced():
    red = [unit("r", model((20, 20), ["blade"]))]
    blue = [unit("b", model((20, 28), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([3])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.run_command(SelectToMove("r", "advance"))
        b.run_command(EndPhase())
        b._enter()
        assert W.unit_state(b.units["r"]).advanced
        _to(b, "charge")
        with pytest.raises(Refusal, match=r"r advanced this turn and cannot declare a charge"):
            b.submit(DeclareCharge("r"))


def test_09_02_and_11_02_units_are_resolved_one_at_a_time():
    red = [unit("r1", model((20, 20), ["blade"])), unit("r2", model((40, 20), ["blade"]))]
    blue = [unit("b", model((35, 28), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([3, 3, 3])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.run_command(SelectToMove("r1", "advance"))
        with pytest.raises(Refusal, match=r"r1's advance move must be made first.*\(09.02\)"):
            b.submit(Move("r2", (("r2/1", 41, 20),)))
        b.run_command(Move("r1", (("r1/1", 21, 20),), "advance"))
        b.run_command(Move("r2", (("r2/1", 41, 20),)))
        _to(b, "charge")
        b.run_command(DeclareCharge("r2"))
        with pytest.raises(Refusal, match=r"r2's charge \(roll 6\"\) must be made first.*\(11.02\)"):
            b.submit(DeclareCharge("r1"))


def test_15_01_no_command_re_roll_for_ones_own_battle_shocked_unit():
    red = [unit("r", model((20, 20), ["blade"]))]
    blue = [unit("b", model((20, 28), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1, 1])) as b:
        b.run_command(StartBattle())
        b._enter()
        W.unit_state(b.units["r"]).battle_shocked = True
        b.turn_state.cp = [3, 3]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 2: failed, but no stratagem may target it
        assert of_type(b, "stratagem") == [] and b.turn_state.cp == [3, 3]


def test_24_08_a_model_destroyed_by_its_desperate_escape_makes_its_deadly_demise_roll():
    red = [unit("tank", model((20, 20), ["blade"], W=3, base_mm=60), keywords=("VEHICLE",),
                abilities=["Deadly Demise 1"])]
    blue = [unit("b", model((20, 22.2), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1, 6] + [4] * 10)) as b:
        b.run_command(StartBattle())
        b.run_command(SelectToMove("tank", "desperate escape"))
        (dd,) = of_type(b, "deadly demise")
        assert dd["roll"] == 6 and dd["units"] == ["b"]


def test_03_03_coherency_removals_are_a_decision_checked_against_the_rule():
    red = [unit("r", model([(10, 10), (11.5, 10), (30, 10)], ["blade"]))]
    blue = [unit("b", model((50, 40), ["blade"]))]
    asked = []

    def answer(req):
        if req.kind == "coherency_removal":
            asked.append(req)
            return ["r/1", "r/2"]  # (legal: the unit is then one model)
        return req.default
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        while b.turn_state.active == 0:
            b.run_command(EndPhase(), answer)
        (req,) = asked
        assert req.default == ["r/3"] and req.player == 0
        (e,) = of_type(b, "coherency removal")
        assert e["models"] == ["r/1", "r/2"]


def test_03_03_an_illegal_coherency_removal_is_refused():
    red = [unit("r", model([(10, 10), (11.5, 10), (30, 10)], ["blade"]))]
    blue = [unit("b", model((50, 40), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"illegal coherency removal"):
            while b.turn_state.active == 0:
                b.run_command(EndPhase(), lambda req: ["r/3", "r/1"] if req.kind == "coherency_removal" else req.default)


@pytest.mark.parametrize("seed", [5, 9, 12])
def test_default_players_finish_whole_battles(seed):
    """(The review found seeds 5, 9, 12... of the default table ending in a refused fight.)"""
    from sim.players import play_battle
    from sim.scenario.load import load_scenario
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("default", "default")))
    with Battle(spec, seed=seed) as b:
        play_battle(b, spec)
        assert b.turn_state.over and b.turn_state.result in ("red", "blue", "draw")
