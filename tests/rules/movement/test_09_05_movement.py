"""09.02/09.05.01 one move per unit per phase, and "moved" as the total distance (24.16)."""

from __future__ import annotations

import pytest

from sim.rules.movement.moves import add_move, move_made, second_move_refusal


def test_09_05_moved_is_each_models_total_not_its_largest_move():
    totals, furthest = add_move({}, [("a/1", 3.0), ("a/2", 2.0)])
    assert furthest == 3.0
    totals, furthest = add_move(totals, [("a/1", 3.0)])
    assert totals == {"a/1": 6.0, "a/2": 2.0} and furthest == 6.0


def test_09_05_moved_is_the_furthest_model_not_the_sum_over_models():
    totals, furthest = add_move({}, [("a/1", 3.0)])
    _totals, furthest = add_move(totals, [("a/2", 3.0)])
    assert furthest == 3.0


def test_09_05_add_move_leaves_its_input_alone():
    totals = {"a/1": 1.0}
    add_move(totals, [("a/1", 2.0)])
    assert totals == {"a/1": 1.0}


@pytest.mark.parametrize("move_type,advanced,fell_back,moved,made", [
    (None, False, False, 0.0, None),
    ("normal", False, False, 0.0, "normal"),  # a normal move of 0" is still the unit's move
    (None, True, False, 0.0, "advance"),
    (None, False, True, 0.0, "fall back"),
    (None, False, False, 2.0, "normal"),
])
def test_09_02_the_move_already_made(move_type, advanced, fell_back, moved, made):
    assert move_made(move_type, advanced, fell_back, moved) == made


@pytest.mark.parametrize("mode", ["normal", "advance", "fall back"])
def test_09_05_01_a_second_move_is_refused_with_the_rule(mode):
    assert second_move_refusal("squad", None, mode) is None
    reason = second_move_refusal("squad", "normal", mode)
    assert "09.05.01" in reason and "squad" in reason and mode in reason


def test_09_06_advance_end_stops_on_the_line_when_the_roll_falls_short():
    from sim.rules.movement.moves import advance_end
    assert advance_end(0, 0, 6, 8, 10) == (6, 8, 10.0)  # exactly M + the roll: where it was sent
    assert advance_end(0, 0, 6, 8, 5) == (3.0, 4.0, 5)  # 10" asked, 5" allowed: half way along
    assert advance_end(1, 1, 1, 4, 7) == (1, 4, 3.0)
