"""Placer.find's first steps for the charge, pile-in and consolidation solvers
(sim.rules.movement.solvers.place) and their compiled twins (sim.rules.compiled):
``movement.reachable_spots`` (the candidate centres on the grid, and those within the model's
reach of its start and wholly on the board, 03.01) and ``movement.rank_spots`` (the candidates'
order by their keys on the key grid, ties to the earlier) give the same answer to the bit:
seeded candidates scattered and on each limit the reference reads (the reach, each edge of the
board less or more its touch) and a hair either side, keys with ties, integer keys, zeros of
either sign; and what the twins leave to the reference (a base that is not round, another type,
a value that is no number or of no table's size, keys of unequal lengths, a NaN)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.movement.solvers import place  # noqa: F401  (its kernels registered)
from sim.rules import grid
from sim.rules.geometry import EPS, Footprint, round_base
from sim.rules.movement.index import TOUCH

from twins import twin_answer

REACH = C.KERNELS["movement.reachable_spots"]
RANK = C.KERNELS["movement.rank_spots"]
built = pytest.mark.skipif(REACH.compiled is None or RANK.compiled is None,
                           reason="the compiled kernels are not built here")
BOARD = (60.0, 44.0)
HAIRS = (0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 5e-7, -5e-7)


def _on_limits(rng, fp, reach: float, board, k: int) -> np.ndarray:
    """``k`` centres on a limit of ``reachable_spots``: the reach from the start (a start on the
    grid, so the spots straight along an axis or on a 3-4-5 triangle are exactly at it once on
    the grid, where the twin asks C's hypot; others a hair off it), or an edge of the board less
    or more the base's radius and its touch, nudged by a hair."""
    out = []
    r = 0.5 * fp.length
    for _ in range(k):
        hair = float(rng.choice(HAIRS))
        pick = rng.random()
        if pick < 0.4:
            ux, uy = [(1, 0), (0, 1), (-1, 0), (0, -1), (0.6, 0.8), (-0.8, 0.6), (0.8, -0.6)][int(rng.integers(7))]
            d = reach + (0.0 if rng.random() < 0.5 else hair)
            out.append((fp.x + d * ux, fp.y + d * uy))
        elif pick < 0.6:
            a = rng.uniform(0, 2 * math.pi)
            d = reach + EPS + hair
            out.append((fp.x + d * math.cos(a), fp.y + d * math.sin(a)))
        else:
            side = int(rng.integers(4))
            v = [r - TOUCH, r - TOUCH, board[0] - r + TOUCH, board[1] - r + TOUCH][side] + hair
            other = rng.uniform(0, board[1 - side % 2])
            out.append((v, other) if side % 2 == 0 else (other, v))
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(8))
def test_reachable_spots_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    kept = dropped = 0
    for _ in range(40):
        x, y = (grid.snap(float(v)) for v in rng.uniform(0, 60, size=2))
        fp = round_base(int(rng.choice([25, 32, 40, 60])), x, y) if rng.random() < 0.7 else \
            Footprint("round", x, y, 1.0, 1.0)   # (a radius on the grid: its edge limits exactly on it)
        reach = float(rng.choice([0.5, 3.0, 6.0, 12.0, 1.0 - grid.AIM_MARGIN]))
        board = BOARD if rng.random() < 0.7 else (60, 44)    # (a scenario's board of whole inches)
        c = np.vstack([rng.uniform(-3, 63, size=(int(rng.integers(0, 60)), 2)),
                       _on_limits(rng, fp, reach, board, int(rng.integers(0, 60)))])
        snapped, sel = twin_answer(REACH, fp, c, reach, board)
        kept += len(sel)
        dropped += len(c) - len(sel)
        assert np.array_equal(snapped, grid.snap_array(c))
    assert kept and dropped


def test_reachable_spots_reads_the_reach_the_board_and_the_grid():
    """The reference itself: a spot is kept within the reach (plus EPS) and wholly on the board
    (its touch allowed), as the grid puts it."""
    fp = Footprint("round", 10.0, 10.0, 1.0, 1.0)
    c = np.array([[13.0, 10.0], [13.000001, 10.0], [10.0, 10.0 + 4e-7], [10.0, 10.0 + 6e-7]])
    snapped, sel = REACH.reference(fp, c, 3.0, BOARD)
    assert sel.tolist() == [0, 2, 3] and sel.dtype == np.intp
    assert snapped[2].tolist() == [10.0, 10.0] and snapped[3].tolist() == [10.0, 10.000001]
    fp = Footprint("round", 1.0, 10.0, 1.0, 1.0)   # (its edge at 0.5" from its centre)
    c = np.array([[0.5, 10.0], [0.499999, 10.0], [0.5, 43.5], [0.5, 43.500001]])
    assert REACH.reference(fp, c, 40.0, BOARD)[1].tolist() == [0, 2]


@built
def test_reachable_spots_compiled_on_its_exact_limits():
    """Spots exactly on each limit (a start found a float step at a time so that the distance,
    or the base's edge, is the limit itself), and a step either side: the twin's comparisons
    are the reference's, its <= and >= included."""
    lim = 3.0 + EPS
    starts, x0 = [], 13.0 - lim
    for _ in range(40):
        if 13.0 - x0 == lim:
            starts.append(x0)
        x0 = float(np.nextafter(x0, 0.0))
    assert starts
    c = np.array([[13.0, 10.0], [10.0 + 3.0 - 1e-6, 10.0], [13.000001, 10.0]])
    for x0 in starts:
        for x in (x0, float(np.nextafter(x0, 20.0)), float(np.nextafter(x0, 0.0))):
            fp = Footprint("round", x, 10.0, 1.0, 1.0)
            twin_answer(REACH, fp, c, 3.0, BOARD)
            twin_answer(REACH, fp, c[:, ::-1].copy(), 3.0, BOARD)       # (along the other axis)
        assert REACH.compiled(Footprint("round", x0, 10.0, 1.0, 1.0), c, 3.0, BOARD)[1].tolist()[:1] == [0]
    # the board's far edges: the base's edge at W + TOUCH exactly (and a float step beyond)
    r = (60.0 + TOUCH) - 59.5
    beyond = float(np.nextafter(60.0 + TOUCH, 61.0)) - 59.5
    assert 59.5 + r == 60.0 + TOUCH < 59.5 + beyond
    for radius in (r, beyond):
        fp = Footprint("round", 57.0, 20.0, 2 * radius, 2 * radius)
        got = twin_answer(REACH, fp, np.array([[59.5, 20.0]]), 5.0, BOARD)
        assert got[1].tolist() == ([0] if radius == r else [])
    # the near edges: a base of radius TOUCH at 0 is on the board, a float step larger is not
    for length in (2 * TOUCH, float(np.nextafter(2 * TOUCH, 1.0))):
        fp = Footprint("round", 1.0, 1.0, length, length)
        got = twin_answer(REACH, fp, np.array([[0.0, 1.0], [1.0, 0.0]]), 5.0, BOARD)
        assert got[1].tolist() == ([0, 1] if length == 2 * TOUCH else [])


@built
def test_reachable_spots_compiled_where_hypot_and_the_root_of_the_squares_differ():
    """A spot whose distance np.hypot and the root of the squares give a float step apart, with
    a reach whose limit is the smaller of the two: the reference (np.hypot) decides, and so does
    the twin (it asks C's hypot near the limit)."""
    rng = np.random.default_rng(11)
    cases = 0
    while cases < 20:
        cx, cy = (grid.snap(float(v)) for v in rng.uniform(-6, 6, 2) + (30.0, 22.0))
        dx, dy = cx - 30.0, cy - 22.0
        h, q = float(np.hypot(dx, dy)), math.sqrt(dx * dx + dy * dy)
        if h == q:
            continue
        low = min(h, q)
        reach = low - EPS
        for _ in range(8):   # (a reach whose limit, reach + EPS, is ``low`` itself)
            if reach + EPS == low:
                break
            reach = float(np.nextafter(reach, low if reach + EPS < low else 0.0))
        if reach + EPS != low:
            continue
        fp = Footprint("round", 30.0, 22.0, 1.0, 1.0)
        _snapped, sel = twin_answer(REACH, fp, np.array([[cx, cy]]), reach, BOARD)
        assert sel.tolist() == ([0] if h <= low else [])
        cases += 1


@built
def test_reachable_spots_compiled_declines_what_it_does_not_take():
    fp = round_base(32, 10.0, 10.0)
    c = np.array([[12.0, 10.0], [30.0, 30.0]])
    assert C._same_bits(REACH.compiled(fp, c, 3.0, BOARD), REACH.reference(fp, c, 3.0, BOARD))
    oval = Footprint("oval", 10.0, 10.0, 3.5, 2.0, 30.0)
    assert REACH.compiled(oval, c, 3.0, BOARD) is None
    assert REACH.compiled(fp, c.astype(np.float32), 3.0, BOARD) is None
    assert REACH.compiled(fp, c, 3, BOARD) is None                 # (an int reach)
    assert REACH.compiled(fp, c.reshape(1, 4), 3.0, BOARD) is None
    for bad in (np.nan, np.inf, 1e7):
        b = c.copy()
        b[1, 0] = bad
        assert REACH.compiled(fp, b, 3.0, BOARD) is None
    empty = (fp, c[:0], 3.0, BOARD)
    assert C._same_bits(REACH.compiled(*empty), REACH.reference(*empty))


def _keys(rng, n: int) -> list:
    """Three keys of ``n`` candidates as the solvers' scores give them (a tier of integers, a
    distance and a path length), with ties on the key grid and zeros of either sign."""
    tier = rng.integers(0, 3, n)
    d = rng.choice([0.0, -0.0, 0.5, 1.25, 2.0], n) + rng.choice([0.0, 1e-7, -1e-7, 4e-6, 6e-6, 1e-3], n)
    length = np.where(rng.random(n) < 0.3, 1.0, rng.uniform(0, 3, n))
    return [tier, d, length]


@built
@pytest.mark.parametrize("seed", range(8))
def test_rank_spots_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n = int(rng.choice([1, 2, 3, 7, 24, 47, 200]))
        keys = _keys(rng, n)
        keys = keys[:int(rng.integers(1, 4))]
        order = twin_answer(RANK, keys)
        assert sorted(order.tolist()) == list(range(n))


def test_rank_spots_orders_by_each_key_on_the_grid_then_by_index():
    """The reference itself: the primary key first, values within a key step of each other tie
    (the grid), and a tie goes to the earlier candidate; -0.0 ties with 0.0."""
    keys = [np.array([1, 0, 1, 0, 0]), np.array([0.5, 2.0, 0.5 + 1e-7, -0.0, 0.0])]
    assert RANK.reference(keys).tolist() == [3, 4, 1, 0, 2]


@built
def test_rank_spots_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(3)
    keys = _keys(rng, 10)
    assert C._same_bits(RANK.compiled(keys), RANK.reference(keys))
    assert RANK.compiled(tuple(keys)) is None                       # (a tuple, not the list find makes)
    assert RANK.compiled([]) is None
    assert RANK.compiled([keys[0], keys[1][:9]]) is None            # (unequal lengths)
    assert RANK.compiled([keys[1].astype(np.float32)]) is None
    assert RANK.compiled([keys[0].astype(np.int32)]) is None
    assert RANK.compiled([keys[1].reshape(2, 5)]) is None
    bad = keys[1].copy()
    bad[4] = np.nan
    assert RANK.compiled([keys[0], bad]) is None


def test_the_twins_grid_steps_are_the_grid_s():
    from sim.rules._compiled import move
    assert (move.PLACE_PER_INCH, move.PLACE_KEYS_PER_INCH) == (grid._PER_INCH, grid._KEYS_PER_INCH)
