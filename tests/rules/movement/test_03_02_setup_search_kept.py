"""03.02 The placement solver's search (sim.rules.movement.solvers.placement) ranks and tests
its spots by cheaper means than the plain reading, with the same answers to the bit and in the
same order: ``_ranked`` (the anchor spots' order) against ``np.lexsort`` of their keys."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import Footprint
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base

MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NORTH = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))


def _anchor_keys_reading(prefer, fp, c):
    """placement._anchor_keys as its docstring reads: the preference's score to 6 decimals (to
    2 against an edge), then the lateral coordinate; nothing preferred: y, then x."""
    if not (prefer.points or prefer.bases or prefer.edge):
        return [np.round(c[:, 1], 6), np.round(c[:, 0], 6)]
    s = prefer.score(fp, c, BOARD)
    return [np.round(s, 2) if prefer.edge else np.round(s, 6), np.round(prefer.lateral(c), 6)]


def _lexsort(keys):
    """The plain reading: by the first key, then the second, then the index."""
    return np.lexsort([np.arange(len(keys[0]))] + list(reversed(keys)))


@pytest.mark.parametrize("seed", range(8))
def test_ranked_is_lexsort_of_rounded_keys(seed):
    """(Ties in both keys, negative keys and -0.0, a few spots and a few thousand.)"""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 7, 300, 5000]))
    s = rng.uniform(-70.0, 70.0, size=n) * rng.choice([1.0, 1e-4, 1e3])
    if seed % 2:   # (a lattice's distances: many equal keys)
        s = np.round(s * 4) / 4
    s[rng.random(n) < 0.05] = -1e-9   # (rounds to -0.0)
    lat = rng.choice(rng.uniform(0.0, 60.0, size=max(1, n // 7)), size=n)
    for d1 in (2, 6):
        keys = [np.round(s, d1), np.round(lat, 6)]
        got = PL._ranked(keys, (d1, 6))
        assert got.tolist() == _lexsort(keys).tolist()


def test_ranked_of_keys_out_of_its_range_is_lexsort():
    """(Keys too large to read as integers, or not finite: lexsort itself.)"""
    rng = np.random.default_rng(3)
    for big in (1e9, np.inf, np.nan):
        s = np.round(rng.uniform(0, 10, size=50), 6)
        s[[3, 17, 40]] = big
        keys = [s, np.round(rng.choice([0.0, 1.5, 2.5], size=50), 6)]
        assert PL._ranked(keys, (6, 6)).tolist() == _lexsort(keys).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_the_anchor_spots_rank_as_lexsort_ranks_them(seed):
    """(A search's own anchor keys: each preference, each kind of region, bases of each shape.)"""
    rng = np.random.default_rng(seed)
    enemies = [random_base(rng, *rng.uniform([0, 14], [60, 44])) for _ in range(8)]
    region = [RG.deployment(SOUTH, BOARD), RG.ingress_strip(BOARD, enemies, NORTH),
              RG.infiltrators(BOARD, NORTH, enemies)][seed % 3]
    table = PL._Table(region, [(f"o{i}", random_base(rng, *rng.uniform(0, 60, size=2))) for i in range(30)],
                      (), PL.CLEARANCE)
    fp = [Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM), Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM)][seed % 2]
    c = np.vstack([table.rule(fp).seeds(), table.contact_spots(fp, np.array([0.0, 0.0]), np.array([60.0, 44.0]))])
    for prefer in (PL.Prefer(), PL.Prefer.toward((float(rng.integers(0, 60)), float(rng.integers(0, 12)))),
                   PL.Prefer.toward((10.0, 4.0), (50.0, 6.0)), PL.Prefer.back(SOUTH, BOARD),
                   PL.Prefer.front(SOUTH, BOARD), PL.Prefer.against("west"),
                   PL.Prefer.toward_bases(enemies[0].moved(30.0, 20.0))):
        keys = PL._anchor_keys(prefer, fp, c, BOARD)
        want_keys = _anchor_keys_reading(prefer, fp, c)
        assert [k.tobytes() for k in keys] == [k.tobytes() for k in want_keys]
        got = PL._ranked(keys, PL._anchor_decimals(prefer))
        assert got.tolist() == _lexsort(want_keys).tolist()
