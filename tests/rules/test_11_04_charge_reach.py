"""11.02 / 11.04 / 15.11 The reach of a charge (sim.rules.charge): declaring needs an enemy unit
within 12"; targets are within 12" and the maximum distance (the roll; 21.03 taking to the skies
2" less, not with Hover 24.17); 15.11 Into the Fray caps the roll at 6 and its targets at 6"."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules import charge as CHG
from sim.rules.geometry import EPS


def test_11_02_a_charge_is_declared_only_with_an_enemy_unit_within_12_inches():
    assert CHG.CHARGE_RANGE == 12.0
    assert CHG.may_declare(12.0) and CHG.may_declare(12.0 + EPS) and CHG.may_declare(0.0)
    assert not CHG.may_declare(12.0 + 1e-6)
    assert not CHG.may_declare(None)  # no enemy unit on the battlefield


def test_11_02_21_03_24_17_the_maximum_distance_is_the_roll_2_less_taking_to_the_skies():
    assert CHG.max_distance(7) == 7.0
    assert CHG.max_distance(7, fly=True) == 5.0
    assert CHG.max_distance(7, fly=True, hover=True) == 7.0
    assert CHG.max_distance(2, fly=True) == 0.0 and CHG.max_distance(1, fly=True) == 0.0  # never below 0
    assert CHG.max_distance(7, hover=True) == 7.0  # Hover matters only in the skies


def test_11_04_targets_are_within_12_inches_and_within_the_maximum_distance():
    assert CHG.reach(7) == 7.0
    assert CHG.reach(12) == 12.0
    assert CHG.reach(14) == 12.0  # (a modified roll above 12: still 12")
    assert CHG.reach(14, fly=True) == 12.0 and CHG.reach(13, fly=True) == 11.0
    assert CHG.reach(8, fly=True) == 6.0 and CHG.reach(8, fly=True, hover=True) == 8.0
    # the data example (roll 7): a unit beyond 7" can never be a target
    assert CHG.in_reach(7.0, CHG.reach(7)) and not CHG.in_reach(7.01, CHG.reach(7))
    assert CHG.in_reach(7.0 + EPS, 7.0) and not CHG.in_reach(7.0 + 1e-6, 7.0)
    assert not CHG.in_reach(None, 12.0)


def test_15_11_into_the_fray_caps_the_roll_at_6_and_its_targets_at_6_inches():
    assert CHG.into_the_fray_roll(9) == 6 and CHG.into_the_fray_roll(4) == 4
    fray = CHG.reach(CHG.into_the_fray_roll(11), cap=CHG.INTO_THE_FRAY_RANGE)
    assert fray == 6.0
    assert CHG.reach(5, cap=CHG.INTO_THE_FRAY_RANGE) == 5.0
    # taking to the skies, as any charge: 2" less (not with Hover)
    assert CHG.reach(6, fly=True, cap=CHG.INTO_THE_FRAY_RANGE) == 4.0
    assert CHG.reach(6, fly=True, hover=True, cap=CHG.INTO_THE_FRAY_RANGE) == 6.0
    # Leap to Defend: as any charge, within 12" and the roll
    assert CHG.reach(9, cap=CHG.CHARGE_RANGE) == 9.0 == CHG.reach(9)


@given(st.integers(0, 14), st.booleans(), st.booleans(), st.sampled_from([CHG.CHARGE_RANGE, CHG.INTO_THE_FRAY_RANGE]))
def test_11_04_the_reach_never_exceeds_the_cap_nor_the_maximum_distance(roll, fly, hover, cap):
    r = CHG.reach(roll, fly=fly, hover=hover, cap=cap)
    assert 0.0 <= r <= cap
    assert r <= CHG.max_distance(roll, fly=fly, hover=hover) <= roll
    assert r <= CHG.reach(roll, cap=cap)  # taking to the skies never reaches further
    assert CHG.reach(roll, fly=fly, hover=True, cap=cap) == CHG.reach(roll, cap=cap)  # Hover: as on the ground
