"""Part A ruling 16: the candidate spots the charge, pile-in and consolidation solvers search
(Placer.rings round reference models, Placer.toward the model's start towards a point) are,
spot by spot and to the bit, the plain reading of their docstrings: a ring's directions the
one towards the model's start first, then alternately either side (the turns kept per count of
directions); toward's spots at each fraction of the maximum distance (aimed AIM_MARGIN short,
capped at the point), each turned by each spread, fractions outer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.geometry import Footprint
from sim.rules.grid import AIM_MARGIN
from sim.rules.movement.legality import Body
from sim.rules.movement.solvers.place import CONTACT_AIM, Placer


def _placer(max_distance=7.0):
    bodies = [Body("m1", "u", 0, Footprint("round", 10.0, 10.0, 32 / 25.4, 32 / 25.4)),
              Body("m2", "u", 0, Footprint("round", 11.5, 10.2, 40 / 25.4, 40 / 25.4)),
              Body("e1", "e", 1, Footprint("round", 14.3, 12.9, 32 / 25.4, 32 / 25.4)),
              Body("e2", "e", 1, Footprint("round", 9.1, 15.6, 60 / 25.4, 60 / 25.4))]
    return Placer("u", bodies, [], (60.0, 44.0), max_distance=max_distance)


@pytest.mark.parametrize("n", [16, 12, 7, 4])
def test_rings_turn_either_side_of_the_start_in_turn(n):
    placer = _placer()
    fp0 = placer.start["m1"]
    refs = [placer.start["m2"], Footprint("round", 14.3, 12.9, 32 / 25.4, 32 / 25.4),
            Footprint("round", 9.1, 15.6, 60 / 25.4, 60 / 25.4)]
    offsets = (0.0, 0.95, 1.95)
    got = placer.rings("m1", refs, offsets, n)
    steps = ([0] + [k * sgn for k in range(1, n // 2 + 1) for sgn in (1, -1)])[:n]
    want = []
    for f in refs:
        base = math.atan2(fp0.y - f.y, fp0.x - f.x)
        for off in offsets:
            t = 0.5 * f.length + 0.5 * fp0.length + (CONTACT_AIM if off == 0.0 else off)
            for k in steps:
                a = np.float64(base) + np.float64(k) * (2 * math.pi / n)
                want.append((f.x + np.cos(a) * t, f.y + np.sin(a) * t))
    assert np.array_equal(got, np.array(want))


def test_toward_spots_each_fraction_each_spread():
    placer = _placer(max_distance=5.0)
    fp0 = placer.start["m1"]
    for point, fractions, spread in (((20.0, 14.0), (1.0, 0.75, 0.5, 0.25), (0.0, 20.0, -20.0, 40.0, -40.0)),
                                     ((11.0, 10.5), (1.0, 0.5), (0.0, 30.0)),
                                     ((3.0, -4.0), (0.9,), (10.0, -10.0, 60.0))):
        got = placer.toward("m1", point, fractions, spread)
        L = math.hypot(point[0] - fp0.x, point[1] - fp0.y)
        base = math.atan2(point[1] - fp0.y, point[0] - fp0.x)
        want = []
        for f in fractions:
            reach = min(L, max(5.0 * f - AIM_MARGIN, 0.0))
            for sp in spread:
                a = base + math.radians(sp)
                want.append(np.array([fp0.x, fp0.y]) + reach * np.array([math.cos(a), math.sin(a)]))
        assert np.array_equal(got, np.array(want))
    assert placer.toward("m1", (fp0.x, fp0.y)).shape == (0, 2)
