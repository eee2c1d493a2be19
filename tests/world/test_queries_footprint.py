"""W.footprint (a model's footprint where it stands) is geometry.footprint of its Position and
Base, field for field and type for type, though it skips that function's checks of the shape
and sizes (the world's bases are checked as it is built): for every model, round, oval and
rectangular, before and after a whole battle's moves."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
import pytest

from sim.battle import Battle
from sim.components import Base, Position
from sim.players import play_battle
from sim.rules import geometry
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


def _checked(b) -> int:
    n = 0
    for m in b.models.values():
        pos, base = esper.component_for_entity(m, Position), esper.component_for_entity(m, Base)
        want = geometry.footprint(base.shape, pos.x, pos.y, base.length, base.width, base.angle)
        got = W.footprint(m)
        assert got == want and [type(v) for v in dataclasses.astuple(got)] == [type(v) for v in dataclasses.astuple(want)]
        n += base.shape != "round"
    return n


@pytest.mark.parametrize("name", ["battle_default", "deployment", "transport"])
def test_queries_footprint_is_geometry_footprint_of_the_components(name):
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    with Battle(spec, seed=3) as b:
        hulls = _checked(b)
        play_battle(b, spec)
        _checked(b)
    assert name != "battle_default" or hulls


@pytest.mark.parametrize("name", ["battle_default", "deployment", "reserves"])
def test_other_models_are_every_living_model_on_the_battlefield_of_every_other_unit(name):
    """(W.other_models: what a set-up is checked against, 03.02: in unit order, the unit's own,
    destroyed models and models off the battlefield left out, each with its footprint where it
    stands: after every set-up, move and removal of a whole battle, its deployment included.)"""
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    seen = {"off": 0, "lost": 0, "checks": 0}
    with Battle(spec, seed=4) as b:
        def on_event(e):
            units = W.all_units()
            for u in units[:: max(1, len(units) // 4)]:
                want = [(W.model_id(m), W.footprint(m)) for o in units if o != u for m in W.unit_models(o)]
                assert W.other_models(u) == want, e["type"]
                seen["checks"] += 1
            seen["off"] += sum(W.off_table(u) for u in units)
        b.listeners.append(on_event)
        play_battle(b, spec)
        seen["lost"] = sum(len(W.unit_models(u, living=False)) - len(W.alive_models(u)) for u in W.all_units())
    assert seen["checks"] > 100 and (seen["off"] or seen["lost"])
