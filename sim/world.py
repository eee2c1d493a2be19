"""Read-only queries on a battle's world, shared by validation, systems, report and sandbox.

Nothing here changes the world. Iteration follows listed (creation) order, never set order.
"""

from __future__ import annotations

import esper

from sim.components import (Base, Character, Destroyed, Keyword, ModelAbilities, ModelId,
                            Position, Stats, Unit, UnitMember, UnitState, Weapon, Wounds)
from sim.rules import geometry
from sim.rules.allocation import TargetModel

MONSTER_VEHICLE = frozenset({"MONSTER", "VEHICLE"})


def alive(ent: int) -> bool:
    return esper.component_for_entity(ent, Wounds).remaining > 0


def on_table(ent: int) -> bool:
    d = esper.try_component(ent, Destroyed)
    return d is None or not d.removed


def unit_models(unit_ent: int, living: bool = True) -> list[int]:
    """The unit's models in listed order (living ones only by default). The living list is
    cached until a model is destroyed or moves (the spatial index's version)."""
    models = esper.component_for_entity(unit_ent, Unit).models
    if not living:
        return list(models)
    sp = _SPATIAL.get(esper.current_world)
    if sp is None:
        return [m for m in models if alive(m)]
    hit = sp.living.get(unit_ent)
    if hit is None:
        hit = sp.living[unit_ent] = [m for m in models if alive(m)]
    return list(hit)


def unit_destroyed(unit_ent: int) -> bool:
    return not unit_models(unit_ent)


def model_id(ent: int) -> str:
    return esper.component_for_entity(ent, ModelId).id


def model_keywords(ent: int) -> frozenset[str]:
    return esper.component_for_entity(ent, Keyword).names


def unit_keywords(unit_ent: int) -> frozenset[str]:
    """19.03 / 02.05.01: a unit has every keyword of every model in it (an attached unit has its
    leader's keywords). Destroyed models no longer count."""
    out: set[str] = set()
    for m in unit_models(unit_ent):
        out |= model_keywords(m)
    return frozenset(out)


def is_monster_or_vehicle(ent: int) -> bool:
    return bool(model_keywords(ent) & MONSTER_VEHICLE)


def unit_is_monster_or_vehicle(unit_ent: int) -> bool:
    """02.05.01 'MONSTER/VEHICLE unit': a unit with either keyword (any model)."""
    return bool(unit_keywords(unit_ent) & MONSTER_VEHICLE)


def every_model_monster_or_vehicle(unit_ent: int) -> bool:
    models = unit_models(unit_ent)
    return bool(models) and all(is_monster_or_vehicle(m) for m in models)


def footprint(ent: int) -> geometry.Footprint:
    pos = esper.component_for_entity(ent, Position)
    base = esper.component_for_entity(ent, Base)
    return geometry.footprint(base.shape, pos.x, pos.y, base.length, base.width, base.angle)


_SPATIAL: dict = {}  # esper world name -> sim.spatial.SpatialIndex


def spatial():
    """The current battle's SpatialIndex (distances between all models, sim.spatial)."""
    return _SPATIAL[esper.current_world]


def _index(ent: int) -> int:
    return esper.component_for_entity(ent, ModelId).order


def model_distance(a: int, b: int) -> float:
    """01.04 Closest distance between two models, base edge to base edge."""
    return float(spatial().dist[_index(a), _index(b)])


def nearest_distance(model_ent: int, others: list[int]) -> float:
    """01.04 Distance from a model to the closest of ``others``."""
    return spatial().nearest(_index(model_ent), [_index(o) for o in others])


def models_engaged(a: int, b: int) -> bool:
    """03.04 Engagement range: within 2" horizontally (2-D battlefield)."""
    return model_distance(a, b) <= 2.0 + 1e-9


def _engaged_mask(unit_ent: int):
    idx = [_index(m) for m in unit_models(unit_ent)]
    return spatial().engaged_units(idx, _unit_count())


def _unit_count() -> int:
    return len(esper.get_component(Unit))


def units_engaged(u: int, v: int) -> bool:
    """03.04 Two units are engaged while any model of one is within 2" of any model of the other."""
    if unit_destroyed(v):
        return False
    return bool(_engaged_mask(u)[esper.component_for_entity(v, Unit).order])


def enemy_units(unit_ent: int) -> list[int]:
    """The enemy units with models left, in unit order."""
    owner = esper.component_for_entity(unit_ent, Unit).owner
    living = spatial().units_with_models(_unit_count())
    out = [(u.order, e) for e, u in esper.get_component(Unit) if u.owner != owner and living[u.order]]
    return [e for _o, e in sorted(out)]


def all_units() -> list[int]:
    return [e for _o, e in sorted((u.order, e) for e, u in esper.get_component(Unit))]


def engaged_with(unit_ent: int) -> list[int]:
    """03.04 The enemy units this unit is engaged with, in unit order."""
    mask = _engaged_mask(unit_ent)
    return [v for v in enemy_units(unit_ent) if mask[esper.component_for_entity(v, Unit).order]]


def unit_engaged(unit_ent: int) -> bool:
    return bool(engaged_with(unit_ent))


def target_models(unit_ent: int) -> list[TargetModel]:
    """The unit's models as the allocation rules see them (listed order, living and dead)."""
    out = []
    for m in unit_models(unit_ent, living=False):
        st = esper.component_for_entity(m, Stats)
        out.append(TargetModel(model_id(m), st.W, esper.component_for_entity(m, Wounds).remaining,
                               st.Sv, st.InSv, esper.has_component(m, Character)))
    return out


def toughness(unit_ent: int) -> int:
    """05.02.01 / 19.02 Mixed T: an attached unit uses the highest T among its bodyguard models
    on the battlefield; otherwise (or once only leaders remain) the highest T of its models."""
    models = unit_models(unit_ent)
    guards = [m for m in models if esper.component_for_entity(m, UnitMember).role == "bodyguard"]
    pool = guards or models
    return max(esper.component_for_entity(m, Stats).T for m in pool)


def unit_of(model_ent: int) -> int:
    return esper.component_for_entity(model_ent, UnitMember).unit


def unit_state(unit_ent: int) -> UnitState:
    return esper.component_for_entity(unit_ent, UnitState)


def weapons_of(model_ent: int):
    return esper.component_for_entity(model_ent, Weapon).profiles


def model_abilities(model_ent: int) -> tuple:
    return esper.component_for_entity(model_ent, ModelAbilities).abilities


def mark_destroyed(ent: int, by: str) -> None:
    """05.04 A model reduced to 0 wounds is destroyed: it can no longer be selected, targeted or
    allocated to, and no longer counts for engagement; it is removed from the table once the
    attacking unit's attacks are resolved (CasualtySystem)."""
    if not esper.has_component(ent, Destroyed):
        esper.add_component(ent, Destroyed(by=by))
        spatial().remove(_index(ent))


def move_model(ent: int, x: float, y: float) -> None:
    """Place a model (a validated move): position and the distance index."""
    pos = esper.component_for_entity(ent, Position)
    pos.x, pos.y = x, y
    spatial().move(_index(ent), footprint(ent))


def wounds_left(ent: int) -> int:
    return esper.component_for_entity(ent, Wounds).remaining


def feel_no_pain(unit_ent: int) -> dict[str, int]:
    """24.12 Feel No Pain X+ per model id (models without it are absent)."""
    out = {}
    for m in unit_models(unit_ent):
        for a in model_abilities(m):
            if a.name == "FEEL NO PAIN":
                out[model_id(m)] = min(out.get(model_id(m), 7), a.value)
    return out
