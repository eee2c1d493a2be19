"""06.01 Fully visible, batched (sim.rules.visibility.batch.fully_visible_round, used by the
VisibilityIndex) against the one-pair-at-a-time kernel (kernels.footprint_fully_visible)
on the same pieces and obstacle vertices: random layouts, bases of 25-60 mm anywhere
(overlapping terrain, walls and each other included), every ordered pair of a layout resolved
in one batch; and the index's eager matrix against the pair function on a big table."""

import numpy as np

from sim.rules.geometry import core, round_base
from sim.rules.visibility.full import fully_visible_round
from sim.rules.visibility.kernels import footprint_fully_visible
from sim.rules.terrain import default_table
from sim.rules.visibility.sight import TerrainBlockers, model_fully_visible
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from _layouts import layout_and_bases, ordered_pair_inputs


def _csr(lists):
    start = np.zeros(len(lists) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(x) for x in lists])
    return start, lists


def test_batched_fully_visible_matches_kernel_on_random_layouts():
    rng = np.random.default_rng(31)
    pairs = full = overlapping = 0
    for _ in range(300):
        _areas, fps, blk, within = layout_and_bases(rng)
        P, K, C, R, ref = [], [], [], [], []
        for i, j, k, verts in ordered_pair_inputs(fps, blk, within):
            (ac, ar), (bc, br) = core(fps[i]), core(fps[j])
            ref.append(footprint_fully_visible(ac, ar, bc, br, blk.pieces.subset(k), verts))
            P.append(k)
            K.append(verts)
            C.append((ac[0], bc[0]))
            R.append((ar, br))
            pk = blk.pieces.subset(k)
            overlapping += any(np.any((np.einsum("i,kvi->kv", c, pk.normals) - pk.offs).max(1) < r)
                               for c, r in ((ac[0], ar), (bc[0], br)))
        pstart = np.zeros(len(P) + 1, dtype=np.int64)
        pstart[1:] = np.cumsum([len(x) for x in P])
        ostart = np.zeros(len(K) + 1, dtype=np.int64)
        ostart[1:] = np.cumsum([len(x) for x in K])
        pidx = np.concatenate(P).astype(np.int64)
        opts = np.concatenate(K).reshape(-1, 2)
        C, R = np.array(C), np.array(R)
        got = fully_visible_round(C[:, 0], R[:, 0], C[:, 1], R[:, 1], blk.pieces, pstart, pidx,
                                  ostart, opts)
        assert got.tolist() == ref
        pairs += len(ref)
        full += sum(ref)
    assert pairs == 300 * 42
    assert 0.2 * pairs < full < 0.8 * pairs         # both outcomes well exercised
    assert overlapping > 500                        # bases overlapping active blockers
    print(f"\nfully visible, batched vs kernel: {pairs} pairs, {full} fully visible, "
          f"{overlapping} with a base overlapping a blocker, 0 disagreements")


def test_index_fully_visible_matches_pair_function_on_big_table():
    rng = np.random.default_rng(8)
    areas = default_table()
    fps = [round_base(int(rng.choice([25, 32, 40, 60])), *rng.uniform([1, 1], [59, 43]))
           for _ in range(60)]
    models = [ModelEntry(f"m{k}", fp, "red" if k % 2 == 0 else "blue", f"u{k % 6}",
                         frozenset({"INFANTRY"})) for k, fp in enumerate(fps)]
    idx = VisibilityIndex(areas, models)
    blk = TerrainBlockers.build(areas)
    fv = idx.fully_visible
    checked = 0
    for i in range(len(fps)):
        for j in range(len(fps)):
            if idx.army[i] != idx.army[j] and idx.los[i, j] and not idx._clear[i, j]:
                assert fv[i, j] == model_fully_visible(fps[i], fps[j], blk), (i, j)
                checked += 1
    assert checked > 100
