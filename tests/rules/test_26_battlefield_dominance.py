"""[CARD] Battlefield Dominance scoring, rounds 1-5 (Part A ruling 21: round 5 replaces), the
[EC] VP caps (45 primary, 15 per battle round) and the result (Part A ruling 20)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.mission import (
    BATTLE_ROUNDS, BATTLE_READY, END_OF_BATTLE, END_OF_COMMAND_PHASE, END_OF_TURN, PRIMARY,
    SECONDARY, Score, VPTally, award, award_all, dominance_scores, result,
)
from sim.rules.objectives import ObjectiveControl, default_objectives

OBJS = default_objectives(defender="red", attacker="blue")
NAMES = [o.name for o in OBJS]   # defender home, attacker home, central, expansion west, expansion east


def ctrl(**held):
    """Objective name (underscores for spaces) -> controller."""
    out = {n: None for n in NAMES}
    out.update({k.replace("_", " "): v for k, v in held.items()})
    return out


def vp(scores):
    return sum(s.vp for s in scores)


def test_26_worked_example_13_vp():
    # home + central + one expansion at the end of your round-3 Command phase: 3x3 + 2x2 = 13
    c = ctrl(defender_home="red", central="red", expansion_west="red")
    scores = dominance_scores(3, END_OF_COMMAND_PHASE, "red", c, OBJS)
    assert [s.vp for s in scores] == [9, 4]
    assert vp(scores) == 13


def test_26_home_bonus_needs_your_own_home():
    # holding the opponent's home gives no bonus
    c = ctrl(attacker_home="red", central="red", expansion_west="red")
    assert vp(dominance_scores(3, END_OF_COMMAND_PHASE, "red", c, OBJS)) == 9
    # your home alone: 3 VP, no "other" objective for the bonus
    assert vp(dominance_scores(3, END_OF_COMMAND_PHASE, "red", ctrl(defender_home="red"), OBJS)) == 3


def test_26_control_map_may_hold_objective_control_records():
    c = {n: ObjectiveControl(v) for n, v in ctrl(defender_home="red", central="red").items()}
    assert vp(dominance_scores(2, END_OF_COMMAND_PHASE, "red", c, OBJS)) == 3 * 2 + 2


@pytest.mark.parametrize("rnd", [1, 2])
def test_26_rounds_1_2_end_of_turn_2vp_for_more_objectives(rnd):
    more = ctrl(central="red", expansion_west="red", expansion_east="blue")
    assert vp(dominance_scores(rnd, END_OF_TURN, "red", more, OBJS)) == 2
    assert vp(dominance_scores(rnd, END_OF_TURN, "blue", more, OBJS)) == 0
    equal = ctrl(central="red", expansion_east="blue")
    assert dominance_scores(rnd, END_OF_TURN, "red", equal, OBJS) == ()
    assert dominance_scores(rnd, END_OF_TURN, "red", ctrl(), OBJS) == ()
    one_vs_none = ctrl(central="red")
    assert vp(dominance_scores(rnd, END_OF_TURN, "red", one_vs_none, OBJS)) == 2


def test_26_round_1_command_phase_scores_nothing():
    c = ctrl(defender_home="red", central="red")
    assert dominance_scores(1, END_OF_COMMAND_PHASE, "red", c, OBJS) == ()


def test_26_round_2_both_blocks_score():
    c = ctrl(defender_home="red", central="red", expansion_east="blue")
    assert vp(dominance_scores(2, END_OF_COMMAND_PHASE, "red", c, OBJS)) == 6 + 2
    assert vp(dominance_scores(2, END_OF_TURN, "red", c, OBJS)) == 2


@pytest.mark.parametrize("rnd", [3, 4])
def test_26_rounds_3_4_score_only_at_end_of_command_phase(rnd):
    c = ctrl(defender_home="red", central="red", expansion_west="red", expansion_east="red")
    assert vp(dominance_scores(rnd, END_OF_COMMAND_PHASE, "red", c, OBJS)) == 12 + 6
    assert dominance_scores(rnd, END_OF_TURN, "red", c, OBJS) == ()   # no 2 VP block after round 2


def test_ruling_21_round_5_scores_at_end_of_turn_instead():
    c = ctrl(defender_home="red", central="red", expansion_west="red")
    assert dominance_scores(5, END_OF_COMMAND_PHASE, "red", c, OBJS) == ()
    assert vp(dominance_scores(5, END_OF_TURN, "red", c, OBJS)) == 13


def test_26_scores_refuse_bad_round_or_moment():
    with pytest.raises(ValueError):
        dominance_scores(6, END_OF_TURN, "red", ctrl(), OBJS)
    with pytest.raises(ValueError):
        dominance_scores(2, "end of Movement phase", "red", ctrl(), OBJS)


# --- caps -------------------------------------------------------------------------------

def test_26_cap_15_per_round():
    # all five held with the home: 15 + 8 = 23 asked, 15 granted, 8 lost
    c = ctrl(defender_home="red", attacker_home="red", central="red", expansion_west="red",
             expansion_east="red")
    scores = dominance_scores(3, END_OF_COMMAND_PHASE, "red", c, OBJS)
    assert vp(scores) == 23
    t, granted = award_all(VPTally(), 3, scores)
    assert granted == 15 and t.total(PRIMARY) == 15 and t.lost == 8
    assert [a.granted for a in t.awards] == [15, 0]


def test_26_round_cap_spans_both_blocks_of_round_2():
    t, g1 = award(VPTally(), 2, "command block", 14)
    t, g2 = award(t, 2, "end of turn block", 2)
    assert (g1, g2) == (14, 1)
    assert t.in_round(2, PRIMARY) == 15 and t.awards[-1].lost == 1


def test_26_cap_at_exactly_15_loses_nothing():
    t, g = award(VPTally(), 4, "x", 15)
    assert g == 15 and t.lost == 0
    t, g = award(t, 4, "x", 1)
    assert g == 0 and t.lost == 1


def test_26_cap_45_total():
    t = VPTally()
    for rnd in (2, 3, 4):
        t, g = award(t, rnd, "x", 15)
        assert g == 15
    t, g = award(t, 5, "x", 15)
    assert g == 0 and t.total(PRIMARY) == 45 and t.lost == 15


def test_26_cap_45_total_partly():
    t = VPTally()
    for rnd in (1, 2, 3):
        t, _ = award(t, rnd, "x", 14)
    t, g = award(t, 4, "x", 10)
    assert g == 3 and t.total() == 45


def test_26_end_of_battle_vp_skip_the_round_cap_but_not_the_total():
    t, _ = award(VPTally(), 5, "x", 15)
    t, g = award(t, END_OF_BATTLE, "end of battle", 10)
    assert g == 10 and t.total() == 25
    t2 = VPTally()
    for rnd in (1, 2, 3):
        t2, _ = award(t2, rnd, "x", 15)
    t2, g = award(t2, END_OF_BATTLE, "end of battle", 10)
    assert g == 0


def test_26_caps_are_kept_per_kind():
    t, _ = award(VPTally(), 3, "primary", 15)
    t, g = award(t, 3, "secondary card", 15, SECONDARY)
    assert g == 15
    t, g = award(t, END_OF_BATTLE, "battle ready", 12, BATTLE_READY)
    assert g == 10 and t.vp == 40


def test_26_award_refuses_nonsense():
    with pytest.raises(ValueError):
        award(VPTally(), 6, "x", 1)
    with pytest.raises(ValueError):
        award(VPTally(), 1, "x", -1)
    with pytest.raises(ValueError):
        award(VPTally(), 1, "x", 1, "tertiary")


def test_26_tally_is_immutable():
    t0 = VPTally()
    t1, _ = award(t0, 1, "x", 2)
    assert t0.total() == 0 and t1.total() == 2


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, BATTLE_ROUNDS), st.integers(0, 30)), max_size=30))
def test_26_vp_never_exceed_the_caps(bookings):
    t = VPTally()
    asked = 0
    for rnd, v in bookings:
        t, g = award(t, rnd, "x", v)
        assert 0 <= g <= v
        asked += v
    assert t.total(PRIMARY) <= 45
    assert all(t.in_round(r, PRIMARY) <= 15 for r in range(1, BATTLE_ROUNDS + 1))
    assert t.total() + t.lost == asked


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["red", "blue", None]), min_size=5, max_size=5),
       st.integers(1, BATTLE_ROUNDS), st.sampled_from([END_OF_COMMAND_PHASE, END_OF_TURN]))
def test_26_one_moment_never_asks_more_than_23(holders, rnd, moment):
    c = dict(zip(NAMES, holders))
    s = dominance_scores(rnd, moment, "red", c, OBJS)
    assert all(isinstance(x, Score) and x.vp > 0 for x in s)
    assert vp(s) <= 3 * 5 + 2 * 4 + 2


# --- result -----------------------------------------------------------------------------

@pytest.mark.parametrize("red,blue,out", [(10, 9, "red"), (9, 10, "blue"), (45, 45, "draw"), (0, 0, "draw")])
def test_ruling_20_most_vp_wins_equal_is_a_draw(red, blue, out):
    assert result(red, blue) == out


def test_ruling_20_result_uses_the_given_names():
    assert result(3, 1, names=("Ultramarines", "Orks")) == "Ultramarines"


def test_26_a_whole_battle_for_one_player_rounds_1_to_5():
    # red holds its home, the centre and an expansion all game; blue holds one expansion
    c = ctrl(defender_home="red", central="red", expansion_west="red", expansion_east="blue")
    t = VPTally()
    per_round = []
    for rnd in range(1, BATTLE_ROUNDS + 1):
        before = t.total()
        for moment in (END_OF_COMMAND_PHASE, END_OF_TURN):
            t, _ = award_all(t, rnd, dominance_scores(rnd, moment, "red", c, OBJS))
        per_round.append(t.total() - before)
    # r1: 2; r2: 13 + 2 = 15 (at the cap); r3, r4: 13; r5 (end of turn): 13 asked, 2 left under 45
    assert per_round == [2, 15, 13, 13, 2]
    assert t.total(PRIMARY) == 45 and t.lost == 11
