"""01.04 The pruned closest-distance routine (geometry._convex_distance) against the full
(vertex, edge) grid it replaced, and the one-step round-to-hulls distances against the
pair routine: the same floats, bit for bit, on many random layouts."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.rules import geometry
from sim.rules.geometry import core, distance, distance_matrix, footprint, round_base


def _full_grid(p, q):
    """The former _convex_distance: containment, crossing, then every (vertex, edge) pair."""
    if geometry._point_in_convex(p[0], q) or geometry._point_in_convex(q[0], p):
        return 0.0
    pe, qe = np.roll(p, -1, axis=0), np.roll(q, -1, axis=0)
    if len(p) > 1 and len(q) > 1 and geometry._edges_cross(p, pe, q, qe):
        return 0.0
    psd = geometry._point_segment_dist
    d1 = psd(p[:, None, :], q[None, :, :], qe[None, :, :]).min()
    d2 = psd(q[:, None, :], p[None, :, :], pe[None, :, :]).min()
    return float(min(d1, d2))


def _random_fp(rng, near=None, spread=3.0):
    shape = rng.choice(["round", "oval", "rect"])
    x, y = (rng.uniform(0, 60, 2) if near is None else rng.normal(near, spread))
    if shape == "round":
        return round_base(float(rng.choice([25, 32, 40, 60, 100])), x, y)
    return footprint(str(shape), x, y, rng.uniform(0.3, 8), rng.uniform(0.3, 5), rng.uniform(0, 360))


@pytest.mark.parametrize("seed", range(4))
def test_convex_distance_is_the_full_grid_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    zero = apart = 0
    for _ in range(600):
        a = _random_fp(rng)
        b = _random_fp(rng, (a.x, a.y), float(rng.choice([0.5, 2.0, 6.0, 20.0])))
        if a.shape == "round" and b.shape == "round":
            continue
        (pa, ra), (pb, rb) = core(a), core(b)
        want = max(0.0, _full_grid(pa, pb) - ra - rb)
        assert distance(a, b) == want, (a, b)
        assert geometry._convex_distance(pa, pb) == _full_grid(pa, pb), (a, b)
        zero += want == 0.0
        apart += want > 0.0
    assert zero > 50 and apart > 200        # both kinds of answer well represented


@pytest.mark.parametrize("seed", range(3))
def test_round_bases_against_many_hulls_are_distance_to_the_bit(seed):
    """distance_matrix puts every round base against every hull in one step (hulls of 4 and
    64 vertices padded together): each entry is ``distance``'s float."""
    rng = np.random.default_rng(100 + seed)
    fps = [_random_fp(rng) for _ in range(12)]
    fps += [_random_fp(rng, (f.x, f.y), 1.5) for f in fps for _ in range(3)]
    rows = fps[::5]
    for m, rr in ((distance_matrix(fps, fps), fps), (distance_matrix(rows, fps), rows)):
        for i, a in enumerate(rr):
            for j, b in enumerate(fps):
                if a.shape != "round" or b.shape != "round":
                    assert m[i, j] == distance(a, b), (i, j)


def test_core_arrays_are_read_only():
    """core keeps its answers per footprint: a caller writing into one would change them all."""
    pts, _ = core(footprint("oval", 3, 4, 4, 2, 30))
    with pytest.raises(ValueError):
        pts[0, 0] = 1.0


@pytest.mark.parametrize("seed", range(2))
def test_fps_distance_matrix_is_distance_to_the_bit(seed):
    """kernels.fps_distance_matrix (the movement rules' matrix) is distance_matrix with a
    zero diagonal: every entry with a hull is ``distance``'s float, both ways round (round
    pairs: geometry.disc_distances, as before)."""
    from sim.rules.movement.kernels import fps_distance_matrix
    rng = np.random.default_rng(200 + seed)
    fps = [_random_fp(rng) for _ in range(8)]
    fps += [_random_fp(rng, (f.x, f.y), 2.0) for f in fps for _ in range(2)]
    m = fps_distance_matrix(fps)
    for i, a in enumerate(fps):
        for j, b in enumerate(fps):
            if i == j:
                assert m[i, j] == 0.0
            elif a.shape != "round" or b.shape != "round":
                assert m[i, j] == distance(a, b), (i, j)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 40), st.booleans())
def test_01_04_disc_distances_are_the_plain_form_to_the_bit(seed, n, m, grid):
    """geometry.disc_distances (each pair's squared length as two products and a sum, in place)
    gives the plain form's floats: the root of the summed squares of the centres' difference,
    less both radii, at least 0; centres on the quarter-inch grid too (ties and touching
    bases)."""
    rng = np.random.default_rng(seed)
    ca, cb = rng.uniform(-60, 60, (n, 2)), rng.uniform(-60, 60, (m, 2))
    if grid:
        ca, cb = np.round(ca * 4) / 4, np.round(cb * 4) / 4
    ra, rb = rng.choice([0.0, 0.5, 0.63, 1.25, 2.0], n), rng.choice([0.0, 0.5, 0.63, 1.25, 2.0], m)
    want = np.maximum(np.sqrt(((ca[:, None, :] - cb[None, :, :]) ** 2).sum(axis=2)) - ra[:, None] - rb[None, :], 0.0)
    assert np.array_equal(geometry.disc_distances(ca, ra, cb, rb), want)
