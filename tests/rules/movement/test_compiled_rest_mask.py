"""03.02 / 18.04 / 24.09 sim.rules.movement.solvers.regions._rest_mask (a region's tests after its
edges and zone: wholly within the ``near`` target's distance, more than each ``away`` distance
from its footprints) and its compiled twin (sim.rules.compiled: ``movement.rest_mask``) give the
same answer to the bit: disembark regions round a round or a hull transport (3" and 6") with
enemy round bases and hulls to keep away from, Deep Strike regions (no target), seeded spots
scattered and on the target's limit (the centre's distance plus the radius at the distance less
SLACK) and a hair either side, under seeded ``ok`` masks; and what the twin leaves to the
reference (a base that is not round or too large for the distance, a polygon to keep away from,
another type, a value that is no number). The reference leaves its ``ok`` written; the twin's
answer is a new array, and the caller's ``ok`` is not changed by it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, point_distances, round_base
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base
from twins import twin_answer

KERN = C.KERNELS["movement.rest_mask"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
BOARD = (44.0, 60.0)


def _on_target_limit(rng, fp, target, distance: float, k: int) -> np.ndarray:
    """``k`` centres where the base of ``fp`` reaches exactly ``distance`` less SLACK from
    ``target`` (its centre's point distance plus its radius), found along seeded rays by
    bisection, nudged by nothing or a hair."""
    out = []
    want = distance - RG.SLACK - 0.5 * fp.length
    for _ in range(k):
        ang = rng.uniform(0, 2 * math.pi)
        u = np.array([math.cos(ang), math.sin(ang)])
        lo, hi = 0.0, 40.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            p = np.array([[target.x, target.y]]) + mid * u
            if point_distances(p, target)[0] <= want:
                lo = mid
            else:
                hi = mid
        nudge = float(rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-7, -1e-7]))
        out.append((target.x + (lo + nudge) * u[0], target.y + (lo + nudge) * u[1]))
    return np.array(out, dtype=float).reshape(-1, 2)


def _region(rng):
    """A seeded region with a target (a disembark's) or none (a Deep Strike's)."""
    enemies = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(0, 14)))]
    if rng.random() < 0.2:
        return RG.deep_strike(BOARD, enemies), None
    target = random_base(rng, 22.0, 30.0)
    distance = float(rng.choice([3.0, 6.0]))
    return RG.out_of_transport(BOARD, target, enemies, distance), target


@built
@pytest.mark.parametrize("seed", range(8))
def test_rest_mask_compiled_is_its_reference_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(30):
        region, target = _region(rng)
        fp = round_base(int(rng.choice([25, 32, 40])), 0.0, 0.0)
        rule = region.rule_for(fp)
        assert rule.mode == ""
        c = rng.uniform(10, 34, size=(int(rng.integers(0, 40)), 2))
        if target is not None:
            c = np.vstack([c, _on_target_limit(rng, fp, target, region.near.distance, int(rng.integers(1, 30)))])
        ok = rng.random(len(c)) < 0.85
        kept = ok.copy()
        got = KERN.compiled(rule, c, ok)
        assert got is not ok and np.array_equal(ok, kept)   # (a new array; the caller's untouched)
        seen.update(twin_answer(KERN, rule, c, ok.copy()).tolist())
    assert seen == {True, False}


def test_rest_mask_limits_are_the_targets_distance():
    """The limit spots ``_on_target_limit`` makes stand on the reference's threshold within a
    hair (so the twin is tried where the last bit decides)."""
    rng = np.random.default_rng(2)
    fp = round_base(32, 0.0, 0.0)
    for _ in range(20):
        target = random_base(rng, 22.0, 30.0)
        c = _on_target_limit(rng, fp, target, 3.0, 4)
        far = point_distances(c, target) + 0.5 * fp.length
        assert np.abs(far - (3.0 - RG.SLACK)).max() < 1e-6


@built
def test_rest_mask_compiled_declines_what_it_does_not_take():
    enemies = [round_base(32, 5.0, 5.0), Footprint("oval", 9.0, 5.0, 3.5, 2.0, 30.0)]
    target = round_base(60, 20.0, 20.0)
    region = RG.out_of_transport(BOARD, target, enemies)
    fp = round_base(32, 0.0, 0.0)
    rule = region.rule_for(fp)
    c = np.array([[20.0, 22.5], [24.0, 20.0], [5.0, 6.0], [30.0, 30.0]])
    ok = np.ones(len(c), dtype=bool)
    assert C._same_bits(KERN.compiled(rule, c, ok), KERN.reference(rule, c, ok.copy()))
    oval = Footprint("oval", 0.0, 0.0, 3.5, 2.0, 30.0)
    assert KERN.compiled(region.rule_for(oval), c, ok) is None                       # (a hull to place)
    big = round_base(130, 0.0, 0.0)
    assert region.rule_for(big).mode == "near" and KERN.compiled(region.rule_for(big), c, ok) is None
    assert KERN.compiled(rule, c.astype(np.float32), ok) is None
    assert KERN.compiled(rule, c, ok.astype(np.uint8)) is None
    assert KERN.compiled(rule, c, ok[:2]) is None
    bad = c.copy()
    bad[1, 0] = np.nan
    assert KERN.compiled(rule, bad, ok) is None
    strip = RG.ingress_strip(BOARD, enemies, ((0.0, 0.0), (44.0, 0.0), (44.0, 12.0), (0.0, 12.0)))
    assert KERN.compiled(strip.rule_for(fp), c, ok) is None                           # (a polygon kept away from)
    for empty in ((rule, c[:0], ok[:0]),):
        assert C._same_bits(KERN.compiled(*empty), KERN.reference(*empty))
