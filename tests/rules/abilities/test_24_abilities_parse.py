"""24 Abilities: parsing weapon and unit abilities into data (sim.rules.abilities)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.abilities import (
    ABILITY_HELP,
    UNIT_ABILITY_NAMES,
    WEAPON_ABILITY_NAMES,
    Ability,
    AbilityError,
    duplicates,
    get,
    has,
    is_close_quarters,
    parse_unit_abilities,
    parse_weapon_abilities,
)
from sim.rules.dice import DiceExpr

W = parse_weapon_abilities


def names(abilities):
    return [a.name for a in abilities]


# --- printing styles -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[ANTI-VEHICLE 4+, PRECISION]",
        "[ANTI-VEHICLE 4+], [PRECISION]",
        "[ANTI-VEHICLE 4+] [PRECISION]",
        "anti-vehicle 4+, precision",
        "Anti-vehicle 4+, Precision",
        "  [ anti-VEHICLE   4+ ,PRECISION ]  ",
        "ANTI-VEHICLE 4+; PRECISION",
        ["ANTI-VEHICLE 4+", "PRECISION"],
        "Anti\u2013vehicle 4+, Precision",  # en dash from a copied web page
    ],
)
def test_24_01_printing_styles_agree(text):
    assert W(text, "w") == (Ability("ANTI", 4, ("VEHICLE",)), Ability("PRECISION"))


@pytest.mark.parametrize("text", ["", "-", "  -  ", "[]", "\u2014", None, [], "N/A"])
def test_24_01_no_abilities(text):
    assert W(text, "w") == ()


def test_24_01_separate_bracket_groups():
    assert names(W("[BLAST], [HEAVY]", "w")) == ["BLAST", "HEAVY"]
    assert names(W("[BLAST][HEAVY][PSYCHIC]", "w")) == ["BLAST", "HEAVY", "PSYCHIC"]


def test_24_01_trailing_and_doubled_commas_are_ignored():
    assert names(W("[HEAVY, , PRECISION,]", "w")) == ["HEAVY", "PRECISION"]


def test_24_01_printed_keeps_token_as_written():
    (a,) = W("  anti-Vehicle   4+ ", "w")
    assert a.printed == "anti-Vehicle 4+"


# --- every weapon ability --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ASSAULT", Ability("ASSAULT")),
        ("BLAST", Ability("BLAST", 1)),
        ("BLAST 2", Ability("BLAST", 2)),
        ("CLEAVE 1", Ability("CLEAVE", 1)),
        ("CLOSE-QUARTERS", Ability("CLOSE-QUARTERS")),
        ("close quarters", Ability("CLOSE-QUARTERS")),
        ("PISTOL", Ability("CLOSE-QUARTERS")),
        ("DEVASTATING WOUNDS", Ability("DEVASTATING WOUNDS")),
        ("EXTRA ATTACKS", Ability("EXTRA ATTACKS")),
        ("HAZARDOUS", Ability("HAZARDOUS")),
        ("HEAVY", Ability("HEAVY")),
        ("IGNORES COVER", Ability("IGNORES COVER")),
        ("INDIRECT FIRE", Ability("INDIRECT FIRE")),
        ("LANCE", Ability("LANCE")),
        ("LETHAL HITS", Ability("LETHAL HITS")),
        ("MELTA 2", Ability("MELTA", 2)),
        ("ONE SHOT", Ability("ONE SHOT")),
        ("one-shot", Ability("ONE SHOT")),
        ("PRECISION", Ability("PRECISION")),
        ("PSYCHIC", Ability("PSYCHIC")),
        ("RAPID FIRE 1", Ability("RAPID FIRE", 1)),
        ("RAPID FIRE D3", Ability("RAPID FIRE", DiceExpr(1, 3, 0))),
        ("SUSTAINED HITS 2", Ability("SUSTAINED HITS", 2)),
        ("sustained hits d3", Ability("SUSTAINED HITS", DiceExpr(1, 3, 0))),
        ("SUSTAINED HITS D6+1", Ability("SUSTAINED HITS", DiceExpr(1, 6, 1))),
        ("TORRENT", Ability("TORRENT")),
        ("TWIN-LINKED", Ability("TWIN-LINKED")),
        ("Twin linked", Ability("TWIN-LINKED")),
        ("ANTI-PSYKER 2+", Ability("ANTI", 2, ("PSYKER",))),
        ("ANTI-FLY 2+", Ability("ANTI", 2, ("FLY",))),
        ("ANTI-VEHICLE 4", Ability("ANTI", 4, ("VEHICLE",))),  # a missing "+" is tolerated
    ],
)
def test_24_each_weapon_ability(text, expected):
    assert W(f"[{text}]", "w") == (expected,)
    assert W(text.lower(), "w") == (expected,)
    assert expected.name in WEAPON_ABILITY_NAMES


def test_24_27_pistol_is_close_quarters():
    (pistol,) = W("[PISTOL]", "bolt pistol")
    (cq,) = W("[CLOSE-QUARTERS]", "bolt pistol")
    assert pistol.name == "CLOSE-QUARTERS" and pistol.printed == "PISTOL"
    assert pistol == cq and hash(pistol) == hash(cq)
    assert is_close_quarters((pistol,)) and is_close_quarters((cq,))
    assert not is_close_quarters(W("[ASSAULT, HEAVY]", "w"))
    assert has((pistol,), "PISTOL") and has((pistol,), "close-quarters")
    assert W("Pistol, Anti-vehicle 2+", "w") == W("[CLOSE-QUARTERS, ANTI-VEHICLE 2+]", "w")


def test_24_blast_plain_is_blast_1_and_fixed_dice_become_int():
    assert Ability("BLAST") == Ability("BLAST", 1) == W("[BLAST 1]", "w")[0]
    assert Ability("MELTA", DiceExpr(0, 0, 2)).value == 2
    assert isinstance(W("MELTA 2", "w")[0].value, int)


# --- ANTI ------------------------------------------------------------------------------------------


def test_24_03_anti_alternatives_split_on_slash():
    (a,) = W("[ANTI-MONSTER/VEHICLE 4+]", "w")
    assert a.keywords == ("MONSTER", "VEHICLE") and a.value == 4 and not a.negated
    assert a.anti_matches(frozenset({"VEHICLE"})) and a.anti_matches(frozenset({"MONSTER", "FLY"}))
    assert not a.anti_matches(frozenset({"INFANTRY"}))
    # printed order is kept for display, but it never makes two attacks differ
    (b,) = W("[ANTI-VEHICLE/MONSTER 4+]", "w")
    assert a == b and hash(a) == hash(b) and b.label() == "ANTI-VEHICLE/MONSTER 4+"


def test_24_03_anti_non_keyword():
    (a,) = W("[ANTI-non-MONSTER/VEHICLE 2+]", "w")
    assert a.negated and a.keywords == ("MONSTER", "VEHICLE") and a.value == 2
    assert a.anti_matches(frozenset({"INFANTRY"}))
    assert not a.anti_matches(frozenset({"INFANTRY", "VEHICLE"}))
    assert not a.anti_matches(frozenset({"MONSTER"}))
    assert a.label() == "ANTI-non-MONSTER/VEHICLE 2+"
    assert W("anti-non-vehicle 3+", "w") == (Ability("ANTI", 3, ("VEHICLE",), negated=True),)
    assert W("ANTI-NON - VEHICLE 3+", "w")[0].negated


def test_24_03_anti_multiword_keyword_is_one_keyword():
    (a,) = W("[ANTI-CHAOS SPACE MARINES 3+]", "w")
    assert a.keywords == ("CHAOS SPACE MARINES",) and a.value == 3
    assert a.label() == "ANTI-CHAOS SPACE MARINES 3+"
    assert a.anti_matches(frozenset({"CHAOS SPACE MARINES"}))
    # 02.05.01 adjacent keywords mean all of them
    assert a.anti_matches(frozenset({"CHAOS", "SPACE MARINES"}))
    assert a.anti_matches(frozenset({"chaos", "space", "marines"}))
    assert not a.anti_matches(frozenset({"CHAOS"}))
    assert not a.anti_matches(frozenset({"SPACE MARINES"}))
    (b,) = W("anti-adeptus astartes/t'au empire 4+", "w")
    assert b.keywords == ("ADEPTUS ASTARTES", "T'AU EMPIRE")


def test_02_05_01_keyword_does_not_match_longer_keyword():
    (a,) = W("[ANTI-COMMISSAR 2+]", "w")
    assert not a.anti_matches(frozenset({"COMMISSAR GRAVES"}))
    assert a.anti_matches(frozenset({"COMMISSAR", "COMMISSAR GRAVES"}))


def test_24_03_anti_matches_is_false_for_other_abilities():
    assert not Ability("LETHAL HITS").anti_matches(frozenset({"VEHICLE"}))


def test_19_03_anti_target_keywords_case_insensitive():
    (a,) = W("[ANTI-PSYKER 2+]", "w")
    assert a.anti_matches(["Infantry", "psyker"])


# --- 24.01 conditional forms -----------------------------------------------------------------------


def test_24_01_conditional_forms():
    a, b = W("[LETHAL HITS: VEHICLE, SUSTAINED HITS 1: INFANTRY/BEASTS]", "w")
    assert a == Ability("LETHAL HITS", condition=("VEHICLE",))
    assert b == Ability("SUSTAINED HITS", 1, condition=("INFANTRY", "BEASTS"))
    assert b.label() == "SUSTAINED HITS 1: INFANTRY/BEASTS"
    assert a.applies_to(frozenset({"VEHICLE", "WALKER"}))
    assert not a.applies_to(frozenset({"INFANTRY"}))
    assert b.applies_to(frozenset({"BEASTS"})) and b.applies_to(frozenset({"INFANTRY"}))
    assert not b.applies_to(frozenset({"MONSTER"}))
    assert Ability("HEAVY").applies_to(frozenset())


@pytest.mark.parametrize(
    "text",
    ["[ANTI-VEHICLE 4+: TITANIC]", "[TWIN-LINKED: MONSTER]", "[pistol: vehicle]", "[BLAST 2: INFANTRY]",
     "[lethal hits:vehicle]", "[DEVASTATING WOUNDS : CHARACTER]"],
)
def test_24_01_any_weapon_ability_can_be_conditional(text):
    (a,) = W(text, "w")
    assert len(a.condition) == 1
    assert W(a.label(), "w") == (a,)


def test_24_01_conditional_with_multiword_keyword():
    (a,) = W("[LETHAL HITS: ADEPTUS ASTARTES]", "w")
    assert a.condition == ("ADEPTUS ASTARTES",)
    assert a.applies_to({"ADEPTUS ASTARTES", "INFANTRY"}) and not a.applies_to({"ASTARTES"})


# --- helpers ---------------------------------------------------------------------------------------


def test_24_01_has_and_get_consider_condition():
    abilities = W("[LETHAL HITS: VEHICLE, SUSTAINED HITS 1, ANTI-INFANTRY 4+]", "w")
    assert has(abilities, "LETHAL HITS")
    assert has(abilities, "lethal hits", frozenset({"VEHICLE"}))
    assert not has(abilities, "LETHAL HITS", frozenset({"INFANTRY"}))
    assert get(abilities, "SUSTAINED HITS", frozenset({"INFANTRY"})).value == 1
    assert get(abilities, "TORRENT") is None
    # the ANTI keyword is anti_matches' business, not the 24.01 condition's
    assert has(abilities, "ANTI", frozenset({"VEHICLE"}))


def test_24_01_get_returns_first_applicable():
    abilities = W("[SUSTAINED HITS 2: VEHICLE, SUSTAINED HITS 1]", "w")
    assert get(abilities, "SUSTAINED HITS").value == 2
    assert get(abilities, "SUSTAINED HITS", {"INFANTRY"}).value == 1
    assert get(abilities, "SUSTAINED HITS", {"VEHICLE"}).value == 2


# --- 24.02 duplicates ------------------------------------------------------------------------------


def test_24_02_duplicates_kept_and_grouped():
    abilities = W("[ANTI-VEHICLE 4+, SUSTAINED HITS 1, ANTI-INFANTRY 2+, HEAVY, SUSTAINED HITS 2, PISTOL]", "w")
    assert len(abilities) == 6
    dup = duplicates(abilities)
    assert list(dup) == ["ANTI", "SUSTAINED HITS"]
    assert [a.label() for a in dup["ANTI"]] == ["ANTI-VEHICLE 4+", "ANTI-INFANTRY 2+"]
    assert [a.value for a in dup["SUSTAINED HITS"]] == [1, 2]
    assert duplicates(W("[HEAVY, PRECISION]", "w")) == {}


def test_24_02_identical_and_conditional_copies_are_duplicates():
    assert list(duplicates(W("[HEAVY, HEAVY]", "w"))) == ["HEAVY"]
    assert list(duplicates(W("[LETHAL HITS: VEHICLE, LETHAL HITS]", "w"))) == ["LETHAL HITS"]
    assert list(duplicates(W("[PISTOL, CLOSE-QUARTERS]", "w"))) == ["CLOSE-QUARTERS"]


def test_24_02_unit_duplicates():
    dup = duplicates(parse_unit_abilities("Feel No Pain 5+, Feel No Pain 6+, Stealth", "u"))
    assert [a.value for a in dup["FEEL NO PAIN"]] == [5, 6]


# --- unit abilities --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Feel No Pain 5+", Ability("FEEL NO PAIN", 5)),
        ("FEEL NO PAIN 6+", Ability("FEEL NO PAIN", 6)),
        ("feel no pain 4", Ability("FEEL NO PAIN", 4)),
        ("Stealth", Ability("STEALTH")),
        ("Lone Operative", Ability("LONE OPERATIVE", 12)),
        ('Lone Operative 15"', Ability("LONE OPERATIVE", 15)),
        ("Lone Operative 15", Ability("LONE OPERATIVE", 15)),
        ("lone operative 18 inches", Ability("LONE OPERATIVE", 18)),
        ("Lone Operative 15\u201d", Ability("LONE OPERATIVE", 15)),
        ("Damaged 4", Ability("DAMAGED", 4)),
        ("Damaged: 1-4 wounds remaining", Ability("DAMAGED", 4)),
        ("DAMAGED: 1-5 WOUNDS REMAINING", Ability("DAMAGED", 5)),
        ("damaged 1-3", Ability("DAMAGED", 3)),
        ("Fights First", Ability("FIGHTS FIRST")),
        ("Deadly Demise D3", Ability("DEADLY DEMISE", DiceExpr(1, 3, 0))),
        ("Deadly Demise 1", Ability("DEADLY DEMISE", 1)),
        ("deadly demise d6", Ability("DEADLY DEMISE", DiceExpr(1, 6, 0))),
    ],
)
def test_24_each_unit_ability(text, expected):
    assert parse_unit_abilities(text, "u") == (expected,)
    assert parse_unit_abilities([f"  {text.upper()} "], "u") == (expected,)
    assert expected.name in UNIT_ABILITY_NAMES
    assert parse_unit_abilities(expected.label(), "u") == (expected,)


def test_24_unit_abilities_as_list_or_text():
    expected = (Ability("STEALTH"), Ability("LONE OPERATIVE", 12), Ability("FEEL NO PAIN", 5))
    assert parse_unit_abilities(["Stealth", "Lone Operative", "Feel No Pain 5+"], "u") == expected
    assert parse_unit_abilities("Stealth, Lone Operative, Feel No Pain 5+", "u") == expected
    assert parse_unit_abilities("-", "u") == () == parse_unit_abilities([], "u")


def test_24_24_lone_operative_label():
    assert Ability("LONE OPERATIVE").label() == "LONE OPERATIVE"
    assert Ability("LONE OPERATIVE", 15).label() == 'LONE OPERATIVE 15"'


# --- errors ----------------------------------------------------------------------------------------


def weapon_error(text, weapon="plasma gun") -> AbilityError:
    with pytest.raises(AbilityError) as info:
        W(text, weapon)
    err = info.value
    assert err.weapon == weapon
    assert str(err).startswith(f'weapon "{weapon}": ')
    assert err.token in str(err)
    assert isinstance(err, ValueError)
    return err


def test_24_error_unknown_ability_suggests_closest():
    err = weapon_error("[HAZARDUS]")
    assert err.token == "HAZARDUS"
    assert str(err) == 'weapon "plasma gun": unknown ability "HAZARDUS" (did you mean "HAZARDOUS"?)'
    assert '"SUSTAINED HITS"' in str(weapon_error("[SUSTAINED HITZ 2]"))
    assert '"LETHAL HITS"' in str(weapon_error("lethal hit, heavy"))


def test_24_error_unknown_ability_without_close_match_lists_names():
    err = weapon_error("[HEAVY, xyzzy]")
    assert err.token == "xyzzy" and "expected one of" in err.message and "TWIN-LINKED" in err.message


@pytest.mark.parametrize(
    "text, token, fragment",
    [
        ("[ANTI-VEHICLE, PRECISION]", "ANTI-VEHICLE", "threshold"),
        ("[ANTI-VEHICLE 7+]", "ANTI-VEHICLE 7+", "2+ to 6+"),
        ("[ANTI-VEHICLE 1+]", "ANTI-VEHICLE 1+", "2+ to 6+"),
        ("[ANTI- 4+]", "ANTI- 4+", "empty"),
        ("[ANTI-VEHICLE/ 4+]", "ANTI-VEHICLE/ 4+", "empty keyword"),
        ("[ANTI]", "ANTI", "threshold"),
        ("[ANTI-VEHICLE 4+ PRECISION]", "ANTI-VEHICLE 4+ PRECISION", "threshold"),
        ("[SUSTAINED HITS]", "SUSTAINED HITS", "needs a value"),
        ("[SUSTAINED HITS X]", "SUSTAINED HITS X", '"X"'),
        ("[SUSTAINED HITS 1 LETHAL HITS]", "SUSTAINED HITS 1 LETHAL HITS", "missing a comma"),
        ("[SUSTAINED HITS 0]", "SUSTAINED HITS 0", "at least 1"),
        ("[RAPID FIRE]", "RAPID FIRE", "needs a value"),
        ("[MELTA]", "MELTA", "needs a value"),
        ("[MELTA D3]", "MELTA D3", "whole number"),
        ("[CLEAVE two]", "CLEAVE two", "whole number"),
        ("[BLAST 0]", "BLAST 0", "at least 1"),
        ("[HEAVY 2]", "HEAVY 2", "takes no value"),
        ("[LETHAL HITS:]", "LETHAL HITS:", "empty condition"),
        ("[LETHAL HITS: VEHICLE/]", "LETHAL HITS: VEHICLE/", "empty keyword"),
        ("[LETHAL HITS: 4+]", "LETHAL HITS: 4+", "not a keyword"),
        ("[Feel No Pain 5+]", "Feel No Pain 5+", "unit ability"),
        ("[Stealth]", "Stealth", "unit ability"),
    ],
)
def test_24_error_malformed(text, token, fragment):
    err = weapon_error(text)
    assert err.token == token
    assert fragment in err.message


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[BLAST, HEAVY", "never closed"),
        ("BLAST, HEAVY]", "without a matching"),
        ("[BLAST, [HEAVY]]", "inside another"),
        ("[BLAST]]", "without a matching"),
    ],
)
def test_24_error_unbalanced_brackets(text, fragment):
    err = weapon_error(text, weapon="frag cannon")
    assert err.token == text and fragment in err.message and "unbalanced" in err.message


def test_24_error_not_text():
    err = weapon_error(42)
    assert "42" in err.message


@pytest.mark.parametrize(
    "text, token, fragment",
    [
        ("Stealh", "Stealh", 'did you mean "STEALTH"'),
        ("Feel No Pain", "Feel No Pain", '"5+"'),
        ("Feel No Pain 7+", "Feel No Pain 7+", "2+ to 6+"),
        ("Feel No Pain 1+", "Feel No Pain 1+", "2+ to 6+"),
        ("Feel No Pain five", "Feel No Pain five", '"5+"'),
        ("Lone Operative 0", "Lone Operative 0", "distance"),
        ("Lone Operative far", "Lone Operative far", "distance"),
        ("Damaged", "Damaged", "DAMAGED needs"),
        ("Damaged 0", "Damaged 0", "DAMAGED needs"),
        ("Damaged: 2-4 wounds remaining", "Damaged: 2-4 wounds remaining", "DAMAGED needs"),
        ("Deadly Demise", "Deadly Demise", "needs a value"),
        ("Deadly Demise lots", "Deadly Demise lots", "dice like D3"),
        ("Stealth 2", "Stealth 2", "takes no value"),
        ("Lethal Hits", "Lethal Hits", "weapon ability"),
        ("Anti-vehicle 4+", "Anti-vehicle 4+", "weapon ability"),
        ("[Stealth", "[Stealth", "never closed"),
    ],
)
def test_24_unit_ability_errors(text, token, fragment):
    where = "armies[0].units[2].abilities"
    with pytest.raises(AbilityError) as info:
        parse_unit_abilities(text, where)
    err = info.value
    assert err.weapon == where == err.where and err.token == token
    assert fragment in err.message
    assert str(err) == f"{where}: {err.message}"


def test_24_ability_constructor_rejects_unknown_name():
    with pytest.raises(ValueError):
        Ability("LETHAL HIT")


# --- help ------------------------------------------------------------------------------------------


def test_24_help_covers_every_ability():
    assert set(ABILITY_HELP) == set(WEAPON_ABILITY_NAMES) | set(UNIT_ABILITY_NAMES)
    for name, (section, text) in ABILITY_HELP.items():
        assert (section.startswith("24.") or text.startswith("(A project ability.)")) and len(text) > 20, name


# --- round trip property ---------------------------------------------------------------------------

_KEYWORDS = st.one_of(
    st.sampled_from(["VEHICLE", "MONSTER", "INFANTRY", "PSYKER", "FLY", "CHAOS SPACE MARINES",
                     "ADEPTUS ASTARTES", "T'AU EMPIRE", "CHARACTER", "TITANIC", "BEASTS"]),
    st.from_regex(r"[A-Z][A-Z']{0,7}( [A-Z]{1,7}){0,2}", fullmatch=True).filter(lambda k: not k.startswith("NON")),
)
_KW_TUPLE = st.lists(_KEYWORDS, min_size=1, max_size=3, unique=True).map(tuple)
_CONDITION = st.one_of(st.just(()), _KW_TUPLE)
_INT = st.integers(min_value=1, max_value=12)
_DICE = st.one_of(_INT, st.builds(DiceExpr, st.integers(1, 3), st.sampled_from([3, 6]), st.integers(0, 3)))
_PLAIN = ["ASSAULT", "CLOSE-QUARTERS", "DEVASTATING WOUNDS", "EXTRA ATTACKS", "HAZARDOUS", "HEAVY",
          "IGNORES COVER", "INDIRECT FIRE", "LANCE", "LETHAL HITS", "ONE SHOT", "PRECISION", "PSYCHIC",
          "TORRENT", "TWIN-LINKED"]

_WEAPON_ABILITY = st.one_of(
    st.builds(Ability, st.sampled_from(_PLAIN), condition=_CONDITION),
    st.builds(Ability, st.sampled_from(["BLAST", "CLEAVE", "MELTA"]), _INT, condition=_CONDITION),
    st.builds(Ability, st.sampled_from(["RAPID FIRE", "SUSTAINED HITS"]), _DICE, condition=_CONDITION),
    st.builds(Ability, st.just("ANTI"), st.integers(2, 6), _KW_TUPLE, st.booleans(), _CONDITION),
)

_UNIT_ABILITY = st.one_of(
    st.builds(Ability, st.sampled_from(["STEALTH", "FIGHTS FIRST"])),
    st.builds(Ability, st.just("FEEL NO PAIN"), st.integers(2, 6)),
    st.builds(Ability, st.just("LONE OPERATIVE"), st.integers(1, 40)),
    st.builds(Ability, st.just("DAMAGED"), _INT),
    st.builds(Ability, st.just("DEADLY DEMISE"), _DICE),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WEAPON_ABILITY, max_size=6).map(tuple))
def test_24_weapon_round_trip(abilities):
    text = "[" + ", ".join(a.label() for a in abilities) + "]"
    assert parse_weapon_abilities(text, "w") == abilities
    assert parse_weapon_abilities(text.lower(), "w") == abilities
    # Wahapedia style (no brackets) and one bracket group per ability
    assert parse_weapon_abilities(", ".join(a.label().lower() for a in abilities), "w") == abilities
    assert parse_weapon_abilities(", ".join(f"[{a.label()}]" for a in abilities), "w") == abilities
    for a, b in zip(parse_weapon_abilities(text, "w"), abilities):
        assert a.label() == b.label()


@settings(max_examples=200, deadline=None)
@given(st.lists(_UNIT_ABILITY, max_size=5).map(tuple))
def test_24_unit_round_trip(abilities):
    assert parse_unit_abilities([a.label() for a in abilities], "u") == abilities
    assert parse_unit_abilities(", ".join(a.label().lower() for a in abilities), "u") == abilities
