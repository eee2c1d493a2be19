"""The vocabulary of forced battle-shock tests and option choices (sim.rules.effects.vocabulary
FORCED_SHOCK, ENEMIES, ENGAGED_ENEMY, NEAR_KEYWORD, IN_OWN_ZONE, TARGET_SHOCKED, RuleChoice.turn /
rounds / adds_to, KEPT) and their pure rules (sim.rules.effects.forced_shock, .choices): refused when
written wrong, read and written back, decided exactly."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.dice import DiceExpr
from sim.rules.effects import choices as CH
from sim.rules.effects import forced_shock as FS
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, condition_holds, condition_words
from sim.rules.effects.data import RecordFileError, load_records
from sim.rules.effects.words import grant_words
from sim.scenario.rule_records import to_toml


def test_forced_shock_effect_refuses_a_bad_moment_roll_or_a_roll_in_the_step():
    with pytest.raises(V.VocabularyError, match="forced battle-shock test needs a moment"):
        V.Effect(V.FORCED_SHOCK, trigger="whenever")
    with pytest.raises(V.VocabularyError, match="forced battle-shock test needs a moment"):
        V.Effect(V.FORCED_SHOCK, trigger=V.AT_COMMAND, roll=1)
    with pytest.raises(V.VocabularyError, match="Battle-shock step"):
        V.Effect(V.FORCED_SHOCK, trigger=V.IN_SHOCK_STEP, dice=DiceExpr(0, 0, 1))
    V.Effect(V.FORCED_SHOCK, trigger=V.AT_START_OF_PHASE, roll=3, dice=DiceExpr(0, 0, 1), value=-1)


def test_forced_shock_reaches_enemy_units_only_and_engaged_enemy_only_tests():
    e = V.Effect(V.FORCED_SHOCK, trigger=V.AT_COMMAND)
    with pytest.raises(V.VocabularyError, match="reaches enemy units"):
        V.Grant(e, V.UNIT)
    with pytest.raises(V.VocabularyError, match="engaged enemy"):
        V.Grant(V.Effect(V.MODIFY, "Ld", -1), V.ENGAGED_ENEMY)
    with pytest.raises(V.VocabularyError, match="return"):
        V.Grant(V.Effect(V.RETURN, which=V.WOUNDS, dice=DiceExpr(0, 0, 1), trigger=V.AT_COMMAND), V.ENEMIES)
    for who in (V.ENEMIES, V.ENGAGED_ENEMY):
        V.Grant(e, who)
    V.Grant(e, V.ENEMY_AURA, range=9)
    # a limit on a forced test is counted (the battle applies it at one moment)
    V.Grant(e, V.ENEMIES, V.When(limit=V.ONCE_PER_BATTLE))


@pytest.mark.parametrize("arg", ["SYNAPSE", "6", "SYNAPSE x", "SYNAPSE 0", " 6"])
def test_near_keyword_argument_is_a_keyword_and_inches(arg):
    with pytest.raises(V.VocabularyError, match="KEYWORD N"):
        V.When(conditions=((V.NEAR_KEYWORD, arg),))


def test_near_keyword_reads_the_rule_armys_units_within_the_tolerance():
    f = Facts(holder_units=((frozenset({"SYNAPSE", "MONSTER"}), 6.0 + 5e-10), (frozenset({"INFANTRY"}), 1.0)))
    assert condition_holds(V.NEAR_KEYWORD, "SYNAPSE 6", f)  # (01.04.01: up to the measuring tolerance)
    assert not condition_holds(V.NOT_NEAR_KEYWORD, "SYNAPSE 6", f)
    assert not condition_holds(V.NEAR_KEYWORD, "SYNAPSE 5.9", f)
    assert condition_holds(V.NOT_NEAR_KEYWORD, "synapse 5.9", f)
    assert not condition_holds(V.NEAR_KEYWORD, "SYNAPSE 6", Facts())
    assert condition_words(V.NEAR_KEYWORD, "SYNAPSE 6") == "it is within 6\" of a SYNAPSE unit of the rule's army"
    assert condition_holds(V.IN_OWN_ZONE, None, Facts(in_own_zone=True))
    assert condition_holds(V.TARGET_SHOCKED, None, Facts(target_battle_shocked=True))
    assert not condition_holds(V.TARGET_SHOCKED, None, Facts())


def test_rule_choice_turn_rounds_kept_picks_and_adds_to_are_checked():
    with pytest.raises(V.VocabularyError, match="turn"):
        V.RuleChoice(V.CALL, "command", "?", turn="enemy")
    with pytest.raises(V.VocabularyError, match="rounds"):
        V.RuleChoice(V.PICK_OPTION, "command", "?", options=("a", "b"), rounds=(0,))
    with pytest.raises(V.VocabularyError, match="only a choice of options keeps"):
        V.RuleChoice(V.CALL, "command", "?", lasts=V.KEPT)
    with pytest.raises(V.VocabularyError, match="lasts = kept"):
        V.RuleChoice(V.PICK_OPTION, "command", "?", options=("a", "b"), adds_to="x")
    c = V.RuleChoice(V.PICK_OPTION, "command", "?", options=("a", "b"), lasts=V.KEPT, rounds=(1,),
                     turn=V.EITHER_TURN, adds_to="x")
    # a record whose only effect is one more pick of another rule's options has no grant of its own
    V.RuleRecord("y", ("Y",), V.DETACHMENT_RULE, "y.", choice=c)
    with pytest.raises(V.VocabularyError, match="no effect"):
        V.RuleRecord("y", ("Y",), V.DETACHMENT_RULE, "y.", choice=dataclasses.replace(c, adds_to="", lasts=V.KEPT))
    # a kept choice: an OPTION condition holds for any option picked so far
    assert condition_holds(V.OPTION, "b", Facts(options_picked=("a", "b")))
    assert not condition_holds(V.OPTION, "c", Facts(options_picked=("a", "b")))


def test_records_of_this_vocabulary_are_written_and_read_back_the_same(tmp_path):
    keys = ["shadow-in-the-warp", "terror-of-khorne", "rad-bombardment", "harbingers-of-dread", "paragons-of-terror"]
    recs = [table.by_key(k) for k in keys]
    path = tmp_path / "r.toml"
    path.write_text(to_toml(recs))
    assert list(load_records(path)) == recs
    assert table.by_key("paragons-of-terror").choice.options == table.by_key("harbingers-of-dread").choice.options


def test_a_choice_options_written_as_text_is_refused_with_its_place(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[rule]]\nkey = "x"\nnames = ["X"]\nsource = "army rule"\nsummary = "x."\n'
                    'choice = { kind = "option", moment = "command", prompt = "?", options = ["a", "b"], rounds = 1 }\n')
    with pytest.raises(RecordFileError, match=r"rule\[0\] \(x\)\.choice\.rounds: expected a list"):
        load_records(path)


def test_words_of_forced_tests():
    shadow = table.by_key("shadow-in-the-warp")
    assert grant_words(shadow.grants[0]) == ("a battle-shock test at -1 in the Command phase for every enemy unit "
                                             "while the rule has been called while it is within 6\" of a SYNAPSE "
                                             "unit of the rule's army")
    assert grant_words(table.by_key("rad-bombardment").grants[0]).startswith(
        "on a D6 of 3+, 1 mortal wound and a battle-shock test at the start of the phase for every enemy unit")
    assert grant_words(table.by_key("terror-of-khorne").grants[0]).startswith(
        "a battle-shock test at -1 at the start of the phase for one enemy unit engaged with it (picked)")


def test_gate_and_picks():
    assert FS.gate_passes(0, None) and FS.gate_passes(3, 3) and not FS.gate_passes(3, 2)
    assert FS.pick_options(["a", "b"], {"a"}) == ["b", FS.DECLINE]
    assert FS.pick_options(["a"], {"a"}) == []
    assert FS.default_pick([("a", True), ("b", False)], set()) == "b"
    assert FS.default_pick([("a", True), ("b", True)], {"a"}) == "b"
    c = V.RuleChoice(V.PICK_OPTION, "command", "?", options=("a", "b", "c"), rounds=(1, 3), lasts=V.KEPT)
    assert CH.options_left(c, ["b"]) == ["a", "c"] and CH.picked_value(["a"], "c") == ["a", "c"]
    assert CH.picked_value(None, "a") == ["a"]
    assert CH.asked_in_round(c, 1, False) and not CH.asked_in_round(c, 1, True) and not CH.asked_in_round(c, 2, False)
    assert CH.asked_in_round(c, 3, False) and CH.round_key("red:x", 3) == "red:x|round 3"


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.booleans()), max_size=6, unique_by=lambda c: c[0]),
       st.sets(st.sampled_from("abcdef")))
def test_the_default_pick_is_always_an_option(cands, picked):
    opts = FS.pick_options([c[0] for c in cands], picked)
    pick = FS.default_pick(cands, picked)
    assert pick in opts if opts else pick == FS.DECLINE
