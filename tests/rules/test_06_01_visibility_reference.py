"""06.01 / Part A ruling 3: the exact line-of-sight method against an independent brute force
on 1,000 random layouts (dense walls, ruins, woods, containers; bases 25-60 mm).

* exact "not visible"  => the brute force (144 x 144 outline points, strict test on the
  original polygons) finds no clear segment: must never disagree;
* exact "visible"      => its witness segment, checked independently at 2,000 points, does
  not go deeper than 1e-6" into any blocker: must never disagree.
The brute force's own misses (exact visible, brute force none: a sight corridor narrower than
its sampling) are counted and must be rare; the figure goes in the README.
"""

import numpy as np

from sim.rules.geometry import core
from sim.rules.visibility.kernels import footprint_fully_visible, pair_witness, points_visible_from
from sim.rules.visibility.sight import TerrainBlockers, _pair_pieces

from _layouts import active_polygons, brute_visible, circle_points, depth_inside, random_layout, strictly_free

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


def test_point_visibility_matches_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(150):
        areas, a, b = random_layout(rng)
        _, pk, verts = exact(areas, a, b)
        ac, ar = core(a)
        q = circle_points(b, 24)
        got = points_visible_from(ac, ar, q, pk, verts)
        polys = active_polygons(areas, a, b)
        pa = circle_points(a, 400)
        for k in range(len(q)):
            brute = strictly_free(pa, np.repeat(q[k:k + 1], len(pa), axis=0), polys).any()
            if brute:
                assert got[k]


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
