"""The effects of rules outside the attack sequence, in small battles with forced dice
(sim.phases.rule_effects): Move, advance and charge modifiers, a charge re-roll the player may
decline, OC, Ld and battle-shock, Fights First, a target limit, mortal wounds on a charge, a
fight selection and a destruction, models returned, a stratagem's cost, a limited grant."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, phase, unit
from rule_records import with_test_records  # noqa: F401  (the fixture)
from scen import kill, of_type, wounds
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Fight, Move, Selection, SelectToMove, Shoot, StartBattle
from sim.commands import charge_command
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W

pytestmark = pytest.mark.usefixtures("with_test_records")


def _to(b, phase_name):
    while str(b.turn_state.phase) != phase_name:
        b.run_command(EndPhase())


def _battle(red, blue, dice, **kw):
    return Battle(mission_scenario(red, blue, **kw), dice=ForcedDice(dice))


def test_move_and_advance_modifiers_reach_the_move_limit():
    red = [unit("r", model((20, 20), ["blade"], M=6), rules=["test-swift"]),
           unit("q", model((20, 30), ["blade"], M=6), rules=["test-swift"])]
    blue = [unit("b", model((55, 40), ["blade"]))]
    with _battle(red, blue, [3]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.run_command(SelectToMove("r", "advance"))  # 3 + 1 = 4
        (sel,) = of_type(b, "selected to move")
        assert sel["advance_roll"] == 4
        (eff,) = [e for e in of_type(b, "rule effect") if e.get("roll") == "advance"]
        assert eff["rule"] == "Test Swift" and eff["unit"] == "r"
        b.run_command(Move("r", (("r/1", 31.9, 20),), "advance"))  # M 6 + 2 + 4 = 12" (11.9 moved)
        with pytest.raises(Refusal):
            b.submit(Move("q", (("q/1", 28.5, 30),)))  # 8.5": more than M 8
        b.run_command(Move("q", (("q/1", 27.9, 30),)))  # 7.9" within M 8


@pytest.mark.parametrize("keywords, rerolled", [(("INFANTRY", "PSYKER"), True), (("INFANTRY",), False)])
def test_a_charge_reroll_at_units_with_a_keyword_reads_the_possible_targets(keywords, rerolled):
    """A re-roll of charges at PSYKER units acts when a PSYKER unit is within 12" (a target the
    charge may take, 11.02), and not otherwise."""
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-witch-hunt"])]
    blue = [unit("b", model((20, 29), ["blade"]), keywords=keywords)]
    with _battle(red, blue, [1, 2, 5, 5]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 3 fails: re-rolled by default when the rule acts
        assert (of_type(b, "charge")[-1]["roll"] == 10) is rerolled


def test_charge_modifier_and_a_reroll_the_player_may_decline():
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-eager"])]
    blue = [unit("b", model((20, 29), ["blade"]))]  # ~7.7" apart, edge to edge
    with _battle(red, blue, [1, 2, 5, 5]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 1 + 2 + 1 = 4 fails: re-rolled by default -> 5 + 5 + 1
        assert of_type(b, "charge")[-1]["roll"] == 11
        rr = [e for e in of_type(b, "rule effect") if "dice" in e]
        assert rr[0]["dice"] == [1, 2] and rr[0]["to"] == [5, 5]
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_reroll"]
        assert dec["answer"] == "reroll"
    with _battle(red, blue, [1, 2]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"), lambda req: "decline" if req.kind == "rule_reroll" else req.default)
        assert of_type(b, "charge")[-1]["roll"] == 4


def test_14_02_oc_modifier_counts_for_control():
    red = [unit("r", model([(28, 20), (29.5, 20)], ["gun"], OC=2), rules=["test-holders"])]
    blue = [unit("b", model((30, 24), ["gun"], OC=5))]
    objectives = [{"name": "middle", "at": [30, 22], "kind": "central"}]
    with _battle(red, blue, [], objectives=objectives) as b:
        b.run_command(StartBattle())  # red 2 x (2 + 1) = 6 beats blue's 5
        (ctl,) = of_type(b, "control")
        assert ctl["levels"] == {"red": 6, "blue": 5} and ctl["controller"] == "red"


def _shock_spec(rules):
    red = [unit("r1", model([(28, 20), (29.5, 20), (31, 20), (32.5, 20)], ["gun"], Ld=7), rules=rules)]
    blue = [unit("b1", model((50, 40), ["gun"]))]
    return red, blue


def _to_next_red_command(b):
    start = b.turn_state.round
    while b.turn_state.round == start:
        b.run_command(EndPhase())


def test_01_07_leadership_modifier_and_automatic_reroll_of_a_failed_battle_shock_roll():
    with _battle(*_shock_spec(["test-steady"]), [1, 5]) as b:  # 6 against Ld 7 - 1 = 6+: passed
        b.run_command(StartBattle())
        kill(b, "r1/1")
        kill(b, "r1/2")
        _to_next_red_command(b)
        (shock,) = of_type(b, "battle-shock")
        assert shock["needed"] == 6 and shock["passed"] is True
    with _battle(*_shock_spec(["test-stubborn"]), [1, 5, 6, 6]) as b:  # 6 fails Ld 7: re-rolled to 12
        b.run_command(StartBattle())
        kill(b, "r1/1")
        kill(b, "r1/2")
        _to_next_red_command(b)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 12 and shock["passed"] is True
        (rr,) = [e for e in of_type(b, "rule effect") if e.get("roll") == "battle-shock"]
        assert rr["dice"] == [1, 5] and rr["to"] == [6, 6] and rr["rule"] == "Test Stubborn"


def test_12_04_a_fights_first_rule_puts_its_unit_in_step_1():
    red = [unit("ra", model((20, 20), ["blade"])), unit("rb", model((40, 20), ["blade"]))]
    blue = [unit("ba", model((20, 21.5), ["blade"]), rules=["test-first"]), unit("bb", model((40, 21.5), ["blade"]))]
    with _battle(red, blue, [1] * 20) as b:
        b.run_command(StartBattle())
        while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())
        assert phase(b)[3:] == ("fight", 1) and b.turn_state.fights_first_step  # blue's ba first
        with pytest.raises(Refusal, match="Fights First"):
            b.submit(Fight("bb", (Selection("bb/1", "blade", "rb"),)))


def test_a_target_limit_refuses_ranged_targets_beyond_it():
    red = [unit("r", model((20, 10), ["gun"]))]
    blue = [unit("far", model((20, 28), ["gun"]), rules=["test-shrouded"]),
            unit("near", model((24, 19), ["gun"]), rules=["test-shrouded"])]
    with _battle(red, blue, [1]) as b:
        b.run_command(StartBattle())
        _to(b, "shooting")
        with pytest.raises(Refusal):
            b.submit(Shoot("r", (Selection("r/1", "gun", "far"),)))  # ~17" away: beyond 12"
        b.run_command(Shoot("r", (Selection("r/1", "gun", "near"),)))  # ~9.8" centre to centre: within 12"


def test_06_02_mortal_wounds_after_a_charge_move_on_each_engaged_enemy_unit():
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-impact"])]
    blue = [unit("b", model((20, 25), ["blade"], W=2))]
    with _battle(red, blue, [6, 6, 4]) as b:  # charge 12; the D6 4 sets it off: 1 mortal wound
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))
        b.run_command(charge_command(b, "r", None, None))
        (eff,) = [e for e in of_type(b, "rule effect") if e.get("target") == "b"]
        assert eff["rule"] == "Test Impact" and "1 mortal wound" in eff["effect"]
        (mw,) = of_type(b, "mortal wounds")
        assert mw["unit"] == "b" and mw["source"] == "Test Impact" and mw["count"] == 1
        assert wounds(b, "b/1") == 1
    with _battle(red, blue, [6, 6, 3]) as b:  # a 3: nothing
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))
        b.run_command(charge_command(b, "r", None, None))
        assert of_type(b, "mortal wounds") == [] and wounds(b, "b/1") == 2


def test_06_02_mortal_wounds_when_selected_to_fight():
    red = [unit("ra", model((20, 20), ["blade"]), rules=["test-fury"])]
    blue = [unit("ba", model((20, 21.5), ["blade"], W=3))]
    with _battle(red, blue, [1] * 10) as b:
        b.run_command(StartBattle())
        while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())
        b.run_command(Fight("ra", (Selection("ra/1", "blade", "ba"),)))
        (mw,) = of_type(b, "mortal wounds")
        assert mw["unit"] == "ba" and mw["source"] == "Test Fury"
        assert wounds(b, "ba/1") == 2


def test_06_02_mortal_wounds_on_the_unit_that_destroyed_the_bearer():
    red = [unit("r", model((20, 10), ["gun"], W=3))]
    blue = [unit("b", model((20, 20), ["gun"], Sv=6), rules=["test-spite"])]
    with _battle(red, blue, [6, 6, 1]) as b:  # hit, wound, failed save: b destroyed
        b.run_command(StartBattle())
        _to(b, "shooting")
        b.run_command(Shoot("r", (Selection("r/1", "gun", "b"),)))
        b._enter()
        assert W.unit_destroyed(b.units["b"])
        (mw,) = of_type(b, "mortal wounds")
        assert mw["unit"] == "r" and mw["source"] == "Test Spite" and mw["count"] == 2
        assert wounds(b, "r/1") == 1


def _killed_and_removed(b, mid):
    from sim.world import mutations
    kill(b, mid)
    mutations.remove_casualties([b.models[mid]])


def test_reanimation_returns_a_destroyed_model_in_coherency_at_the_end_of_a_phase():
    red = [unit("r", model([(20, 20), (21.5, 20), (23, 20)], ["gun"]), rules=["reanimation-protocols"])]
    blue = [unit("b", model((50, 40), ["gun"]))]
    with _battle(red, blue, [6]) as b:  # D3 = 3: r/3 returns with 1 wound; 2 points left, nothing to heal
        b._enter()
        _killed_and_removed(b, "r/3")
        b.run_command(StartBattle())  # red's Command phase ends: the one roll
        (eff,) = of_type(b, "rule effect")
        assert eff["rule"] == "Reanimation Protocols" and eff["returned"] == ["r/3"] and eff["healed"] == {}
        b._enter()
        ent = b.models["r/3"]
        assert W.alive(ent) and W.on_table(ent) and ent in W.unit_models(b.units["r"])
        from sim.rules.coherency import is_coherent
        assert is_coherent([(W.model_id(m), W.footprint(m)) for m in W.unit_models(b.units["r"])])
        assert W.nearest_distance(ent, W.unit_models(b.units["b"])) > 2


def test_a_return_of_models_at_the_command_phase_needs_a_place_else_the_model_stays_destroyed():
    # r/2 can only come back beside r/1, walled in by blue's models: no place, it stays destroyed
    red = [unit("r", model([(20, 20), (20, 16.1)], ["blade"]), rules=["test-knit"])]
    ring = [(20 + dx, 20 + dy) for dx in (-2.6, 0, 2.6) for dy in (-2.6, 0, 2.6) if dx or dy]
    blue = [unit("b", model(ring, ["blade"]))]
    with _battle(red, blue, [6, 6]) as b:  # (r at half-strength: its battle-shock roll, passed)
        b._enter()
        _killed_and_removed(b, "r/2")
        b.run_command(StartBattle())
        (eff,) = of_type(b, "rule effect")
        assert eff["returned"] == [] and not W.alive(b.models["r/2"])


def test_15_01_a_stratagem_cost_modifier_makes_command_reroll_free():
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-cheap"])]
    blue = [unit("b", model((20, 29), ["blade"]))]
    with _battle(red, blue, [1, 1, 6, 6]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [1, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 2 fails: Command Re-roll by default, for 0 CP
        (st,) = of_type(b, "stratagem")
        assert st["stratagem"] == "Command Re-roll" and st["cp"] == 0 and st["cp_left"] == 1
        assert of_type(b, "charge")[-1]["roll"] == 12


def test_15_01_a_once_per_battle_cost_cut_is_used_up_by_the_stratagem_it_made_cheaper():
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-cheap-once"])]
    blue = [unit("b", model((20, 29), ["blade"]))]
    with _battle(red, blue, [1, 1, 6, 6]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [1, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))  # 2 fails: Command Re-roll for 0 CP, the cut used up
        (st,) = of_type(b, "stratagem")
        assert st["cp"] == 0 and b.resources.rule_uses == {"red:test-cheap-once@r|battle": 1}
        from sim.world.rule_reads import stratagem_cost_modifier
        assert stratagem_cost_modifier(b, "Command Re-roll", "r") == 0  # (no second cut this battle)


def test_a_once_per_battle_grant_acts_once():
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-rally"])]
    blue = [unit("b", model((55, 40), ["blade"]))]
    with _battle(red, blue, [3, 3]) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        b.run_command(SelectToMove("r", "advance"))
        assert of_type(b, "selected to move")[-1]["advance_roll"] == 5
        b.run_command(Move("r", (("r/1", 21, 20),), "advance"))
        while not (b.turn_state.round == 2 and b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"):
            b.run_command(EndPhase())
        b.run_command(SelectToMove("r", "advance"))
        assert of_type(b, "selected to move")[-1]["advance_roll"] == 3
        assert b.resources.rule_uses == {"red:test-rally@r|battle": 1}


def test_a_return_of_models_at_the_command_phase_brings_one_back_whole():
    red = [unit("r", model([(20, 20), (21.5, 20)], ["blade"], W=2), rules=["test-knit"])]
    blue = [unit("b", model((50, 40), ["blade"]))]
    with _battle(red, blue, [6, 6]) as b:  # (r at half-strength: its battle-shock roll, passed)
        b._enter()
        _killed_and_removed(b, "r/2")
        b.run_command(StartBattle())
        (eff,) = of_type(b, "rule effect")
        assert eff["rule"] == "Test Knit" and eff["returned"] == ["r/2"]
        assert wounds(b, "r/2") == 2
        assert [e["phase"] for e in of_type(b, "phase")] == ["command", "movement"]
        assert b.events.index(eff) < b.events.index(of_type(b, "phase")[-1])  # (in the Command phase)


@pytest.mark.parametrize("theirs, dice, lost", [
    (["test-grit"], [6, 6, 4, 5], 0),  # the granted 5+ Feel No Pain sets the mortal wound aside
    (["test-grit"], [6, 6, 4, 4], 1),  # a 4 does not
    (["test-parry"], [6, 6, 4], 1),  # a Feel No Pain against melee attacks only: none outside an attack
])
def test_24_12_a_granted_feel_no_pain_is_rolled_against_mortal_wounds_outside_an_attack(theirs, dice, lost):
    red = [unit("r", model((20, 20), ["blade"]), rules=["test-impact"])]
    blue = [unit("b", model((20, 25), ["blade"], W=2), rules=theirs)]
    with _battle(red, blue, dice) as b:  # charge 12; the D6 4 sets off Test Impact's mortal wound
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r"))
        b.run_command(charge_command(b, "r", None, None))
        (mw,) = of_type(b, "mortal wounds")
        assert mw["count"] == 1 and wounds(b, "b/1") == 2 - lost
        assert [s.get("fnp") for s in mw["steps"]] == ([[dice[3]]] if len(dice) > 3 else [None])
