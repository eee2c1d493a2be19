"""01.04 DistanceRows (sim.rules.distance_rows): the rows of a table that changes a few
footprints at a time are geometry.distance_matrix's, to the bit, after any sequence of moves;
a copy moves on its own."""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.rules.distance_rows as DR
from sim.rules.distance_rows import DistanceRows
from sim.rules.geometry import Footprint, distance_matrix

_SHAPES = (("round", 1.26, 1.26), ("round", 1.57, 1.57), ("oval", 2.95, 1.65), ("oval", 3.94, 3.94),
           ("rect", 5.9, 3.54))
coord = st.floats(-10.0, 40.0, allow_nan=False, allow_infinity=False)
angle = st.sampled_from((0.0, 30.0, 90.0, 137.5))


@st.composite
def tables(draw, xs=coord, fewest=1, moves_between=(0, 5)):
    """A table of ``fewest``-14 footprints of mixed shapes (x drawn from ``xs``), and moves: (the
    rows moved together, new footprints), each keeping a footprint's shape and size."""
    kinds = draw(st.lists(st.sampled_from(range(len(_SHAPES))), min_size=fewest, max_size=14))
    fps = [Footprint(*_pick(k, draw(xs), draw(coord), draw(angle))) for k in kinds]
    moves = []
    for _ in range(draw(st.integers(*moves_between))):
        rows = draw(st.lists(st.integers(0, len(fps) - 1), min_size=1, max_size=4, unique=True))
        moves.append([(i, draw(xs), draw(coord), draw(angle)) for i in rows])
    return fps, moves


def _move(table, now, move) -> list:
    """Make ``move`` (rows and new places) on ``table`` and ``now`` (the footprints): the
    moved footprints."""
    moved = []
    for i, x, y, a in move:
        fp = now[i].moved(x, y, None if now[i].shape == "round" else a)
        now[i] = fp
        table.set(i, fp)
        moved.append(fp)
    return moved


def _pick(k, x, y, a):
    shape, length, width = _SHAPES[k]
    return shape, x, y, length, width, (0.0 if shape == "round" else a)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_rows_are_distance_matrix_to_the_bit_after_any_moves(data):
    fps, moves = data
    table = DistanceRows(fps)
    assert np.array_equal(table.rows(fps), distance_matrix(fps, fps))
    now = list(fps)
    for move in moves:
        moved = _move(table, now, move)
        assert np.array_equal(table.rows(moved), distance_matrix(moved, now))
        assert np.array_equal(table.rows(now), distance_matrix(now, now))


@settings(max_examples=60, deadline=None)
@given(tables())
def test_rows_read_from_another_tables_moves_are_distance_matrix_to_the_bit(data):
    """Two tables of the same footprints, as the spatial index and the visibility index hold:
    one measures each move as it is made, the other all the moved rows at once at the end
    (the rows the first measured, read from the kept rows where what they were measured
    against is unchanged, measured again where it moved since): distance_matrix's bits."""
    fps, moves = data
    DR._MEMO.clear()
    first, second = DistanceRows(fps), DistanceRows(fps)
    now, pending = list(fps), {}
    for move in moves:
        moved = []
        for i, x, y, a in move:
            fp = now[i].moved(x, y, None if now[i].shape == "round" else a)
            now[i] = pending[i] = fp
            first.set(i, fp)
            moved.append(fp)
        assert np.array_equal(first.rows(moved), distance_matrix(moved, now))
    for i, fp in pending.items():
        second.set(i, fp)
    late = list(pending.values())
    assert np.array_equal(second.rows(late), distance_matrix(late, now))
    assert np.array_equal(second.rows(now), distance_matrix(now, now))


def test_a_copy_moves_on_its_own():
    fps = [Footprint("round", 0.0, 0.0, 1.26, 1.26), Footprint("oval", 5.0, 0.0, 2.95, 1.65),
           Footprint("rect", 0.0, 8.0, 5.9, 3.54)]
    table = DistanceRows(fps)
    twin = table.copy()
    twin.set(1, fps[1].moved(20.0, 0.0))
    twin.set(0, fps[0].moved(0.0, 3.0))
    assert np.array_equal(table.rows(fps), distance_matrix(fps, fps))
    moved = [fps[0].moved(0.0, 3.0), fps[1].moved(20.0, 0.0), fps[2]]
    assert np.array_equal(twin.rows(moved), distance_matrix(moved, moved))


def test_a_footprint_that_changes_between_round_and_not_is_measured_as_it_is_now():
    fps = [Footprint("round", 0.0, 0.0, 1.26, 1.26), Footprint("oval", 5.0, 0.0, 2.95, 1.65),
           Footprint("round", 0.0, 8.0, 1.57, 1.57)]
    table = DistanceRows(fps)
    now = [Footprint("oval", 1.0, 0.0, 2.95, 1.65), Footprint("round", 5.0, 2.0, 1.26, 1.26), fps[2]]
    table.set(0, now[0])
    table.set(1, now[1])
    assert np.array_equal(table.rows(now), distance_matrix(now, now))


@settings(max_examples=20, deadline=None)
@given(tables())
def test_full_matrix_is_distance_matrix_kept_per_table(data):
    from sim.rules import distance_rows as DR
    fps = data[0] * 6  # (more rows than one block)
    DR.forget_tables()
    first = DR.full_matrix(fps)
    assert np.array_equal(first, distance_matrix(fps, fps)) and not first.flags.writeable
    assert DR.full_matrix(list(fps)) is first


def test_a_round_bases_row_is_measured_again_only_against_the_hulls_moved_since(monkeypatch):
    """The row a table measured for a round base, read by another table after a hull moved:
    only that hull's entry is measured again (the others are the kept row's), to the bit."""
    fps = [Footprint("round", 0.0, 0.0, 1.26, 1.26), Footprint("oval", 10.0, 0.0, 2.95, 1.65),
           Footprint("oval", 20.0, 0.0, 3.94, 3.94), Footprint("rect", 0.0, 15.0, 5.9, 3.54)]
    DR._MEMO.clear()
    first, second = DistanceRows(fps), DistanceRows(fps)
    r = fps[0].moved(1.0, 1.0)
    first.set(0, r)
    first.rows([r])                 # (the round base against the three hulls)
    h = fps[2].moved(25.0, 5.0, 30.0)
    first.set(2, h)
    first.rows([h])
    second.set(0, r)
    second.set(2, h)
    asked = []
    real = DR._round_core_distances
    monkeypatch.setattr(DR, "_round_core_distances",
                        lambda c, rr, pack: asked.append((len(c), pack[0].shape[0])) or real(c, rr, pack))
    now = [r, fps[1], h, fps[3]]
    assert np.array_equal(second.rows([r]), distance_matrix([r], now))
    assert asked == [(1, 1)]        # (one base against the one hull that moved)


# --- far pairs (rows(..., far=True), refine) --------------------------------------------------

wide = st.floats(-10.0, 160.0, allow_nan=False, allow_infinity=False)


def wide_tables():
    """``tables`` on a table wide enough for far pairs (up to 170" across)."""
    return tables(wide, 2, (1, 6))


@contextlib.contextmanager
def _far_at(inches: float):
    """distance_rows.FAR set to ``inches`` for the block (smaller than the shipped 50": far
    pairs on a small table), and every row with a far pair left so (FAR_FEW 0)."""
    was = DR.FAR, DR.FAR_FEW
    DR.FAR, DR.FAR_FEW = inches, 0      # (no row measured whole for having few far pairs)
    try:
        yield
    finally:
        DR.FAR, DR.FAR_FEW = was


def _kept_pair(fps):
    """A kept matrix and its codes as the spatial index keeps them (sim.world.spatial), and the
    matrix the rows without far pairs would have made (the same writes)."""
    ref = distance_matrix(fps, fps)
    return ref.copy(), np.zeros(ref.shape, dtype=np.int8), ref


def _write(dist, far, index, row, approx_row):
    dist[index, :] = row
    dist[:, index] = row
    if far is not None:
        far[index, :] = np.where(approx_row, DR.FAR_ROW, 0)
        far[:, index] = np.where(approx_row, DR.FAR_COL, 0)


@settings(max_examples=80, deadline=None)
@given(wide_tables(), st.sampled_from((5.0, 20.0, 50.0)))
def test_far_rows_are_exact_at_or_below_far_and_bounds_above_it(data, far_at):
    """rows(far=True): every entry the mask leaves unmarked is distance_matrix's, to the bit;
    every marked entry (only pairs with a base that is not round) is above FAR and at most the
    distance; the kept rows serve later exact rows unchanged (the entries a far row did not
    measure are measured when asked)."""
    with _far_at(far_at):
        _far_rows_case(*data, far_at)


def _far_rows_case(fps, moves, far_at):
    DR._MEMO.clear()
    table = DistanceRows(fps)
    now = list(fps)
    for move in moves:
        moved = _move(table, now, move)
        got, approx = table.rows(moved, far=True)
        want = distance_matrix(moved, now)
        if approx is None:
            approx = np.zeros(got.shape, dtype=bool)
        assert np.array_equal(got[~approx], want[~approx])
        assert (got[approx] > far_at).all() and (got[approx] <= want[approx] + 1e-9).all()
        rnd = np.array([f.shape == "round" for f in moved])[:, None] & \
            np.array([f.shape == "round" for f in now])[None, :]
        assert not (approx & rnd).any()
        assert np.array_equal(table.rows(moved), want)   # (then every entry, to the bit)


@settings(max_examples=60, deadline=None)
@given(wide_tables(), st.sampled_from((2.0, 12.0)), st.integers(0, 2 ** 14 - 1))
def test_rows_within_a_limit_among_some_columns_measure_those_alone(data, limit, bits):
    """rows(far=True, limit=L, among=M) (the spatial index's engagement neighbours): every entry
    left unmarked is distance_matrix's, to the bit, and holds every pair within L in M's
    columns; the marked ones are bounds, at most the distance (a pair of round bases is never
    marked: its bound is its distance); the rows measured whole afterwards are exact."""
    fps, moves = data
    DR._MEMO.clear()
    table = DistanceRows(fps)
    now = list(fps)
    among = np.array([(bits >> j) & 1 == 1 for j in range(len(fps))])
    for move in moves:
        moved = _move(table, now, move)
        got, approx = table.rows(moved, far=True, limit=limit, among=among)
        want = distance_matrix(moved, now)
        if approx is None:
            approx = np.zeros(got.shape, dtype=bool)
        assert np.array_equal(got[~approx], want[~approx])
        assert not (approx & among[None, :] & (want <= limit)).any()
        assert (got[approx] <= want[approx] + 1e-9).all()
        rnd = np.array([f.shape == "round" for f in moved])[:, None] & \
            np.array([f.shape == "round" for f in now])[None, :]
        assert np.array_equal(got[rnd], want[rnd])
        assert np.array_equal(table.rows(moved), want)


@settings(max_examples=40, deadline=None)
@given(wide_tables())
def test_rows_measured_together_are_each_as_measured_alone(data):
    """rows(far=True): a row's far entries are its own (a row with at most FAR_FEW far pairs is
    measured whole, whichever rows share its call): rows measured together are, entry for
    entry and mark for mark, each row measured alone (the spatial index measures a phase's
    moves together, sim.world.spatial)."""
    fps, moves = data
    now = list(fps)
    table = DistanceRows(fps)
    was, DR.FAR_FEW = DR.FAR_FEW, 3     # (a row of these small tables with more far pairs than that)
    try:
        _together_case(table, now, moves)
    finally:
        DR.FAR_FEW = was


def _together_case(table, now, moves):
    for move in moves:
        moved = _move(table, now, move)
        DR._MEMO.clear()
        got, approx = table.rows(moved, far=True)
        for k, fp in enumerate(moved):
            DR._MEMO.clear()
            one, one_approx = table.rows([fp], far=True)
            assert np.array_equal(got[k], one[0])
            assert np.array_equal(np.zeros(len(now), bool) if approx is None else approx[k],
                                  np.zeros(len(now), bool) if one_approx is None else one_approx[0])


@settings(max_examples=80, deadline=None)
@given(wide_tables(), st.sampled_from((5.0, 20.0)))
def test_refine_makes_a_kept_matrix_the_one_exact_rows_would_have_kept(data, far_at):
    """A matrix kept as the spatial index keeps it (each move's rows written to its rows and
    columns, in order), once with far pairs' bounds and their codes, once with exact rows:
    the same bits wherever no code stands, and after refine of every entry the same matrix,
    to the bit (each far entry measured from the side whose row held it, as the row did)."""
    with _far_at(far_at):
        _refine_case(*data, far_at)


def _refine_case(fps, moves, far_at):
    def each_move(dist, far, ref):
        assert np.array_equal(dist[far == 0], ref[far == 0])
        assert (dist[far != 0] > far_at).all()

    dist, far, ref, now = _kept_with_codes(fps, moves, each_move)
    n = len(now)
    I, J = np.divmod(np.arange(n * n), n)
    DR.refine(dist, far, now, I, J)
    assert not far.any()
    assert np.array_equal(dist, ref)


def _kept_with_codes(fps, moves, each_move=None):
    """(the kept matrix with far pairs' bounds and their codes, the one exact rows would have
    kept, the footprints now) after ``moves``, each written as the spatial index writes it;
    ``each_move(dist, far, ref)`` asked after each."""
    DR._MEMO.clear()
    table, exact_table = DistanceRows(fps), DistanceRows(fps)
    dist, far, ref = _kept_pair(fps)
    now = list(fps)
    for move in moves:
        idx = []
        for i, x, y, a in move:
            fp = now[i].moved(x, y, None if now[i].shape == "round" else a)
            now[i] = fp
            table.set(i, fp)
            exact_table.set(i, fp)
            idx.append(i)
        rows, approx = table.rows([now[i] for i in idx], far=True)
        exact_rows = exact_table.rows([now[i] for i in idx])
        for k, i in enumerate(idx):
            _write(dist, far, i, rows[k], np.zeros(len(now), bool) if approx is None else approx[k])
            _write(ref, None, i, exact_rows[k], None)
        if each_move is not None:
            each_move(dist, far, ref)
    return dist, far, ref, now


@settings(max_examples=150, deadline=None)
@given(wide_tables(), st.sampled_from((2.0, 5.0, 20.0)), st.data())
def test_refine_rows_min_and_refine_block_within_answer_as_every_pair_measured(data, far_at, draw):
    """refine_rows_min measures in a row above FAR only the bounds that can be its minimum, and
    refine_block's ``within`` only the bounds within it: the minimum of each row is the exact
    one, to the bit, and after refine_block(within=w) every entry at or below w is exact and
    every comparison with w answers as the exact matrix does (an entry left a bound is above
    w). Rows and columns drawn at random, so far pairs stand on either side of a minimum."""
    with _far_at(far_at):
        dist, far, ref, now = _kept_with_codes(*data)
        n = len(now)
        rows = np.array(draw.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)), dtype=np.intp)
        cols = np.array(draw.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)), dtype=np.intp)
        blk = np.ix_(rows, cols)
        d1, f1 = dist.copy(), far.copy()
        got = DR.refine_rows_min(d1, f1, now, rows, cols, d1[blk].copy())
        assert got.tolist() == ref[blk].min(axis=1).tolist()
        # (at a distance of the block, or next to one: the bounds just under it matter)
        w = draw.draw(st.one_of(st.floats(0.0, 200.0, allow_nan=False),
                                st.sampled_from(sorted(set(ref[blk].ravel().tolist()))).flatmap(
                                    lambda v: st.sampled_from((v, v - 1e-9, v + 1e-9)))))
        d2, f2 = dist.copy(), far.copy()
        DR.refine_block(d2, f2, now, rows, cols, w)
        exact_here = ref[blk] <= w
        assert np.array_equal(d2[blk][exact_here], ref[blk][exact_here])
        assert np.array_equal(d2[blk] <= w, exact_here)
        assert (d2[blk][f2[blk] != 0] > w).all()
        assert np.array_equal(d2[f2 == 0], ref[f2 == 0])    # (what it measured, it measured right)


def test_refine_rows_min_measures_only_rows_above_far():
    """A row whose minimum is at or below FAR is read as it stands (its minimum is exact); a row
    above FAR with a bound in it is measured, and its minimum is the exact one."""
    near = [Footprint("rect", 0.0, 0.0, 5.9, 3.54), Footprint("oval", 10.0, 0.0, 2.95, 1.65)]
    far_ = [Footprint("rect", 0.0, 150.0, 5.9, 3.54)]
    fps = near + far_
    table = DistanceRows(fps)
    dist, codes = np.zeros((3, 3)), np.zeros((3, 3), dtype=np.int8)
    with _far_at(DR.FAR):
        rows, approx = table.rows(fps, far=True)
    for k in range(3):
        _write(dist, codes, k, rows[k], approx[k])
    exact = distance_matrix(fps, fps)
    assert codes[0, 2] and codes[2, 0] and not codes[0, 1]
    block = dist[np.ix_([0], [1, 2])].copy()
    assert DR.refine_rows_min(dist, codes, fps, np.array([0]), np.array([1, 2]), block).tolist() == [exact[0, 1]]
    assert codes[0, 2]                                  # (not measured: row 0's minimum is near)
    block = dist[np.ix_([0], [2])].copy()
    assert block[0, 0] < exact[0, 2] or block[0, 0] == exact[0, 2]
    got = DR.refine_rows_min(dist, codes, fps, np.array([0]), np.array([2]), block)
    assert got.tolist() == [exact[2, 0]] and not codes[0, 2] and not codes[2, 0]


def _every_row_written(fps):
    """(the kept matrix with every footprint's row written in order, far pairs' bounds where
    FAR allows; its codes; distance_matrix of the table)."""
    rows, approx = DistanceRows(fps).rows(fps, far=True)
    n = len(fps)
    dist, codes = np.zeros((n, n)), np.zeros((n, n), dtype=np.int8)
    for k in range(n):
        _write(dist, codes, k, rows[k], np.zeros(n, bool) if approx is None else approx[k])
    return dist, codes, distance_matrix(fps, fps)


def test_refine_rows_min_measures_the_bounds_that_can_be_the_minimum():
    """In a row above FAR, a bound under the row's smallest exact entry is measured (here the
    square's distance, 39.8", is the minimum, its bound 39.4" under the round base's exact
    40"), a bound above it is not (the rectangle 150" away keeps its code); the minimum is the
    exact one."""
    fps = [Footprint("round", 0.0, 0.0, 1.0, 1.0),
           Footprint("round", 41.0, 0.0, 1.0, 1.0),        # 40" away: exact (round to round)
           Footprint("rect", 41.3, 0.0, 2.0, 2.0),         # 39.8" away, its bound 39.39"
           Footprint("rect", 0.0, 150.0, 5.9, 3.54)]
    with _far_at(30.0):
        dist, codes, exact = _every_row_written(fps)
        assert not codes[0, 1] and codes[0, 2] and codes[0, 3]
        assert 39.0 < dist[0, 2] < exact[0, 1] and abs(exact[0, 2] - 39.8) < 1e-9
        cols = np.array([1, 2, 3])
        got = DR.refine_rows_min(dist, codes, fps, np.array([0]), cols, dist[np.ix_([0], cols)].copy())
        assert got.tolist() == [exact[0, 2]]
        assert not codes[0, 2] and codes[0, 3]


def test_refine_block_within_measures_a_bound_an_ulp_above_its_distance():
    """A bound is at most its distance up to rounding: an oval's bounding circle meets the oval
    at its tip, and here the bound (3.8950000000000005") stands an ulp above the distance
    (3.8949999999999996"). Asked within the distance, the pair is measured (FAR_MARGIN), so
    the comparison answers as the distance does. (Found by
    test_refine_rows_min_and_refine_block_within_answer_as_every_pair_measured.)"""
    fps = [Footprint("round", 6.0, 0.0, 1.26, 1.26), Footprint("oval", 0.0, 0.0, 2.95, 1.65)]
    with _far_at(2.0):
        dist, codes, exact = _every_row_written(fps)
        assert codes[0, 1] and dist[0, 1] > exact[0, 1]    # (the bound, an ulp above)
        w = float(exact[0, 1])
        DR.refine_block(dist, codes, fps, np.array([0]), np.array([1]), w)
        assert dist[0, 1] == exact[0, 1] <= w and not codes[0, 1]
