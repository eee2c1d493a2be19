"""03.01 / 03.03 / 03.04 check_move against an independent brute-force oracle
(tests/rules/movement/_move_oracle.py: written from the rules' text and the check's documented
contract, sampled outlines and stepped paths, no code of the engine). Every question the oracle
decides (which models' paths are blocked, too long, over the edge or through a dense feature;
which end on a base or in a feature, or engaged; coherency) must get the same answer from the
engine; a question whose deciding quantity lies within the oracle's margin (0.03") of its
threshold is not compared (the margin is argued in the oracle's docstring).

On random moves (round, oval and rectangular bases; terrain; friends and enemies near), on
hand-picked layouts whose answers are also stated here, and on the calls of a real battle. The
comparison is shown not to be vacuous: each of a set of deliberate mutations of the engine
(engagement range 1.9", coherency 2.2", terrain ignored, ...) makes it fail on the random moves.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sim.rules import geometry as GEO
from sim.rules import coherency as COH
from sim.rules.geometry import footprint, round_base
from sim.rules.movement import legality as ML
from sim.rules.movement.legality import Body, BodyIndex, TerrainIndex, check_move
from sim.rules.terrain import Feature, TerrainArea

from _move_oracle import KINDS, UNIT_KINDS, disagreements, engine_atoms, oracle_verdict

ROOT = Path(__file__).resolve().parents[3]
BOARD = (30.0, 24.0)
N_CASES = 150


# --- random moves ---------------------------------------------------------------------------

def random_base(rng, x, y):
    kind = rng.integers(0, 4)
    if kind < 2:
        return round_base(int(rng.choice([25, 32, 40, 60])), x, y)
    length = rng.uniform(1.5, 5.0)
    return footprint("oval" if kind == 2 else "rect", x, y, length, rng.uniform(1.0, length),
                     rng.uniform(0, 360))


def random_move(rng):
    """Unit "a" (1-6 models of player 1 about one spot), 0-9 other models (units e0-e2, friends
    and enemies, half of them near), 0-3 terrain quads near (exposed, light or dense), a path
    for most models (short hops or across the board; now and then one starting a hair off its
    model, or one for a model of another unit), end facings, and the check's options."""
    ax, ay = rng.uniform(0.5, 29.5), rng.uniform(0.5, 23.5)
    own = [Body(f"a/{k}", "a", 1, random_base(rng, ax + rng.uniform(-4, 4), ay + rng.uniform(-4, 4)))
           for k in range(rng.integers(1, 7))]
    others = []
    for k in range(rng.integers(0, 10)):
        x, y = ((ax + rng.uniform(-7, 7), ay + rng.uniform(-7, 7)) if rng.integers(0, 2)
                else (rng.uniform(0, 30), rng.uniform(0, 24)))
        others.append(Body(f"e{k % 3}/{k}", f"e{k % 3}", int(rng.choice([1, 2, 2])),
                           random_base(rng, x, y)))
    areas = []
    for k in range(rng.integers(0, 4)):
        x0, y0 = ax + rng.uniform(-8, 5), ay + rng.uniform(-8, 5)
        w, h = rng.uniform(0.3, 5), rng.uniform(0.3, 5)
        poly = ((x0, y0), (x0 + w, y0), (x0 + w * rng.uniform(0.3, 1), y0 + h), (x0, y0 + h))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(str(rng.choice(["exposed", "light", "dense"])),
                                                         poly),)))
    paths, angles = {}, {}
    for body in own:
        if rng.integers(0, 4):
            pts = [(body.fp.x + (1e-4 if rng.integers(0, 12) == 0 else 0.0), body.fp.y)]
            for _ in range(rng.integers(0, 4)):
                pts.append((pts[-1][0] + rng.uniform(-3, 3), pts[-1][1] + rng.uniform(-3, 3))
                           if rng.integers(0, 2) else (rng.uniform(-1.5, 31.5), rng.uniform(-1.5, 25.5)))
            paths[body.model] = pts
            if rng.integers(0, 4) == 0:
                angles[body.model] = rng.uniform(0, 360)
    if rng.integers(0, 10) == 0:
        paths["e0/0"] = [(1.0, 1.0), (2.0, 2.0)]                 # not a model of the unit
    limit = rng.uniform(0.5, 14) if rng.integers(0, 2) else {m: 6.0 + k for k, m in enumerate(paths)}
    kw = dict(max_distance=limit, rule=str(rng.choice(["09.05", "09.06", "09.07", "11.04", "12.03"])),
              may_cross_dense=bool(rng.integers(0, 2)), through_enemies=bool(rng.integers(0, 2)),
              impassable=tuple(b.model for b in others if rng.integers(0, 4) == 0),
              end_unengaged=bool(rng.integers(0, 2)), check_coherency=bool(rng.integers(0, 2)),
              angles=angles or None)
    bodies = own + others
    if rng.integers(0, 2):      # an index of the table, moved once (as play keeps it)
        bodies = BodyIndex(bodies).moved([(b.model, b.fp.moved(b.fp.x + 0.5, b.fp.y))
                                          for b in bodies[:2]])
    return ("a", paths, bodies, tuple(areas), BOARD), kw


@functools.lru_cache(maxsize=1)
def random_cases():
    """N_CASES seeded random moves with the oracle's verdict on each (kept: the mutation
    tests ask the same)."""
    rng = np.random.default_rng(301)
    out = []
    for _ in range(N_CASES):
        args, kw = random_move(rng)
        out.append((args, kw, oracle_verdict(*args, **kw)))
    return out


def test_03_01_check_move_matches_the_oracle_on_random_moves():
    decided, unsure = Counter(), 0
    for n, (args, kw, verdict) in enumerate(random_cases()):
        got = check_move(*args, **kw)
        assert disagreements(verdict, got) == [], (n, [str(p) for p in got])
        assert check_move(*args, **kw) == got      # an index asked twice (its kept rows, boxes)
        for (_, kind), answer in verdict.items():
            decided[(kind, answer)] += 1
            unsure += answer is None
    # every question answered both ways, many times; few left to the margin
    for kind in KINDS + UNIT_KINDS:
        if kind not in ("bad_path", "no_unit"):          # hand-picked below
            assert decided[(kind, True)] >= 10 and decided[(kind, False)] >= 40, (kind, decided)
    assert unsure < 0.02 * sum(decided.values())


# --- hand-picked layouts (the oracle's answers stated, and the engine's compared) -----------

D32 = 32 / 25.4


def rb(mid, x, y, player=1, mm=32):
    return Body(mid, mid.split("/")[0], player, round_base(mm, x, y))


def hull(mid, shape, x, y, length, width, angle=0.0, player=1):
    return Body(mid, mid.split("/")[0], player, footprint(shape, x, y, length, width, angle))


def box(name, x0, y0, x1, y1, category="dense"):
    poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainArea(name, poly, (Feature(category, poly),))


def line(n, x, y, gap, unit="a"):
    """``n`` 32 mm bases in a row, ``gap`` inches apart edge to edge."""
    return [rb(f"{unit}/{k}", x + k * (D32 + gap), y) for k in range(n)]


HAND = {   # name: (bodies, areas, paths, options, the questions answered True)
    "a round base grazes an enemy 0.1\" clear": (
        [rb("a/1", 5, 5), rb("b/1", 8, 5 + D32 + 0.1, 2)], [], {"a/1": [(5, 5), (11, 5)]}, {}, set()),
    "and clips it 0.1\" deep": (
        [rb("a/1", 5, 5), rb("b/1", 8, 5 + D32 - 0.1, 2)], [], {"a/1": [(5, 5), (11, 5)]}, {},
        {("a/1", "enemy")}),
    "through enemies it may": (
        [rb("a/1", 5, 5), rb("b/1", 8, 5 + D32 - 0.1, 2)], [], {"a/1": [(5, 5), (11, 5)]},
        {"through_enemies": True}, set()),
    "but not through an impassable one": (
        [rb("a/1", 5, 5), rb("b/1", 8, 5 + D32 - 0.1, 2)], [], {"a/1": [(5, 5), (11, 5)]},
        {"through_enemies": True, "impassable": ("b/1",)}, {("a/1", "enemy")}),
    "friendly bases may be crossed, not ended on": (
        [rb("a/1", 5, 5), rb("f/1", 8, 5), rb("f/2", 11, 5)], [], {"a/1": [(5, 5), (11, 5)]}, {},
        {("a/1", "overlap")}),
    "a rectangle slides 0.1\" clear of a wall, then turns into it (the turn sweeps it)": (
        [hull("a/1", "rect", 5, 5, 4, 2)], [box("w", 3, 6.1, 15, 7)], {"a/1": [(5, 5), (10, 5)]},
        {"angles": {"a/1": 90.0}}, {("a/1", "feature"), ("a/1", "dense")}),
    "a rectangle turning in place swings across an enemy base at its corner": (
        [hull("a/1", "rect", 5, 5, 4, 1), rb("b/1", 6.3, 6.3, 2)], [], {}, {"angles": {"a/1": 90.0}},
        {("a/1", "enemy")}),
    "and turned the other way round, the same (the shorter way)": (
        [hull("a/1", "rect", 5, 5, 4, 1), rb("b/1", 6.3, 6.3, 2)], [], {}, {"angles": {"a/1": 270.0}},
        {("a/1", "enemy")}),
    "a rectangle that cannot turn at the end of its path turns at its start": (
        [hull("a/1", "rect", 5, 5, 4, 1)], [box("w", 16.0, 6.0, 16.5, 6.5)], {"a/1": [(5, 5), (13, 5)]},
        {"angles": {"a/1": 90.0}, "max_distance": 10.0}, set()),
    "but not where a post stands by each end": (
        [hull("a/1", "rect", 5, 5, 4, 1)], [box("w", 16.0, 6.0, 16.5, 6.5), box("v", 6.0, 6.0, 6.5, 6.5)],
        {"a/1": [(5, 5), (15, 5)]}, {"angles": {"a/1": 90.0}, "max_distance": 12.0}, {("a/1", "dense")}),
    "a rectangle may not cross a dense wall": (
        [hull("a/1", "rect", 5, 5, 4, 2)], [box("w", 8, 2, 8.4, 9)], {"a/1": [(5, 5), (11, 5)]},
        {}, {("a/1", "dense")}),
    "an infantry model may, but may not end in it": (
        [rb("a/1", 5, 5)], [box("w", 8, 2, 8.4, 9)], {"a/1": [(5, 5), (8.2, 5)]},
        {"may_cross_dense": True}, {("a/1", "feature")}),
    "light features may be crossed, not ended on; exposed ones may": (
        [rb("a/1", 5, 5), rb("a/2", 5, 5 + D32 + 1)], [box("l", 7, 3, 8, 9, "light"),
                                                      box("x", 8.8, 3, 9.8, 9, "exposed")],
        {"a/1": [(5, 5), (7.5, 5)], "a/2": [(5, 5 + D32 + 1), (9.3, 5 + D32 + 1)]}, {},
        {("a/1", "feature")}),
    "an oval ends across a barricade": (
        [hull("a/1", "oval", 5, 5, 4, 2)], [box("l", 9, 2, 9.3, 8, "light")],
        {"a/1": [(5, 5), (8, 5)]}, {}, {("a/1", "feature")}),
    "an oval enemy 1.9\" from the end of a normal move": (
        [rb("a/1", 5, 5), hull("b/1", "oval", 12, 5, 4, 2, 90, player=2)], [],
        {"a/1": [(5, 5), (12 - 1 - 1.9 - D32 / 2, 5)]}, {"end_unengaged": True},
        {("a/1", "engagement")}),
    "and 2.1\" away": (
        [rb("a/1", 5, 5), hull("b/1", "oval", 12, 5, 4, 2, 90, player=2)], [],
        {"a/1": [(5, 5), (12 - 1 - 2.1 - D32 / 2, 5)]}, {"end_unengaged": True}, set()),
    "a path may not leave the board even if it comes back": (
        [rb("a/1", 2, 5)], [], {"a/1": [(2, 5), (0.4, 5), (2, 5.5)]}, {}, {("a/1", "edge")}),
    "a rectangle that fits along the edge but not once turned": (
        [hull("a/1", "rect", 2.2, 10, 4, 1, 90)], [], {"a/1": [(2.2, 10), (1.0, 10)]},
        {"angles": {"a/1": 0.0}}, {("a/1", "edge")}),
    "a path too long, and one of another unit's model": (
        [rb("a/1", 5, 5), rb("b/1", 20, 20, 2)], [], {"a/1": [(5, 5), (13.5, 5)], "b/1": [(20, 20)]},
        {}, {("a/1", "distance"), ("b/1", "not_in_unit")}),
    "a path starting off its model": (
        [rb("a/1", 5, 5)], [], {"a/1": [(5.1, 5), (6, 5)]}, {}, {("a/1", "start")}),
    "a path with a point at infinity": (
        [rb("a/1", 5, 5)], [], {"a/1": [(5, 5), (math.inf, 5)]}, {}, {("a/1", "bad_path")}),
    "a unit with no models": ([rb("b/1", 5, 5)], [], {}, {}, {(None, "no_unit")}),
    "two models of the unit end on each other": (
        [rb("a/1", 5, 5), rb("a/2", 5 + D32 + 0.5, 5)], [], {"a/2": [(5 + D32 + 0.5, 5), (5.5, 5)]},
        {}, {(None, "own_overlap")}),
    "a row 1.9\" apart is coherent": (line(4, 5, 5, 1.9), [], {}, {}, set()),
    "the last one moved to 2.1\" breaks the link and the group": (
        line(4, 5, 5, 1.9), [], {"a/3": [(5 + 3 * (D32 + 1.9), 5), (5 + 3 * (D32 + 1.9) + 0.2, 5)]},
        {}, {("a/3", "link"), (None, "split")}),
    "seven in a row 1.5\" apart span more than 9\"": (
        line(7, 3, 5, 1.5), [], {}, {}, {(f"a/{k}", "span") for k in (0, 1, 2, 4, 5, 6)}),
    "two rectangles of the unit 1.95\" apart, one turned": (
        [hull("a/1", "rect", 5, 5, 3, 1), hull("a/2", "rect", 5, 5 + 1 + 1.95, 3, 1, 30)], [],
        {"a/2": [(5, 7.95)]}, {"angles": {"a/2": 0.0}}, set()),
}


@pytest.mark.parametrize("name", list(HAND))
def test_03_01_check_move_matches_the_oracle_on_hand_picked_layouts(name):
    bodies, areas, paths, options, wanted = HAND[name]
    kw = dict(max_distance=8.0, rule="09.05") | options
    verdict = oracle_verdict("a", paths, bodies, areas, (30.0, 24.0), **kw)
    assert {q for q, a in verdict.items() if a is True} == wanted
    assert None not in verdict.values()                                  # none left unsure
    got = check_move("a", paths, bodies, areas, (30.0, 24.0), **kw)
    assert disagreements(verdict, got) == [] and engine_atoms(got) == wanted, [str(p) for p in got]


# --- the calls of a real battle --------------------------------------------------------------

def test_03_01_check_move_matches_the_oracle_on_a_real_battle(monkeypatch):
    """Every move the random players tried in a battle of the default scenario (units of ten,
    ruins and woods, a tank and a walker), each checked: the players' quick look (which skips
    the check of a move it finds certainly refused, and chooses the same) is off here."""
    from sim.battle import Battle
    from sim.players import options as O
    from sim.players import play_battle
    from sim.scenario.load import load_scenario
    monkeypatch.setattr(O, "quick_refusal", lambda battle, cmd: False)
    spec = load_scenario(str(ROOT / "scenarios" / "battle_default.toml"))
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    calls, orig = [], ML.check_move

    def rec(*a, **k):
        out = orig(*a, **k)
        calls.append((a, k, out))
        return out
    monkeypatch.setattr(ML, "check_move", rec)
    with Battle(spec, seed=1) as b:
        play_battle(b, spec)
    monkeypatch.setattr(ML, "check_move", orig)
    refused = 0
    for a, k, got in calls:
        assert disagreements(oracle_verdict(*a, **k), got) == [], (a[0], [str(p) for p in got])
        refused += bool(got)
    assert len(calls) > 40 and 10 < refused < len(calls) - 10


# --- the comparison is not vacuous: mutations of the engine make it fail --------------------

def _no_rows(*_a, **_k):
    return np.zeros(0, dtype=np.int64)


MUTATIONS = {   # name: (what to patch, the question that should then disagree)
    "engagement range 1.9\"": ((GEO, "ENGAGEMENT_RANGE", 1.9), "engagement"),  # (its one home, 03.04)
    "coherency link 2.2\"": ((COH, "COHERENCY_LINK", 2.2), "link"),
    "coherency span 9.5\"": ((COH, "COHERENCY_SPAN", 9.5), "span"),
    "terrain ignored": ((ML, "terrain_index", lambda areas: TerrainIndex(())), "feature"),
    "enemy bases never block a path": ((ML, "blocking_rows", _no_rows), "enemy"),
    "a path's length measured start to end": (
        (ML, "path_length", lambda pts: math.dist(pts[0], pts[-1]) if len(pts) else 0.0), "distance"),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_03_01_the_oracle_catches_a_mutated_engine(monkeypatch, name):
    (where, attr, value), kind = MUTATIONS[name]
    monkeypatch.setattr(where, attr, value)
    for args, kw, verdict in random_cases():
        found = disagreements(verdict, check_move(*args, **kw))
        if any(q[1] == kind for q, _, _ in found):
            return
    pytest.fail(f"the random moves never noticed: {name}")
