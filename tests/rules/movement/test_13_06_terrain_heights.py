"""13.06 Movement over dense terrain by its height, 24.35 Super-heavy Walker, Part A ruling 12:
a dense feature given a height of 2" or less may be crossed by any model; one of 4" or less by
a Super-heavy Walker's normal, advance or fall-back move; one given no height counts as taller
than both. INFANTRY, BEASTS, SWARM and MOBILE cross any; no model ends on one (ruling 13).
Each layout here is one where the height decides the answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.geometry import footprint, round_base
from sim.rules.movement.index import crossing_limit, terrain_index
from sim.rules.movement.legality import Body, BodyIndex, check_move, straight_paths_clear
from sim.rules.movement.moves import WALKER_HEIGHT, dense_crossing
from sim.rules.movement.solvers.charge import check_charge, solve_charge
from sim.rules.terrain import Feature, TerrainArea

BOARD = (60.0, 44.0)


def wall(height, name="wall", category="dense"):
    """A 0.5" dense wall across the path of a model heading from x = 10 to x = 15 at y = 10."""
    poly = ((12.0, 5.0), (12.5, 5.0), (12.5, 15.0), (12.0, 15.0))
    return TerrainArea(name, poly, (Feature(category, poly, height),))


def tank(x=8.0, y=10.0):
    return Body("a/1", "a", 1, footprint("rect", x, y, 4.0, 2.5))


def move(paths, bodies, areas, **kw):
    kw.setdefault("max_distance", 8.0)
    kw.setdefault("rule", "09.05")
    return check_move("a", paths, bodies, list(areas), BOARD, **kw)


# --- who may cross what ---------------------------------------------------------------------

def test_13_06_dense_crossing_by_keywords_move_and_ability():
    assert dense_crossing({"INFANTRY"}) is True and dense_crossing({"MOBILE", "VEHICLE"}) is True
    assert dense_crossing({"VEHICLE"}, "normal", flying=True) is True       # 21.03
    assert dense_crossing({"VEHICLE"}, "normal") is False                    # 13.06: 2" or less
    for move_type in ("normal", "advance", "fall back"):                     # 24.35
        assert dense_crossing({"VEHICLE", "WALKER"}, move_type, super_heavy_walker=True) == WALKER_HEIGHT
    for move_type in ("charge", "pile in", "consolidate", None):
        assert dense_crossing({"VEHICLE", "WALKER"}, move_type, super_heavy_walker=True) is False


def test_12_crossing_limits():
    assert crossing_limit(True) == math.inf and crossing_limit(np.bool_(True)) == math.inf
    assert crossing_limit(False) == 2.0 and crossing_limit(4.0) == 4.0
    assert crossing_limit(1.0) == 2.0        # never fewer than any model may (13.06)


def test_13_06_a_vehicle_crosses_a_dense_wall_of_two_inches_not_one_a_hair_taller():
    path = {"a/1": [(8, 10), (15, 10)]}
    assert move(path, [tank()], [wall(2.0)]) == []
    assert move(path, [tank()], [wall(1.0)]) == []
    (p,) = move(path, [tank()], [wall(2.01)])
    assert p.rule == "13.06, Part A 12" and "2.01\" tall" in p.message and "Super-heavy Walker" in p.message


def test_12_a_dense_feature_without_a_height_counts_as_taller_than_two_inches():
    (p,) = move({"a/1": [(8, 10), (15, 10)]}, [tank()], [wall(None)])
    assert p.rule == "13.06, Part A 12"
    assert p.message == ("its path crosses a dense feature of 'wall'; only INFANTRY, BEASTS, SWARM or "
                         "MOBILE models, or models taking to the skies, may")


def test_24_35_a_super_heavy_walker_crosses_four_inches_but_not_more():
    path = {"a/1": [(8, 10), (15, 10)]}
    assert move(path, [tank()], [wall(4.0)], may_cross_dense=WALKER_HEIGHT) == []
    assert move(path, [tank()], [wall(3.0)], may_cross_dense=WALKER_HEIGHT) == []
    (p,) = move(path, [tank()], [wall(4.5)], may_cross_dense=WALKER_HEIGHT)
    assert p.rule == "13.06, Part A 12" and p.message.endswith("may")
    assert "Super-heavy Walker" not in p.message          # (4.5" is beyond its 4" too)
    (p,) = move(path, [tank()], [wall(None)], may_cross_dense=WALKER_HEIGHT)
    assert p.rule == "13.06, Part A 12"
    # and without the ability the 3" wall stops it
    assert [p.rule for p in move(path, [tank()], [wall(3.0)])] == ["13.06, Part A 12"]


def test_13_06_round_bases_and_the_straight_path_prefilter_agree_on_heights():
    """The round-base batch (check 5 of check_move) and straight_paths_clear read the height too."""
    body = Body("a/1", "a", 1, round_base(60, 10, 10))
    path = {"a/1": [(10, 10), (15, 10)]}
    for h, cross, legal in ((2.0, False, True), (2.5, False, False), (3.5, 4.0, True),
                            (4.5, 4.0, False), (None, True, True), (None, 4.0, False)):
        assert (move(path, [body], [wall(h)], may_cross_dense=cross) == []) == legal, (h, cross)
        idx, terr = BodyIndex([body]), terrain_index([wall(h)])
        ok = straight_paths_clear(body.fp, np.array([[15.0, 10.0]]), idx, terr, np.zeros(0, np.int64),
                                  may_cross_dense=cross)
        assert bool(ok[0]) == legal, (h, cross)
        rect = Body("a/1", "a", 1, footprint("rect", 10, 10, 2.0, 1.5))
        ok = straight_paths_clear(rect.fp, np.array([[15.0, 10.0]]), BodyIndex([rect]), terr,
                                  np.zeros(0, np.int64), may_cross_dense=cross)
        assert bool(ok[0]) == legal, (h, cross, "rect")


def test_13_no_model_ends_on_a_low_dense_feature():
    """Part A ruling 13: crossing a low wall is allowed, ending on it never is."""
    (p,) = move({"a/1": [(10, 10), (12.25, 10)]}, [Body("a/1", "a", 1, round_base(32, 10, 10))],
                [wall(1.0)])
    assert p.rule == "03.01, Part A 13" and "dense" in p.message


def test_13_06_a_charge_goes_straight_over_a_low_wall_and_not_over_a_tall_one():
    """11.04 with 13.06: a vehicle charging an enemy behind a wall that has no way round it
    within the roll reaches it over a 2" wall and fails against a 3" one, even as a
    Super-heavy Walker (24.35 is for normal, advance and fall-back moves)."""
    long_wall = ((12.0, 0.5), (12.5, 0.5), (12.5, 43.5), (12.0, 43.5))

    def table(h):
        return [TerrainArea("wall", long_wall, (Feature("dense", long_wall, h),))]
    bodies = [Body("a/1", "a", 1, round_base(32, 10.5, 10)), Body("b/1", "b", 2, round_base(32, 16, 10))]
    low = solve_charge("a", ["b"], 6, bodies, table(2.0), BOARD)
    assert low and check_charge("a", ("b",), low.paths, bodies, table(2.0), BOARD, roll=6) == []
    assert not solve_charge("a", ["b"], 6, bodies, table(3.0), BOARD)
    assert not solve_charge("a", ["b"], 6, bodies, table(3.0), BOARD,
                            may_cross_dense=dense_crossing({"VEHICLE"}, "charge", super_heavy_walker=True))


def test_12_light_and_exposed_features_never_hinder_whatever_the_dense_heights():
    """(A layout mixing heights: only the tall dense feature is in the way.)"""
    feats = (Feature("dense", ((12.0, 5.0), (12.5, 5.0), (12.5, 15.0), (12.0, 15.0)), 1.5),
             Feature("light", ((14.0, 5.0), (14.5, 5.0), (14.5, 15.0), (14.0, 15.0))),
             Feature("dense", ((17.0, 5.0), (17.5, 5.0), (17.5, 15.0), (17.0, 15.0)), 6.0))
    area = TerrainArea("yard", ((11.0, 4.0), (19.0, 4.0), (19.0, 16.0), (11.0, 16.0)), feats)
    body = Body("a/1", "a", 1, round_base(32, 10, 10))
    assert move({"a/1": [(10, 10), (15.5, 10)]}, [body], [area]) == []
    (p,) = move({"a/1": [(10, 10), (18.5, 10)]}, [body], [area], max_distance=9.0)
    assert p.rule == "13.06, Part A 12" and "6\" tall" not in p.message  # (over 4": the plain message)


@pytest.mark.parametrize("h", [None, 2.5, 4.0])
def test_12_a_tall_wall_still_forces_a_detour_a_low_one_does_not(h):
    """The placement solver's detours: round a wall it may not cross, straight over one it may
    (a 2" wall for any model)."""
    bodies = [Body("a/1", "a", 1, round_base(32, 10, 10)), Body("b/1", "b", 2, round_base(32, 15, 10))]
    short = ((12.0, 8.0), (12.5, 8.0), (12.5, 12.0), (12.0, 12.0))
    areas = [TerrainArea("wall", short, (Feature("dense", short, h),))]
    sol = solve_charge("a", ["b"], 9, bodies, areas, BOARD)
    assert sol and len(sol.paths["a/1"]) > 2             # a turning point round the wall
    low = [TerrainArea("wall", short, (Feature("dense", short, 2.0),))]
    sol = solve_charge("a", ["b"], 9, bodies, low, BOARD)
    assert sol and len(sol.paths["a/1"]) == 2             # straight over it
