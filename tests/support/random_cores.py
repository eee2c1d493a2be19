"""Seeded random convex polygons for the tests of the kernels that measure bases' cores (points,
segments, rectangles' four vertices, ovals' sixty-four): one at (x, y), its kind drawn among
``kinds``, a rectangle's or an oval's sizes and facing at random. The draws are fixed: a test's
seed gives the same polygons always."""

from __future__ import annotations

import numpy as np

from sim.rules.geometry import Footprint, core

KINDS = ("point", "segment", "rect", "oval")


def random_core(rng: np.random.Generator, x: float, y: float, kinds: tuple = KINDS) -> np.ndarray:
    """A ccw convex polygon (m, 2) at (x, y): a point, a segment (up to 3" each way), or the core
    of a rectangle or an oval 0.5-6" long and 0.3-3" wide at any facing."""
    kind = kinds[int(rng.integers(0, len(kinds)))]
    if kind == "point":
        return np.array([[x, y]], dtype=float)
    if kind == "segment":
        return np.array([[x, y], [x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)]], dtype=float)
    fp = Footprint(kind, float(x), float(y), float(rng.uniform(0.5, 6)), float(rng.uniform(0.3, 3)),
                   float(rng.uniform(0, 360)))
    return np.array(core(fp)[0])
