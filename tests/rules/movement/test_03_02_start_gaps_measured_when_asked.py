"""03.02 The placement solver measures each model's distances from its start when first asked
for (Placer.start_gaps, kept per BodyIndex and unit): a column measured alone is the one the
whole table's call gives (fps_to_rows), to the bit, whichever rows were asked first."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from sim.battle import Battle
from sim.plan import moves as MV
from sim.rules.movement.kernels import fps_to_rows
from sim.rules.movement.solvers.place import Placer
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def test_columns_asked_in_any_order_are_the_whole_tables():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    rng = random.Random(7)
    with Battle(spec, seed=1):
        idx = MV.bodies()
        n = len(idx)
        for unit, rows in idx.unit_rows.items():  # (round bases and hulls: the tank, walkers, riders)
            starts = [idx.fps[r] for r in rows.tolist()]
            full = fps_to_rows(starts, idx, np.arange(n))
            for _ in range(3):
                sub = np.array(sorted(rng.sample(range(n), rng.randint(1, n))))
                assert np.array_equal(fps_to_rows(starts, idx, sub), full[:, sub])
            placer = Placer(unit, idx, [], (60.0, 44.0), max_distance=6.0)
            for _ in range(3):
                ask = np.array(rng.sample(range(n), rng.randint(1, 12)))
                mid = placer.ids[rng.randrange(len(placer.ids))]
                assert np.array_equal(placer.start_gaps(mid, ask), full[placer.ids.index(mid), ask])
