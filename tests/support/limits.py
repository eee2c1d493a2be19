"""Limits found by the reference's own measure, for the twins' tests: the point along a ray where
a test's answer turns, to its last bit (so a twin is tried where one rounding decides)."""

from __future__ import annotations

import math

import numpy as np


def bisect_ray(holds, hi: float) -> tuple[float, float]:
    """(lo, hi): the last t found in [0, ``hi``] at which ``holds(t)`` is True and the first at
    which it is False, a double apart (``holds(0)`` True and ``holds(hi)`` False, as the callers
    choose them)."""
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo, hi


def spots_on_limits(rng, bases, k: int, holds, reach, nudges, along_x: bool = False) -> np.ndarray:
    """``k`` spots (k, 2), each on a limit of a base of ``bases`` drawn by ``rng``: along a seeded
    direction out from its centre (``along_x``: or straight along x, either way, a third of the
    time each), the last point at which ``holds(base, point)`` and the first at which not, one
    or the other, nudged by one of ``nudges``; ``reach(base)``: a distance past the limit."""
    out = []
    for _ in range(k):
        o = bases[int(rng.integers(len(bases)))]
        ang = float(rng.choice([rng.uniform(0, 2 * math.pi), 0.0, math.pi])) if along_x else rng.uniform(0, 2 * math.pi)
        u, at = np.array([math.cos(ang), math.sin(ang)]), np.array([o.x, o.y])
        lo, hi = bisect_ray(lambda t: holds(o, at + t * u), reach(o))
        out.append(at + (float(rng.choice([lo, hi])) + float(rng.choice(nudges))) * u)
    return np.array(out, dtype=float).reshape(-1, 2)
