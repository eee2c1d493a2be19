"""01.04 sim.rules.movement.legality.near_each (which bodies of the table may come within a reach
of each of some bases where it stands: the pile-in's and consolidation's enemies near each
model) and its compiled twin (sim.rules.compiled: ``movement.near_each``) give the same answer to
the bit: seeded bodies and bases of every shape, boxes meeting exactly at the reach and a hair
either side, rows in any order and asked twice, no base or no row; and what the twin leaves to
the reference (another type, a row out of range, a value that is no number)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import round_base
from sim.rules.movement.index import Body, BodyIndex
from sim.rules.movement.legality import near_each

from random_bases import random_base
from twins import twin_answer

KERN = C.KERNELS["movement.near_each"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


@built
@pytest.mark.parametrize("seed", range(8))
def test_near_each_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(20):
        idx = BodyIndex([Body(f"m{i:02d}", f"u{i % 4}", i % 2, random_base(rng, *rng.uniform(0, 30, size=2)))
                         for i in range(int(rng.integers(1, 25)))])
        fps = [random_base(rng, *rng.uniform(0, 30, size=2)) for _ in range(int(rng.integers(0, 8)))]
        reach = float(rng.choice([0.0, 0.5, 1.0, 2.0, 6.0]))
        xlo, xhi, ylo, yhi = idx.boxes()
        if fps:   # (a base whose grown box meets a body's exactly, or a hair short or past)
            f = fps[0]
            pad = (f.bounding_radius + reach) + 1e-6
            for d in (0.0, 1e-12, -1e-12):
                fps.append(f.moved(float(xhi[0] + pad + d), float(rng.uniform(0, 30))))
        rows = rng.integers(0, len(idx), size=int(rng.integers(0, 12))).astype(np.intp)
        want = twin_answer(KERN, fps, idx, reach, rows)
        seen.update(want.ravel().tolist())
    assert seen == {True, False}
    assert near_each is KERN


@built
def test_near_each_compiled_declines_what_it_does_not_take():
    idx = BodyIndex([Body("a", "u", 0, round_base(32, 1.0, 1.0)), Body("b", "v", 1, round_base(32, 5.0, 1.0))])
    fps = [round_base(32, 3.0, 1.0)]
    rows = np.array([0, 1])
    assert C._same_bits(KERN.compiled(fps, idx, 1.0, rows), KERN.reference(fps, idx, 1.0, rows))
    assert KERN.compiled(fps, idx, 1, rows) is None                          # (an int reach: numpy's arithmetic)
    assert KERN.compiled(fps, idx, 1.0, rows.astype(np.int32)) is None
    assert KERN.compiled(fps, idx, 1.0, np.array([2])) is None               # (no row 2)
    assert KERN.compiled([round_base(32, np.nan, 1.0)], idx, 1.0, rows) is None
    for empty in (([], idx, 1.0, rows), (fps, idx, 1.0, np.zeros(0, dtype=np.intp))):
        got, want = KERN.compiled(*empty), KERN.reference(*empty)
        assert got.shape == want.shape and got.dtype == want.dtype
