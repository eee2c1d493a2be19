"""24.16 [HEAVY]'s condition on the attacking unit (sim.rules.shooting.heavy_stationary): unengaged,
not set up on the battlefield this turn, and no model moved more than 3" this turn (the furthest
total of any model's paths; 3" itself counts, up to the one measuring tolerance, 01.04.01)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules.geometry import EPS
from sim.rules.shooting import HEAVY_MOVE, heavy_stationary


def test_24_16_a_unit_that_moved_at_most_3_inches_keeps_heavy():
    assert HEAVY_MOVE == 3.0
    assert heavy_stationary(False, False, 0.0)
    assert heavy_stationary(False, False, 3.0)
    assert heavy_stationary(False, False, 3.0 + EPS)  # (a 3" path summed with rounding)
    assert not heavy_stationary(False, False, 3.0 + 1e-6)
    assert not heavy_stationary(False, False, 6.0)


def test_24_16_engaged_or_set_up_this_turn_loses_heavy_however_little_it_moved():
    assert not heavy_stationary(True, False, 0.0)
    assert not heavy_stationary(False, True, 0.0)  # (20.04: an ingress move sets the unit up)


@given(st.booleans(), st.booleans(), st.floats(0, 30))
def test_24_16_the_condition_is_the_conjunction(engaged, set_up, moved):
    assert heavy_stationary(engaged, set_up, moved) == (not engaged and not set_up and moved <= 3.0 + EPS)
