"""03.02 / 20.04 / 24.09 sim.rules.movement.solvers.regions.farther_than (a base more than a
distance from every one of a set of bases: 8" from every enemy model for an ingress or a Deep
Strike) and its compiled twin (sim.rules.compiled: ``movement.farther_than``) give the same
answer to the bit: seeded round bases and hulls at seeded distances, centres scattered and on
each limit the reference reads (the bounding circles' and the inner circles' 1e-6" bands and the
distance itself, measured exactly) and a hair either side, with the circles given and worked out;
and what the twin leaves to the reference (a hull it would have to measure, a base that is not
round, another type, a value that is no number). (That the reference is the plain form and the
exact distance: tests/rules/movement/test_03_02_farther_than.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, round_base
from sim.rules.movement.solvers import regions as RG

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
        ang = rng.uniform(0, 2 * math.pi)
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-7, -1e-7]))
        lim = float(rng.choice([r + 0.5 * o.length + d, bf + o.bounding_radius + d + 1e-6,
                                inf + RG._inner(o) + d - 1e-6]))
        out.append((o.x + (lim + nudge) * math.cos(ang), o.y + (lim + nudge) * math.sin(ang)))
    return np.array(out, dtype=float).reshape(-1, 2)


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
        for circles in (None, RG.circles_of(fps)):
            args = (fp, c, fps, d) if circles is None else (fp, c, fps, d, circles)
            want = twin_answer(KERN, *args)
            seen.update(want.tolist())
    assert seen == {True, False}


@built
def test_farther_than_compiled_among_hulls():
    """Hulls among the bases: the twin answers wherever the circles settle them (far, or within
    the inner circles) and leaves to the reference a centre one of them must be measured for."""
    rng = np.random.default_rng(5)
    answered = declined = 0
    for _ in range(60):
        fps = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(1, 12)))]
        fp = round_base(32, 0.0, 0.0)
        c = rng.uniform(-2, 42, size=(int(rng.integers(1, 20)), 2))
        got, want = KERN.compiled(fp, c, fps, 3.0), KERN.reference(fp, c, fps, 3.0)
        if got is None:
            declined += 1
        else:
            answered += 1
            assert C._same_bits(got, want)
    assert answered and declined


@built
def test_farther_than_compiled_declines_what_it_does_not_take():
    fps = [round_base(32, 5.0, 5.0), round_base(40, 9.0, 5.0)]
    fp = round_base(32, 0.0, 0.0)
    c = np.array([[5.0, 7.0], [20.0, 20.0]])
    assert C._same_bits(KERN.compiled(fp, c, fps, 1.0), KERN.reference(fp, c, fps, 1.0))
    oval = Footprint("oval", 0.0, 0.0, 3.5, 2.0, 30.0)
    assert KERN.compiled(oval, c, fps, 1.0) is None
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
