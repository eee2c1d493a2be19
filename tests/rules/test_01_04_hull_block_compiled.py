"""01.04 geometry._hull_block_values (the distances between two lists of bases that are not
round: the pairs whose bounding circles are not apart one by one, through _hull_distance, the
others together, through _apart_distances) and its compiled twin (sim.rules.compiled:
``geometry.hull_block_values``) give the same bits: seeded ovals and rectangles near each other
(meeting, overlapping, a hair apart) and far apart, blocks of one to eight by one to eight; and
the inputs the twin leaves to the reference. (distance_matrix and the distance rows read it:
tests/rules/test_01_04_distance_rows.py holds them to ``distance`` pair by pair.)"""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules import geometry as G

KERN = C.KERNELS["geometry.hull_block_values"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _hulls(rng, n: int, about=None) -> list:
    out = []
    for _ in range(n):
        x, y = (rng.uniform(0, 40, size=2) if about is None
                else np.asarray(about) + rng.normal(0, float(rng.choice([0.5, 2.0, 6.0])), size=2))
        shape = "oval" if rng.random() < 0.5 else "rect"
        out.append(G.Footprint(shape, float(x), float(y), float(rng.uniform(1.5, 6.0)),
                               float(rng.uniform(1.0, 3.0)), float(rng.uniform(0, 360))))
    return out


def _args(a, b):
    return a, b, [G._hull(f) for f in a], [G._hull(f) for f in b]


@built
@pytest.mark.parametrize("seed", range(6))
def test_hull_block_values_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    near = far = 0
    for _ in range(40):
        a = _hulls(rng, int(rng.integers(1, 9)))
        b = _hulls(rng, int(rng.integers(1, 9)), about=(a[0].x, a[0].y) if rng.random() < 0.6 else None)
        args = _args(a, b)
        got = KERN.compiled(*args)
        want = KERN.reference(*args)
        assert got is not None and C._same_bits(got, want)
        assert want.tolist() == [[G.distance(f, g) for g in b] for f in a]
        near += int((want == 0.0).sum())
        far += int((want > 0.0).sum())
    assert near > 0 and far > 0


@built
def test_hull_block_values_compiled_a_hair_apart():
    """Rectangles edge to edge, and 1e-12" and 1e-9" apart: the circles' test either way."""
    r = G.Footprint("rect", 10.0, 10.0, 4.0, 2.0)
    for gap in (0.0, 1e-12, 1e-9, 0.009, 0.011, 5.0):
        s = G.Footprint("rect", 14.0 + gap, 10.0, 4.0, 2.0)
        args = _args([r, s], [s, r])
        assert C._same_bits(KERN.compiled(*args), KERN.reference(*args))


@built
def test_hull_block_values_compiled_declines_what_it_does_not_take():
    a = [G.Footprint("oval", 10.0, 10.0, 4.0, 2.0)]
    b = [G.Footprint("rect", 20.0, 10.0, 4.0, 2.0)]
    fa, fb, ha, hb = _args(a, b)
    assert KERN.compiled(fa, fb, ha, hb) is not None
    assert KERN.compiled(fa, fb, ha, []) is None                   # (the footprints and hulls differ)
    rounded = [(ha[0][0], 0.5, ha[0][2], ha[0][3])]                 # (a radius: not a hull)
    assert KERN.compiled(fa, fb, rounded, hb) is None
    flat = [(ha[0][0].astype(np.float32), 0.0, ha[0][2], ha[0][3])]
    assert KERN.compiled(fa, fb, flat, hb) is None
    bad = ha[0][0].copy()
    bad[0, 0] = np.nan
    assert KERN.compiled(fa, fb, [(bad, 0.0, ha[0][2], ha[0][3])], hb) is None
    assert KERN.compiled(fa, fb, [(ha[0][0], 0.0, ha[0][2], (ha[0][3][0], 1))], hb) is None
