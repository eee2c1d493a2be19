"""The few changes to a battle's world that are more than setting one component's field.

Only systems call these (the sandbox never imports this module: tests/test_imports.py); the
read-only questions are sim.world.queries.
"""

from __future__ import annotations

import esper

from sim.components import Destroyed, Position, Unit, UnitState, Wounds
from sim.world import resources as R
from sim.world.queries import footprint, model_id, model_row, unit_of


def mark_destroyed(ents, by: str) -> None:
    """05.04 Models reduced to 0 wounds (one entity or a list) are destroyed: they can no longer
    be selected, targeted or allocated to, and no longer count for engagement; they are removed
    from the table once the attacking unit's attacks are resolved (CasualtySystem)."""
    if isinstance(ents, int):
        ents = [ents]
    res = R.current
    sp = res.spatial
    own: dict[int, None] = {}  # the units that lost models (in order: for the record)
    for ent in ents:
        if esper.has_component(ent, Destroyed):
            continue
        esper.add_component(ent, Destroyed(by=by))
        sp.remove(model_row(ent))
        # What a removal can change: its own unit's models and keywords (the spatial index
        # keeps engagement, 03.04, current itself)
        own[unit_of(ent)] = None
        res.casualties.append(ent)
    for u in own:
        sp.forget_unit(u)


def remove_casualties(ents: list[int]) -> None:
    """05.04.04 Take destroyed models off the table."""
    if not ents:
        return
    for ent in ents:
        esper.component_for_entity(ent, Destroyed).removed = True
    gone = set(ents)  # (membership only)
    pending = R.current.casualties
    pending[:] = [e for e in pending if e not in gone]


def return_model(ent: int, x: float, y: float, wounds: int) -> None:
    """A destroyed model a rule returns (sim.systems.rule_effects.returns): no longer destroyed,
    with ``wounds`` left, set up at (x, y) (a place the rules chose: the caller's); its unit's
    caches are forgotten."""
    esper.remove_component(ent, Destroyed)
    esper.component_for_entity(ent, Wounds).remaining = int(wounds)
    pos = esper.component_for_entity(ent, Position)
    pos.x, pos.y = x, y
    sp = R.current.spatial
    sp.place_many([model_row(ent)], [footprint(ent)])
    sp.forget_unit(unit_of(ent))


def move_model(ent: int, x: float, y: float) -> None:
    """Place a model (a validated move): position and the distance index."""
    pos = esper.component_for_entity(ent, Position)
    pos.x, pos.y = x, y
    R.current.spatial.move(model_row(ent), footprint(ent))


def _turn(ent: int, pos: Position, turns: dict | None) -> None:
    """03.01 The model faces as a command's ``face`` turned it (``turns``: model id -> degrees)."""
    if turns:
        a = turns.get(model_id(ent))
        if a is not None:
            pos.angle = a


def move_models(moves, face=()) -> None:
    """Place several models of one unit (a validated move): ``moves`` is (entity, x, y) each;
    ``face``, the command's (model id, degrees) for each model it turns (03.01); positions,
    then the distance index in one step (SpatialIndex.move_many)."""
    rows, fps = [], []
    turns = dict(face) if face else None
    for ent, x, y in moves:
        pos = esper.component_for_entity(ent, Position)
        pos.x, pos.y = x, y
        _turn(ent, pos, turns)
        rows.append(model_row(ent))
        fps.append(footprint(ent))
    if rows:
        R.current.spatial.move_many(rows, fps)


def embark(unit_ent: int, transport_ent: int) -> None:
    """18.02 The unit embarks: it is in the transport (its UnitState says which) and off the
    battlefield (01.02.04), its models out of every distance and engagement."""
    sp = R.current.spatial
    esper.component_for_entity(unit_ent, UnitState).embarked_in = transport_ent
    sp.off_table.add(unit_ent)
    for m in esper.component_for_entity(unit_ent, Unit).models:
        sp.remove(model_row(m))
    sp.forget_unit(unit_ent)


def leave_transport(unit_ent: int) -> None:
    """18.04 / 18.05 The unit is no longer embarked; its models are set up next
    (``set_up``)."""
    sp = R.current.spatial
    esper.component_for_entity(unit_ent, UnitState).embarked_in = None
    sp.off_table.discard(unit_ent)
    sp.forget_unit(unit_ent)


def set_up(unit_ent: int, places, face=()) -> list[int]:
    """Set a unit up on the battlefield (03.02: before the battle, or from strategic
    reserves): ``places`` is (entity, x, y) for each model, ``face`` the command's (model id,
    degrees) for each model set up turned (03.01); the unit is on the battlefield again (off
    the spatial index's off_table, no longer waiting to deploy). Returns the models."""
    res = R.current
    rows, fps, models = [], [], []
    turns = dict(face) if face else None
    for ent, x, y in places:
        pos = esper.component_for_entity(ent, Position)
        pos.x, pos.y = x, y
        _turn(ent, pos, turns)
        rows.append(model_row(ent))
        fps.append(footprint(ent))
        models.append(ent)
    res.spatial.off_table.discard(unit_ent)
    res.undeployed.discard(unit_ent)
    res.spatial.place_many(rows, fps)
    res.spatial.forget_unit(unit_ent)  # (its living models were none while it was off the table)
    return models



def to_reserves(unit_ent: int) -> None:
    """20.02 A rule removes the unit from the battlefield into strategic reserves: off the
    battlefield (01.02.04), its models out of every distance and engagement, until an ingress
    move sets it up again; it stays put there at the end of battle round 3 (``repositioned``)."""
    sp = R.current.spatial
    st = esper.component_for_entity(unit_ent, UnitState)
    st.repositioned = True
    sp.off_table.add(unit_ent)
    for m in esper.component_for_entity(unit_ent, Unit).models:
        sp.remove(model_row(m))
    sp.forget_unit(unit_ent)


def restore_to_reserves(unit_ent: int) -> None:
    """A destroyed unit a rule brings back (V.RESURGE): every model no longer destroyed, with
    every wound, its turn's record and its [ONE SHOT] weapons fresh, in strategic reserves
    (``to_reserves``) until an ingress move sets it up."""
    from sim.components import Stats
    for m in esper.component_for_entity(unit_ent, Unit).models:
        if esper.has_component(m, Destroyed):
            esper.remove_component(m, Destroyed)
        esper.component_for_entity(m, Wounds).remaining = esper.component_for_entity(m, Stats).W
    esper.add_component(unit_ent, UnitState())
    to_reserves(unit_ent)
