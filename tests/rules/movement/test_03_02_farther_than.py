"""03.02 / 20.04 regions.farther_than (the placement solver's "more than d from every one of
these bases", for a base at many candidate centres): the whole block of centres and bases
compared at once gives, centre by centre, the answer of the plain form (one base at a time,
each measured exactly only where the circles do not settle it), and that answer is the exact
distance's wherever it is not within the circles' 1e-6 margin of d."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import round_base
from sim.rules.movement.kernels import placed_distances
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base


def _plain(fp, c, fps, d):
    """farther_than one base at a time, as it was first written."""
    ok = np.ones(len(c), dtype=bool)
    bf, inf = fp.bounding_radius, RG._inner(fp)
    for o in fps:
        cd = np.hypot(c[:, 0] - o.x, c[:, 1] - o.y)
        maybe = ok & (cd <= bf + o.bounding_radius + d + 1e-6)
        sure = maybe & (cd < inf + RG._inner(o) + d - 1e-6)
        ok &= ~sure
        sel = np.flatnonzero(maybe & ~sure)
        if len(sel):
            ok[sel] = placed_distances(fp, c[sel], [o])[:, 0] > d
    return ok



@pytest.mark.parametrize("seed", range(6))
def test_regions_farther_than_matches_the_plain_form_and_the_exact_distance(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    fps = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(1, 40)))]
    fp = random_base(rng, 0.0, 0.0)
    c = rng.uniform(-2, 42, size=(int(rng.integers(1, 300)), 2))
    # (some centres exactly d from a base, or nearly: the exact measure decides those)
    ring = RG.ring(fp, fps[0], 3.0)
    c = np.concatenate([c, ring, ring + 1e-7])
    for d in (0.0, 1.0, 3.0, 8.0):
        got = RG.farther_than(fp, c, fps, d)
        assert got.tolist() == _plain(fp, c, fps, d).tolist()
        exact = placed_distances(fp, c, fps)
        clear = (np.abs(exact - d) > 1e-5).all(axis=1)
        assert got[clear].tolist() == (exact[clear] > d).all(axis=1).tolist()
    # a few centres a block at a time: the blocks' answers are the whole's
    monkeypatch.setattr(RG, "_FARTHER_ROWS", 7)
    assert RG.farther_than(fp, c, fps, 3.0).tolist() == _plain(fp, c, fps, 3.0).tolist()


def test_regions_farther_than_with_no_centre_or_no_base():
    fp = round_base(32, 0.0, 0.0)
    assert RG.farther_than(fp, np.zeros((0, 2)), [round_base(32, 1.0, 1.0)], 2.0).tolist() == []
    assert RG.farther_than(fp, np.array([[1.0, 1.0]]), [], 2.0).tolist() == [True]


@pytest.mark.parametrize("seed", range(6))
def test_regions_farther_than_leaves_out_only_bases_too_far_from_every_centre(seed):
    """(Centres in a small patch, bases all over: those whose circles cannot come within d of
    the patch are left out of the block; the answers are still the plain form's.)"""
    rng = np.random.default_rng(100 + seed)
    fps = [random_base(rng, *rng.uniform(0, 60, size=2)) for _ in range(80)]
    fp = random_base(rng, 0.0, 0.0)
    x0, y0 = rng.uniform(10, 50, size=2)
    c = np.column_stack([rng.uniform(x0, x0 + 3, 200), rng.uniform(y0, y0 + 3, 200)])
    c = np.concatenate([c, RG.ring(fp, fps[0], 2.0) if abs(fps[0].x - x0) < 8 else c[:1]])
    for d in (0.5, 2.0, 8.0):
        assert RG.farther_than(fp, c, fps, d).tolist() == _plain(fp, c, fps, d).tolist()
