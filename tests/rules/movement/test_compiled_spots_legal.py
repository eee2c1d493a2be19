"""03.01 / Part A ruling 13 / 03.03 sim.rules.movement.solvers.place._spots_legal (the end tests
``Placer.find`` makes of a chunk of candidate spots for one model of a charge, pile-in or
consolidation: no other body, no unit-mate where it stands, no light or dense feature, and
coherency with the models it must stay with) and its compiled twin (sim.rules.compiled:
``movement.spots_legal``) give the same answer to the bit: seeded tables of round bases and
features with candidates scattered and on every limit (a base's overlap, a unit-mate's, a
feature's edge, 2" and 9" to the fixed models) and a hair either side; fixed models in one
group, in several, and spread beyond 9"; vehicles' hulls among the bodies, spots on the exact
overlap with one (bisected to its last bit) and a hair either side; and the inputs the twin
leaves to the reference (a base to place that is not round, a hull among the unit-mates or the
fixed models, another type, a value that is no number, and fixed models linked one way only by
a rounding). The reference against the tests it is made of:
test_spots_legal_is_the_tests_it_names."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules import geometry as G
from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN
from sim.rules.movement.index import TOUCH, Body, BodyIndex, TerrainIndex
from sim.rules.movement.legality import feature_mask, overlap_mask, placed_overlaps
from sim.rules.movement.solvers import place as PLACE
from sim.rules.terrain import Feature, TerrainArea

from limits import spots_on_limits
from random_bases import random_base
from twins import checked_in_players_battles, twin_answer

KERN = C.KERNELS["movement.spots_legal"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
RADII = (0.49, 0.63, 0.79, 1.0)   # (25, 32, 40 and 50 mm bases' radii, near enough)


def _disc(r: float, x: float, y: float) -> G.Footprint:
    return G.footprint("round", x, y, 2 * r, 2 * r)


def _terrain(rng, n: int) -> TerrainIndex:
    areas = []
    for k in range(n):
        x, y = rng.uniform(0, 30, size=2)
        w, h = rng.uniform(0.5, 5, size=2)
        poly = ((x, y), (x + w, y), (x + w * 0.7, y + h), (x, y + h * 0.8))
        kind = str(rng.choice(["light", "dense", "exposed"]))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(kind, poly, height=3.0),)))
    return TerrainIndex(areas)


def _scene(rng):
    """A table of round bases (the unit moving is ``u0``, two enemy units), its terrain, one
    model's base, unit-mates where they stand and the fixed models (some of the mates)."""
    bodies = []
    for i in range(int(rng.integers(1, 30))):
        bodies.append(Body(f"m{i:02d}", f"u{i % 3}", int(i % 3 > 0),
                           _disc(float(rng.choice(RADII)), *rng.uniform(0, 34, size=2))))
    idx = BodyIndex(bodies)
    mates = [b.fp for b in bodies if b.unit == "u0"][1:]
    n = int(rng.integers(0, len(mates) + 1))
    fixed = [mates[k] for k in sorted(rng.choice(len(mates), size=n, replace=False))] if n else []
    if fixed and rng.random() < 0.5:   # (the fixed models brought together: one group, or two)
        base = fixed[0]
        fixed = [base] + [_disc(0.5 * f.length, base.x + 1.2 * (k + 1) * (1 + 3 * (k % 2) * (rng.random() < 0.5)),
                                base.y) for k, f in enumerate(fixed[1:])]
    fp = _disc(float(rng.choice(RADII)), 0.0, 0.0)
    others = np.flatnonzero([b.unit != "u0" or rng.random() < 0.3 for b in bodies])
    return fp, idx, others, mates, _terrain(rng, int(rng.integers(0, 6))), fixed


def _on_limits(rng, fp, idx, others, mates, terr, fixed, k: int) -> np.ndarray:
    """``k`` spots at a limit of some test, each nudged by nothing or a hair."""
    r = 0.5 * fp.length
    out = []
    for _ in range(k):
        ang = rng.uniform(0, 2 * math.pi)
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 3e-8, -3e-8]))
        kind = int(rng.integers(0, 5))
        es = terr.no_end
        if kind == 4 and len(es):   # (below the first side of a light or dense feature, r less TOUCH off)
            p = int(rng.integers(len(es)))
            e = int(es.starts[p])
            out.append((es.vx[e] + 0.5 * es.ex[e], es.vy[e] - (r - TOUCH) - nudge))
            continue
        if kind == 0 and len(others):
            o = idx.fps[int(rng.choice(others))]
            d = (r + 0.5 * o.length) - TOUCH + nudge
        elif kind == 1 and mates:
            o = mates[int(rng.integers(len(mates)))]
            d = (r + 0.5 * o.length) - TOUCH + nudge
        elif kind == 2 and fixed:
            o = fixed[int(rng.integers(len(fixed)))]
            d = r + 0.5 * o.length + float(rng.choice([COHERENCY_LINK, COHERENCY_SPAN])) + 1e-9 + nudge
        else:
            o = idx.fps[int(rng.integers(len(idx)))]
            d = rng.uniform(0, 4)
        out.append((o.x + d * math.cos(ang), o.y + d * math.sin(ang)))
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(8))
def test_spots_legal_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(60):
        fp, idx, others, mates, terr, fixed = _scene(rng)
        c = np.vstack([rng.uniform(-1, 35, size=(int(rng.integers(0, 20)), 2)),
                       _on_limits(rng, fp, idx, others, mates, terr, fixed, int(rng.integers(0, 12)))])
        args = (fp, c, idx, others, mates, terr, fixed)
        want = twin_answer(KERN, *args)
        seen.update(want.tolist())
    assert seen == {True, False}


@built
def test_spots_legal_compiled_with_fixed_models_apart_and_grouped():
    """Fixed models in two groups (a spot must be within 2" of each), one group, and spread
    beyond 9" (no spot keeps them coherent): spots along a line through them, at every step."""
    idx = BodyIndex([Body("e", "v", 1, _disc(0.63, 40.0, 40.0))])
    fp = _disc(0.63, 0.0, 0.0)
    line = np.stack([np.linspace(0, 20, 401), np.full(401, 5.0)], axis=1)
    for gap in (1.0, 3.5, 7.0, 8.0):
        fixed = [_disc(0.63, 5.0, 5.0), _disc(0.63, 5.0 + 1.26 + gap, 5.0)]
        args = (fp, line, idx, np.array([0]), [], TerrainIndex([]), fixed)
        want = KERN.reference(*args)
        assert C._same_bits(KERN.compiled(*args), want)
        assert want.any() == (gap <= 2 * COHERENCY_LINK)   # (two groups: a spot between, within 2" of both)
    # (a chain of models 1.9" apart, one group 10.6" long: no spot keeps them within 9", though
    # spots near its middle are within 9" of each and 2" of one)
    chain = [_disc(0.5, 2.9 * k, 5.0) for k in range(5)]
    near_middle = np.array([[5.8, 6.5], [5.0, 6.0], [6.5, 6.2]])
    for fixed in (chain, chain[:4]):
        args = (fp, near_middle, idx, np.array([0]), [], TerrainIndex([]), fixed)
        want = KERN.reference(*args)
        assert C._same_bits(KERN.compiled(*args), want)
        assert want.all() == (fixed is not chain) and want.any() == (fixed is not chain)


def _on_hull_limits(rng, fp, hulls, k: int) -> np.ndarray:
    """``k`` spots of ``fp`` where its overlap with some hull of ``hulls`` is TOUCH (the edge
    distance r - TOUCH from the core: placed_overlaps' limit, bisected along a seeded direction
    out from the hull to its last bit), nudged by nothing or a hair."""
    return spots_on_limits(rng, hulls, k, lambda o, p: bool(placed_overlaps(fp, p[None, :], [o])[0]),
                           lambda o: o.bounding_radius + fp.bounding_radius + 1.0,
                           [0.0, 0.0, 1e-12, -1e-12, 3e-8, -3e-8])


@built
@pytest.mark.parametrize("seed", range(6))
def test_spots_legal_compiled_among_hulls(seed):
    """Vehicles' hulls among the bodies (a charge or a pile-in beside a tank): the twin measures
    each as placed_overlaps measures a round base against it, to the bit, on the exact overlap
    and a hair either side."""
    rng = np.random.default_rng(40 + seed)
    seen = set()
    for _ in range(40):
        fp, idx, others, mates, terr, fixed = _scene(rng)
        hulls = [random_base(rng, *rng.uniform(0, 34, size=2), kinds=2) for _ in range(int(rng.integers(1, 5)))]
        bodies = list(idx.bodies) + [Body(f"v{i}", "uv", 1, h) for i, h in enumerate(hulls)]
        idx = BodyIndex(bodies)
        others = np.concatenate([others, np.arange(len(bodies) - len(hulls), len(bodies))])
        c = np.vstack([rng.uniform(-1, 35, size=(int(rng.integers(0, 20)), 2)),
                       _on_limits(rng, fp, idx, others, mates, terr, fixed, int(rng.integers(0, 8))),
                       _on_hull_limits(rng, fp, hulls, int(rng.integers(1, 12)))])
        seen.update(twin_answer(KERN, fp, c, idx, others, mates, terr, fixed).tolist())
    assert seen == {True, False}


@built
def test_spots_legal_compiled_declines_what_it_does_not_take():
    rng = np.random.default_rng(3)
    fp, idx, others, mates, terr, fixed = _scene(rng)
    c = rng.uniform(0, 34, size=(10, 2))
    hull = G.footprint("oval", 0.0, 0.0, 2.0, 1.2)
    assert KERN.compiled(hull, c, idx, others, mates, terr, fixed) is None
    assert KERN.compiled(fp, c.astype(np.float32), idx, others, mates, terr, fixed) is None
    assert KERN.compiled(fp, c, idx, others.astype(np.int32), mates, terr, fixed) is None
    bad = c.copy()
    bad[3, 1] = np.nan
    assert KERN.compiled(fp, bad, idx, others, mates, terr, fixed) is None
    # (a hull among the bodies near the spots, among the unit-mates, among the fixed models)
    near = BodyIndex([Body("t", "v", 1, G.footprint("rect", 5.0, 5.0, 3.0, 2.0, 30.0))])
    spots = np.array([[5.0, 7.5], [30.0, 30.0]])
    on = np.array([[5.0, 6.0], [30.0, 30.0]])   # (its first spot on the hull)
    for at in (spots, on):   # (taken: measured as placed_overlaps measures it)
        args = (fp, at, near, np.array([0]), [], TerrainIndex([]), [])
        assert C._same_bits(KERN.compiled(*args), KERN.reference(*args))
    assert KERN.compiled(fp, on, near, np.array([0]), [], TerrainIndex([]), []).tolist() == [False, True]
    point = G.Footprint("round", 0.0, 0.0, 0.0, 0.0)   # (no radius: placed_overlaps' other test)
    assert KERN.compiled(point, on, near, np.array([0]), [], TerrainIndex([]), []) is None
    empty = BodyIndex([Body("e", "v", 1, _disc(0.5, 60.0, 60.0))])
    assert KERN.compiled(fp, spots, empty, np.array([0]), [hull.moved(6.0, 6.0)], TerrainIndex([]), []) is None
    assert KERN.compiled(fp, spots, empty, np.array([0]), [], TerrainIndex([]),
                         [_disc(0.5, 6.0, 7.0), hull.moved(6.0, 6.0)]) is None
    assert KERN.compiled(fp, spots, empty, np.array([3]), [], TerrainIndex([]), []) is None   # (no row 3)


@built
def test_spots_legal_compiled_declines_fixed_models_linked_one_way_only():
    """Two fixed models whose distance, measured from one and from the other, falls on either
    side of 2" by a rounding: the reference's closure of the links is not a partition there."""
    r1, r2, s = 0.7874015748031497, 0.49, 3.27740157580315   # (a 40 mm base and a 25 mm one)
    a, b = _disc(r1, 0.0, 1.0), _disc(r2, s, 1.0)
    dm = G.distance_matrix([a, b], [a, b])
    assert dm[0, 1] <= COHERENCY_LINK + 1e-9 < dm[1, 0]
    x = 1.0
    idx = BodyIndex([Body("e", "v", 1, _disc(0.5, 60.0, 60.0))])
    args = (_disc(0.5, 0.0, 0.0), np.array([[x, 2.5]]), idx, np.array([0]), [], TerrainIndex([]), [a, b])
    assert KERN.compiled(*args) is None


def test_spots_legal_is_the_tests_it_names():
    """The reference (what every mode answers: ``reference`` here) is, spot by spot, no overlap
    with the other bodies (overlap_mask), nor with the unit-mates (placed_overlaps), nor with a
    light or dense feature (feature_mask), and, with fixed models, coherency with them: within 9"
    of each and within 2" of one of each of their 2" groups."""
    rng = np.random.default_rng(21)
    for _ in range(40):
        fp, idx, others, mates, terr, fixed = _scene(rng)
        c = rng.uniform(-1, 35, size=(int(rng.integers(1, 25)), 2))
        got = KERN.reference(fp, c, idx, others, mates, terr, fixed)
        want = ~overlap_mask(fp, c, idx, others) & ~placed_overlaps(fp, c, mates) & ~feature_mask(fp, c, terr)
        if fixed:
            d = G.distance_matrix([fp.moved(x, y) for x, y in c], fixed)
            dm = G.distance_matrix(fixed, fixed)
            coherent = (d <= COHERENCY_SPAN + 1e-9).all(axis=1) & (dm.max() <= COHERENCY_SPAN + 1e-9)
            # (the 2" groups, by hand: who reaches whom in steps of 2")
            group = list(range(len(fixed)))
            for _pass in fixed:
                for i in range(len(fixed)):
                    for j in range(len(fixed)):
                        if dm[i, j] <= COHERENCY_LINK + 1e-9:
                            group[i] = group[j] = min(group[i], group[j])
            for g in set(group):
                cols = [i for i in range(len(fixed)) if group[i] == g]
                coherent &= (d[:, cols] <= COHERENCY_LINK + 1e-9).any(axis=1)
            want &= coherent
        assert got.tolist() == want.tolist()
    assert PLACE._spots_legal is KERN


@built
def test_spots_legal_compiled_in_the_players_battles():
    """The default players' charges, pile-ins and consolidations on the default table call it
    more than a replay does (the golden replays compare its few calls in their scenarios'
    "if possible" checks): four whole battles in ``check`` mode, every call compared (a
    difference raises), and enough of them answered by the twin to mean something."""
    assert checked_in_players_battles(KERN) > 50
