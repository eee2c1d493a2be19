"""03.01 / 13.06 sim.rules.movement.legality._hull_path_problems (checks 3-5 of a move for a base
that is not round: the battlefield edge, an enemy base, a dense feature crossed along its path)
and its compiled twin (sim.rules.compiled: ``movement.hull_path_problems``, which answers the
paths with nothing to find and leaves the rest to the reference): seeded tables of round and
hull bodies and dense features, ovals and rectangles dragged along paths of one to three
segments (and of no length) among them, the twin's every answer the reference's; a base a hair
either side of each limit (the edge, a round base, a hull's core, a feature's edge), answered
beyond the band and left to the reference within it; and the inputs the twin declines. The words
of each breach are path_blocker's own tests' (test_03_01_move_legality.py)."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint
from sim.rules.movement import legality as ML
from sim.rules.movement.index import TOUCH, Body, BodyIndex, TerrainIndex
from sim.rules.terrain import Feature, TerrainArea

from _move_layouts import dense_features

KERN = C.KERNELS["movement.hull_path_problems"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
BOARD = (44.0, 60.0)


def _hull(rng, x, y) -> Footprint:
    shape = ("oval", 3.5, 2.4) if rng.random() < 0.5 else ("rect", 4.0, 2.5)
    return Footprint(shape[0], float(x), float(y), shape[1], shape[2], float(rng.uniform(0, 360)))


def _table(rng) -> BodyIndex:
    """Player 0's hull "me" and bodies of both players: round bases of a few sizes and
    ovals and rectangles."""
    out = [Body("me", "u", 0, _hull(rng, *rng.uniform(4, 40, size=2)))]
    for k in range(int(rng.integers(3, 30))):
        x, y = rng.uniform(0, BOARD[0]), rng.uniform(0, BOARD[1])
        if rng.random() < 0.3:
            fp = _hull(rng, x, y)
        else:
            d = float(rng.choice([1.0, 1.26, 1.57, 1.97]))
            fp = Footprint("round", float(x), float(y), d, d)
        out.append(Body(f"m{k:02d}", f"v{k % 5}", int(k % 2), fp))
    return BodyIndex(out)


def _path(rng, fp: Footprint) -> np.ndarray:
    pts = [(fp.x, fp.y)]
    for _ in range(int(rng.integers(1, 4))):
        step = 0.0 if rng.random() < 0.1 else rng.uniform(0.5, 9)
        a = rng.uniform(0, 2 * math.pi)
        pts.append((pts[-1][0] + step * math.cos(a), pts[-1][1] + step * math.sin(a)))
    return np.array(pts, dtype=float)


@built
@pytest.mark.parametrize("seed", range(8))
def test_hull_path_problems_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    answered = found = 0
    for _ in range(50):
        idx, terr = _table(rng), dense_features(rng, BOARD, (1.0, 4.0))
        fp = idx.fps[idx.row["me"]]
        blockers = np.flatnonzero(idx.players != 0)
        for cross in (False, True, 2.5):
            pts = _path(rng, fp)
            args = (fp, pts, idx, terr, BOARD, blockers, cross)
            want = KERN.reference(*args)
            got = KERN.compiled(*args)
            found += bool(want)
            if got is not None:
                answered += 1
                assert got == [] and want == []
            # (one point: the edge alone, as check_move asks of a base turned at its end)
            one = (fp, pts[-1:], idx, terr, BOARD, blockers, True)
            got = KERN.compiled(*one)
            assert got is None or got == KERN.reference(*one) == []
    assert answered >= 80 and found >= 15, (answered, found)


def _one(body: Body | None, me: Footprint, pts, areas=()):
    bodies = [Body("me", "u", 0, me)] + ([body] if body is not None else [])
    idx = BodyIndex(bodies)
    return (me, np.array(pts, dtype=float), idx, TerrainIndex(list(areas)), BOARD,
            np.flatnonzero(idx.players != 0), False)


@built
@pytest.mark.parametrize("shift", [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 5e-10, -5e-10, 2e-9, -2e-9, 0.5 * TOUCH,
                                   -0.5 * TOUCH, 2 * TOUCH, -2 * TOUCH, 1e-6, -1e-6])
def test_hull_path_problems_compiled_on_each_limit(shift):
    """A rectangle 4" x 2" (its long side along x) dragged 10" along x: its path passing a round
    base and a rectangle's core at the depth the reference refuses (TOUCH), a dense wall at
    its edge, and ending at the battlefield's edge at TOUCH over it, each shifted by a hair
    (inward, ``shift`` < 0): answered beyond the band outward, left to the reference within it
    and wherever the reference finds something."""
    band = importlib.import_module("sim.rules._compiled.move").MOVE_HULL_BAND
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)           # (its top edge at y = 11)
    path = [(10.0, 10.0), (20.0, 10.0)]
    foe = Body("e", "e", 1, Footprint("round", 15.0, 11.0 + 0.5 - TOUCH + shift, 1.0, 1.0))
    rect = Body("h", "e", 1, Footprint("rect", 15.0, 11.0 + 0.5 - TOUCH + shift, 4.0, 1.0))
    wall = ((12.0, 11.0 + shift), (16.0, 11.0 + shift), (16.0, 14.0), (12.0, 14.0))
    cases = [
        (_one(foe, me, path), 0.0),                                                   # a round base
        (_one(rect, me, path), 0.0),                                                  # a hull's core
        (_one(None, me, path, [TerrainArea("w", wall, (Feature("dense", wall),))]), -TOUCH),  # a wall
        (_one(None, me, [(10.0, 10.0), (BOARD[0] - 2.0 + TOUCH - shift, 10.0)]), 0.0),        # the edge
    ]
    for args, refused_below in cases:
        want, got = KERN.reference(*args), KERN.compiled(*args)
        if abs(shift) >= 1e-12:
            assert bool(want) == (shift < refused_below)     # (the case is at the reference's limit)
        if shift > band:
            assert got == [] == want
        else:
            assert got is None
    # (the far side of each limit answers)
    assert KERN.compiled(*_one(foe, me, [(10.0, 5.0), (20.0, 5.0)])) == []


@built
def test_hull_path_problems_compiled_declines_what_it_does_not_take():
    me = Footprint("oval", 10.0, 10.0, 3.5, 2.4, 30.0)
    args = _one(None, me, [(10.0, 10.0), (15.0, 12.0)])
    assert KERN.compiled(*args) == []
    rnd = Footprint("round", 10.0, 10.0, 1.0, 1.0)
    assert KERN.compiled(rnd, *args[1:]) is None
    assert KERN.compiled(me, np.array([[10.0, 10.0], [math.nan, 1.0]]), *args[2:]) is None
    assert KERN.compiled(me, args[1].astype(np.float32), *args[2:]) is None
    assert KERN.compiled(me, args[1][:0], *args[2:]) is None
    assert KERN.compiled(*args[:5], args[5].astype(np.int32), args[6]) is None


def test_hull_path_problems_is_path_blocker_every_kind():
    """The reference: path_blocker with first_only False (an enemy in the way and the edge both)."""
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)
    foe = Body("e", "e", 1, Footprint("round", 15.0, 10.0, 1.0, 1.0))
    args = _one(foe, me, [(10.0, 10.0), (BOARD[0] + 1.0, 10.0)])
    kinds = [p[0] for p in ML._hull_path_problems.reference(*args)]
    assert kinds == ["enemy", "edge"]


@built
def test_hull_path_problems_compiled_corner_into_a_wall():
    """A rectangle dragged 10" along x whose leading top corner alone ends in a dense wall's
    corner (the wall farther from the path's centre line than the rectangle's sides reach):
    found by the reference, left to it by the twin; the same wall a little off, clear for both."""
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)            # (at (20, 10), a corner at (22, 11))
    for dip, found in ((0.1, True), (-0.1, False)):
        c = 22.0 - dip
        wall = ((c, c - 11.0), (c + 3.0, c - 11.0), (c + 3.0, c - 8.0), (c, c - 8.0))
        args = _one(None, me, [(10.0, 10.0), (20.0, 10.0)],
                    [TerrainArea("w", wall, (Feature("dense", wall),))])
        assert bool(KERN.reference(*args)) is found
        assert KERN.compiled(*args) == (None if found else [])
