"""03.02 / Part A ruling 13 table._discs_clear (the placement solver's clearance test of a
round base against the round bases about it, at many candidate centres): the squared centre
distances settle the pairs clear of the band, and every answer is the plain formula's,
``hypot - r - r_other >= gap``, to the bit, pairs on the limit and just either side of it
included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.movement.solvers import table as TB


def _plain(c, r, oc, orad, gap):
    d = np.hypot(c[:, 0:1] - oc[None, :, 0], c[:, 1:2] - oc[None, :, 1]) - r - orad[None, :]
    return (d >= gap).all(axis=1)


def _on_the_limit(rng, oc, orad, r, gap, n):
    """Centres whose distance to a disc is its limit, and a hair (1e-15" to 1e-6") either side."""
    j = rng.integers(0, len(oc), size=n)
    a = rng.uniform(0, 2 * math.pi, size=n)
    shift = rng.choice([0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 0.9e-7, -0.9e-7, 1.1e-7,
                        -1.1e-7, 1e-6, -1e-6], size=n)
    t = r + orad[j] + gap + shift
    return oc[j] + t[:, None] * np.stack([np.cos(a), np.sin(a)], axis=1)


@pytest.mark.parametrize("seed", range(8))
def test_discs_clear_is_the_plain_formula(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    oc = rng.uniform(0, 60, size=(n, 2))
    orad = rng.choice([0.5, 0.63, 0.79, 1.0, 1.26, 2.0], size=n)
    r = float(rng.choice([0.5, 0.63, 1.0, 1.97]))
    gap = float(rng.choice([5e-4, 0.5, 1.0, 3.0])) - 1e-9
    c = np.concatenate([rng.uniform(-2, 62, size=(int(rng.integers(1, 400)), 2)),
                        _on_the_limit(rng, oc, orad, r, gap, 200)])
    got = TB._discs_clear(c, r, oc, orad, gap)
    want = _plain(c, r, oc, orad, gap)
    assert got.dtype == bool and got.tolist() == want.tolist()
    assert 0 < want.sum() < len(want)    # (both answers met)


def test_discs_clear_measures_the_band_exactly():
    """A pair whose squared distance cannot settle it (within the band of its limit) is measured
    by the formula: the answer flips exactly where the formula's does."""
    oc, orad, r, gap = np.array([[10.0, 10.0]]), np.array([0.63]), 0.63, 1.0 - 1e-9
    lim = r + 0.63 + gap
    xs = np.array([10.0 + lim + k * 1e-15 for k in range(-8, 9)])
    c = np.stack([xs, np.full(len(xs), 10.0)], axis=1)
    got = TB._discs_clear(c, r, oc, orad, gap)
    want = _plain(c, r, oc, orad, gap)
    assert got.tolist() == want.tolist() and want.any() and not want.all()
