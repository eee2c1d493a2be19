"""04.01.03 Multi-profile weapons (sim.rules.multi_profile): a model picks at most one profile of
each multi-profile weapon it carries (one per copy); the default pick is the first profile
listed; a chooser is asked once per weapon; a weapon with one profile is never this rule's."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules import multi_profile as MP
from sim.rules.dice import DiceExpr
from sim.rules.profiles import WeaponProfile


def prof(name, weapon="", range_=24, S=4):
    return WeaponProfile(name, range_, DiceExpr(0, 0, 1), 3, S, 0, DiceExpr(0, 0, 1), weapon=weapon)


STD = prof("plasma - standard", "plasma", S=7)
SUP = prof("plasma - supercharge", "plasma", S=8)
BOLT = prof("bolt pistol", S=4)
STRIKE = prof("fist - strike", "fist", None, 8)
SWEEP = prof("fist - sweep", "fist", None, 5)


def test_04_01_03_weapon_name_is_its_multi_profile_weapon_or_itself():
    assert MP.weapon_name(STD) == "plasma" and MP.weapon_name(BOLT) == "bolt pistol"


def test_04_01_03_one_profile_of_a_weapon_is_allowed():
    loadout = (STD, SUP, BOLT)
    assert MP.profile_choice_problem(loadout, ["plasma - standard"]) is None
    assert MP.profile_choice_problem(loadout, ["plasma - supercharge", "bolt pistol"]) is None


def test_04_01_03_two_profiles_of_one_weapon_are_refused_naming_the_rule():
    problem = MP.profile_choice_problem((STD, SUP, BOLT), ["plasma - standard", "plasma - supercharge"])
    assert problem is not None and "04.01.03" in problem and "plasma" in problem
    assert "plasma - standard" in problem and "plasma - supercharge" in problem


def test_04_01_03_two_copies_allow_a_profile_each():
    loadout = (STD, SUP, STD, SUP)
    assert MP.copies(loadout, "plasma") == 2
    assert MP.profile_choice_problem(loadout, ["plasma - standard", "plasma - supercharge"]) is None
    assert MP.profile_choice_problem(loadout, ["plasma - standard", "plasma - standard"]) is None
    problem = MP.profile_choice_problem(loadout, ["plasma - standard"] * 2 + ["plasma - supercharge"])
    assert "04.01.03" in problem and "2 profiles" in problem


def test_04_01_03_names_of_single_profile_weapons_are_not_judged_here():
    # (carrying it twice or not at all is count_check's and find_weapon's question)
    assert MP.profile_choice_problem((BOLT,), ["bolt pistol", "bolt pistol"]) is None
    assert MP.profile_choice_problem((BOLT,), ["no such gun"]) is None


def test_04_01_03_default_profiles_keep_the_first_profile_per_copy():
    assert MP.default_profiles((STD, SUP, BOLT)) == [STD, BOLT]
    assert MP.default_profiles((BOLT, SUP, STD, SUP, STD)) == [BOLT, SUP, SUP]
    assert MP.default_profiles((STD, BOLT, STD, SUP)) == [STD, STD, BOLT]  # (at its first place)
    assert MP.default_profiles((STRIKE, SWEEP)) == [STRIKE]
    assert MP.default_profiles((BOLT, BOLT)) == [BOLT, BOLT]


def test_04_01_03_pick_profiles_asks_once_per_weapon_in_first_carried_order():
    asked = []

    def last(profiles):
        asked.append([p.name for p in profiles])
        return profiles[-1]
    out = MP.pick_profiles((STRIKE, STD, SWEEP, SUP, STD, SUP, BOLT), last)
    assert out == [SWEEP, SUP, SUP, BOLT]
    assert asked == [["fist - strike", "fist - sweep"], ["plasma - standard", "plasma - supercharge"]]
    assert MP.pick_profiles((BOLT,), last) == [BOLT] and len(asked) == 2  # (not asked: one profile)


LOADOUTS = st.lists(st.sampled_from([STD, SUP, BOLT, STRIKE, SWEEP]), max_size=8)


@given(LOADOUTS, st.integers(0, 3))
def test_04_01_03_a_default_or_picked_loadout_is_always_a_legal_choice(loadout, k):
    # whatever the model carries, what the default and a chooser select is never refused
    assert MP.profile_choice_problem(loadout, [p.name for p in MP.default_profiles(loadout)]) is None
    picked = MP.pick_profiles(loadout, lambda ps: ps[k % len(ps)])
    assert MP.profile_choice_problem(loadout, [p.name for p in picked]) is None
    # and it keeps every weapon with one profile, and one profile per copy of the others
    assert [p for p in picked if not p.weapon] == [p for p in loadout if not p.weapon]
    for w in {p.weapon for p in loadout if p.weapon}:
        assert sum(1 for p in picked if p.weapon == w) == MP.copies(loadout, w)
