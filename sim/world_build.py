"""Build a battle's esper world from a validated scenario."""

from __future__ import annotations

import esper

from sim import world as W
from sim.rules import geometry
from sim.spatial import SpatialIndex

from sim.components import (Base, Character, Keyword, ModelAbilities, ModelId, Position, Stats,
                            Unit, UnitMember, UnitState, Weapon, Wounds)


def build_world(battle, scenario) -> None:
    """Create one entity per unit and per model, in the scenario's listed order (so entity ids
    and every iteration order are deterministic)."""
    order = 0
    fps: list = []
    unit_index: list[int] = []
    for u_order, us in enumerate(scenario.units):
        unit_ent = esper.create_entity()
        unit = Unit(us.id, us.name, us.owner, u_order)
        esper.add_component(unit_ent, unit)
        esper.add_component(unit_ent, UnitState(
            advanced=us.advanced, fell_back=us.fell_back, charged=us.charged, moved=us.moved,
            ranged_attacks_last_turn=us.ranged_attacks_last_turn))
        battle.units[us.id] = unit_ent
        if us.allocation_order:
            battle.scenario_allocation_orders[unit_ent] = us.allocation_order
        for index, ms in enumerate(us.models):
            ent = esper.create_entity(
                ModelId(ms.id, order),
                Keyword(ms.keywords),
                Weapon(ms.weapons),
                Position(ms.x, ms.y),
                Base(ms.shape, ms.length, ms.width, ms.angle),
                Stats(ms.profile.M, ms.profile.T, ms.profile.Sv, ms.profile.W, ms.profile.Ld,
                      ms.profile.OC, ms.profile.InSv),
                Wounds(ms.profile.W),
                UnitMember(unit_ent, index, ms.role),
                ModelAbilities(ms.abilities),
            )
            fps.append(geometry.footprint(ms.shape, ms.x, ms.y, ms.length, ms.width, ms.angle))
            unit_index.append(u_order)
            if ms.character:
                esper.add_component(ent, Character(ms.name))
            unit.models.append(ent)
            battle.models[ms.id] = ent
            order += 1
    W._SPATIAL[battle.world] = SpatialIndex(fps, unit_index)
