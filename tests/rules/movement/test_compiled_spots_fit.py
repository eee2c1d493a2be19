"""03.02 / 03.03 / Part A ruling 13 sim.rules.movement.solvers.table._spots_fit (the placement
solver's test of the spots for a unit's next model, the region's limits aside: its spacing from
the unit-mates placed so far, 2" of one and 9" of all less SLACK, and clear of the other bases
and the light and dense features) and its compiled twin (sim.rules.compiled:
``movement.spots_fit``) give the same answer to the bit: seeded tables of round bases (an army
added unit by unit) and ruins, spots scattered and on every limit and a hair either side (the
gap, LINK and SPAN to a unit-mate, the clearance to another base, a feature's edge); and the
inputs the twin leaves to the reference (a base that is not round where it looks, another type,
a value that is no number); vehicles' hulls among the other bases, and beside every spot (a
disembark's), measured by farther_than as the reference measures them. The reference against
the tests it is made of: test_spots_fit_is_the_tests_it_names."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint
from sim.rules.movement.index import TOUCH
from sim.rules.movement.kernels import placed_distances
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG
from sim.rules.movement.solvers import table as TB
from sim.rules.movement.solvers.spots import ring
from sim.rules.terrain import Feature, TerrainArea

from twins import twin_answer

KERN = C.KERNELS["movement.spots_fit"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NORTH = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))
SIZES = (25, 32, 40, 50)


def _disc(mm: float, x: float, y: float) -> Footprint:
    return Footprint("round", x, y, mm * MM, mm * MM)


def _table(rng) -> TB._Table:
    areas = []
    for k in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, 50, size=2)
        w, h = rng.uniform(1, 6, size=2)
        poly = ((x, y), (x + w, y), (x + w, y + h), (x + 0.3 * w, y + h))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(str(rng.choice(["light", "dense", "exposed"])), poly, 3.0),)))
    region = [RG.deployment(SOUTH, BOARD), RG.ingress_strip(BOARD, [], NORTH)][int(rng.integers(2))]
    table = TB._Table(region, [], areas, float(rng.choice([PL.CLEARANCE, PL.ARMY_CLEARANCE])))
    for u in range(int(rng.integers(0, 4))):   # (an army's units, added one by one)
        table.add([(f"u{u}-{i}", _disc(float(rng.choice(SIZES)), *rng.uniform(0, [60, 44])))
                   for i in range(int(rng.integers(1, 12)))])
    if rng.random() < 0.5:   # (vehicles' hulls among them: farther_than's to measure, as the reference's)
        table.add([(f"v{i}", _hull(rng).moved(*rng.uniform(0, [60, 44]))) for i in range(int(rng.integers(1, 4)))])
    return table


def _hull(rng) -> Footprint:
    """A vehicle's base at a random angle: an oval or a rectangle."""
    shape = str(rng.choice(["oval", "rect"]))
    return Footprint(shape, 0.0, 0.0, float(rng.uniform(60, 170)) * MM, float(rng.uniform(40, 105)) * MM,
                     float(rng.uniform(0, 180)))


def _unit(rng):
    """A unit's models placed so far (in a loose row) and the next one's base."""
    n = int(rng.integers(0, 6))
    x0, y0 = rng.uniform(5, 50), rng.uniform(5, 35)
    placed = [_disc(float(rng.choice(SIZES)), x0 + 1.6 * k + rng.uniform(0, 0.3), y0 + rng.uniform(-0.5, 0.5))
              for k in range(n)]
    return _disc(float(rng.choice(SIZES)), 0.0, 0.0), placed


def _on_limits(rng, fp, placed, table, gap, k: int) -> np.ndarray:
    """``k`` spots at a limit of some test, each nudged by nothing or a hair."""
    r = 0.5 * fp.length
    out = []
    for _ in range(k):
        ang = rng.uniform(0, 2 * math.pi)
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 3e-8, -3e-8, 2e-7, -2e-7]))
        kind = int(rng.integers(0, 3))
        if kind == 0 and placed:
            o = placed[int(rng.integers(len(placed)))]
            d = r + 0.5 * o.length + float(rng.choice([gap - 1e-9, TB.LINK, TB.SPAN])) + nudge
            out.append((o.x + d * math.cos(ang), o.y + d * math.sin(ang)))
        elif kind == 1 and table.others:
            o = table.others[int(rng.integers(len(table.others)))][1]
            d = r + 0.5 * o.length + table.clearance - 1e-9 + nudge
            out.append((o.x + d * math.cos(ang), o.y + d * math.sin(ang)))
        elif kind == 2 and len(table.terr.no_end):   # (below a feature's first side, the grown radius less TOUCH off)
            es = table.terr.no_end
            e = int(es.starts[int(rng.integers(len(es)))])
            rg = 0.5 * (fp.length + 2 * RG.SLACK)
            out.append((es.vx[e] + 0.5 * es.ex[e], es.vy[e] - (rg - TOUCH) - nudge))
        else:
            out.append(tuple(rng.uniform(0, [60, 44])))
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(8))
def test_spots_fit_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(40):
        table = _table(rng)
        fp, placed = _unit(rng)
        gap = float(rng.choice([PL.GAP, 0.5]))
        c = np.vstack([rng.uniform(-1, [61, 45], size=(int(rng.integers(0, 30)), 2)),
                       _on_limits(rng, fp, placed, table, gap, int(rng.integers(0, 20)))])
        for args in ((fp, c, placed, table, gap), (fp, c, (), table, 0.0)):
            want = twin_answer(KERN, *args)
            seen.update(want.tolist())
    assert seen == {True, False}
    move = importlib.import_module("sim.rules._compiled.move")
    assert (move.FIT_LINK, move.FIT_SPAN, move.FIT_SLACK) == (TB.LINK, TB.SPAN, RG.SLACK)


@built
def test_spots_fit_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(4)
    table = TB._Table(RG.deployment(SOUTH, BOARD), [("o", _disc(32, 10.0, 5.0))], (), PL.CLEARANCE)
    fp, placed = _disc(32, 0.0, 0.0), [_disc(32, 12.0, 6.0)]
    c = rng.uniform(8, 14, size=(10, 2))
    oval = Footprint("oval", 0.0, 0.0, 90 * MM, 52 * MM, 30.0)
    assert KERN.compiled(fp, c, placed, table, PL.GAP) is not None
    assert KERN.compiled(oval, c, placed, table, PL.GAP) is None
    assert KERN.compiled(fp, c, [oval.moved(12.0, 6.0)], table, PL.GAP) is None
    assert KERN.compiled(fp, c.astype(np.float32), placed, table, PL.GAP) is None
    assert KERN.compiled(fp, c, placed, table, 1) is None   # (an int gap: numpy's arithmetic)
    negative = Footprint("round", 0.0, 0.0, -3.0, 1.0)       # (no footprint() makes one: the reference's)
    assert KERN.compiled(negative, c, (), table, 0.0) is None
    bad = c.copy()
    bad[2, 0] = np.inf
    assert KERN.compiled(fp, bad, placed, table, PL.GAP) is None
    table.add([("v", oval.moved(11.0, 9.0))])               # (a hull near the spots: farther_than's, taken)
    assert C._same_bits(KERN.compiled(fp, c, placed, table, PL.GAP), KERN.reference(fp, c, placed, table, PL.GAP))
    far = np.array([[40.0, 5.0], [45.0, 6.0]])
    assert KERN.compiled(fp, far, [], table, PL.GAP) is not None


@built
@pytest.mark.parametrize("seed", range(4))
def test_spots_fit_compiled_beside_a_hull_is_its_reference_to_the_bit(seed):
    """A disembark's spots round its transport: a hull beside every spot, round bases about it,
    spots scattered round the hull and on the clearance to it and a hair either side (farther_than's
    measure, on the spots the round bases leave, as _Table.clear takes them)."""
    rng = np.random.default_rng(100 + seed)
    seen = set()
    for _ in range(12):
        hull = _hull(rng).moved(30.0, 22.0)
        table = TB._Table(RG.deployment(SOUTH, BOARD), [("ship", hull)], (), float(rng.choice([PL.CLEARANCE, 0.5])))
        table.add([(f"r{i}", _disc(float(rng.choice(SIZES)), *(np.array([30.0, 22.0]) + rng.uniform(-6, 6, 2))))
                   for i in range(int(rng.integers(0, 8)))])
        fp, _placed = _unit(rng)
        ang = rng.uniform(0, 2 * math.pi, size=24)
        reach = hull.bounding_radius + 0.5 * fp.length + rng.uniform(-0.5, 1.5, size=24)
        c = np.column_stack([30.0 + reach * np.cos(ang), 22.0 + reach * np.sin(ang)])
        # (and spots where the base stands the clearance from the hull, and a hair either side)
        on = [ring(fp, hull, table.clearance - 1e-9 + nudge, 12) for nudge in (0.0, 1e-12, -1e-12, 3e-8, -3e-8)]
        c = np.vstack([c] + on)
        placed = [_disc(32, float(c[0, 0]) + 1.2, float(c[0, 1]))]
        for args in ((fp, c, placed, table, PL.GAP), (fp, c, (), table, 0.0)):
            want = twin_answer(KERN, *args)
            assert want is not None
            seen.update(want.tolist())
    assert seen == {True, False}


def test_spots_fit_is_the_tests_it_names():
    """The reference (what every mode answers: ``reference`` here) is, spot by spot: gap or
    more from each placed unit-mate, within LINK of one and SPAN of all (placed_distances), and
    then ``_Table.clear`` of the spots left."""
    rng = np.random.default_rng(9)
    for _ in range(30):
        table = _table(rng)
        fp, placed = _unit(rng)
        c = rng.uniform(0, [60, 44], size=(int(rng.integers(1, 40)), 2))
        want = np.ones(len(c), dtype=bool)
        if placed:
            d = placed_distances(fp, c, placed)
            want = (d.min(axis=1) >= PL.GAP - 1e-9) & (d.min(axis=1) <= TB.LINK) & (d.max(axis=1) <= TB.SPAN)
        sel = np.flatnonzero(want)
        want[sel] = table.clear(fp, c[sel])
        assert KERN.reference(fp, c, placed, table, PL.GAP).tolist() == want.tolist()
    assert (TB.LINK, TB.SPAN) == (2.0 - RG.SLACK, 9.0 - RG.SLACK)


@built
def test_spots_fit_compiled_beyond_the_span_and_at_exact_ties():
    """Spots past the far end of a row of unit-mates (within 2" of the last, more than 9" from
    the first) and along it; a spot whose measured clearance is exactly the limit (a 3-4-5
    triangle: hypot gives 5 exactly, and 3 less the other's radius is the limit exactly), and a
    float either side of it."""
    table = TB._Table(RG.deployment(SOUTH, BOARD), [], (), PL.CLEARANCE)
    row = [_disc(32, 5.0 + 1.4 * k, 20.0) for k in range(7)]     # (8.4" centre to centre)
    c = np.stack([np.linspace(3.0, 18.0, 301), np.full(301, 20.0 + 32 * MM + 0.2)], axis=1)
    want = KERN.reference(row[0], c, row, table, PL.GAP)
    assert C._same_bits(KERN.compiled(row[0], c, row, table, PL.GAP), want)
    d = placed_distances(row[0], c, row)
    assert want.any() and ((d.min(axis=1) <= TB.LINK) & (d.max(axis=1) > TB.SPAN)).any()
    g2 = 2.0 - 1e-9                      # (a clearance of 2": its limit, less the hair)
    orad = 3.0 - g2                      # (exact: 3 - orad is g2 again)
    assert 3.0 - orad == g2
    other = Footprint("round", 0.0, 0.0, 2 * orad, 2 * orad)
    wide = TB._Table(RG.deployment(SOUTH, BOARD), [("o", other)], (), 2.0)
    fp = Footprint("round", 0.0, 0.0, 4.0, 4.0)
    for x in (3.0, float(np.nextafter(3.0, 0.0)), float(np.nextafter(3.0, 9.0))):
        spot = np.array([[x, 4.0]])
        want = KERN.reference(fp, spot, (), wide, 0.0)
        assert C._same_bits(KERN.compiled(fp, spot, (), wide, 0.0), want)
    assert KERN.reference(fp, np.array([[3.0, 4.0]]), (), wide, 0.0).tolist() == [True]
