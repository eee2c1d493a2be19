"""02.02.01 Modifiers: hit/wound net modifier clamped to +-1, BS/WS clamped 2+..6+, AP never
positive; unmodified 1 fails and unmodified 6 is critical whatever the modifiers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.attack import (CRITICAL, FAIL, SUCCESS, clamp_ap, clamp_roll_modifier, clamp_skill,
                              hit_result, wound_result)
from sim.rules.pools import effective_key
from sim.rules.dice import DiceExpr


@pytest.mark.parametrize("net,clamped", [(-5, -1), (-3, -1), (-2, -1), (-1, -1), (0, 0),
                                         (1, 1), (2, 1), (3, 1)])
def test_02_02_01_net_roll_modifier_clamp(net, clamped):
    assert clamp_roll_modifier(net) == clamped


@pytest.mark.parametrize("skill,clamped", [(0, 2), (1, 2), (2, 2), (3, 3), (6, 6), (7, 6), (9, 6)])
def test_02_02_01_skill_clamp_2_to_6(skill, clamped):
    assert clamp_skill(skill) == clamped


@pytest.mark.parametrize("ap,clamped", [(-3, -3), (-1, -1), (0, 0), (1, 0), (2, 0)])
def test_02_02_01_ap_never_positive(ap, clamped):
    assert clamp_ap(ap) == clamped


def test_02_02_01_plus_two_to_hit_is_plus_one():
    # BS 4+: a 2 with +2 would be 4 (hit); clamped +1 makes it 3: fail.
    assert hit_result(2, 4, +2) == FAIL
    assert hit_result(3, 4, +2) == SUCCESS


def test_02_02_01_minus_three_to_hit_is_minus_one():
    # BS 3+: a 5 with -3 would be 2 (fail); clamped -1 makes it 4: hit.
    assert hit_result(5, 3, -3) == SUCCESS
    assert hit_result(3, 3, -3) == FAIL


def test_02_02_01_wound_modifier_clamp():
    # S4 T4 needs 4+: a 2 with +3 -> 3 fails; a 3 with +3 -> 4 wounds; a 5 with -2 -> 4 wounds.
    assert wound_result(2, 4, 4, +3) == FAIL
    assert wound_result(3, 4, 4, +3) == SUCCESS
    assert wound_result(5, 4, 4, -2) == SUCCESS
    assert wound_result(4, 4, 4, -2) == FAIL


@given(st.integers(-10, 10), st.integers(2, 6))
def test_02_02_01_unmodified_one_fails_and_six_is_critical(mod, skill):
    assert hit_result(1, skill, mod) == FAIL
    assert hit_result(6, skill, mod) == CRITICAL
    assert wound_result(1, 1, 10, mod) == FAIL
    assert wound_result(1, 20, 1, mod) == FAIL  # even S >= 2T with +1
    assert wound_result(6, 1, 10, mod) == CRITICAL  # even S <= T/2 with -1


def test_02_02_01_bs_modifiers_are_characteristic_changes_clamped_2_to_6():
    """Benefit of cover worsens BS by 1 (6+ stays 6+, 2+ becomes 3+); plunging fire +1 BS on 2+
    stays 2+. These are not hit-roll modifiers: the hit modifier stays 0."""
    D1 = DiceExpr(0, 0, 1)
    cover = (("benefit of cover (13.08)", -1),)
    plunge = (("plunging fire (22.05)", +1),)
    assert effective_key(6, cover, 4, 0, D1, (), ()).skill == 6
    assert effective_key(2, cover, 4, 0, D1, (), ()).skill == 3
    assert effective_key(3, cover, 4, 0, D1, (), ()).skill == 4
    assert effective_key(2, plunge, 4, 0, D1, (), ()).skill == 2
    assert effective_key(4, plunge, 4, 0, D1, (), ()).skill == 3
    assert effective_key(3, cover, 4, 0, D1, (), ()).hit_mod == 0


def test_02_02_01_effective_key_clamps_hit_and_wound_modifiers():
    D1 = DiceExpr(0, 0, 1)
    k = effective_key(3, (), 4, 0, D1, (), (("a", -1), ("b", -1), ("c", -1)), (("x", 1), ("y", 1)))
    assert (k.hit_mod, k.wound_mod) == (-1, 1)
    k = effective_key(3, (), 4, 0, D1, (), (("heavy", +1), ("cq", -1), ("17.03", -1)))
    assert k.hit_mod == -1


def test_24_29_psychic_ignores_only_named_bs_and_hit_modifiers_never_wound_modifiers():
    D1 = DiceExpr(0, 0, 1)
    skill_mods = (("cover", -1),)
    hit_mods = (("heavy", +1), ("17.03", -1), ("cq", -1))
    wound_mods = (("lance", +1),)
    k = effective_key(3, skill_mods, 4, 0, D1, (), hit_mods, wound_mods, ignored=("cover", "17.03", "lance"))
    # cover ignored: BS3; hit +1 -1 = 0; wound +1 kept although named
    assert (k.skill, k.hit_mod, k.wound_mod) == (3, 0, 1)
    k = effective_key(3, skill_mods, 4, 0, D1, (), hit_mods, wound_mods, ignored=("cover", "17.03", "cq"))
    assert (k.skill, k.hit_mod) == (3, 1)
    assert k != effective_key(3, (), 4, 0, D1, (), (("heavy", +1),), wound_mods)  # ignored sources are part of the key
