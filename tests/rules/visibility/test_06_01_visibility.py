"""06.01 Visibility in plan view (Part A ruling 2): exact base-to-base line of sight."""

import numpy as np

from sim.rules.geometry import core, round_base
from sim.rules.visibility.kernels import Pieces, segments_blocked
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible, model_visible

from _layouts import box_area, rect

WALL = box_area("wall", rect(10, 0, 11, 10))       # area = the wall itself (like a container)


def blk(*areas):
    return TerrainBlockers.build(areas)


def centre_blocked(b, fa, fb):
    p0 = np.array([fa.centre])
    p1 = np.array([fb.centre])
    return bool(segments_blocked(p0, p1, b.pieces))


def test_edge_sees_over_wall_end_when_centre_line_is_blocked():
    b = blk(WALL)
    a, t = round_base(32, 5, 9.8), round_base(32, 16, 9.8)
    assert centre_blocked(b, a, t)
    assert model_visible(a, t, b)                       # top edges at y=10.43 pass the end
    assert not model_fully_visible(a, t, b)             # bottom of the base is behind it


def test_wall_hides_both_bases_entirely():
    b = blk(WALL)
    a, t = round_base(32, 5, 9.3), round_base(32, 16, 9.3)   # top edges at 9.93 < 10
    assert not model_visible(a, t, b)


def test_peek_past_corner_diagonally_by_base_edge():
    # wall corner at (10, 10); observer low-left, target up-right: the centre line clips the
    # wall, a line over the corner touching both bases is clear
    b = blk(WALL)
    a, t = round_base(32, 8.0, 9.0), round_base(32, 14.0, 10.8)
    assert centre_blocked(b, a, t)
    assert model_visible(a, t, b)
    a2 = round_base(32, 8.0, 7.0)                       # further down: every line hits the wall
    t2 = round_base(32, 14.0, 9.2)
    assert not model_visible(a2, t2, b)


def test_gap_between_walls_narrower_than_base_still_gives_sight():
    walls = box_area("w", rect(10, 0, 13, 20), feats=None)
    wall_lo = box_area("lo", rect(10, 0, 13, 9.9))
    wall_hi = box_area("hi", rect(10, 10.1, 13, 20))   # 0.2" x 3" slit
    b = blk(wall_lo, wall_hi)
    a, t = round_base(32, 5, 10), round_base(32, 16, 10)
    assert model_visible(a, t, b)
    assert not model_fully_visible(a, t, b)
    assert not model_visible(a, t, blk(walls))


def test_touching_an_edge_is_not_crossing():
    b = blk(WALL)
    r = 16 / 25.4
    a, t = round_base(32, 5, 10 - r), round_base(32, 16, 10 - r)   # tops exactly at y = 10
    assert model_visible(a, t, b)


def test_visibility_is_symmetric_on_fixed_layout():
    b = blk(WALL, box_area("c", rect(20, 5, 25, 7.5)))
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = round_base(32, *rng.uniform(0, 30, 2))
        t = round_base(40, *rng.uniform(0, 30, 2))
        assert model_visible(a, t, b) == model_visible(t, a, b)


def test_pieces_sat_segment():
    pk = Pieces([np.array(rect(0, 0, 1, 1), float)])
    p0 = np.array([[-1, 0.5], [-1, 1.0], [-1, -1]], float)
    p1 = np.array([[2, 0.5], [2, 1.0], [2, 2]], float)
    assert segments_blocked(p0, p1, pk).tolist() == [True, False, True]
    assert core(round_base(32, 0, 0))[1] > 0
