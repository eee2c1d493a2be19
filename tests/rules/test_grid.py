"""The measuring grid (sim.rules.grid): every position a command carries is a multiple of 1e-6",
the same on every machine; sort keys compared at 1e-5"."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.rules import grid
from sim.rules.grid import (AIM_MARGIN, GRID, KEY_STEP, SNAP_REACH, snap, snap_array, snap_key, snap_keys,
                            snap_places, snap_shifted, snap_turns)

TABLE = st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False)


def test_the_two_last_bits_of_the_imported_battle_snap_to_one_position():
    # the consolidation end that numpy 2.4's AVX-512 kernels and its AVX2 ones wrote differently
    # (the golden's 9.444398674113097 and this machine's 9.4443986741131)
    assert snap(9.444398674113097) == snap(9.4443986741131) == 9.444399
    assert snap(23.03146354911625) == 23.031464
    assert repr(snap(9.4443986741131)) == "9.444399"  # (the log writes six decimals at most)


def test_values_a_few_ulps_apart_snap_alike():
    rng = random.Random(7)
    for _ in range(2000):
        x = rng.uniform(0, 60)
        assert snap(x) == snap(math.nextafter(x, math.inf)) == snap(math.nextafter(x, -math.inf)) \
            or abs(x * 1e6 - math.floor(x * 1e6) - 0.5) < 1e-6   # (only beside a midpoint)


@given(TABLE)
def test_a_snap_is_on_the_grid_within_half_a_step_and_idempotent(x):
    s = snap(x)
    assert abs(s - x) <= GRID / 2 + 1e-12
    assert snap(s) == s
    assert s == round(s, 6)          # (a decimal of six places, as the log prints it)
    assert len(repr(s).partition(".")[2]) <= 6


@settings(max_examples=50)
@given(st.lists(TABLE, min_size=1, max_size=40))
def test_the_array_snap_is_the_float_snap(xs):
    assert snap_array(np.array(xs)).tolist() == [snap(x) for x in xs]


def test_a_snap_moves_a_point_at_most_snap_reach():
    rng = random.Random(3)
    worst = max(math.hypot(snap(x) - x, snap(y) - y)
                for x, y in ((rng.uniform(0, 60), rng.uniform(0, 44)) for _ in range(20000)))
    assert worst <= SNAP_REACH + 1e-12
    assert worst > 0.9 * SNAP_REACH          # (the bound is nearly reached: it is the right one)
    assert AIM_MARGIN > SNAP_REACH + 1e-7     # (a spot aimed AIM_MARGIN inside a limit stays inside)


def test_a_command_s_places_and_turns_are_snapped_and_bad_values_left_for_its_check():
    assert snap_places((("a/1", 1.00000049, np.float64(2.0000005001)), ("a/2", 3, 4))) == \
        (("a/1", 1.0, 2.000001), ("a/2", 3.0, 4.0))
    bad = (("a/1", math.nan, 1.0), ("a/2", "x", True), ("a/3", 1e300, -math.inf), ("a/4", 1.0), 7)
    assert snap_places(bad) == bad
    assert snap_places("nonsense") == "nonsense"
    assert snap_turns((("a/1", ((0.1234567, 1.0), (2.0, 2.9999999))),)) == \
        (("a/1", ((0.123457, 1.0), (2.0, 3.0))),)
    assert snap_turns((("a/1",), ("a/2", 5))) == (("a/1",), ("a/2", 5))


def test_sort_keys_tie_within_a_key_step_and_keep_their_order_beyond_it():
    a, b = 0.25, 0.25 + 4e-16                       # (numpy's last bits)
    assert snap_key(a) == snap_key(b)
    assert snap_key(0.7e-6 - SNAP_REACH) == snap_key(0.7e-6 + SNAP_REACH) == 0.0   # (contact spots tie)
    assert snap_key(1.0) < snap_key(1.0 + 2 * KEY_STEP)
    assert snap_keys(np.array([a, b, 1.0])).tolist() == [snap_key(a), snap_key(b), 1.0]


@pytest.mark.parametrize("x", [0.0, -0.0, 1e-7, -1e-7, 59.9999995])
def test_snaps_near_zero_and_the_table_edge(x):
    assert snap(x) == round(x, 6) + 0.0
    assert repr(snap(x)) != "-0.0"          # (no negative zero reaches a log)


_EDGES = [1e9, -1e9, math.nextafter(1e9, 0), math.nextafter(-1e9, 0), 5e-324, -0.0, math.inf, -math.inf]
_ANY_FLOAT = st.one_of(st.floats(), st.sampled_from(_EDGES))


@given(st.lists(st.tuples(st.sampled_from(["a/1", "b/2"]), _ANY_FLOAT, _ANY_FLOAT), max_size=6))
def test_snap_places_inline_float_path_is_the_snapped_one(places):
    # snap_places snaps a plain (id, float, float) tuple inline: each value exactly as
    # _snapped gives it (a finite float under 1e9 in size snapped, anything else left); places
    # as lists, or with numpy floats, go the general way to the same values
    def shown(to):
        return [(m, repr(float(x)), repr(float(y))) for m, x, y in to]

    ref = shown((m, grid._snapped(x), grid._snapped(y)) for m, x, y in places)
    got = snap_places(tuple(places))
    assert shown(got) == ref
    assert all(type(x) is float and type(y) is float for _m, x, y in got)
    assert shown(snap_places([list(p) for p in places])) == ref
    assert shown(snap_places(tuple((m, np.float64(x), y) for m, x, y in places))) == ref


@given(st.lists(st.tuples(st.sampled_from(["a/1", "b/2"]), TABLE, TABLE), max_size=6), TABLE, TABLE)
def test_snap_shifted_is_snap_of_each_shifted_place(places, dx, dy):
    # a unit's places shifted by one vector (sim.players.options.translate): each value exactly
    # snap's of the place plus the shift, in order, as a tuple of tuples
    got = snap_shifted(places, dx, dy)
    want = tuple((m, snap(x + dx), snap(y + dy)) for m, x, y in places)
    assert [(m, repr(x), repr(y)) for m, x, y in got] == [(m, repr(x), repr(y)) for m, x, y in want]
    assert type(got) is tuple and all(type(p) is tuple for p in got)
