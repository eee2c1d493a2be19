"""01.04 / 03.04 SpatialIndex.move_many writes a unit's moved rows at once (issue 29): its
distance matrix, far-pair codes, engagement neighbours and unit contacts are those of the plain
form it replaced (below: each model's row and column written one after another), bit for bit,
over random sequences of unit moves on a table of round bases and hulls, near and far."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules import geometry
from sim.rules.distance_rows import FAR_COL, FAR_ROW
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


# a move: a unit, and where its models go (each a point on a 90" x 44" table, close together or
# spread; some next to the enemy, some far)
moves = st.lists(st.tuples(st.integers(0, UNITS - 1),
                           st.tuples(st.floats(2.0, 88.0), st.floats(2.0, 42.0)),
                           st.lists(st.tuples(st.floats(-3.0, 3.0), st.floats(-3.0, 3.0),
                                              st.floats(0.0, 180.0)),
                                    min_size=PER_UNIT, max_size=PER_UNIT)),
                 min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(kinds=st.lists(st.integers(0, 2), min_size=UNITS, max_size=UNITS), script=moves)
def test_01_04_move_many_is_the_plain_form(kinds, script):
    fast, plain = _index(kinds), _index(kinds)
    for u, (cx, cy), offsets in script:
        indices = [u * PER_UNIT + m for m in range(PER_UNIT)]
        fps = [_base(kinds[u], cx + dx, cy + dy, a) for dx, dy, a in offsets]
        fast.move_many(indices, fps)
        plain_move_many(plain, indices, fps)
        assert np.array_equal(fast.dist, plain.dist)     # (bit for bit: inf on the diagonal)
        assert np.array_equal(fast.far, plain.far)
        assert np.array_equal(fast._far_rows, plain._far_rows)
        assert fast.near == plain.near
        assert fast.contacts == plain.contacts
        assert [list(d) for d in fast.contacts] == [list(d) for d in plain.contacts]  # (and order)


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
        sp.table.rows = lambda fps, far=False, real=real: (rows.copy(), None) if far else real(fps)
    fps = [fast.fps[i].moved(fast.fps[i].x + 1.0, fast.fps[i].y) for i in indices]
    fast.move_many(indices, fps)
    plain_move_many(plain, indices, fps)
    assert np.array_equal(fast.dist, plain.dist)
    assert fast.dist[3, 5] == rows[2, 3] and fast.dist[5, 3] == rows[2, 3]
    assert fast.near == plain.near and fast.contacts == plain.contacts
