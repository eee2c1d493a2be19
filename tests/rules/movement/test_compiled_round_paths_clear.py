"""03.01 / 13.06 sim.rules.movement.round_paths._round_paths_clear (checks 3-5 of a move for round
bases: no battlefield edge, enemy base or dense feature crossed) and its compiled twin
(sim.rules.compiled: ``movement.round_paths_clear``) give the same answer: seeded tables of round
and hull bodies and dense features, paths of one to three segments (and of no length) wandering
among them, meeting both answers; a base exactly on a limit and a hair either side of it (the
edge, an enemy base, a feature's edge); and the inputs the twin leaves to the reference. The
words of each breach (round_path_hits, worded by round_path_checks) are the check's own tests'
(test_03_01_move_legality.py, test_03_01_move_check_oracle.py)."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint
from sim.rules.movement import round_paths as RP
from sim.rules.movement.index import TOUCH, Body, BodyIndex, TerrainIndex
from sim.rules.terrain import Feature, TerrainArea

from _move_layouts import dense_features

KERN = C.KERNELS["movement.round_paths_clear"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
BOARD = (44.0, 60.0)


def _table(rng) -> BodyIndex:
    """Bodies of both players: round bases of a few sizes and ovals and rectangles."""
    out = []
    for k in range(int(rng.integers(4, 30))):
        x, y = rng.uniform(0, BOARD[0]), rng.uniform(0, BOARD[1])
        if rng.random() < 0.25:
            shape = ("oval", 3.5, 2.4) if rng.random() < 0.5 else ("rect", 4.0, 2.5)
            fp = Footprint(shape[0], float(x), float(y), shape[1], shape[2], float(rng.uniform(0, 360)))
        else:
            d = float(rng.choice([1.0, 1.26, 1.57, 1.97]))
            fp = Footprint("round", float(x), float(y), d, d)
        out.append(Body(f"m{k:02d}", f"u{k % 5}", int(k % 5 == 0), fp))
    return BodyIndex(out)


def _paths(rng, idx: BodyIndex):
    """The arrays round_path_checks makes: the round bases of player 0 moving along paths of one
    to three segments (one of no length now and then), the other player's models blocking."""
    rows = [r for r in range(len(idx)) if idx.round[r] and idx.players[r] == 0] or [0]
    pts_all, own, starts = [], [], []
    for r in rows[: int(rng.integers(1, 6))]:
        x, y = idx.centres[r]
        pts = [(float(x), float(y))]
        for _ in range(int(rng.integers(1, 4))):
            step = 0.0 if rng.random() < 0.1 else rng.uniform(0.5, 9)
            a = rng.uniform(0, 2 * math.pi)
            pts.append((pts[-1][0] + step * math.cos(a), pts[-1][1] + step * math.sin(a)))
        k = len(pts_all)
        pts_all += pts
        own += [r] * len(pts)
        starts += range(k, k + len(pts) - 1)
    V = np.array(pts_all, dtype=float)
    VR = idx.radius[np.array(own, dtype=np.int64)]
    seg = np.array(starts, dtype=np.int64)
    blockers = np.flatnonzero(idx.players != 0)
    return V, VR, V[seg], V[seg + 1], VR[seg], blockers


@built
@pytest.mark.parametrize("seed", range(8))
def test_round_paths_clear_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    met = set()
    for _ in range(60):
        idx, terr = _table(rng), dense_features(rng, BOARD)
        V, VR, A, B, R, blockers = _paths(rng, idx)
        args = (V, VR, A, B, R, BOARD, idx, blockers, terr.dense)
        want = KERN.reference(*args)
        assert KERN.compiled(*args) is want
        met.add(want)
        # (no path at all: only the vertices' edge test)
        assert KERN.compiled(V, VR, A[:0], B[:0], R[:0], BOARD, idx, blockers, terr.dense) is \
            KERN.reference(V, VR, A[:0], B[:0], R[:0], BOARD, idx, blockers, terr.dense)
    assert met == {True, False}


def _one(start, end, r=0.5):
    V = np.array([start, end], dtype=float)
    VR = np.full(2, r)
    return V, VR, V[:1], V[1:], VR[:1]


@built
@pytest.mark.parametrize("shift", [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 0.5 * TOUCH, -0.5 * TOUCH, 2 * TOUCH,
                                   -2 * TOUCH])
def test_round_paths_clear_compiled_on_each_limit(shift):
    """A base ending exactly on the board's edge, grazing an enemy round base, an enemy hull's
    core and a dense feature's edge, each shifted by a hair: the reference's answer each time."""
    foe = BodyIndex([Body("e1", "e", 1, Footprint("round", 20.0, 20.0, 1.0, 1.0)),
                     Body("e2", "e", 1, Footprint("rect", 30.0, 20.0, 4.0, 2.0, 0.0)),
                     Body("me", "m", 0, Footprint("round", 5.0, 5.0, 1.0, 1.0))])
    poly = ((10.0, 40.0), (14.0, 40.0), (14.0, 44.0), (10.0, 44.0))
    dense = TerrainIndex([TerrainArea("wall", poly, (Feature("dense", poly),))]).dense
    blockers = np.array([0, 1], dtype=np.intp)
    cases = [
        _one((5.0, 5.0), (0.5 - shift, 5.0)),                       # the edge, at x = 0
        _one((5.0, 5.0), (BOARD[0] - 0.5 + shift, 5.0)),            # the edge, at x = width
        _one((20.0 - 1.0 + shift, 10.0), (20.0 - 1.0 + shift, 30.0)),  # the round base at x = 20
        _one((28.0 - 0.5 + shift, 10.0), (28.0 - 0.5 + shift, 30.0)),   # the rect's side at x = 28
        _one((9.5 + shift, 30.0), (9.5 + shift, 50.0)),             # the wall's side at x = 10
        _one((3.0, 3.0), (3.0, 3.0)),                               # no length
    ]
    for V, VR, A, B, R in cases:
        args = (V, VR, A, B, R, BOARD, foe, blockers, dense)
        assert KERN.compiled(*args) is KERN.reference(*args)


@built
def test_round_paths_clear_compiled_declines_what_it_does_not_take():
    idx = BodyIndex([Body("e", "e", 1, Footprint("round", 20.0, 20.0, 1.0, 1.0))])
    V, VR, A, B, R = _one((5.0, 5.0), (9.0, 5.0))
    blockers = np.array([0], dtype=np.intp)
    dense = TerrainIndex([]).dense
    assert KERN.compiled(V, VR, A, B, R, BOARD, idx, blockers, dense) is True
    assert KERN.compiled(V.astype(np.float32), VR, A, B, R, BOARD, idx, blockers, dense) is None
    assert KERN.compiled(V, VR, A, B, R, BOARD, idx, blockers.astype(np.int32), dense) is None
    bad = V.copy()
    bad[1, 0] = math.nan
    assert KERN.compiled(bad, VR, bad[:1], bad[1:], R, BOARD, idx, blockers, dense) is None
    assert KERN.compiled(V, VR, A, B, R, BOARD, idx, np.array([3], dtype=np.intp), dense) is None


def test_round_paths_clear_compiled_touch_is_the_rules():
    kernels = pytest.importorskip("sim.rules._compiled.move")
    assert kernels.MOVE_TOUCH == TOUCH


def test_round_paths_clear_is_no_hit_of_round_path_hits():
    """The reference is the first breach round_path_hits finds, or none."""
    idx = BodyIndex([Body("e", "e", 1, Footprint("round", 20.0, 20.0, 1.0, 1.0))])
    dense = TerrainIndex([]).dense
    blockers = np.array([0], dtype=np.intp)
    clear = _one((5.0, 5.0), (9.0, 5.0))
    through = _one((15.0, 20.0), (25.0, 20.0))
    assert RP._round_paths_clear.reference(*clear, BOARD, idx, blockers, dense) is True
    assert RP._round_paths_clear.reference(*through, BOARD, idx, blockers, dense) is False
    assert [h[0] for h in RP.round_path_hits(*through, BOARD, idx, blockers, dense)] == ["enemy"]
    assert importlib.import_module("sim.rules.movement.legality").round_path_checks is RP.round_path_checks
