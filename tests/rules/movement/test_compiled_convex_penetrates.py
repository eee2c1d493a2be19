"""13.06 / Part A ruling 13: sim.rules.movement.kernels._convex_penetrates_polygon (a vehicle's
swept or standing hull sharing area with a dense or light feature) and its compiled twin
(sim.rules.compiled: ``movement.convex_penetrates_polygon``) give the same answer: seeded hulls
(bases' cores, swept along a segment, of one to sixty-six vertices) against seeded polygons,
convex and not; exact ties with ``tol`` at each of the three tests (the tolerance set to a
value the reference itself works out, so the comparison meets it exactly) and a float either
side; and the inputs it leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from random_cores import random_core
from sim.rules import compiled as C
from sim.rules.geometry import Footprint, core
from sim.rules.movement import kernels as K
from sim.rules.movement.index import TOUCH, _Poly

KERN = C.KERNELS["movement.convex_penetrates_polygon"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _poly(rng) -> _Poly:
    """A simple polygon star-shaped about its centre (convex or not), 3-8 vertices."""
    m = int(rng.integers(3, 9))
    ang = np.sort(rng.uniform(0, 2 * np.pi, size=m))
    rad = rng.uniform(0.5, 4.0, size=m)
    pts = rng.uniform(4, 12, size=2) + np.stack([rad * np.cos(ang), rad * np.sin(ang)], axis=1)
    return _Poly("area", "dense", pts, np.roll(pts, -1, axis=0), pts.min(axis=0), pts.max(axis=0))


def _hull(rng) -> np.ndarray:
    """A ccw convex hull: a point, a segment, or a rectangle's or an oval's core (64 vertices),
    swept along a segment (as a move's path check sweeps it) one time in two."""
    x, y = rng.uniform(2, 14, size=2)
    H = random_core(rng, float(x), float(y))
    if len(H) > 2 and rng.random() < 0.5:
        centre = H.mean(axis=0)
        return K._swept(H - centre, centre, centre + rng.uniform(-3, 3, size=2))
    return H


def _same(H, poly, tol) -> bool:
    got, want = KERN.compiled(H, poly, tol), KERN.reference(H, poly, tol)
    assert got is not None and type(got) is type(want) is bool
    return got == want


def _inner_values(H: np.ndarray, poly: _Poly) -> list[float]:
    """Values the reference compares with ``tol``: an inside probe's distance to the polygon's
    edges, a polygon vertex's least inward distance in H, the edges' orientations (the same
    numpy arithmetic as the reference's)."""
    v, w = poly.pts, poly.nxt
    probe = np.vstack([H, H.mean(axis=0, keepdims=True)])
    out = K._seg_point_dist(v, w, probe).min(axis=0).tolist()
    if len(H) >= 3:
        out += K._convex_signed(v, H).tolist()
    he = K.roll_next(H)
    for p0, p1, q in ((v, w, H), (H, he, v)):
        e = p1 - p0
        ln = np.hypot(e[:, 0], e[:, 1])
        out += ((e[None, :, 0] * (q[:, None, 1] - p0[None, :, 1])
                 - e[None, :, 1] * (q[:, None, 0] - p0[None, :, 0]))
                / np.where(ln > 0, ln, 1.0)).ravel().tolist()
    return [abs(x) for x in out if 0 < abs(x) < 2.0]


@built
@pytest.mark.parametrize("seed", range(2))
def test_convex_penetrates_polygon_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    answers = set()
    for _ in range(200):
        H, poly = _hull(rng), _poly(rng)
        for tol in (TOUCH, 0.0, float(rng.uniform(0, 1))):
            assert _same(H, poly, tol)
            answers.add(KERN.reference(H, poly, tol))
    assert answers == {True, False}


@built
@pytest.mark.parametrize("seed", range(2))
def test_convex_penetrates_polygon_compiled_at_exact_ties(seed):
    """``tol`` set to each value the reference compares with it, and a float either side."""
    rng = np.random.default_rng(100 + seed)
    ties = 0
    while ties < 300:
        H, poly = _hull(rng), _poly(rng)
        values = _inner_values(H, poly)
        for x in rng.choice(values, size=min(6, len(values)), replace=False) if values else ():
            for tol in (float(x), float(np.nextafter(x, 0.0)), float(np.nextafter(x, 9.0))):
                assert _same(H, poly, tol)
            ties += 1


@built
def test_convex_penetrates_polygon_compiled_at_a_vertex_exactly_tol_inside():
    """A square hull and a triangle poking a vertex into it exactly ``tol`` deep: neither the
    vertex nor the crossing edges are past ``tol`` (False); a float deeper, both are."""
    H = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    for depth, want in ((0.25, False), (float(np.nextafter(0.25, 1.0)), True)):
        pts = np.array([[0.5, -3.0], [1.5, -3.0], [1.0, depth]])
        poly = _Poly("area", "dense", pts, np.roll(pts, -1, axis=0), pts.min(axis=0), pts.max(axis=0))
        assert KERN.reference(H, poly, 0.25) is want
        assert KERN.compiled(H, poly, 0.25) is want


@built
def test_convex_penetrates_polygon_compiled_leaves_to_the_reference_what_numpy_would_compute_otherwise():
    """Another dtype or shape, no polygon or no hull, a place that is no finite number or large
    enough to overflow, a numpy scalar for ``tol``, no ``tol``, one below 0 or NaN."""
    rng = np.random.default_rng(9)
    H, poly = _hull(rng), _poly(rng)
    assert KERN.compiled(H, poly, TOUCH) is not None
    bad = _Poly("area", "dense", poly.pts.copy(), poly.nxt.copy(), poly.lo, poly.hi)
    bad.pts[0, 0] = np.nan
    huge = _Poly("area", "dense", poly.pts * 1e200, poly.nxt * 1e200, poly.lo, poly.hi)
    short = _Poly("area", "dense", poly.pts, poly.nxt[:-1], poly.lo, poly.hi)
    empty = _Poly("area", "dense", poly.pts[:0], poly.nxt[:0], poly.lo, poly.hi)
    for args in [(H.astype(np.float32), poly, TOUCH), (H, object(), TOUCH), (H, bad, TOUCH),
                 (H, huge, TOUCH), (H, short, TOUCH), (H, empty, TOUCH), (H[:0], poly, TOUCH),
                 (np.hstack([H, H]), poly, TOUCH), (H, poly, np.float64(TOUCH)), (H, poly), (H, poly, -1e-7),
                 (H, poly, float('nan'))]:
        assert KERN.compiled(*args) is None
    inf_h = H.copy()
    inf_h[0, 0] = np.inf
    assert KERN.compiled(inf_h, poly, TOUCH) is None


@built
def test_a_hull_in_another_layout_is_the_reference_s_and_a_signed_zero_mean_is_numpy_s():
    """numpy's mean over the first axis of a Fortran-ordered array of eight rows or more sums
    pairwise, not row by row: such a hull is left to the reference (a second reader's case: a
    polygon just over TOUCH below an oval's mean, where the two means' last bits part). And a
    column of -0.0 means +0.0, as numpy's sum starts from +0.0."""
    oval = np.array(core(Footprint("oval", 0.0, 0.0, 4.0, 2.0, 0.0))[0])
    mean_y = float(oval.mean(axis=0)[1])
    pts = np.array([[-3.0, -2.0], [3.0, -2.0], [3.0, mean_y + 1.5e-7], [-3.0, mean_y + 1.5e-7]])
    poly = _Poly("area", "dense", pts, np.roll(pts, -1, axis=0), pts.min(axis=0), pts.max(axis=0))
    fortran = np.asfortranarray(oval)
    assert KERN.compiled(fortran, poly, TOUCH) is None
    assert KERN(fortran, poly, TOUCH) == KERN.reference(fortran, poly, TOUCH)
    assert _same(oval, poly, TOUCH)
    flat = np.array([[-0.0, 1.0], [-0.0, 2.0], [-0.0, 3.0]])
    line = np.array([[0.0, 0.0], [0.0, 5.0], [-1.0, 5.0], [-1.0, 0.0]])
    side = _Poly("area", "dense", line, np.roll(line, -1, axis=0), line.min(axis=0), line.max(axis=0))
    for tol in (0.0, TOUCH):
        assert _same(flat, side, tol)
