"""15.09 Snap shooting, the pure rules: a shooting type only a rule grants (and then the only
one the unit has), one visible enemy unit within 24" of the unit, an eligible target (17.03 is
for the Shooting phase only), and the hit roll: only an unmodified 6 hits, BS and every modifier
ignored, and that hit is not critical ([LETHAL HITS], [SUSTAINED HITS] never trigger)."""

from __future__ import annotations

import pytest

from sim.rules.attack import FAIL, SUCCESS
from sim.rules.dice import ForcedDice, parse_dice_expr
from sim.rules.pools import effective_key
from sim.rules.sequence import PoolState, roll_hits
from sim.rules.shooting import (NORMAL, SHOOTING_TYPES, SNAP, RangedTargetFacts, ShooterFacts,
                                default_shooting_type, ranged_target_problem, shooting_type_eligibility,
                                snap_hit_result, snap_target_problem)

D1 = parse_dice_expr(1)


def pool(n, skill=3, **kw):
    return PoolState(dice=n, skill=skill, S=4, AP=0, D=D1, T=4, snap=True, **kw)


# --- the hit roll -----------------------------------------------------------------------------

@pytest.mark.parametrize("face,expected", [(1, FAIL), (2, FAIL), (3, FAIL), (4, FAIL), (5, FAIL), (6, SUCCESS)])
def test_15_09_only_an_unmodified_six_hits(face, expected):
    assert snap_hit_result(face) == expected


def test_15_09_bs_and_modifiers_are_ignored():
    # BS 2+ with +1 to hit would hit on 2-6; under snap shooting only the 6 does
    p = pool(6, skill=2, hit_mod=1)
    rec = roll_hits(p, ForcedDice([1, 2, 3, 4, 5, 6]))
    assert p.hits == 1 and rec["snap"] is True
    # BS 6+ with -1 (and a 10.07 threshold) changes nothing either: the 6 still hits
    p = pool(2, skill=6, hit_mod=-1, hit_fail_below=6)
    roll_hits(p, ForcedDice([6, 5]))
    assert p.hits == 1


def test_15_09_the_six_is_not_a_critical_hit_for_lethal_or_sustained_hits():
    p = pool(3, lethal=True, sustained=2)
    rec = roll_hits(p, ForcedDice([6, 6, 5]))
    assert rec["criticals"] == 0 and rec["sustained"] == 0 and p.auto_wounds == 0 and p.hits == 2


def test_15_09_without_snap_the_same_pool_hits_and_crits_normally():
    p = PoolState(dice=3, skill=3, S=4, AP=0, D=D1, T=4, lethal=True, sustained=2)
    rec = roll_hits(p, ForcedDice([6, 6, 5]))
    assert rec["criticals"] == 2 and p.auto_wounds == 2 and p.hits == 1 + 4  # the 5, +2+2 sustained
    assert "snap" not in rec


def test_15_09_torrent_makes_no_hit_roll_and_hits_automatically():
    # our ruling (README): 15.09 is about hit rolls, and a [TORRENT] attack makes none (24.37)
    p = pool(3, torrent=True)
    rec = roll_hits(p, ForcedDice([]))
    assert p.hits == 3 and rec["auto"] is True


def test_15_09_modifiers_take_no_part_in_the_attack_key():
    a = effective_key(3, (("benefit of cover (13.08)", -1),), 4, 0, D1, (), (("[HEAVY] (24.16)", 1),), snap=True)
    b = effective_key(3, (), 4, 0, D1, (), (), snap=True)
    assert a == b and a.snap and a.hit_mod == 0 and a.skill == 3
    c = effective_key(3, (("benefit of cover (13.08)", -1),), 4, 0, D1, (), ())
    assert c.skill == 4 and not c.snap  # (and without snap shooting they count)


# --- the type ---------------------------------------------------------------------------------

def facts(**kw):
    base = dict(engaged=False, advanced=False, fell_back=False, has_assault=False,
                has_close_quarters=False, monster_or_vehicle=False, has_indirect=False)
    base.update(kw)
    return ShooterFacts(**base)


def test_15_09_not_a_type_a_unit_picks_in_its_shooting_phase():
    elig = shooting_type_eligibility(facts())
    assert SNAP not in elig and SNAP not in SHOOTING_TYPES
    assert default_shooting_type(elig) == NORMAL


def test_15_09_a_unit_granted_it_has_snap_shooting_and_nothing_else():
    elig = shooting_type_eligibility(facts(snap_granted=True))
    assert elig[SNAP] is None
    assert all(elig[t] for t in SHOOTING_TYPES)
    assert default_shooting_type(elig) == SNAP


def test_15_09_a_unit_that_fell_back_cannot_snap_shoot():
    elig = shooting_type_eligibility(facts(snap_granted=True, fell_back=True))
    assert "09.07" in elig[SNAP] and default_shooting_type(elig) is None


# --- targets ----------------------------------------------------------------------------------

def test_15_09_one_visible_enemy_unit_within_24_inches_of_the_unit():
    assert snap_target_problem(["r1"], 23.9, True) is None
    assert snap_target_problem(["r1"], 24.0, True) is None
    assert "24\"" in snap_target_problem(["r1"], 24.01, True)
    assert "visible" in snap_target_problem(["r1"], 10.0, False)
    assert "only one enemy unit" in snap_target_problem(["r1", "r2"], 5.0, True)
    assert snap_target_problem(["r1", "r1"], 5.0, True) is None  # (two weapons, one unit)


def target(stype=SNAP, **kw):
    base = dict(shooting_type=stype, weapon_close_quarters=False, weapon_blast=False, weapon_indirect=False,
                model_monster_or_vehicle=False, visible=True, in_range=True, target_engaged=False,
                target_engaged_with_shooter=False, target_monster_or_vehicle=False)
    base.update(kw)
    return RangedTargetFacts(**base)


def test_15_09_each_weapon_still_needs_visibility_and_its_range():
    assert ranged_target_problem(target()) is None
    assert "not visible" in ranged_target_problem(target(visible=False))
    assert "out of range" in ranged_target_problem(target(in_range=False))
    # [INDIRECT FIRE] does not lift visibility: that is 10.07's, not 15.09's
    assert "not visible" in ranged_target_problem(target(visible=False, weapon_indirect=True))


def test_15_09_an_engaged_monster_is_no_target_out_of_phase():
    # 17.03 lets ranged attacks target an engaged MONSTER/VEHICLE "in your Shooting phase"
    assert ranged_target_problem(target(NORMAL, target_engaged=True, target_monster_or_vehicle=True)) is None
    problem = ranged_target_problem(target(target_engaged=True, target_monster_or_vehicle=True))
    assert "07.02.01" in problem and "17.03" in problem
    assert ranged_target_problem(target(target_engaged=True)) is not None
