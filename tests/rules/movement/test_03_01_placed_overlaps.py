"""03.01 kernels.placed_overlaps (a base at many candidate centres against fixed bases: would it
end overlapping one by more than TOUCH?): the round-against-round pairs read in one block give
the answers of the loop, one base at a time, as it was first written; bases of every shape
mixed, and centres exactly at, and a hair either side of, base contact less TOUCH."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.movement import kernels as K
from sim.rules.movement.kernels import TOUCH, placed_overlaps

from random_bases import random_base


def _loop(fp, centres, others):
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    out = np.zeros(len(centres), dtype=bool)
    for o in others:
        reach = np.hypot(centres[:, 0] - o.x, centres[:, 1] - o.y) < fp.bounding_radius + o.bounding_radius
        if not reach.any():
            continue
        pts, poly, r = K._pair_terms(fp, centres[reach], o)
        hit = K._points_convex_distance(pts, poly) < r - TOUCH if r > 0 else K._convex_signed(pts, poly) > TOUCH
        out[np.flatnonzero(reach)[hit]] = True
    return out


def _touching(rng, fp, others, n):
    """Centres at each round base's contact distance less TOUCH, and 1e-15" to 1e-9" off it."""
    rnd = [o for o in others if o.shape == "round"]
    if fp.shape != "round" or not rnd:
        return np.zeros((0, 2))
    out = []
    for _ in range(n):
        o = rnd[int(rng.integers(len(rnd)))]
        t = 0.5 * fp.length + 0.5 * o.length - TOUCH + rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9])
        a = rng.uniform(0, 2 * math.pi)
        out.append((o.x + t * math.cos(a), o.y + t * math.sin(a)))
    return np.array(out)


@pytest.mark.parametrize("seed", range(10))
def test_placed_overlaps_is_the_loop_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    others = [random_base(rng, *rng.uniform(0, 12, size=2)) for _ in range(int(rng.integers(1, 12)))]
    for _ in range(6):
        fp = random_base(rng, 0.0, 0.0)
        c = np.concatenate([rng.uniform(-1, 13, size=(int(rng.integers(1, 60)), 2)),
                            _touching(rng, fp, others, 40)])
        got = placed_overlaps(fp, c, others)
        assert got.tolist() == _loop(fp, c, others).tolist()


def test_placed_overlaps_all_round_and_none():
    rng = np.random.default_rng(3)
    from sim.rules.geometry import round_base
    fp = round_base(32, 0.0, 0.0)
    others = [round_base(32, *rng.uniform(0, 6, size=2)) for _ in range(9)]
    c = np.concatenate([rng.uniform(0, 6, size=(200, 2)), _touching(rng, fp, others, 200)])
    got = placed_overlaps(fp, c, others)
    assert got.tolist() == _loop(fp, c, others).tolist() and got.any() and not got.all()
    assert placed_overlaps(fp, c, []).tolist() == [False] * len(c)
    assert placed_overlaps(fp, np.zeros((0, 2)), others).tolist() == []
