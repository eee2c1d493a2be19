"""08 Command phase: both players gain 1 CP in every Command phase (08.02); the active
player's battle-shock rolls (08.03, 01.07) for units battle-shocked or at/below half-strength;
a battle-shocked unit's OC is '-' (14.02) and a pass in its Battle-shock step clears it."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import kill, of_type
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.rules.dice import ForcedDice


def _spec():
    red = [unit("r1", model([(28, 20), (29.5, 20), (31, 20), (32.5, 20)], ["gun"], Ld=7, OC=2)),
           unit("r2", model([(5, 6)], ["gun"]))]
    blue = [unit("b1", model([(30, 26)], ["gun"], OC=3))]
    objectives = [{"name": "middle", "at": [30, 22], "kind": "central"}]
    return mission_scenario(red, blue, objectives=objectives)


def _to_next_red_command_phase(b):
    start = b.turn_state.round
    while b.turn_state.round == start:  # (blue's turn ends: red's next Command phase runs)
        b.run_command(EndPhase())


def test_08_02_both_players_gain_one_cp_in_every_command_phase():
    with Battle(_spec(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert b.turn_state.cp == [1, 1]
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        assert b.turn_state.cp == [2, 2]  # blue's Command phase gives red a CP too


def test_08_03_a_unit_at_half_strength_rolls_and_a_failed_roll_makes_its_oc_dash():
    # red's round-2 Battle-shock step: r1 (2 of 4 models: at half) rolls 2D6 = 1 + 5 = 6 < Ld 7
    with Battle(_spec(), dice=ForcedDice([1, 5])) as b:
        b.run_command(StartBattle())
        (ctl,) = of_type(b, "control")  # red OC 8 vs blue 3 at the end of red's Command phase
        assert ctl["controller"] == "red"
        kill(b, "r1/1")
        kill(b, "r1/2")
        _to_next_red_command_phase(b)
        (shock,) = of_type(b, "battle-shock")
        assert shock["unit"] == "r1" and shock["roll"] == 6 and shock["needed"] == 7
        assert shock["strength"] == "at half" and shock["passed"] is False
        b._enter()
        from sim.world import queries as W
        assert W.unit_state(b.units["r1"]).battle_shocked
        # 14.02: its OC is '-', so blue's 3 takes the objective at the end of the Command phase
        assert b.turn_state.control["middle"].controller == 1
        assert of_type(b, "control")[-1]["levels"] == {"red": 0, "blue": 3}


def test_08_03_a_pass_in_its_battle_shock_step_clears_battle_shock():
    with Battle(_spec(), dice=ForcedDice([1, 5, 3, 4])) as b:
        b.run_command(StartBattle())
        kill(b, "r1/1")
        kill(b, "r1/2")
        _to_next_red_command_phase(b)  # fails (6)
        _to_next_red_command_phase(b)  # round 3: rolls again (battle-shocked), 7 passes
        shocks = of_type(b, "battle-shock")
        assert [s["passed"] for s in shocks] == [False, True]
        from sim.world import queries as W
        b._enter()
        assert not W.unit_state(b.units["r1"]).battle_shocked


def test_08_03_a_unit_above_half_strength_makes_no_roll():
    with Battle(_spec(), dice=ForcedDice([])) as b:  # any die asked for would raise
        b.run_command(StartBattle())
        kill(b, "r1/1")  # 3 of 4: below starting strength, above half
        _to_next_red_command_phase(b)
        assert of_type(b, "battle-shock") == []
