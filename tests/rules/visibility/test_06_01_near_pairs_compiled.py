"""06.01 sim.rules.visibility.pairs.near_pairs (the pieces whose bounding circle comes near a
pair's centre segment: the candidates of the capsule and umbra stages) and its compiled twin
(sim.rules.compiled: ``visibility.near_pairs``) give the same entries: every ordered pair of
bases of seeded random layouts, with the reference's whole grid (few entries) and its sweep
by x (many), radii from none to a table's width, a pair of one model with itself (a segment
of no length); and the inputs the twin leaves to the reference."""

from __future__ import annotations

import numpy as np
import pytest

from _layouts import layout_and_bases
from sim.rules import compiled as C
from sim.rules.visibility import pairs as V
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

KERN = C.KERNELS["visibility.near_pairs"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")


def _index(rng, extra: int):
    areas, fps, _blk, _within = layout_and_bases(rng, extra)
    return VisibilityIndex(areas, [ModelEntry(f"m{k}", fp, "red" if k % 2 else "blue", f"u{k % 4}",
                                              frozenset({"INFANTRY"})) for k, fp in enumerate(fps)])


def _same(ix, I, J, R, ks):
    got, want = KERN.compiled(ix, I, J, R, ks), KERN.reference(ix, I, J, R, ks)
    assert got is not None and C._same_bits(got, want)
    return want


@built
@pytest.mark.parametrize("seed", range(3))
def test_near_pairs_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    found = 0
    for extra in (2, 30):           # (P x K below and above the reference's grid limit)
        ix = _index(rng, extra)
        n, K = len(ix.fps), len(ix.blk.pieces)
        I, J = np.nonzero(np.ones((n, n), dtype=bool))       # (each model with itself too)
        for R in (np.maximum(ix.rad[I], ix.rad[J]) + 1e-6, np.zeros(len(I)),
                  rng.uniform(0, 30, size=len(I))):
            for ks in (V._pieces_near_box(ix, I, J, R), np.flatnonzero(rng.random(K) < 0.4),
                       np.arange(K)):
                found += len(_same(ix, I, J, R, ks)[0])
    assert found > 0


@built
def test_near_pairs_compiled_at_the_margin():
    """Radii that put a piece's circle at the test's margin from a pair's segment: a hair
    within the 1e-6" slack, and (found by stepping the radius a float at a time) exactly at
    it, where the comparison is an equality."""
    rng = np.random.default_rng(11)
    ix = _index(rng, 4)
    n, K = len(ix.fps), len(ix.blk.pieces)
    I, J = np.nonzero(~np.eye(n, dtype=bool))
    ks = np.arange(K)
    cx, cy, rho = ix.blk.pieces.circle
    C_ = ix.centres
    k = rng.integers(K, size=len(I))            # (one piece per pair, its distance as tested)
    ax, ay = C_[I, 0], C_[I, 1]
    dx, dy = C_[J, 0] - ax, C_[J, 1] - ay
    wx, wy = cx[k] - ax, cy[k] - ay
    L2 = dx * dx + dy * dy
    t = ((wx * dx + wy * dy) / np.where(L2 > 0, L2, 1.0)).clip(0.0, 1.0)
    wx, wy = wx - t * dx, wy - t * dy
    d2 = wx * wx + wy * wy
    R = np.sqrt(d2) - rho[k] - 5e-7             # (within the slack only)
    exact = 0
    for q in range(len(I)):                     # (and some exactly at it)
        r = np.sqrt(d2[q]) - rho[k[q]] - 1e-6
        for _ in range(8):
            g = r + rho[k[q]] + 1e-6
            if g * g == d2[q]:
                R[q], exact = r, exact + 1
                break
            r = np.nextafter(r, np.inf if g * g < d2[q] else -np.inf)
    assert exact > 5
    keep = R > 0
    got = _same(ix, I[keep], J[keep], R[keep], ks)
    assert len(got[0])


@built
def test_near_pairs_compiled_leaves_other_inputs_to_the_reference():
    ix = _index(np.random.default_rng(5), 3)
    n, K = len(ix.fps), len(ix.blk.pieces)
    I, J = np.nonzero(~np.eye(n, dtype=bool))
    R, ks = np.full(len(I), 0.5), np.arange(K)
    assert KERN.compiled(ix, I, J, R, ks) is not None
    bad = [
        (I.astype(np.int32), J, R, ks),             # another index type
        (I, J, R.astype(np.float32), ks),           # another float type
        (I, J, np.where(I == 0, np.nan, R), ks),    # no number
        (I, J, np.where(I == 0, -1.0, R), ks),      # a radius below 0 (the reference's sweep
                                                    # and grid part ways there)
        (I, J, R, ks[::-1].copy()),                 # pieces not ascending
        (I, J, R, np.sort(np.concatenate([ks, ks[:1]]))),   # a piece twice
        (I, J, R, ks + K),                          # no such piece
        (I, J + n, R, ks),                          # no such model
        (I, J[:-1], R, ks),                         # lengths that differ
    ]
    for args in bad:
        assert KERN.compiled(ix, *args) is None


@built
def test_near_pairs_compiled_a_hair_either_side_of_the_reach_off_the_segments_box():
    """Pieces off the end and off the side of a segment by its reach and a hair either side of
    the test's 1e-6" (the twin leaves out, unmeasured, what lies off the segment's box by more
    than the reach and 1e-5": these are all measured)."""
    from types import SimpleNamespace
    R, rho = 1.5, 0.75
    offs = []
    for h in (0.5e-6, 0.99e-6, 1.01e-6, 2e-6, 9e-6, 11e-6):
        d = R + rho + h
        offs += [(10.0 + d, 0.0), (-d, 0.0), (5.0, d), (5.0, -d), (10.0 + d * 0.6, d * 0.8)]
    cx, cy = (np.array(v) for v in zip(*offs))
    pieces = SimpleNamespace(circle=(cx, cy, np.full(len(cx), rho)))
    ix = SimpleNamespace(centres=np.array([[0.0, 0.0], [10.0, 0.0]]), blk=SimpleNamespace(pieces=pieces))
    I, J = np.array([0, 1], dtype=np.intp), np.array([1, 0], dtype=np.intp)
    _p, k = _same(ix, I, J, np.full(2, R), np.arange(len(cx), dtype=np.intp))
    assert 0 < len(k) < 2 * len(cx)
