"""14 Objectives: marker and terrain-objective range, level of control, controller (ties,
OC '-', secured), controlling units; the default objectives, zones and territories
(Part A rulings 22-23)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.geometry import footprint, round_base
from sim.rules.objectives import (
    CONTROL_RANGE, MARKER_DIAMETER, UNCONTROLLED, Objective, ObjectiveControl, control_levels,
    control_levels_all, control_levels_of, controlled_by, controller, controlling_units, default_objectives, default_zones, distance_to,
    in_range, marker, models_in_range, objective_problems, on_terrain, placed_distances_to, range_of, secure,
    settle, settle_all, settle_levels, territory, within_range,
)
from sim.rules.terrain import Feature, TerrainArea, model_within_area

R32 = 32 / 25.4 / 2          # radius of a 32 mm base, inches
MARK_R = MARKER_DIAMETER / 2
CENTRAL = Objective("central", 30.0, 22.0, "central")


def at_gap(gap: float, mm: float = 32, y: float = 22.0):
    """A round base whose edge is ``gap`` inches (edge to edge) to the right of CENTRAL's disc."""
    r = mm / 25.4 / 2
    return round_base(mm, 30.0 + MARK_R + gap + r, y)


def square(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


RUIN = TerrainArea("ruin", square(20, 18, 28, 26), (Feature("dense", square(20, 18, 21, 26)),))
TERRAIN_OBJ = Objective("ruin objective", 24.0, 22.0, "expansion", area=RUIN)


# --- 14.01.01 markers and range --------------------------------------------------------

def test_14_01_01_marker_is_a_40mm_disc_on_the_point():
    m = marker(CENTRAL)
    assert m.shape == "round" and (m.x, m.y) == (30.0, 22.0)
    assert math.isclose(m.length, 40 / 25.4)


def test_14_01_01_in_range_at_exactly_3_inches_edge_to_edge():
    fp = at_gap(3.0)
    assert math.isclose(distance_to(fp, CENTRAL), 3.0, abs_tol=1e-12)
    assert in_range(fp, CENTRAL)


def test_14_01_01_out_of_range_just_past_3_inches():
    assert not in_range(at_gap(3.0 + 1e-6), CENTRAL)


def test_14_01_01_range_is_to_the_disc_edge_not_its_centre():
    # centre-to-centre 3.5" + radii: edge gap 3" - still in range; a centre-distance reading fails
    fp = at_gap(2.9)
    assert math.hypot(fp.x - 30, fp.y - 22) > CONTROL_RANGE + 1
    assert in_range(fp, CENTRAL)


def test_14_01_01_a_model_standing_on_the_marker_is_in_range():
    assert in_range(round_base(32, 30.0, 22.0), CENTRAL)
    assert distance_to(round_base(32, 30.0, 22.0), CENTRAL) == 0.0


def test_14_01_01_hull_footprints_measure_edge_to_edge():
    # a 4" x 2" rectangle whose near edge is exactly 3" from the disc
    fp = footprint("rect", 30.0 + MARK_R + 3.0 + 2.0, 22.0, 4.0, 2.0)
    assert in_range(fp, CENTRAL)
    assert not in_range(fp.moved(fp.x + 1e-6, fp.y), CENTRAL)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(22, 38), st.floats(14, 30), st.sampled_from([25, 32, 40, 60])),
                min_size=1, max_size=8))
def test_14_01_01_vectorised_range_equals_the_scalar_rule(models):
    fps = [round_base(mm, x, y) for x, y, mm in models]
    fps.append(footprint("oval", 33.0, 22.0, 4.0, 2.0, 30.0))
    assert models_in_range(fps, CENTRAL).tolist() == [in_range(fp, CENTRAL) for fp in fps]
    assert models_in_range(fps, TERRAIN_OBJ).tolist() == [in_range(fp, TERRAIN_OBJ) for fp in fps]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(12, 40), st.floats(10, 34), st.sampled_from(["round", "oval", "rect"]),
                          st.floats(0.8, 6.0), st.floats(0.8, 3.0), st.floats(0, 180)),
                min_size=1, max_size=10))
def test_14_01_01_vectorised_range_equals_the_scalar_rule_for_every_base(models):
    # the bounding-circle test only rules models out: hulls of every shape and angle, near
    # and far, at markers and at terrain objectives, agree with the scalar rule
    fps = [footprint(shape, x, y, a, a if shape == "round" else min(a, b), angle)
           for x, y, shape, a, b, angle in models]
    for obj in (CENTRAL, TERRAIN_OBJ, Objective("near the ruin", 29.0, 27.0, "expansion")):
        assert models_in_range(fps, obj).tolist() == [in_range(fp, obj) for fp in fps]


def test_14_01_01_range_at_the_limits_of_the_bounding_circle_test():
    # exactly 3" (in range) and a hair more (not) from the disc, for a round base and a
    # rectangle whose corner is far from its near edge; within 0" of the area and a hair beyond
    rect = footprint("rect", 30.0 + MARK_R + 3.0 + 2.0, 22.0, 4.0, 2.0)
    fps = [at_gap(3.0), at_gap(3.0 + 1e-6), rect, rect.moved(rect.x + 1e-6, rect.y),
           round_base(32, 20.0 - R32, 22.0), round_base(32, 20.0 - R32 - 1e-6, 22.0)]
    assert models_in_range(fps, CENTRAL).tolist() == [True, False, True, False, False, False]
    assert models_in_range(fps, TERRAIN_OBJ).tolist() == [False, False, False, False, True, False]


def test_14_02_control_levels_all_is_control_levels_per_objective():
    objs = default_objectives(defender="red", attacker="blue") + (TERRAIN_OBJ,)
    models = [("red", 1, round_base(32, 30, 6)), ("blue", 2, round_base(32, 30, 22)),
              ("red", None, round_base(32, 31.5, 22)), ("blue", 3, round_base(40, 25, 20)),
              ("red", 2, footprint("oval", 12.0, 24.0, 4.0, 2.0, 45.0))]
    assert control_levels_all(objs, models) == [control_levels(o, models) for o in objs]
    assert control_levels_all(objs, []) == [{} for _o in objs]
    prev = {"expansion west": ObjectiveControl("red", "red")}
    assert settle_levels(objs, control_levels_all(objs, models), prev) == settle_all(objs, models, prev)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["blue", "red"]), st.one_of(st.none(), st.integers(-2, 9)),
                          st.lists(st.booleans(), min_size=3, max_size=3)), max_size=12))
def test_14_02_control_levels_of_sums_each_players_oc_in_range(models):
    """Each objective's level per player: the OC of their models in range, '-' (None) and a
    negative OC counting 0; every player with a model has an entry, in sorted order."""
    import numpy as np
    hit = np.array([h for _p, _oc, h in models], dtype=bool).reshape(len(models), 3)
    got = control_levels_of(3, [p for p, _oc, _h in models], [oc for _p, oc, _h in models], hit)
    players = sorted({p for p, _oc, _h in models})
    for j in range(3):
        assert list(got[j]) == players
        for p in players:
            assert got[j][p] == sum(max(oc or 0, 0) for q, oc, h in models if q == p and h[j])


def test_14_01_01_vectorised_range_of_no_models():
    assert models_in_range([], CENTRAL).tolist() == []


# --- 14.01 terrain objectives ----------------------------------------------------------

def test_14_01_terrain_objective_range_is_within_the_area():
    inside = round_base(32, 27.9, 25.0)           # well inside the area, far from the point
    touching = round_base(32, 28.0 + R32, 22.0)   # base touching the area's edge: within 0"
    outside = round_base(32, 28.0 + R32 + 1e-6, 22.0)
    near_but_out = round_base(32, 28.0 + R32 + 0.5, 22.0)  # 0.5" from the area: a marker would count it
    assert in_range(inside, TERRAIN_OBJ)
    assert in_range(touching, TERRAIN_OBJ)
    assert not in_range(outside, TERRAIN_OBJ)
    assert not in_range(near_but_out, TERRAIN_OBJ)
    assert math.isclose(distance_to(near_but_out, TERRAIN_OBJ), 0.5, abs_tol=1e-9)


def test_14_01_range_of_a_marker_is_3_inches_and_of_a_terrain_objective_its_area():
    assert range_of(CENTRAL) == CONTROL_RANGE == 3.0 and range_of(TERRAIN_OBJ) == 0.0
    assert within_range(3.0, CENTRAL) and not within_range(3.0 + 1e-6, CENTRAL)
    assert within_range(0.0, TERRAIN_OBJ) and not within_range(1e-6, TERRAIN_OBJ)


@settings(max_examples=60, deadline=None)
@given(st.floats(14, 34), st.floats(14, 30), st.sampled_from(["round", "oval", "rect"]), st.floats(0, 90))
def test_14_01_in_range_is_one_rule_for_markers_and_areas(x, y, shape, angle):
    """in_range is within_range of distance_to for both kinds; for a terrain objective it is the
    13.01 "within the area" of terrain (model_within_area); the solvers' spot distances
    (placed_distances_to) are distance_to spot by spot."""
    fp = round_base(32, x, y) if shape == "round" else footprint(shape, x, y, 2.5, 1.5, angle)
    assert in_range(fp, TERRAIN_OBJ) == model_within_area(fp, RUIN)
    for obj in (CENTRAL, TERRAIN_OBJ):
        assert in_range(fp, obj) == bool(within_range(distance_to(fp, obj), obj))
        spots = [(x, y), (x + 1.3, y - 0.7), (25.0, 22.0)]
        got = placed_distances_to(fp, spots, obj)
        want = [distance_to(fp.moved(sx, sy), obj) for sx, sy in spots]
        assert got.tolist() == pytest.approx(want, abs=1e-9)


def test_14_01_a_point_on_a_terrain_area_makes_the_area_the_objective():
    obj = on_terrain(Objective("x", 24.0, 22.0, "central"), [RUIN])
    assert obj.area is RUIN and obj.is_terrain
    edge = on_terrain(Objective("x", 28.0, 22.0, "central"), [RUIN])    # on the boundary
    assert edge.area is RUIN
    off = on_terrain(Objective("x", 29.0, 22.0, "central"), [RUIN])
    assert off.area is None and not off.is_terrain


# --- 14.02 level of control and controller ---------------------------------------------

def test_14_02_data_example_red_six_beats_blue_five_and_battle_shocked_adds_nothing():
    models = [("blue", 3, round_base(60, 24, 22)),          # VEHICLE A, OC 3
              ("blue", 2, round_base(60, 25, 24)),          # VEHICLE B, OC 2
              *[("red", 1, round_base(32, 21 + i, 20)) for i in range(6)],   # unit C: six OC 1
              *[("blue", None, round_base(32, 22 + i, 25)) for i in range(5)]]  # unit D battle-shocked
    levels = control_levels(TERRAIN_OBJ, models)
    assert levels == {"blue": 5, "red": 6}
    assert controller(levels) == "red"


def test_14_02_only_models_in_range_count():
    models = [("red", 2, at_gap(3.0)), ("red", 5, at_gap(3.5)), ("blue", 1, at_gap(0.0, y=22))]
    assert control_levels(CENTRAL, models) == {"blue": 1, "red": 2}


def test_14_02_negative_oc_is_floored_at_zero():
    models = [("red", -3, at_gap(0.0)), ("red", 1, at_gap(1.0)), ("blue", 1, at_gap(0.5))]
    assert control_levels(CENTRAL, models) == {"blue": 1, "red": 1}
    assert controller(control_levels(CENTRAL, models)) is None


def test_14_02_every_player_with_models_gets_a_level():
    assert control_levels(CENTRAL, [("red", 1, at_gap(10.0))]) == {"red": 0}
    assert control_levels(CENTRAL, []) == {}


@pytest.mark.parametrize("levels,who", [
    ({"red": 3, "blue": 2}, "red"),
    ({"red": 2, "blue": 3}, "blue"),
    ({"red": 2, "blue": 2}, None),     # tie: nobody
    ({"red": 0, "blue": 0}, None),     # only OC 1+ takes control
    ({"red": 1}, "red"),               # the absent player's level is 0
    ({}, None),
])
def test_14_02_higher_level_controls_tie_is_nobody(levels, who):
    assert controller(levels) == who


def test_14_02_control_is_not_sticky_without_a_secure():
    assert controller({"red": 0, "blue": 0}, previous="red") is None
    assert settle({"red": 0}, ObjectiveControl("red")) == UNCONTROLLED


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(0, 12)))
def test_14_02_controller_is_none_or_the_strictly_highest(levels):
    who = controller(levels)
    if who is None:
        top = max(levels.values(), default=0)
        assert top == 0 or sum(1 for v in levels.values() if v == top) > 1
    else:
        assert all(levels[who] > v for p, v in levels.items() if p != who)


# --- 14.03 secured objectives ----------------------------------------------------------

def test_14_03_secured_stays_with_nobody_in_range():
    held = secure(ObjectiveControl("red"), "red")
    assert held == ObjectiveControl("red", "red")
    assert settle({}, held) == held
    assert settle({"red": 0, "blue": 0}, held) == held


def test_14_03_secured_survives_a_tie_but_not_a_higher_level():
    held = ObjectiveControl("red", "red")
    assert settle({"red": 2, "blue": 2}, held) == held
    assert settle({"red": 2, "blue": 3}, held) == ObjectiveControl("blue", None)


def test_14_03_a_lost_secure_does_not_come_back():
    # blue took it: red's old secure no longer holds even when blue's level drops back to a tie
    state = settle({"red": 0, "blue": 1}, ObjectiveControl("red", "red"))
    assert state == ObjectiveControl("blue", None)
    assert settle({"red": 1, "blue": 1}, state) == UNCONTROLLED
    assert controller({"red": 1, "blue": 1}, previous="blue", secured_by="red") is None


def test_14_03_only_the_controller_can_secure():
    with pytest.raises(ValueError, match="14.03"):
        secure(UNCONTROLLED, "red")
    with pytest.raises(ValueError):
        secure(ObjectiveControl("blue"), "red")


def test_14_02_01_settle_all_keys_objectives_in_order_and_keeps_secures():
    objs = default_objectives(defender="red", attacker="blue")
    models = [("red", 1, round_base(32, 30, 6)), ("blue", 2, round_base(32, 30, 22))]
    prev = {"expansion west": ObjectiveControl("red", "red")}
    out = settle_all(objs, models, prev)
    assert list(out) == [o.name for o in objs]
    assert out["defender home"] == ObjectiveControl("red")
    assert out["central"] == ObjectiveControl("blue")
    assert out["expansion west"] == ObjectiveControl("red", "red")
    assert out["attacker home"] == UNCONTROLLED
    assert controlled_by(out, "red") == ("defender home", "expansion west")


# --- 14.02 controlling units -----------------------------------------------------------

def test_14_02_controlling_units():
    units = [
        ("u3", "red", [(1, at_gap(1.0)), (1, at_gap(20.0))]),        # in range, OC 1+
        ("u1", "red", [(0, at_gap(10.0)), (2, at_gap(30.0)), (0, at_gap(0.0))]),  # OC 0 one in range
        ("u2", "red", [(None, at_gap(0.0))]),                         # battle-shocked: OC '-'
        ("u4", "red", [(1, at_gap(5.0))]),                            # out of range
        ("b1", "blue", [(1, at_gap(0.0))]),                           # not the controller's
    ]
    assert controlling_units(CENTRAL, units, "red") == ("u1", "u3")
    assert controlling_units(CENTRAL, units, None) == ()


# --- defaults (Part A rulings 22-23) and validation -------------------------------------

def test_ruling_23_default_objectives():
    objs = default_objectives(defender=0, attacker=1)
    got = {(o.x, o.y, o.kind, o.owner) for o in objs}
    assert got == {(30, 6, "home", 0), (30, 38, "home", 1), (30, 22, "central", None),
                   (12, 22, "expansion", None), (48, 22, "expansion", None)}
    assert all(o.area is None for o in objs)
    assert objective_problems(objs) == []


def test_ruling_22_default_zones_and_territory():
    z = default_zones((60, 44))
    assert z["defender"] == ((0, 0), (60, 0), (60, 12), (0, 12))
    assert z["attacker"] == ((0, 32), (60, 32), (60, 44), (0, 44))
    assert territory("defender") == ((0, 0), (60, 0), (60, 22), (0, 22))
    assert territory("attacker") == ((0, 22), (60, 22), (60, 44), (0, 44))
    with pytest.raises(ValueError):
        territory("red")


def test_14_01_objective_problems_name_the_place():
    objs = [Objective("a", 1, 1, "home"), Objective("a", 2, 2, "central", owner=0),
            Objective("c", 3, 3, "flank"), Objective("d", 70, 3, "home", 1),
            Objective("e", 5, 5, "home", 1)]
    text = [str(p) for p in objective_problems(objs)]
    assert any(t.startswith("objectives[0].owner") for t in text)
    assert any(t.startswith("objectives[1].name") for t in text)
    assert any(t.startswith("objectives[1].owner") for t in text)
    assert any(t.startswith("objectives[2].kind") for t in text)
    assert any(t.startswith("objectives[3]: expected a point on the 60x44 board") for t in text)
    assert any(t.startswith("objectives[4].owner: expected one home objective per player") for t in text)
    assert len(text) == 6
