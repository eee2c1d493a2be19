"""sim.rules.effects.dice_options (pure): how a DICE_OPTIONS rule's options are written, what a
roll affords (each option paid with dice of its own), the default answer; Blessings of Khorne's
record as the data writes it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from sim.rules.effects import dice_options as DO
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V

KHORNE = table.by_key("blessings-of-khorne").choice


def test_parse_need():
    assert DO.parse_need("double 5+ or triple 2+") == ((2, 5), (3, 2))
    for bad in ("quadruple 2+", "double 7+", "double", "double 1+ and triple 2+"):
        with pytest.raises(V.VocabularyError):
            DO.parse_need(bad)


def test_blessings_of_khorne_without_a_double_affords_nothing():
    assert DO.affordable(KHORNE, [1, 2, 3, 4, 5, 6]) == []
    assert DO.answers(KHORNE, [1, 2, 3, 4, 5, 6]) == ["none"]
    assert DO.default_answer(KHORNE, [1, 2, 3, 4, 5, 6]) == "none"


def test_a_triple_pays_for_a_triple_blessing_and_a_double_of_ones_only_for_the_lowest():
    """Three 2s: a double 2+ (two of them), or a triple 1+ / 2+; never two options (three dice)."""
    assert DO.affordable(KHORNE, [2, 2, 2, 1, 3, 4]) == [
        ("Unbridled Bloodlust",), ("Rage-fuelled Invigoration",), ("Martial Excellence",), ("Warp Blades",)]
    assert DO.affordable(KHORNE, [1, 1, 2, 3, 4, 5]) == [("Unbridled Bloodlust",)]


def test_the_rules_example_and_the_default():
    """1, 2, 2, 2, 3, 4, 6, 6: the 6s pay for Warp Blades (double 5+), two 2s for a double 1+ or
    2+; the triple 2 for Warp Blades leaves the 6s for Decapitating Strikes (double 6+)."""
    rolled = [1, 2, 2, 2, 3, 4, 6, 6]
    combos = DO.affordable(KHORNE, rolled)
    assert ("Warp Blades", "Decapitating Strikes") in combos
    assert ("Unbridled Bloodlust", "Warp Blades") in combos
    assert ("Cleaving Blows", "Decapitating Strikes") not in combos  # (one pair of 6s)
    assert DO.default_answer(KHORNE, rolled) == "Warp Blades + Decapitating Strikes"
    assert DO.value_of("Warp Blades + Decapitating Strikes") == ["Warp Blades", "Decapitating Strikes"]
    assert DO.value_of("none") is None


@settings(deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 6), min_size=8, max_size=8))
def test_eight_dice_always_afford_a_blessing_and_the_default_is_an_option(rolled):
    """Eight D6 always hold a double (six faces), and any double pays for Unbridled Bloodlust; each
    set offered is paid with dice of its own."""
    answers = DO.answers(KHORNE, rolled)
    assert "Unbridled Bloodlust" in answers and DO.default_answer(KHORNE, rolled) in answers
    for combo in DO.affordable(KHORNE, rolled):
        assert len(combo) <= KHORNE.picks and len(set(combo)) == len(combo)


def test_a_dice_options_choice_is_checked():
    ok = V.RuleChoice(V.DICE_OPTIONS, V.AT_ROUND_START, "?", dice=8, picks=2, options=("A",), needs=("double 1+",))
    assert DO.parse_options(ok) == [("A", ((2, 1),))]
    for kw in ({"moment": "command"}, {"options": ("A", "A"), "needs": ("double 1+", "double 2+")},
               {"needs": ()}, {"needs": ("pair",)}, {"dice": 0}, {"picks": 0}, {"options": ("none",)}):
        with pytest.raises(V.VocabularyError):
            V.RuleChoice(**{"kind": V.DICE_OPTIONS, "moment": V.AT_ROUND_START, "prompt": "?", "dice": 8,
                            "picks": 2, "options": ("A",), "needs": ("double 1+",), **kw})
    with pytest.raises(V.VocabularyError):
        V.RuleRecord("x", ("X",), V.ARMY_RULE, "x", (V.Grant(V.Effect(V.MODIFY, "charge", 1),
                                                              when=V.When(conditions=((V.OPTION, "B"),))),),
                     choice=ok)


def test_the_default_prefers_options_that_act():
    """6 6 3 3 3 ...: Total Carnage (double 3+; no grant here) is left for options that act."""
    rec = table.by_key("blessings-of-khorne")
    rolled = [6, 6, 3, 3, 1, 2, 4, 5]
    assert DO.default_answer(KHORNE, rolled) == "Total Carnage + Decapitating Strikes"
    assert DO.default_answer(KHORNE, rolled, DO.acting_options(rec)) == "Unbridled Bloodlust + Decapitating Strikes"
    assert "Total Carnage" not in DO.acting_options(rec)
