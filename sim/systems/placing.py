"""Placing a unit's models where a validated move put them (a charge, pile-in, consolidation
or Heroic Intervention move): positions and the distance index in one step, and each model's
distance added to the unit's turn total (24.16 [HEAVY] "moved")."""

from __future__ import annotations

import esper

from sim.components import Position
from sim.rules import movement as MOVE
from sim.world import mutations as M
from sim.world import queries as W


def apply_positions(battle, ent: int, to) -> list:
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
    M.move_models(places)
    st.model_moved, furthest = MOVE.add_move(st.model_moved, distances)
    st.moved = max(st.moved, furthest)
    battle.changes.moved(moved)
    return final


