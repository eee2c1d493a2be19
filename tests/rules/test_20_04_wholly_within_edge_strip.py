"""20.04 reserves.wholly_within_edge_strip (no point of the base more than 6" from its nearest
battlefield edge): a base whose bounding circle stays clear of the box of points farther in is
answered without measuring; every answer is the exact measure's (the base against that box),
on seeded random bases of every shape all over the board, near the strip's inner edge most."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import EPS, distance, round_base
from sim.rules import reserves as RS

from random_bases import random_base


def _measured(fp, board):
    return distance(fp, RS._inner_box(RS.EDGE_DISTANCE + EPS, board)) > 0.0


@pytest.mark.parametrize("board", [(44.0, 60.0), (60.0, 44.0), (20.0, 30.0)])
def test_wholly_within_edge_strip_is_the_measured_answer(board):
    rng = np.random.default_rng(int(board[0]))
    W, H = board
    fps = []
    for _ in range(1500):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        if rng.random() < 0.6:   # (near the strip's inner edge: 6" in from an edge, give or take a base)
            x = RS.EDGE_DISTANCE + rng.normal(0, 1.5) if rng.random() < 0.5 else W - RS.EDGE_DISTANCE + rng.normal(0, 1.5)
        fps.append(random_base(rng, x, y))
    got = [RS.wholly_within_edge_strip(f, board) for f in fps]
    assert got == [_measured(f, board) for f in fps]
    assert 100 < sum(got) < len(got) - 100   # (both answers, many times)


def test_wholly_within_edge_strip_at_the_strip_edge():
    board = (44.0, 60.0)
    r = 0.5 * 32 / 25.4
    inside = round_base(32, RS.EDGE_DISTANCE + EPS - r - 1e-4, 30.0)      # its far side just short of 6"
    across = round_base(32, RS.EDGE_DISTANCE + EPS - r + 1e-4, 30.0)      # ... just past it
    assert RS.wholly_within_edge_strip(inside, board) and _measured(inside, board)
    assert not RS.wholly_within_edge_strip(across, board) and not _measured(across, board)
