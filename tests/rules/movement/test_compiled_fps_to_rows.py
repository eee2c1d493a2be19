"""01.04 sim.rules.movement.kernels.fps_to_rows (the edge-to-edge distances from some bases to
some bodies of the table: a unit's start to the others, a charge's tiers, a pile-in's contact)
and its compiled twin (sim.rules.compiled: ``movement.fps_to_rows``) give the same distances to
the bit: seeded round bases and bodies, touching, overlapping and apart, rows in any order and
asked twice; vehicles' hulls among the bodies, bases on a core's edge, inside it and a hair
off; no base or no row; and what the twin leaves to the reference (a hull among the bases,
another type, a row out of range, a value that is no number)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, core, round_base
from sim.rules.movement.index import Body, BodyIndex
from sim.rules.movement.kernels import fps_to_rows

from random_bases import random_base

KERN = C.KERNELS["movement.fps_to_rows"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


@built
@pytest.mark.parametrize("seed", range(8))
def test_fps_to_rows_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        idx = BodyIndex([Body(f"m{i:02d}", f"u{i % 4}", i % 2, round_base(int(rng.choice([25, 32, 40, 60])),
                                                                           *rng.uniform(0, 30, size=2)))
                         for i in range(int(rng.integers(1, 30)))])
        fps = [round_base(int(rng.choice([25, 32, 40])), *rng.uniform(0, 30, size=2))
               for _ in range(int(rng.integers(0, 8)))]
        if fps:   # (one touching a body, one on a body's centre: 0)
            b = idx.fps[0]
            fps[0] = fps[0].moved(b.x + 0.5 * b.length + 0.5 * fps[0].length, b.y)
            fps[-1] = fps[-1].moved(idx.fps[-1].x, idx.fps[-1].y)
        rows = rng.integers(0, len(idx), size=int(rng.integers(0, 12))).astype(np.intp)
        got, want = KERN.compiled(fps, idx, rows), KERN.reference(fps, idx, rows)
        assert got is not None and C._same_bits(got, want)
    assert fps_to_rows is KERN


@built
@pytest.mark.parametrize("seed", range(6))
def test_fps_to_rows_compiled_among_hulls(seed):
    """Hulls among the bodies (a unit's distances to a vehicle): each measured as
    points_convexes_distance measures a centre against the core, less the radius, to the bit;
    bases on a core's edge at its radius, a hair either side, and inside the core (0)."""
    rng = np.random.default_rng(20 + seed)
    for _ in range(20):
        idx = BodyIndex([Body(f"m{i:02d}", f"u{i % 4}", i % 2, random_base(rng, *rng.uniform(0, 30, size=2)))
                         for i in range(int(rng.integers(1, 20)))])
        fps = [round_base(int(rng.choice([25, 32, 40])), *rng.uniform(0, 30, size=2))
               for _ in range(int(rng.integers(0, 8)))]
        hulls = [j for j in range(len(idx)) if idx.fps[j].shape != "round"]
        for k in range(len(fps)) if hulls else ():
            q = core(idx.fps[int(rng.choice(hulls))])[0]
            i = int(rng.integers(len(q)))
            a, b = q[i], q[(i + 1) % len(q)]
            e = b - a
            n = np.array([e[1], -e[0]]) / np.hypot(*e)   # (outward: the core is counter-clockwise)
            t = 0.5 * fps[k].length * float(rng.choice([1.0, 1.0 + 1e-15, 1.0 - 1e-15, -1.0]))
            p = 0.5 * (a + b) + t * n
            fps[k] = fps[k].moved(float(p[0]), float(p[1]))
        rows = rng.integers(0, len(idx), size=int(rng.integers(0, 12))).astype(np.intp)
        got, want = KERN.compiled(fps, idx, rows), KERN.reference(fps, idx, rows)
        assert got is not None and C._same_bits(got, want)


@built
def test_fps_to_rows_compiled_declines_what_it_does_not_take():
    hull = Footprint("rect", 5.0, 5.0, 3.0, 2.0, 10.0)
    idx = BodyIndex([Body("a", "u", 0, round_base(32, 1.0, 1.0)), Body("b", "v", 1, hull)])
    fps = [round_base(32, 9.0, 9.0)]
    assert C._same_bits(KERN.compiled(fps, idx, np.array([0])), KERN.reference(fps, idx, np.array([0])))
    assert C._same_bits(KERN.compiled(fps, idx, np.array([0, 1])), KERN.reference(fps, idx, np.array([0, 1])))
    assert KERN.compiled([hull], idx, np.array([0])) is None                 # (a hull among the bases)
    assert KERN.compiled(fps, idx, np.array([0], dtype=np.int32)) is None
    assert KERN.compiled(fps, idx, np.array([2])) is None                    # (no row 2)
    assert KERN.compiled([round_base(32, np.nan, 1.0)], idx, np.array([0])) is None
    for empty in (([], idx, np.array([0])), (fps, idx, np.zeros(0, dtype=np.intp))):
        got, want = KERN.compiled(*empty), KERN.reference(*empty)
        assert got.shape == want.shape
