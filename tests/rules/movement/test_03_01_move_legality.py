"""03.01 Moving units: the path model and end-of-move checks (Part A rulings 12-15)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.rules.geometry import footprint, overlaps, round_base
from sim.rules.polygons import point_in_polygon
from sim.rules.movement import legality as ML
from sim.rules.movement.legality import (
    Body, BodyIndex, check_move, engaged_units, path_length, terrain_index,
)
from sim.rules.terrain import Feature, TerrainArea

D32 = 32 / 25.4
R32 = D32 / 2
BOARD = (60.0, 44.0)


def b(mid, x, y, player=1, mm=32):
    return Body(mid, mid.split("/")[0], player, round_base(mm, x, y))


def box(name, x0, y0, x1, y1, category="dense"):
    poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainArea(name, poly, (Feature(category, poly),))


def move(paths, bodies, areas=(), **kw):
    kw.setdefault("max_distance", 6.0)
    kw.setdefault("rule", "09.05")
    return check_move("a", paths, bodies, list(areas), BOARD, **kw)


def rules_of(probs):
    return [(p.model, p.rule) for p in probs]


# --- distance --------------------------------------------------------------------------------

def test_03_01_path_length_is_the_sum_of_segments():
    assert path_length([(0, 0), (3, 4), (3, 10)]) == pytest.approx(11.0)
    assert path_length([(1, 1)]) == 0.0 and path_length([]) == 0.0


def test_09_05_move_at_the_maximum_distance_is_legal_and_a_hair_over_is_not():
    bodies = [b("a/1", 10, 10)]
    assert move({"a/1": [(10, 10), (16, 10)]}, bodies) == []
    assert move({"a/1": [(10, 10), (16 - 1e-6, 10)]}, bodies) == []
    (p,) = move({"a/1": [(10, 10), (16 + 1e-6, 10)]}, bodies)
    assert (p.model, p.rule) == ("a/1", "09.05") and p.distance == pytest.approx(6 + 1e-6)
    assert str(p).startswith("a/1: would move 6.00\" but may move at most 6\"")
    assert str(p).endswith("(09.05)")


def test_03_01_the_rule_passed_in_is_the_one_named():
    bodies = [b("a/1", 10, 10)]
    for rule in ("09.06", "09.07", "11.04", "12.03", "12.08"):
        (p,) = move({"a/1": [(10, 10), (14, 10)]}, bodies, max_distance=3.0, rule=rule)
        assert p.rule == rule


def test_03_01_01_each_model_may_have_its_own_maximum():
    bodies = [b("a/1", 10, 10), b("a/2", 11.5, 10)]
    paths = {"a/1": [(10, 10), (10, 15)], "a/2": [(11.5, 10), (11.5, 15)]}
    assert move(paths, bodies, max_distance={"a/1": 5.0, "a/2": 5.0}) == []
    probs = move(paths, bodies, max_distance={"a/1": 5.0, "a/2": 4.0})
    assert rules_of(probs) == [("a/2", "09.05")]


def test_03_01_a_path_must_start_at_the_model():
    (p,) = move({"a/1": [(11, 10), (12, 10)]}, [b("a/1", 10, 10)])
    assert p.rule == "03.01" and "starts at" in p.message and p.distance == pytest.approx(1.0)


def test_03_01_a_path_for_a_model_of_another_unit_is_refused():
    probs = move({"z/1": [(30, 30), (31, 30)]}, [b("a/1", 10, 10), b("z/1", 30, 30)])
    assert rules_of(probs) == [("z/1", "03.01")]


# --- enemy bases -----------------------------------------------------------------------------

def test_03_01_a_path_grazing_an_enemy_base_is_legal_but_clipping_it_is_not():
    # enemy centred at (15, 10 + 2r): a model sliding along y = 10 exactly touches it
    enemy = b("e/1", 15, 10 + D32, player=2)
    graze = move({"a/1": [(10, 10), (16, 10)]}, [b("a/1", 10, 10), enemy])
    assert graze == []
    enemy = b("e/1", 15, 10 + D32 - 1e-3, player=2)
    probs = move({"a/1": [(10, 10), (16, 10)]}, [b("a/1", 10, 10), enemy])
    assert rules_of(probs) == [("a/1", "03.01")]
    assert "enemy model e/1" in probs[0].message and probs[0].distance == pytest.approx(1e-3)


def test_03_01_through_enemies_lets_the_path_cross_but_impassable_models_still_block():
    bodies = [b("a/1", 10, 10), b("e/1", 13, 10, player=2), b("e/2", 13, 14, player=2)]
    path = {"a/1": [(10, 10), (16, 10)]}
    assert move(path, bodies)[0].rule == "03.01"
    assert move(path, bodies, through_enemies=True) == []
    assert move(path, bodies, through_enemies=True, impassable=["e/1"])[0].rule == "03.01"
    assert move(path, bodies, through_enemies=True, impassable=["e/2"]) == []


def test_03_01_friendly_bases_may_be_crossed_but_not_ended_on():
    bodies = [b("a/1", 10, 10), b("f/1", 13, 10)]
    assert move({"a/1": [(10, 10), (16, 10)]}, bodies) == []
    probs = move({"a/1": [(10, 10), (13.5, 10)]}, bodies)
    assert rules_of(probs) == [("a/1", "03.01")] and "friendly model f/1" in probs[0].message
    # touching at the end is fine
    assert move({"a/1": [(10, 10), (13 - D32, 10)]}, bodies) == []


def test_03_01_models_that_stay_put_still_block_the_end_of_the_move():
    bodies = [b("a/1", 10, 10), b("a/2", 11.5, 10)]
    probs = move({"a/1": [(10, 10), (11.6, 10.1)]}, bodies)
    assert ("a/1", "03.01") in rules_of(probs) and "a/2" in str(probs)


def test_15_engagement_is_only_tested_at_the_end():
    # the path passes 0.5" from an enemy, the model ends over 2" away: a legal normal move
    bodies = [b("a/1", 10, 10), b("e/1", 14, 10 + D32 + 0.5, player=2)]
    assert move({"a/1": [(10, 10), (14, 10), (14, 8)]}, bodies, end_unengaged=True) == []
    assert move({"a/1": [(10, 10), (14, 10)]}, bodies, end_unengaged=True)[0].rule == "09.05"


def test_09_05_ending_within_engagement_range_is_refused_naming_the_enemy():
    enemy = b("e/1", 20, 10, player=2)
    at_2 = 20 - D32 - 2.0
    (p,) = move({"a/1": [(15, 10), (at_2, 10)]}, [b("a/1", 15, 10), enemy], end_unengaged=True)
    assert (p.model, p.rule) == ("a/1", "09.05") and "e/1" in p.message
    assert p.distance == pytest.approx(2.0)
    assert move({"a/1": [(15, 10), (at_2 - 1e-6, 10)]}, [b("a/1", 15, 10), enemy],
                end_unengaged=True) == []
    # without end_unengaged (a charge), ending engaged is not this check's business
    assert move({"a/1": [(15, 10), (at_2, 10)]}, [b("a/1", 15, 10), enemy]) == []


# --- the board edge --------------------------------------------------------------------------

def test_03_01_a_base_ending_0_01_over_the_edge_is_refused():
    x = R32 - 0.01
    (p,) = move({"a/1": [(5, 10), (x, 10)]}, [b("a/1", 5, 10)])
    assert p.rule == "03.01" and "edge" in p.message and p.distance == pytest.approx(0.01)
    assert move({"a/1": [(5, 10), (R32, 10)]}, [b("a/1", 5, 10)]) == []


def test_03_01_a_path_may_not_leave_the_board_even_if_it_comes_back():
    probs = move({"a/1": [(2, 10), (0.2, 12), (2, 14)]}, [b("a/1", 2, 10)])
    assert rules_of(probs) == [("a/1", "03.01")] and "edge" in probs[0].message


# --- terrain ---------------------------------------------------------------------------------

WALL = box("wall", 12, 5, 12.5, 15)


def test_12_infantry_may_cross_a_dense_wall_a_vehicle_may_not():
    bodies = [b("a/1", 10, 10)]
    path = {"a/1": [(10, 10), (15, 10)]}
    assert move(path, bodies, [WALL], may_cross_dense=True) == []
    probs = move(path, bodies, [WALL])
    assert rules_of(probs) == [("a/1", "13.06, Part A 12")] and "'wall'" in probs[0].message


def test_12_a_rectangular_vehicle_may_not_cross_a_dense_wall():
    tank = Body("a/1", "a", 1, footprint("rect", 8, 10, 4, 2.5))
    probs = move({"a/1": [(8, 10), (8, 4.5)]}, [tank], [WALL])
    assert probs == []                        # parallel to the wall, clear of it
    probs = move({"a/1": [(8, 10), (15, 10)]}, [tank], [WALL], max_distance=8.0)
    assert [p.rule for p in probs] == ["13.06, Part A 12"]


def test_13_no_model_may_end_inside_a_dense_wall_even_one_that_may_cross_it():
    probs = move({"a/1": [(10, 10), (12.25, 10)]}, [b("a/1", 10, 10)], [WALL],
                 may_cross_dense=True)
    assert rules_of(probs) == [("a/1", "03.01, Part A 13")] and "dense" in probs[0].message


def test_13_touching_a_wall_is_fine():
    assert move({"a/1": [(10, 10), (12 - R32, 10)]}, [b("a/1", 10, 10)], [WALL]) == []


def test_13_light_features_may_be_crossed_but_not_ended_on_exposed_ones_may():
    light = box("barricade", 12, 5, 12.5, 15, "light")
    bodies = [b("a/1", 10, 10)]
    assert move({"a/1": [(10, 10), (15, 10)]}, bodies, [light]) == []
    (p,) = move({"a/1": [(10, 10), (12.25, 10)]}, bodies, [light])
    assert p.rule == "03.01, Part A 13" and "light" in p.message
    crater = box("crater", 11, 8, 14, 12, "exposed")
    assert move({"a/1": [(10, 10), (12.25, 10)]}, bodies, [crater]) == []


def test_13_an_oval_base_ending_across_a_barricade_is_refused():
    light = box("barricade", 12, 5, 12.5, 15, "light")
    bike = Body("a/1", "a", 1, footprint("oval", 9, 10, 3.0, 1.5))
    assert move({"a/1": [(9, 10), (10.4, 10)]}, [bike], [light]) == []
    assert [p.rule for p in move({"a/1": [(9, 10), (10.6, 10)]}, [bike], [light])] == \
        ["03.01, Part A 13"]


# --- coherency -------------------------------------------------------------------------------

def test_03_03_the_unit_must_end_in_coherency():
    bodies = [b("a/1", 10, 10), b("a/2", 10 + D32 + 1, 10)]
    ok = {"a/2": [(10 + D32 + 1, 10), (10 + D32 + 2, 10)]}
    assert move(ok, bodies) == []
    bad = {"a/2": [(10 + D32 + 1, 10), (10 + D32 + 2.01, 10)]}
    probs = move(bad, bodies)
    assert {p.rule for p in probs} == {"03.03"}
    assert move(bad, bodies, check_coherency=False) == []


def test_03_01_problems_are_reported_per_model_in_a_stable_order():
    bodies = [b("a/2", 10, 10), b("a/1", 11.5, 10), b("e/1", 40, 10, player=2)]
    paths = {"a/2": [(10, 10), (0.1, 10)], "a/1": [(11.5, 10), (39, 10)]}
    probs = move(paths, bodies, end_unengaged=True)
    models = [p.model for p in probs if p.rule != "03.03"]
    assert models == sorted(models)
    assert move(paths, bodies[::-1], end_unengaged=True) == probs


def test_03_04_engaged_units_lists_enemy_units_in_range():
    bodies = [b("a/1", 10, 10), b("e/1", 10 + D32 + 2, 10, 2), b("c/1", 10, 10 + D32 + 1, 2),
              b("f/1", 10, 10 - D32 - 1, 1), b("z/1", 10 + D32 + 2.01, 14, 2)]
    fps = {"a/1": round_base(32, 10, 10)}
    assert engaged_units("a", fps, bodies) == ["c", "e"]


def test_03_01_a_body_index_gives_the_same_answers():
    bodies = [b("a/1", 10, 10), b("a/2", 11.5, 10), b("e/1", 13, 12, 2)]
    paths = {"a/1": [(10, 10), (14, 12)], "a/2": [(11.5, 10), (11.5, 3)]}
    assert move(paths, BodyIndex(bodies), [WALL], end_unengaged=True) == \
        move(paths, bodies, [WALL], end_unengaged=True)
    assert check_move("a", paths, bodies, terrain_index([WALL]), BOARD, max_distance=6.0,
                      rule="09.05") == move(paths, bodies, [WALL])


def test_03_01_duplicate_model_ids_are_refused():
    with pytest.raises(ValueError, match="a/1"):
        BodyIndex([b("a/1", 1, 1), b("a/1", 5, 5)])


# --- random layouts --------------------------------------------------------------------------

coord = st.floats(-2, 32, allow_nan=False)
point = st.tuples(coord, coord)


@st.composite
def layouts(draw):
    n_own = draw(st.integers(1, 4))
    own = [b(f"a/{k}", *draw(st.tuples(st.floats(2, 28), st.floats(2, 28))), 1,
             draw(st.sampled_from([25, 32, 40]))) for k in range(n_own)]
    others = [b(f"e{k // 3}/{k}", *draw(st.tuples(st.floats(0, 30), st.floats(0, 30))),
                draw(st.sampled_from([1, 2])), draw(st.sampled_from([25, 32, 60])))
              for k in range(draw(st.integers(0, 8)))]
    hull = draw(st.booleans())
    if hull:
        others.append(Body("v/1", "v", 2, footprint(draw(st.sampled_from(["rect", "oval"])),
                                                    *draw(st.tuples(st.floats(5, 25), st.floats(5, 25))),
                                                    4.0, 2.0, draw(st.floats(0, 180)))))
    areas = []
    for k in range(draw(st.integers(0, 3))):
        x0, y0 = draw(st.floats(0, 26)), draw(st.floats(0, 26))
        w, h = draw(st.floats(0.3, 4)), draw(st.floats(0.3, 4))
        areas.append(box(f"t{k}", x0, y0, x0 + w, y0 + h,
                         draw(st.sampled_from(["exposed", "light", "dense"]))))
    paths = {}
    for body in own:
        if draw(st.booleans()):
            pts = [(body.fp.x, body.fp.y)] + draw(st.lists(point, min_size=0, max_size=3))
            paths[body.model] = pts
    return own + others, areas, paths


@settings(max_examples=80, deadline=None)
@given(layouts(), st.booleans(), st.booleans(), st.booleans())
def test_03_01_check_move_never_raises_and_is_order_independent(lay, cross, through, unengaged):
    bodies, areas, paths = lay
    probs = check_move("a", paths, bodies, areas, (30.0, 30.0), max_distance=8.0, rule="09.05",
                       may_cross_dense=cross, through_enemies=through, end_unengaged=unengaged)
    assert all(p.rule and p.message for p in probs)
    again = check_move("a", paths, bodies[::-1], areas[::-1] if False else areas, (30.0, 30.0),
                       max_distance=8.0, rule="09.05", may_cross_dense=cross,
                       through_enemies=through, end_unengaged=unengaged)
    assert again == probs


def _sampled_overlap(fp, pts, enemies, polys, step=0.01, spare=1e-3):
    """Brute force, independent of the kernels under test: drag the base along the path in
    ``step`` steps; does it overlap an enemy base or a dense polygon by ``spare`` somewhere?"""
    samples = []
    for p, q in zip(pts, pts[1:]):
        n = max(1, int(math.hypot(q[0] - p[0], q[1] - p[1]) / step))
        t = np.linspace(0.0, 1.0, n + 1)[:, None]
        samples.append(np.asarray(p) + t * (np.asarray(q) - np.asarray(p)))
    c = np.vstack(samples)
    r = fp.length / 2 - spare
    hit_enemy = False
    for e in enemies:
        if e.shape == "round":
            hit_enemy |= bool(np.any(np.hypot(c[:, 0] - e.x, c[:, 1] - e.y) < r + e.length / 2))
        else:
            near = np.hypot(c[:, 0] - e.x, c[:, 1] - e.y) < r + e.bounding_radius
            hit_enemy |= any(overlaps(round_base(2 * r * 25.4, x, y), e) for x, y in c[near])
    hit_dense = False
    for poly in polys:
        v = np.asarray(poly, dtype=float)
        w = np.roll(v, -1, axis=0)
        # distance from each sample centre to each edge
        e_ = w - v
        t = np.clip(((c[:, None, :] - v) * e_).sum(-1) / (e_ * e_).sum(-1), 0, 1)
        d = np.hypot(*(c[:, None, :] - (v + t[..., None] * e_)).transpose(2, 0, 1)).min(axis=1)
        if np.any(d < r):
            hit_dense = True
            continue
        lo, hi = v.min(axis=0), v.max(axis=0)
        inside_box = np.all((c >= lo) & (c <= hi), axis=1)
        hit_dense |= any(point_in_polygon((x, y), v) > 0 for x, y in c[inside_box][::10])
    return hit_enemy, hit_dense


@settings(max_examples=40, deadline=None)
@given(layouts())
def test_03_01_swept_checks_agree_with_a_brute_force_drag(lay):
    bodies, areas, paths = lay
    own = {x.model: x for x in bodies if x.unit == "a"}
    enemies = [x.fp for x in bodies if x.player == 2]
    polys = [f.polygon for a in areas for f in a.features if f.category == "dense"]
    probs = check_move("a", paths, bodies, areas, (30.0, 30.0), max_distance=100.0,
                       rule="09.05", check_coherency=False)
    for mid, pts in paths.items():
        if len(pts) < 2:
            continue
        hit_enemy, hit_dense = _sampled_overlap(own[mid].fp, pts, enemies, polys)
        mine = [p for p in probs if p.model == mid]
        if hit_enemy:
            assert any("enemy model" in p.message and "path" in p.message for p in mine)
        if hit_dense:
            assert any(p.rule.startswith("13.06") for p in mine)
        for p in mine:     # a reported crossing deeper than the brute force's margin is real
            if p.rule.startswith("13.06") and p.distance and p.distance > 0.01:
                assert hit_dense
            if "path crosses the base" in p.message and p.distance and p.distance > 0.01:
                assert hit_enemy


# --- hull bases (ovals, rectangles): the vectorised kernels against the scalar geometry -------

def _random_hull(rng, lo=0.0, hi=30.0):
    shape = ["rect", "oval"][rng.integers(2)]
    return footprint(shape, *rng.uniform(lo, hi, 2), rng.uniform(1.5, 5), rng.uniform(0.8, 2.5),
                     rng.uniform(0, 180))


def _random_base(rng):
    if rng.random() < 0.5:
        return round_base(rng.uniform(25, 60), *rng.uniform(0, 30, 2))
    return _random_hull(rng)


def test_01_04_placed_distances_and_overlaps_match_the_scalar_geometry():
    from sim.rules.geometry import distance
    from sim.rules.movement.legality import placed_distances, placed_overlaps
    rng = np.random.default_rng(11)
    for _ in range(60):
        fp = _random_base(rng)
        others = [_random_base(rng) for _ in range(3)]
        spots = rng.uniform(0, 30, (12, 2))
        d = placed_distances(fp, spots, others)
        o = placed_overlaps(fp, spots, others)
        for k, (x, y) in enumerate(spots):
            g = fp.moved(x, y)
            assert d[k] == pytest.approx([distance(g, q) for q in others], abs=1e-9)
            assert o[k] == any(overlaps(g, q) for q in others)


def _plain_seg_dist2(a, b, p):
    """Squared distances from points p (M, 2) to segments a-b (S, 2), (S, M), in the plain
    form the kernels must equal to the bit: t = (ap . ab) / |ab|^2 (0 for a segment of no
    length) clipped to [0, 1], then |ap - t ab|^2."""
    abx, aby = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
    apx, apy = p[None, :, 0] - a[:, 0, None], p[None, :, 1] - a[:, 1, None]
    den = abx * abx + aby * aby
    t = np.clip((apx * abx + apy * aby) / np.where(den > 0, den, 1.0), 0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return dx * dx + dy * dy


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 24), st.integers(1, 30), st.booleans())
def test_01_04_segment_distances_are_the_plain_form_to_the_bit(seed, s, m, grid):
    """kernels._seg_point_dist2 (the clip as a max and a min, in place) gives the plain
    form's floats, segments of no length and points on segments and at their ends included."""
    from sim.rules.movement.kernels import _seg_point_dist2
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(-30, 30, (s, 2)), rng.uniform(-30, 30, (s, 2))
    b[::3] = a[::3]  # (segments of no length)
    p = np.concatenate([rng.uniform(-40, 40, (m, 2)), a, b, (a + b) / 2])
    if grid:
        a, b, p = (np.round(x * 4) / 4 for x in (a, b, p))
    assert np.array_equal(_seg_point_dist2(a, b, p), _plain_seg_dist2(a, b, p))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 24), st.booleans())
def test_01_04_convex_distance_is_the_least_edge_distance_to_the_bit(seed, k, grid):
    """_points_convex_distance takes one root a point (of the least squared edge distance) and
    tests inside by the edges' cross products: the same numbers, to the bit, as the least of
    every edge's distance, 0 where _convex_signed finds the point inside."""
    from sim.rules.arrays import roll_next
    from sim.rules.movement.kernels import _convex_signed, _points_convex_distance
    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * math.pi, k))
    poly = np.stack([rng.uniform(0.5, 3) * np.cos(ang), rng.uniform(0.5, 3) * np.sin(ang)], 1) + rng.uniform(-30, 30, 2)
    if grid:  # (quarter-inch corners: points exactly on edges and corners, ties between edges)
        poly = np.round(poly * 4) / 4
    pts = np.concatenate([rng.uniform(-40, 40, (30, 2)), poly, (poly + roll_next(poly)) / 2,
                          poly + rng.normal(0, 1e-3, poly.shape)])
    want = np.sqrt(_plain_seg_dist2(poly, roll_next(poly), pts).min(axis=0)) if k > 1 else \
        np.hypot(pts[:, 0] - poly[0, 0], pts[:, 1] - poly[0, 1])
    if k >= 3:
        want[_convex_signed(pts, poly) >= 0] = 0.0
    assert np.array_equal(_points_convex_distance(pts, poly), want)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from([1, 2, 3, 4, 4, 8, 64, 64]), min_size=1, max_size=7),
       st.booleans())
def test_01_04_points_to_many_convexes_is_each_polygons_own_to_the_bit(seed, counts, grid):
    """kernels.points_convexes_distance (polygons of one vertex count in one step) gives, for
    each polygon, _points_convex_distance's floats: points far, near, on edges and corners,
    inside; points and segments as polygons too."""
    from sim.rules.arrays import roll_next
    from sim.rules.movement.kernels import _points_convex_distance, points_convexes_distance
    rng = np.random.default_rng(seed)
    polys = []
    for k in counts:
        ang = np.sort(rng.uniform(0, 2 * math.pi, k))
        poly = np.stack([rng.uniform(0.5, 3) * np.cos(ang), rng.uniform(0.5, 3) * np.sin(ang)], 1) + rng.uniform(-20, 20, 2)
        polys.append(np.round(poly * 4) / 4 if grid else poly)
    pts = np.concatenate([rng.uniform(-30, 30, (12, 2))] + [np.concatenate([q, (q + roll_next(q)) / 2]) for q in polys])
    got = points_convexes_distance(pts, polys)
    for h, poly in enumerate(polys):
        assert np.array_equal(got[h], _points_convex_distance(pts, poly)), h


def test_03_01_hull_sweeps_and_end_checks_match_a_brute_force_drag():
    from sim.rules.movement.legality import (
        blocking_rows, end_blocker, feature_mask, path_blocker, placed_overlaps,
        straight_paths_clear,
    )
    rng = np.random.default_rng(12)
    for _ in range(25):
        fp = _random_hull(rng, 5, 25)
        bodies = [Body("a/0", "a", 1, fp)] + [Body(f"e/{k}", "e", 2, _random_base(rng))
                                             for k in range(5)]
        areas = [box(f"t{k}", *xy, *(xy + rng.uniform(0.3, 4, 2)), "dense")
                 for k, xy in enumerate(rng.uniform(0, 27, (2, 2)))]
        idx, terr = BodyIndex(bodies), terrain_index(areas)
        blockers = blocking_rows(idx, 1, False, ())
        ends = rng.uniform(0, 30, (8, 2))
        fast = straight_paths_clear(fp, ends, idx, terr, blockers, may_cross_dense=False)
        feats = feature_mask(fp, ends, terr)
        for k, e in enumerate(ends):
            scalar = not [p for p in path_blocker(fp, np.array([[fp.x, fp.y], e]), idx, terr,
                                                  (1e9, 1e9), blockers, may_cross_dense=False,
                                                  first_only=False) if p[0] != "edge"]
            assert fast[k] == scalar
            assert feats[k] == (end_blocker(fp.moved(*e), terr) is not None)
            # brute force: drag a slightly shrunk hull in 0.01" steps (placed_overlaps is
            # checked against geometry.overlaps above); a clear overlap anywhere => blocked
            n = int(math.hypot(e[0] - fp.x, e[1] - fp.y) / 0.01) + 2
            t = np.linspace(0, 1, n)[:, None]
            spots = np.array([fp.x, fp.y]) + t * (e - np.array([fp.x, fp.y]))
            small = footprint(fp.shape, fp.x, fp.y, fp.length * 0.98, fp.width * 0.98, fp.angle)
            if placed_overlaps(small, spots, [b.fp for b in bodies[1:]]).any():
                assert not fast[k]


def test_13_terrain_given_with_list_polygons_works_too():
    poly = [[12, 5], [12.5, 5], [12.5, 15], [12, 15]]
    area = TerrainArea("wall", poly, (Feature("dense", poly),))
    probs = move({"a/1": [(10, 10), (15, 10)]}, [b("a/1", 10, 10)], [area])
    assert [p.rule for p in probs] == ["13.06, Part A 12"]


def test_a_terrain_index_makes_no_reference_cycle():
    """(A full run once found cyclic garbage: an EdgeSet of one polygon kept itself in its own
    list of singles, so a TerrainIndex evicted from the layout cache was never freed with the
    collector off, sim.players.runner.frozen_heap.)"""
    from sim.rules.movement.legality import TerrainIndex
    from sim.rules.terrain import place
    from young_garbage import young_garbage

    def run():  # (the collector off; what was alive before set aside)
        t = TerrainIndex((place("armoured container", 20, 20),))
        for which in ("dense", "no_end"):
            es = getattr(t, which)
            for p in range(len(es)):
                es.single(p)

    assert young_garbage(run) == (0, [])


def test_03_01_a_body_index_after_a_move_is_the_index_of_the_moved_bodies():
    """BodyIndex.moved (the table brought up to date after a move, sim.plan.moves.bodies) gives
    what indexing the moved bodies afresh gives: rows, centres, radii, cores."""
    from sim.rules.movement.index import Body, BodyIndex
    rng = np.random.default_rng(7)
    shapes = [("round", 1.26, 1.26), ("oval", 4.0, 2.4), ("rect", 3.0, 2.0)]
    bodies = []
    for k in range(12):
        shape, length, width = shapes[k % 3]
        bodies.append(Body(f"m{k:02d}", f"u{k // 4}", k // 8,
                           footprint(shape, *rng.uniform(0, 40, 2), length, width, rng.uniform(0, 180))))
    before = BodyIndex(bodies)
    for j in range(len(before)):  # (cores read before the move are not kept for moved rows)
        if not before.round[j]:
            before.core(j)
    centres = before.centres.copy()
    moves = []
    for k in (1, 5, 10):
        b = bodies[k]
        f = b.fp.moved(b.fp.x + 3.0, b.fp.y - 2.0, b.fp.angle + 30.0)
        moves.append((b.model, f))
        bodies[k] = Body(b.model, b.unit, b.player, f)
    kept, fresh = before.moved(moves), BodyIndex(bodies)
    assert kept.bodies == fresh.bodies and kept.ids == fresh.ids
    for a in ("players", "centres", "round", "radius", "bound"):
        assert (getattr(kept, a) == getattr(fresh, a)).all(), a
    for j in range(len(kept)):
        if not kept.round[j]:
            assert np.array_equal(kept.core(j), fresh.core(j))
    assert np.array_equal(before.centres, centres)  # (the index moved from is unchanged)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 14))
def test_03_01_a_body_index_less_removed_models_is_the_index_of_the_bodies_left(seed, n):
    """BodyIndex.without (the table brought up to date after a removal, sim.plan.moves.bodies)
    gives what indexing the bodies left afresh gives: rows (each after a removed one moved up),
    each unit's rows, centres, radii, cores (those read before the removal kept, re-rowed)."""
    from sim.rules.movement.index import Body, BodyIndex
    rng = np.random.default_rng(seed)
    shapes = [("round", 1.26, 1.26), ("oval", 4.0, 2.4), ("rect", 3.0, 2.0)]
    bodies = []
    for k in rng.permutation(n).tolist():   # (given in any order: the index sorts by id)
        shape, length, width = shapes[int(rng.integers(3))]
        bodies.append(Body(f"m{k:02d}", f"u{k % 3}", k % 2,
                           footprint(shape, *rng.uniform(0, 40, 2), length, width, rng.uniform(0, 180))))
    before = BodyIndex(bodies)
    for j in range(len(before)):
        if not before.round[j] and rng.random() < 0.5:
            before.core(j)
    for u in sorted(set(before.units)):     # (what the index keeps of its rows, read before)
        before.others(u)
    before.enemies(0), before.enemies(1)
    gone = sorted(set(rng.choice([b.model for b in bodies], size=int(rng.integers(1, n)), replace=False).tolist()))
    kept = before.without(gone + ["not there"])
    fresh = BodyIndex([b for b in bodies if b.model not in gone])
    assert kept.bodies == fresh.bodies and kept.ids == fresh.ids and kept.row == fresh.row
    assert kept.fps == fresh.fps and kept.units == fresh.units
    assert kept.unit_rows.keys() == fresh.unit_rows.keys()
    for u in fresh.unit_rows:
        assert np.array_equal(kept.unit_rows[u], fresh.unit_rows[u]) and kept.unit_rows[u].dtype == np.int64
    for a in ("players", "centres", "round", "radius", "bound"):
        assert np.array_equal(getattr(kept, a), getattr(fresh, a)) and getattr(kept, a).dtype == getattr(fresh, a).dtype, a
    for j in range(len(kept)):
        if not kept.round[j]:
            assert np.array_equal(kept.core(j), fresh.core(j))
    for u in sorted(set(fresh.units)):
        assert np.array_equal(kept.others(u), fresh.others(u))
    for p in (0, 1):
        assert np.array_equal(kept.enemies(p), fresh.enemies(p))
    assert before.without([]) is before and len(before) == n    # (the index taken from is unchanged)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 14))
def test_03_04_near_enemy_distances_are_each_models_own(seed, mine, theirs):
    """legality.near_enemy_distances asks every model's distances in one call: each model's
    near rows are those near_rows gives it alone, and its distances to them are the floats
    fps_to_rows gives it alone; engaged_units is the union of each model's engaged units."""
    from sim.rules.movement.index import BodyIndex
    from sim.rules.movement.legality import (ENGAGEMENT_RANGE, engaged_units, fps_to_rows, near_enemy_distances,
                                             near_rows)
    from sim.rules.geometry import in_engagement_range
    rng = np.random.default_rng(seed)
    bodies = [Body(f"a/{k}", "a", 1, _random_base(rng)) for k in range(mine)]
    bodies += [Body(f"e{k % 3}/{k}", f"e{k % 3}", 2, _random_base(rng)) for k in range(theirs)]
    idx = BodyIndex(bodies)
    fps = [b.fp for b in bodies[:mine]]
    enemies = np.flatnonzero(idx.players != 1)
    got = near_enemy_distances(fps, idx, 1, ENGAGEMENT_RANGE)
    engaged = set()
    for k, f in enumerate(fps):
        alone = near_rows(idx, np.array([[f.x, f.y]]), f.bounding_radius, ENGAGEMENT_RANGE, enemies)
        if got is None:
            assert not len(alone)
            continue
        rows, near, d = got
        assert np.array_equal(rows[near[k]], alone)
        if len(alone):
            own = fps_to_rows([f], idx, alone)[0]
            assert np.array_equal(d[k, near[k]], own)
            engaged |= {idx.units[j] for j in alone[in_engagement_range(own)].tolist()}
    assert engaged_units("a", {b.model: b.fp for b in bodies[:mine]}, idx) == sorted(engaged)


def test_03_04_near_enemy_distances_kept_per_table_and_footprints():
    """The answer is kept on the table for the same footprint objects (read-only, so no caller
    can change it for the next); another footprint, or the table after a move, is asked
    afresh and answers for where the models stand then."""
    from sim.rules.movement.index import BodyIndex
    from sim.rules.movement.legality import ENGAGEMENT_RANGE, near_enemy_distances
    idx = BodyIndex([b("a/1", 10, 10), b("a/2", 11.5, 10), b("e/1", 12.5, 12, player=2), b("e/2", 30, 30, player=2)])
    fps = [idx.fps[0], idx.fps[1]]
    first = near_enemy_distances(fps, idx, 1, ENGAGEMENT_RANGE)
    assert near_enemy_distances(list(fps), idx, 1, ENGAGEMENT_RANGE) is first
    assert not first[2].flags.writeable
    assert [idx.units[j] for j in first[0].tolist()] == ["e"]
    away = idx.moved([("e/1", idx.fps[2].moved(40, 40))])
    assert near_enemy_distances(fps, away, 1, ENGAGEMENT_RANGE) is None
    moved_fp = fps[1].moved(20, 20)
    again = near_enemy_distances([fps[0], moved_fp], idx, 1, ENGAGEMENT_RANGE)
    assert again is not first and again[1][1].sum() == 0


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 10), st.integers(1, 6))
def test_03_01_end_overlaps_of_round_bases_and_hulls_are_overlaps(seed, rounds, hulls):
    """_end_overlaps decides a round base against a hull from the kernels' centre-to-core
    distances, and with geometry.overlaps itself near the threshold: every pair's answer is
    overlaps', for bases scattered around the hulls and bases set at the threshold's edge
    (r - 1e-7 from the core, and a hair either side)."""
    from sim.rules.geometry import core
    from sim.rules.movement.index import BodyIndex
    from sim.rules.movement.legality import _end_overlaps, _Ends
    rng = np.random.default_rng(seed)
    hs = [_random_hull(rng, 5, 25) for _ in range(hulls)]
    idx = BodyIndex([Body(f"h/{k}", "h", 2, f) for k, f in enumerate(hs)])
    fps = []
    for k in range(rounds):
        r = float(rng.choice([0.5, 0.63, 0.79, 1.0]))
        if k % 2:  # (at the threshold: out from an edge's middle along its outward normal)
            pts = core(hs[int(rng.integers(hulls))])[0]
            a = int(rng.integers(len(pts)))
            p0, p1 = pts[a], pts[(a + 1) % len(pts)]
            n = np.array([p1[1] - p0[1], p0[0] - p1[0]]) / np.hypot(*(p1 - p0))  # (ccw: outward)
            gap = r - 1e-7 + float(rng.choice([-1e-12, 0.0, 1e-12, -2e-9, 2e-9, -1e-3]))
            x, y = (p0 + p1) / 2 + gap * n
            fps.append(round_base(r * 2 * 25.4, float(x), float(y)))
        else:
            fps.append(round_base(r * 2 * 25.4, *rng.uniform(0, 30, 2)))
    got = _end_overlaps(_Ends(fps), idx, np.arange(len(idx)))
    for i, f in enumerate(fps):
        assert [j for j, _d in got[i]] == [j for j in range(len(idx)) if overlaps(f, idx.fps[j])], i


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 20))
def test_01_04_paired_placed_distances_are_each_references_own(seed, m, k):
    """kernels.placed_distances_paired (each reference against its own spots; a hull's spots
    against every round reference in one call) gives placed_distances' floats, reference by
    reference, for round and hull bases on both sides."""
    from sim.rules.movement.kernels import placed_distances, placed_distances_paired
    rng = np.random.default_rng(seed)
    fp = _random_base(rng)
    refs = [_random_base(rng) for _ in range(m)]
    spots = rng.uniform(-5, 35, (m, k, 2))
    got = placed_distances_paired(fp, spots, refs)
    for i, ref in enumerate(refs):
        assert np.array_equal(got[i], placed_distances(fp, spots[i], [ref])[:, 0]), i


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([False, True, 4.0]), st.floats(0.0, 0.05))
def test_13_06_round_features_refuse_only_moves_check_move_refuses(seed, may_cross, margin):
    """legality.round_features_refuse (a player's quick look, Part A 13 / 13.06): whenever it
    says a straight move of round bases certainly ends over a feature or crosses a dense one it
    may not, check_move finds that very problem (an end over a light or dense feature, or a
    dense crossing); random squads moved in straight lines among random boxes of light and dense
    terrain, some with heights, ends landing near and inside them."""
    rng = np.random.default_rng(seed)
    areas = []
    for k in range(int(rng.integers(1, 5))):
        x0, y0 = rng.uniform(5, 45), rng.uniform(5, 30)
        poly = ((x0, y0), (x0 + rng.uniform(0.5, 6), y0), (x0 + rng.uniform(0.5, 6), y0 + rng.uniform(0.5, 6)),
                (x0, y0 + rng.uniform(0.5, 6)))
        cat = str(rng.choice(["light", "dense"]))
        tall = float(rng.choice([1.5, 3.0, 6.0])) if rng.random() < 0.5 else None
        areas.append(TerrainArea(f"t{k}", poly, (Feature(cat, poly, height=tall) if tall else Feature(cat, poly),)))
    terr = terrain_index(areas)
    n = int(rng.integers(1, 6))
    mm = int(rng.choice([25, 32, 40, 60]))
    x0, y0 = rng.uniform(4, 50), rng.uniform(4, 36)
    bodies = [b(f"a/{k}", x0 + k * (mm / 25.4 + 0.2), y0, mm=mm) for k in range(n)]
    dx, dy = rng.uniform(-10, 10), rng.uniform(-10, 10)
    if rng.random() < 0.7:   # (the first model's end just off, on or just over a side of a box)
        (ax, ay), (bx, by) = areas[0].polygon[0], areas[0].polygon[1]
        t = rng.uniform(0, 1)
        off = mm / 50.8 + float(rng.choice([-0.2, -1e-3, -1e-6, 0.0, 1e-6, 1e-3, 0.02, 0.2]))
        dx, dy = ax + t * (bx - ax) - x0, ay + t * (by - ay) - off - y0
    paths = {x.model: [(x.fp.x, x.fp.y), (x.fp.x + dx, x.fp.y + dy)] for x in bodies}
    starts = np.array([p[0] for p in paths.values()])
    ends = np.array([p[1] for p in paths.values()])
    radii = np.full(n, mm / 50.8)
    quick = ML.round_features_refuse(starts, ends, radii, terr, may_cross, margin)
    if quick:
        got = move(paths, bodies, areas, max_distance=30.0, may_cross_dense=may_cross, check_coherency=False)
        assert any("feature" in p.message for p in got), [str(p) for p in got]
    # nothing asked of the path (a flight, turning points): only the ends can make it say so
    if ML.round_features_refuse(starts, ends, radii, terr, None, margin):
        got = move(paths, bodies, areas, max_distance=30.0, may_cross_dense=True, check_coherency=False)
        assert any("into a" in p.message and "feature" in p.message for p in got)


def test_03_01_end_blockers_of_hull_bases_kept_per_terrain_give_the_fresh_answer():
    """Part A ruling 13: a base that is not round ends over a light or dense feature or not
    whatever asked before; the TerrainIndex keeps each such base's answer (a player's look at
    where a move ends, then the move's check, ask it twice): asked again, by an equal base made
    anew, turned, or among other bases, the answer is a fresh index's, message and all."""
    from sim.rules.movement.index import TerrainIndex
    from sim.rules.movement.legality import end_blockers
    rng = np.random.default_rng(29)
    areas = [box(f"t{k}", *xy, *(xy + rng.uniform(0.5, 5, 2)), ("dense", "light")[k % 2])
             for k, xy in enumerate(rng.uniform(0, 25, (6, 2)))]
    areas.append(box("wall", 10, 10, 12, 20, "dense"))
    kept = TerrainIndex(areas)
    along = footprint("rect", 8.5, 15, 6.0, 1.0, 0.0)    # (reaches into the wall; turned, clear of it)
    across = footprint("rect", 8.5, 15, 6.0, 1.0, 90.0)
    assert end_blockers([along], kept)[0] is not None and end_blockers([across], kept)[0] is None
    hits = 0
    for _ in range(40):
        fp = _random_hull(rng, 0, 30)
        fp = footprint(fp.shape, fp.x, fp.y, fp.length * 2, fp.width / 2, fp.angle)  # (long and thin)
        turned = footprint(fp.shape, fp.x, fp.y, fp.length, fp.width, fp.angle + 90.0)
        again = footprint(fp.shape, fp.x, fp.y, fp.length, fp.width, fp.angle)
        fps = [fp, round_base(32, fp.x + 1.0, fp.y), turned]
        want = end_blockers(fps, TerrainIndex(areas))
        assert end_blockers(fps, kept) == want
        assert end_blockers([again, turned], kept) == [want[0], want[2]]
        assert end_blockers([turned, fp], kept) == [want[2], want[0]]
        hits += sum(w is not None for w in want)
    assert 0 < hits < 120  # (some bases end over a feature, others do not)
    assert kept.hull_ends  # (kept: else this would not test the keeping)


def test_13_feature_mask_keeps_a_hulls_polygons_and_answers_as_made_afresh():
    """feature_mask's polygons for a hull (each convex piece of a light or dense feature grown
    by the base's core: legality._feature_differences) are kept per index, feature and base,
    read-only; the answer is the one they give made afresh, an L-shaped feature's pieces too."""
    from sim.rules.movement.index import TerrainIndex
    from sim.rules.movement.kernels import _convex_signed, _minkowski_sum, _offsets
    from sim.rules.movement.legality import TOUCH, _feature_differences, feature_mask
    ell = ((20.0, 20.0), (26.0, 20.0), (26.0, 22.0), (22.0, 22.0), (22.0, 28.0), (20.0, 28.0))
    terr = TerrainIndex([box("wall", 8, 5, 8.5, 15, "light"), box("ruin", 12, 14, 16, 18),
                         TerrainArea("ell", ell, (Feature("dense", ell),))])
    rng = np.random.default_rng(7)
    for _ in range(12):
        fp = footprint(str(rng.choice(["oval", "rect"])), *rng.uniform(0, 30, size=2), *rng.uniform(1.0, 4.0, size=2),
                       rng.uniform(0, 180))
        c = rng.uniform(0, 30, size=(400, 2))
        want = np.zeros(len(c), dtype=bool)
        for p in range(len(terr.no_end)):
            for piece in terr.pieces("no_end", p):
                want |= _convex_signed(c, _minkowski_sum(piece, -_offsets(fp))) > TOUCH
        assert feature_mask(fp, c, terr).tolist() == want.tolist()
        kept = _feature_differences(terr, 2, fp)
        assert kept is _feature_differences(terr, 2, fp) and not any(md.flags.writeable for md in kept)
        assert len(kept) == len(terr.pieces("no_end", 2)) >= 2
