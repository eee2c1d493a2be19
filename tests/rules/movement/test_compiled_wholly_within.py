"""01.04.01 / 26 step 8 sim.rules.deployment.wholly_within (every part of a base inside a zone:
a set-up's check, the domain's rules) and its compiled twin (sim.rules.compiled:
``movement.wholly_within``) give the same answer: seeded round bases in convex, notched,
slanted and L-shaped zones given as tuples, lists and arrays; bases exactly their radius (less
EPS) from a side and a hair either side, centres on a side within the boundary's 1e-7" and a
hair past it, on a vertex, on a side's line beyond either end; seeded ovals and rectangles at
any facing with their core's farthest point on a side, within the boundary's eps of it or a
hair past, and their bounding circle on its 1e-6" limit; and what the twin leaves to the
reference (a value that is no number)."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules import deployment as DP
from sim.rules.geometry import EPS, Footprint, core
from sim.rules.polygons import BOUNDARY_EPS

from random_bases import random_base

KERN = C.KERNELS["movement.wholly_within"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
ZONES = (((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0)),
         ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (30.0, 12.0), (30.0, 8.0), (0.0, 8.0)),
         ((0.0, 0.0), (60.0, 0.0), (40.0, 14.0), (0.0, 20.0)),
         ((10.0, 10.0), (30.0, 10.0), (30.0, 14.0), (14.0, 14.0), (14.0, 30.0), (10.0, 30.0)),
         ((5.0, 5.0), (25.0, 7.0), (12.0, 22.0)))


def _disc(r: float, x: float, y: float) -> Footprint:
    return Footprint("round", x, y, 2 * r, 2 * r)


def _near_sides(rng, zone, r: float, k: int) -> list[tuple[float, float]]:
    """``k`` centres on a limit of the zone: the radius less EPS from a side (inward), within
    the boundary's eps of it, on a vertex, or on a side's line past its end; nudged by a hair."""
    out = []
    n = len(zone)
    for _ in range(k):
        i = int(rng.integers(n))
        a, b = np.array(zone[i]), np.array(zone[(i + 1) % n])
        t = b - a
        L = math.hypot(*t)
        u = t / L
        inward = np.array([-u[1], u[0]])   # (the zones are counter-clockwise)
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9]))
        kind = int(rng.integers(4))
        s = rng.uniform(0.1, 0.9) * L
        if kind == 0:
            p = a + s * u + (r - EPS + nudge) * inward
        elif kind == 1:
            p = a + s * u + float(rng.choice([BOUNDARY_EPS, -BOUNDARY_EPS])) * (1 + nudge * 1e6) * inward
        elif kind == 2:
            p = a + nudge
        else:   # (on the side's line, past either end)
            p = b + (rng.uniform(0.0, 2.0) + nudge) * u if rng.random() < 0.5 else a - (rng.uniform(0.0, 2.0) + nudge) * u
        out.append((float(p[0]), float(p[1])))
    return out


@built
@pytest.mark.parametrize("seed", range(6))
def test_wholly_within_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for zone in ZONES:
        for form in (zone, [list(v) for v in zone], np.array(zone)):
            for _ in range(6):
                r = float(rng.choice([0.49, 0.63, 0.79, 1.0, 1.5]))
                centres = [tuple(rng.uniform(-2, 62, size=2)) for _ in range(10)] + _near_sides(rng, zone, r, 20)
                for x, y in centres:
                    fp = _disc(r, x, y)
                    got, want = KERN.compiled(fp, form), KERN.reference(fp, form)
                    assert got is not None and got == want, (zone, x, y, r)
                    seen.add(want)
    assert seen == {True, False}
    assert importlib.import_module("sim.rules._compiled.move").DEPLOYMENT_BOUNDARY_EPS == BOUNDARY_EPS


def _hulls_on_sides(rng, zone, k: int) -> list:
    """``k`` ovals and rectangles (seeded sizes and facings) on a limit of the zone: the point of
    the core farthest toward a side on it, within the boundary's eps of it, or a hair either
    side; the bounding circle on _circle_clear_inside's 1e-6" limit of a side; the centre on a
    vertex."""
    out = []
    n = len(zone)
    for _ in range(k):
        fp = random_base(rng, 0.0, 0.0, kinds=2)
        off = core(fp)[0] - np.array([fp.x, fp.y])
        i = int(rng.integers(n))
        a, b = np.array(zone[i]), np.array(zone[(i + 1) % n])
        u = (b - a) / math.hypot(*(b - a))
        inward = np.array([-u[1], u[0]])   # (the zones are counter-clockwise)
        nudge = float(rng.choice([0.0, 0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9]))
        p = a + rng.uniform(0.05, 0.95) * math.hypot(*(b - a)) * u
        kind = int(rng.integers(4))
        if kind == 0:      # (the core's farthest point toward the side, on it)
            p = p + (float(np.max(off @ -inward)) + nudge) * inward
        elif kind == 1:    # (within the boundary's eps of it, or just past)
            p = p + (float(np.max(off @ -inward)) + float(rng.choice([BOUNDARY_EPS, -BOUNDARY_EPS]))
                     * (1 + nudge * 1e6)) * inward
        elif kind == 2:    # (the bounding circle on its limit)
            p = p + (fp.bounding_radius + 1e-6 + nudge) * inward
        else:
            p = a + nudge
        out.append(fp.moved(float(p[0]), float(p[1])))
    return out


@built
@pytest.mark.parametrize("seed", range(6))
def test_wholly_within_compiled_takes_a_hull(seed):
    """An oval's or a rectangle's core (a vehicle set up in its zone, a domain's rule), on every
    limit the reference reads, to the same answer."""
    rng = np.random.default_rng(50 + seed)
    seen = set()
    for zone in ZONES:
        for form in (zone, [list(v) for v in zone], np.array(zone)):
            bases = [random_base(rng, *rng.uniform(-2, 62, size=2), kinds=2) for _ in range(10)]
            for fp in bases + _hulls_on_sides(rng, zone, 40):
                got, want = KERN.compiled(fp, form), KERN.reference(fp, form)
                assert got is not None and got == want, (zone, fp)
                seen.add(want)
    assert seen == {True, False}


@built
def test_wholly_within_compiled_declines_what_it_does_not_take():
    zone = ZONES[0]
    assert KERN.compiled(_disc(0.5, 5.0, 5.0), zone) is True
    oval = Footprint("oval", 5.0, 5.0, 3.0, 2.0, 30.0)
    assert KERN.compiled(oval, zone) is KERN.reference(oval, zone) is True   # (a hull: taken)
    assert KERN.compiled(Footprint("oval", math.nan, 5.0, 3.0, 2.0, 30.0), zone) is None
    assert KERN.compiled(_disc(0.5, math.nan, 5.0), zone) is None
    assert KERN.compiled(_disc(0.5, 5.0, 5.0), ((0.0, 0.0), (math.inf, 0.0), (0.0, 9.0))) is None
    for fp in (_disc(0.5, 5.0, 5.0), oval):   # (a vertex so far out its products would overflow)
        assert KERN.compiled(fp, ((0.0, 0.0), (1e152, 0.0), (0.0, 9.0))) is None
    assert DP.wholly_within is KERN
