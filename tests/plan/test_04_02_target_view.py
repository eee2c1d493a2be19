"""04.02 TargetView (a target unit as seen by every model of a shooting unit, read as one
block, or as one list for a single model) gives each model exactly what the one-model
queries give: some model of the target visible (06.01) and the distance to the closest one
(01.04), for every pair of opposing units of every scenario, before and after models are lost
(the rows and columns are then no longer contiguous)."""

from __future__ import annotations

from pathlib import Path

import esper
import pytest

from scen import kill
from sim.battle import Battle
from sim.components import Unit
from sim.plan.shoot_targets import TargetView, shooters_of
from sim.scenario.load import load_scenario
from sim.world import queries as W

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


def _check_every_pair(b: Battle, seen: set) -> None:
    vis = b.visibility
    for shooter in b.units.values():
        if W.unit_destroyed(shooter):
            continue
        shooters = shooters_of(shooter)
        owner = esper.component_for_entity(shooter, Unit).owner
        for target in b.units.values():
            if esper.component_for_entity(target, Unit).owner == owner or W.unit_destroyed(target):
                continue
            view = TargetView(b, shooters, target)
            tids = W.living(target).ids
            pairs = []  # every (shooting model, target model) pair: visible?
            for m, mid, visible, nearest in zip(shooters.models, shooters.ids, view.visible,
                                                view.nearest):
                each = [vis.model_visible(mid, t) for t in tids]
                pairs += each
                assert visible == any(each), (mid, target)
                assert nearest == W.nearest_distance(m, W.unit_models(target)), (mid, target)
                if len(shooters.models) == 1 and any(each) and not all(each):
                    seen.add("one model seeing part of a unit")
            if len(shooters.models) > 1:  # (the block counted first: every pair, none, some)
                seen.add("several models: " + ("every pair visible" if all(pairs) else
                                               "some pairs visible" if any(pairs) else
                                               "no pair visible"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_04_02_target_view_matches_one_model_at_a_time(path):
    with Battle(load_scenario(path)) as b:
        b._enter()
        _check_every_pair(b, set())
        for ent in list(b.units.values()):  # lose every other model of every unit
            for mid in W.living(ent).ids[1::2]:
                kill(b, mid)
        b.visibility.refresh()
        _check_every_pair(b, set())


def test_04_02_some_single_model_sees_part_of_a_unit():
    """(Else the single-model reading above would not be exercised where it matters, nor each
    way a block of several models is read.)"""
    seen: set = set()
    for path in SCENARIOS:
        with Battle(load_scenario(path)) as b:
            b._enter()
            _check_every_pair(b, seen)
    assert "one model seeing part of a unit" in seen
    assert {"several models: every pair visible", "several models: some pairs visible",
            "several models: no pair visible"} <= seen
