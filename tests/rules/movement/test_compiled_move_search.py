"""The charge, pile-in and consolidation solvers' search for a model's spot
(sim.rules.movement.solvers.place: Placer.rings, Placer.toward and Placer.find's first steps)
and its compiled twins (sim.rules.compiled): ``movement.ring_spots`` (spots round reference
bases at edge gaps, turned from the direction towards the start), ``movement.toward_spots``
(spots towards a point at fractions of the reach, turned by a spread), ``movement.reachable_spots``
(the candidates on the grid, and those within the model's reach of its start and wholly on the
board, 03.01) and ``movement.rank_spots`` (the candidates' order by their keys on the key grid,
ties to the earlier) give the same answer to the bit: seeded bases, points and candidates,
scattered and on each limit the reference reads (the reach, each edge of the board less or more
its touch) and a hair either side, keys with ties, integer keys, zeros of either sign; and what
the twins leave to the reference (a base that is not round, another type, a value that is no
number or of no table's size, keys of unequal lengths, a NaN)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.movement.solvers import place
from sim.rules import grid
from sim.rules.geometry import EPS, Footprint, round_base
from sim.rules.movement.index import TOUCH

from twins import checked_in_players_battles, twin_answer

REACH = C.KERNELS["movement.reachable_spots"]
RANK = C.KERNELS["movement.rank_spots"]
RINGS = C.KERNELS["movement.ring_spots"]
TOWARD = C.KERNELS["movement.toward_spots"]
built = pytest.mark.skipif(any(k.compiled is None for k in (REACH, RANK, RINGS, TOWARD)),
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
    # (a second reader's fuzzing: a board of one number, numpy's numbers or three; candidates of
    # no rows and another width; a start of numpy's numbers: the reference's to answer or refuse)
    for board in ((60.0,), (), [60.0, 44.0], (np.float32(60.0), np.float32(44.0)), (60.0, 44.0, 1.0),
                  (60.0, True)):
        assert REACH.compiled(fp, c, 3.0, board) is None
    assert REACH.compiled(fp, np.zeros((0, 3)), 3.0, BOARD) is None
    assert REACH.compiled(Footprint("round", np.longdouble(10.0), 10.0, 1.26, 1.26), c, 3.0, BOARD) is None
    assert C._same_bits(REACH.compiled(fp, c, 3.0, (60, 44)), REACH.reference(fp, c, 3.0, (60, 44)))


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


def test_the_twins_constants_are_the_rules():
    from sim.rules._compiled import move
    assert (move.PLACE_PER_INCH, move.PLACE_KEYS_PER_INCH) == (grid._PER_INCH, grid._KEYS_PER_INCH)
    assert (move.PLACE_CONTACT_AIM, move.PLACE_AIM_MARGIN) == (place.CONTACT_AIM, grid.AIM_MARGIN)


def _base(rng, x, y) -> Footprint:
    return round_base(int(rng.choice([25, 28, 32, 40, 50, 60])), float(x), float(y))


@built
@pytest.mark.parametrize("seed", range(8))
def test_ring_spots_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        fp0 = _base(rng, *rng.uniform(0, 60, 2))
        refs = [_base(rng, *(rng.uniform(-4, 4, 2) + (fp0.x, fp0.y))) for _ in range(int(rng.integers(1, 7)))]
        if rng.random() < 0.2:   # (a reference where the model stands: no direction, along x)
            refs[0] = _base(rng, fp0.x, fp0.y)
        offsets = tuple(float(v) for v in rng.choice([0.0, 0.95, 1.0, 1.95, 0.5], int(rng.integers(1, 4))))
        rel = place._ring_turns(int(rng.choice([4, 8, 16])))
        got = twin_answer(RINGS, fp0, refs, offsets, rel)
        assert got.shape == (len(refs) * len(offsets) * len(rel), 2)


def test_ring_spots_in_base_contact_and_at_gaps():
    """The reference itself: round a reference, each spot at the two radii plus the gap (base
    contact aimed at CONTACT_AIM), the first direction towards the start."""
    fp0 = Footprint("round", 10.0, 0.0, 1.0, 1.0)
    ref = Footprint("round", 0.0, 0.0, 2.0, 2.0)
    got = place._ring_spots(fp0, [ref], (0.0, 1.0), place._ring_turns(4))
    assert got.shape == (8, 2)
    assert got[0].tolist() == [1.5 + place.CONTACT_AIM, 0.0] and got[4].tolist() == [2.5, 0.0]
    assert np.allclose(np.hypot(got[:, 0], got[:, 1]), [1.5 + place.CONTACT_AIM] * 4 + [2.5] * 4)


@built
def test_ring_spots_compiled_with_a_reference_where_the_model_stands():
    """A reference at the start, even across the signs of zero (arctan2(+0, -0) is pi, yet
    there is no direction: the reference turns from 0), in every direction count."""
    for x0, rx in ((0.0, 0.0), (-0.0, 0.0), (5.0, 5.0)):
        fp0 = Footprint("round", x0, 5.0, 1.0, 1.0)
        ref = Footprint("round", rx, 5.0, 1.25, 1.25)
        for n in (4, 16):
            got = twin_answer(RINGS, fp0, [ref], (0.0, 1.0), place._ring_turns(n))
            assert got[0].tolist()[1] == 5.0 and got[0][0] > rx


@built
def test_ring_spots_compiled_declines_what_it_does_not_take():
    fp0 = round_base(32, 10.0, 10.0)
    refs = [round_base(40, 12.0, 10.0)]
    rel = place._ring_turns(16)
    assert C._same_bits(RINGS.compiled(fp0, refs, (0.0, 1.0), rel), RINGS.reference(fp0, refs, (0.0, 1.0), rel))
    oval = Footprint("oval", 12.0, 10.0, 3.5, 2.0, 30.0)
    assert RINGS.compiled(Footprint("oval", 10.0, 10.0, 3.5, 2.0, 0.0), refs, (0.0,), rel) is None
    assert RINGS.compiled(fp0, refs + [oval], (0.0,), rel) is None
    assert RINGS.reference(fp0, refs + [oval], (0.0,), rel).shape == (32, 2)   # (the hulls' walk)
    assert RINGS.compiled(fp0, tuple(refs), (0.0,), rel) is None
    assert RINGS.compiled(fp0, [], (0.0,), rel) is None
    assert RINGS.compiled(fp0, refs, [0.0], rel) is None
    assert RINGS.compiled(fp0, refs, (np.float64(0.5),), rel) is None
    assert RINGS.compiled(fp0, refs, (0.0,), rel.astype(np.float32)) is None
    assert RINGS.compiled(fp0, [Footprint("round", np.float64(12.0), 10.0, 1.5, 1.5)], (0.0,), rel) is None
    bad = rel.copy()
    bad[1] = np.nan
    assert RINGS.compiled(fp0, refs, (0.0,), bad) is None
    assert RINGS.compiled(fp0, [round_base(40, 1e7, 10.0)], (0.0,), rel) is None
    assert RINGS.compiled(Footprint("round", 10.0, 10.0, np.longdouble(1.26), 1.26), refs, (0.0,), rel) is None


SPREAD = (0.0, 20.0, -20.0, 40.0, -40.0)
FRACTIONS = (1.0, 0.75, 0.5, 0.25)


@built
@pytest.mark.parametrize("seed", range(8))
def test_toward_spots_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    empty = 0
    for _ in range(60):
        fp0 = _base(rng, *rng.uniform(0, 60, 2))
        pick = rng.random()
        if pick < 0.1:
            point = (fp0.x, fp0.y)   # (the point where the model stands: no spot)
        elif pick < 0.4:
            d = float(rng.choice([1e-6, 0.5, 2.0, 3.0 - 2e-6]))   # (nearer than some reaches)
            a = rng.uniform(0, 2 * math.pi)
            point = (fp0.x + d * math.cos(a), fp0.y + d * math.sin(a))
        else:
            point = tuple(float(v) for v in rng.uniform(-5, 65, 2))
        most = float(rng.choice([0.0, 1e-6, 2e-6, 3.0, 6.0, 12.0]))
        got = twin_answer(TOWARD, fp0, point, most, FRACTIONS, SPREAD)
        empty += len(got) == 0
    assert empty


def test_toward_spots_reaches_each_fraction_less_the_margin_capped_at_the_point():
    fp0 = Footprint("round", 10.0, 10.0, 1.0, 1.0)
    got = place._toward_spots(fp0, (20.0, 10.0), 4.0, FRACTIONS, (0.0,))
    assert got[:, 0].tolist() == [10.0 + (4.0 * f - grid.AIM_MARGIN) for f in FRACTIONS]
    assert got[:, 1].tolist() == [10.0] * 4
    near = place._toward_spots(fp0, (11.0, 10.0), 4.0, FRACTIONS, (0.0,))
    assert near[:, 0].tolist() == [11.0, 11.0, 11.0, 10.0 + (1.0 - grid.AIM_MARGIN)]   # (capped at the point)
    none = place._toward_spots(fp0, (10.0, 10.0), 4.0, FRACTIONS, SPREAD)
    assert none.shape == (0, 2)
    still = place._toward_spots(fp0, (20.0, 10.0), 1e-6, FRACTIONS, (0.0,))
    assert still[:, 0].tolist() == [10.0] * 4                  # (a reach under the margin: none)


@built
def test_toward_spots_compiled_declines_what_it_does_not_take():
    fp0 = round_base(32, 10.0, 10.0)
    args = (fp0, (20.0, 12.0), 6.0, FRACTIONS, SPREAD)
    assert C._same_bits(TOWARD.compiled(*args), TOWARD.reference(*args))
    assert TOWARD.compiled(fp0, [20.0, 12.0], 6.0, FRACTIONS, SPREAD) is None
    assert TOWARD.compiled(fp0, (np.float64(20.0), 12.0), 6.0, FRACTIONS, SPREAD) is None
    assert TOWARD.compiled(fp0, (20.0, 12.0), 6, FRACTIONS, SPREAD) is None
    assert TOWARD.compiled(fp0, (20.0, 12.0), 6.0, list(FRACTIONS), SPREAD) is None
    assert TOWARD.compiled(fp0, (20.0, 12.0), 6.0, FRACTIONS, (0.0, 20)) is None
    assert TOWARD.compiled(fp0, (math.nan, 12.0), 6.0, FRACTIONS, SPREAD) is None
    assert TOWARD.compiled(fp0, (20.0, 12.0), math.inf, FRACTIONS, SPREAD) is None
    assert TOWARD.compiled(fp0, (20.0, 12.0), 6.0, (), SPREAD) is None       # (the reference raises)
    assert TOWARD.compiled(fp0, (20.0, 12.0), 6.0, FRACTIONS, ()) is None
    assert TOWARD.compiled(Footprint("round", np.longdouble(10.0), 10.0, 1.26, 1.26), (20.0, 12.0), 6.0,
                           FRACTIONS, SPREAD) is None


@built
def test_toward_spots_compiled_in_the_players_battles():
    """No golden replay asks for spots towards a point (the pile-in and charge solvers do when a
    model is not locked in: the players' moves), so the default players' whole battles on the
    default table are where the twin is held to its reference: every call compared in ``check``
    mode (a difference raises), and enough of them to mean something."""
    assert checked_in_players_battles(TOWARD) > 50
