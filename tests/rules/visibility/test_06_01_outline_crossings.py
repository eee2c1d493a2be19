"""06.01 Extra generators of the exact sight test where a blocker overlaps a base
(kernels._outline_crossings): for oval and rectangular cores, every crossing of a core
edge with a blocker edge, found by an independent 2x2 solve per edge pair, and nothing else,
in core-edge order."""

import numpy as np

from sim.rules.geometry import core, footprint
from sim.rules.visibility.kernels import Pieces, _outline_crossings


def _reference(p, pk):
    a = pk.verts.reshape(-1, 2)
    b = np.roll(pk.verts, -1, axis=1).reshape(-1, 2)
    q = np.roll(p, -1, axis=0)
    out = []
    for i in range(len(p)):
        for j in range(len(a)):
            m = np.array([q[i] - p[i], a[j] - b[j]]).T
            if abs(np.linalg.det(m)) < 1e-12:
                continue
            t, v = np.linalg.solve(m, a[j] - p[i])
            if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= v <= 1 + 1e-12:
                out.append((i, p[i] + t * (q[i] - p[i])))
    return out


def test_hull_outline_crossings_match_an_independent_solve():
    rng = np.random.default_rng(23)
    found = 0
    for it in range(150):
        fp = footprint(["oval", "rect"][it % 2], *rng.uniform(0, 10, 2), rng.uniform(0.5, 6),
                       rng.uniform(0.5, 4), rng.uniform(0, 360))
        polys = []
        for _ in range(rng.integers(1, 4)):
            ang = np.sort(rng.uniform(0, 2 * np.pi, rng.integers(3, 7)))
            polys.append(rng.normal((fp.x, fp.y), 2.0)
                         + rng.uniform(0.3, 3) * np.stack([np.cos(ang), np.sin(ang)], 1))
        p = core(fp)[0]
        got = _outline_crossings(p, 0.0, Pieces(polys))
        ref = _reference(p, Pieces(polys))
        assert len(got) == len(ref)
        for g, (_, r) in zip(got, ref):
            assert np.hypot(*(g - r)) < 1e-9
        found += len(ref)
    assert found > 300
