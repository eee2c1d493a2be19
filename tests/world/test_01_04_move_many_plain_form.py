"""01.04 / 03.04 SpatialIndex.move_many writes a unit's moved rows at once (issue 29), and
measures them only when its distances are next read, with the rows of every model moved since
(SpatialIndex._write_moved): its distance matrix, far-pair codes, engagement neighbours and unit
contacts are those of the plain form it replaced (below: each model's row and column written one
after another at its move), bit for bit, over random sequences of unit moves on a table of round
bases and hulls, near and far, read after some moves and not others."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.rules.distance_rows as DR
from sim.rules import geometry
from sim.rules.distance_rows import FAR, FAR_COL, FAR_ROW, refine_block
from sim.rules.geometry import Footprint
from sim.world.spatial import SpatialIndex

UNITS = 6
PER_UNIT = 3


def plain_move_many(sp: SpatialIndex, indices: list[int], fps: list) -> None:
    """The plain form: each moved model's row and column written in turn, then its engagement
    neighbours (SpatialIndex.move_many before issue 29's step)."""
    table = sp.table
    for i, fp in zip(indices, fps):
        sp.fps[i] = fp
        table.set(i, fp)
    rows, approx = table.rows(fps, far=True)
    if approx is not None:
        approx[range(len(indices)), indices] = False
        codes = approx.view(np.int8) * FAR_ROW
        col_codes = approx.view(np.int8) * FAR_COL
    for k, index in enumerate(indices):
        row = rows[k]
        row[index] = np.inf
        sp.dist[index, :] = row
        sp.dist[:, index] = row
        if approx is None or not approx[k].any():
            if sp._far_rows[index]:
                sp.far[index, :] = 0
                sp.far[:, index] = 0
                sp._far_rows[index] = False
        else:
            sp.far[index, :] = codes[k]
            sp.far[:, index] = col_codes[k]
            sp._far_rows[index] = True
            sp._far_rows[approx[k]] = True
    for index in indices:
        row = sp.dist[index]
        sp._touch(index, sp.near[index], -1)
        for j in sp.near[index]:
            sp.near[j].discard(index)
        near = geometry.in_engagement_range(row) & (sp._owner != sp._owner[index])
        sp.near[index] = {int(j) for j in np.nonzero(near)[0]}
        for j in sp.near[index]:
            sp.near[j].add(index)
        sp._touch(index, sp.near[index], +1)
    sp._changed()


def _base(kind: int, x: float, y: float, angle: float) -> Footprint:
    if kind == 0:
        return geometry.round_base(32, x, y)
    if kind == 1:
        return geometry.footprint("oval", x, y, 3.6, 2.3, angle)
    return geometry.footprint("rect", x, y, 4.5, 2.5, angle)


def _index(kinds: list[int]) -> SpatialIndex:
    fps = []
    for u in range(UNITS):
        for m in range(PER_UNIT):
            fps.append(_base(kinds[u], 6.0 + 14.0 * u + 1.6 * m, 4.0 + 30.0 * (u % 2), 0.0))
    unit_of = [u for u in range(UNITS) for _ in range(PER_UNIT)]
    return SpatialIndex(fps, unit_of, [u % 2 for u in range(UNITS)])


# a move: a unit, where its models go (each a point on a 90" x 44" table, close together or
# spread; some next to the enemy, some far), and whether the distances are read after it
moves = st.lists(st.tuples(st.integers(0, UNITS - 1),
                           st.tuples(st.floats(2.0, 88.0), st.floats(2.0, 42.0)),
                           st.lists(st.tuples(st.floats(-3.0, 3.0), st.floats(-3.0, 3.0),
                                              st.floats(0.0, 180.0)),
                                    min_size=PER_UNIT, max_size=PER_UNIT),
                           st.booleans()),
                 min_size=1, max_size=8)


@settings(max_examples=80, deadline=None)
@given(kinds=st.lists(st.integers(0, 2), min_size=UNITS, max_size=UNITS), script=moves,
       few=st.sampled_from((DR.FAR_FEW, 2)))
def test_01_04_move_many_is_the_plain_form(kinds, script, few):
    """(``few``: distance_rows.FAR_FEW as shipped, where these 18 models' rows are measured
    whole, or 2, where a row's far pairs and the entries it leaves to later movers are not.)"""
    was, DR.FAR_FEW = DR.FAR_FEW, few
    try:
        _plain_form_case(kinds, script)
    finally:
        DR.FAR_FEW = was


def _plain_form_case(kinds, script):
    fast, plain = _index(kinds), _index(kinds)
    for step, (u, (cx, cy), offsets, read) in enumerate(script):
        indices = [u * PER_UNIT + m for m in range(PER_UNIT)]
        fps = [_base(kinds[u], cx + dx, cy + dy, a) for dx, dy, a in offsets]
        fast.move_many(indices, fps)
        plain_move_many(plain, indices, fps)
        # (the engagement neighbours at every move; the rows when read, and after the last)
        assert fast.near == plain.near
        assert fast.contacts == plain.contacts
        assert [list(d) for d in fast.contacts] == [list(d) for d in plain.contacts]  # (and order)
        if read or step == len(script) - 1:
            assert_same_distances(fast, plain)
            assert not fast._moved


def assert_same_distances(fast: SpatialIndex, plain: SpatialIndex) -> None:
    """The same distances, bit for bit: every entry at or below FAR exact in both (inf on the
    diagonal); each far code on a bound above FAR (and its row marked in ``_far_rows``); and,
    every far entry measured (distance_rows.refine_block, on copies), the same matrices. (Which
    far entries a move leaves bounds is bookkeeping: rows measured together count their far
    pairs together, FAR_FEW, so a row measured at its move and the same row measured with
    later moves' may leave different entries bounds; every reader measures a bound it needs,
    from the same side, with the same arithmetic.)"""
    for sp in (fast, plain):
        coded = sp.far != 0
        assert (sp.dist[coded] > FAR).all()
        assert not (coded.any(axis=1) & ~sp._far_rows).any()
    low = (plain.dist <= FAR) | (fast.dist <= FAR)
    assert np.array_equal(fast.dist[low], plain.dist[low])
    assert not (fast.far[low] | plain.far[low]).any()
    every = np.arange(len(fast.fps))
    settled = []
    for sp in (fast, plain):
        dist, far = sp.dist.copy(), sp.far.copy()
        refine_block(dist, far, sp.fps, every, every)
        settled.append(dist)
    assert np.array_equal(*settled)


def test_01_04_moved_rows_are_measured_when_read_in_one_call():
    """Three units' moves, then a read: the rows are measured once, for the nine models, and
    equal the plain form's (no enemy model within 2" of a bounding circle: no engagement rows
    at the moves); then a move next to an enemy measures its engagement rows at once."""
    fast, plain = _index([0, 1, 2, 0, 1, 2]), _index([0, 1, 2, 0, 1, 2])
    calls = []
    real = fast.table.rows

    def rows(fps, far=False, limit=None, among=None):
        calls.append((len(fps), limit))
        return real(fps, far, limit, among)

    fast.table.rows = rows
    for u in (0, 4, 2):
        indices = [u * PER_UNIT + m for m in range(PER_UNIT)]
        fps = [fast.fps[i].moved(fast.fps[i].x + 2.5, fast.fps[i].y + 1.0) for i in indices]
        fast.move_many(indices, fps)
        plain_move_many(plain, indices, fps)
    assert calls == []
    assert_same_distances(fast, plain)
    assert calls == [(9, None)]
    fast.dist   # noqa: B018 - read again: nothing left to measure
    assert len(calls) == 1
    indices = [PER_UNIT * 1 + m for m in range(PER_UNIT)]     # (unit 1, the other player's)
    # (beside unit 0: its models 3" away, centre to centre)
    fps = [fast.fps[i].moved(fast.fps[m].x, fast.fps[m].y + 3.0) for m, i in enumerate(indices)]
    fast.move_many(indices, fps)
    plain_move_many(plain, indices, fps)
    assert calls[1:] == [(PER_UNIT, geometry.ENGAGEMENT_RANGE + geometry.EPS)]
    assert fast.near == plain.near and fast.contacts[1] == plain.contacts[1] != {}


def test_01_04_move_many_of_one_model_twice_is_two_moves():
    """A model named twice in one call is moved twice, in order (the last place stands)."""
    fast, plain = _index([0] * UNITS), _index([0] * UNITS)
    a, b = geometry.round_base(32, 30.0, 20.0), geometry.round_base(32, 31.0, 21.0)
    fast.move_many([0, 0], [a, b])
    plain_move_many(plain, [0], [a])
    plain_move_many(plain, [0], [b])
    assert np.array_equal(fast.dist, plain.dist) and fast.near == plain.near
    assert fast.fps[0] == b


def test_01_04_move_many_between_moved_models_keeps_the_later_row():
    """Between two models moved together, the entry the plain form leaves is the later model's
    row's, in both directions: shown with rows that are not symmetric (a hull's measured row and
    a round base's may differ in the last bit)."""
    rng = np.random.default_rng(7)
    fast, plain = _index([2] * UNITS), _index([2] * UNITS)
    n = UNITS * PER_UNIT
    indices = [3, 4, 5]
    rows = rng.uniform(0.0, 40.0, size=(len(indices), n))
    for sp in (fast, plain):
        real = sp.table.rows
        sp.table.rows = (lambda fps, far=False, limit=None, among=None, real=real:
                         (rows.copy(), None) if far else real(fps))
        sp.table.bounds_of = lambda fps: rows.copy()    # (bounds at most those distances: the same)
    fps = [fast.fps[i].moved(fast.fps[i].x + 1.0, fast.fps[i].y) for i in indices]
    fast.move_many(indices, fps)
    plain_move_many(plain, indices, fps)
    assert np.array_equal(fast.dist, plain.dist)
    assert fast.dist[3, 5] == rows[2, 3] and fast.dist[5, 3] == rows[2, 3]
    assert fast.near == plain.near and fast.contacts == plain.contacts


def test_01_04_a_model_moved_again_counts_at_its_last_move():
    """Unit 0 moves, then unit 1, then unit 0 again, and the distances are read: between them
    the entries are unit 0's last rows', as at its last move (shown with rows tagged by the
    model whose row they are: a write in the order of first moves would leave unit 1's)."""
    fast, plain = _index([0] * UNITS), _index([0] * UNITS)
    for sp in (fast, plain):
        real = sp.table.rows

        def tagged(fps, far=False, limit=None, among=None, real=real, sp=sp):
            out = real(fps, far, limit, among)
            if not far or limit is not None:
                return out
            tags = np.array([1e-6 * (1 + [id(f) for f in sp.fps].index(id(fp))) for fp in fps])
            return out[0] + tags[:, None], out[1]

        sp.table.rows = tagged
    for u in (0, 1, 0):
        indices = [u * PER_UNIT + m for m in range(PER_UNIT)]
        fps = [fast.fps[i].moved(fast.fps[i].x + 1.0, fast.fps[i].y) for i in indices]
        fast.move_many(indices, fps)
        plain_move_many(plain, indices, fps)
    assert np.array_equal(fast.dist, plain.dist)
    d = geometry.distance_matrix([fast.fps[1]], [fast.fps[4]])[0, 0]
    assert fast.dist[1, 4] == fast.dist[4, 1] == d + 2e-6      # (model 1's row: its tag)


def test_01_04_engagement_measures_a_hull_whose_bounding_circle_is_within_2():
    """A round base moved 2.1" from a rectangle's short edge (its bounding circle 1.78" from
    the rectangle's: a bound within 2"): measured, so not engaged; 1.9" away: engaged. (Thirty
    bases far off: more far pairs than distance_rows.FAR_FEW, so the row is not measured whole.)"""
    far_off = [geometry.round_base(32, 80.0 + 1.5 * (k % 6), 5.0 + 6.0 * (k // 6)) for k in range(30)]
    for gap, engaged in ((2.1, False), (1.9, True)):
        fps = [geometry.footprint("rect", 10.0, 10.0, 4.5, 2.5, 0.0), geometry.round_base(32, 30.0, 30.0)]
        fast, plain = (SpatialIndex(fps + far_off, [0, 1] + [2] * 30, [0, 1, 0]) for _ in range(2))
        to = [geometry.round_base(32, 10.0 + 2.25 + gap + 16 / 25.4, 10.0)]
        fast.move_many([1], to)
        plain_move_many(plain, [1], to)
        assert fast.near == plain.near
        assert fast.near[:2] == ([{1}, {0}] if engaged else [set(), set()])
        assert fast.contacts == plain.contacts
