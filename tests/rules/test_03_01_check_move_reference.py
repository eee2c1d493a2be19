"""03.01 / 03.03 check_move against a frozen copy of itself (tests/rules/_move_ref_*.py: the
function, its kernels and the coherency matrix checks as they were before they were made
faster): the same problems in the same order, the same messages and the same distances to
the bit, on the calls of real random battles and on generated moves (round, oval and
rectangular bases, terrain, board edges, enemies). And the coherency screen (bounds only)
never contradicts the measured coherency."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from hypothesis import given, settings, strategies as st

import _move_ref_legality as REF
from sim.rules.movement import legality as ML
from sim.rules.coherency import coherency_problems, coherency_screen
from sim.rules.geometry import footprint, round_base
from sim.rules.movement.legality import Body, BodyIndex, check_move, end_coherency_problems, end_coherent
from sim.rules.terrain import Feature, TerrainArea

ROOT = Path(__file__).resolve().parents[2]


def same(a, b) -> bool:
    """Equal problem lists, distances compared bit for bit (nan never occurs)."""
    return a == b and [p.distance for p in a] == [p.distance for p in b]


def _record_battle(monkeypatch, scenario: str, seed: int) -> list:
    from sim.battle import Battle
    from sim.players import play_battle
    from sim.scenario.load import load_scenario
    spec = load_scenario(str(ROOT / "scenarios" / f"{scenario}.toml"))
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    calls, orig = [], ML.check_move

    def rec(*a, **k):
        out = orig(*a, **k)
        calls.append((a, k, out))
        return out
    monkeypatch.setattr(ML, "check_move", rec)
    with Battle(spec, seed=seed) as b:
        play_battle(b, spec)
    monkeypatch.setattr(ML, "check_move", orig)
    return calls


def test_03_01_check_move_matches_the_reference_on_real_battles(monkeypatch):
    checked = refused = 0
    for scenario, seed in (("battle_default", 1), ("battle_default", 2), ("battle_random", 1)):
        for a, k, got in _record_battle(monkeypatch, scenario, seed):
            want = REF.check_move(*a, **k)
            assert same(got, want), (scenario, seed, a[0], got, want)
            checked += 1
            refused += bool(want)
    assert checked > 150 and 20 < refused < checked - 20     # both outcomes well exercised


# --- generated moves ------------------------------------------------------------------------

BOARD = (30.0, 24.0)
coord = st.floats(-1.5, 31.5, allow_nan=False)


@st.composite
def base(draw, x, y):
    shape = draw(st.sampled_from(["round", "round", "oval", "rect"]))
    if shape == "round":
        return round_base(draw(st.sampled_from([25, 32, 40, 60])), x, y)
    length = draw(st.floats(1.5, 5.0))
    return footprint(shape, x, y, length, draw(st.floats(1.0, length)), draw(st.floats(0, 360)))


@st.composite
def moves(draw):
    n_own = draw(st.integers(1, 6))
    ax, ay = draw(st.floats(0.5, 29.5)), draw(st.floats(0.5, 23.5))
    own = [Body(f"a/{k}", "a", 1, draw(base(ax + draw(st.floats(-4, 4)), ay + draw(st.floats(-4, 4)))))
           for k in range(n_own)]
    others = [Body(f"e{k % 3}/{k}", f"e{k % 3}", draw(st.sampled_from([1, 2])),
                   draw(base(draw(st.floats(0, 30)), draw(st.floats(0, 24)))))
              for k in range(draw(st.integers(0, 9)))]
    areas = []
    for k in range(draw(st.integers(0, 3))):
        x0, y0 = draw(st.floats(0, 27)), draw(st.floats(0, 21))
        w, h = draw(st.floats(0.3, 5)), draw(st.floats(0.3, 5))
        poly = ((x0, y0), (x0 + w, y0), (x0 + w * draw(st.floats(0.3, 1)), y0 + h), (x0, y0 + h))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(draw(st.sampled_from(
            ["exposed", "light", "dense"])), poly),)))
    paths, angles = {}, {}
    for body in own:
        if draw(st.integers(0, 3)):
            pts = [(body.fp.x + draw(st.sampled_from([0.0, 0.0, 0.0, 1e-5])), body.fp.y)]
            pts += draw(st.lists(st.tuples(coord, coord), min_size=0, max_size=3))
            paths[body.model] = pts
            if draw(st.integers(0, 3)) == 0:
                angles[body.model] = draw(st.floats(0, 360))
    if draw(st.integers(0, 9)) == 0:
        paths["e0/0"] = [(1.0, 1.0), (2.0, 2.0)]                 # not a model of the unit
    limit = draw(st.one_of(st.floats(0.5, 14), st.just({m: 6.0 + k for k, m in enumerate(paths)})))
    impassable = tuple(b.model for b in others if draw(st.integers(0, 3)) == 0)
    return own + others, areas, paths, angles or None, limit, impassable


@settings(max_examples=300, deadline=None)
@given(moves(), st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["09.05", "09.06", "09.07", "11.04", "12.03"]))
def test_03_01_check_move_matches_the_reference_on_generated_moves(mv, cross, through, unengaged,
                                                                   coherency, indexed, rule):
    bodies, areas, paths, angles, limit, impassable = mv
    if indexed:
        idx = BodyIndex(bodies)
        bodies = idx.moved([(b.model, b.fp.moved(b.fp.x + 0.5, b.fp.y)) for b in bodies[:2]])
    kw = dict(max_distance=limit, rule=rule, may_cross_dense=cross, through_enemies=through,
              impassable=impassable, end_unengaged=unengaged, check_coherency=coherency, angles=angles)
    assert same(check_move("a", paths, bodies, areas, BOARD, **kw),
                REF.check_move("a", paths, bodies, areas, BOARD, **kw))
    # the same index asked twice (its kept rows and boxes) gives the same again
    if indexed:
        assert same(check_move("a", paths, bodies, tuple(areas), BOARD, **kw),
                    REF.check_move("a", paths, bodies, areas, BOARD, **kw))


# --- the coherency screen -------------------------------------------------------------------

@st.composite
def units(draw):
    n = draw(st.integers(2, 8))
    x, y = draw(st.floats(5, 25)), draw(st.floats(5, 25))
    spread = draw(st.sampled_from([1.5, 3.0, 6.0, 12.0]))
    return [(f"m{k}", draw(base(x + draw(st.floats(-spread, spread)), y + draw(st.floats(-spread, spread)))))
            for k in range(n)]


@settings(max_examples=400, deadline=None)
@given(units())
def test_03_03_the_coherency_screen_never_contradicts_the_measure(unit):
    ids, fps = [m for m, _ in unit], [f for _, f in unit]
    probs = coherency_problems(unit)
    sure = coherency_screen(fps)
    if sure is not None:
        assert sure == (not probs)
    assert end_coherent(ids, fps) == (not probs)
    assert same(end_coherency_problems(ids, fps), REF.end_coherency_problems(ids, fps))


def test_03_03_the_screen_decides_clear_cases_and_leaves_the_edge_to_measuring():
    d = 32 / 25.4
    row = [round_base(32, 5 + k * (d + 1.0), 5) for k in range(3)]           # 1" gaps
    assert coherency_screen(row) is True
    apart = [round_base(32, 5, 5), round_base(32, 5 + d + 3.0, 5)]             # 3" gap
    assert coherency_screen(apart) is False
    edge = [round_base(32, 5, 5), round_base(32, 5 + d + 2.0, 5)]              # exactly 2"
    assert coherency_screen(edge) is None and end_coherent(["a", "b"], edge)
    long = [round_base(32, 5 + k * (d + 1.9), 5) for k in range(5)]            # links hold, 9" span broken
    assert coherency_screen(long) is False or coherency_screen(long) is None
    assert not end_coherent([f"m{k}" for k in range(5)], long)
    # an oval's inner circle is a little less than its half width: 2" apart edge to edge
    # along the minor axis is left to measuring, well inside it is sure
    ov = [footprint("oval", 5, 5, 4.0, 2.0), footprint("oval", 5, 5 + 2.0 + 1.0, 4.0, 2.0)]
    assert coherency_screen(ov) is True
    far = [footprint("oval", 5, 5, 4.0, 2.0), footprint("oval", 5, 5 + 2.0 + 2.0 - 1e-9, 4.0, 2.0)]
    assert coherency_screen(far) is None
    assert math.isclose(REF.fps_distance_matrix(far)[0, 1], 2.0, abs_tol=1e-6)
