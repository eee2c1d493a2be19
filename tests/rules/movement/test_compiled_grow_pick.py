"""03.02 sim.rules.movement.solvers.placement._grow_pick (the next model's spot as the placement
solver grows a set-up: the spots ``_grow_spots`` offers, the region's limits, the unit-mates'
gap and coherency and the other bases and terrain, then the best by ``_model_keys``, ties to the
first offered) and its compiled twin (sim.rules.compiled: ``movement.grow_pick``) give the same
answer to the bit: seeded clumps of round bases in deployment zones, notched, slanted and too
shallow for the base, and in an ingress strip kept 8" from enemy models (the region's other
limits, read by the reference's own ``ModelRule._rest_mask``), under every kind of preference
(none, nothing preferred, one point or several, each battlefield edge), tight and loose, round
and square; a table with no legal spot (``()``); and what the twin leaves to the reference."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG

from test_compiled_grow_spots import BOARD, MM, SOUTH, _case
from twins import twin_answer

KERN = C.KERNELS["movement.grow_pick"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _preferences(rng) -> list:
    return [None, PL.Prefer(), PL.Prefer.toward(tuple(rng.uniform(0, 60, size=2))),
            PL.Prefer.toward(*[tuple(p) for p in rng.uniform(0, 44, size=(3, 2))]),
            PL.Prefer.against("south"), PL.Prefer.against("north"), PL.Prefer.against("west"),
            PL.Prefer.against("east")]


@built
@pytest.mark.parametrize("seed", range(20))
def test_grow_pick_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    fp, placed, table = _case(rng, seed)
    anchor = np.array([placed[0].x, placed[0].y])
    picked = nothing = 0
    for prefer in _preferences(rng):
        for tight in (True, False):
            for square in (False, True):
                for gap in (PL.GAP, 0.5):
                    got = twin_answer(KERN, fp, placed, table, prefer, gap, anchor, tight, square)
                    if got:
                        picked += 1
                        key, x, y = got
                        assert type(key) is tuple and len(key) == (1 if prefer is None else 2)
                        assert type(x) is float and type(y) is float
                    else:
                        nothing += 1
    assert picked   # (and, over the seeds, some with nothing legal: the next test's)


@built
@pytest.mark.parametrize("seed", range(6))
def test_grow_pick_compiled_kept_from_enemy_models(seed):
    """An ingress strip and a Deep Strike, the clump a hair over 8" from enemy models, some of
    the spots offered within 8" of one (the region's ``away`` limit, which the twin leaves to the
    reference's own ``_rest_mask``): the same spot from both, and one the limit moved."""
    rng = np.random.default_rng(seed)
    fp = Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM)
    placed = [fp.moved(30.0, 2.0), fp.moved(31.4, 2.0)]
    anchor = np.array([30.0, 2.0])
    moved = 0
    for k in range(12):
        ex, ey = 30.7 + rng.uniform(-4, 4), 2.0 + 8.0 + 2 * 0.5 * fp.length + rng.uniform(0.05, 1.5)
        enemies = [fp.moved(ex, ey), fp.moved(ex + rng.uniform(-3, 3), ey + rng.uniform(0, 2))]
        for region in (RG.ingress_strip(BOARD, enemies, None, 3), RG.deep_strike(BOARD, enemies)):
            table = PL._Table(region, [], (), PL.CLEARANCE)
            for prefer in (PL.Prefer.toward((ex, ey)), PL.Prefer(), None):
                got = twin_answer(KERN, fp, placed, table, prefer, PL.GAP, anchor, True, False)
                free = PL._Table(RG.ingress_strip(BOARD, [], None, 3) if region.edge_strip else
                                 RG.anywhere(BOARD), [], (), PL.CLEARANCE)
                moved += got != KERN.reference(fp, placed, free, prefer, PL.GAP, anchor, True, False)
    assert moved


@built
def test_grow_pick_compiled_with_no_legal_spot():
    """Every spot offered is off the table or on another base: () from both."""
    region = RG.deployment(SOUTH, BOARD)
    fp = Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM)
    placed = [fp.moved(30.0, 6.0)]
    crowd = [(f"o{i}", fp.moved(30.0 + dx, 6.0 + dy)) for i, (dx, dy) in
             enumerate((dx, dy) for dx in np.arange(-3.0, 3.1, 1.3) for dy in np.arange(-3.0, 3.1, 1.3)
                       if (dx, dy) != (0.0, 0.0))]
    table = PL._Table(region, crowd, (), PL.CLEARANCE)
    anchor = np.array([30.0, 6.0])
    for tight in (True, False):
        assert twin_answer(KERN, fp, placed, table, PL.Prefer(), PL.GAP, anchor, tight, False) == ()


@built
def test_grow_pick_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(3)
    fp, placed, table = _case(rng, 0)
    anchor = np.array([placed[0].x, placed[0].y])
    ok = (fp, placed, table, PL.Prefer(), PL.GAP, anchor, True, False)
    assert KERN.compiled(*ok) is not None
    oval = Footprint("oval", 0.0, 0.0, 90 * MM, 52 * MM, 30.0)
    for args in ((oval, [oval.moved(p.x, p.y) for p in placed], table, PL.Prefer(), PL.GAP, anchor, True, False),
                 (fp, placed, table, PL.Prefer.toward_bases(placed[0]), PL.GAP, anchor, True, False),
                 (fp, placed, table, PL.Prefer(edge="up"), PL.GAP, anchor, True, False),   # (the reference raises)
                 (fp, placed, table, PL.Prefer(), PL.GAP, anchor.astype(np.float32), True, False),
                 (fp, placed, table, PL.Prefer(), PL.GAP, np.array([1.0, 2.0, 3.0]), True, False),
                 (fp, placed, table, PL.Prefer(), PL.GAP, np.array([np.inf, 2.0]), True, False),
                 (fp, placed, table, PL.Prefer(), 1, anchor, True, False),                 # (grow_spots declines)
                 (fp, placed, table, PL.Prefer.toward((np.nan, 3.0)), PL.GAP, anchor, True, False),
                 (fp, placed, table, PL.Prefer(points=((np.float32(1.0), 3.0),)), PL.GAP, anchor, True, False),
                 (fp, placed, table, PL.Prefer(points=(("a", 3.0),)), PL.GAP, anchor, True, False),  # (numpy's error)
                 (fp, placed, table, PL.Prefer(points=((1.0, 2.0, 3.0),)), PL.GAP, anchor, True, False)):
        assert KERN.compiled(*args) is None
    with pytest.raises(KeyError):
        KERN.reference(fp, placed, table, PL.Prefer(edge="up"), PL.GAP, anchor, True, False)


@built
def test_the_twins_constant_is_the_rules():
    assert importlib.import_module("sim.rules._compiled.move").PICK_COMPACT == PL.COMPACT
