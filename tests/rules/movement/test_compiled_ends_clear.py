"""03.01 / Part A 13 / 03.04 sim.rules.movement.legality._ends_clear (checks 6-8 of a move find
nothing where the unit's bases end: no other model's base or feature overlapped, no enemy within
engagement range when the move must end unengaged, no two of the unit's own bases overlapping)
and its compiled twin (sim.rules.compiled: ``movement.ends_clear``) give the same answer: seeded
tables of round and hull bodies of both players and light and dense features, units of round
bases, of hulls and of both ending among them, meeting both answers; a base exactly on each
limit and a hair either side of it (a hull's within MOVE_HULL_BAND left to the reference); and
the inputs the twin leaves to the reference. The
words of each breach are the check's own tests' (test_03_01_move_legality.py,
test_03_01_move_check_oracle.py)."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import EPS, ENGAGEMENT_RANGE, Footprint
from sim.rules.movement import legality as ML
from sim.rules.movement.index import TOUCH, Body, BodyIndex, TerrainIndex
from sim.rules.terrain import Feature, TerrainArea

KERN = C.KERNELS["movement.ends_clear"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _round(x, y, d=1.0):
    return Footprint("round", float(x), float(y), d, d)


def _hull(rng, x, y):
    return Footprint("oval" if rng.random() < 0.5 else "rect", float(x), float(y), 3.5, 2.4,
                     float(rng.uniform(0, 360)))


def _table(rng, hulls=0):
    """Bodies of both players (player 1's unit "u" first: round bases, and ``hulls`` hulls in
    its place or beside them), round and hull, and light and dense features."""
    out = [Body(f"a{k:02d}", "u", 1, _round(*rng.uniform(5, 39, size=2), rng.choice([1.0, 1.26])))
           for k in range(int(rng.integers(1, 8)) if hulls < 2 else 0)]
    out += [Body(f"b{k:02d}", "u", 1, _hull(rng, *rng.uniform(5, 39, size=2))) for k in range(hulls)]
    for k in range(int(rng.integers(3, 30))):
        x, y = rng.uniform(0, 44, size=2)
        if rng.random() < 0.25:
            fp = Footprint("oval" if rng.random() < 0.5 else "rect", float(x), float(y), 3.5, 2.4,
                           float(rng.uniform(0, 360)))
        else:
            fp = _round(x, y, rng.choice([1.0, 1.26, 1.57, 1.97]))
        out.append(Body(f"m{k:02d}", f"v{k % 4}", int(k % 2), fp))
    areas = []
    for k in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, 38, size=2)
        w, h = rng.uniform(0.5, 6, size=2)
        poly = ((x, y), (x + w, y), (x + w * 0.7, y + h), (x, y + h * 0.8))
        areas.append(TerrainArea(f"t{k}", poly, (Feature("light" if k % 2 else "dense", poly),)))
    return BodyIndex(out), TerrainIndex(areas)


def _ends(rng, idx: BodyIndex) -> list[Footprint]:
    """The unit's bases moved a few inches each (now and then onto one another)."""
    rows = idx.unit_rows["u"]
    out = []
    for r in rows.tolist():
        f = idx.fps[r]
        step, a = rng.uniform(0, 6), rng.uniform(0, 2 * math.pi)
        out.append(f.moved(f.x + step * math.cos(a), f.y + step * math.sin(a)))
    if len(out) > 1 and rng.random() < 0.2:
        out[1] = out[0].moved(out[0].x + rng.uniform(-1, 1), out[0].y)
    return out


@built
@pytest.mark.parametrize("hulls", [0, 1, 3])
@pytest.mark.parametrize("seed", range(6))
def test_ends_clear_compiled_is_its_reference(seed, hulls):
    """Units of round bases, of one hull beside them and of three hulls."""
    rng = np.random.default_rng(seed)
    met, answered = set(), 0
    for _ in range(60):
        idx, terr = _table(rng, hulls)
        ends = _ends(rng, idx)
        others = idx.others("u")
        for unengaged in (False, True):
            args = (ends, idx, others, terr, 1, unengaged)
            want = KERN.reference(*args)
            got = KERN.compiled(*args)
            if got is not None:
                answered += 1
                assert got is want
                met.add(want)
    assert met == {True, False}
    assert answered >= 100


def _one_against(body: Body, end: Footprint, unengaged=False, areas=()):
    idx = BodyIndex([Body("me", "u", 0, _round(1.0, 1.0)), body])
    return ([end], idx, idx.others("u"), TerrainIndex(list(areas)), 0, unengaged)


@built
@pytest.mark.parametrize("shift", [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 0.5 * TOUCH, -0.5 * TOUCH, 2 * TOUCH,
                                   -2 * TOUCH, 1e-6, -1e-6])
def test_ends_clear_compiled_on_each_limit(shift):
    """A base ending against a round base (the overlap limit, lim - TOUCH), a rectangle's core,
    a feature's edge, an enemy at engagement range, and another of its own unit, each shifted
    by a hair: the reference's answer, or left to it (the bands of the hull and the unit's own)."""
    band = importlib.import_module("sim.rules._compiled.move").MOVE_OVERLAP_BAND
    foe = Body("e", "e", 1, _round(20.0, 20.0))
    rect = Body("h", "e", 1, Footprint("rect", 30.0, 20.0, 4.0, 2.0))
    wall = ((10.0, 40.0), (14.0, 40.0), (14.0, 44.0), (10.0, 44.0))
    cases = [
        _one_against(foe, _round(21.0 - TOUCH + shift, 20.0)),                          # overlap
        _one_against(foe, _round(21.0 + ENGAGEMENT_RANGE + EPS + shift, 20.0), True),   # engagement
        _one_against(rect, _round(27.5 + 1e-7 + shift, 20.0)),                          # the core's side
        _one_against(foe, _round(9.5 + TOUCH + shift, 42.0),
                     areas=[TerrainArea("wall", wall, (Feature("dense", wall),))]),     # the wall's side
    ]
    for i, args in enumerate(cases):
        got = KERN.compiled(*args)
        if i == 2 and abs(shift) <= band:
            assert got is None      # (geometry.overlaps decides a base against a hull there)
        else:
            assert got is KERN.reference(*args)
    # two of the unit's own bases: left to the reference within the band, else its answer
    idx = BodyIndex([Body("me", "u", 0, _round(1.0, 1.0)), Body("me2", "u", 0, _round(3.0, 1.0))])
    ends = [_round(5.0, 5.0), _round(6.0 - 1e-7 + shift, 5.0)]
    args = (ends, idx, idx.others("u"), TerrainIndex([]), 0, False)
    got = KERN.compiled(*args)
    assert got is None if abs(shift) <= 1e-9 else got is KERN.reference(*args)


@built
def test_ends_clear_compiled_declines_what_it_does_not_take():
    args = _one_against(Body("e", "e", 1, _round(20.0, 20.0)), _round(5.0, 5.0), True)
    assert KERN.compiled(*args) is True
    hull = Footprint("oval", 5.0, 5.0, 3.0, 2.0)
    assert KERN.compiled([hull], *args[1:]) is True and KERN.reference([hull], *args[1:]) is True
    assert KERN.compiled([hull.moved(5.0 + 4 * k, 5.0) for k in range(5)], *args[1:]) is None   # (four at most)
    assert KERN.compiled([_round(math.nan, 5.0)], *args[1:]) is None
    assert KERN.compiled([], *args[1:]) is None
    assert KERN.compiled([_round(5.0 + 1.1 * k, 5.0) for k in range(257)], *args[1:]) is None
    assert KERN.compiled(args[0], args[1], args[2].astype(np.int32), *args[3:]) is None
    assert KERN.compiled(args[0], args[1], np.array([9], dtype=np.intp), *args[3:]) is None


def test_ends_clear_compiled_constants_are_the_rules():
    kernels = pytest.importorskip("sim.rules._compiled.move")
    assert kernels.MOVE_OVERLAP_BAND == ML.OVERLAP_BAND
    assert kernels.MOVE_ENGAGEMENT == ENGAGEMENT_RANGE and kernels.MOVE_EPS == EPS


def test_ends_clear_is_every_end_check_finding_nothing():
    """The reference: none of checks 6-8 finds anything, whichever base it is about."""
    args = _one_against(Body("e", "e", 1, _round(20.0, 20.0)), _round(20.5, 20.0))
    assert ML._ends_clear.reference(*args) is False
    far = _one_against(Body("e", "e", 1, _round(20.0, 20.0)), _round(5.0, 5.0), True)
    assert ML._ends_clear.reference(*far) is True
    near = _one_against(Body("e", "e", 1, _round(20.0, 20.0)), _round(22.5, 20.0), True)
    assert ML._ends_clear.reference(*near) is False


@built
@pytest.mark.parametrize("shift", [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 5e-10, -5e-10, 2e-9, -2e-9, 0.5 * TOUCH,
                                   -0.5 * TOUCH, 2 * TOUCH, -2 * TOUCH, 1e-6, -1e-6])
def test_ends_clear_compiled_hull_on_each_limit(shift):
    """A rectangle 4" x 2" ending (its long side along x, its top edge at y = 11) against a round
    base and another rectangle at the overlap limit (1e-7 deep), a dense wall's edge, an enemy
    round base and rectangle at engagement range, and another rectangle of its own unit at the
    overlap limit, each shifted by a hair (inward, ``shift`` < 0): the reference's answer beyond
    MOVE_HULL_BAND, left to it within."""
    band = importlib.import_module("sim.rules._compiled.move").MOVE_HULL_BAND
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)
    disc = Body("e", "e", 1, _round(10.0, 11.5 - 1e-7 + shift))
    rect = Body("h", "e", 1, Footprint("rect", 10.0, 11.5 - 1e-7 + shift, 4.0, 1.0))
    far_disc = Body("e", "e", 1, _round(10.0, 11.5 + ENGAGEMENT_RANGE + EPS + shift))
    far_rect = Body("h", "e", 1, Footprint("rect", 10.0, 11.5 + ENGAGEMENT_RANGE + EPS + shift, 4.0, 1.0))
    wall = ((7.0, 11.0 + shift), (13.0, 11.0 + shift), (13.0, 14.0), (7.0, 14.0))
    cases = [   # (the arguments, where the reference's answer turns)
        (_one_against(disc, me), 0.0),
        (_one_against(rect, me), 0.0),
        (_one_against(far_disc, me, True), 0.0),
        (_one_against(far_rect, me, True), 0.0),
        (_one_against(Body("x", "x", 1, _round(40.0, 40.0)), me,
                      areas=[TerrainArea("wall", wall, (Feature("dense", wall),))]), -TOUCH),
    ]
    idx = BodyIndex([Body("me", "u", 0, _round(1.0, 1.0)), Body("me2", "u", 0, _round(3.0, 1.0))])
    mine = Footprint("rect", 10.0, 11.5 - 1e-7 + shift, 4.0, 1.0)
    cases.append((([me, mine], idx, idx.others("u"), TerrainIndex([]), 0, False), 0.0))
    for i, (args, turns) in enumerate(cases):
        got = KERN.compiled(*args)
        want = KERN.reference(*args)    # (after the twin: it reads the answers the reference keeps)
        if abs(shift) >= 1e-12:
            assert want is (shift >= turns), i   # (the case is at the reference's limit)
        if abs(shift - turns) <= band or (i == 4 and shift <= band):
            assert got is None, i   # (a feature's distance is answered only outside it)
        else:
            assert got is want, i


@built
def test_ends_clear_compiled_reads_the_answers_the_terrain_keeps():
    """A hull's end over a feature, the reference's answer kept on the terrain index
    (legality.HULL_ENDS_KEPT): the twin reads it, and keeps nothing itself."""
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)
    wall = ((7.0, 10.5), (13.0, 10.5), (13.0, 14.0), (7.0, 14.0))
    args = _one_against(Body("x", "x", 1, _round(40.0, 40.0)), me,
                        areas=[TerrainArea("wall", wall, (Feature("dense", wall),))])
    kept = args[3].hull_ends
    assert KERN.compiled(*args) is None and me not in kept    # (0.5" deep: the reference words it)
    assert KERN.reference(*args) is False and kept[me] is not None
    assert KERN.compiled(*args) is False
    kept[me] = None     # (an answer kept is read as it is)
    assert KERN.compiled(*args) is True


@built
def test_ends_clear_compiled_hull_corner_over_a_feature():
    """A rectangle's corner alone over a feature (its centre farther from the feature than its
    sides reach): refused by both; the same corner a little off it, answered clear by both."""
    me = Footprint("rect", 10.0, 10.0, 4.0, 2.0)            # (a corner at (12, 11))
    for dip, want in ((0.1, False), (-0.1, True)):
        c = 12.0 - dip
        wall = ((c, c - 1.0), (c + 4.0, c - 1.0), (c + 4.0, c + 3.0), (c, c + 3.0))
        args = _one_against(Body("x", "x", 1, _round(40.0, 40.0)), me,
                            areas=[TerrainArea("wall", wall, (Feature("dense", wall),))])
        got = KERN.compiled(*args)
        assert KERN.reference(*args) is want and got in (want, None)
        assert got is want or not want     # (a refusal may be the reference's to word)
        if want:
            assert got is True


@built
def test_a_body_index_pickled_or_copied_keeps_no_views():
    """The twin keeps its typed views of a body index in the index's near_memo: a pickled or
    deep-copied index carries none (a view cannot be pickled). A copy's arrays are read again
    (its views made anew); an unpickled index's arrays hold dtype objects of their own, not
    numpy's, which every twin leaves to the reference (common.pxd's _all_of)."""
    import copy
    import pickle
    args = _one_against(Body("e", "e", 1, _round(20.0, 20.0)), _round(5.0, 5.0), True)
    idx = args[1]
    assert KERN.compiled(*args) is True and idx.near_memo.get("compiled views") is not None
    copied, unpickled = copy.deepcopy(idx), pickle.loads(pickle.dumps(idx))
    for other in (copied, unpickled):
        assert other.near_memo.get("compiled views") is None
    assert KERN.compiled(args[0], copied, *args[2:]) is True
    assert copied.near_memo.get("compiled views") is not None
    assert KERN.compiled(args[0], unpickled, *args[2:]) is None
    assert KERN.reference(args[0], unpickled, *args[2:]) is True
