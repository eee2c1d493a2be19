"""12.08 Consolidation moves: the compulsory modes, their conditions and the headless solver
(Part A ruling 18; objective markers 14.01.01)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from sim.rules.geometry import distance, round_base
from sim.rules.movement.legality import Body, engaged_units, path_length
from sim.rules.movement.solvers.pile_in import (
    check_consolidation, consolidation_conditions, consolidation_mode, in_objective_range,
    objective_marker, solve_consolidation,
)
from _move_layouts import melee_layouts, squad

D32 = 32 / 25.4
R40 = 20 / 25.4          # objective marker radius
BOARD = (60.0, 44.0)


def ends_of(bodies, paths):
    return {x.model: (x.fp.moved(*paths[x.model][-1]) if x.model in paths else x.fp)
            for x in bodies}


def test_14_01_01_objective_range_is_3_inches_from_the_40mm_marker():
    obj = (30.0, 22.0)
    at = 30 + R40 + 3.0 + D32 / 2
    assert in_objective_range(round_base(32, at, 22), obj)
    assert not in_objective_range(round_base(32, at + 1e-6, 22), obj)
    assert objective_marker(obj).length == pytest.approx(40 / 25.4)


def test_12_08_modes_are_chosen_in_the_compulsory_order():
    engaged = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 1.5, 1, 2)
    assert consolidation_mode("a", engaged, [(10, 11)]) == ("ongoing", ["b"], None)
    near = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 2.5, 1, 2) \
        + squad("c", 10, 10 - D32 - 2.9, 1, 2)
    assert consolidation_mode("a", near, [(10, 11)]) == ("engaging", ["b"], None)
    objective = squad("a", 10, 10, 2, 1) + squad("b", 30, 30, 1, 2)
    objs = [(40, 40), (10 + R40 + D32 / 2 + 2.0, 10.0), (10.0, 10 - R40 - D32 / 2 - 2.5)]
    assert consolidation_mode("a", objective, objs) == ("objective", [], 2) or \
        consolidation_mode("a", objective, objs) == ("objective", [], 1)
    assert consolidation_mode("a", objective, objs)[2] == 1         # the nearest objective
    assert consolidation_mode("a", objective, [(40, 40)]) is None
    sol = solve_consolidation("a", objective, [], BOARD, [(40, 40)])
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
    obj = (20.0, 10 + D32 / 2 + R40 + 3.0 + 1e-6)    # just over 3" from a/1: no mode
    bodies = squad("a", 20 - D32 - 0.3, 10, 3, 1) + squad("z", 50, 40, 1, 2)
    mode = consolidation_mode("a", bodies, [obj])
    assert mode is None                               # more than 3" away: no mode
    obj = (20.0, 10 + D32 / 2 + R40 + 3.0)
    assert consolidation_mode("a", bodies, [obj]) == ("objective", [], 0)
    sol = solve_consolidation("a", bodies, [], BOARD, [obj])
    assert sol and sol.mode == "objective" and sol.objective == 0
    ends = ends_of(bodies, sol.paths)
    marker = objective_marker(obj)
    assert all(distance(ends[m], marker) <= 3 + 1e-9 for m in ("a/0", "a/1", "a/2"))
    assert check_consolidation("a", "objective", [], obj, sol.paths, bodies, [], BOARD) == []


def test_12_08_objective_moved_model_must_end_in_range_if_it_can():
    obj = (20.0, 10 + D32 / 2 + R40 + 3.5)            # a/0 3.5" away: 0.5" short of range
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
    obj = (20.0, 14.0)
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
def test_18_consolidation_solver_output_always_passes_the_checks(lay, objectives):
    bodies, areas = lay
    sol = solve_consolidation("a", bodies, areas, BOARD, objectives)
    if sol:
        point = objectives[sol.objective] if sol.objective is not None else None
        assert check_consolidation("a", sol.mode, sol.targets, point, sol.paths, bodies, areas,
                                   BOARD) == []
        assert all(path_length(p) <= 3 + 1e-9 for p in sol.paths.values())
        assert (sol.mode, list(sol.targets) if sol.mode != "objective" else [],
                sol.objective) == consolidation_mode("a", bodies, objectives)
    else:
        assert sol.reason
