"""sim.rules.effects.rituals (pure) and the records it reads: the Psychic test, the answers and
the default, what a manifested ritual does at once, and the vocabulary's checks of rituals."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.dice import DiceExpr
from sim.rules.effects import rituals as RT
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.rules.effects.data import RecordFileError, load_records
from sim.rules.effects.words import record_words


@pytest.mark.parametrize("dice, total, perils", [
    ((3, 5), 8, False), ((4, 4), 8, True), ((1, 2, 4), 7, False), ((1, 5, 1), 7, True), ((2, 2, 2), 6, True)])
def test_psychic_test_total_and_perils_on_any_double_or_triple(dice, total, perils):
    assert RT.psychic_test(dice) == (total, perils)


def test_perils_chance_on_two_and_three_dice():
    two = [RT.psychic_test(d)[1] for d in itertools.product(range(1, 7), repeat=2)]
    three = [RT.psychic_test(d)[1] for d in itertools.product(range(1, 7), repeat=3)]
    assert Fraction(sum(two), len(two)) == Fraction(1, 6)
    assert Fraction(sum(three), len(three)) == Fraction(4, 9)  # 1 - 6*5*4/216


def test_manifested_needs_the_caster_alive_and_the_warp_charge():
    assert RT.manifested(7, 7, True) and not RT.manifested(6, 7, True) and not RT.manifested(12, 7, False)


@given(st.sampled_from(["doombolt", "twist-of-fate"]), st.sampled_from(["b0", "ork boyz", "x at y"]), st.booleans())
def test_an_option_parses_back(ritual, target, extra):
    assert RT.parse(RT.option(ritual, target, extra)) == (ritual, target, extra)


def test_options_and_the_default():
    assert RT.options([]) == [RT.NONE] and RT.parse(RT.NONE) is None
    opts = RT.options([("doombolt", ["a", "b"]), ("twist-of-fate", [])])
    assert opts == ["none", "doombolt at a", "doombolt at a +D6", "doombolt at b", "doombolt at b +D6"]
    rituals = [("doombolt", 7, []), ("twist-of-fate", 9, [("a", 10.0), ("b", 4.0), ("c", 4.0)])]
    assert RT.default_answer(rituals) == "twist-of-fate at b +D6"  # (nearest, ties to the first; 9: the third die)
    assert RT.default_answer([("destinys-ruin", 5, [("a", 1.0)])]) == "destinys-ruin at a"
    assert RT.default_answer([("doombolt", 7, [])]) == RT.NONE


def test_doombolt_at_once_d3_and_3_more_on_11():
    rec = table.by_key("doombolt")
    assert [e.dice for e in RT.at_once(rec, 10)] == [DiceExpr(1, 3, 0)]
    assert [e.dice for e in RT.at_once(rec, 11)] == [DiceExpr(1, 3, 0), DiceExpr(0, 0, 3)]
    assert RT.lasting(rec) == ()
    assert len(RT.lasting(table.by_key("twist-of-fate"))) == 2 and RT.at_once(table.by_key("twist-of-fate"), 12) == []


def test_every_ritual_grant_opens_a_ritual_record_and_every_ritual_is_opened():
    opened = {g.what.ability for r in table.records() for g in r.grants if g.what.kind == V.RITUAL}
    rituals = {r.key for r in table.records() if r.source == V.RITUAL_SOURCE}
    assert opened == rituals == {"doombolt", "destinys-ruin", "twist-of-fate"}


def test_cabal_in_words_names_each_ritual():
    words = "\n".join(record_words(table.by_key("cabal-of-sorcerers")))
    assert "the ritual Doombolt (Psychic)" in words and "of 7+" in words and "within 24\"" in words
    assert "D3 mortal wounds (manifested) for the unit it targets" in "\n".join(record_words(table.by_key("doombolt")))


_HEAD = '[[rule]]\nkey = "k"\nnames = ["K"]\nsummary = "s"\n'


@pytest.mark.parametrize("text, found", [
    ('source = "ritual"\n[[rule.grant]]\neffect = { kind = "mortal wounds", dice = "D3", trigger = "manifested" }\n',
     "enemy-unit choice"),
    ('source = "army rule"\n[[rule.grant]]\neffect = { kind = "mortal wounds", dice = "D3", trigger = "manifested" }\n',
     "only a ritual"),
    ('source = "army rule"\n[[rule.grant]]\neffect = { kind = "modify", stat = "AP", value = 1 }\n'
     'when = { conditions = [["psychic result", 10]] }\n', "only a ritual"),
    ('source = "army rule"\n[[rule.grant]]\neffect = { kind = "ritual", ability = "doombolt", value = 24 }\n',
     "Warp Charge"),
    ('source = "army rule"\n[[rule.grant]]\neffect = { kind = "ritual", roll = 7, value = 24 }\n', "Warp Charge"),
    ('source = "ritual"\nchoice = { kind = "enemy unit", moment = "shooting", prompt = "p" }\n[[rule.grant]]\n'
     'effect = { kind = "ritual", ability = "doombolt", roll = 7, value = 24 }\n', "other rituals"),
])
def test_the_vocabulary_refuses_a_ritual_written_wrong(tmp_path, text, found):
    p = tmp_path / "r.toml"
    p.write_text(_HEAD + text, encoding="utf-8")
    with pytest.raises(RecordFileError) as e:
        load_records(p)
    assert found in str(e.value)
