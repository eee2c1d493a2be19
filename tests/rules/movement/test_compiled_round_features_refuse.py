"""Part A ruling 13 / 13.06 sim.rules.movement.legality.round_features_refuse (a player's quick
look before a move's check: a round base ending past a light or dense feature's edge, or its
straight path crossing a dense feature it may not, by more than a margin) and its compiled twin
(sim.rules.compiled: ``movement.round_features_refuse``) give the same answer: seeded moves among
seeded features of both kinds and heights, every crossing allowance (none asked, none, 4" and
every feature), meeting both answers; a base exactly at a feature's edge and a hair either side;
and the inputs the twin leaves to the reference. (That the look never refuses a move the check
lets through: tests/players/test_options_quick_refusal.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.movement import legality as ML
from sim.rules.movement.index import TOUCH, TerrainIndex
from sim.rules.terrain import Feature, TerrainArea

KERN = C.KERNELS["movement.round_features_refuse"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
MARGIN = 1e-3


def _terrain(rng) -> TerrainIndex:
    areas = []
    for k in range(int(rng.integers(0, 6))):
        x, y = rng.uniform(0, 38, size=2)
        w, h = rng.uniform(0.5, 6, size=2)
        poly = ((x, y), (x + w, y), (x + w * 0.7, y + h), (x, y + h * 0.8))
        kind = "light" if rng.random() < 0.4 else "dense"
        areas.append(TerrainArea(f"t{k}", poly, (Feature(kind, poly, height=float(rng.choice([1.5, 3.0, 6.0]))),)))
    return TerrainIndex(areas)


@built
@pytest.mark.parametrize("seed", range(6))
def test_round_features_refuse_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    met = set()
    for _ in range(80):
        terr = _terrain(rng)
        K = int(rng.integers(1, 8))
        starts = rng.uniform(0, 44, size=(K, 2))
        a = rng.uniform(0, 2 * math.pi, size=K)
        ends = starts + rng.uniform(0, 8, size=(K, 1)) * np.stack([np.cos(a), np.sin(a)], axis=1)
        radii = rng.choice([0.5, 0.63, 0.79, 1.0], size=K)
        for may in (None, False, 4.0, True):
            for margin in (MARGIN, 0.0):
                args = (starts, ends, radii, terr, may, margin)
                want = KERN.reference(*args)
                assert KERN.compiled(*args) is want
                met.add(want)
    assert met == {True, False}


@built
@pytest.mark.parametrize("shift", [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 0.5 * MARGIN, -0.5 * MARGIN, 2 * MARGIN,
                                   -2 * MARGIN])
def test_round_features_refuse_compiled_at_a_features_edge(shift):
    """A base ending against a light feature's side, and a path grazing a dense one's, each
    exactly at the limit (radius less TOUCH less the margin) and a hair either side."""
    box = ((10.0, 10.0), (14.0, 10.0), (14.0, 14.0), (10.0, 14.0))
    wall = ((20.0, 10.0), (24.0, 10.0), (24.0, 14.0), (20.0, 14.0))
    terr = TerrainIndex([TerrainArea("box", box, (Feature("light", box),)),
                         TerrainArea("wall", wall, (Feature("dense", wall, height=5.0),))])
    r = np.array([0.5])
    lim = 0.5 - TOUCH - MARGIN
    into_box = (np.array([[5.0, 12.0]]), np.array([[10.0 - lim + shift, 12.0]]))
    past_wall = (np.array([[24.0 + lim - shift, 5.0]]), np.array([[24.0 + lim - shift, 20.0]]))
    for starts, ends in (into_box, past_wall):
        args = (starts, ends, r, terr, False, MARGIN)
        assert KERN.compiled(*args) is KERN.reference(*args)


@built
def test_round_features_refuse_compiled_declines_what_it_does_not_take():
    terr = TerrainIndex([])
    s, e, r = np.array([[1.0, 1.0]]), np.array([[2.0, 2.0]]), np.array([0.5])
    assert KERN.compiled(s, e, r, terr, None, MARGIN) is False
    assert KERN.compiled(s.astype(np.float32), e, r, terr, None, MARGIN) is None
    assert KERN.compiled(s, np.array([[math.nan, 2.0]]), r, terr, None, MARGIN) is None
    assert KERN.compiled(s, e, r, terr, None, 1) is None
    assert KERN.compiled(s, e, np.array([0.5, 0.5]), terr, None, MARGIN) is None


def test_round_features_refuse_is_the_module_record():
    assert ML.round_features_refuse is KERN
