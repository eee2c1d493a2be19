"""The choices rules ask (sim.phases.rule_choices) as decisions: Oath of Moment's enemy unit
(PICK_ENEMY, each Command phase) and the Waaagh! (CALL, once per battle, until the next Command
phase), answered by default, by a script step's standing answer and by the random player; and a
battle with choices recorded and replayed byte for byte."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from rules_replay import default_table_with, played_and_replayed
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice


def _oath():
    red = [unit("r1", model((20, 10), ["gun"]), rules=["Oath of Moment"]),
           unit("r2", model((40, 10), ["gun"]), rules=["Oath of Moment"])]
    blue = [unit("b1", model((20, 40), ["gun"])), unit("b2", model((42, 20), ["gun"]))]
    return mission_scenario(red, blue)


def test_pick_enemy_asked_at_red_command_phase_default_nearest():
    with Battle(_oath(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert dec["player"] == 0 and dec["answer"] == "b2"  # b2 is ~10" from r2; b1 ~30"
        assert b.resources.rule_choices["red:oath-of-moment"] == {"value": "b2", "round": 1, "player": 0}
        assert b.resources.rule_uses["red:oath-of-moment"] == 1
        (ch,) = of_type(b, "rule choice")
        assert ch["rule"] == "Oath of Moment" and ch["value"] == "b2" and ch["player"] == "red"


def test_pick_enemy_answered_by_a_script_step_and_picked_again_next_command_phase():
    with Battle(_oath(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "b1"}))
        assert b.resources.rule_choices["red:oath-of-moment"]["value"] == "b1"
        while b.turn_state.round == 1:  # (blue holds no choice: asked nothing)
            b.run_command(EndPhase())
        # red's round-2 Command phase: picked again (default: b2); the last choice holds till then
        assert b.resources.rule_choices["red:oath-of-moment"] == {"value": "b2", "round": 2, "player": 0}
        assert [e["value"] for e in of_type(b, "rule choice")] == ["b1", "b2"]
        assert b.resources.rule_uses["red:oath-of-moment"] == 2


def test_a_script_answer_that_names_no_enemy_falls_back_to_the_default():
    with Battle(_oath(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "r1"}))
        assert b.resources.rule_choices["red:oath-of-moment"]["value"] == "b2"


def _waaagh(blue_at):
    red = [unit("r1", model((20, 10), ["blade"]), rules=["waaagh"])]
    blue = [unit("b1", model(blue_at, ["blade"]))]
    return mission_scenario(red, blue)


def test_call_declined_far_from_the_enemy_then_called_in_round_3_once_and_it_expires():
    with Battle(_waaagh((20, 40)), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert [e["value"] for e in of_type(b, "rule choice")] == [False]  # round 1, 30" away
        assert "red:waaagh" not in b.resources.rule_choices
        while b.turn_state.round < 3:
            b.run_command(EndPhase())
        assert b.resources.rule_choices["red:waaagh"] == {"value": True, "round": 3, "player": 0}
        assert b.resources.rule_uses["red:waaagh"] == 1
        while b.turn_state.round < 4:
            b.run_command(EndPhase())
        # red's round-4 Command phase: the call expires; no use left, so it is not asked again
        assert "red:waaagh" not in b.resources.rule_choices
        assert [e["value"] for e in of_type(b, "rule choice")] == [False, False, True, None]
        kinds = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert len(kinds) == 3


def test_call_made_when_an_enemy_is_within_12_inches_or_scripted():
    with Battle(_waaagh((20, 20)), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert b.resources.rule_choices["red:waaagh"]["value"] is True
    with Battle(_waaagh((20, 20)), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "decline"}))
        assert "red:waaagh" not in b.resources.rule_choices


def test_a_battle_with_choices_replays_byte_for_byte(tmp_path):
    """The default battle with Oath of Moment on the first army and the Waaagh! on the second."""
    def check(b):
        choices = [e for e in b.events if e["type"] == "rule choice"]
        assert choices and any(e["player"] == "red" for e in choices)
    played_and_replayed(tmp_path, default_table_with(tmp_path, ["oath-of-moment"], ["waaagh"], "choices"), 7, check)


def test_a_scripted_side_answers_its_command_phase_choice_with_its_next_step_of_that_round():
    """Red's Command-phase choice is asked by the command that ends the turn before (StartBattle
    in round 1, blue's last EndPhase in round 2): red's next step of that round answers it."""
    from sim.players.runner import play
    red = [unit("r1", model((20, 10), ["gun"]), rules=["Oath of Moment"]),
           unit("r2", model((40, 10), ["gun"]), rules=["Oath of Moment"])]
    blue = [unit("b1", model((20, 40), ["gun"])), unit("b2", model((42, 20), ["gun"]))]
    script = [{"end_phase": "red", "decisions": {"rule_choice": "b1"}},
              {"round": 2, "end_phase": "red"}]  # (round 2: no answer, the default b2)
    spec = mission_scenario(red, blue, script=script, rounds=2)
    with Battle(spec, seed=3) as b:
        play(b, spec)
        assert [e["value"] for e in of_type(b, "rule choice")] == ["b1", "b2"]


def _katah(**army):
    red = [unit("r1", model((20, 10), ["blade"]), rules=["martial-katah"])]
    blue = [unit("b1", model((20, 40), ["blade"]))]
    return mission_scenario(red, blue, **army)


def test_pick_option_asked_at_its_phase_default_the_first_option_and_kept_till_the_next():
    with Battle(_katah(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert not [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]  # (its moment: the Fight phase)
        while str(b.turn_state.phase) != "fight":
            b.run_command(EndPhase())
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert dec["answer"] == "Dacatarai Stance"
        assert b.resources.rule_choices["red:martial-katah"]["value"] == "Dacatarai Stance"
        (ch,) = of_type(b, "rule choice")
        assert ch["rule"] == "Martial Ka'tah" and ch["value"] == "Dacatarai Stance"


def test_pick_option_answered_by_a_script_and_a_refused_answer_falls_back_to_the_default():
    for answer, kept in (("Rendax Stance", "Rendax Stance"), ("Bogus Stance", "Dacatarai Stance")):
        with Battle(_katah(), dice=ForcedDice([])) as b:
            b.run_command(StartBattle())
            while str(b.turn_state.phase) != "shooting":
                b.run_command(EndPhase())
            b.run_command(EndPhase())  # (charge)
            b.run_command(EndPhase(), answer_from({"rule_choice": answer}))  # into the Fight phase
            assert b.resources.rule_choices["red:martial-katah"]["value"] == kept
