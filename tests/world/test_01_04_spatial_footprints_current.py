"""01.04 The spatial index's footprints are the models' own, kept current through every move,
set-up and removal: for every model on the battlefield, ``SpatialIndex.fps`` holds the footprint
its Position and Base give (W.footprint). The visibility index's update reads them (the same
objects whose distance rows the spatial index measured, sim.rules.distance_rows), so a model
whose position changed without the spatial index being told would show here."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.players import play_battle
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["battle_default", "transport", "reserves"])
def test_spatial_footprints_are_the_models_own_through_a_whole_battle(name):
    """(Transports and strategic reserves: models embarking, disembarking and set up by ingress
    moves.)"""
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    checked = 0
    with Battle(spec, seed=5) as b:
        def on_event(e):  # (after every event)
            nonlocal checked
            fps = W.spatial().fps
            for m in b.models.values():
                if W.on_table(m):  # (the models the visibility index is told of when they move)
                    assert fps[W.model_row(m)] == W.footprint(m), (e["type"], W.model_id(m))
                    checked += 1
        b.listeners.append(on_event)
        play_battle(b, spec)
    assert checked > 100
