"""03.02 / 20.04 / 24.09 The placement solver's region checks read in blocks give the plain
answers: ``_clear_of_box`` (the edge strip's "does not meet the box of points farther in",
settled by the bounding circle where it is clear) is the measure's; ``Region.problems`` names,
for each model, the first enemy model in order within the distance (only those whose
bounding circles come near are measured), as measuring every one in order does; an Away's
kept circles, and a placement table's read off its arrays, are ``circles_of`` their
footprints, and farther_than gives the same with them; the polygon two hulls are measured by is
kept read-only, the same as made afresh."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import EPS, distance, footprint, round_base
from sim.rules.movement import kernels as K
from sim.rules.movement.kernels import placed_distances
from sim.rules.movement.solvers.table import _Table
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base


@pytest.mark.parametrize("seed", range(4))
def test_clear_of_box_is_the_measured_answer(seed):
    rng = np.random.default_rng(seed)
    board, m = (44.0, 60.0), 6.0 - RG.SLACK
    # (every shape, and a long thin rectangle turned across the box's side: its centre may be
    # outside the box while its bounding circle is not, and it meets the box or not)
    bases = [random_base(rng, 0.0, 0.0) for _ in range(5)] + [footprint("rect", 0.0, 0.0, 6.0, 0.6, 10.0 + 40 * seed)]
    for fp in bases:
        c = np.column_stack([rng.uniform(0, 44, 3000), rng.uniform(0, 60, 3000)])
        c[:1500, 0] = m + rng.normal(0, 1.5, 1500)   # (near the box's west side)
        got = RG._clear_of_box(fp, c, m, board)
        measured = placed_distances(fp, c, [RG._inner_box(m, board)])[:, 0] > 0.0
        assert got.tolist() == measured.tolist()
        assert 200 < got.sum() < len(c) - 200


@pytest.mark.parametrize("seed", range(4))
def test_clear_of_box_near_the_inner_circle_is_the_measured_answer(seed):
    """(A base whose inner circle reaches into the box by more than 1e-6 meets it unmeasured:
    centres at that circle's radius from the box's sides and corners, a hair either side.)"""
    rng = np.random.default_rng(seed)
    board, m = (44.0, 60.0), 6.0 - RG.SLACK
    shifts = np.array([-0.05, -1e-3, -2e-6, -1.1e-6, -0.9e-6, 0.0, 0.9e-6, 1.1e-6, 2e-6, 1e-3, 0.05])
    clear = 0
    for fp in [random_base(rng, 0.0, 0.0) for _ in range(6)] + [round_base(int(rng.integers(25, 130)), 0.0, 0.0)]:
        g = RG._inner(fp) + np.repeat(shifts, 40)
        a = rng.uniform(-0.5 * np.pi, 0.5 * np.pi, len(g))   # (out of the west side, or a corner)
        y = np.where(rng.random(len(g)) < 0.5, rng.uniform(m + 1, 60 - m - 1, len(g)), m)
        c = np.column_stack([m - g * np.cos(a), y - np.where(y == m, g * np.abs(np.sin(a)), 0.0)])
        got = RG._clear_of_box(fp, c, m, board)
        measured = placed_distances(fp, c, [RG._inner_box(m, board)])[:, 0] > 0.0
        assert got.tolist() == measured.tolist()
        clear += int(got.sum())
    assert clear    # (a round base just off the box: its inner circle is its edge)


def _plain_named(models, away):
    out = []
    for mid, fp in models:
        for j, o in enumerate(away.fps):
            d = distance(fp, o)
            if d <= away.distance + EPS:
                out.append((mid, away.names[j], f"{d:.3f}"))
                break
    return out


@pytest.mark.parametrize("seed", range(6))
def test_region_problems_name_the_first_enemy_within_the_distance(seed):
    rng = np.random.default_rng(seed)
    enemies = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(int(rng.integers(1, 50)))]
    names = tuple(f"e{i}" for i in range(len(enemies)))
    region = RG.deep_strike((40.0, 40.0), enemies, names)
    models = [(f"m{i}", random_base(rng, *rng.uniform(2, 38, size=2))) for i in range(int(rng.integers(1, 10)))]
    got = [p for p in region.problems(models) if "must be set up more than" in p]
    want = [f"{mid}: {d}\" from {who}; it must be set up more than 8\" from every enemy model (24.09)"
            for mid, who, d in _plain_named(models, region.away[0])]
    assert got == want


def test_region_problems_at_the_distance():
    e = round_base(32, 20.0, 20.0)
    r = 32 / 25.4
    region = RG.deep_strike((40.0, 40.0), [e], ("e",))
    at = [("m", round_base(32, 20.0 + r + 8.0, 20.0))]            # exactly 8": within 8", refused
    past = [("m", round_base(32, 20.0 + r + 8.0 + 1e-4, 20.0))]   # more than 8"
    assert any("from e" in p for p in region.problems(at))
    assert not any("from e" in p for p in region.problems(past))


def test_an_away_keeps_the_circles_of_its_footprints():
    rng = np.random.default_rng(3)
    fps = tuple(random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(30))
    away = RG.Away(8.0, fps)
    for kept, fresh in zip(away._circles, RG.circles_of(fps)):
        assert kept.tolist() == fresh.tolist()
    fp = random_base(rng, 0.0, 0.0)
    c = rng.uniform(0, 40, size=(300, 2))
    assert RG.farther_than(fp, c, fps, 8.0, away._circles).tolist() == RG.farther_than(fp, c, fps, 8.0).tolist()
    assert RG.Away(8.0, fps) == away and hash(RG.Away(8.0, fps)) == hash(away)


def test_a_model_rule_keeps_its_lines():
    """(ModelRule.lines is the region's lines for the base, worked out once: the cache behind it
    is keyed by the region, whose hash reads every footprint it keeps away from.)"""
    rng = np.random.default_rng(5)
    enemies = [random_base(rng, *rng.uniform(0, 40, size=2)) for _ in range(30)]
    region = RG.ingress_strip((40.0, 60.0), enemies)
    rule = region.rule_for(footprint("oval", 0.0, 0.0, 3.0, 1.5, 30.0))
    first = rule.lines()
    assert rule.lines() is first
    want = RG._lines.__wrapped__(region, "oval", 3.0, 1.5, 30.0)
    assert [(a.tolist(), t.tolist()) for a, t in first] == [(a.tolist(), t.tolist()) for a, t in want]
    assert len(first) >= 4


def test_a_tables_circles_are_those_of_its_bases():
    """_Table.circles (what _Table.clear and spots_fit's twin give farther_than) is circles_of the
    same bases, to the bit, for any rows; a hull's clearance among them is the same either way."""
    rng = np.random.default_rng(4)
    others = [(f"o{i}", random_base(rng, *rng.uniform(0, 40, size=2))) for i in range(25)]
    table = _Table(RG.Region((44.0, 60.0)), others[:10], (), 1.0)
    table.add(others[10:])
    for rows in (np.arange(25), np.array([3, 17, 4]), np.array([], dtype=np.int64)):
        fps = [others[j][1] for j in rows.tolist()]
        for kept, fresh in zip(table.circles(rows), RG.circles_of(fps)):
            assert kept.dtype == fresh.dtype and kept.tobytes() == fresh.tobytes()
    fp = random_base(rng, 0.0, 0.0, kinds=2)
    c = rng.uniform(0, 40, size=(400, 2))
    rows = np.arange(25)
    fps = [f for _m, f in others]
    assert (RG.farther_than(fp, c, fps, 1.0, table.circles(rows)).tolist()
            == RG.farther_than(fp, c, fps, 1.0).tolist())


def test_the_polygon_of_two_hulls_is_kept_read_only():
    """kernels._hull_difference (_pair_terms' polygon for two hulls), kept per pair: the
    Minkowski sum made afresh, read-only, and the same object when asked again."""
    rng = np.random.default_rng(6)
    for _ in range(20):
        a, b = random_base(rng, *rng.uniform(0, 9, size=2), kinds=2), random_base(rng, *rng.uniform(0, 9, size=2), kinds=2)
        got = K._hull_difference(a, b)
        want = K._minkowski_sum(K.core(b)[0], -K._offsets(a))
        assert got.tobytes() == want.tobytes() and not got.flags.writeable
        assert K._pair_terms(a, np.zeros((1, 2)), b)[1] is got
