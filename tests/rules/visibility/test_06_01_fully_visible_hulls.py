"""06.01 Fully visible with oval and rectangular bases (kernels.footprint_fully_visible):
the kernel stops at the first sample point it finds not seen (``_all_visible_from``), which
must give the answer of testing every point (``points_visible_from(...).all()``); and for
such bases the kernel's answer against points of B each tested exactly (the outline exact,
the interior sampled, so only an interior-only shadow may be missed)."""

import numpy as np

from sim.rules.geometry import core, footprint
from sim.rules.visibility.kernels import (_PTS_CHUNK, _all_visible_from, _direct_visible,
                                   footprint_fully_visible, points_visible_from)
from sim.rules.visibility.sight import TerrainBlockers, _pair_pieces, model_visible

from _layouts import random_layout
from random_bases import random_base


def _base(rng, x, y):
    return random_base(rng, x, y, kinds=3)   # (each shape one time in three)


def _inputs(rng):
    """A random layout with A and B replaced by (mostly) oval / rectangular bases, both
    orders of a pair of hull shapes exercised over the runs."""
    areas, a, b = random_layout(rng)
    a, b = _base(rng, a.x, a.y), _base(rng, b.x, b.y)
    blk = TerrainBlockers.build(areas)
    pk, verts = _pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b)))
    return a, b, pk, verts


def _points_of(fp, n_ring=48, n_grid=9):
    """Points of a footprint: its core outline densely, and a grid of interior points."""
    c, r = core(fp)
    if len(c) == 1:
        t = np.linspace(0, 2 * np.pi, n_ring, endpoint=False)
        ring = c[0] + r * np.stack([np.cos(t), np.sin(t)], 1)
    else:
        q = np.roll(c, -1, axis=0)
        s = np.linspace(0, 1, max(2, n_ring // len(c)), endpoint=False)
        ring = (c[:, None, :] + s[None, :, None] * (q - c)[:, None, :]).reshape(-1, 2)
    m = ring.mean(axis=0)
    inner = [m + f * (ring - m) for f in np.linspace(0.1, 0.9, n_grid)]
    return np.concatenate([ring] + inner[::3] + [m[None]])


def test_early_exit_gives_the_answer_of_every_point():
    """Every point set, and sets of many seen points (more than one exact batch) with one
    point in shadow put first, in the middle or last."""
    rng = np.random.default_rng(41)
    outcome = {True: 0, False: 0}
    lone = 0
    for _ in range(240):
        a, b, pk, verts = _inputs(rng)
        if len(pk) == 0:
            continue
        ac, ar = core(a)
        pts = _points_of(b)
        ref = points_visible_from(ac, ar, pts, pk, verts)
        got = _all_visible_from(ac, ar, pts, pk, verts)
        assert got == bool(ref.all())
        outcome[got] += 1
        seen, hidden = pts[ref], pts[~ref]
        exact_seen = int((ref & ~_direct_visible(ac, ar, pts, pk)).sum())
        if len(hidden) and exact_seen > 2 * _PTS_CHUNK:
            assert _all_visible_from(ac, ar, seen, pk, verts)
            h = hidden[rng.integers(len(hidden))]
            for pos in (0, len(seen) // 2, len(seen)):
                assert not _all_visible_from(ac, ar, np.insert(seen, pos, h, axis=0), pk, verts)
            lone += 1
    assert outcome[True] > 20 and outcome[False] > 20
    assert lone > 10


def test_hull_fully_visible_matches_dense_point_reference():
    rng = np.random.default_rng(43)
    checked = bad = 0
    for _ in range(120):
        a, b, pk, verts = _inputs(rng)
        if a.shape == "round" and b.shape == "round":
            continue
        (ac, ar), (bc, br) = core(a), core(b)
        mine = footprint_fully_visible(ac, ar, bc, br, pk, verts)
        ref = bool(points_visible_from(ac, ar, _points_of(b, 240, 17), pk, verts).all())
        checked += 1
        if ref != mine:
            bad += 1
            assert mine and not ref     # only an interior-only shadow can be missed
    assert checked > 60
    assert bad <= 2


def _outline_of(fp, n=256):
    """Points along a footprint's outline (a hull's core polygon edges, a round base's circle)."""
    c, r = core(fp)
    if len(c) == 1:
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return c[0] + r * np.stack([np.cos(t), np.sin(t)], 1)
    q = np.roll(c, -1, axis=0)
    s = np.linspace(0, 1, max(2, n // len(c)), endpoint=False)
    return (c[:, None, :] + s[None, :, None] * (q - c)[:, None, :]).reshape(-1, 2)


def test_hull_sight_and_point_sight_match_brute_force():
    """The exact kernels with oval and rectangular bases (only the lines supporting a hull at
    its vertex are tried, kernels._supports) against an independent brute force over dense
    outline points: a clear segment the brute force finds means the kernel says visible (for
    the pair, and for each point of B seen from some outline point of A), and every witness
    the kernel gives stays out of every blocker."""
    from _layouts import active_polygons, depth_inside, inside_mask, seen_from
    from sim.rules.visibility.kernels import pair_witness

    rng = np.random.default_rng(47)
    checked = blocked = 0
    for _ in range(160):
        areas, a, b = random_layout(rng)
        a, b = _base(rng, a.x, a.y), _base(rng, b.x, b.y)
        if a.shape == "round" and b.shape == "round":
            continue
        blk = TerrainBlockers.build(areas)
        pk, verts = _pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b)))
        if len(pk) == 0:
            continue
        polys = active_polygons(areas, a, b)
        pa, pb = _outline_of(a), _outline_of(b, 96)
        for poly in polys:
            pa, pb = pa[~inside_mask(pa, poly)], pb[~inside_mask(pb, poly)]
        (ac, ar), (bc, br) = core(a), core(b)
        w = pair_witness(ac, ar, bc, br, pk, verts)
        seen = seen_from(pa, pb, polys)
        if seen.any():
            assert w is not None
        if w is not None:
            assert depth_inside(np.linspace(w[0], w[1], 500), polys) <= 1e-6
        else:
            blocked += 1
        got = points_visible_from(ac, ar, pb, pk, verts)
        assert not (seen & ~got).any()
        checked += 1
    assert checked > 80 and blocked > 5


def _by_a_wall_end(rng):
    """A random layout (areas, A, B) and a point within 1" of a vertex of one of its dense
    walls (None when it has none): where a base put there overlaps the wall."""
    areas, a, b = random_layout(rng)
    walls = [np.array(f.polygon) for ar in areas for f in ar.features if f.category == "dense"]
    if not walls:
        return areas, a, b, None
    w = walls[rng.integers(len(walls))]
    return areas, a, b, w[rng.integers(len(w))] + rng.uniform(-1.0, 1.0, 2)


def test_06_01_sight_to_and_from_a_base_a_wall_overlaps_matches_brute_force():
    """06.01 A base a dense wall overlaps (a scenario may place one so; no move may end so):
    the part of it a sight line may reach is not convex, so the exact kernels keep every line
    through its vertices and add its outline crossings (kernels._overlaps_footprint: a
    wall's vertex inside the base, or edges crossing, counts too). Against the brute force
    over dense outline points, for the pair (sight) and for B's points seen from A."""
    from _layouts import active_polygons, inside_mask, seen_from
    from sim.rules.visibility.kernels import _overlaps_footprint, pair_witness

    rng = np.random.default_rng(53)
    checked = overlapped = 0
    for _ in range(18):
        areas, a, b, corner = _by_a_wall_end(rng)
        if corner is None:
            continue
        a = _base(rng, a.x, a.y)                     # (B across a wall's end)
        b = footprint(["rect", "oval"][rng.integers(2)], *corner, rng.uniform(2.0, 6.0),
                      rng.uniform(0.8, 2.5), rng.uniform(0, 180))
        if rng.random() < 0.5:
            a, b = b, a
        blk = TerrainBlockers.build(areas)
        pk, verts = _pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b)))
        if len(pk) == 0:
            continue
        (ac, ar), (bc, br) = core(a), core(b)
        overlapped += _overlaps_footprint(ac, ar, pk) or _overlaps_footprint(bc, br, pk)
        polys = active_polygons(areas, a, b)
        pa, pb = _points_of(a, 64, 5), _points_of(b, 96, 5)
        for poly in polys:
            pa, pb = pa[~inside_mask(pa, poly)], pb[~inside_mask(pb, poly)]
        if not len(pa) or not len(pb):
            continue
        seen = seen_from(pa, pb, polys)
        if seen.any():
            assert pair_witness(ac, ar, bc, br, pk, verts) is not None
        got = points_visible_from(ac, ar, pb, pk, verts)
        assert not (seen & ~got).any()
        checked += 1
    assert checked > 6 and overlapped > 3


def test_06_01_a_sight_line_to_the_sliver_of_a_base_left_of_a_wall():
    """06.01 The case the visibility index's tests found: a rectangular base B pokes past a
    ruin's dense wall (x 26.5-27); the only clear lines from A reach the sliver of B left of
    the wall, through B's corner, cutting B: lines the supporting-line rule would drop. A
    brute force over the two outlines finds them; so must the kernel."""
    from _layouts import active_polygons, seen_from
    from sim.rules.terrain import Feature, TerrainArea
    ruin = TerrainArea("ruins", ((27.0, 12.0), (27.0, 22.0), (21.0, 22.0), (21.0, 12.0)), (
        Feature("dense", ((27.0, 12.0), (27.0, 17.5), (26.5, 17.5), (26.5, 12.5), (23.5, 12.5),
                          (23.5, 12.0))),
        Feature("dense", ((21.0, 22.0), (21.0, 16.5), (21.5, 16.5), (21.5, 21.5), (24.5, 21.5),
                          (24.5, 22.0)))))
    a = footprint("rect", 12.922996477760083, 20.037146796369058, 4.644457753854171,
                  2.5715406786890616, 27.178877927645953)
    b = footprint("rect", 29.020071898229528, 14.640636374377006, 5.427439322441954,
                  1.7356184257859897, 149.86456560310535)
    blk = TerrainBlockers.build([ruin])
    pk, verts = _pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b)))
    polys = active_polygons([ruin], a, b)
    pa, pb = _points_of(a, 240, 3), _points_of(b, 480, 3)
    assert seen_from(pa, pb, polys).any()
    (ac, ar), (bc, br) = core(a), core(b)
    from sim.rules.visibility.kernels import pair_witness
    w = pair_witness(ac, ar, bc, br, pk, verts)
    assert w is not None
    assert model_visible(a, b, blk) and model_visible(b, a, blk)


def test_early_exit_tests_every_point_whatever_its_place():
    """The exact batches grow (``_PTS_CHUNK`` points first, then four times as many, up to
    ``_PTS_MOST``): one point in shadow among many seen ones is found wherever it stands, at
    every place in the list."""
    rng = np.random.default_rng(47)
    layouts = 0
    while layouts < 3:
        a, b, pk, verts = _inputs(rng)
        if len(pk) == 0:
            continue
        ac, ar = core(a)
        pts = _points_of(b, 96, 13)
        ref = points_visible_from(ac, ar, pts, pk, verts)
        seen, hidden = pts[ref], pts[~ref]
        if not len(hidden) or int((ref & ~_direct_visible(ac, ar, pts, pk)).sum()) <= _PTS_CHUNK + 4 * _PTS_CHUNK:
            continue
        assert _all_visible_from(ac, ar, seen, pk, verts)
        h = hidden[0]
        for pos in range(len(seen) + 1):
            assert not _all_visible_from(ac, ar, np.insert(seen, pos, h, axis=0), pk, verts), pos
        layouts += 1


def _hull_by_a_wall_end(rng):
    """A hull base A by a dense wall's end (``_by_a_wall_end``: it may overlap the wall), B the
    layout's, and the pair's pieces and obstacle vertices; None when the layout has no wall."""
    areas, a, b, corner = _by_a_wall_end(rng)
    if corner is None:
        return None
    a = footprint(["rect", "oval"][rng.integers(2)], *corner, rng.uniform(2.0, 6.0),
                  rng.uniform(0.8, 2.5), rng.uniform(0, 180))
    blk = TerrainBlockers.build(areas)
    return (a, b, *_pair_pieces(blk, a, b, blk.active(blk.within(a), blk.within(b))))


def test_early_exit_with_a_wall_over_the_observer():
    """Where a wall overlaps A, its outline crossings join the generators and every line
    through A's vertices is tried (kernels._observer_generators, worked out once for all the
    batches): each point alone gets the answer ``points_visible_from`` gives it among all."""
    from sim.rules.visibility.kernels import _overlaps_footprint

    rng = np.random.default_rng(59)
    checked = 0
    outcome = {True: 0, False: 0}
    for _ in range(40):
        got = _hull_by_a_wall_end(rng)
        if got is None:
            continue
        a, b, pk, verts = got
        ac, ar = core(a)
        if len(pk) == 0 or not _overlaps_footprint(ac, ar, pk):
            continue
        pts = _points_of(b, 32, 5)
        ref = points_visible_from(ac, ar, pts, pk, verts)
        for k in range(len(pts)):
            got = _all_visible_from(ac, ar, pts[k:k + 1], pk, verts)
            assert got == bool(ref[k])
            outcome[got] += 1
        checked += 1
    assert checked > 6 and outcome[True] > 50 and outcome[False] > 50


def test_the_kernel_hands_its_observer_generators_down_unchanged(monkeypatch):
    """footprint_fully_visible works out the observer's generators once (with a wall over the
    observer: its outline crossings too, and every line through its vertices) and hands them to
    every exact batch: what the batches get is ``_observer_generators``' own answer."""
    from sim.rules.visibility import kernels as K

    real = K._all_visible_from
    handed = []

    def spy(a_core, a_r, pts, pk, obst, gens=None):
        want = K._observer_generators(a_core, a_r, pk, obst)
        assert gens is not None and gens[1] == want[1] and np.array_equal(gens[0], want[0])
        handed.append(want[1])
        return real(a_core, a_r, pts, pk, obst, gens)
    monkeypatch.setattr(K, "_all_visible_from", spy)
    rng = np.random.default_rng(61)
    for _ in range(40):
        got = _hull_by_a_wall_end(rng)
        if got is None:
            continue
        a, b, pk, verts = got
        if len(pk):
            (ac, ar), (bc, br) = core(a), core(b)
            K.footprint_fully_visible(ac, ar, bc, br, pk, verts)
            K.footprint_fully_visible(bc, br, ac, ar, pk, verts)    # (B the observer: no wall over it)
    assert handed.count(False) > 3 and handed.count(True) > 3   # (a wall over the observer, and none)
