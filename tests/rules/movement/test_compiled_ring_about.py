"""01.04 sim.rules.movement.solvers.spots._ring_about (the points a gap outside a convex polygon:
``ring``'s spots round a base when either base is not round) and its compiled twin
(sim.rules.compiled: ``movement.ring_about``) give the same answer to the bit: the sums of random
hulls' and round bases' cores as ``ring`` makes them, in either orientation, with few and many
points asked; polygons whose signed area is too near 0 for the twin's own sum (numpy's decides);
edges shorter than the cut; and the inputs the twin leaves to the reference. The reference
against what it promises (each point the gap from the polygon), and ``ring`` against the way it
formed its polygon before the kernel (``ccw`` of every core)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, core
from sim.rules.movement.kernels import _minkowski_sum
from sim.rules.movement.solvers import spots as SP
from sim.rules.polygons import ccw

from twins import twin_answer

KERN = C.KERNELS["movement.ring_about"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")

coord = st.floats(-10.0, 70.0, allow_nan=False, allow_infinity=False)
base = st.one_of(
    st.tuples(st.just("round"), coord, coord, st.sampled_from((25, 32, 40, 50, 60, 100)), st.just(0.0)),
    st.tuples(st.sampled_from(("oval", "rect")), coord, coord, st.floats(0.5, 9.0), st.floats(0.5, 5.0),
              st.floats(0.0, 359.0)))
counts = st.sampled_from((1, 3, 8, 12, 16, 24, 64, 65, 128, 300))


def _fp(b) -> Footprint:
    if b[0] == "round":
        return Footprint("round", b[1], b[2], b[3] / 25.4, b[3] / 25.4, 0.0)
    return Footprint(*b)


def _sum(fp: Footprint, ref: Footprint) -> np.ndarray:
    """The polygon ``ring`` hands the kernel (spots._hull_ring): the reference's core grown by
    the placed base's, turned 180 degrees, as ``ring`` formed it before the kernel (``ccw`` of
    every core)."""
    pf, _rf = core(Footprint(fp.shape, 0.0, 0.0, fp.length, fp.width, fp.angle))
    po, _ro = core(ref)
    return _minkowski_sum(ccw(po), -pf) if len(pf) > 1 else po


@built
@settings(max_examples=300, deadline=None)
@given(base, base, st.floats(0.0, 12.0), counts, st.booleans())
def test_ring_about_compiled_is_its_reference_to_the_bit(a, b, gap, n, backwards):
    fp, ref = _fp(a), _fp(b)
    if fp.shape == "round" and ref.shape == "round":
        fp = _fp(("oval", 0.0, 0.0, 2.0, 1.0, 10.0))
    M = _sum(fp, ref)
    M = np.ascontiguousarray(M[::-1]) if backwards else np.array(M)
    got = twin_answer(KERN, M, float(gap), n)
    P = ccw(M)
    c = int(np.count_nonzero(np.hypot(*(np.roll(P, -1, axis=0) - P).T) > 1e-12))   # (the edges kept)
    assert got.shape == (min(n, c if c >= n else 2 * c), 2)
    # (a strided view of the same points: read as the reference reads it)
    wide = np.zeros((len(M), 3))
    wide[:, ::2] = M
    twin_answer(KERN, wide[:, ::2], float(gap), n)


@built
@settings(max_examples=200, deadline=None)
@given(st.floats(-20.0, 20.0), st.floats(-20.0, 20.0), st.floats(1e-6, 30.0), st.floats(0.0, 6.3),
       st.integers(3, 40), st.sampled_from((0.0, 1e-300, 1e-17, 1e-15, 1e-13, 1e-9)), st.integers(1, 70))
def test_ring_about_near_a_straight_line_is_its_reference(x, y, length, turn, k, bow, n):
    """Points along a segment, the middle ones pushed off it by ``bow`` (0: collinear): a signed
    area at or near 0, whose sign numpy's own sum decides (the twin asks it), and edges near the
    1e-12 cut."""
    s = np.linspace(0.0, 1.0, k)
    d = np.array([np.cos(turn), np.sin(turn)])
    M = np.array([x, y]) + (s * length)[:, None] * d
    M[1:-1] += bow * np.array([-d[1], d[0]])
    M = np.vstack([M, M[-2:0:-1] + 1e-13 * np.array([-d[1], d[0]])]) if k > 3 else M
    got, want = KERN.compiled(M, 1.0, n), KERN.reference(M, 1.0, n)
    assert got is None or C._same_bits(got, want)   # (declined: fewer than three edges kept)
    if k > 3:   # (there and back: more than three edges kept, answered)
        assert got is not None


# a sliver of 14 points (a second reviewer's): summed left to right its shoelace terms total
# +5.7e-14, numpy's pairwise sum -2.8e-14: the twin's own sum would turn it the wrong way
SLIVER = [[8.0080866803136, -39.22057424005814], [9.026495191328346, -39.065802210216944],
          [9.559451015023175, -38.98480656479883], [10.774334637712002, -38.800175346313594],
          [12.221558885990719, -38.580234298964804], [13.528293255941076, -38.381644117605305],
          [16.16202161085937, -37.98138481190206], [22.451443091262533, -37.02555371021681],
          [21.36674586213264, -37.19039992870362], [20.281650056478373, -37.35530672062148],
          [20.19415474580773, -37.36860376860136], [20.046607884101952, -37.39102711545669],
          [18.878108461456172, -37.56860912263273], [16.93480453163618, -37.86394158555268]]


def _own_sum(M: np.ndarray) -> float:
    q = np.roll(M, -1, axis=0)
    total = 0.0
    for a in (M[:, 0] * q[:, 1] - q[:, 0] * M[:, 1]).tolist():
        total += a
    return total


@built
def test_ring_about_where_its_own_sum_is_not_sure_numpy_s_decides():
    """A signed area whose sign a left-to-right sum gets wrong (the sliver), one whose numpy
    total is the least negative number (0.5 of it is -0.0: not below 0, the order kept), and
    100,003 vertices whose small terms only a pairwise sum keeps: each the reference's bits."""
    from sim.rules.polygons import signed_area
    sliver = np.array(SLIVER)
    assert (_own_sum(sliver) < 0) != (signed_area(sliver) < 0)   # (the case the test is for)
    tiny = np.array([[0.0, 0.0], [1.0, 5e-324], [1.0, 0.0], [0.5, 0.0]])
    chain = np.stack([-np.arange(100_000) * 1e-16, np.ones(100_000)], axis=1)
    many = np.vstack([[1.0, 0.0], chain, [1.0 + chain[-1, 0] * 5e-12, 5e-12]])
    assert (_own_sum(many) < 0) != (signed_area(many) < 0)
    for M in (sliver, sliver[::-1].copy(), tiny, many):
        for n in (3, 12, 40):
            got = KERN.compiled(M, 1.0, n)
            assert got is None or C._same_bits(got, KERN.reference(M, 1.0, n))
        assert KERN.compiled(M, 1.0, 12) is not None


@built
@pytest.mark.parametrize("step", [0.0, 5e-13, 1e-13, 1e-12, 1e-12 * (1 + 2**-52), 2e-12])
def test_ring_about_leaves_out_the_edges_the_reference_leaves_out(step):
    """A vertex repeated ``step`` from the one before it (0, under, at and just over the 1e-12
    cut), in a square and in an oval's core: the edge kept or left out as the reference does."""
    square = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])
    oval = np.array(core(Footprint("oval", 3.0, 5.0, 3.0, 2.0, 25.0))[0])
    for P in (square, oval):
        M = np.insert(P, 2, P[1] + [step, 0.0], axis=0)
        for n in (4, 12, 200):
            twin_answer(KERN, M, 0.5, n)


@built
def test_ring_about_leaves_to_the_reference_what_it_does_not_take():
    M = np.array(_sum(_fp(("oval", 0.0, 0.0, 3.0, 2.0, 30.0)), _fp(("round", 5.0, 5.0, 32, 0.0))))
    assert KERN.compiled(M, 1.0, 12) is not None
    assert KERN.compiled(M.astype(np.float32), 1.0, 12) is None   # (another type)
    assert KERN.compiled(M[:2], 1.0, 12) is None                  # (a segment)
    assert KERN.compiled(M, np.float64(1.0), 12) is None          # (numpy's scalar, not a float)
    assert KERN.compiled(M, 1.0, 12.0) is None
    assert KERN.compiled(M, 1.0, 0) is None
    assert KERN.compiled(M, float("nan"), 12) is None
    bad = M.copy()
    bad[3, 1] = np.inf
    assert KERN.compiled(bad, 1.0, 12) is None
    assert KERN.compiled(M.reshape(-1), 1.0, 12) is None


@settings(max_examples=150, deadline=None)
@given(base, base, st.floats(0.0, 12.0), st.sampled_from((12, 16, 24)))
def test_01_04_ring_spots_are_the_gap_from_the_reference_and_ring_s_polygon_is_as_before(a, b, gap, n):
    """Each of ``ring``'s spots round a base that is not round stands the gap from it (edge to
    edge, to 1e-9: the placed base's core at the spot against the reference's, less both radii);
    and the polygon ``_hull_ring`` hands the kernel is, to the bit, the one it formed before
    (``ccw`` of a core of one or two points is that core as it is)."""
    from sim.rules.geometry import distance
    fp, ref = _fp(a), _fp(b)
    if fp.shape == "round" and ref.shape == "round":
        return
    SP._hull_ring.cache_clear()
    spots = SP.ring(fp, ref, gap, n)
    pf, rf = core(Footprint(fp.shape, 0.0, 0.0, fp.length, fp.width, fp.angle))
    po, ro = core(ref)
    want = KERN.reference(_sum(fp, ref), gap + rf + ro, n)
    assert C._same_bits(spots, want)
    for x, y in spots:
        placed = Footprint(fp.shape, float(x), float(y), fp.length, fp.width, fp.angle)
        assert abs(distance(placed, ref) - gap) < 1e-9
