"""A rule that picks a friendly unit (PICK_FRIEND: the Imperial Knights' Bondsman rule, lending
the Knight's "(Bondsman)" abilities) as a decision: asked in its player's Command phase with the
eligible friendly units as options (the CHOSEN_FRIEND grant's keywords, within its range of a
bearer), answered by default (the nearest) and by a script; the lent ability's grants then reach
the unit picked, and only it (sim.world.rule_effects), its attacks take them; the choice holds
until its player's next Command phase; a scenario's ``chosen`` names a friendly unit for it; the
sandbox card says it in words."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.errors import ScenarioError
from sim.players.resolve import answer_from
from sim.rules.dice import ForcedDice
from sim.rules.effects import vocabulary as V
from sim.world import rule_effects as RE


def _knights(**red_kw):
    red = [unit("k", model((20, 10), ["gun"], W=10), keywords=("VEHICLE",), rules=["Bondsman", "Crusader's Duty (Bondsman)"]),
           unit("a1", model((28, 10), ["gun"], W=5), keywords=("VEHICLE", "ARMIGER")),
           unit("a2", model((20, 15), ["gun"], W=5), keywords=("VEHICLE", "ARMIGER")),
           unit("a3", model((50, 10), ["gun"], W=5), keywords=("VEHICLE", "ARMIGER")),
           unit("i1", model((20, 12), ["gun"]))]
    blue = [unit("b1", model((28, 30), ["gun"]))]
    return mission_scenario(red, blue, **red_kw)


def _acting_on(b, uid):
    return [a.held.record.key for a in RE.acting(b, b.units[uid], (V.MODIFY,), attack="ranged")]


def test_pick_friend_asked_with_eligible_units_default_the_nearest_and_it_acts_on_it_only():
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert dec["player"] == 0 and dec["answer"] == "a2"  # ~5" away; a1 ~8"; a3 out of 12"; i1 no ARMIGER
        assert b.resources.rule_choices["red:bondsman@k"]["value"] == "a2"
        assert _acting_on(b, "a2") == ["crusaders-duty"]
        assert _acting_on(b, "a1") == [] and _acting_on(b, "k") == [] and _acting_on(b, "i1") == []


def test_pick_friend_options_are_the_eligible_units():
    from sim.phases.rule_choices import _friends
    from sim.rules.effects import table
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b._enter()
        assert [u for u, _d in _friends(0, table.resolve("bondsman"))] == ["a1", "a2"]


def test_pick_friend_answered_by_a_script_and_the_picked_unit_attacks_with_it():
    with Battle(_knights(), dice=ForcedDice([2, 4, 1])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "a1"}))
        assert b.resources.rule_choices["red:bondsman@k"]["value"] == "a1"
        assert _acting_on(b, "a1") == ["crusaders-duty"] and _acting_on(b, "a2") == []
        (ch,) = of_type(b, "rule choice")
        assert ch["value"] == "a1" and ch["rule"] == "Bondsman"
        while str(b.turn_state.phase) != "shooting":
            b.run_command(EndPhase())
        b.run_command(Shoot("a1", (Selection("a1/1", "gun", "b1"),)))  # a 2 hits at +1 (BS3+)
        pool = of_type(b, "pool")[-1]
        assert pool["hit_mod"] == 1 and ["Crusader's Duty (Bondsman)", "+1 to hit rolls"] in pool["rules"]
        assert of_type(b, "hit rolls")[-1]["hits"] == 1 and b.dice.remaining == 0


def test_a_script_answer_naming_an_ineligible_unit_falls_back_to_the_default():
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "a3"}))  # beyond 12"
        assert b.resources.rule_choices["red:bondsman@k"]["value"] == "a2"


def test_the_pick_holds_until_the_next_red_command_phase_then_is_made_again():
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "a1"}))
        while b.turn_state.round == 1:
            b.run_command(EndPhase())
            if b.turn_state.round == 1:
                assert b.resources.rule_choices["red:bondsman@k"]["value"] == "a1"
        assert b.resources.rule_choices["red:bondsman@k"] == {"value": "a2", "round": 2, "player": 0}


def test_a_lent_ability_without_its_lending_rule_reaches_no_one():
    red = [unit("k", model((20, 10), ["gun"], W=10), rules=["Crusader's Duty (Bondsman)"]),
           unit("a1", model((28, 10), ["gun"], W=5), keywords=("ARMIGER",))]
    with Battle(mission_scenario(red, [unit("b1", model((28, 30), ["gun"]))]), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        assert [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"] == []
        assert _acting_on(b, "a1") == [] and _acting_on(b, "k") == []


def test_scenario_chosen_names_a_friendly_unit_and_refuses_an_enemy():
    red = [unit("k", model((20, 10), ["gun"], W=10), rules=["bondsman", "crusaders-duty"]),
           unit("a1", model((28, 10), ["gun"]), keywords=("ARMIGER",))]
    blue = [unit("b1", model((20, 40), ["gun"]))]
    from sim.scenario.load import parse_scenario
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": {"gun": {"range": 24, "A": 1, "BS": 3,
            "S": 4, "AP": 0, "D": 1}}, "armies": [{"name": "A", "units": red, "chosen": {"bondsman": "a1"}},
                                                  {"name": "B", "units": blue}]}
    sc = parse_scenario(data, "t.toml")
    assert sc.armies[0].chosen == (("bondsman", "a1"),)
    data["armies"][0]["chosen"] = {"bondsman": "b1"}
    with pytest.raises(ScenarioError, match="friendly unit"):
        parse_scenario(data, "t.toml")


def test_the_sandbox_card_says_the_pick_in_words():
    from sim.sandbox.rules_card import choice_words, rule_lines
    from sim.rules.effects import table
    with Battle(_knights(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle(), answer_from({"rule_choice": "a1"}))
        assert choice_words(table.resolve("bondsman"), 0, "k") == "affecting a1"
        (k_line,) = [ln for ln in rule_lines(b, b.units["k"]) if ln.key == "bondsman"]
        assert any("on a1" in str(g) for g in k_line.grants)
        assert any(ln.key == "crusaders-duty" for ln in rule_lines(b, b.units["a1"]))
        assert not any(ln.key == "crusaders-duty" for ln in rule_lines(b, b.units["a2"]))
