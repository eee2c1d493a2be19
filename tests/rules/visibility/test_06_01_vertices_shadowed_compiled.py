"""06.01 sim.rules.visibility.hull_full._vertices_shadowed (the certificate "not fully visible"
for a target that is an oval or a rectangle: a vertex of its core in the umbra of a piece lit
by the observer's disc) and its compiled twin (sim.rules.compiled: ``visibility.vertices_
shadowed``, the umbra rows of ring_shadowed's twin) give the same answers: every ordered pair of
bases of seeded random layouts, a third of them ovals and rectangles, with the pieces the
capsule stage finds for it, as full_certificates hands them over (round and hull observers);
targets among crowded pieces (some not convex) with a vertex on each line of an umbra and a
hair either side of it (the target's 1e-6" margin, the light's grown radius); and the inputs
the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import certificate_pairs, crowded_pieces
from sim.rules import compiled as C
from sim.rules.visibility import certs as CE
from sim.rules.visibility import hull_full as _hull_full  # noqa: F401  (its kernel registered)

KERN = C.KERNELS["visibility.vertices_shadowed"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _pairs(rng):
    """A layout's bases, every third an oval or a rectangle, as the fully-visible stage hands
    them over (certificate_pairs), and the pairs whose target is a hull (``q``)."""
    ix, _I, J, D, pstart, pidx = certificate_pairs(rng, hulls=True)
    return ix, J, D, np.flatnonzero(~ix.round[J]), ix.blk.pieces, pstart, pidx


@built
@pytest.mark.parametrize("seed", range(4))
def test_vertices_shadowed_compiled_is_its_reference_on_random_layouts(seed):
    rng = np.random.default_rng(seed)
    shadowed = []
    for _ in range(5):
        ix, J, D, q, pk, pstart, pidx = _pairs(rng)
        for sub in (q, q[rng.random(len(q)) < 0.3]):
            got = KERN.compiled(ix, J, D, sub, pk, pstart, pidx)
            want = KERN.reference(ix, J, D, sub, pk, pstart, pidx)
            assert got is not None and C._same_bits(got, want)
        shadowed += want.tolist()
    assert 0.02 < np.mean(shadowed) < 0.98


def _meet(h, g):
    """Where the lines h . x = h[2] and g . x = g[2] meet (None: nearly parallel)."""
    m = np.stack([h[:2], g[:2]])
    return np.linalg.solve(m, [h[2], g[2]]) if abs(np.linalg.det(m)) > 1e-9 else None


class _Cores:
    """What the stage reads of the index: each target's core (``_core``)."""

    def __init__(self, cores):
        self.cores = cores

    def _core(self, j):
        return self.cores[int(j)], 0.0


@built
@pytest.mark.parametrize("seed", range(3))
def test_vertices_shadowed_compiled_on_each_line_of_an_umbra(seed):
    """Each (pair, piece) among crowded pieces (a third of them not convex: a vertex pulled in),
    lit by A's disc (or a point): a target whose one core vertex lies on one of the umbra's
    three lines (certs._umbra_rows'), shifted by a hair to either side, inside the other two;
    the reference's answer each time, both answers met."""
    rng = np.random.default_rng(300 + seed)
    pk, ca, ra, _cb, _rb, pstart0, pidx0 = crowded_pieces(rng, pairs=60)
    cores, owner, piece = [], [], []
    for p in range(len(ca)):
        for k in pidx0[pstart0[p]:pstart0[p + 1]].tolist():
            D1 = (ca[p:p + 1, 0].copy(), ca[p:p + 1, 1].copy(), np.array([ra[p] if p % 2 else 0.0]))
            H, _valid = CE._umbra_rows(D1, np.array([0]), np.array([k]), pk)
            H = H[:, :, 0]
            if not np.isfinite(H).all():
                continue
            # (the corners of the umbra: where the chord line meets each tangent)
            x1, x2 = _meet(H[0], H[1]), _meet(H[0], H[2])
            if x1 is None or x2 is None:
                continue
            for row in range(3):
                if row == 0:
                    base = 0.5 * (x1 + x2)
                else:   # (two inches along the tangent, beyond the chord: where the light's
                    # radius moves the line most)
                    corner = x1 if row == 1 else x2
                    t = np.array([-H[row, 1], H[row, 0]])
                    t = t if t @ (corner - ca[p]) > 0 else -t
                    base = corner + 2.0 * t
                for shift in (-2e-6, -1e-6, -5e-7, 0.0, 5e-7, 1e-6, 2e-6, 1e-3):
                    # (on the line ``row``, moved off it by ``shift`` along its normal, and a
                    # little way into the other two)
                    pt = base - H[row, :2] * shift
                    for other in range(3):
                        if other != row:
                            pt = pt - H[other, :2] * 1e-4
                    cores.append(pt.reshape(1, 2))
                    owner.append(p)
                    piece.append(k)
    n = len(cores)
    J = np.arange(n, dtype=np.intp)
    P = np.array(owner)
    light = np.array([ra[p] if p % 2 else 0.0 for p in owner])
    D = (ca[P, 0].copy(), ca[P, 1].copy(), light, ca[P, 0].copy(), ca[P, 1].copy(), np.ones(n))
    pstart = np.arange(n + 1, dtype=np.intp)
    pidx = np.array(piece, dtype=np.intp)
    q = np.arange(n, dtype=np.intp)
    ix = _Cores(cores)
    got = KERN.compiled(ix, J, D, q, pk, pstart, pidx)
    want = KERN.reference(ix, J, D, q, pk, pstart, pidx)
    assert got is not None and C._same_bits(got, want)
    assert 0.1 < want.mean() < 0.9


@built
def test_vertices_shadowed_compiled_leaves_other_inputs_to_the_reference():
    ix, J, D, q, pk, pstart, pidx = _pairs(np.random.default_rng(7))
    assert KERN.compiled(ix, J, D, q, pk, pstart, pidx) is not None
    nan = D[:2] + (np.where(np.arange(len(D[2])) == 0, np.nan, D[2]),) + D[3:]
    bad = [
        ((D[0].astype(np.float32),) + D[1:], J, q, pstart, pidx),   # another float type
        (D, J, q.astype(np.int32), pstart, pidx),                   # another index type
        (nan, J, q, pstart, pidx),                                  # no number
        (D, J, q + len(D[0]), pstart, pidx),                        # no such pair
        (D, J, q, pstart, pidx + len(pk)),                          # no such piece
        (D, J, q, pstart[::-1].copy(), pidx),                       # rows going back
        (D, J[:-1], q, pstart, pidx),                               # lengths that differ
    ]
    for d, jj, qq, ps, pi in bad:
        assert KERN.compiled(ix, jj, d, qq, pk, ps, pi) is None
