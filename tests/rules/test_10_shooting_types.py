"""10.04-10.07 shooting-type eligibility and default, 09.07 fell back, 04.02 ranged target
legality with 10.06 close-quarters shooting and 17.03 engaged MONSTER/VEHICLE targets, and the
hit-roll modifiers they bring."""

from __future__ import annotations

import itertools

import pytest

from sim.rules.shooting import (ASSAULT, CLOSE_QUARTERS, INDIRECT, NORMAL, RangedTargetFacts,
                                ShooterFacts, default_shooting_type, ranged_hit_modifiers,
                                ranged_target_problem, shooting_type_eligibility)


def facts(engaged=False, advanced=False, fell_back=False, assault=False, cq=False, mv=False, indirect=False):
    return ShooterFacts(engaged, advanced, fell_back, assault, cq, mv, indirect)


def eligible(f):
    return {t for t, r in shooting_type_eligibility(f).items() if r is None}


def expected_types(engaged, advanced, fell_back, assault, cq, mv, indirect):
    if fell_back:
        return set()
    out = set()
    if not engaged and not advanced:
        out.add(NORMAL)
    if not engaged and advanced and assault:
        out.add(ASSAULT)
    if engaged and not advanced and (cq or mv):
        out.add(CLOSE_QUARTERS)
    if not engaged and not advanced and indirect:
        out.add(INDIRECT)
    return out


@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=7)))
def test_10_eligibility_truth_table(flags):
    """Every combination of the seven facts, against the rule text of 10.04-10.07 and 09.07."""
    assert eligible(facts(*flags)) == expected_types(*flags)


def test_10_04_normal():
    assert eligible(facts()) == {NORMAL}
    assert "engaged" in shooting_type_eligibility(facts(engaged=True))[NORMAL]
    assert "advanced" in shooting_type_eligibility(facts(advanced=True))[NORMAL]


def test_10_05_assault_needs_advance_and_assault_weapon():
    assert eligible(facts(advanced=True, assault=True)) == {ASSAULT}
    assert eligible(facts(advanced=True)) == set()
    assert eligible(facts(advanced=True, assault=True, engaged=True)) == set()


def test_10_06_close_quarters():
    assert eligible(facts(engaged=True, cq=True)) == {CLOSE_QUARTERS}
    assert eligible(facts(engaged=True, mv=True)) == {CLOSE_QUARTERS}
    assert eligible(facts(engaged=True)) == set()  # no CQ weapon, not M/V: cannot shoot
    assert eligible(facts(engaged=True, cq=True, advanced=True)) == set()


def test_10_07_indirect():
    assert eligible(facts(indirect=True)) == {NORMAL, INDIRECT}
    assert eligible(facts(indirect=True, advanced=True)) == set()


def test_09_07_fell_back_cannot_shoot_at_all():
    r = shooting_type_eligibility(facts(fell_back=True, cq=True, assault=True, mv=True, indirect=True))
    assert all(v and "fell back" in v for v in r.values())


def test_10_02_default_preference():
    assert default_shooting_type(shooting_type_eligibility(facts(indirect=True))) == NORMAL
    assert default_shooting_type(shooting_type_eligibility(facts(engaged=True, cq=True))) == CLOSE_QUARTERS
    assert default_shooting_type(shooting_type_eligibility(facts(advanced=True, assault=True))) == ASSAULT
    assert default_shooting_type(shooting_type_eligibility(facts(engaged=True))) is None
    # indirect is last: only chosen when nothing else qualifies
    only_indirect = {NORMAL: "x", ASSAULT: "x", CLOSE_QUARTERS: "x", INDIRECT: None}
    assert default_shooting_type(only_indirect) == INDIRECT


# --- 04.02 target legality ------------------------------------------------------------------


def T(stype=NORMAL, cq=False, blast=False, indirect=False, mv=False, visible=True, in_range=True,
      t_engaged=False, t_eng_shooter=False, t_mv=False, lo=False):
    return RangedTargetFacts(stype, cq, blast, indirect, mv, visible, in_range, t_engaged,
                             t_eng_shooter, t_mv, lo)


def test_04_02_visible_in_range_unengaged():
    assert ranged_target_problem(T()) is None
    assert "visible" in ranged_target_problem(T(visible=False))
    assert "range" in ranged_target_problem(T(in_range=False))
    assert "engaged" in ranged_target_problem(T(t_engaged=True))


def test_10_07_indirect_fire_ignores_visibility_only_under_indirect_shooting():
    assert ranged_target_problem(T(INDIRECT, indirect=True, visible=False)) is None
    assert ranged_target_problem(T(NORMAL, indirect=True, visible=False)) is not None
    assert ranged_target_problem(T(INDIRECT, indirect=False, visible=False)) is not None
    assert ranged_target_problem(T(INDIRECT, indirect=True, visible=False, in_range=False)) is not None
    assert ranged_target_problem(T(INDIRECT, indirect=True, t_engaged=True)) is not None


def test_10_06_close_quarters_targets_units_engaged_with_shooter():
    assert ranged_target_problem(T(CLOSE_QUARTERS, cq=True, t_engaged=True, t_eng_shooter=True)) is None
    # non-M/V models: only units engaged with their unit
    assert ranged_target_problem(T(CLOSE_QUARTERS, cq=True)) is not None
    # a unit engaged with someone else is still illegal
    assert ranged_target_problem(T(CLOSE_QUARTERS, cq=True, t_engaged=True)) is not None


def test_10_06_monster_vehicle_models_may_shoot_unengaged_targets():
    assert ranged_target_problem(T(CLOSE_QUARTERS, mv=True)) is None
    assert ranged_target_problem(T(CLOSE_QUARTERS, mv=True, t_engaged=True, t_eng_shooter=True)) is None


def test_10_06_blast_never_at_unit_engaged_with_shooter():
    assert "BLAST" in ranged_target_problem(T(CLOSE_QUARTERS, blast=True, mv=True, t_engaged=True,
                                              t_eng_shooter=True))
    assert "BLAST" in ranged_target_problem(T(CLOSE_QUARTERS, blast=True, mv=True, t_engaged=True,
                                              t_eng_shooter=True, t_mv=True))


def test_17_03_engaged_monster_vehicle_can_be_targeted_not_with_blast():
    assert ranged_target_problem(T(t_engaged=True, t_mv=True)) is None
    assert "17.03" in ranged_target_problem(T(t_engaged=True, t_mv=True, blast=True))
    assert ranged_target_problem(T(t_engaged=True, t_mv=False)) is not None


def test_24_24_lone_operative_beyond_range():
    assert ranged_target_problem(T(lo=True, visible=False)) is not None
    assert ranged_target_problem(T(INDIRECT, indirect=True, lo=True)) is not None


# --- hit-roll modifiers ---------------------------------------------------------------------


def total(f):
    return sum(v for _s, v in ranged_hit_modifiers(f))


def test_10_06_monster_vehicle_minus_one_unless_cq_weapon_at_engaged_unit():
    assert total(T(CLOSE_QUARTERS, mv=True, t_engaged=True, t_eng_shooter=True)) == -1
    assert total(T(CLOSE_QUARTERS, mv=True, cq=True, t_engaged=True, t_eng_shooter=True)) == 0
    assert total(T(CLOSE_QUARTERS, mv=True, cq=True)) == -1  # CQ weapon at an unengaged target
    assert total(T(CLOSE_QUARTERS, mv=True)) == -1


def test_10_06_non_monster_vehicle_no_penalty():
    assert total(T(CLOSE_QUARTERS, cq=True, t_engaged=True, t_eng_shooter=True)) == 0


def test_17_03_minus_one_against_engaged_monster_vehicle():
    assert total(T(t_engaged=True, t_mv=True)) == -1
    assert total(T(t_engaged=True, t_mv=True, cq=True)) == -1  # CQ but not engaged with it
    assert total(T(CLOSE_QUARTERS, cq=True, t_engaged=True, t_eng_shooter=True, t_mv=True)) == 0


def test_17_03_and_10_06_both_apply_then_clamped():
    mods = ranged_hit_modifiers(T(CLOSE_QUARTERS, mv=True, t_engaged=True, t_eng_shooter=True, t_mv=True))
    assert sorted(v for _s, v in mods) == [-1, -1]


def test_normal_shooting_no_modifiers():
    assert ranged_hit_modifiers(T()) == ()


def test_04_02_ranged_target_answer_is_problem_then_modifiers():
    """SH.ranged_target_answer (cached) gives exactly ranged_target_problem and, for a legal
    target, ranged_hit_modifiers, for every combination of the facts."""
    import itertools

    from sim.rules.shooting import (SHOOTING_TYPES, RangedTargetFacts, ranged_hit_modifiers,
                                    ranged_target_answer, ranged_target_problem)
    for stype in SHOOTING_TYPES:
        for flags in itertools.product((False, True), repeat=10):
            f = RangedTargetFacts(stype, *flags)
            problem = ranged_target_problem(f)
            expected = (problem, None) if problem else (None, ranged_hit_modifiers(f))
            assert ranged_target_answer(f) == expected
