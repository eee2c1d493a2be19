"""08 Command phase: Core CP for both players (08.02), starting CP 0 (Part A ruling 24), the [EC]
cap of 1 other CP per battle round; 01.02.01 starting strength and half-strength."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.command import (
    AT_HALF, BELOW_HALF, BELOW_STARTING, CORE_CP, DESTROYED, FULL, STARTING_CP, at_or_below_half,
    below_starting_strength, gain_core_cp, half_strength, other_cp_granted, starting_cp,
)


def test_ruling_24_both_players_start_with_0_cp():
    assert STARTING_CP == 0
    assert starting_cp([1, 0]) == {0: 0, 1: 0}


def test_08_02_both_players_gain_1_cp_in_every_command_phase():
    assert CORE_CP == 1
    cp = starting_cp([0, 1])
    cp = gain_core_cp(cp)          # player 0's Command phase
    cp = gain_core_cp(cp)          # player 1's Command phase
    assert cp == {0: 2, 1: 2}      # 2 Core CP per player per battle round


@pytest.mark.parametrize("already,amount,granted", [
    (0, 1, 1), (0, 2, 1), (1, 1, 0), (0, 0, 0), (1, 3, 0),
])
def test_ec_at_most_1_other_cp_per_round(already, amount, granted):
    assert other_cp_granted(already, amount) == granted


def test_ec_other_cp_refuses_negative_amounts():
    with pytest.raises(ValueError):
        other_cp_granted(0, -1)


# --- 01.02.01 half-strength table --------------------------------------------------------

@pytest.mark.parametrize("start,alive,state", [
    (10, 10, FULL), (10, 9, BELOW_STARTING), (10, 6, BELOW_STARTING), (10, 5, AT_HALF),
    (10, 4, BELOW_HALF), (10, 1, BELOW_HALF), (10, 0, DESTROYED),
    # odd starting strength: never "at" half
    (5, 5, FULL), (5, 3, BELOW_STARTING), (5, 2, BELOW_HALF), (3, 2, BELOW_STARTING), (3, 1, BELOW_HALF),
    (2, 2, FULL), (2, 1, AT_HALF),
    # the 01.02.01 example: Captain + 5 Intercessors = 6
    (6, 3, AT_HALF), (6, 2, BELOW_HALF), (6, 1, BELOW_HALF),
])
def test_01_02_01_multi_model_units_count_models(start, alive, state):
    assert half_strength(start, alive) == state


@pytest.mark.parametrize("W,left,state", [
    (12, 12, FULL), (12, 11, BELOW_STARTING), (12, 7, BELOW_STARTING), (12, 6, AT_HALF), (12, 5, BELOW_HALF),
    # odd W: never "at" half
    (5, 5, FULL), (5, 3, BELOW_STARTING), (5, 2, BELOW_HALF), (1, 1, FULL), (3, 2, BELOW_STARTING),
    (3, 1, BELOW_HALF), (2, 1, AT_HALF), (12, 0, DESTROYED),
])
def test_01_02_01_single_model_units_count_wounds(W, left, state):
    assert half_strength(1, 1 if left else 0, single_model_W=W, wounds_left=left) == state


def test_01_02_01_a_lone_survivor_of_a_bigger_unit_counts_models_not_wounds():
    # the attached Captain alone, full wounds: still below half-strength (6 -> 1)
    assert half_strength(6, 1, single_model_W=5, wounds_left=5) == BELOW_HALF


def test_01_02_01_single_model_needs_w_and_wounds():
    with pytest.raises(ValueError, match="01.02.01"):
        half_strength(1, 1)


@pytest.mark.parametrize("args", [(0, 0), (5, 6), (5, -1)])
def test_01_02_01_rejects_impossible_counts(args):
    with pytest.raises(ValueError):
        half_strength(*args)


def test_01_02_01_at_and_below_half_are_below_starting_strength():
    assert [below_starting_strength(s) for s in (FULL, BELOW_STARTING, AT_HALF, BELOW_HALF)] == \
        [False, True, True, True]
    assert [at_or_below_half(s) for s in (FULL, BELOW_STARTING, AT_HALF, BELOW_HALF, DESTROYED)] == \
        [False, False, True, True, False]


@given(st.integers(1, 40), st.data())
def test_01_02_01_states_follow_the_integer_comparison(start, data):
    alive = data.draw(st.integers(0, start))
    state = half_strength(start, alive, single_model_W=start, wounds_left=alive)
    if alive == 0:
        assert state == DESTROYED
    elif 2 * alive < start:
        assert state == BELOW_HALF
    elif 2 * alive == start:
        assert state == AT_HALF and start % 2 == 0
    else:
        assert state == (FULL if alive == start else BELOW_STARTING)
