"""01.04 One distance per pair of models in a battle: the visibility index (13.09's detection
ranges, 24.24's Lone Operative range, which pairs share a sight batch) holds the spatial
index's distances (every other rule's), not its own measure of them. After each sync of the
moves (BattleVisibility.moved) both matrices and their far codes (sim.rules.distance_rows)
are equal, entry for entry, between the models on the battlefield; a base's distance to
itself stays 0 in the visibility index. Before, each index measured a moved model's row
from its own side and ~0.1% of the entries differed in the last bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sim.systems.visibility as SV
from sim.battle import Battle
from sim.players import play_battle
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["battle_default.toml", "ladder/full_size.toml"])
def test_the_visibility_index_holds_the_spatial_index_distances(name, monkeypatch):
    compared = []
    real = SV.BattleVisibility.moved

    def moved(self, ents):
        real(self, ents)
        vi, sp = self.index, W.spatial()
        present = np.array(sp._present)
        both = present[:, None] & present[None, :]
        np.fill_diagonal(both, False)
        assert np.array_equal(vi.dist[both], sp.dist[both])
        assert np.array_equal(vi.far[both], sp.far[both])
        assert not np.diag(vi.dist).any() and not np.diag(vi.far).any()
        compared.append(int(both.sum()))
    monkeypatch.setattr(SV.BattleVisibility, "moved", moved)
    spec = load_scenario(ROOT / "scenarios" / name)
    with Battle(spec, seed=3) as b:
        play_battle(b, spec)
    assert len(compared) > 10 and min(compared) > 0
