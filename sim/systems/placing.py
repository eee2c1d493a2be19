"""Placing a unit's models where a validated move put them (a charge, pile-in, consolidation
or Heroic Intervention move): positions and the distance index in one step, and each model's
distance added to the unit's turn total (24.16 [HEAVY] "moved"); and setting up a unit from
strategic reserves (an ingress move, by command or by Rapid Ingress)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.events.core import faced
from sim.components import Position
from sim.rules.movement import moves as MOVE
from sim.rules.movement.moves import MoveType
from sim.rules.reserves import fits_edge_strip, oversized_restricted, wholly_within_edge_strip
from sim.world import mutations as M
from sim.rules.abilities import Hook
from sim.world import queries as W


def apply_positions(battle, ent: int, to, face=()) -> list:
    """Place the unit's models at ``to`` ((model id, x, y), ...), turned as ``face`` says
    ((model id, degrees), ...; 03.01); returns the event's ``to``."""
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    moved, final, distances, places = [], [], [], []
    for mid, x, y in to:
        m = battle.models[mid]
        pos = esper.component_for_entity(m, Position)
        distances.append((mid, ((x - pos.x) ** 2 + (y - pos.y) ** 2) ** 0.5))
        places.append((m, x, y))
        moved.append(m)
        final.append([mid, x, y])
    M.move_models(places, face)
    st.model_moved, furthest = MOVE.add_move(st.model_moved, distances)
    st.moved = max(st.moved, furthest)
    battle.changes.moved(moved)
    return final


def apply_ingress(battle, unit: str, to, face=()) -> None:
    """20.04 The unit is set up: on the battlefield again, 'set up this turn' (no [HEAVY]), and
    no other move until the next Charge phase (its move this phase is the ingress). 03.02.02:
    if a model of it was too large to fit within 6" of an edge (so it was set up touching
    one), the unit makes no normal, advance, fall-back or charge move and no ranged attack
    this turn (AIRCRAFT excepted)."""
    ent = battle.units[unit]
    battle.changes.touched(ent)
    places = M.set_up(ent, [(battle.models[mid], x, y) for mid, x, y in to], face)  # (03.01 turned)
    fps = [W.footprint(m) for m in places]
    st = W.unit_state(ent)
    st.move_selected = st.move_type = MoveType.INGRESS
    st.set_up_this_turn = True
    ts = battle.turn_state
    if ts is not None and battle.resources.has_rules:  # what V.ARRIVED reads
        st.arrived = (ts.round, ts.active)
    board = battle.scenario.board
    deep_strike = W.every_model_has(ent, Hook.ARRIVES_ANYWHERE)  # (24.09: no edge to touch)
    oversized = [W.model_id(m) for m, fp in zip(places, fps)
                 if not deep_strike and not wholly_within_edge_strip(fp, board) and not fits_edge_strip(fp, board)]
    st.oversized_set_up = oversized_restricted(bool(oversized), W.unit_keywords(ent))
    battle.changes.moved(places)
    more = {"oversized": oversized} if oversized else {}  # (03.02.02 the models set up touching an edge)
    battle.emit(ev.INGRESS, unit=unit, to=[[mid, x, y] for mid, x, y in to], **more, **faced(face))
    if deep_strike:
        _shorter_arrival(battle, ent, unit, fps)


def _shorter_arrival(battle, ent: int, unit: str, fps) -> None:
    """A Deep Strike set-up within 8" of an enemy model that a rule's shorter arrival
    distance allowed (sim.world.rule_reads.arrival_distance) is logged as that rule's effect."""
    from sim.world import rule_effects as RE
    if not RE.any_rules():
        return
    from sim.rules.geometry import distance_matrix
    from sim.rules.reserves import ENEMY_DISTANCE
    from sim.world.rule_reads import arrival_distance
    enemies = [W.footprint(m) for u in W.enemy_units(ent) for m in W.unit_models(u)]
    if not enemies:
        return
    near = float(distance_matrix(fps, enemies).min())
    limit, acts = arrival_distance(battle, ent, fps)
    if acts and near <= ENEMY_DISTANCE:
        battle.emit(ev.RULE_EFFECT, rule=", ".join(dict.fromkeys(a.held.record.name for a in acts)), unit=unit,
                    effect=f"set up by Deep Strike {near:.2f}\" from the nearest enemy model (more than {limit:g}\" "
                           f"allowed, not {ENEMY_DISTANCE:g}\")")
