"""Seeded random convex pieces for the sight tests of several folders (the batched stages'
tests, the compiled kernels'): on a 20" square, rectangles and hexagons (every
``hexagon_every``-th piece), rotated and stretched; Pieces pads the rectangles to six vertices.
The draws are fixed: a test's seed gives the same pieces always."""

from __future__ import annotations

import numpy as np

from sim.rules.visibility.kernels import Pieces


def random_pieces(rng: np.random.Generator, k: int, hexagon_every: int = 5) -> Pieces:
    polys = []
    for i in range(k):
        cx, cy = rng.uniform(0, 20, size=2)
        n = 6 if i % hexagon_every == 0 else 4
        ang = rng.uniform(0, np.pi) + np.arange(n) * 2 * np.pi / n
        rx, ry = rng.uniform(0.3, 3.0, size=2)
        polys.append(np.stack([cx + rx * np.cos(ang), cy + ry * np.sin(ang)], axis=1))
    return Pieces(polys)
