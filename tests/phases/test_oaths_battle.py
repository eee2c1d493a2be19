"""Code Chivalric's oath in battles (sim.phases.oaths), forced dice and placed models: sworn
before the battle as an ``oath`` decision (default, script, random player, a scenario's
``chosen``; "random" rolls on the battle's dice, logged), each deed done at its moment and not
before (CP gained and Honoured then: 2, or 3 when rolled), each quality acting, and a battle with
an oath replayed byte for byte."""

from __future__ import annotations

import dataclasses

import pytest

from phased import mission_scenario, model, unit
from rules_replay import default_table_with, played_and_replayed
from scen import kill, of_type
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Selection, SelectToMove, Shoot, StartBattle
from sim.errors import ScenarioError
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice
from sim.world import rule_effects as RE
from sim.world import rule_reads as RR

RULE = ["Code Chivalric"]
MIDDLE = [{"name": "middle", "at": [20, 12], "kind": "central"}]


def _to(b, round_, player, phase):
    """End phases until battle round ``round_``, ``player``'s (0/1) turn, ``phase`` begins (a
    Command phase takes no command: its Movement phase is the first stop)."""
    ts = b.turn_state
    while (ts.round, ts.active, str(ts.phase)) != (round_, player, phase):
        b.run_command(EndPhase())


def _oath(b):
    return b.resources.oaths.get("red")


def _deeds(b):
    """The deeds done (judged and done)."""
    return [e for e in of_type(b, "deed") if e["done"]]


def _knights(blue=None, red_rules=RULE, **kw):
    red = [unit("r1", model((20, 10), ["gun"], OC=2), rules=red_rules),
           unit("r2", model((40, 10), ["gun"]), rules=red_rules)]
    blue = blue or [unit("b1", model((20, 40), ["gun"])), unit("b2", model((40, 40), ["gun"]))]
    return mission_scenario(red, blue, **kw)


def test_the_default_oath_is_sworn_before_the_battle_and_logged():
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "oath"]
        assert dec["player"] == 0 and dec["answer"] == "realm / eager"
        (sw,) = of_type(b, "oath sworn")
        assert sw["player"] == "red" and sw["deed"].startswith("We swear to reclaim") and sw["random"] is False
        # before the battle starts, before anything of round 1
        types = [e["type"] for e in b.events]
        assert types.index("oath sworn") < types.index("battle start")
        assert b.resources.oaths["red"] == {"deed": "realm", "quality": "eager", "random": False, "cp": 2,
                                            "rule": "Code Chivalric"}
        assert "blue" not in b.resources.oaths  # (blue holds no oath rule: asked nothing)


def test_realm_done_at_the_end_of_the_opponents_turn_not_before_two_cp_and_honoured():
    with Battle(_knights(objectives=MIDDLE), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, 1, 1, "movement")  # red's turn ended: red controls the middle, but it was its own turn
        assert b.turn_state.control["middle"].controller == 0
        assert _deeds(b) == [] and _oath(b).get("fulfilled") is None
        assert b.turn_state.cp == [1, 1]  # (blue's Command phase only)
        r1 = b.units["r1"]
        held = RE.held_by(r1)[0]
        assert not RE.facts(b, r1, held, r1).honoured
        _to(b, 2, 0, "movement")
        (d,) = _deeds(b)
        assert d["player"] == "red" and d["round"] == 1
        cp = [e for e in of_type(b, "cp") if e.get("player")]
        assert [(e["gained"], e["player"], e["cp"]) for e in cp] == [(2, "red", {"red": 3, "blue": 1})]
        assert b.turn_state.cp == [4, 2]  # (and round 2's Core CP)
        assert _oath(b)["fulfilled"] == 1 and RE.facts(b, r1, held, r1).honoured
        _to(b, 3, 0, "movement")  # the first time only
        assert len(_deeds(b)) == 1 and len([e for e in of_type(b, "cp") if e.get("player")]) == 1


def test_realm_not_done_while_control_is_even():
    blue = [unit("b1", model((20, 14), ["gun"], OC=2)), unit("b2", model((40, 40), ["gun"]))]
    with Battle(_knights(blue, objectives=MIDDLE), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to(b, 3, 0, "movement")
        assert _deeds(b) == []
        # judged at the end of each of blue's turns, logged with where it stands
        judged = [(e["round"], e["done"], e["progress"]) for e in of_type(b, "deed")]
        assert judged == [(1, False, "0 objective marker(s) controlled against 0"),
                          (2, False, "0 objective marker(s) controlled against 0")]


def test_a_random_oath_rolls_both_parts_on_the_battles_dice_and_gains_three_cp():
    with Battle(_knights(objectives=MIDDLE), dice=ForcedDice([4, 6])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "random / random"}))
        rolls = [e for e in of_type(b, "dice") if e["purpose"].startswith("Code Chivalric")]
        assert [(e["purpose"], e["results"]) for e in rolls] == [("Code Chivalric: the deed (red)", [4]),
                                                                 ("Code Chivalric: the quality (red)", [6])]
        assert _oath(b) == {"deed": "realm", "quality": "legacy", "random": True, "cp": 3, "rule": "Code Chivalric"}
        b.turn_state.cp = [0, 0]
        _to(b, 2, 0, "movement")
        (cp,) = [e for e in of_type(b, "cp") if e.get("player")]
        assert cp["gained"] == 3 and cp["cp"] == {"red": 4, "blue": 1}


def test_one_part_rolled_is_enough_for_the_larger_reward():
    with Battle(_knights(), dice=ForcedDice([1])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tally / random"}))
        assert _oath(b)["quality"] == "valour" and _oath(b)["random"] and _oath(b)["cp"] == 3


def _near():
    """Blue within the red guns' 24"."""
    return [unit("b1", model((20, 30), ["gun"])), unit("b2", model((40, 30), ["gun"]))]


def _shoot(b, shooter, target):
    b.run_command(Shoot(shooter, (Selection(f"{shooter}/1", "gun", target),)))


def test_tally_done_at_the_end_of_the_round_two_enemy_units_destroyed_in_round_1():
    # each shot: hit 6, wound 6, save 1 (the blue models' Sv 3+ fails): the model and its unit destroyed
    with Battle(_knights(_near()), dice=ForcedDice([6, 6, 1, 6, 6, 1])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tally / eager"}))
        b.turn_state.cp = [0, 0]
        _to(b, 1, 0, "shooting")
        _shoot(b, "r1", "b1")
        _shoot(b, "r2", "b2")
        assert [e["unit"] for e in of_type(b, "unit destroyed")] == ["b1", "b2"]
        _to(b, 1, 1, "movement")
        assert _deeds(b) == []  # (red's turn is over, the round is not)
        _to(b, 2, 0, "movement")
        (d,) = _deeds(b)
        assert d["round"] == 1 and b.turn_state.cp[0] == 1 + 2 + 1


def test_tally_not_done_with_one_enemy_unit_destroyed_in_round_1():
    with Battle(_knights(_near()), dice=ForcedDice([6, 6, 1])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tally / eager"}))
        b.turn_state.cp = [0, 0]
        _to(b, 1, 0, "shooting")
        _shoot(b, "r1", "b1")
        _to(b, 2, 0, "movement")
        assert _deeds(b) == []
        (e,) = of_type(b, "deed")  # (judged at the end of the round only)
        assert e["progress"] == "1 enemy unit(s) destroyed this battle round (more than 1 needed)"


def _tyrant_blue():
    return [unit("b1", model((20, 40), ["gun"], W=4, keywords=["CHARACTER"]), keywords=("INFANTRY", "CHARACTER")),
            unit("b2", model((40, 40), ["gun"], W=3, keywords=["CHARACTER"]), keywords=("INFANTRY", "CHARACTER")),
            unit("b3", model((50, 40), ["gun"]))]


def test_tyrant_picked_at_the_start_of_the_battle_default_the_fewest_wounds():
    with Battle(_knights(_tyrant_blue()), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tyrant / legacy"}))
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "oath_target"]
        assert dec["answer"] == "b2/1"
        (t,) = of_type(b, "oath target")
        assert t["model"] == "b2/1" and _oath(b)["target"] == "b2/1"
        types = [e["type"] for e in b.events]
        assert types.index("battle start") < types.index("oath target") < types.index("round")


def test_tyrant_done_at_the_end_of_the_turn_it_is_destroyed_not_before():
    with Battle(_knights(_tyrant_blue()), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tyrant / legacy", "oath_target": "b1/1"}))
        assert _oath(b)["target"] == "b1/1"
        b.turn_state.cp = [0, 0]
        kill(b, "b2/1")  # (not the one picked)
        _to(b, 1, 0, "shooting")
        kill(b, "b1/1")  # in red's turn
        assert _deeds(b) == []
        _to(b, 1, 1, "movement")
        (d,) = _deeds(b)
        assert d["round"] == 1 and d["deed"].startswith("We vow to lay low")
        types = [e["type"] for e in b.events]
        blue_turn = len(types) - types[::-1].index("player turn") - 1
        done_at = next(i for i, e in enumerate(b.events) if e["type"] == "deed" and e["done"])
        assert done_at < blue_turn  # (at the end of red's turn)
        assert b.turn_state.cp == [2 + 1, 1]


def test_tyrant_with_no_enemy_character_picks_none_and_is_never_done():
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "tyrant / eager"}))
        (t,) = of_type(b, "oath target")
        assert t["model"] is None and [e for e in of_type(b, "decision") if e["kind"] == "oath_target"] == []
        _to(b, 2, 0, "movement")
        assert _deeds(b) == []


# --- the qualities ---------------------------------------------------------------------------

def test_eager_adds_2_to_move_and_1_to_advance_and_charge_rolls():
    red = [unit("r1", model((20, 20), ["blade"], M=6), rules=RULE), unit("r2", model((30, 20), ["blade"], M=6))]
    blue = [unit("b1", model((20, 29), ["blade"]))]  # ~7.7" from r1, edge to edge
    with Battle(mission_scenario(red, blue), dice=ForcedDice([3, 1, 2])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "realm / eager"}))
        b.turn_state.cp = [0, 0]
        r1, r2 = b.units["r1"], b.units["r2"]
        assert RR.move_of(b, r1, b.models["r1/1"]) == 8
        assert RR.move_of(b, r2, b.models["r2/1"]) == 6  # (r2 holds no Code Chivalric)
        b.run_command(SelectToMove("r2", "advance"))  # 3: no modifier for r2
        assert of_type(b, "selected to move")[-1]["advance_roll"] == 3
        _to(b, 1, 0, "charge")
        b.run_command(DeclareCharge("r1"), lambda req: "decline" if req.kind == "rule_reroll" else req.default)
        assert of_type(b, "charge")[-1]["roll"] == 1 + 2 + 1


def test_eager_advance_roll_plus_one():
    red = [unit("r1", model((20, 20), ["blade"]), rules=RULE)]
    blue = [unit("b1", model((50, 40), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([3])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "realm / eager"}))
        b.run_command(SelectToMove("r1", "advance"))
        assert of_type(b, "selected to move")[-1]["advance_roll"] == 4


def test_legacy_adds_2_to_oc_and_improves_leadership_by_1():
    red = [unit("r1", model((20, 10), ["gun"], OC=1, Ld=7), rules=RULE)]
    blue = [unit("b1", model((20, 14), ["gun"], OC=2))]
    with Battle(mission_scenario(red, blue, objectives=MIDDLE), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "realm / legacy"}))
        r1 = b.units["r1"]
        assert RR.oc_modifier(b, r1) == 2 and RR.leadership(b, r1) == [6]
        assert RR.oc_modifier(b, b.units["b1"]) == 0
        _to(b, 1, 0, "shooting")  # the Command phase's end: red's OC 1 + 2 = 3 beats blue's 2
        ctl = of_type(b, "control")[-1]
        assert ctl["levels"] == {"red": 3, "blue": 2} and ctl["controller"] == "red"
    with Battle(mission_scenario(red, blue, objectives=MIDDLE), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"oath": "realm / eager"}))
        assert RR.oc_modifier(b, b.units["r1"]) == 0 and RR.leadership(b, b.units["r1"]) == [7]


# --- who answers -------------------------------------------------------------------------------

def test_a_scenario_chosen_oath_is_sworn_without_a_decision():
    s = _knights()
    armies = list(s.armies)
    armies[0] = dataclasses.replace(armies[0], chosen=(("code-chivalric", "tally / random"),))
    s = dataclasses.replace(s, armies=tuple(armies))
    with Battle(s, dice=ForcedDice([5])) as b:
        b.run_command(StartBattle())
        assert [e for e in of_type(b, "decision") if e["kind"] == "oath"] == []
        assert _oath(b)["deed"] == "tally" and _oath(b)["quality"] == "legacy" and _oath(b)["cp"] == 3


def _data(chosen=None, script=None):
    from phased import WEAPONS
    red = [unit("r1", model((20, 10), ["gun"]), rules=RULE)]
    blue = [unit("b1", model((20, 40), ["gun"]))]
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red, "rules": []}, {"name": "B", "units": blue}],
            "mission": {"first": "red", "rounds": 1, "deployed": False}}
    if chosen is not None:
        data["armies"][0]["chosen"] = chosen
    if script is not None:
        data["script"] = script
        data["mission"]["players"] = {"red": "scripted", "blue": "default"}
    return data


def test_a_scenario_chosen_oath_read_from_the_file_and_a_bad_one_refused():
    from sim.scenario.load import parse_scenario
    s = parse_scenario(_data({"Code Chivalric": "realm / legacy"}), "t.toml")
    assert s.armies[0].chosen == (("code-chivalric", "realm / legacy"),)
    with pytest.raises(ScenarioError, match=r"chosen.*<deed> / <quality>.*found.*glory / legacy"):
        parse_scenario(_data({"Code Chivalric": "glory / legacy"}), "t.toml")


def test_a_script_step_answers_the_oath_and_a_bad_answer_is_refused():
    from sim.players import play_battle
    from sim.scenario.load import parse_scenario
    s = parse_scenario(_data(script=[{"end_phase": "red", "decisions": {"oath": "tally / legacy"}}]), "t.toml")
    with Battle(s, dice=ForcedDice([])) as b:
        play_battle(b, s)
        assert _oath(b)["deed"] == "tally" and _oath(b)["quality"] == "legacy"
    with pytest.raises(ScenarioError, match="oath"):
        parse_scenario(_data(script=[{"end_phase": "red", "decisions": {"oath": "tally"}}]), "t.toml")


def test_a_battle_with_an_oath_replays_byte_for_byte(tmp_path):
    """The default battle with Code Chivalric on the first army."""
    played_and_replayed(tmp_path, default_table_with(tmp_path, ["code-chivalric"], name="oath"), 7,
                        lambda b: of_type(b, "oath sworn"))


def test_in_a_battle_deployed_by_the_rules_the_oath_comes_first_rolled_before_the_roles_roll_off():
    from phased import WEAPONS
    from sim.scenario.load import parse_scenario

    def waiting(**kw):  # (two models to be deployed: no positions)
        m = model([(0, 0)] * 2, ["gun"], **kw)
        del m["at"]
        return m

    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [unit("r1", waiting(), rules=RULE)]},
                       {"name": "B", "units": [unit("b1", waiting())]}],
            "mission": {"deployment": "rules", "first": "red"}}
    # the deed's die (6: tally), then the roles' roll-off (red 5 v blue 2: red chooses)
    with Battle(parse_scenario(data, "t.toml"), dice=ForcedDice([6, 5, 2])) as b:
        b.submit(StartBattle())
        b.step_until_blocked()
        assert b.pending.kind == "oath" and b.pending.player == 0
        b.answer("random / legacy")
        b.step_until_blocked()
        assert b.pending.kind == "role" and b.pending.player == 0
        assert _oath(b) == {"deed": "tally", "quality": "legacy", "random": True, "cp": 3, "rule": "Code Chivalric"}
        rolls = [(e["purpose"].split(" roll-off")[0], e["results"]) for e in of_type(b, "dice")]
        assert rolls == [("Code Chivalric: the deed (red)", [6]), ("Attacker and Defender", [5, 2])]
