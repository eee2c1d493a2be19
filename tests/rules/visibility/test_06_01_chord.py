"""06.01 kernels._chord, the interval of each sight line inside a footprint. For a polygon
core it gives every bit the plain reduction over all its edges and vertices gives
(kernels._chord_reduce): an oval's core (64 vertices) through kernels._chord_candidates,
which measures only the edges and vertices a line can cross, a rectangle's through the
reduction itself. _chord_candidates is held to the reduction on both shapes: seeded random
bases and lines, lines through vertices, along edges and off them by a few ulps, lines
missing the base, a vertex a subnormal distance off a line; and a crossing at 0 (where 0 and
-0 could tie) is left to the reduction."""

from __future__ import annotations

import numpy as np
import pytest

import sim.rules.visibility.kernels as K
from sim.rules.geometry import Footprint, core


def _inputs(n, s, pts):
    """_chord's (di, ti) for a polygon core: each vertex's signed distance from each line and
    its place along it."""
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    return pts @ n.T - s[None, :], (pts @ u.T) - np.einsum("li,li->l", x0, u)[None, :]


def _same_bits(a, b) -> bool:
    return (a.shape == b.shape and np.array_equal(np.isnan(a), np.isnan(b))
            and np.array_equal(np.where(np.isnan(a), 0.0, a).view(np.int64),
                               np.where(np.isnan(b), 0.0, b).view(np.int64)))


def _same(got, want) -> bool:
    return _same_bits(got[0], want[0]) and _same_bits(got[1], want[1])


def _lines(rng, pts, count):
    """Random lines near the polygon, then lines through each vertex (a few directions each),
    along each edge, and along each edge off by a few ulps either way."""
    c = pts.mean(axis=0)
    ang = rng.uniform(0, 2 * np.pi, count)
    n = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    s = n @ c + rng.uniform(-3, 3, count)
    parts_n, parts_s = [n], [s]
    for p in pts:
        a = rng.uniform(0, 2 * np.pi, 3)
        m = np.stack([np.cos(a), np.sin(a)], axis=1)
        parts_n.append(m)
        parts_s.append(m @ p)
    e = np.roll(pts, -1, axis=0) - pts
    m = np.stack([-e[:, 1], e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    along = np.einsum("li,li->l", m, pts)
    for off in (0.0, 1e-16, -1e-16, 4e-16, -4e-16):
        parts_n.append(m)
        parts_s.append(along + off)
    return np.concatenate(parts_n), np.concatenate(parts_s)


@pytest.mark.parametrize("seed", range(6))
def test_06_01_chord_of_a_polygon_core_is_the_plain_reduction(seed):
    rng = np.random.default_rng(seed)
    met = missed = 0
    for k in range(40):
        shape = ("rect", "oval")[k % 2]
        length, width = rng.uniform(1, 6), rng.uniform(0.5, 4)
        fp = Footprint(shape, *rng.uniform(5, 40, 2), length, width, rng.uniform(0, 360))
        pts, r = core(fp)
        n, s = _lines(rng, pts, 60)
        di, ti = _inputs(n, s, pts)
        want = K._chord_reduce(di, ti)
        assert _same(K._chord_candidates(di, ti), want), (seed, k)
        assert _same(K._chord(n, s, pts, r), want), (seed, k)
        met += int((~np.isnan(want[0])).sum())
        missed += int(np.isnan(want[0]).sum())
    assert met and missed   # (lines meeting the base and lines missing it)


def test_06_01_chord_candidates_keep_a_vertex_a_subnormal_distance_off_the_line():
    """A vertex whose distance from the line is subnormal, next to one on the other side's
    zero: the edge between them is a crossing only by its product underflowing to 0, and
    only that vertex being within _TOL of the line makes it a candidate."""
    pts = np.array([[-1e-310, 5e-324], [-1.0, 0.5], [-2.0, 3.0]])
    n, s = np.array([[0.0, 1.0]]), np.array([0.0])
    di, ti = _inputs(n, s, pts)
    assert _same(K._chord_candidates(di, ti), K._chord_reduce(di, ti))


def test_06_01_chord_candidates_pass_over_an_edge_whose_ends_lie_as_far_from_the_line():
    """Lines along a rectangle's edges, 4e-16 off: an edge whose ends lie on both sides of its
    line but whose distances differ by 1e-15 or less is no crossing (its vertices within
    _TOL are what count), for the candidates as for the reduction (a rectangle found among
    seeded ones where that edge's crossing would otherwise be measured)."""
    fp = Footprint("rect", 7.862153953461322, 6.099024677290739, 4.504226853432247, 3.808441005244091,
                   33.59331709261526)
    pts = core(fp)[0]
    e = np.roll(pts, -1, axis=0) - pts
    m = np.stack([-e[:, 1], e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    di, ti = _inputs(m, np.einsum("li,li->l", m, pts) + 4e-16, pts)
    assert _same(K._chord_candidates(di, ti), K._chord_reduce(di, ti))


def test_06_01_chord_leaves_a_crossing_at_zero_to_the_reduction(monkeypatch):
    """A square whose left edge crosses the line y = 0 at the line's foot (0, 0): that
    crossing is at t = 0 (or -0), where the order of a reduction decides which zero is kept;
    _chord_candidates hands the whole call to _chord_reduce, and answers as it does."""
    pts = np.array([[0.0, -1.0], [2.0, -1.0], [2.0, 1.0], [0.0, 1.0]])
    n, s = np.array([[0.0, 1.0], [0.6, 0.8]]), np.array([0.0, 0.5])
    calls = []
    real = K._chord_reduce
    monkeypatch.setattr(K, "_chord_reduce", lambda di, ti: calls.append(1) or real(di, ti))
    di, ti = _inputs(n, s, pts)
    t0, t1 = K._chord_candidates(di, ti)
    assert calls == [1]
    assert _same((t0, t1), real(di, ti))
    assert sorted([abs(t0[0]), abs(t1[0])]) == [0.0, 2.0]
    calls.clear()
    K._chord_candidates(*_inputs(n[1:], s[1:], pts))    # (no crossing at 0: the candidates alone)
    assert calls == []


def test_06_01_chord_clips_an_oval_by_its_candidates_and_a_rectangle_by_the_reduction(monkeypatch):
    calls = []
    real = K._chord_candidates
    monkeypatch.setattr(K, "_chord_candidates", lambda di, ti: calls.append(len(di)) or real(di, ti))
    n, s = np.array([[1.0, 0.0]]), np.array([10.0])
    for shape in ("oval", "rect"):
        pts, r = core(Footprint(shape, 10.0, 10.0, 4.0, 2.0, 15.0))
        K._chord(n, s, pts, r)
    assert calls == [len(core(Footprint("oval", 0, 0, 4, 2))[0])]
