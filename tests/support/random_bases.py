"""Seeded random bases for the geometry tests of several folders (visibility, movement, set-up):
one base at (x, y), oval or rectangular (sizes and facing at random) one time in four each,
else round (25, 32 or 60 mm); with ``kinds=3``, each shape one time in three. The draws are
fixed: a test's seed gives the same bases always."""

from __future__ import annotations

import numpy as np

from sim.rules.geometry import footprint, round_base


def random_base(rng: np.random.Generator, x: float, y: float, kinds: int = 4):
    kind = rng.integers(0, kinds)
    if kind == 0:
        return footprint("oval", x, y, rng.uniform(1.5, 5.0), rng.uniform(0.8, 2.5), rng.uniform(0, 180))
    if kind == 1:
        return footprint("rect", x, y, rng.uniform(1.5, 6.0), rng.uniform(0.8, 3.0), rng.uniform(0, 180))
    return round_base(int(rng.choice([25, 32, 60])), x, y)
