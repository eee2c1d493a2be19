"""01.04 sim.rules.movement.kernels._points_convex_distance and points_convexes_distance (points
to convex polygons' closed areas: a base's centre to a hull's core, a hull placed at each spot
against a disc) and their compiled twins (sim.rules.compiled: ``movement.points_convex_distance``,
``movement.points_convexes_distance``) give the same bits: seeded points inside, outside, on the
edges and at the vertices of seeded convex polygons of one to sixty-four vertices (a rectangle's
and an oval's cores, a point, a segment, repeated vertices), many polygons of one vertex count
at once (the reference's grouped path) and of mixed counts; and the inputs they leave to the
reference."""

from __future__ import annotations

import numpy as np
import pytest

from random_cores import random_core
from sim.rules import compiled as C
from sim.rules.geometry import Footprint, core
from sim.rules.movement import kernels as K

ONE = C.KERNELS["movement.points_convex_distance"]
MANY = C.KERNELS["movement.points_convexes_distance"]
built = pytest.mark.skipif(ONE.compiled is None or MANY.compiled is None,
                           reason="the compiled kernels are not built here")


def _polygon(rng) -> np.ndarray:
    """A ccw convex polygon (random_cores: a point, a segment, a rectangle's or an oval's core),
    one time in four with a vertex repeated (an edge of no length)."""
    x, y = rng.uniform(0, 20, size=2)
    q = random_core(rng, float(x), float(y))
    return np.insert(q, 1, q[1], axis=0) if len(q) > 2 and rng.random() < 0.25 else q


def _points(rng, polys, n: int = 40) -> np.ndarray:
    """Seeded points about the polygons, and each polygon's vertices and edge midpoints
    (exactly on the boundary, as far as the arithmetic goes)."""
    pts = [rng.uniform(-2, 22, size=(n, 2))]
    for q in polys:
        pts += [q, 0.5 * (q + np.roll(q, -1, axis=0))]
    return np.concatenate(pts)


def _same(got, want) -> bool:
    return got is not None and C._same_bits(got, want)


@built
@pytest.mark.parametrize("seed", range(3))
def test_points_convex_distance_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    zeros = 0
    for _ in range(60):
        q = _polygon(rng)
        p = _points(rng, [q])
        want = ONE.reference(p, q)
        assert _same(ONE.compiled(p, q), want)
        zeros += int((want == 0).sum())
    assert zeros > 0   # (points inside, and on the boundary, were met)


@built
@pytest.mark.parametrize("seed", range(3))
def test_points_convexes_distance_compiled_is_its_reference_to_the_bit(seed):
    """Polygons of one vertex count together (the reference stacks them) and of mixed counts;
    none at all; and no point."""
    rng = np.random.default_rng(10 + seed)
    for _ in range(20):
        polys = [_polygon(rng) for _ in range(int(rng.integers(1, 7)))]
        same_count = [core(Footprint("rect", float(x), 5.0, 3.0, 1.0, float(a)))[0]
                      for x, a in rng.uniform(0, 20, size=(3, 2))]
        for qs in (polys, same_count, polys + same_count, []):
            p = _points(rng, qs)
            assert _same(MANY.compiled(p, qs), MANY.reference(p, qs))
        assert _same(MANY.compiled(p[:0], polys), MANY.reference(p[:0], polys))


@built
def test_a_point_on_a_segment_s_line_beyond_it_is_its_distance_away():
    """A polygon of two vertices has no inside: a point on its line (exactly: the segment lies
    along an axis) beyond either end is as far as that end, one on the segment 0."""
    for q in (np.array([[1.0, 2.0], [4.0, 2.0]]), np.array([[3.0, 1.0], [3.0, -2.5]])):
        p = np.array([q[0] + 2.0 * (q[1] - q[0]), q[0] - (q[1] - q[0]), 0.5 * (q[0] + q[1])])
        want = ONE.reference(p, q)
        assert want.tolist() == [3.0, 3.0, 0.0] or want.tolist() == [3.5, 3.5, 0.0]
        assert _same(ONE.compiled(p, q), want) and _same(MANY.compiled(p, [q]), MANY.reference(p, [q]))


@built
def test_points_convex_twins_leave_to_the_reference_what_numpy_would_compute_otherwise():
    """Another dtype or shape, a polygon of no vertex, a place that is no finite number or large
    enough to overflow."""
    q = core(Footprint("rect", 5.0, 5.0, 3.0, 1.0, 30.0))[0]
    p = np.array([[1.0, 2.0], [5.0, 5.0]])
    assert ONE.compiled(p, q) is not None and MANY.compiled(p, [q]) is not None
    nan = p.copy()
    nan[0, 0] = np.nan
    for pp, qq in ((p.astype(np.float32), q), (p, q.astype(np.float32)), (p[:, :1], q), (p, q[:0]),
                   (nan, q), (p * 1e200, q), (p, q * 1e200), (p[None], q)):
        assert ONE.compiled(pp, qq) is None
        assert MANY.compiled(pp, [q, qq] if qq is not q else [qq]) is None
    assert MANY.compiled(p, [q, q.tolist()]) is None


def test_the_records_stand_in_their_module():
    assert K._points_convex_distance is ONE and K.points_convexes_distance is MANY
