"""03.01 / 13.06 sim.rules.movement.legality._straight_paths_clear (a base dragged in a straight
line from where it stands to each of many ends clears every blocking base and every dense
feature it may not cross: the solvers' test of their best-ranked spots) and its compiled twin
(sim.rules.compiled: ``movement.straight_paths_clear``) give the same answer to the bit: seeded
tables of round bases and dense features of several heights, every crossing allowance, ends
scattered and ends whose segment passes a base or a feature exactly at the limit (the radii less
TOUCH) and a hair either side, segments of no length; and what the twin leaves to the reference
(a base that is not round, a hull near the path, another type, a value that is no number). (That
the reference is the path check's own answer: tests/rules/movement/test_03_01_move_legality.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, round_base
from sim.rules.movement.index import TOUCH, Body, BodyIndex, TerrainIndex
from sim.rules.movement.legality import blocking_rows, straight_paths_clear
from sim.rules.terrain import Feature, TerrainArea

from twins import checked_in_players_battles, twin_answer

KERN = C.KERNELS["movement.straight_paths_clear"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _terrain(rng) -> TerrainIndex:
    areas = []
    for k in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, 36, size=2)
        w, h = rng.uniform(0.5, 5, size=2)
        poly = ((x, y), (x + w, y), (x + w * 0.8, y + h), (x, y + h))
        kind = str(rng.choice(["dense", "dense", "light"]))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(kind, poly, float(rng.choice([1.5, 3.0, 6.0]))),)))
    return TerrainIndex(areas)


def _grazing(rng, s, r, idx, blockers, terr, k: int) -> np.ndarray:
    """``k`` ends whose segment from ``s`` passes a blocker (its centre at the radii less TOUCH
    from the segment's line) or a dense feature's first corner so (at the radius less TOUCH),
    nudged by a hair; the end beyond the point, at its foot, or short of it (the point then
    nearest the segment's end)."""
    out = []
    dense = terr.dense
    for _ in range(k):
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-8, -1e-8]))
        if len(blockers) and rng.random() < 0.6:
            j = int(rng.choice(blockers))
            p, lim = idx.centres[j], r + idx.radius[j] - TOUCH + nudge
        elif len(dense):
            e0 = int(dense.starts[int(rng.integers(len(dense)))])
            p, lim = np.array([dense.vx[e0], dense.vy[e0]]), r - TOUCH + nudge
        else:
            out.append(rng.uniform(0, 40, size=2))
            continue
        v = p - s
        L = math.hypot(*v)
        if L <= abs(lim) + 1e-6:
            out.append(s + 1.0)
            continue
        # (turned off v by the angle whose sine is lim / L: the line passes p at lim; the end
        # beyond p, or short of it so that p is nearest the end itself)
        phi = math.atan2(v[1], v[0]) + float(rng.choice([1, -1])) * math.asin(lim / L)
        reach = L * math.cos(math.asin(lim / L)) * float(rng.choice([2.0, 1.0, 0.7]))
        out.append(s + reach * np.array([math.cos(phi), math.sin(phi)]))
    return np.array(out, dtype=float).reshape(-1, 2)


@built
@pytest.mark.parametrize("seed", range(8))
def test_straight_paths_clear_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(30):
        fp = round_base(int(rng.choice([25, 32, 40, 60])), *rng.uniform(5, 35, size=2))
        bodies = [Body("a/0", "a", 0, fp)] + [
            Body(f"{u}/{k}", u, int(u == "e"), round_base(int(rng.choice([25, 32, 40])), *rng.uniform(0, 40, size=2)))
            for u in ("b", "e") for k in range(int(rng.integers(0, 12)))]
        idx = BodyIndex(bodies)
        terr = _terrain(rng)
        blockers = blocking_rows(idx, 0, False, ())
        s = np.array([fp.x, fp.y])
        ends = np.vstack([rng.uniform(0, 40, size=(int(rng.integers(0, 15)), 2)),
                          _grazing(rng, s, 0.5 * fp.length, idx, blockers, terr, int(rng.integers(0, 12))),
                          s[None, :]])   # (a segment of no length)
        for may in (False, 2.0, 4.0, True):
            args = (fp, ends, idx, terr, blockers, may)
            want = twin_answer(KERN, *args)
            assert want.tolist() == straight_paths_clear(fp, ends, idx, terr, blockers, may_cross_dense=may).tolist()
            seen.update(want.tolist())
    assert seen == {True, False}


@built
def test_straight_paths_clear_compiled_declines_what_it_does_not_take():
    fp = round_base(32, 5.0, 5.0)
    hull = Footprint("rect", 12.0, 5.0, 3.0, 2.0, 10.0)
    idx = BodyIndex([Body("a/0", "a", 0, fp), Body("e/0", "e", 1, round_base(32, 9.0, 5.0))])
    terr = TerrainIndex([])
    blockers = np.array([1])
    ends = np.array([[14.0, 5.0], [5.0, 12.0]])
    assert C._same_bits(KERN.compiled(fp, ends, idx, terr, blockers, False),
                        KERN.reference(fp, ends, idx, terr, blockers, False))
    oval = Footprint("oval", 5.0, 5.0, 3.5, 2.0, 30.0)
    assert KERN.compiled(oval, ends, idx, terr, blockers, False) is None
    assert KERN.compiled(fp, ends.astype(np.float32), idx, terr, blockers, False) is None
    assert KERN.compiled(fp, ends, idx, terr, blockers.astype(np.int32), False) is None
    bad = ends.copy()
    bad[0, 1] = np.inf
    assert KERN.compiled(fp, bad, idx, terr, blockers, False) is None
    assert KERN.compiled(fp, ends, idx, terr, np.array([2]), False) is None   # (no row 2)
    with_hull = BodyIndex([Body("a/0", "a", 0, fp), Body("e/0", "e", 1, hull)])
    assert KERN.compiled(fp, ends, with_hull, terr, blockers, False) is None
    away = np.array([[5.0, 12.0]])   # (the hull far from this path: answered)
    assert C._same_bits(KERN.compiled(fp, away, with_hull, terr, blockers, False),
                        KERN.reference(fp, away, with_hull, terr, blockers, False))


@built
def test_straight_paths_clear_compiled_in_the_players_battles():
    """No golden replay traces a solver's path (their "if possible" checks find no spot to
    trace), so the default players' charges, pile-ins and consolidations on the default table
    are where it is held to its reference: four whole battles in ``check`` mode, every call
    compared (a difference raises), and enough of them answered by the twin to mean something."""
    assert checked_in_players_battles(KERN) > 50
