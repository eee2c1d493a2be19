"""15.09 Snap shooting in the exact odds: a snap pool's hit roll is the snap rule's (only an
unmodified 6 hits, never a critical hit), whatever the skill and the modifiers."""

import pytest

from sim.odds import faces as FA


@pytest.mark.parametrize("skill,modifier,fail_below", [(2, 0, 0), (3, 1, 0), (6, -1, 0), (4, 0, 4)])
def test_snap_hit_roll_is_one_in_six_and_never_critical(skill, modifier, fail_below):
    fail, hit, crit = FA.hit(skill, modifier, fail_below, True)
    assert (fail, hit, crit) == pytest.approx((5 / 6, 1 / 6, 0.0), abs=1e-15)
    assert FA.hit(skill, modifier, fail_below) != (fail, hit, crit)  # (the snap rule is what differs)
