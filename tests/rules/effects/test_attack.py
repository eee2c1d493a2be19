"""sim.rules.effects.attack (pure): what an attack takes from the effects acting on its model
(02.02.01 modifiers and characteristics with their caps, 01.05.02 re-rolls as the registry's
re-roll abilities, 24 conferred abilities) and what a target's model takes (save, T, Damage
taken, the best Feel No Pain and invulnerable save). Tests named after the functions."""

from __future__ import annotations

import pytest

from sim.rules.abilities import parse_weapon_abilities
from sim.rules.dice import DiceExpr, parse_dice_expr
from sim.rules.effects import vocabulary as V
from sim.rules.effects.attack import (Acted, AttackTakes, attack_takes, best_roll, damage_after, target_takes,
                                      toughness_with, weapon_taking)
from sim.rules.profiles import WeaponProfile


def mod(stat, value, source="R"):
    return Acted(source, V.Effect(V.MODIFY, stat, value))


def reroll(stat, which, source="R"):
    return Acted(source, V.Effect(V.REROLL, stat, which=which))


def gun(A="1", S=4, AP=0, D="1", abilities=""):
    return WeaponProfile("gun", 24, parse_dice_expr(A), 3, S, AP, parse_dice_expr(D),
                         parse_weapon_abilities(abilities, "gun"), abilities)


def test_attack_takes_puts_each_modifier_in_its_list_with_its_source():
    t = attack_takes([mod("hit", 1, "A"), mod("wound", -1, "B"), mod("BS", 1, "C"), mod("WS", 1, "D")], melee=False)
    assert (t.hit_mods, t.wound_mods, t.skill_mods) == ((("A", 1),), (("B", -1),), (("C", 1),))
    t = attack_takes([mod("BS", 1, "C"), mod("WS", -1, "D")], melee=True)
    assert t.skill_mods == (("D", -1),)
    assert t.labels == (("D", "-1 to WS"),)  # (BS does nothing for a melee attack: no label)


def test_attack_takes_nets_characteristics_and_ignores_what_is_not_the_attacks():
    t = attack_takes([mod("S", 1), mod("S", 1), mod("AP", 1), mod("D", 1), mod("A", 2), mod("Ld", 1),
                      mod("save", 1)], melee=True)
    assert (t.A, t.S, t.AP, t.D) == (2, 2, 1, 1) and len(t.labels) == 5
    assert attack_takes([mod("Ld", 1), mod("save", 1), Acted("X", V.Effect(V.FEEL_NO_PAIN, value=5))],
                        melee=False) is None


@pytest.mark.parametrize("rolls, abilities", [
    ([reroll("hit", V.ONES)], ("REROLL HITS 1",)),
    ([reroll("hit", V.FAILED)], ("REROLL HITS",)),
    ([reroll("hit", V.ANY)], ("REROLL HITS",)),  # (the attacker re-rolls the failed ones)
    ([reroll("hit", V.ONES), reroll("hit", V.FAILED)], ("REROLL HITS",)),  # (one re-roll per die)
    ([reroll("wound", V.ONES)], ("REROLL WOUNDS 1",)),
    ([reroll("wound", V.ANY), reroll("hit", V.ONES)], ("REROLL HITS 1", "REROLL WOUNDS")),
    ([reroll("save", V.ONES)], None),  # (a save re-roll is not the attack's)
])
def test_attack_takes_rerolls_as_the_registry_abilities(rolls, abilities):
    t = attack_takes(rolls, melee=False)
    assert (t.abilities if t else None) == abilities


def test_attack_takes_confers_abilities_as_printed_once():
    t = attack_takes([Acted("A", V.Effect(V.WEAPON_ABILITY, ability="lethal hits")),
                      Acted("B", V.Effect(V.WEAPON_ABILITY, ability="LETHAL HITS"))], melee=False)
    assert t.abilities == ("LETHAL HITS",) and t.labels == (("A", "its weapons gain [LETHAL HITS]"),
                                                           ("B", "its weapons gain [LETHAL HITS]"))


def test_weapon_taking_changes_characteristics_with_their_caps():
    w = gun(A="2", S=4, AP=-1, D="1")
    assert weapon_taking(w, AttackTakes(A=1, S=1, AP=1, D=1)) == gun(A="3", S=5, AP=-2, D="2")
    assert weapon_taking(w, AttackTakes(A=-5, S=-9, AP=-3, D=-2)) == gun(A="1", S=1, AP=0, D="1")
    r = gun(A="D6", D="D3")
    assert weapon_taking(r, AttackTakes(A=1, D=1)) == gun(A="D6+1", D="D3+1")
    assert weapon_taking(r, AttackTakes(D=-1)).D == DiceExpr(1, 3, -1)  # (rolls 1, 1, 2: DiceExpr.value)


def test_weapon_taking_adds_conferred_abilities_once_and_caches():
    w = gun(abilities="[LETHAL HITS]")
    t = AttackTakes(abilities=("LETHAL HITS", "SUSTAINED HITS 1", "REROLL HITS"))
    got = weapon_taking(w, t)
    assert [a.label() for a in got.abilities] == ["LETHAL HITS", "SUSTAINED HITS 1", "REROLL HITS"]
    assert weapon_taking(w, t) is got and weapon_taking(w, AttackTakes()) is w
    assert got.name == w.name and "SUSTAINED HITS 1" in got.abilities_text


def test_target_takes_nets_modifiers_and_keeps_the_best_roll():
    fnp = [Acted("A", V.Effect(V.FEEL_NO_PAIN, value=6)), Acted("B", V.Effect(V.FEEL_NO_PAIN, value=5))]
    t = target_takes([mod("save", 1, "S"), mod("T", 1), mod("T", 1), mod("damage taken", -1, "D"), *fnp,
                      Acted("I", V.Effect(V.INVULNERABLE, value=4)), mod("hit", 1)])
    assert (t.save, t.T, t.taken, t.fnp, t.invuln) == (1, 2, -1, 5, 4)
    assert ("D", "-1 to the Damage of attacks allocated to it (never below 1)") in t.sources
    assert target_takes([mod("hit", 1), mod("A", 1)]) is None


@pytest.mark.parametrize("own, granted, best", [(None, 5, 5), (4, None, 4), (4, 5, 4), (6, 5, 5), (None, None, None)])
def test_best_roll(own, granted, best):
    assert best_roll(own, granted) == best


def test_toughness_with():
    assert (toughness_with(4, 1), toughness_with(4, -2), toughness_with(2, -5)) == (5, 2, 1)


def test_damage_after():
    assert (damage_after(2, -1), damage_after(1, -1), damage_after(3, -5), damage_after(2, 1)) == (1, 1, 1, 3)


def test_target_takes_a_save_reroll_failed_over_ones():
    assert target_takes([reroll("save", V.ONES)]).save_reroll == V.ONES
    assert target_takes([reroll("save", V.ONES), reroll("save", V.ANY)]).save_reroll == V.FAILED
    assert target_takes([reroll("save", V.FAILED), reroll("save", V.ONES)]).save_reroll == V.FAILED


def _fails(Sv):
    return (False,) + tuple(f == 1 or f < Sv for f in range(1, 7))


def test_save_reroll_faces():
    from sim.rules.effects.attack import save_reroll_faces
    assert save_reroll_faces([(V.FAILED, _fails(4))]) == {1, 2, 3}
    assert save_reroll_faces([(V.ONES, _fails(4))]) == {1}
    # models that save differently: only the faces failing on every one of them
    assert save_reroll_faces([(V.FAILED, _fails(3)), (V.FAILED, _fails(5))]) == {1, 2}
    # a living model without the re-roll: none (the die may go to it)
    assert save_reroll_faces([(V.FAILED, _fails(3)), ("", _fails(3))]) == frozenset()
    assert save_reroll_faces([]) == frozenset()
