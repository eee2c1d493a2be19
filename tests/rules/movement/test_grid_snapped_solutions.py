"""The solvers' spots are on the measuring grid (sim.rules.grid) and their moves, as the command
carries them (each end and turning point snapped: sim.commands.base.on_grid), pass the very
checks the command's check calls; spots aimed at base contact or a full move stay legal once
snapped (sim.rules.movement.solvers.place: CONTACT_AIM, AIM_MARGIN)."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings, strategies as st

from sim.rules.coherency import is_coherent
from sim.rules.geometry import distance, round_base
from sim.rules.grid import SNAP_REACH, snap, snap_places, snap_turns
from sim.rules.movement.index import TOUCH
from sim.rules.movement.legality import Body, engaged_units, path_length
from sim.rules.movement.solvers.charge import check_charge, default_charge_targets, solve_charge
from sim.rules.movement.solvers.pile_in import (check_consolidation, check_pile_in, solve_consolidation,
                                                 solve_pile_in)
from sim.rules.movement.solvers.place import BASE_CONTACT, CONTACT_AIM
from sim.rules.objectives import on_terrain
from _move_layouts import melee_layouts, squad
from test_12_08_consolidation_solver import mark

BOARD = (60.0, 44.0)


def as_commanded(solution, bodies) -> dict:
    """The solution's paths rebuilt from what a command carries (its 'to' and 'via', snapped as
    the command snaps them), from each model's start."""
    start = {b.model: (b.fp.x, b.fp.y) for b in bodies}
    ends = snap_places(tuple((m, p[-1][0], p[-1][1]) for m, p in sorted(solution.paths.items())))
    turns = dict(snap_turns(tuple((m, tuple(p[1:-1])) for m, p in sorted(solution.paths.items())
                                  if len(p) > 2)))
    return {m: (start[m], *turns.get(m, ()), (x, y)) for m, x, y in ends}


def on_grid(solution) -> bool:
    return all(snap(v) == v for p in solution.paths.values() for pt in p[1:] for v in pt)


@settings(max_examples=40, deadline=None)
@given(melee_layouts())
def test_a_pile_in_as_commanded_passes_the_pile_in_check(lay):
    bodies, areas = lay
    sol = solve_pile_in("a", bodies, areas, BOARD)
    assume(sol and sol.paths)
    assert on_grid(sol)
    paths = as_commanded(sol, bodies)
    assert paths == {m: tuple(p) for m, p in sol.paths.items()}   # (the snap changes nothing)
    assert check_pile_in("a", sol.targets, paths, bodies, areas, BOARD) == []


@settings(max_examples=30, deadline=None)
@given(melee_layouts(), st.lists(st.tuples(st.floats(2, 58), st.floats(2, 42)), max_size=2))
def test_a_consolidation_as_commanded_passes_the_consolidation_check(lay, points):
    bodies, areas = lay
    objectives = [on_terrain(mark(x, y, f"o{k}"), areas) for k, (x, y) in enumerate(points)]
    sol = solve_consolidation("a", bodies, areas, BOARD, objectives)
    assume(sol and sol.paths)
    assert on_grid(sol)
    obj = objectives[sol.objective] if sol.objective is not None else None
    assert check_consolidation("a", sol.mode, sol.targets, obj, as_commanded(sol, bodies), bodies, areas,
                               BOARD) == []


@st.composite
def charges(draw):
    """A squad and an enemy squad 1-11" apart in any direction (positions off the grid), and a roll."""
    n, mm = draw(st.integers(1, 8)), draw(st.sampled_from([25, 32, 40]))
    ax, ay = draw(st.floats(15, 45)), draw(st.floats(12, 32))
    bodies = squad("a", ax, ay, n, 1, mm=mm, per_rank=draw(st.integers(2, 5)))
    a = draw(st.floats(0, 2 * math.pi))
    d = draw(st.floats(3, 11))
    bodies += squad("b", ax + d * math.cos(a), ay + d * math.sin(a), draw(st.integers(1, 5)), 2,
                    mm=draw(st.sampled_from([25, 32, 50])), per_rank=draw(st.integers(1, 5)))
    own = {x.model: x.fp for x in bodies if x.unit == "a"}
    assume(is_coherent(list(own.items())) and not engaged_units("a", own, bodies))
    assume(all(distance(p.fp, q.fp) > 0 for i, p in enumerate(bodies) for q in bodies[i + 1:]))
    return bodies, draw(st.integers(2, 12))


@settings(max_examples=40, deadline=None)
@given(charges())
def test_a_charge_as_commanded_passes_the_charge_check(lay):
    bodies, roll = lay
    targets = default_charge_targets("a", roll, bodies)
    assume(targets)
    sol = solve_charge("a", targets, roll, bodies, [], BOARD)
    assume(sol)
    assert on_grid(sol)
    assert check_charge("a", targets, as_commanded(sol, bodies), bodies, [], BOARD, roll=roll) == []


def test_a_contact_spot_aimed_at_contact_aim_survives_the_snap_where_an_exact_one_would_not():
    """A round base put in contact with another at 720 directions (off the grid): snapped, the
    exact contact spot overlaps it (by more than TOUCH) at some of them; aimed at CONTACT_AIM it
    never does, and stays within BASE_CONTACT (base contact) every time."""
    ref = round_base(32, 20.123456789, 17.987654321)
    reach = ref.length  # (two 32 mm bases in contact: centres one base apart)
    overlapped, gaps = 0, []
    for k in range(720):
        a = 2 * math.pi * k / 720
        for aim, out in ((0.0, None), (CONTACT_AIM, gaps)):
            t = reach + aim
            x, y = snap(ref.x + t * math.cos(a)), snap(ref.y + t * math.sin(a))
            gap = math.hypot(x - ref.x, y - ref.y) - reach   # (signed: below 0 the bases overlap)
            if out is None:
                overlapped += gap < -TOUCH
            else:
                out.append(gap)
    assert overlapped > 0
    assert min(gaps) >= -TOUCH and max(gaps) <= BASE_CONTACT
    assert CONTACT_AIM - SNAP_REACH > -TOUCH and CONTACT_AIM + SNAP_REACH < BASE_CONTACT


def test_a_full_move_aimed_short_by_the_margin_stays_within_its_distance():
    """A spot at a model's whole distance, snapped, may land past it (by more than the 1e-9"
    tolerance); the Placer aims AIM_MARGIN short and the snapped spot is within it."""
    from sim.rules.grid import AIM_MARGIN
    past, worst = 0, 0.0
    x0, y0 = 10.1234567891, 20.9876543219
    for k in range(720):
        a = 2 * math.pi * k / 720
        for d, short in ((6.0, False), (6.0 - AIM_MARGIN, True)):
            x, y = snap(x0 + d * math.cos(a)), snap(y0 + d * math.sin(a))
            L = path_length(((x0, y0), (x, y)))
            if short:
                worst = max(worst, L)
            else:
                past += L > 6.0 + 1e-9
    assert past > 0 and worst <= 6.0
