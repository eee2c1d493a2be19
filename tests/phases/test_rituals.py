"""Cabal of Sorcerers' psychic rituals (sim.phases.rituals, sim.rules.effects.rituals) in small
battles with forced dice: a ritual manifested and its effect, one failed, perils on a double,
the extra die, each ritual once per turn, the default player's choice, a ritual's buff lasting
to the end of the phase only, and a seeded battle replayed byte for byte."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type, wounds
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.rules.dice import ForcedDice
from sim.rules.effects import vocabulary as V
from sim.world import rule_effects as RE

CABAL = ["cabal-of-sorcerers"]
ROOT = Path(__file__).resolve().parents[2]


def _red(rules=CABAL, keywords=("INFANTRY", "PSYKER"), W=5, at=(10, 20)):
    return [unit("sorc", model(at, ["gun"], W=W, keywords=keywords), keywords=keywords, rules=rules)]


def _blue(n=1, at=(30, 20), W=10):
    return [unit(f"b{i}", model((at[0], at[1] + 8 * i), ["gun"], W=W)) for i in range(n)]


def _to_shooting(b, answer=None):
    b.run_command(StartBattle())  # (to red's Movement phase)
    b.turn_state.cp = [0, 0]
    assert str(b.turn_state.phase) == "movement"
    b.run_command(EndPhase(), answer)  # movement -> shooting: the rituals are asked


def _battle(red, blue, dice):
    return Battle(mission_scenario(red, blue), dice=ForcedDice(dice))


def test_doombolt_manifested_inflicts_d3_mortal_wounds():
    # 3 + 5 = 8 >= 7, no double; D3 from a 6 = 3 mortal wounds
    with _battle(_red(), _blue(), [3, 5, 6]) as b:
        _to_shooting(b, lambda req: "doombolt at b0" if req.kind == "rule_choice" else req.default)
        (t,) = of_type(b, "psychic test")
        assert (t["dice"], t["total"], t["needed"], t["perils"], t["manifested"]) == ([3, 5], 8, 7, False, True)
        assert t["ritual"] == "Doombolt (Psychic)" and t["target"] == "b0" and t["model"] == "sorc/1"
        assert wounds(b, "b0/1") == 10 - 3


def _say(answer):
    return lambda req: answer if req.kind == "rule_choice" else req.default


def test_a_ritual_failed_does_nothing():
    with _battle(_red(), _blue(), [1, 3]) as b:  # 4 < 7
        _to_shooting(b, _say("doombolt at b0"))
        (t,) = of_type(b, "psychic test")
        assert (t["total"], t["perils"], t["manifested"]) == (4, False, False)
        assert wounds(b, "b0/1") == 10 and not of_type(b, "mortal")
        assert b.dice.remaining == 0


def test_doombolt_on_11_or_more_adds_3():
    with _battle(_red(), _blue(), [5, 6, 2]) as b:  # 11: D3 (a 2: 1) + 3
        _to_shooting(b, _say("doombolt at b0"))
        assert wounds(b, "b0/1") == 10 - 4
        assert [e["effect"] for e in of_type(b, "rule effect")] == ["inflicts 1 mortal wound on b0",
                                                                     "inflicts 3 mortal wounds on b0"]


def test_a_double_is_perils_d3_mortal_wounds_on_the_casters_unit_then_the_ritual_still_manifests():
    with _battle(_red(), _blue(), [4, 4, 3, 6]) as b:  # 8: perils D3 (a 3: 2), then Doombolt D3 (a 6: 3)
        _to_shooting(b, _say("doombolt at b0"))
        (t,) = of_type(b, "psychic test")
        assert (t["total"], t["perils"], t["manifested"]) == (8, True, True)
        assert wounds(b, "sorc/1") == 5 - 2 and wounds(b, "b0/1") == 10 - 3
        perils = [e for e in of_type(b, "rule effect") if e["unit"] == "sorc" and "target" not in e]
        assert perils[0]["effect"] == "suffers 2 mortal wounds (perils: [4, 4])"


def test_a_caster_slain_by_perils_manifests_nothing():
    with _battle(_red(W=1), _blue(), [4, 4, 1]) as b:  # 8 would do, but perils (1 mortal wound) slays it
        _to_shooting(b, _say("doombolt at b0"))
        (t,) = of_type(b, "psychic test")
        assert (t["total"], t["perils"], t["manifested"]) == (8, True, False)
        assert wounds(b, "b0/1") == 10 and b.dice.remaining == 0


def test_the_extra_die_adds_to_the_total_and_a_pair_among_three_is_perils():
    with _battle(_red(), _blue(), [1, 2, 4, 6]) as b:  # 1 + 2 + 4 = 7, no pair; D3 (a 6: 3)
        _to_shooting(b, _say("doombolt at b0 +D6"))
        (t,) = of_type(b, "psychic test")
        assert (t["dice"], t["total"], t["perils"], t["manifested"]) == ([1, 2, 4], 7, False, True)
        assert wounds(b, "b0/1") == 7
    with _battle(_red(), _blue(), [1, 5, 1, 1, 2]) as b:  # 7 with a pair of 1s: perils (a 1: 1), D3 (a 2: 1)
        _to_shooting(b, _say("doombolt at b0 +D6"))
        (t,) = of_type(b, "psychic test")
        assert (t["total"], t["perils"], t["manifested"]) == (7, True, True)
        assert wounds(b, "sorc/1") == 4 and wounds(b, "b0/1") == 9


def test_each_ritual_once_per_turn_and_each_unit_once():
    red = _red() + [unit("sorc2", model((10, 30), ["gun"], W=5, keywords=("PSYKER",)),
                         keywords=("INFANTRY", "PSYKER"), rules=CABAL)]
    asked = []

    def answer(req):
        if req.kind != "rule_choice":
            return req.default
        asked.append(req)
        return "doombolt at b0" if len(asked) == 1 else "none"
    with _battle(red, _blue(), [1, 2]) as b:  # the first fails: Doombolt is not offered again this turn
        _to_shooting(b, answer)
        assert len(asked) == 2 and asked[0].context["unit"] == "sorc" and asked[1].context["unit"] == "sorc2"
        assert "doombolt at b0" in asked[0].options and not any(o.startswith("doombolt") for o in asked[1].options)
        assert "destinys-ruin at b0" in asked[1].options and "twist-of-fate at b0 +D6" in asked[1].options
        assert len(of_type(b, "psychic test")) == 1


def test_the_default_player_attempts_the_first_ritual_at_the_nearest_enemy_unit():
    blue = [unit("far", model((30, 35), ["gun"], W=10)), unit("near", model((25, 20), ["gun"], W=10)),
            unit("beyond", model((35.5, 20), ["gun"], W=10))]  # 24.24" edge to edge: out of range
    asked = []
    with _battle(_red(), blue, [2, 5, 6]) as b:
        _to_shooting(b, lambda req: asked.append(req) or req.default if req.kind == "rule_choice" else req.default)
        (dec,) = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert dec["answer"] == "doombolt at near"
        (req,) = asked
        assert [o for o in req.options if o.startswith("doombolt")] == [
            "doombolt at far", "doombolt at far +D6", "doombolt at near", "doombolt at near +D6"]
        assert wounds(b, "near/1") == 7


def test_a_unit_without_the_psyker_keyword_attempts_none():
    with _battle(_red(keywords=("INFANTRY",)), _blue(), []) as b:
        _to_shooting(b)
        assert not of_type(b, "psychic test") and not [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]


def test_a_ritual_may_be_attempted_again_in_the_next_turn():
    asked = []

    def answer(req):
        if req.kind == "rule_choice":
            asked.append(req)
            return "doombolt at b0"
        return req.default
    with _battle(_red(), _blue(), [1, 2, 1, 3]) as b:
        _to_shooting(b, answer)
        while not (b.turn_state.round == 2 and str(b.turn_state.phase) == "shooting"):
            b.run_command(EndPhase(), answer)
        assert [r.key for r in asked] == ["red:cabal-of-sorcerers@sorc ritual round 1",
                                          "red:cabal-of-sorcerers@sorc ritual round 2"]
        assert [t["dice"] for t in of_type(b, "psychic test")] == [[1, 2], [1, 3]]


def _shoot(b, rolls, uid="sorc"):
    b.dice._queue.extend(rolls)
    b.run_command(Shoot(uid, (Selection(f"{uid}/1", "gun", "b0"),)))


def test_twist_of_fate_improves_ap_until_the_end_of_the_phase_and_by_2_on_12_or_more():
    with _battle(_red(), _blue(W=10), [6, 5, 1]) as b:  # 12 on three dice, no pair
        _to_shooting(b, _say("twist-of-fate at b0 +D6"))
        assert b.resources.rule_choices["red:twist-of-fate"]["result"] == 12
        _shoot(b, [4, 4, 4])  # a hit, a wound, a save of 4 against Sv 3 with AP -2: failed
        (pool,) = of_type(b, "pool")
        assert pool["AP"] == -2 and ["Twist of Fate (Psychic)", "+1 to AP"] in pool["rules"]
        assert wounds(b, "b0/1") == 9
        b.run_command(EndPhase())  # shooting -> charge: the ritual ends
        assert "red:twist-of-fate" not in b.resources.rule_choices
        assert of_type(b, "rule choice")[-1]["value"] is None
        assert not RE.reaching(b.units["sorc"], (V.MODIFY,))
    with _battle(_red(), _blue(W=10), [4, 5]) as b:  # 9: AP -1 only
        _to_shooting(b, _say("twist-of-fate at b0"))
        _shoot(b, [4, 4, 4])  # a save of 4 against Sv 3 with AP -1: saved
        assert of_type(b, "pool")[0]["AP"] == -1 and wounds(b, "b0/1") == 10


@pytest.mark.parametrize("test_dice, rerolled", [([2, 3], False), ([4, 6], True)])
def test_destinys_ruin_rerolls_hit_rolls_of_1_or_any_on_10_or_more(test_dice, rerolled):
    red = _red() + [unit("gunner", model((10, 30), ["gun"]))]  # (not a PSYKER: its attacks gain it too)
    with _battle(red, _blue(W=10), test_dice) as b:
        _to_shooting(b, _say("destinys-ruin at b0"))
        _shoot(b, [1, 4, 6, 6])  # a 1 re-rolled to a 4 either way
        assert of_type(b, "hit rolls")[-1]["rerolled"] == [4]
        _shoot(b, [2, 6, 6, 6], "gunner")  # a 2 (a miss) re-rolled (to a 6) only by "any", on 10 or more
        assert of_type(b, "hit rolls")[-1]["rerolled"] == ([6] if rerolled else [])


def _cabal_file(tmp_path) -> Path:
    """The default battle with Cabal of Sorcerers on the first army, each of its units a PSYKER."""
    text = (ROOT / "scenarios/battle_default.toml").read_text()
    parts = text.split("[[armies]]\n")
    assert len(parts) == 3
    head, rest = parts[1].split("\n", 1)
    assert rest.count('keywords = ["INFANTRY"]') >= 2
    parts[1] = f"{head}\nrules = [\"cabal-of-sorcerers\"]\n" + rest.replace('keywords = ["INFANTRY"]',
                                                                           'keywords = ["INFANTRY", "PSYKER"]')
    path = tmp_path / "cabal.toml"
    path.write_text("[[armies]]\n".join(parts))
    return path


def test_a_battle_with_rituals_replays_byte_for_byte(tmp_path):
    from sim.players import play_battle
    from sim.replay.log import Recorder, replay, write_log
    from sim.scenario.load import load_scenario
    path = _cabal_file(tmp_path)
    spec = load_scenario(path)
    for players in (("default", "default"), ("random", "random")):
        s = dataclasses.replace(spec, script=(), mission=dataclasses.replace(spec.mission, players=players))
        with Battle(s, seed=5) as b:
            rec = Recorder(b, str(path))
            play_battle(b, s, rec)
            tests = of_type(b, "psychic test")
            assert tests and b.turn_state.over
            if players[0] == "default":  # (each unit tries the first ritual left: all three in a turn)
                assert len({t["ritual"] for t in tests if t["ritual"]}) == 3
            log = write_log(tmp_path / f"{players[0]}.jsonl", rec)
        n, div = replay(log)
        assert div is None and n == b.commands_done


@pytest.mark.parametrize("y, asked", [(24, True), (30, False)])  # (edge to edge: ~2.7" and ~8.7")
def test_mortal_sorcery_gives_psyker_units_within_6_inches_the_rituals(y, asked):
    red = [unit("host", model((10, 20), ["gun"]), keywords=("VEHICLE",), rules=["mortal-sorcery"]),
           unit("witch", model((10, y), ["gun"], W=5), keywords=("INFANTRY", "PSYKER"))]
    with _battle(red, _blue(), [3, 5, 6]) as b:
        _to_shooting(b)
        decs = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert [d["key"] for d in decs] == (["red:mortal-sorcery@witch ritual round 1"] if asked else [])
        if asked:
            (t,) = of_type(b, "psychic test")
            assert (t["rule"], t["unit"], t["manifested"]) == ("Mortal Sorcery (Aura)", "witch", True)


def test_a_unit_with_cabal_and_in_a_mortal_sorcery_aura_is_offered_each_ritual_once():
    red = _red() + [unit("host", model((10, 24), ["gun"]), keywords=("VEHICLE",), rules=["mortal-sorcery"])]
    asked = []
    with _battle(red, _blue(), []) as b:
        _to_shooting(b, lambda req: asked.append(req) or "none" if req.kind == "rule_choice" else req.default)
        (req,) = asked
        assert req.context["rule"] == "cabal-of-sorcerers" and len(req.options) == 1 + 3 * 2


def test_a_script_answers_the_ritual_with_its_step_and_a_stale_answer_falls_back_to_the_default():
    from sim.players.runner import play
    red = _red() + [unit("sorc2", model((10, 30), ["gun"], W=5), keywords=("INFANTRY", "PSYKER"), rules=CABAL)]
    script = [{"end_phase": "red", "decisions": {"rule_choice": "twist-of-fate at b0 +D6"}}]
    spec = mission_scenario(red, _blue(), script=script, rounds=1)
    with Battle(spec, seed=3) as b:
        play(b, spec)
        decs = [e for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert [d["answer"] for d in decs[:2]] == ["twist-of-fate at b0 +D6", "doombolt at b0"]
        assert "does not apply" in decs[1]["note"]  # (Twist of Fate was tried already this turn)


def test_a_rule_one_model_carries_is_cast_by_that_model():
    """As Rubric Marines' Aspiring Sorcerer: the bearer casts, not the unit's first model."""
    marines = model([(10, 20), (11.5, 20)], ["gun"], W=2, keywords=("PSYKER",))  # (PSYKER too: the bearer still casts)
    sorcerer = dict(model((13, 20), ["gun"], W=3, keywords=("PSYKER",)), rules=CABAL, name="Aspiring Sorcerer")
    red = [unit("rubrics", marines, sorcerer)]
    with _battle(red, _blue(), [3, 5, 6]) as b:
        _to_shooting(b)
        (t,) = of_type(b, "psychic test")
        assert (t["unit"], t["model"], t["manifested"]) == ("rubrics", "rubrics/3", True)


@pytest.mark.parametrize("rule", ["doombolt", "Twist of Fate (Psychic)"])
def test_a_ritual_named_in_a_scenarios_rules_is_refused_clearly(rule):
    from sim.errors import ScenarioError
    with pytest.raises(ScenarioError, match="a ritual is attempted through the rule that opens it"):
        mission_scenario(_red(rules=[rule]), _blue())
