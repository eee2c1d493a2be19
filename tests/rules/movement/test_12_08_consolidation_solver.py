"""12.08 Consolidation moves: the compulsory modes, their conditions and the headless solver
(Part A ruling 18; objective markers 14.01.01 and terrain objectives 14.01, in range by
sim.rules.objectives' one rule)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from sim.rules.geometry import distance, round_base
from sim.rules.movement.legality import Body, engaged_units, path_length
from sim.rules.movement.solvers.pile_in import (
    check_consolidation, consolidation_conditions, consolidation_mode, solve_consolidation,
)
from sim.rules.objectives import Objective, in_range, marker, on_terrain
from sim.rules.terrain import Feature, TerrainArea
from _move_layouts import melee_layouts, squad

D32 = 32 / 25.4
R40 = 20 / 25.4          # objective marker radius
BOARD = (60.0, 44.0)


def mark(x, y, name="o"):
    """14.01.01 An objective marker at (x, y)."""
    return Objective(name, float(x), float(y), "central")


def ends_of(bodies, paths):
    return {x.model: (x.fp.moved(*paths[x.model][-1]) if x.model in paths else x.fp)
            for x in bodies}


def test_14_01_01_objective_range_is_3_inches_from_the_40mm_marker():
    obj = mark(30.0, 22.0)
    at = 30 + R40 + 3.0 + D32 / 2
    assert in_range(round_base(32, at, 22), obj)
    assert not in_range(round_base(32, at + 1e-6, 22), obj)
    assert marker(obj).length == pytest.approx(40 / 25.4)


def test_12_08_modes_are_chosen_in_the_compulsory_order():
    engaged = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 1.5, 1, 2)
    assert consolidation_mode("a", engaged, [mark(10, 11)]) == ("ongoing", ["b"], None)
    near = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 2.5, 1, 2) \
        + squad("c", 10, 10 - D32 - 2.9, 1, 2)
    assert consolidation_mode("a", near, [mark(10, 11)]) == ("engaging", ["b"], None)
    objective = squad("a", 10, 10, 2, 1) + squad("b", 30, 30, 1, 2)
    objs = [mark(40, 40), mark(10 + R40 + D32 / 2 + 2.0, 10.0), mark(10.0, 10 - R40 - D32 / 2 - 2.5)]
    assert consolidation_mode("a", objective, objs) == ("objective", [], 2) or \
        consolidation_mode("a", objective, objs) == ("objective", [], 1)
    assert consolidation_mode("a", objective, objs)[2] == 1         # the nearest objective
    assert consolidation_mode("a", objective, [mark(40, 40)]) is None
    sol = solve_consolidation("a", objective, [], BOARD, [mark(40, 40)])
    assert not sol and "12.08" in sol.reason


def test_12_08_ongoing_keeps_base_contact_models_still_and_engagements():
    bodies = squad("a", 10, 10, 3, 1) + squad("b", 10, 10 + D32, 1, 2)    # a/0 in contact
    probs = consolidation_conditions("a", "ongoing", ["b"], None,
                                     {"a/0": [(10, 10), (10.2, 10)]}, bodies, [], BOARD)
    assert any(p.model == "a/0" and "base contact" in p.message for p in probs)
    sol = solve_consolidation("a", bodies, [], BOARD)
    assert sol and sol.mode == "ongoing" and "a/0" not in (sol.paths or {})
    assert check_consolidation("a", "ongoing", sol.targets, None, sol.paths, bodies, [],
                               BOARD) == []


def test_12_08_engaging_must_end_engaged_with_every_selected_unit():
    bodies = squad("a", 10, 10, 3, 1) + squad("b", 10, 10 + D32 + 2.8, 2, 2)
    probs = consolidation_conditions("a", "engaging", ["b"], None, {}, bodies, [], BOARD)
    assert any("must end engaged with b" in p.message for p in probs)
    sol = solve_consolidation("a", bodies, [], BOARD)
    assert sol and sol.mode == "engaging" and sol.targets == ("b",)
    ends = ends_of(bodies, sol.paths)
    assert engaged_units("a", {m: f for m, f in ends.items() if m.startswith("a/")},
                         bodies) == ["b"]
    assert check_consolidation("a", "engaging", ["b"], None, sol.paths, bodies, [], BOARD) == []


def test_12_08_engaging_has_no_base_contact_lock_but_ongoing_is_refused_when_unengaged():
    bodies = squad("a", 10, 10, 3, 1) + squad("b", 10, 10 + D32 + 2.8, 2, 2)
    probs = consolidation_conditions("a", "ongoing", ["b"], None, {}, bodies, [], BOARD)
    assert probs and probs[0].model is None and "engaged unit" in probs[0].message


def test_12_08_objective_consolidation_ends_in_range_and_unengaged():
    obj = mark(20.0, 10 + D32 / 2 + R40 + 3.0 + 1e-6)    # just over 3" from a/1: no mode
    bodies = squad("a", 20 - D32 - 0.3, 10, 3, 1) + squad("z", 50, 40, 1, 2)
    mode = consolidation_mode("a", bodies, [obj])
    assert mode is None                               # more than 3" away: no mode
    obj = mark(20.0, 10 + D32 / 2 + R40 + 3.0)
    assert consolidation_mode("a", bodies, [obj]) == ("objective", [], 0)
    sol = solve_consolidation("a", bodies, [], BOARD, [obj])
    assert sol and sol.mode == "objective" and sol.objective == 0
    ends = ends_of(bodies, sol.paths)
    disc = marker(obj)
    assert all(distance(ends[m], disc) <= 3 + 1e-9 for m in ("a/0", "a/1", "a/2"))
    assert check_consolidation("a", "objective", [], obj, sol.paths, bodies, [], BOARD) == []


def test_12_08_objective_moved_model_must_end_in_range_if_it_can():
    obj = mark(20.0, 10 + D32 / 2 + R40 + 3.5)            # a/0 3.5" away: 0.5" short of range
    bodies = squad("a", 20, 10, 1, 1) + squad("z", 50, 40, 1, 2)
    bodies = squad("a", 20, 10, 2, 1, per_rank=1)    # a/1 1.56" nearer
    bodies = [Body("a/0", "a", 1, round_base(32, 20, 10)),
              Body("a/1", "a", 1, round_base(32, 20, 10 + D32 + 0.5))]
    assert consolidation_mode("a", bodies, [obj])[0] == "objective"
    # a/0 creeps 0.2": closer but not in range though it could be
    paths = {"a/0": [(20, 10), (20, 10.2)]}
    probs = consolidation_conditions("a", "objective", [], obj, paths, bodies, [], BOARD)
    assert [p.model for p in probs] == ["a/0"] and "could end within range" in probs[0].message
    paths = {"a/0": [(20, 10), (20.6, 10.6)]}
    assert consolidation_conditions("a", "objective", [], obj, paths, bodies, [], BOARD) == []


def test_12_08_errata_objective_consolidation_may_not_end_engaged():
    obj = mark(20.0, 14.0)
    bodies = [Body("a/0", "a", 1, round_base(32, 20, 10))] + \
        [Body("z/0", "z", 2, round_base(32, 20 + D32 + 4.0, 10))]      # 4" away
    assert consolidation_mode("a", bodies, [obj]) == ("objective", [], 0)
    end = (22.3, 10.3)                   # towards the enemy: in range, but engaged (1.72")
    probs = check_consolidation("a", "objective", [], obj, {"a/0": [(20, 10), end]}, bodies,
                                [], BOARD)
    assert probs and all("engaged" in p.message for p in probs)
    assert {p.rule for p in probs} == {"12.08", "12.08 [ERRATA]"}
    assert check_consolidation("a", "objective", [], obj, {"a/0": [(20, 10), (21, 11)]},
                               bodies, [], BOARD) == []
    sol = solve_consolidation("a", bodies, [], BOARD, [obj])
    assert sol
    ends = ends_of(bodies, sol.paths)
    assert not engaged_units("a", {"a/0": ends["a/0"]}, bodies)


@settings(max_examples=30, deadline=None)
@given(melee_layouts(), st.lists(st.tuples(st.floats(2, 58), st.floats(2, 42)), max_size=3))
def test_18_consolidation_solver_output_always_passes_the_checks(lay, points):
    bodies, areas = lay
    # a point on one of the layout's terrain areas makes that area the objective (14.01)
    objectives = [on_terrain(mark(x, y, f"o{k}"), areas) for k, (x, y) in enumerate(points)]
    sol = solve_consolidation("a", bodies, areas, BOARD, objectives)
    # unchecked (a player's command, which Battle.check checks with check_consolidation): the
    # rules accept its move exactly when the solver's own check does, and then it is the same move
    quick = solve_consolidation("a", bodies, areas, BOARD, objectives, moving_only=True, checked=False)
    if quick.paths:
        obj = objectives[quick.objective] if quick.objective is not None else None
        accepted = check_consolidation("a", quick.mode, quick.targets, obj, quick.paths, bodies, areas,
                                       BOARD) == []
        assert accepted == bool(sol)
        if accepted:
            assert quick == sol
    if sol:
        obj = objectives[sol.objective] if sol.objective is not None else None
        assert check_consolidation("a", sol.mode, sol.targets, obj, sol.paths, bodies, areas,
                                   BOARD) == []
        assert all(path_length(p) <= 3 + 1e-9 for p in sol.paths.values())
        assert (sol.mode, list(sol.targets) if sol.mode != "objective" else [],
                sol.objective) == consolidation_mode("a", bodies, objectives)
    else:
        assert sol.reason


# --- 14.01 terrain objectives: the whole area is the objective ---------------------------------

# a 10" x 6" area (an exposed feature only: it hinders no move) with the objective's point at its
# centre: in range = within the area; the old reading (a 40 mm marker at the point) reached only
# 3.79" from the centre, so x 21.2-28.8 at y = 23
FIELD = ((20.0, 20.0), (30.0, 20.0), (30.0, 26.0), (20.0, 26.0))
AREA = TerrainArea("field", FIELD, (Feature("exposed", FIELD),))
CENTRE = (25.0, 23.0)


def _terrain_objective():
    obj = on_terrain(mark(*CENTRE, "field"), [AREA])
    assert obj.is_terrain and obj.area is AREA
    return obj


def _lone(x, y):
    # a/0 alone, an enemy far away (no ongoing or engaging mode)
    return [Body("a/0", "a", 1, round_base(32, x, y)), Body("z/0", "z", 2, round_base(32, 55, 40))]


def test_12_08_14_01_a_unit_within_3_inches_of_a_terrain_objectives_area_consolidates_to_it():
    obj = _terrain_objective()
    bodies = _lone(17.0, 23.0)  # its base 2.37" from the area's edge, 6.58" from the centre's disc
    assert consolidation_mode("a", bodies, [obj]) == ("objective", [], 0)
    assert consolidation_mode("a", bodies, [mark(*CENTRE)]) is None  # (a marker there: no mode)
    assert consolidation_mode("a", _lone(16.0, 23.0), [obj]) is None  # 3.37" from the area


def test_12_08_14_01_a_consolidation_ending_in_the_area_but_far_from_its_centre_is_accepted():
    obj = _terrain_objective()
    bodies = _lone(17.0, 23.0)
    end = (19.5, 23.0)  # 2.5" on: its base 0.13" inside the area, 4.08" from the centre's disc
    assert in_range(round_base(32, *end), obj)
    assert not in_range(round_base(32, *end), mark(*CENTRE))
    assert check_consolidation("a", "objective", [], obj, {"a/0": [(17.0, 23.0), end]}, bodies, [AREA],
                               BOARD) == []
    # closer but short of the area although it could reach it: refused, as for a marker
    probs = check_consolidation("a", "objective", [], obj, {"a/0": [(17.0, 23.0), (18.5, 23.0)]},
                                bodies, [AREA], BOARD)
    assert probs and "could end within range" in probs[0].message
    assert any("the unit must end within range of the objective" in p.message for p in probs)


def test_12_08_14_01_the_solver_consolidates_into_a_terrain_objectives_area():
    obj = _terrain_objective()
    bodies = squad("a", 17.0, 21.8, 3, 1, per_rank=1) + _lone(55, 5)[1:]  # a file 2.37" from the area
    assert consolidation_mode("a", bodies, [obj]) == ("objective", [], 0)
    sol = solve_consolidation("a", bodies, [AREA], BOARD, [obj])
    assert sol and sol.mode == "objective" and sol.objective == 0
    ends = ends_of(bodies, sol.paths)
    assert any(in_range(ends[m], obj) for m in ("a/0", "a/1", "a/2"))
    assert not any(in_range(ends[m], mark(*CENTRE)) for m in ("a/0", "a/1", "a/2"))
    assert check_consolidation("a", "objective", [], obj, sol.paths, bodies, [AREA], BOARD) == []


def test_12_08_a_marker_refusal_still_names_3_inches_and_an_area_the_area():
    bodies = [Body("a/0", "a", 1, round_base(32, 20, 10)), Body("z/0", "z", 2, round_base(32, 55, 40))]
    obj = mark(20.0, 10 + D32 / 2 + R40 + 2.9)
    paths = {"a/0": [(20, 10), (20, 9.6)]}   # from 2.9" to 3.3" away: neither in range nor closer
    (p, *_rest) = consolidation_conditions("a", "objective", [], obj, paths, bodies, [], BOARD)
    assert "neither within range (3\")" in p.message
    area_obj = _terrain_objective()
    bodies = _lone(17.0, 23.0)
    (p, *_rest) = consolidation_conditions("a", "objective", [], area_obj, {"a/0": [(17, 23), (17, 24)]},
                                           bodies, [AREA], BOARD)
    assert "neither within range (within its terrain area)" in p.message


@settings(max_examples=60, deadline=None)
@given(melee_layouts(), st.lists(st.tuples(st.floats(2, 58), st.floats(2, 42)), max_size=3))
def test_12_08_moving_only_changes_no_move(lay, points):
    """``moving_only`` (the commands' solver calls): a placement that moves some model is the
    verified answer; one that moves none comes back empty, unverified (a command makes no move
    either way)."""
    bodies, areas = lay
    objectives = [on_terrain(mark(x, y, f"o{k}"), areas) for k, (x, y) in enumerate(points)]
    sol = solve_consolidation("a", bodies, areas, BOARD, objectives)
    quick = solve_consolidation("a", bodies, areas, BOARD, objectives, moving_only=True)
    if quick.paths:
        assert quick == sol
    else:
        assert not (sol and sol.paths)
