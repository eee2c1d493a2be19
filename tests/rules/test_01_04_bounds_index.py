"""01.04 The bounding-circle filters in front of the exact distance rules (sim.rules.bounds, and
the batched steps of sim.rules.geometry and sim.rules.movement.kernels) against brute force on
random layouts: the index names every pair the exact rule could accept (never fewer), in the
order added, and the batched distances are the pair-by-pair floats to the bit."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules import geometry
from sim.rules.bounds import CircleGrid, circles_apart
from sim.rules.geometry import distance, distance_matrix, footprint, overlaps
from sim.rules.movement import kernels

coord = st.floats(-5, 65, allow_nan=False)
size = st.floats(0.3, 8, allow_nan=False)


@st.composite
def fps(draw, x=coord, y=coord):
    shape = draw(st.sampled_from(["round", "oval", "rect"]))
    length = draw(size)
    width = length if shape == "round" else draw(size)
    return footprint(shape, draw(x), draw(y), length, width, draw(st.floats(0, 360)))


@st.composite
def clusters(draw, n=st.integers(1, 14)):
    """Footprints crowded round a few points, so overlaps and near misses are common."""
    cx, cy = draw(coord), draw(coord)
    spread = draw(st.sampled_from([0.5, 2.0, 6.0, 30.0]))
    near = st.floats(-spread, spread, allow_nan=False)
    return [f.moved(cx + f.x, cy + f.y) for f in draw(st.lists(fps(near, near), min_size=1, max_size=draw(n)))]


@settings(max_examples=150, deadline=None)
@given(clusters(), clusters(st.integers(1, 6)), st.floats(0, 30), st.sampled_from([0.5, 4.0, 13.0]))
def test_grid_names_every_circle_within_reach(placed, asked, reach, cell):
    grid = CircleGrid(cell)
    for f in placed:
        grid.add(f.x, f.y, f.bounding_radius)
    for q in asked:
        got = grid.near(q.x, q.y, q.bounding_radius, reach)
        brute = [k for k, f in enumerate(placed)
                 if not circles_apart(q.x, q.y, q.bounding_radius, f.x, f.y, f.bounding_radius, reach)]
        assert got == brute
        # nothing left out is within reach, or overlapping, by the exact rule
        for k, f in enumerate(placed):
            if k not in got:
                assert distance(q, f) > reach
                assert not overlaps(q, f)


@settings(max_examples=150, deadline=None)
@given(clusters())
def test_overlaps_with_the_bound_is_the_exact_test(fs):
    for a in fs:
        for b in fs:
            exact = _exact_overlaps(a, b)
            assert overlaps(a, b) == exact


def _exact_overlaps(a, b) -> bool:
    """geometry.overlaps as it was before the bounding circles went in front."""
    if a.shape == "round" and b.shape == "round":
        return math.hypot(a.x - b.x, a.y - b.y) < 0.5 * (a.length + b.length) - 1e-7
    pa, ra = geometry.core(a)
    pb, rb = geometry.core(b)
    if ra == 0 and rb == 0:
        for poly in (pa, pb):
            e = np.roll(poly, -1, axis=0) - poly
            n = np.stack([e[:, 1], -e[:, 0]], axis=1)
            n /= np.linalg.norm(n, axis=1, keepdims=True)
            sa, sb = pa @ n.T, pb @ n.T
            if np.any((sa.max(0) <= sb.min(0) + 1e-7) | (sb.max(0) <= sa.min(0) + 1e-7)):
                return False
        return True
    return geometry._convex_distance(pa, pb) < ra + rb - 1e-7


@settings(max_examples=120, deadline=None)
@given(clusters(), clusters())
def test_distance_matrix_hulls_are_the_pair_distances(a, b):
    m = distance_matrix(a, b)
    for i, fa in enumerate(a):
        for j, fb in enumerate(b):
            if fa.shape != "round" and fb.shape != "round":
                pa, ra, pae, ca = geometry._hull(fa)
                pb, rb, pbe, cb = geometry._hull(fb)
                want = max(0.0, geometry._convex_distance(pa, pb, pae, pbe, (ca, cb)) - ra - rb)
                assert m[i, j] == want


@settings(max_examples=120, deadline=None)
@given(fps(), clusters(), st.lists(st.tuples(coord, coord), min_size=1, max_size=40))
def test_placed_distances_is_the_pair_by_pair_loop(fp, others, spots):
    centres = np.array(spots, dtype=float)
    got = kernels.placed_distances(fp, centres, others)
    for j, o in enumerate(others):
        if fp.shape == "round" and o.shape == "round":
            continue
        pts, poly, r = kernels._pair_terms(fp, centres, o)
        assert np.array_equal(got[:, j], np.maximum(kernels._points_convex_distance(pts, poly) - r, 0.0))


def _mixed_hulls(rng, n: int) -> list:
    """Ovals (64-vertex cores) and rectangles (4) of several sizes and facings, with copies of
    some set beside them: parallel sides facing each other, so that several (vertex, edge)
    entries tie for the least."""
    out = []
    for _ in range(n):
        shape = rng.choice(["oval", "rect"])
        length = rng.choice([1.2, 2.95, 3.94, 5.9])
        width = rng.choice([1.0, 1.65, 3.54, length])
        f = footprint(shape, rng.uniform(0, 40), rng.uniform(0, 40), length, width,
                      rng.choice([0.0, 90.0, rng.uniform(0, 360)]))
        out.append(f)
        if rng.random() < 0.4:   # (the same base beside it, just apart or just over _APART)
            gap = rng.choice([0.0, 1e-9, 0.005, 0.0101, 0.5])
            out.append(f.moved(f.x + 2 * f.bounding_radius + gap, f.y))
    return out


def test_01_04_hull_block_of_mixed_cores_is_the_pair_distances():
    """geometry._hull_block measures every pair whose bounding circles are apart in one call,
    cores of 64 and 4 vertices together: each entry is _convex_distance's to the bit."""
    import random
    rng = random.Random(104)
    for _ in range(60):
        a, b = _mixed_hulls(rng, rng.randint(1, 6)), _mixed_hulls(rng, rng.randint(1, 9))
        out = np.full((len(a), len(b)), np.nan)
        geometry._hull_block(a, list(range(len(a))), b, list(range(len(b))), out)
        for i, fa in enumerate(a):
            for j, fb in enumerate(b):
                pa, ra, pae, ca = geometry._hull(fa)
                pb, rb, pbe, cb = geometry._hull(fb)
                want = max(0.0, geometry._convex_distance(pa, pb, pae, pbe, (ca, cb)) - ra - rb)
                assert out[i, j] == want, (fa, fb)
