"""03.02 sim.rules.movement.solvers.placement._grow_spots (the candidate spots for a unit's next
model as the placement solver grows a set-up: rings round the models placed, the spots touching
two of them or one and a side, the rings round the bases near them, the region's own spots for a
base set up against an edge) and its compiled twin (sim.rules.compiled: ``movement.grow_spots``)
give the same spots to the bit and in the same order: seeded clumps of round bases against the
zone's sides and the battlefield's edges, in a deployment zone (notched too), an ingress strip
and a zone too shallow for the base (03.02.02's edge), tight and loose, round and square; pairs
touching exactly and apart; vehicles' hulls near them (every near base's contact ring then the
reference's own expression); and what the twin leaves to the reference. (That the reference is
the plain reading: tests/rules/movement/test_03_02_setup_spots_kept.py.)"""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base
from test_03_02_setup_spots_kept import _packed
from twins import twin_answer

KERN = C.KERNELS["movement.grow_spots"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NOTCHED = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (30.0, 12.0), (30.0, 8.0), (0.0, 8.0))
SHALLOW = ((0.0, 0.0), (60.0, 0.0), (60.0, 1.0), (0.0, 1.0))
NORTH = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))
SLANTED = ((0.0, 0.0), (60.0, 0.0), (40.0, 14.0), (0.0, 20.0))   # (sides whose lines are not the axes)


def _case(rng, seed: int):
    kind = seed % 5
    size = float(rng.choice([25, 32, 40, 60]))
    if kind == 4:   # (a zone with slanted sides: the foot of a centre on a side's line is a matrix
        # product's, whose bits differ from the plain sum of the two products on ~1 spot in 4)
        region = RG.deployment(SLANTED, BOARD)
    elif kind == 3:   # (a zone too shallow for the base: 03.02.02, set up touching the edge, with seeds)
        size = float(rng.choice([40, 60]))
        region = RG.deployment(SHALLOW, BOARD)
    elif kind == 2:
        region = RG.ingress_strip(BOARD, [random_base(rng, *rng.uniform(0, 60, size=2)) for _ in range(5)], NORTH)
    else:
        region = RG.deployment((SOUTH, NOTCHED)[kind], BOARD)
    others = [(f"r{i}", Footprint("round", *rng.uniform(0, [60, 14]), s * MM, s * MM))
              for i, s in enumerate(rng.choice([25, 32, 40], size=int(rng.integers(0, 30))))]
    if seed % 3 == 1:   # (vehicles' hulls among them: every near base's ring then, as the reference makes them)
        others += [(f"v{i}", Footprint(str(rng.choice(["oval", "rect"])), *rng.uniform(0, [60, 14]),
                                       float(rng.uniform(60, 170)) * MM, float(rng.uniform(40, 105)) * MM,
                                       float(rng.uniform(0, 180)))) for i in range(int(rng.integers(1, 4)))]
    table = PL._Table(region, others, (), float(rng.choice([PL.CLEARANCE, PL.ARMY_CLEARANCE])))
    fp = Footprint("round", 0.0, 0.0, size * MM, size * MM)
    placed = _packed(rng, fp, int(rng.integers(1, 9)), *rng.uniform([1.0, 0.6], [58.0, 3.0]))
    if kind == 4:   # (along the slanted side, the next base's reach off it)
        t = rng.uniform(0.1, 0.9)
        x, y = 60.0 - 20.0 * t, 14.0 * t
        placed = _packed(rng, fp, int(rng.integers(1, 9)), x - 1.2, y - 0.8)
    # (unit-mates of other sizes among them: pairs whose two radii differ)
    placed = [p if rng.random() < 0.6 else Footprint("round", p.x, p.y, m * MM, m * MM)
              for p, m in zip(placed, rng.choice([25, 32, 40, 50], size=len(placed)))]
    return fp, placed, table


@built
@pytest.mark.parametrize("seed", range(20))
def test_grow_spots_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    fp, placed, table = _case(rng, seed)
    n = 0
    for tight in (True, False):
        for square in (False, True):
            for gap in (PL.GAP, 0.5):
                args = (fp, placed, table, gap, tight, square)
                want = twin_answer(KERN, *args)
                n += len(want)
    assert n
    assert C._same_bits(KERN.compiled(fp, placed, table, PL.GAP, True), KERN.reference(fp, placed, table, PL.GAP, True))
    assert importlib.import_module("sim.rules._compiled.move").GROW_LOOSE == PL.LOOSE


@built
def test_grow_spots_compiled_at_pairs_touching_and_apart():
    """Two placed models, of one size and of two, whose rings at the gap meet at one point
    (exactly tangent, outside or inside: the spot between them), cross, or miss (too far, or one
    inside the other's), each a float either side; at several angles."""
    table = PL._Table(RG.deployment(SOUTH, BOARD), [], (), PL.CLEARANCE)
    fp = Footprint("round", 0.0, 0.0, 1.0, 1.0)
    for r1, r2 in ((0.5, 0.5), (0.5, 1.2), (1.2, 0.5), (0.3, 2.5)):   # (equal radii, and unequal either way)
        R1, R2 = (r1 + 0.5) + PL.GAP, (r2 + 0.5) + PL.GAP
        for d0 in (R1 + R2, abs(R1 - R2), 1.3, 3.0, 1e-12, 0.0):    # (tangent outside, inside, crossing, apart)
            for d in (d0, float(np.nextafter(d0, 0.0)), float(np.nextafter(d0, 9.0))):
                for ang in (0.0, 0.3, 2.0):
                    placed = [Footprint("round", 5.0, 3.0, 2 * r1, 2 * r1),
                              Footprint("round", 5.0 + d * math.cos(ang), 3.0 + d * math.sin(ang), 2 * r2, 2 * r2)]
                    args = (fp, placed, table, PL.GAP, True, False)
                    assert C._same_bits(KERN.compiled(*args), KERN.reference(*args)), (r1, r2, d, ang)


@built
def test_grow_spots_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(2)
    fp, placed, table = _case(rng, 0)
    oval = Footprint("oval", 0.0, 0.0, 90 * MM, 52 * MM, 30.0)
    assert KERN.compiled(fp, placed, table, PL.GAP, True) is not None
    assert KERN.compiled(oval, [oval.moved(p.x, p.y) for p in placed], table, PL.GAP, True) is None
    assert KERN.compiled(fp, placed + [oval.moved(30.0, 6.0)], table, PL.GAP, True) is None
    assert KERN.compiled(fp, placed, table, 1, True) is None            # (an int gap: numpy's arithmetic)
    assert KERN.compiled(fp, [], table, PL.GAP, True) is None
    assert KERN.compiled(fp, [fp.moved(math.inf, 3.0)], table, PL.GAP, True) is None
    f32 = Footprint("round", np.float32(5.0), np.float32(3.0), np.float32(1.0), np.float32(1.0))
    assert KERN.compiled(fp, [f32], table, PL.GAP, True) is None     # (float32: the reference's arrays compute in it)
    near = placed[0]
    table.add([("hull", oval.moved(near.x + 2.0, near.y + 1.0))])      # (a hull near: every near base's ring, taken)
    for tight in (True, False):  # (loose: no contact rings)
        assert C._same_bits(KERN.compiled(fp, placed, table, PL.GAP, tight), KERN.reference(fp, placed, table, PL.GAP, tight))


@built
def test_grow_spots_compiled_with_a_model_exactly_its_reach_from_a_side():
    """A placed model whose centre is exactly its reach (its radius, the next base's and the
    gap) from a side's line, and a float either side of it: the spots touching it and the side
    are made at the limit and not past it, as the reference makes them."""
    table = PL._Table(RG.deployment(SOUTH, BOARD), [], (), PL.CLEARANCE)
    fp = Footprint("round", 0.0, 0.0, 1.0, 1.0)
    R = (0.5 + 0.5) + PL.GAP
    a0, t = next((a, t) for a, t in table.rule(fp).lines() if t[1] == 0.0)   # (a side along x)
    met = 0
    for y in (float(a0[1]) + R, float(a0[1]) - R):
        for k in range(-40, 41):   # (a float either side, until its offset is exactly R)
            yy = float(y + k * np.spacing(y))
            if abs((20.0 - a0[0]) * t[1] - (yy - a0[1]) * t[0]) != R:
                continue
            for dy in (yy, float(np.nextafter(yy, 0.0)), float(np.nextafter(yy, 99.0))):
                args = (fp, [fp.moved(20.0, dy)], table, PL.GAP, True, False)
                assert C._same_bits(KERN.compiled(*args), KERN.reference(*args))
            met += 1
            break
    assert met


@built
@pytest.mark.parametrize("seed", range(6))
def test_grow_spots_compiled_beside_a_hull_is_its_reference_to_the_bit(seed):
    """A unit growing round its transport (a disembark): a vehicle's hull among the bases near the
    models placed, so the contact rings are every near base's ring (the reference's expression),
    round bases near too; tight and loose, round and square packings."""
    rng = np.random.default_rng(200 + seed)
    hull = Footprint(str(rng.choice(["oval", "rect"])), 30.0, 6.0, float(rng.uniform(90, 170)) * MM,
                     float(rng.uniform(50, 105)) * MM, float(rng.uniform(0, 180)))
    others = [("ship", hull)] + [(f"r{i}", Footprint("round", *(np.array([30.0, 6.0]) + rng.uniform(-5, 5, 2)),
                                                      32 * MM, 32 * MM)) for i in range(int(rng.integers(0, 6)))]
    table = PL._Table(RG.deployment(SOUTH, BOARD), others, (), PL.CLEARANCE)
    bare = PL._Table(RG.deployment(SOUTH, BOARD), others[1:], (), PL.CLEARANCE)
    fp = Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM)
    edge = hull.bounding_radius + 0.6
    placed = _packed(rng, fp, int(rng.integers(1, 6)), 30.0 + edge, 6.0 + rng.uniform(-1.0, 1.0))
    for tight in (True, False):
        for square in (False, True):
            want = twin_answer(KERN, fp, placed, table, PL.GAP, tight, square)
            if tight:  # (the hull's ring among them: the answer is not the one without the hull)
                assert not C._same_bits(want, KERN.reference(fp, placed, bare, PL.GAP, tight, square))
