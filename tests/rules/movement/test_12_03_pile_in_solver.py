"""12.03 Pile-in moves: targets, conditions and the headless solver (Part A rulings 16, 18)."""

from __future__ import annotations

import random

from hypothesis import given, settings

from sim.rules.coherency import is_coherent
from sim.rules.geometry import distance, round_base
from sim.rules.movement.legality import Body, BodyIndex, engaged_units, path_length
from sim.rules.movement.solvers.pile_in import (
    check_pile_in, pile_in_conditions, pile_in_targets, solve_pile_in,
)
from sim.rules.terrain import Feature, TerrainArea

from _move_layouts import melee_layouts, squad

D32 = 32 / 25.4
BOARD = (60.0, 44.0)


def ends_of(bodies, paths):
    return {x.model: (x.fp.moved(*paths[x.model][-1]) if x.model in paths else x.fp)
            for x in bodies}


# --- targets -----------------------------------------------------------------------------

def test_12_03_an_engaged_unit_piles_in_towards_every_unit_it_is_engaged_with():
    bodies = squad("a", 10, 10, 3, 1) + squad("b", 10, 10 + D32 + 1.5, 1, 2) \
        + squad("c", 10 + 2 * (D32 + 0.3), 10 + D32 + 1.9, 1, 2) + squad("d", 10, 14.5, 1, 2)
    assert pile_in_targets("a", bodies) == ["b", "c"]


def test_12_03_an_unengaged_unit_piles_in_towards_units_within_5_inches():
    bodies = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 5.0, 1, 2) \
        + squad("c", 30, 10, 1, 2)
    assert pile_in_targets("a", bodies) == ["b"]
    bodies = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 5.0 + 1e-6, 1, 2)
    assert pile_in_targets("a", bodies) == []
    assert not solve_pile_in("a", bodies, [], BOARD)


# --- conditions ------------------------------------------------------------------------------

def test_12_03_a_model_in_base_contact_cannot_move():
    bodies = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32, 1, 2)    # a/0 touches b/0
    probs = pile_in_conditions("a", ["b"], {"a/0": [(10, 10), (9.9, 10 + 0.05)]}, bodies, [],
                               BOARD)
    assert any(p.model == "a/0" and "base contact" in p.message for p in probs)
    assert pile_in_conditions("a", ["b"], {}, bodies, [], BOARD) == []


def test_12_03_moved_models_must_end_closer_to_the_closest_target():
    bodies = squad("a", 10, 10, 2, 1) + squad("b", 10, 10 + D32 + 1.0, 2, 2)
    x1 = 10 + D32 + 0.3
    # a/1 steps sideways, away from b: not closer
    probs = pile_in_conditions("a", ["b"], {"a/1": [(x1, 10), (x1 + 0.5, 10)]}, bodies, [],
                               BOARD)
    assert [(p.model, p.rule) for p in probs] == [("a/1", "12.03, Part A 16")]
    # a/1 straight at b/1: closer and engaged
    assert pile_in_conditions("a", ["b"], {"a/1": [(x1, 10), (x1, 10.5)]}, bodies, [],
                              BOARD) == []


def test_12_03_a_moved_model_that_can_be_engaged_must_be():
    bodies = squad("a", 10, 10, 2, 1, per_rank=1) + squad("b", 10, 10 + 2 * D32 + 0.3 + 3.0, 1, 2)
    y1 = 10 + D32 + 0.3                   # a/1 is 3" from b/0; a/0 behind it
    probs = pile_in_conditions("a", ["b"], {"a/1": [(10, y1), (10, y1 + 0.5)]}, bodies, [],
                               BOARD)
    assert [p.model for p in probs] == ["a/1", None] and "could end engaged" in probs[0].message
    assert "must end a pile-in move engaged" in probs[1].message
    ok = {"a/1": [(10, y1), (10, y1 + 1.0)], "a/0": [(10, 10), (10, 11.0)]}
    assert pile_in_conditions("a", ["b"], ok, bodies, [], BOARD) == []


def test_12_03_the_unit_must_end_engaged():
    bodies = squad("a", 10, 10, 1, 1) + squad("b", 10, 10 + D32 + 4.5, 1, 2)
    probs = pile_in_conditions("a", ["b"], {"a/0": [(10, 10), (10, 11)]}, bodies, [], BOARD)
    assert any(p.model is None and "engaged" in p.message for p in probs)
    assert pile_in_conditions("a", ["b"], {"a/0": [(10, 10), (10, 12.5)]}, bodies, [],
                              BOARD) == []
    # behind a long dense wall: a model that may not cross it cannot end engaged in 3"; one
    # that may (INFANTRY) crosses it
    wall = ((5.0, 10.8), (15.0, 10.8), (15.0, 11.1), (5.0, 11.1))
    areas = [TerrainArea("wall", wall, (Feature("dense", wall),))]
    bodies = squad("a", 10, 10, 1, 1) + squad("b", 10, 13.6, 1, 2)
    sol = solve_pile_in("a", bodies, areas, BOARD)
    assert not sol and "must end a pile-in move engaged" in sol.reason
    sol = solve_pile_in("a", bodies, areas, BOARD, may_cross_dense=True)
    assert sol and check_pile_in("a", sol.targets, sol.paths, bodies, areas, BOARD,
                                 may_cross_dense=True) == []
    assert check_pile_in("a", sol.targets, sol.paths, bodies, areas, BOARD)[0].rule == \
        "13.06, Part A 12"


def test_12_03_models_keep_the_engagements_they_began_with():
    # a/0 is engaged with c (1.5" away, not in base contact) and moves towards b
    bodies = squad("a", 10, 10, 1, 1) + [Body("c/0", "c", 2, round_base(32, 10 - D32 - 1.5, 10)),
                                         Body("b/0", "b", 2, round_base(32, 10 + D32 + 1.0, 10))]
    probs = pile_in_conditions("a", ["b", "c"], {"a/0": [(10, 10), (10.9, 10)]}, bodies, [],
                               BOARD)
    assert any("began engaged with c" in p.message for p in probs)
    assert pile_in_conditions("a", ["b", "c"], {"a/0": [(10, 10), (10.4, 10)]}, bodies, [],
                              BOARD) == []


def test_12_03_targets_must_be_the_engaged_units():
    bodies = squad("a", 10, 10, 1, 1) + squad("b", 10, 10 + D32 + 1.0, 1, 2) \
        + squad("c", 10, 10 - D32 - 4.0, 1, 2)
    probs = pile_in_conditions("a", ["c"], {}, bodies, [], BOARD)
    assert probs and probs[0].rule == "12.03" and probs[0].model is None


# --- the solver ------------------------------------------------------------------------------

def test_18_pile_in_brings_models_into_engagement_and_leaves_base_contact_alone():
    bodies = squad("a", 20, 10, 10, 1) + squad("b", 20, 10 + 2 * (D32 + 0.3) + 1.8, 5, 2)
    # a/5 is moved into base contact with b/0 beforehand
    bodies = [x if x.model != "a/5" else Body("a/5", "a", 1, round_base(
        32, 20, 10 + 2 * (D32 + 0.3) + 1.8 - D32)) for x in bodies]
    assume_coherent = [(x.model, x.fp) for x in bodies if x.unit == "a"]
    assert is_coherent(assume_coherent)
    sol = solve_pile_in("a", bodies, [], BOARD)
    assert sol, sol.reason
    assert "a/5" not in sol.paths
    assert check_pile_in("a", sol.targets, sol.paths, bodies, [], BOARD) == []
    ends = ends_of(bodies, sol.paths)
    enemy = [x.fp for x in bodies if x.unit == "b"]
    engaged = [m for m, f in ends.items() if m.startswith("a/")
               and min(distance(f, e) for e in enemy) <= 2 + 1e-9]
    assert len(engaged) >= 8
    assert all(path_length(p) <= 3 + 1e-9 for p in sol.paths.values())


def test_18_pile_in_is_deterministic_and_order_independent():
    bodies = squad("a", 20, 10, 8, 1, per_rank=4) + squad("b", 21, 10 + 2 * D32 + 2.5, 4, 2)
    sol = solve_pile_in("a", bodies, [], BOARD)
    shuffled = list(bodies)
    random.Random(4).shuffle(shuffled)
    assert solve_pile_in("a", shuffled, [], BOARD) == sol
    assert solve_pile_in("a", BodyIndex(bodies), [], BOARD) == sol


def test_18_pile_in_after_a_charge_towards_a_unit_within_5_inches():
    bodies = squad("a", 20, 10, 3, 1) + squad("b", 20, 10 + D32 + 2.5, 2, 2)
    sol = solve_pile_in("a", bodies, [], BOARD)
    assert sol and sol.targets == ("b",)
    ends = ends_of(bodies, sol.paths)
    assert engaged_units("a", {m: f for m, f in ends.items() if m.startswith("a/")},
                         bodies) == ["b"]


# --- random layouts --------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(melee_layouts())
def test_18_pile_in_solver_output_always_passes_the_checks(lay):
    bodies, areas = lay
    sol = solve_pile_in("a", bodies, areas, BOARD)
    # unchecked (a player's command, which Battle.check checks with check_pile_in): the rules
    # accept its move exactly when the solver's own check does, and then it is the same move;
    # so a player that takes a refused command as none makes the same choice either way
    quick = solve_pile_in("a", bodies, areas, BOARD, moving_only=True, checked=False)
    if quick.paths:
        accepted = check_pile_in("a", quick.targets, quick.paths, bodies, areas, BOARD) == []
        assert accepted == bool(sol)
        if accepted:
            assert quick == sol
    if sol:
        assert check_pile_in("a", sol.targets, sol.paths, bodies, areas, BOARD) == []
        assert all(path_length(p) <= 3 + 1e-9 for p in sol.paths.values())
    else:
        assert sol.reason


def test_12_03_a_unit_wholly_in_base_contact_piles_in_without_moving():
    bodies = squad("a", 10, 10, 2, 1, per_rank=1, gap=0.0) + \
        [Body("b/0", "b", 2, round_base(32, 10 + D32, 10)),
         Body("b/1", "b", 2, round_base(32, 10 + D32, 10 + D32))]
    sol = solve_pile_in("a", bodies, [], BOARD)
    assert sol and sol.paths == {} and sol.targets == ("b",)


def test_12_03_moving_only_leaves_a_placement_that_moves_nobody_unverified():
    # a/0 and a/1, each in base contact with a model of b, 6" apart: out of coherency (03.03),
    # so staying put is no legal pile-in (the verified answer); a command that takes only a
    # move gets the placement as it is, empty, and makes no move either way
    bodies = [Body("a/0", "a", 1, round_base(32, 10, 10)), Body("a/1", "a", 1, round_base(32, 10, 16)),
              Body("b/0", "b", 2, round_base(32, 10 + D32, 10)),
              Body("b/1", "b", 2, round_base(32, 10 + D32, 16))]
    verified = solve_pile_in("a", bodies, [], BOARD)
    assert not verified and "(03.03)" in verified.reason
    quick = solve_pile_in("a", bodies, [], BOARD, moving_only=True)
    assert quick.paths == {} and quick.targets == ("b",)


@settings(max_examples=60, deadline=None)
@given(melee_layouts())
def test_12_03_moving_only_changes_no_move(lay):
    bodies, areas = lay
    sol = solve_pile_in("a", bodies, areas, BOARD)
    quick = solve_pile_in("a", bodies, areas, BOARD, moving_only=True)
    if quick.paths:
        assert quick == sol
    else:
        assert not (sol and sol.paths)
