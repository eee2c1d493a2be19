"""06.01 + 13.09 + 24.24 VisibilityIndex keeps ``visible`` current entry by entry (the rows and
columns of moved models, of a model whose Lone Operative range changed and of a unit whose
ranged attacks changed its hidden flags; the pairs whose sight was resolved): after any sequence
of those, read in any order, every answer equals an index built afresh with the same state."""

import numpy as np
import pytest

from sim.rules.terrain import default_table
from sim.rules.visibility.index import ModelEntry, VisibilityIndex

from random_bases import random_base
from test_06_01_lazy_sight import _models, _read_randomly


def _fresh(areas, models, fps, attacked, lone):
    ref = VisibilityIndex(areas, [ModelEntry(m.id, f, m.army, m.unit, m.keywords) for m, f in zip(models, fps)])
    for u in attacked:
        ref.set_unit_made_ranged_attacks(u, True)
    for mid, x in lone.items():
        ref.set_lone_operative(mid, x)
    return ref


@pytest.mark.parametrize("seed", range(4))
def test_visible_kept_current_through_moves_attacks_and_lone_operatives(seed):
    rng = np.random.default_rng(700 + seed)
    areas = default_table()
    fps = [random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43)) for _ in range(16)]
    models = _models(rng, fps)
    idx = VisibilityIndex(areas, models)
    idx.set_reach(rng.choice([0.0, 6.0, 12.0, np.inf], size=len(models)))
    attacked: set[str] = set()
    lone: dict[str, float | None] = {}
    idx.visible  # (a cache to keep current)
    for _ in range(8):
        what = rng.integers(0, 3)
        if what == 0:
            ks = rng.choice(len(models), size=int(rng.integers(1, 3)), replace=False)
            for k in ks:
                fps[k] = random_base(rng, rng.uniform(1, 59), rng.uniform(1, 43))
            idx.update([models[k].id for k in ks], [fps[k] for k in ks])
        elif what == 1:
            u = f"u{int(rng.integers(0, 6))}"
            made = u not in attacked
            (attacked.add if made else attacked.discard)(u)
            idx.set_unit_made_ranged_attacks(u, made)
        else:
            mid = models[int(rng.integers(0, len(models)))].id
            lone[mid] = None if rng.random() < 0.3 else float(rng.choice([6.0, 12.0]))
            idx.set_lone_operative(mid, lone[mid])
        ref = _fresh(areas, models, fps, attacked, lone)
        _read_randomly(rng, idx, ref, reads=6)
    assert np.array_equal(idx.visible, ref.visible)
    # and the stale entries were recomputed, not the whole matrix made anew each time
    assert not idx._vis_rows and not idx._vis_pairs
