"""06.01 VisibilityIndex sight for pairs with an oval or rectangular base: the disc
certificates (a disc inside each base seen: sight; the bounding discs not seen: no sight) and
the sampled segments (one free segment between sample points of the two bases: sight) settle
most pairs before kernels.pair_visible; the index must answer what the pair
function (model_visible, that kernel on every pair) answers, on the default table and on
random layouts, after a full build and after moves."""

import numpy as np
import pytest

from sim.rules.visibility import index_pairs as vi  # (where the index resolves its pairs)
from sim.rules.terrain import default_table
from sim.rules.visibility.sight import TerrainBlockers, model_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex
from sim.rules.visibility.index_pairs import _inner_radius

from _layouts import random_layout
from random_bases import random_base


def _check(idx, blk):
    for i in range(len(idx.ids)):
        for j in range(len(idx.ids)):
            if idx.army[i] != idx.army[j]:
                assert idx.los[i, j] == model_visible(idx.fps[i], idx.fps[j], blk), (i, j)


@pytest.fixture
def exact_calls(monkeypatch):
    calls = []
    real = vi.pair_visible

    def counted(*a):
        calls.append(1)
        return real(*a)
    monkeypatch.setattr(vi, "pair_visible", counted)
    return calls


@pytest.mark.parametrize("seed", range(2))
def test_index_sight_with_hulls_is_the_pair_function(seed, exact_calls, monkeypatch):
    # (both disc certificates and the round pairs' exact answer in one call of the disc kernel
    # per batch of pairs: counted)
    disc_calls, exact_los_calls = [], []
    real_discs, real_exact = vi.PairResolution._discs_visible, vi.PairResolution._exact_los
    monkeypatch.setattr(vi.PairResolution, "_discs_visible",
                        lambda self, *a: disc_calls.append(1) or real_discs(self, *a))
    monkeypatch.setattr(vi.PairResolution, "_exact_los",
                        lambda self, *a: exact_los_calls.append(len(a[2])) or real_exact(self, *a))
    rng = np.random.default_rng(300 + seed)
    areas = default_table()
    blk = TerrainBlockers.build(areas)
    models = [ModelEntry(f"m{k}", random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43)),
                         "red" if k % 2 else "blue", f"u{k}") for k in range(18)]
    idx = VisibilityIndex(areas, models)
    _check(idx, blk)
    for _ in range(3):
        ks = rng.choice(len(models), size=3, replace=False)
        fps = [random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43)) for _ in ks]
        idx.update([models[k].id for k in ks], fps)
        _check(idx, blk)
    hull_pairs = sum(1 for i in range(18) for j in range(i + 1, 18)
                     if idx.army[i] != idx.army[j] and not (idx.round[i] and idx.round[j]))
    assert 0 < len(exact_calls) < hull_pairs            # the certificates settle some, not all
    assert len(disc_calls) == sum(1 for n in exact_los_calls if n) > 0


def test_index_sight_with_hulls_on_random_layouts(exact_calls):
    rng = np.random.default_rng(17)
    seen = {True: 0, False: 0}
    for _ in range(25):
        areas, a, b = random_layout(rng)
        blk = TerrainBlockers.build(areas)
        fps = [random_base(rng, *rng.uniform(1, 29, 2)) for _ in range(8)] + [a, b]
        models = [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")
                  for k, f in enumerate(fps)]
        idx = VisibilityIndex(areas, models)
        _check(idx, blk)
        for i in range(10):
            for j in range(10):
                if idx.army[i] != idx.army[j]:
                    seen[bool(idx.los[i, j])] += 1
    assert seen[True] > 120 and seen[False] > 60
    assert exact_calls


def test_inner_radius_is_inside_the_core():
    from sim.rules.geometry import core
    rng = np.random.default_rng(3)
    for _ in range(200):
        f = random_base(rng, *rng.uniform(0, 30, 2))
        pts, r = core(f)
        if len(pts) == 1:
            assert _inner_radius(f) == r
            continue
        e = np.roll(pts, -1, axis=0) - pts
        w = np.array([f.x, f.y]) - pts
        # distance from the centre to each edge line: all at least the inner radius
        d = (e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]) / np.hypot(e[:, 0], e[:, 1])
        assert d.min() >= _inner_radius(f) > 0.99 * d.min()


def test_sample_points_are_in_their_base():
    """_sample_points: every point in its base (within its convex core grown by the radius:
    a vertex of a polygon core on its outline), so a free segment between two is a sight line."""
    from sim.rules.geometry import core
    rng = np.random.default_rng(5)
    areas = default_table()
    fps = [random_base(rng, *rng.uniform(2, 40, 2)) for _ in range(60)]
    idx = VisibilityIndex(areas, [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")
                                  for k, f in enumerate(fps)])
    for k, f in enumerate(fps):
        pts, r = core(f)
        sample = idx._sample_points(k)
        assert len(sample) >= 5
        if len(pts) == 1:
            assert (np.hypot(*(sample - pts[0]).T) <= 0.999 * r + 1e-12).all()
            continue
        e = np.roll(pts, -1, axis=0) - pts                 # (counter-clockwise: inside on the left)
        for q in sample:
            w = q - pts
            assert (e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0] >= -1e-9).all()


def test_sampled_segments_settle_most_pairs_the_discs_leave(monkeypatch):
    """On random layouts with oval and rectangular bases, the index asks the exact kernel of
    fewer pairs with the sampled segments than without them, and answers the same."""
    def run(with_samples: bool):
        if not with_samples:
            monkeypatch.setattr(vi.PairResolution, "_samples_visible",
                                lambda self, i, j, h, ps, pi: np.zeros(len(h), dtype=bool))
        calls = []
        real = vi.pair_visible
        monkeypatch.setattr(vi, "pair_visible", lambda *a: calls.append(1) or real(*a))
        rng = np.random.default_rng(23)
        los = []
        for _ in range(15):
            areas, a, b = random_layout(rng)
            fps = [random_base(rng, *rng.uniform(1, 29, 2)) for _ in range(8)] + [a, b]
            idx = VisibilityIndex(areas, [ModelEntry(f"m{k}", f, "red" if k % 2 else "blue", f"u{k}")
                                          for k, f in enumerate(fps)])
            los.append(idx.los.copy())
        monkeypatch.undo()
        return los, len(calls)
    with_los, with_calls = run(True)
    without_los, without_calls = run(False)
    assert all(np.array_equal(a, b) for a, b in zip(with_los, without_los))
    assert with_calls < 0.6 * without_calls
