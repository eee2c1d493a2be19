"""03.02 / 20.04 / 24.09 sim.rules.movement.solvers.regions.farther_than (a base more than a
distance from every one of a set of bases: 8" from every enemy model for an ingress or a Deep
Strike) and its compiled twin (sim.rules.compiled: ``movement.farther_than``) give the same
answer to the bit: seeded round bases and hulls at seeded distances, centres scattered and on
each limit the reference reads (the bounding circles' and the inner circles' 1e-6" bands and the
distance itself, measured exactly) and a hair either side, with the circles given and worked out;
hulls among the bases, measured on their exact limits too; a hull to place (an oval or a
rectangle: a vehicle set up beside others) among round bases and hulls, on each limit found by
the exact distance itself; and what the twin leaves to the reference (another type, a value
that is no number). (That the reference is the plain form and the exact distance:
tests/rules/movement/test_03_02_farther_than.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, core, round_base
from sim.rules.movement.kernels import placed_distances
from sim.rules.movement.solvers import regions as RG

from limits import spots_on_limits
from random_bases import random_base
from twins import twin_answer

KERN = C.KERNELS["movement.farther_than"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _at_limits(rng, fp, fps, d, k: int) -> np.ndarray:
    """``k`` centres on a limit of some base of ``fps`` (the exact distance d, the bounding or
    inner circles' band), nudged by nothing or a hair."""
    out = []
    r, bf, inf = 0.5 * fp.length, fp.bounding_radius, RG._inner(fp)
    for _ in range(k):
        o = fps[int(rng.integers(len(fps)))]
        # (straight along x too: the twin reads a centre's footprints by their x, within the
        # bounding circles' limit, and those on it a hair either side are its edge cases)
        ang = float(rng.choice([rng.uniform(0, 2 * math.pi), 0.0, math.pi]))
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-7, -1e-7]))
        lim = float(rng.choice([r + 0.5 * o.length + d, bf + o.bounding_radius + d + 1e-6,
                                inf + RG._inner(o) + d - 1e-6]))
        out.append((o.x + (lim + nudge) * math.cos(ang), o.y + (lim + nudge) * math.sin(ang)))
    return np.array(out, dtype=float).reshape(-1, 2)


def _both_ways(fp, c, fps, d) -> set:
    """The answers farther_than gives (its twin checked equal to the bit: twin_answer) with the
    circles worked out and with circles_of given."""
    got = twin_answer(KERN, fp, c, fps, d).tolist()
    return set(got) | set(twin_answer(KERN, fp, c, fps, d, RG.circles_of(fps)).tolist())


@built
@pytest.mark.parametrize("seed", range(8))
def test_farther_than_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(30):
        fps = [round_base(int(rng.choice([25, 32, 40, 60])), *rng.uniform(0, 40, size=2))
               for _ in range(int(rng.integers(1, 25)))]
        fp = round_base(int(rng.choice([25, 32, 40, 60])), 0.0, 0.0)
        d = float(rng.choice([0.25 - 1e-9, 1.0, 3.0, 8.0 + RG.SLACK, 9.0]))
        c = np.vstack([rng.uniform(-2, 42, size=(int(rng.integers(0, 40)), 2)),
                       _at_limits(rng, fp, fps, d, int(rng.integers(0, 30)))])
        seen |= _both_ways(fp, c, fps, d)
    assert seen == {True, False}


def _at_hull_limits(rng, fp, hulls, d, k: int) -> np.ndarray:
    """``k`` centres at the exact distance ``d`` from the base of ``fp`` to some hull of ``hulls``
    (out from a vertex of its core along the bisector, or from an edge's middle along its
    normal, by the base's radius and d), nudged by nothing or a hair."""
    out = []
    r = 0.5 * fp.length
    for _ in range(k):
        q = core(hulls[int(rng.integers(len(hulls)))])[0]
        i = int(rng.integers(len(q)))
        a, b, z = q[i], q[(i + 1) % len(q)], q[i - 1]
        if rng.random() < 0.5:   # (an edge's middle: the outward normal of a ccw polygon)
            e = b - a
            n, p = np.array([e[1], -e[0]]) / math.hypot(*e), 0.5 * (a + b)
        else:                    # (a vertex: between its two edges' outward normals)
            n1, n2 = np.array([b[1] - a[1], a[0] - b[0]]), np.array([a[1] - z[1], z[0] - a[0]])
            n = n1 / math.hypot(*n1) + n2 / math.hypot(*n2)
            n, p = n / math.hypot(*n), a
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-7, -1e-7]))
        out.append(p + (r + d + nudge) * n)
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(4))
def test_farther_than_compiled_among_hulls(seed):
    """Hulls among the bases (a transport beside a disembark's spots, vehicles among the enemy
    models an ingress keeps away from): the twin measures a hull as placed_distances does, to
    the bit, on its exact limit and a hair either side too."""
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(40):
        fps = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(1, 12)))]
        hulls = [o for o in fps if o.shape != "round"] or [random_base(rng, 20.0, 20.0, kinds=2)]
        fps = fps if hulls[0] in fps else fps + hulls
        fp = round_base(int(rng.choice([25, 32, 40, 60])), 0.0, 0.0)
        d = float(rng.choice([0.0, 0.5, 1.0, 3.0, 8.0 + RG.SLACK]))
        c = np.vstack([rng.uniform(-2, 42, size=(int(rng.integers(0, 20)), 2)),
                       _at_hull_limits(rng, fp, hulls, d, int(rng.integers(1, 30)))])
        seen |= _both_ways(fp, c, fps, d)
    assert seen == {True, False}


def test_farther_than_at_a_hulls_limit_is_the_exact_distance():
    """The limits ``_at_hull_limits`` makes are the exact distance (so the twin is tried where a
    last bit decides): placed_distances there is d up to the nudge (at most 1e-7") and a few
    1e-14" of rounding."""
    rng = np.random.default_rng(3)
    fp = round_base(32, 0.0, 0.0)
    for _ in range(20):
        h = random_base(rng, 20.0, 20.0, kinds=2)
        c = _at_hull_limits(rng, fp, [h], 3.0, 5)
        got = placed_distances(fp, c, [h])[:, 0]
        assert np.abs(got - 3.0).max() < 1e-6


def _at_exact_limits(rng, fp, fps, d, k: int) -> np.ndarray:
    """``k`` centres of ``fp`` (any shape) at the exact distance ``d`` from some base of ``fps``
    (placed_distances, bisected along a seeded direction out from that base to its last bit),
    nudged by nothing or a hair."""
    return spots_on_limits(rng, fps, k, lambda o, p: placed_distances(fp, [p], [o])[0, 0] <= d,
                           lambda o: fp.bounding_radius + o.bounding_radius + d + 1.0,
                           [0.0, 0.0, 1e-12, -1e-12, 1e-7, -1e-7], along_x=True)


@built
@pytest.mark.parametrize("seed", range(6))
def test_farther_than_compiled_places_a_hull(seed):
    """A hull to place (a vehicle's oval or rectangle set up clear of the other bases): the twin
    measures it against a round base by the translation trick and against a hull by the two
    cores' Minkowski difference, as placed_distances does, to the bit, on each exact limit and
    a hair either side, with the circles given and worked out."""
    rng = np.random.default_rng(100 + seed)
    seen = set()
    for _ in range(30):
        fps = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(1, 14)))]
        fp = random_base(rng, 0.0, 0.0, kinds=2)
        fp = fp.moved(float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3)))   # (its own centre: any)
        d = float(rng.choice([0.0, 0.5 - 1e-9, 1.0, 3.0, 8.0 + RG.SLACK]))
        c = np.vstack([rng.uniform(-2, 42, size=(int(rng.integers(0, 30)), 2)),
                       _at_limits(rng, fp, fps, d, int(rng.integers(0, 15))),
                       _at_exact_limits(rng, fp, fps, d, int(rng.integers(1, 15)))])
        seen |= _both_ways(fp, c, fps, d)
    assert seen == {True, False}


def test_farther_than_exact_limits_are_the_exact_distance():
    """The limits ``_at_exact_limits`` makes are the distance (so a hull's twin is tried where a
    last bit decides): placed_distances there is d up to the nudge (at most 1e-7")."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        fp = random_base(rng, 0.0, 0.0, kinds=2)
        o = random_base(rng, 20.0, 20.0)
        c = _at_exact_limits(rng, fp, [o], 3.0, 4)
        assert np.abs(placed_distances(fp, c, [o])[:, 0] - 3.0).max() < 2e-7


@built
def test_farther_than_compiled_declines_what_it_does_not_take():
    fps = [round_base(32, 5.0, 5.0), round_base(40, 9.0, 5.0)]
    fp = round_base(32, 0.0, 0.0)
    c = np.array([[5.0, 7.0], [20.0, 20.0]])
    assert C._same_bits(KERN.compiled(fp, c, fps, 1.0), KERN.reference(fp, c, fps, 1.0))
    oval = Footprint("oval", 0.0, 0.0, 3.5, 2.0, 30.0)
    assert C._same_bits(KERN.compiled(oval, c, fps, 1.0), KERN.reference(oval, c, fps, 1.0))   # (taken)
    assert KERN.compiled(fp, c.astype(np.float32), fps, 1.0) is None
    assert KERN.compiled(fp, c, fps, 1) is None                  # (an int distance: numpy's arithmetic)
    bad = c.copy()
    bad[1, 0] = np.nan
    assert KERN.compiled(fp, bad, fps, 1.0) is None
    ox, oy, reach, inner = RG.circles_of(fps)
    assert KERN.compiled(fp, c, fps, 1.0, (ox.astype(np.float32), oy, reach, inner)) is None
    assert KERN.compiled(fp, c, fps, 1.0, (ox[:1], oy[:1], reach[:1], inner[:1])) is None
    for empty in ((fp, c[:0], fps, 1.0), (fp, c, [], 1.0)):
        assert C._same_bits(KERN.compiled(*empty), KERN.reference(*empty))
