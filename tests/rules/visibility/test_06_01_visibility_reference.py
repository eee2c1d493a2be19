"""06.01 / Part A ruling 3: the exact line-of-sight method against an independent brute force
on 1,000 random layouts (dense walls, ruins, woods, containers; bases 25-60 mm).

* exact "not visible"  => the brute force (144 x 144 outline points, strict test on the
  original polygons) finds no clear segment: must never disagree;
* exact "visible"      => its witness segment, checked independently at 2,000 points, does
  not go deeper than 1e-6" into any blocker: must never disagree.
The brute force's own misses (exact visible, brute force none: a sight corridor narrower than
its sampling) are counted and must be rare; the figure goes in the README.
"""

import dataclasses

import numpy as np

from sim.rules.geometry import core
from sim.rules.visibility.kernels import footprint_fully_visible, pair_witness, points_visible_from
from sim.rules.visibility.sight import TerrainBlockers, _pair_pieces

from _layouts import active_polygons, brute_visible, circle_points, depth_inside, random_layout, seen_from

N_LAYOUTS = 1000


def exact(areas, a, b):
    blk = TerrainBlockers.build(areas)
    pk, verts = _pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b)))
    (ac, ar), (bc, br) = core(a), core(b)
    return pair_witness(ac, ar, bc, br, pk, verts), pk, verts


def test_exact_line_of_sight_matches_brute_force():
    rng = np.random.default_rng(2024)
    disagree, brute_misses, visible = [], 0, 0
    for n in range(N_LAYOUTS):
        areas, a, b = random_layout(rng)
        w, _, _ = exact(areas, a, b)
        brute = brute_visible(areas, a, b, n=144)
        polys = active_polygons(areas, a, b)
        if w is None:
            if brute:
                disagree.append((n, "brute force found a clear line"))
        else:
            visible += 1
            seg = np.linspace(w[0], w[1], 2000)
            if depth_inside(seg, polys) > 1e-6:
                disagree.append((n, "witness crosses a blocker"))
            if not brute:
                brute_misses += 1
    assert disagree == []
    assert visible > 500 and N_LAYOUTS - visible > 150      # both outcomes well exercised
    assert brute_misses <= 0.01 * N_LAYOUTS
    print(f"\nLoS reference: {N_LAYOUTS} layouts, {visible} visible, 0 disagreements, "
          f"{brute_misses} brute-force misses (corridor below its resolution)")


def ruin_layout(rng, heights):
    """A ruin (a 10" x 8" area, turned at random) holding 1-3 dense walls 0.4" thick, each
    with a height from ``heights``, and a woods area; model A inside the ruin (so its walls,
    not the area, block: 13.10), model B anywhere outside it. Returns (areas, fp_a, fp_b)."""
    from sim.rules.geometry import footprint_polygon_distance, round_base
    from sim.rules.terrain import Feature, TerrainArea, model_within_area, validate_terrain
    while True:
        ang = rng.uniform(0, np.pi)
        c, s_ = np.cos(ang), np.sin(ang)

        def xf(pts, ox=15.0, oy=15.0):
            return tuple((ox + c * x - s_ * y, oy + s_ * x + c * y) for x, y in pts)
        walls = []
        for _ in range(int(rng.integers(1, 4))):
            x, y = rng.uniform(-4, 4), rng.uniform(-3, 3)
            L, t = rng.uniform(1.5, 5.0), 0.4
            poly = ((x - L / 2, y - t / 2), (x + L / 2, y - t / 2), (x + L / 2, y + t / 2), (x - L / 2, y + t / 2))
            if rng.integers(0, 2):
                poly = tuple((y_, x_) for x_, y_ in poly)[::-1]
            walls.append(Feature("dense", xf(poly), heights[int(rng.integers(0, len(heights)))]))
        ruin = TerrainArea("ruin", xf(((-5, -4), (5, -4), (5, 4), (-5, 4))), tuple(walls))
        wx, wy = rng.uniform(3, 27, size=2)
        woods = TerrainArea("woods", ((wx - 2, wy - 2), (wx + 2, wy - 2), (wx + 2, wy + 2), (wx - 2, wy + 2)),
                            (Feature("light", ((wx - 2, wy - 2), (wx + 2, wy - 2), (wx + 2, wy + 2), (wx - 2, wy + 2))),))
        areas = [ruin, woods]
        if validate_terrain(areas, board=(30, 30)):
            continue
        a = round_base(int(rng.choice([25, 32, 40])), *xf(((rng.uniform(-4, 4), rng.uniform(-3, 3)),))[0])
        b = round_base(int(rng.choice([25, 32, 40, 60])), *rng.uniform(1, 29, size=2))
        if any(footprint_polygon_distance(a, f.polygon) < 1e-3 for f in walls) or model_within_area(b, ruin) \
                or not model_within_area(a, ruin):
            continue
        return areas, a, b


def test_exact_line_of_sight_matches_brute_force_with_dense_heights():
    """Part A ruling 12 / 13.11: the same on ruins whose walls have heights (none, 1", 2", 3"):
    a low one (2" or less) blocks nothing, so the heights decide many of these layouts."""
    rng = np.random.default_rng(2025)
    disagree, decided, visible, n_layouts = [], 0, 0, 300
    for n in range(n_layouts):
        areas, a, b = ruin_layout(rng, (None, 1.0, 2.0, 2.5, 3.0))
        w, _, _ = exact(areas, a, b)
        brute = brute_visible(areas, a, b, n=144)
        if w is None and brute:
            disagree.append((n, "brute force found a clear line"))
        if w is not None:
            visible += 1
            if depth_inside(np.linspace(w[0], w[1], 2000), active_polygons(areas, a, b)) > 1e-6:
                disagree.append((n, "witness crosses a blocker"))
        tall = [dataclasses.replace(ar, features=tuple(dataclasses.replace(f, height=None) for f in ar.features))
                for ar in areas]
        decided += (exact(tall, a, b)[0] is None) != (w is None)
    assert disagree == []
    assert decided >= 5 and 50 < visible < n_layouts - 20      # (both outcomes exercised)


def test_point_visibility_matches_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(150):
        areas, a, b = random_layout(rng)
        _, pk, verts = exact(areas, a, b)
        ac, ar = core(a)
        q = circle_points(b, 24)
        got = points_visible_from(ac, ar, q, pk, verts)
        polys = active_polygons(areas, a, b)
        brute = seen_from(circle_points(a, 400), q, polys)
        assert not (brute & ~got).any()


def test_fully_visible_matches_dense_point_reference():
    """Fully visible (outline exact, interior sampled) against 600 points of B each tested
    exactly; reports the disagreement count (interior-only shadows)."""
    rng = np.random.default_rng(11)
    bad = 0
    for _ in range(300):
        areas, a, b = random_layout(rng)
        _, pk, verts = exact(areas, a, b)
        (ac, ar), (bc, br) = core(a), core(b)
        mine = footprint_fully_visible(ac, ar, bc, br, pk, verts)
        ring = circle_points(b, 360)
        g = np.stack(np.meshgrid(np.linspace(-1, 1, 17), np.linspace(-1, 1, 17)), -1).reshape(-1, 2)
        g = g[np.hypot(g[:, 0], g[:, 1]) < 1] * br + bc[0]
        ref = bool(points_visible_from(ac, ar, np.concatenate([ring, g]), pk, verts).all())
        if ref != mine:
            bad += 1
            assert mine and not ref     # only an interior-only shadow can be missed
    assert bad == 0
