"""Part A ruling 13 (no model may END a move over a light or dense feature) binds the models a
move moves or turns: a model the move leaves where it stands does not end a move, so a base
already over a feature (a shipped deployment had one 0.05" inside a container) does not refuse
its unit's move of other models. The models that do move are checked as before."""

from __future__ import annotations

from sim.rules.geometry import footprint, round_base
from sim.rules.movement.legality import Body, check_move
from sim.rules.terrain import Feature, TerrainArea

D32 = 32 / 25.4
BOARD = (30.0, 24.0)


def body(mid, x, y, player=1):
    return Body(mid, mid.split("/")[0], player, round_base(32, x, y))


def container(x0=9.0, y0=3.0, x1=14.0, y1=6.0):
    poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return [TerrainArea("container", poly, (Feature("dense", poly),))]


# a/2 stands 0.05" inside the container's left wall (x = 9)
UNIT = [body("a/1", 7.0, 8.0), body("a/2", 9.0 - D32 / 2 + 0.05, 5.0)]


def kinds(problems):
    return [(p.model, "feature" if "feature of" in p.message else p.message) for p in problems]


def test_ruling_13_moving_another_model_is_not_refused_for_one_that_stays_over_a_feature():
    problems = check_move("a", {"a/1": [(7.0, 8.0), (8.0, 7.0)]}, UNIT, container(), BOARD,
                          max_distance=6.0, rule="09.05")
    assert problems == []


def test_ruling_13_the_model_over_the_feature_still_may_not_end_its_own_move_there():
    x = 9.0 - D32 / 2 + 0.05
    problems = check_move("a", {"a/2": [(x, 5.0), (x, 4.5)]}, UNIT, container(), BOARD,
                          max_distance=6.0, rule="09.05")
    assert {m for m, k in kinds(problems) if k == "feature"} == {"a/2"}


def test_ruling_13_a_model_turned_in_place_is_checked_too():
    """A 3" x 1" hull standing upright 0.5" clear of the wall, turned to lie across it."""
    upright = [body("a/1", 7.0, 8.0), Body("a/2", "a", 1, footprint("rect", 8.0, 4.5, 3.0, 1.0, 90.0))]
    assert check_move("a", {}, upright, container(), BOARD, max_distance=6.0, rule="09.05") == []
    turned = check_move("a", {}, upright, container(), BOARD, max_distance=6.0, rule="09.05",
                        angles={"a/2": 0.0})
    assert [m for m, k in kinds(turned) if k == "feature"] == ["a/2", "a/2"]
    # (turning, it sweeps across the wall on its way: 03.01, sim.rules.movement.turning)
    assert "turning to 0 degrees, its base would cross a dense feature" in turned[0].message
