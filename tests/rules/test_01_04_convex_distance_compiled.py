"""01.04 geometry._convex_distance (the closest distance between two bases' cores, 0.0 where
they meet) and its compiled twin (sim.rules.compiled: ``geometry.convex_distance``) give the
same float: seeded cores of every kind (points, segments, rectangles, ovals) near, far, inside
each other and crossing, with and without the rolled polygons and circles given; a vertex exactly
EPS outside an edge and a float either side; and the inputs it leaves to the reference
(tests/rules/test_01_04_convex_distance.py holds the record, whichever runs, to the full grid)."""

from __future__ import annotations

import numpy as np
import pytest

from random_cores import random_core
from sim.rules import compiled as C
from sim.rules import geometry as G

KERN = C.KERNELS["geometry.convex_distance"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _polygon(rng, near=None) -> np.ndarray:
    """A ccw convex polygon (random_cores) anywhere, or about ``near`` (0.3", 2" or 8" apart)."""
    if near is None:
        x, y = rng.uniform(0, 20, size=2)
    else:
        x, y = rng.normal(near, float(rng.choice([0.3, 2.0, 8.0])))
    return random_core(rng, float(x), float(y))


def _same(*args) -> bool:
    got, want = KERN.compiled(*args), KERN.reference(*args)
    return got is not None and type(got) is float and C._same_bits(got, want)


@built
@pytest.mark.parametrize("seed", range(3))
def test_convex_distance_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    zero = 0
    for _ in range(150):
        p = _polygon(rng)
        q = _polygon(rng, p.mean(axis=0))
        pe, qe = G.roll_next(p), G.roll_next(q)
        assert _same(p, q)
        assert _same(p, q, pe, qe, (G._circle(p), G._circle(q)))
        zero += KERN.reference(p, q) == 0.0
    assert zero > 0


@built
def test_convex_distance_compiled_at_a_vertex_eps_outside_an_edge():
    """A point exactly EPS outside a unit square's edge (its cross product with the edge is the
    distance) counts as inside it (0.0); a float farther, not; and a square inside another, a
    square crossing another."""
    sq = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    for y in (-G.EPS, float(np.nextafter(-G.EPS, -1.0)), float(np.nextafter(-G.EPS, 1.0))):
        assert _same(np.array([[0.5, y]]), sq)
        assert _same(sq, np.array([[0.5, y]]))
    assert KERN.compiled(np.array([[0.5, -G.EPS]]), sq) == 0.0
    assert KERN.compiled(np.array([[0.5, float(np.nextafter(-G.EPS, -1.0))]]), sq) > 0.0
    assert _same(sq, 0.5 * sq + 0.5) and _same(sq, sq + np.array([1.0, 1.0]))


@built
def test_convex_distance_compiled_leaves_to_the_reference_what_numpy_would_compute_otherwise():
    p = G.core(G.Footprint("rect", 1.0, 1.0, 2.0, 1.0, 30.0))[0]
    q = p + 5.0
    assert KERN.compiled(p, q) is not None
    nan = q.copy()
    nan[0, 0] = np.nan
    circles = (G._circle(p), G._circle(q))
    for args in [(p.astype(np.float32), q), (p, q[:0]), (p, q[:, :1]), (p, nan), (p, q * 1e200),
                 (p, q, p[:-1], None), (p, q, None, q.astype(np.float32)),
                 (p, q, None, None, ((circles[0][0], np.float64(circles[0][1])), circles[1])),
                 (p, q, None, None, ((circles[0][0].astype(np.float32), circles[0][1]), circles[1])),
                 (p, q, None, None, "circles")]:
        assert KERN.compiled(*args) is None


@built
def test_cores_in_another_layout_without_their_circles_are_the_reference_s():
    """The bounding circles' means are numpy's row-by-row sums only for C-ordered arrays: cores
    in another layout, their circles not given, are left to the reference; given, they are
    read, not worked out, and the twin answers."""
    p = G.core(G.Footprint("oval", 0.0, 0.0, 4.0, 2.0, 10.0))[0]
    q = G.core(G.Footprint("oval", 3.5, 0.5, 3.0, 2.0, 80.0))[0]
    fp, fq = np.asfortranarray(p), np.asfortranarray(q)
    assert KERN.compiled(fp, fq) is None
    assert KERN(fp, fq) == KERN.reference(fp, fq)
    assert _same(fp, fq, None, None, (G._circle(p), G._circle(q)))
    assert _same(p, q)
