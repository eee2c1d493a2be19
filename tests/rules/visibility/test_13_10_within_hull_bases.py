"""13.08 / 13.09 / 13.10 Within a terrain area (any part of the base inside the area's
footprint) for oval and rectangular bases in the VisibilityIndex: only the areas whose box,
grown by the base's bounding radius, holds its centre are tested (terrain.model_within_area);
the answers must be those of model_within_area for every area, after a full recompute and
after moves, with bases placed so that often only their far corners reach an area."""

import numpy as np

from sim.rules.geometry import footprint
from sim.rules.terrain import model_within_area
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import random_layout


def _hull_near(rng, areas):
    """An oval or rectangle centred about its bounding radius off an area's corner."""
    poly = np.array(areas[rng.integers(len(areas))].polygon, float)
    v = poly[rng.integers(len(poly))]
    L, W = rng.uniform(1.5, 7.0), rng.uniform(0.8, 3.0)
    shape = "rect" if rng.integers(0, 2) else "oval"
    R = 0.5 * (np.hypot(L, W) if shape == "rect" else L)
    ang = rng.uniform(0, 2 * np.pi)
    x, y = v + rng.uniform(0.5, 1.05) * R * np.array([np.cos(ang), np.sin(ang)])
    return footprint(shape, x, y, L, W, rng.uniform(0, 180))


def test_hull_bases_within_match_model_within_area():
    rng = np.random.default_rng(13)
    within = outside = 0
    for _ in range(20):
        areas, a, b = random_layout(rng)
        fps = [a, b] + [_hull_near(rng, areas) for _ in range(6)]
        # one army: no pairs to resolve, only the geometry (within) is under test
        models = [ModelEntry(f"m{k}", fp, "red", f"u{k}") for k, fp in enumerate(fps)]
        idx = VisibilityIndex(areas, models)
        for step in range(2):
            for i, fp in enumerate(fps):
                ref = [model_within_area(fp, ar) for ar in areas]
                assert idx.within[i].tolist() == ref, (step, i)
                if fp.shape != "round":
                    within += sum(ref)
                    outside += len(ref) - sum(ref)
            k = 2 + int(rng.integers(6))
            fps[k] = _hull_near(rng, areas)
            idx.update([f"m{k}"], [fps[k]])
    assert within > 120 and outside > 200
