"""01.04 / 13.06 / Part A ruling 13: the distances from points and segments to the features
near them (kernels.near_points_distance, near_polys_distance: what feature_mask, the path
checks and the solvers read) are each pair's own, to the bit, whether every polygon is
measured in one pass (several near, few rows: ``_whole_pays``) or each near one alone against
just its rows; pairs not near stay at inf."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.rules.movement import kernels as K
from sim.rules.movement.index import terrain_index
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _each(measure, near, es, *arrays):
    """Each near polygon alone, against just the rows near it (inf elsewhere)."""
    out = np.full(near.shape, np.inf)
    for p in np.flatnonzero(near.any(axis=0)).tolist():
        rows = np.flatnonzero(near[:, p])
        out[rows, p] = measure(*(a[rows] for a in arrays), es.single(p))[:, 0]
    return out


def test_one_pass_and_each_polygon_alone_agree_to_the_bit():
    terr = terrain_index(load_scenario(ROOT / "scenarios/battle_default.toml").terrain)
    rng = np.random.default_rng(5)
    whole = {"points": 0, "segments": 0}
    for es in (terr.no_end, terr.dense):
        for k in (1, 2, 3, 5, 8, 24, 60):
            for _ in range(30):
                a = rng.uniform(-2, 62, (k, 2))
                a[: k // 2] = es.polys[rng.integers(len(es))].pts[0] + rng.normal(0, 0.3, (k // 2, 2))
                b = a + rng.normal(0, rng.choice((0.0, 1.0, 6.0)), (k, 2))
                near = rng.random((k, len(es))) < rng.choice((0.05, 0.3, 0.9))
                cols = np.flatnonzero(near.any(axis=0))
                got = K.near_points_distance(a, near, es)
                assert np.array_equal(got, _each(K.points_polys_distance, near, es, a))
                whole["points"] += K._whole_pays(near, cols, K.WHOLE_POINTS, len(es.vx))
                got = K.near_polys_distance(a, b, near, es)
                assert np.array_equal(got, _each(K.segments_polys_distance, near, es, a, b))
                whole["segments"] += K._whole_pays(near, cols, K.WHOLE_SEGMENTS, len(es.vx))
                assert np.isinf(got[~near]).all() and np.isfinite(got[near]).all()
    assert min(whole.values()) > 50      # (both ways taken, many times)
