"""06.01 / 13.10 / 13.11 The "definitely blocked" stage of the VisibilityIndex (umbra of one
piece's chord, sim.rules.visibility.umbra.umbra_blocked) and the batched exact stages, against the
single-pair exact functions: every pair the stage certifies blocked has no line of sight,
with round, oval and rectangular bases, bases overlapping terrain, both orientations of a
pair and the dense-only variant (13.11.01); and the index's matrices equal the pair functions
on the benchmark-style table (many pieces, many pairs per batch)."""

import numpy as np

from sim.rules.geometry import footprint, round_base
from sim.rules.visibility.umbra import _umbra_one_target, _umbra_part, _umbra_sparse, umbra_blocked
from sim.rules.terrain import default_table
from sim.rules.visibility.sight import TerrainBlockers, model_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import random_layout


def _fp(rng, lo=1.0, hi=29.0):
    x, y = rng.uniform(lo, hi, size=2)
    kind = rng.integers(0, 6)
    if kind == 4:
        return footprint("oval", x, y, rng.uniform(1.5, 4.0), rng.uniform(0.8, 1.5), rng.uniform(0, 180))
    if kind == 5:
        return footprint("rect", x, y, rng.uniform(1.5, 4.0), rng.uniform(0.8, 2.0), rng.uniform(0, 180))
    return round_base(int(rng.choice([25, 32, 40, 60])), x, y)


def _layout(rng, table: bool, others: int, shaped: int, rounds: int):
    """(terrain, footprints): a random layout's two bases and ``others`` more of any shape; or
    (``table``) the default table with ``shaped`` bases of any shape and ``rounds`` 32 mm ones."""
    if not table:
        areas, a, b = random_layout(rng)
        return areas, [a, b] + [_fp(rng) for _ in range(others)]
    fps = [_fp(rng, 1.0, 43.0) for _ in range(shaped)] + \
        [round_base(32, *rng.uniform([1, 1], [59, 43])) for _ in range(rounds)]
    return default_table(), fps


def _index(areas, fps):
    models = [ModelEntry(f"m{k}", fp, "red" if k % 2 == 0 else "blue", f"u{k % 2}",
                         frozenset({"INFANTRY"})) for k, fp in enumerate(fps)]
    return VisibilityIndex(areas, models, include_friendly=True)


def test_umbra_certificate_is_sound():
    rng = np.random.default_rng(11)
    certified = 0
    for _ in range(70):
        areas, a, b = random_layout(rng)
        fps = [a, b] + [_fp(rng) for _ in range(6)]
        idx = _index(areas, fps)
        blk = TerrainBlockers.build(areas)
        I, J = np.triu_indices(len(fps), k=1)
        for dense_only in (False, True):
            for obs, tgt in ((I, J), (J, I)):
                blocked = umbra_blocked(idx, obs, tgt, dense_only)
                for q in np.flatnonzero(blocked):
                    i, j = obs[q], tgt[q]
                    assert not model_visible(fps[i], fps[j], blk, dense_only=dense_only), (i, j)
                certified += int(blocked.sum())
        for i, j in zip(I, J):
            assert idx.los[i, j] == model_visible(fps[i], fps[j], blk), (i, j)
    assert certified > 500


def test_sparse_candidates_certify_the_same_pairs_as_angular_bins():
    """The two candidate searches of umbra_blocked (angular bins per observer; with few
    targets per observer, as after one move, the pieces near each pair's centre segment)
    certify the same pairs, with round, oval and rectangular bases, on small random layouts
    and on the default table."""
    rng = np.random.default_rng(19)
    certified = 0
    for n in range(50):
        if n % 5:
            areas, a, b = random_layout(rng)
            fps = [a, b] + [_fp(rng) for _ in range(10)]
        else:
            areas = default_table()
            fps = [_fp(rng) for _ in range(6)] + \
                [round_base(32, *rng.uniform([1, 1], [59, 43])) for _ in range(20)]
        idx = _index(areas, fps)
        I, J = np.nonzero(~np.eye(len(fps), dtype=bool))
        uo, oinv = np.unique(I, return_inverse=True)
        for dense_only in (False, True):
            by_bins = _umbra_part(idx, I, J, uo, oinv, dense_only)
            assert (by_bins == _umbra_sparse(idx, I, J, dense_only)).all()
            certified += int(by_bins.sum())
    assert certified > 500


def test_one_model_lit_from_the_others_kept_chords_is_sound():
    """One model against many (a model moved): the certificate lit from each other model with
    its chords kept between moves (_umbra_one_target, ChordCache) certifies only pairs without
    sight, about as many as lighting from the one model (angular bins), and the same after
    models move (their kept chords made again), with round, oval and rectangular bases."""
    rng = np.random.default_rng(23)
    certified = by_bins = 0
    for n in range(40):
        areas, fps = _layout(rng, n % 4 == 0, 12, 6, 20)
        idx = _index(areas, fps)
        blk = TerrainBlockers.build(areas)
        for step in range(3):
            fresh = _index(areas, idx.fps)  # (made anew: no chord kept; the same for every target)
            for t in range(0, len(fps), 3):
                others = np.array([k for k in range(len(fps)) if k != t])
                blocked = _umbra_one_target(idx, others, t)
                # (every third certified pair against the exact rule: ~1,400 of them, each about
                # 10 ms in the scalar rule's terrain tests; every pair against a fresh index)
                for q in np.flatnonzero(blocked)[(n + step + t) % 3::3]:
                    assert not model_visible(idx.fps[others[q]], idx.fps[t], blk), (n, t, others[q])
                assert (blocked == _umbra_one_target(fresh, others, t)).all()
                certified += int(blocked.sum())
                by_bins += int(_umbra_part(idx, np.full(len(others), t), others, np.array([t]),
                                           np.zeros(len(others), np.int64), False).sum())
            k = int(rng.integers(len(fps)))          # a model moves: its chords are made again
            idx.update([f"m{k}"], [idx.fps[k].moved(*rng.uniform([1, 1], [29, 29]))])
    assert certified > 500 and abs(certified - by_bins) < 0.1 * by_bins


def test_big_table_matches_pair_function_and_incremental():
    rng = np.random.default_rng(3)
    areas = default_table()
    fps = [round_base(int(rng.choice([25, 32, 40])), *rng.uniform([1, 1], [59, 43])) for _ in range(36)]
    fps[5] = footprint("oval", 30, 22, 4.0, 2.5, 30.0)
    idx = _index(areas, fps)
    blk = TerrainBlockers.build(areas)
    for i in range(len(fps)):
        for j in range(i + 1, len(fps)):
            assert idx.los[i, j] == model_visible(fps[i], fps[j], blk), (i, j)
    for k in (5, 17, 30):
        idx.update([f"m{k}"], [fps[k].moved(*rng.uniform([1, 1], [59, 43]))])
    inc = idx.los.copy()
    idx.full_recompute()
    assert np.array_equal(inc, idx.los)


def test_no_certificate_from_a_non_convex_piece():
    """The umbra argument needs a convex piece (its chord lies inside it): the sliver that
    convex_pieces can leave along an L wall's diagonal (Pieces.convex False) never certifies a
    pair, whatever the observer; the convex pieces of the same wall do."""
    from sim.rules.visibility.umbra import _chord_lines
    from sim.rules.terrain import Feature, TerrainArea
    wall = ((10, 10), (15.5, 10), (15.5, 10.5), (10.5, 10.5), (10.5, 13.5), (10, 13.5))
    areas = [TerrainArea("ruin", ((8, 8), (18, 8), (18, 16), (8, 16)), (Feature("dense", wall),))]
    rng = np.random.default_rng(3)
    fps = [round_base(32, *rng.uniform([1, 1], [29, 29])) for _ in range(40)]
    idx = _index(areas, fps)
    convex = idx.blk.pieces.convex
    assert not convex.all() and convex.any()
    obs = np.arange(len(fps))
    for dense_only in (False, True):
        valid = _chord_lines(idx, obs, dense_only)["valid"].reshape(len(obs), -1)
        assert not valid[:, ~convex].any()
        assert valid[:, convex].any()


def test_ruin_of_two_l_walls_seen_across_the_diagonal_sliver():
    """Regression (found by a differential fuzz): two models standing on the two L walls of a
    ruin see each other (the single-pair exact function and the brute force on the original
    polygons agree), but the umbra stage used to certify the pair blocked through the
    non-convex sliver convex_pieces lays along an L wall's diagonal."""
    from sim.rules.terrain import Feature, TerrainArea
    from _layouts import brute_visible
    wall1 = ((0, 0), (5.5, 0), (5.5, 0.5), (0.5, 0.5), (0.5, 3.5), (0, 3.5))
    wall2 = ((10, 6), (4.5, 6), (4.5, 5.5), (9.5, 5.5), (9.5, 2.5), (10, 2.5))
    areas = [TerrainArea("ruins", ((0, 0), (10, 0), (10, 6), (0, 6)),
                         (Feature("dense", wall1), Feature("dense", wall2)))]
    a, b = round_base(32, 4.583, 0.117), round_base(25, 9.367, 5.986)
    assert model_visible(a, b, TerrainBlockers.build(areas)) and brute_visible(areas, a, b)
    idx = VisibilityIndex(areas, [ModelEntry("a", a, "red", "ua", frozenset({"INFANTRY"})),
                                  ModelEntry("b", b, "blue", "ub", frozenset({"INFANTRY"}))])
    assert idx.los[0, 1] and idx.los[1, 0]


def test_pieces_near_the_pairs_box_give_the_answers_of_every_piece(monkeypatch):
    """The umbra stage, both candidate searches, and the capsule inputs of the exact stages
    read only the pieces near the box holding the pairs' centres (pairs._pieces_near_box):
    for pairs in one part of a table, the same answers and inputs as with every piece."""
    import sim.rules.visibility.pairs as PR
    import sim.rules.visibility.umbra as UM
    rng = np.random.default_rng(23)
    areas = default_table()
    fps = [_fp(rng, 1.0, 20.0) for _ in range(8)] + \
        [round_base(32, *rng.uniform([1, 1], [20, 43])) for _ in range(12)]
    idx = _index(areas, fps)
    I, J = np.nonzero(~np.eye(len(fps), dtype=bool))
    uo, oinv = np.unique(I, return_inverse=True)
    R = np.maximum(idx.rad[I], idx.rad[J]) + 1e-6
    assert len(PR._pieces_near_box(idx, I, J, R)) < len(idx.blk.pieces)   # (some left out)

    def answers():
        out = [PR.capsule_inputs(idx, I, J, dense) for dense in (False, True)]
        for dense in (False, True):
            out.append(_umbra_part(idx, I, J, uo, oinv, dense))
            out.append(_umbra_sparse(idx, I, J, dense))
        return out

    near = answers()
    every = lambda ix, I, J, R: np.arange(len(ix.blk.pieces))   # noqa: E731
    monkeypatch.setattr(PR, "_pieces_near_box", every)
    monkeypatch.setattr(UM, "_pieces_near_box", every)
    for a, b in zip(near, answers()):
        for x, y in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
            assert np.array_equal(x, y)
    assert any(a.any() for a in near[2:])          # (some pair certified blocked)


def test_near_pairs_sweep_is_the_grids_entries(monkeypatch):
    """pairs.near_pairs (each pair against the pieces within its segment's x range, the pieces
    sorted by x) gives the True entries of the whole pairs x pieces grid, in its order, with
    bases of every shape on the default table and on layouts of many pieces."""
    import sim.rules.visibility.pairs as PR
    monkeypatch.setattr(PR, "_SWEEP_MIN", 0)       # (the sweep, whatever the sizes and
    monkeypatch.setattr(PR, "_SWEEP_KEEP", 2.0)    # however little it leaves out)
    rng = np.random.default_rng(29)
    checked = 0
    for n in range(12):
        areas, fps = _layout(rng, n % 3 == 0, 30, 10, 30)
        idx = _index(areas, fps)
        I, J = np.nonzero(~np.eye(len(fps), dtype=bool))
        R = np.maximum(idx.rad[I], idx.rad[J]) + 1e-6
        ks = np.arange(len(idx.blk.pieces))
        p, k = PR.near_pairs(idx, I, J, R, ks)
        wp, wk = np.nonzero(PR._near_segment(idx, I, J, R, ks))
        assert np.array_equal(p, wp) and np.array_equal(k, wk)
        checked += len(p)
    assert checked > 1000
