"""Part A ruling 14: the detours a solver tries when a straight path is blocked (Placer.detour):
one waypoint beside each base that may block, one off each convex corner of a nearby dense
feature, pairs of neighbouring corners; shortest total path first, ties by generation order,
at most MAX_DETOURS. ``Placer._waypoints`` measures all the sequences at once and keeps each
dense polygon's corner sequences per TerrainIndex and clearance (``_corner_legs``): here they
are held to the sequence-by-sequence reading of the ruling (``reference``), to the bit and in
order, on real tables with bases of several sizes (several clearances round one polygon)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from sim.battle import Battle
from sim.plan import moves as MV
from sim.rules.geometry import EPS
from sim.rules.movement.index import TerrainIndex, terrain_index
from sim.rules.movement.kernels import near_rows
from sim.rules.movement.solvers import place as PL
from sim.rules.movement.solvers.place import DETOUR_GAP, MAX_DETOURS, Placer, corner_points
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def reference(placer: Placer, fp0, s, e, D):
    """The waypoint sequences one at a time: each listed, its length summed leg by leg in
    path order, then sorted by (length, generation order) and cut at D and MAX_DETOURS."""
    r = fp0.bounding_radius
    lo, hi = np.minimum(s, e) - 2 * r - 1.0, np.maximum(s, e) + 2 * r + 1.0
    v = e - s
    n = np.array([-v[1], v[0]]) / (np.hypot(*v) or 1.0)
    seqs = []
    if len(placer.blockers):
        for j in near_rows(placer.idx, np.array([s, e]), r, 1.0, placer.blockers).tolist():
            cj = placer.idx.centres[j]
            gap = placer.idx.bound[j] + r + DETOUR_GAP
            seqs += [[cj + n * gap], [cj - n * gap]]
    for poly in placer.terr.uncrossable(placer.may_cross_dense).polys:
        if np.any(poly.lo > hi) or np.any(poly.hi < lo):
            continue
        corners = corner_points(poly.pts, r + DETOUR_GAP)
        seqs += [[c] for c in corners]
        k = len(corners)
        if k >= 2:
            for i in range(k):
                a, b = corners[i], corners[(i + 1) % k]
                seqs += [[a, b], [b, a]]
    tot = []
    for q in seqs:
        pts = [s] + q + [e]
        tot.append(sum(float(np.hypot(*(y - x))) for x, y in zip(pts, pts[1:])))
    order = sorted(range(len(seqs)), key=lambda k: (tot[k], k))
    return [seqs[k] for k in order if tot[k] <= D + EPS][:MAX_DETOURS]


def _as_sequences(got):
    first, second, two = got
    return [[first[k], second[k]] if two[k] else [first[k]] for k in range(len(first))]


def _placers():
    """Placers of every unit of tables with dense features, hull and round bases, each twice:
    not crossing dense features and (13.06) crossing those it may."""
    for name in ("battle_default", "charge_terrain", "terrain_heights"):
        with Battle(load_scenario(ROOT / f"scenarios/{name}.toml"), seed=1) as b:
            idx = MV.bodies()
            for unit in list(idx.unit_rows):
                for cross in (False, True):
                    yield Placer(unit, idx, b.scenario.terrain, b.scenario.board, max_distance=12.0,
                                 may_cross_dense=cross)


def test_waypoints_are_the_sequence_by_sequence_reading_to_the_bit():
    rng = random.Random(3)
    sizes = set()
    cases = pairs = 0
    for placer in _placers():
        for mid in placer.ids[:3]:
            fp0 = placer.start[mid]
            sizes.add(round(fp0.bounding_radius, 6))
            s = np.array([fp0.x, fp0.y])
            for _ in range(4):
                e = s + np.array([rng.uniform(-10, 10), rng.uniform(-10, 10)])
                D = rng.choice((6.0, 12.0, 20.0))
                want = reference(placer, fp0, s, e, D)
                got = _as_sequences(placer._waypoints(fp0, s, e, D))
                assert len(got) == len(want)
                for g, w in zip(got, want):
                    assert len(g) == len(w)
                    assert all(np.array_equal(x, y) for x, y in zip(g, w))
                cases += 1
                pairs += any(len(w) == 2 for w in want)
    assert cases > 100 and pairs > 10 and len(sizes) > 2   # (corner pairs, several clearances)


def test_corner_legs_are_kept_per_clearance_and_per_table():
    with Battle(load_scenario(ROOT / "scenarios/battle_default.toml"), seed=1) as b:
        terr = terrain_index(b.scenario.terrain)
        poly = terr.dense.polys[0]
        for clearance in (0.6, 1.3, 0.6):
            first, second, two = PL._corner_legs(terr, poly, clearance)
            corners = corner_points(poly.pts, clearance)
            k = len(corners)
            assert np.array_equal(first[:k], np.array(corners)) and np.array_equal(second[:k], first[:k])
            assert not two[:k].any() and two[k:].all() and len(first) == 3 * k
            for i in range(k):
                a, c = corners[i], corners[(i + 1) % k]
                assert np.array_equal(first[k + 2 * i], a) and np.array_equal(second[k + 2 * i], c)
                assert np.array_equal(first[k + 2 * i + 1], c) and np.array_equal(second[k + 2 * i + 1], a)
        assert {c for _p, c in terr.corner_legs} >= {0.6, 1.3}
        kept = PL._corner_legs(terr, poly, 1.3)
        assert kept is terr.corner_legs[(id(poly), 1.3)]   # (kept: given again, not made anew)
        other = TerrainIndex(b.scenario.terrain)          # (another table: read afresh, its own)
        PL._corner_legs(other, other.dense.polys[0], 0.6)
        assert len(other.corner_legs) == 1
        assert PL._corner_legs(terr, poly, 1.3) is kept    # (the first table's kept as they were)
