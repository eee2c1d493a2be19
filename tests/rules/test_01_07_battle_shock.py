"""01.06 Leadership rolls, 08.03 / 01.07 battle-shock: who rolls, what passes, what the status
does and when it ends (Part A ruling 26)."""

from __future__ import annotations

import pytest

from sim.rules.command import (
    AT_HALF, BELOW_HALF, BELOW_STARTING, DESTROYED, FULL, battle_shock_after_roll, fall_back_modes,
    leadership_passes, leadership_roll, may_start_action, may_surge, modified_ld,
    needs_battle_shock_roll, oc_while,
)
from sim.rules.dice import Dice, ForcedDice
from sim.rules.objectives import Objective, control_levels
from sim.rules.geometry import round_base


@pytest.mark.parametrize("shocked,state,needs", [
    (False, FULL, False), (False, BELOW_STARTING, False), (False, AT_HALF, True),
    (False, BELOW_HALF, True), (True, FULL, True), (True, BELOW_STARTING, True),
    (True, DESTROYED, False), (False, DESTROYED, False),
])
def test_08_03_who_makes_a_battle_shock_roll(shocked, state, needs):
    assert needs_battle_shock_roll(shocked, state) is needs


@pytest.mark.parametrize("total,lds,passes", [
    (6, [6], True),          # exactly the Ld passes
    (5, [6], False),
    (7, [8, 7, 8], True),    # beats at least one Ld: the best (lowest) one
    (7, [8, 9], False),
    (12, [8], True), (2, [2], True),
])
def test_01_06_leadership_passes_at_or_above_one_ld(total, lds, passes):
    assert leadership_passes(total, lds) is passes


def test_01_06_leadership_needs_an_ld():
    with pytest.raises(ValueError, match="01.06"):
        leadership_passes(7, [])


@pytest.mark.parametrize("ld,improve,out", [
    (7, 0, 7), (7, 1, 6), (6, 3, 5),      # never 4+ or better after modifiers
    (7, -3, 8),                             # never 9+ or worse
    (4, 0, 4),                              # an unmodified profile value stands
])
def test_02_02_01_modified_ld_caps(ld, improve, out):
    assert modified_ld(ld, improve) == out


def test_01_07_leadership_roll_is_2d6_logged_with_its_purpose():
    dice = ForcedDice([3, 3, 2, 3])
    rolled, passed = leadership_roll(dice, [6])
    assert rolled == (3, 3) and passed
    rolled, passed = leadership_roll(dice, [6], purpose="battle-shock roll: squad")
    assert rolled == (2, 3) and not passed
    assert dice.log == [("battle-shock roll (01.07)", (3, 3)), ("battle-shock roll: squad", (2, 3))]


def test_15_04_auto_pass_rolls_no_dice():
    dice = ForcedDice([])
    assert leadership_roll(dice, [8], auto_pass=True) == ((), True)
    assert dice.log == []


def test_01_07_seeded_leadership_roll_is_reproducible():
    assert leadership_roll(Dice(1), [7]) == leadership_roll(Dice(1), [7])


@pytest.mark.parametrize("was,passed,in_step,after", [
    (True, True, True, False),      # 08.03: a pass in the own Battle-shock step ends it
    (True, False, True, True),
    (False, False, True, True),     # a fail battle-shocks
    (False, True, True, False),
    (True, True, False, True),      # a pass elsewhere does not end it (ruling 26)
    (False, False, False, True),    # a fail elsewhere (after a Desperate Escape) battle-shocks
    (False, True, False, False),
])
def test_08_03_ruling_26_status_after_a_roll(was, passed, in_step, after):
    assert battle_shock_after_roll(was, passed, in_battle_shock_step=in_step) is after


def test_01_07_battle_shocked_oc_is_dash_and_adds_nothing_to_control():
    assert oc_while(2, shocked=True) is None
    assert oc_while(2, shocked=False) == 2
    assert oc_while(-1, shocked=False) == 0
    obj = Objective("o", 10, 10, "central")
    models = [("red", oc_while(5, True), round_base(32, 10, 10)), ("blue", oc_while(1, False), round_base(32, 11, 10))]
    assert control_levels(obj, models) == {"blue": 1, "red": 0}


def test_01_07_battle_shocked_units_must_desperate_escape_and_cannot_act_or_surge():
    assert fall_back_modes(True) == ("desperate escape",)
    assert fall_back_modes(False) == ("ordered retreat", "desperate escape")
    assert not may_start_action(True) and may_start_action(False)
    assert not may_surge(True) and may_surge(False)
