"""02.02.01 Modifiers a scenario gives a unit or model (sim.rules.modifiers): which an attack
takes and in which list (hit roll, BS/WS characteristic, wound roll), which a saving throw
takes, and the save check with a save-roll modifier (05.04 step 2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.rules.attack import save_fails, saved_by_invulnerable
from sim.rules.modifiers import RollModifier, applies, attack_modifiers, save_modifier
from sim.rules.sequence import save_faces

HIT = RollModifier("hit", 1, "Spotter")
WOUND = RollModifier("wound", -1, "Blunted")
BS = RollModifier("BS", 1, "Scope")
WS = RollModifier("WS", -1, "Tired")
SAVE = RollModifier("save", 1, "Smoke")


def test_02_02_01_attack_takes_hit_wound_and_its_own_skill_modifiers():
    mods = (HIT, WOUND, BS, WS, SAVE)
    assert attack_modifiers(mods, False, "mob") == ((("Spotter", 1),), (("Scope", 1),), (("Blunted", -1),))
    assert attack_modifiers(mods, True, "mob") == ((("Spotter", 1),), (("Tired", -1),), (("Blunted", -1),))


def test_02_02_01_against_melee_ranged_or_a_unit():
    melee = RollModifier("hit", 1, "Brawler", "melee")
    ranged = RollModifier("hit", 1, "Marksman", "ranged")
    hunter = RollModifier("wound", 1, "Hunter", "tank")
    assert applies(melee, True, "x") and not applies(melee, False, "x")
    assert applies(ranged, False, "x") and not applies(ranged, True, "x")
    assert applies(hunter, True, "tank") and not applies(hunter, False, "mob")
    assert attack_modifiers((melee, ranged, hunter), False, "tank") == ((("Marksman", 1),), (), (("Hunter", 1),))


def test_02_02_01_save_modifiers_add_up_unclamped():
    mods = (SAVE, RollModifier("save", 1, "Shield"), RollModifier("save", -1, "Exposed", "melee"), HIT)
    assert save_modifier(mods, False, "sq") == 2
    assert save_modifier(mods, True, "sq") == 1
    assert save_modifier((HIT, BS), False, "sq") == 0


def test_05_04_save_modifier_changes_the_result_not_an_unmodified_one():
    # Sv 4+: +1 saves a 3, never a 1; -1 fails a 4
    assert save_fails(3, 0, 4, None, 1) is False
    assert save_fails(1, 0, 4, None, 5) is True
    assert save_fails(4, 0, 4, None, -1) is True
    # the invulnerable row compares the modified result without AP
    assert save_fails(4, -3, 4, 5, 1) is False and saved_by_invulnerable(4, -3, 4, 5, 1) is True
    assert save_fails(5, -3, 4, 5, -1) is True


@given(st.integers(-3, 3), st.integers(-4, 0), st.integers(2, 7), st.sampled_from([None, 3, 4, 5, 6]))
def test_05_04_save_faces_with_a_modifier_are_the_save_rows(mod, AP, Sv, InSv):
    table = save_faces(AP, Sv, InSv, mod)
    for face in range(1, 7):
        assert table[face] == (save_fails(face, AP, Sv, InSv, mod), saved_by_invulnerable(face, AP, Sv, InSv, mod))
