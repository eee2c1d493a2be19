"""01.04 measuring (edge to edge), 01.04.01 "within", 03.04 engagement range: sim.rules.geometry."""

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from sim.rules.geometry import (
    ENGAGEMENT_RANGE, EPS, core, distance, distance_matrix, engaged, footprint,
    footprint_polygon_distance, in_engagement_range, outline, overlaps, round_base, within,
    within_distance,
)

D32 = 32 / 25.4


def test_round_base_diameter_from_mm():
    fp = round_base(32, 1, 2)
    assert math.isclose(fp.length, 1.2598425196850394)
    assert fp.length == fp.width


def test_distance_edge_to_edge_round():
    a, b = round_base(32, 0, 0), round_base(32, 10, 0)
    assert math.isclose(distance(a, b), 10 - D32)


def test_overlapping_distance_is_zero():
    a, b = round_base(32, 0, 0), round_base(32, 0.5, 0)
    assert distance(a, b) == 0.0
    assert overlaps(a, b)


def test_touching_is_not_overlapping():
    a, b = round_base(25.4, 0, 0), round_base(25.4, 1, 0)
    assert distance(a, b) == 0.0
    assert not overlaps(a, b)


def test_engaged_at_exactly_two_inches_but_not_2_01():
    a = round_base(32, 0, 0)
    assert engaged(a, round_base(32, 2 + D32, 0))
    assert not engaged(a, round_base(32, 2.01 + D32, 0))


def test_within_is_not_more_than():
    a = round_base(32, 0, 0)
    b = round_base(32, 6 + D32, 0)
    assert within(a, b, 6)
    assert not within(a, b, 5.99)


def test_01_04_01_within_a_measured_distance_allows_the_one_tolerance_and_no_more():
    assert within_distance(6.0, 6) and within_distance(6.0 + EPS, 6)
    assert not within_distance(6.0 + 2 * EPS, 6) and not within_distance(6.01, 6)
    d = np.array([1.0, 2.0, 2.0 + EPS, 2.0 + 1e-6, np.inf])
    assert within_distance(d, 2.0).tolist() == [True, True, True, False, False]
    assert in_engagement_range(d).tolist() == within_distance(d, ENGAGEMENT_RANGE).tolist()
    assert ENGAGEMENT_RANGE == 2.0


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 10), st.floats(-5, 5), st.floats(0, 12))
def test_03_04_engaged_and_within_are_the_measured_distance_tests(x, y, inches):
    a, b = round_base(32, 0, 0), round_base(40, x + 3, y)
    d = distance(a, b)
    assert engaged(a, b) == in_engagement_range(d)
    assert within(a, b, inches) == within_distance(d, inches)


def test_rect_to_round_corner_distance():
    r = footprint("rect", 0, 0, 4, 2)            # corners at (+-2, +-1)
    c = round_base(25.4, 2 + 3, 1 + 4)           # centre 5" from the corner, radius 0.5
    assert math.isclose(distance(r, c), 4.5)
    assert math.isclose(distance(c, r), 4.5)


def test_rotated_rect_distance():
    r = footprint("rect", 0, 0, 4, 2, angle=90)  # now 2 wide (x), 4 long (y)
    c = round_base(25.4, 0, 2 + 3.5)
    assert math.isclose(distance(r, c), 3.0)


def test_rect_rect_distance_and_overlap():
    a = footprint("rect", 0, 0, 4, 2)
    b = footprint("rect", 7, 0, 4, 2)
    assert math.isclose(distance(a, b), 3.0)
    c = footprint("rect", 3, 0, 4, 2, angle=45)
    assert distance(a, c) == 0.0 and overlaps(a, c)


def test_crossed_hulls_with_no_corner_inside_are_touching():
    """Two long thin bases laid across each other like a plus sign: no corner of either is
    inside the other, only their edges cross, and the distance is 0 (also to a terrain
    polygon laid the same way); moved apart, the gap between the edges."""
    a = footprint("rect", 10, 10, 6, 1)
    b = footprint("rect", 10, 10, 6, 1, angle=90)
    assert distance(a, b) == 0.0 and overlaps(a, b)
    o = footprint("oval", 10, 10, 6, 1, angle=90)
    assert distance(a, o) == 0.0
    cross = [(9.5, 7), (10.5, 7), (10.5, 13), (9.5, 13)]
    assert footprint_polygon_distance(a, cross) == 0.0
    far = footprint("rect", 10, 14.5, 6, 1)
    assert math.isclose(distance(far, b), 1.0)
    assert math.isclose(footprint_polygon_distance(far, cross), 1.0)


def test_oval_tolerance_documented():
    ov = footprint("oval", 0, 0, 6, 4)
    c = round_base(25.4, 10, 0)                  # true gap: 10 - 3 - 0.5 = 6.5
    assert abs(distance(ov, c) - 6.5) < 1e-9     # a polygon vertex sits on the major axis
    c2 = round_base(25.4, 0, 10)                 # true gap 10 - 2 - 0.5 = 7.5
    assert abs(distance(ov, c2) - 7.5) <= 3 * (1 - math.cos(math.pi / 64)) + 1e-12


def test_outline_points_on_circle():
    pts = outline(round_base(32, 3, 4), n=16)
    assert pts.shape == (16, 2)
    assert np.allclose(np.hypot(pts[:, 0] - 3, pts[:, 1] - 4), D32 / 2)


def test_core_of_round_is_centre_and_radius():
    pts, r = core(round_base(32, 3, 4))
    assert pts.tolist() == [[3.0, 4.0]] and math.isclose(r, D32 / 2)


coord = st.floats(0, 60, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coord, coord, st.sampled_from(["round", "rect", "oval"]),
                          st.floats(0, 180)), min_size=1, max_size=6))
def test_distance_matrix_matches_distance(specs):
    fps = [round_base(32, x, y) if s == "round" else footprint(s, x, y, 3, 1.5, ang)
           for x, y, s, ang in specs]
    m = distance_matrix(fps, fps)
    for i, a in enumerate(fps):
        for j, b in enumerate(fps):
            assert math.isclose(m[i, j], distance(a, b), abs_tol=1e-9)
            assert math.isclose(m[i, j], m[j, i], abs_tol=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coord, coord, st.sampled_from(["round", "round", "rect", "oval"]),
                          st.floats(0, 180), st.sampled_from([25, 32, 40, 60])), min_size=1, max_size=8),
       st.integers(0, 7))
def test_distance_matrix_hull_rows_are_the_pairwise_routine_to_the_bit(specs, k):
    """An oval or rectangular hull against the round bases gives exactly the numbers the
    pair-by-pair routine gives, also for a sub-list of rows (a move: sim.world.spatial)."""
    fps = [round_base(mm, x, y) if s == "round" else footprint(s, x, y, 4, 2.5, ang)
           for x, y, s, ang, mm in specs]
    rows = fps[: 1 + k % len(fps)]
    m = distance_matrix(rows, fps)
    for i, a in enumerate(rows):
        for j, b in enumerate(fps):
            if a.shape != "round" or b.shape != "round":
                assert m[i, j] == distance(a, b)


def test_distance_from_hull_to_disc_inside_and_outside():
    hull = footprint("rect", 10, 10, 4, 2)
    inside, near, far = round_base(25, 10.5, 10.2), round_base(32, 13, 10), round_base(32, 20, 10)
    m = distance_matrix([hull], [inside, near, far])
    assert m[0, 0] == 0.0                                  # centre within the hull: overlapping
    assert math.isclose(m[0, 1], 1 - D32 / 2)              # 1" from the short edge, less the radius
    assert math.isclose(m[0, 2], 8 - D32 / 2)


def test_distance_matrix_rounds_against_hulls_are_distance_bit_for_bit():
    """Round bases against ovals and rectangles go in one vectorised step per hull: the very
    floats of ``distance`` (both orders; hull to hull too), centres inside a hull, bases
    overlapping, near and far."""
    rng = np.random.default_rng(8)
    hulls = [footprint(s, *rng.uniform(10, 50, 2), rng.uniform(0.5, 8), rng.uniform(0.5, 5),
                       rng.uniform(0, 360)) for s in ["oval", "rect"] * 10]
    rounds = [round_base(int(rng.choice([25, 32, 60, 100])), *rng.normal((h.x, h.y), sd))
              for h in hulls for sd in (0.3, 1.5, 10.0)]
    fps = [fps for pair in zip(hulls, rounds) for fps in pair] + rounds[len(hulls):]
    m = distance_matrix(fps, fps)
    zero = 0
    for i, a in enumerate(fps):
        for j, b in enumerate(fps):
            if a.shape == "round" and b.shape == "round":
                continue            # (the round-to-round step has its own arithmetic)
            assert m[i, j] == distance(a, b), (i, j)
            zero += m[i, j] == 0.0 and a.shape != b.shape
    assert zero > 40


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coord, coord, st.sampled_from(["round", "round", "rect", "oval"]),
                          st.floats(0, 180), st.sampled_from([25, 32, 40, 60])), min_size=1, max_size=8))
def test_distance_matrix_among_one_units_models_is_symmetric_and_the_pairwise_routine(specs):
    """01.04 The distances among a unit's models (sim.rules.movement.kernels.fps_distance_matrix,
    read for coherency, 03.03): 0 on the diagonal, and every pair with a hull exactly what
    ``distance`` gives, the same both ways (round pairs: to rounding)."""
    from sim.rules.movement.kernels import fps_distance_matrix
    fps = [round_base(mm, x, y) if s == "round" else footprint(s, x, y, 4, 2.5, ang)
           for x, y, s, ang, mm in specs]
    m = fps_distance_matrix(fps)
    assert (np.diag(m) == 0).all()
    for i, a in enumerate(fps):
        for j, b in enumerate(fps):
            if i != j and (a.shape != "round" or b.shape != "round"):
                assert m[i, j] == m[j, i] and m[i, j] in (distance(a, b), distance(b, a))
            elif i != j:
                assert math.isclose(m[i, j], distance(a, b), abs_tol=1e-9)
