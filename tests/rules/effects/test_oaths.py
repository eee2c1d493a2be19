"""Oaths, pure (sim.rules.effects.oaths; Code Chivalric's deeds and qualities): each deed's
completion test at its moment and not at another, the D6 tables, the reward (one more CP when
rolled), the answers; the vocabulary's OATH kind and its conditions ("oath quality", "honoured")
read from records and facts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.effects import oaths as OA
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, condition_words, holds
from sim.rules.effects.data import RecordFileError, load_records
from sim.rules.effects.words import record_words
from sim.scenario.rule_records import to_toml

TURN, ROUND = OA.END_OF_TURN, OA.END_OF_ROUND


def _f(moment=TURN, own=True, rnd=1, **kw) -> OA.DeedFacts:
    return OA.DeedFacts(moment, own, rnd, **kw)


@pytest.mark.parametrize("destroyed, rnd, done", [(2, 1, True), (1, 1, False), (3, 2, True), (2, 2, False),
                                                  (0, 1, False), (6, 5, True), (5, 5, False)])
def test_tally_more_enemy_units_destroyed_this_round_than_its_number(destroyed, rnd, done):
    assert OA.deed_done(OA.TALLY, _f(ROUND, rnd=rnd, enemy_units_destroyed_this_round=destroyed)) is done


def test_tally_is_judged_at_the_end_of_the_round_only():
    assert not OA.deed_done(OA.TALLY, _f(TURN, own=True, enemy_units_destroyed_this_round=5))
    assert not OA.deed_done(OA.TALLY, _f(TURN, own=False, enemy_units_destroyed_this_round=5))


@pytest.mark.parametrize("mine, theirs, done", [(2, 1, True), (1, 0, True), (1, 1, False), (0, 0, False),
                                                (0, 2, False)])
def test_realm_more_objectives_controlled_at_the_end_of_the_opponents_turn(mine, theirs, done):
    f = _f(TURN, own=False, objectives_controlled=mine, objectives_controlled_by_opponent=theirs)
    assert OA.deed_done(OA.REALM, f) is done


def test_realm_is_not_judged_at_the_end_of_its_own_turn_nor_of_the_round():
    assert not OA.deed_done(OA.REALM, _f(TURN, own=True, objectives_controlled=3))
    assert not OA.deed_done(OA.REALM, _f(ROUND, own=False, objectives_controlled=3))


@pytest.mark.parametrize("own", [True, False])
def test_tyrant_done_at_the_end_of_either_turn_once_the_model_is_destroyed(own):
    assert OA.deed_done(OA.TYRANT, _f(TURN, own=own, tyrant_destroyed=True))
    assert not OA.deed_done(OA.TYRANT, _f(TURN, own=own, tyrant_destroyed=False))
    assert not OA.deed_done(OA.TYRANT, _f(ROUND, own=own, tyrant_destroyed=True))


@given(st.integers(1, 6))
def test_every_d6_rolls_exactly_one_deed_and_one_quality(d6):
    for tbl in (OA.DEEDS, OA.QUALITIES):
        key = OA.rolled(tbl, d6)
        assert d6 in tbl[key].rolls
        assert sum(d6 in e.rolls for e in tbl.values()) == 1


def test_the_tables_as_printed():
    assert [(k, d.rolls) for k, d in OA.DEEDS.items()] == [("tyrant", (1, 2)), ("realm", (3, 4)), ("tally", (5, 6))]
    assert [(k, q.rolls) for k, q in OA.QUALITIES.items()] == [("valour", (1, 2)), ("eager", (3, 4)),
                                                               ("legacy", (5, 6))]


def test_the_reward_is_one_more_cp_when_rolled():
    assert OA.reward(2, False) == 2 and OA.reward(2, True) == 3


def test_answers_parse_and_bad_ones_are_refused_with_what_is_expected():
    assert OA.parse("tally / random") == ("tally", "random")
    assert OA.parse("realm/eager") == ("realm", "eager")
    assert len(OA.oath_options()) == 16 and "random / random" in OA.oath_options()
    for bad in ("tally", "tally / brave", "glory / eager", "a / b / c", 3):
        with pytest.raises(ValueError, match="<deed> / <quality>"):
            OA.parse(bad)


def test_the_record_swears_an_oath_and_its_qualities_act_under_the_condition():
    r = table.by_key("code-chivalric")
    (oath,) = [g for g in r.grants if g.what.kind == V.OATH]
    assert oath.who == V.ARMY and oath.what.value == 2

    def acting(**facts):
        return sorted((g.what.stat, g.what.value) for g in r.grants
                      if g.what.kind == V.MODIFY and holds(g.when, Facts(**facts)))

    assert acting() == []
    assert acting(oath_quality="eager") == [("M", 2), ("advance", 1), ("charge", 1)]
    assert acting(oath_quality="legacy") == [("Ld", 1), ("OC", 2)]
    assert acting(oath_quality="valour") == []  # (its partial says so)
    assert "valour" in r.partial
    words = "\n".join(record_words(r))
    assert "2 CP (3 if the oath was rolled)" in words and "eager for the challenge" in words


def test_honoured_condition_reads_the_fact():
    w = V.When(conditions=((V.HONOURED, None),))
    assert holds(w, Facts(honoured=True)) and not holds(w, Facts())
    assert condition_words(V.HONOURED, None).startswith("its army is Honoured")


def test_the_vocabulary_refuses_an_oath_outside_its_shape():
    with pytest.raises(V.VocabularyError, match="CP"):
        V.Effect(V.OATH)
    with pytest.raises(V.VocabularyError, match="who = army"):
        V.Grant(V.Effect(V.OATH, value=2), who=V.UNIT)
    with pytest.raises(V.VocabularyError, match="who = army"):
        V.Grant(V.Effect(V.OATH, value=2), who=V.ARMY, when=V.When(phases=("command",)))
    with pytest.raises(V.VocabularyError, match="a quality of"):
        V.When(conditions=((V.OATH_QUALITY, "brave"),))
    with pytest.raises(V.VocabularyError, match="argument"):
        V.When(conditions=((V.OATH_QUALITY, None),))


def test_the_record_is_written_and_read_back_the_same(tmp_path):
    r = table.by_key("code-chivalric")
    p = tmp_path / "oath.toml"
    p.write_text(to_toml([r]))
    assert load_records(p) == (r,)


def test_a_records_file_with_an_unknown_quality_is_refused_with_its_place(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[[rule]]\nkey = "x"\nnames = ["X"]\nsource = "army rule"\nsummary = "s"\n'
                 '  [[rule.grant]]\n  who = "army"\n  effect = { kind = "modify", stat = "OC", value = 1 }\n'
                 '  when = { conditions = [["oath quality", "brave"]] }\n')
    with pytest.raises(RecordFileError, match=r"bad.toml: rule\[0\] \(x\).*a quality of"):
        load_records(p)
