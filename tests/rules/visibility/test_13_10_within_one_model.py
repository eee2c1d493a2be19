"""13.10 / 13.11 Which areas a moved model is within: the plain-Python path for one model
(pairs.within_candidates_one, pairs.within_one) gives the numpy batch's answers
(within_candidates, within_pairs) bit for bit, with discs on, near and just off the outlines,
and the index's flags after single-model moves equal a full recompute's."""

import numpy as np

from sim.rules.geometry import EPS, round_base
from sim.rules.terrain import default_table
from sim.rules.visibility.index import ModelEntry, VisibilityIndex
from sim.rules.visibility.pairs import (area_boxes, edge_lists, pack_area_edges, within_candidates,
                                        within_candidates_one, within_one, within_pairs)
from sim.rules.visibility.sight import TerrainBlockers

from _layouts import random_layout


def _discs_near(rng, polys, k):
    """Centres on, near and off the outlines (vertices, edge points pushed out by about a radius)."""
    out = []
    for _ in range(k):
        poly = np.asarray(polys[int(rng.integers(len(polys)))], float)
        e = int(rng.integers(len(poly)))
        a, b = poly[e], poly[(e + 1) % len(poly)]
        p = a + rng.uniform(0, 1) * (b - a)
        n = np.array([b[1] - a[1], a[0] - b[0]])
        n /= max(np.hypot(*n), 1e-12)
        r = float(rng.choice([0.5, 0.63, 1.0]))
        push = float(rng.choice([0.0, r, r + EPS / 2, r + 2 * EPS, r + 1e-6, rng.uniform(-2, 2)]))
        c = p + push * n * rng.choice([-1.0, 1.0])
        out.append((float(c[0]), float(c[1]), r))
    return out


def test_one_model_matches_the_batch_bit_for_bit():
    rng = np.random.default_rng(29)
    checked = inside = 0
    for n in range(30):
        areas = default_table() if n % 3 == 0 else random_layout(rng)[0]
        polys = TerrainBlockers.build(areas).area_polys
        edges, boxes = pack_area_edges(polys), area_boxes(polys)
        lists, box_list = edge_lists(edges), [tuple(b) for b in boxes.tolist()]
        for cx, cy, r in _discs_near(rng, polys, 60):
            m, a = within_candidates(np.array([[cx, cy]]), np.array([r]), boxes)
            assert within_candidates_one(cx, cy, r, box_list) == a.tolist()
            if len(a):
                batch = within_pairs(np.array([[cx, cy]] * len(a)), np.array([r] * len(a)), a, edges)
                one = [within_one(cx, cy, r, lists[k]) for k in a.tolist()]
                assert one == batch.tolist(), (cx, cy, r)
                checked += len(a)
                inside += sum(one)
    assert checked > 800 and 0 < inside < checked


def test_moved_models_flags_equal_a_full_recompute():
    rng = np.random.default_rng(31)
    areas = default_table()
    fps = [round_base(32, *rng.uniform([1, 1], [59, 43])) for _ in range(30)]
    models = [ModelEntry(f"m{k}", fp, "red" if k % 2 else "blue", f"u{k % 4}",
                         frozenset({"INFANTRY"})) for k, fp in enumerate(fps)]
    idx = VisibilityIndex(areas, models)
    polys = idx.blk.area_polys
    for cx, cy, _ in _discs_near(rng, polys, 60):
        k = int(rng.integers(len(fps)))
        idx.update([f"m{k}"], [idx.fps[k].moved(cx, cy)])
        fresh = VisibilityIndex(areas, [ModelEntry(m.id, fp, m.army, m.unit, m.keywords)
                                        for m, fp in zip(models, idx.fps)])
        assert np.array_equal(idx.within, fresh.within)
        assert np.array_equal(idx.within_obscuring, fresh.within_obscuring)
