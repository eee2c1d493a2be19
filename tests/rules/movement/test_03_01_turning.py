"""03.01 A model turning about its base centre (sim.rules.movement.turning, and the check's
``turn_blocker``): the shorter way, the swept area covered by the grown samples (never
under-covered), a turn in the open settled by its disc, a turn across an enemy base, a dense
feature or the battlefield edge refused, by at most the stated margin when it only grazes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.geometry import OVAL_VERTICES, Footprint, core, footprint, round_base
from sim.rules.movement.index import as_index, terrain_index
from sim.rules.movement.legality import Body, check_move, turn_blocker
from sim.rules.movement.turning import TURN_MARGIN, turn_angle, turn_disc, turn_samples, turned
from sim.rules.terrain import Feature, TerrainArea

BOARD = (30.0, 24.0)


def hull(shape="oval", x=10.0, y=10.0, length=6.0, width=2.5, angle=0.0) -> Footprint:
    return footprint(shape, x, y, length, width, angle)


def test_03_01_turn_angle_is_the_shorter_way_and_half_a_circle_is_no_turn():
    fp = hull(angle=10.0)
    assert turn_angle(fp, 100.0) == 90.0
    assert turn_angle(fp, 101.0) == -89.0        # 91 one way is 89 the other (the base looks the same turned 180)
    assert turn_angle(fp, 280.0) == 90.0
    assert turn_angle(fp, 190.0) == 0.0 and not turned(fp, 190.0)
    assert turn_angle(fp, -20.0) == -30.0
    assert turn_angle(round_base(32, 5, 5), 90.0) == 0.0 and not turned(round_base(32, 5, 5), 90.0)
    assert turn_samples(fp, 190.0) == []


def _inside_convex(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Which points lie inside (or on) the counter-clockwise convex polygon ``poly``."""
    a, b = poly, np.roll(poly, -1, axis=0)
    cross = (b[:, 0] - a[:, 0])[None, :] * (pts[:, 1:2] - a[None, :, 1]) - \
        (b[:, 1] - a[:, 1])[None, :] * (pts[:, 0:1] - a[None, :, 0])
    return np.all(cross >= -1e-12, axis=1)


@pytest.mark.parametrize("shape", ["oval", "rect"])
def test_03_01_the_grown_samples_hold_every_point_the_turning_base_passes_over(shape):
    """Seeded turns of ovals and rectangles of many proportions: the base at facings between
    the samples (and at the samples), its outline and interior points, each lies inside some
    grown sample; so a turn the samples find clear is clear."""
    rng = np.random.default_rng(2026)
    for _ in range(12):
        length = rng.uniform(1.0, 9.0)
        width = rng.uniform(0.5, length)
        fp = hull(shape, 0.0, 0.0, length, width, rng.uniform(0, 360))
        to = fp.angle + rng.uniform(-179.0, 179.0)
        samples = turn_samples(fp, to)
        polys = [np.asarray(core(s)[0]) for s in samples]
        d = turn_angle(fp, to)
        for t in rng.uniform(0.0, 1.0, 12):
            between = fp.moved(0.0, 0.0, fp.angle + d * t)
            edge = np.asarray(core(between)[0])
            k = np.linspace(0.0, 1.0, 6, endpoint=False)
            pts = np.concatenate([edge + (np.roll(edge, -1, axis=0) - edge) * f for f in k] + [edge * 0.5])
            held = np.zeros(len(pts), dtype=bool)
            for poly in polys:
                held |= _inside_convex(poly, pts)
            assert held.all(), (shape, length, width, fp.angle, to, t)


def test_03_01_the_samples_are_close_enough_and_their_growth_small():
    fp = hull(length=9.0, width=5.0)
    samples = turn_samples(fp, 90.0)
    step = math.radians(abs(samples[1].angle - samples[0].angle))
    assert step * fp.bounding_radius <= 2 * TURN_MARGIN + 1e-12      # no point moves more than 2 margins
    assert samples[0].angle == 0.0 and samples[-1].angle == pytest.approx(90.0)
    grown = samples[0].length - fp.length
    assert 0 < grown < 0.05                                           # a few hundredths of an inch
    disc = turn_disc(fp)
    assert disc.shape == "round" and disc.length / 2 == pytest.approx(samples[0].length / 2)
    assert OVAL_VERTICES == 64  # (the growth's cos(pi / n) is for this polygon)


def _enemy(mid, x, y, mm=32):
    return Body(mid, mid.split("/")[0], 2, round_base(mm, x, y))


def _blocker_args(bodies, areas=()):
    idx = as_index(bodies)
    return idx, terrain_index(areas), BOARD, idx.enemies(1)


def test_03_01_a_turn_in_the_open_is_clear_at_once():
    fp = hull()
    idx, terr, board, blockers = _blocker_args([Body("a/1", "a", 1, fp), _enemy("b/1", 20, 20)])
    assert turn_blocker(fp, 90.0, idx, terr, board, blockers, may_cross_dense=False) == []


def test_03_01_a_turn_that_swings_across_an_enemy_base_is_refused_and_one_beyond_reach_is_not():
    fp = hull(length=6.0, width=1.0)      # its ends reach 3" from its centre as it turns
    r = round_base(32, 0, 0).length / 2
    d45 = 3.0 + r - 0.2                   # an enemy on the diagonal, 0.2" inside the swept disc
    near = _enemy("b/1", 10 + d45 / math.sqrt(2), 10 + d45 / math.sqrt(2))
    idx, terr, board, blockers = _blocker_args([Body("a/1", "a", 1, fp), near])
    got = turn_blocker(fp, 60.0, idx, terr, board, blockers, may_cross_dense=False, first_only=False)
    assert [p[0] for p in got] == ["enemy"]
    assert "turning to 60 degrees, its base would cross the base of enemy model b/1 (by 0.2" in got[0][2]
    # the other way round (clockwise) it does not pass that corner: clear
    assert turn_blocker(fp, -60.0, idx, terr, board, blockers, may_cross_dense=False) == []
    far = _enemy("b/1", 10 + (d45 + 0.25) / math.sqrt(2), 10 + (d45 + 0.25) / math.sqrt(2))
    idx, terr, board, blockers = _blocker_args([Body("a/1", "a", 1, fp), far])
    assert turn_blocker(fp, 60.0, idx, terr, board, blockers, may_cross_dense=False) == []


def test_03_01_the_margin_errs_knowingly_and_no_further():
    """An enemy base 0.005" beyond the turn's true reach is refused (within the margin); one
    TURN_MARGIN and the growth beyond it is not."""
    fp = hull("rect", 10, 10, 6.0, 1.0)
    reach = math.hypot(3.0, 0.5)               # the corners' circle
    r = round_base(32, 0, 0).length / 2
    for gap, refused in ((0.005, True), (3 * TURN_MARGIN, False)):
        c = 10 + (reach + r + gap) / math.sqrt(2)
        idx, terr, board, blockers = _blocker_args([Body("a/1", "a", 1, fp), _enemy("b/1", c, c)])
        got = turn_blocker(fp, 90.0, idx, terr, board, blockers, may_cross_dense=False)
        assert bool(got) is refused, (gap, got)


def test_03_01_a_turn_across_a_dense_wall_and_over_the_edge_is_refused():
    fp = hull("rect", 10, 3.0, 6.0, 1.0)
    wall = ((12.0, 4.0), (13.0, 4.0), (13.0, 5.0), (12.0, 5.0))
    areas = [TerrainArea("block", wall, (Feature("dense", wall),))]
    idx, terr, board, blockers = _blocker_args([Body("a/1", "a", 1, fp)], areas)
    kinds = [p[0] for p in turn_blocker(fp, 90.0, idx, terr, board, blockers, may_cross_dense=False,
                                        first_only=False)]
    assert kinds == ["edge", "dense"]
    assert [p[0] for p in turn_blocker(fp, 90.0, idx, terr, board, blockers, may_cross_dense=True,
                                       first_only=False)] == ["edge"]


def test_03_01_check_move_turns_where_it_is_clear():
    """At the end of the path when it can; at its start (the path then at the new facing)
    when only that is clear; refused when neither is."""
    fp = hull("rect", 5, 5, 4.0, 1.0)
    post = ((16.0, 6.0), (16.5, 6.0), (16.5, 6.5), (16.0, 6.5))
    by_start = ((6.0, 6.0), (6.5, 6.0), (6.5, 6.5), (6.0, 6.5))
    me = [Body("a/1", "a", 1, fp)]
    one = [TerrainArea("post", post, (Feature("dense", post),))]
    both = one + [TerrainArea("post2", by_start, (Feature("dense", by_start),))]
    kw = dict(max_distance=12.0, rule="09.05", angles={"a/1": 90.0})
    assert check_move("a", {"a/1": [(5, 5), (15, 5)]}, me, (), BOARD, **kw) == []
    assert check_move("a", {"a/1": [(5, 5), (15, 5)]}, me, one, BOARD, **kw) == []
    got = check_move("a", {"a/1": [(5, 5), (15, 5)]}, me, both, BOARD, **kw)
    assert [p.model for p in got] == ["a/1"] and "turning to 90 degrees" in got[0].message
    # the same move without the turn is legal: the turn is what is refused
    assert check_move("a", {"a/1": [(5, 5), (15, 5)]}, me, both, BOARD, max_distance=12.0, rule="09.05") == []


@pytest.mark.parametrize("shape", ["oval", "rect"])
def test_03_01_a_blocks_one_base_holds_each_of_its_samples(shape):
    """turn_blocks: each run's one grown base holds every sample of the run (both convex, so
    each sample's corners inside it suffice), so a block found clear clears its samples."""
    from sim.rules.movement.turning import turn_blocks
    rng = np.random.default_rng(81)
    for _ in range(30):
        length = rng.uniform(1.0, 9.0)
        fp = hull(shape, 0.0, 0.0, length, rng.uniform(0.5, length), rng.uniform(0, 360))
        to = fp.angle + rng.uniform(-179.0, 179.0)
        blocks = turn_blocks(fp, to, size=int(rng.integers(2, 20)))
        assert sum(len(run) for _b, run in blocks) == len(turn_samples(fp, to))
        for block, run in blocks:
            poly = np.asarray(core(block)[0])
            for s in run:
                assert _inside_convex(poly, np.asarray(core(s)[0])).all(), (shape, length, fp.angle, to)
