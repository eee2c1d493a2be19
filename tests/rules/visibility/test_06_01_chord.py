"""06.01 kernels._chord, the interval of each sight line inside a footprint: for a polygon
core (a rectangle's or an oval's), measured only at the edges and vertices a line can cross
(its candidates), it gives every bit the plain reduction over all of them gives
(kernels._chord_reduce): seeded random bases and lines, lines through vertices and along
edges, lines missing the base; and a crossing at 0 (where 0 and -0 could tie) is left to the
reduction."""

from __future__ import annotations

import numpy as np
import pytest

import sim.rules.visibility.kernels as K
from sim.rules.geometry import Footprint, core


def _plain(n, s, pts):
    """_chord's polygon case by the reduction over every edge and vertex."""
    u = np.stack([-n[:, 1], n[:, 0]], axis=1)
    x0 = n * s[:, None]
    di = pts @ n.T - s[None, :]
    ti = (pts @ u.T) - np.einsum("li,li->l", x0, u)[None, :]
    return K._chord_reduce(di, ti)


def _same_bits(a, b) -> bool:
    return (a.shape == b.shape and np.array_equal(np.isnan(a), np.isnan(b))
            and np.array_equal(np.where(np.isnan(a), 0.0, a).view(np.int64),
                               np.where(np.isnan(b), 0.0, b).view(np.int64)))


def _lines(rng, pts, count):
    """Random lines near the polygon, then lines through each vertex (a few directions each)
    and along each edge."""
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
    parts_n.append(m)
    parts_s.append(np.einsum("li,li->l", m, pts))
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
        t0, t1 = K._chord(n, s, pts, r)
        p0, p1 = _plain(n, s, pts)
        assert _same_bits(t0, p0) and _same_bits(t1, p1), (seed, k)
        met += int((~np.isnan(t0)).sum())
        missed += int(np.isnan(t0).sum())
    assert met and missed   # (lines meeting the base and lines missing it)


def test_06_01_chord_leaves_a_crossing_at_zero_to_the_reduction(monkeypatch):
    """A rectangle whose left edge crosses the line y = 0 at the line's foot (0, 0): that
    crossing is at t = 0 (or -0), where the order of a reduction decides which zero is kept;
    _chord hands the whole call to _chord_reduce, and answers as it does."""
    pts = np.array([[0.0, -1.0], [2.0, -1.0], [2.0, 1.0], [0.0, 1.0]])
    n, s = np.array([[0.0, 1.0], [0.6, 0.8]]), np.array([0.0, 0.5])
    calls = []
    real = K._chord_reduce
    monkeypatch.setattr(K, "_chord_reduce", lambda di, ti: calls.append(1) or real(di, ti))
    t0, t1 = K._chord(n, s, pts, 0.0)
    assert calls == [1]
    p0, p1 = _plain(n, s, pts)
    assert _same_bits(t0, p0) and _same_bits(t1, p1)
    assert sorted([abs(t0[0]), abs(t1[0])]) == [0.0, 2.0]
    calls.clear()
    K._chord(n[1:], s[1:], pts, 0.0)    # (no crossing at 0: the candidates alone)
    assert calls == []
