"""CommandSystem: takes the next accepted command and starts it (one per tick)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.commands import EndTurn, Fight, Move, Shoot
from sim.systems import upkeep
from sim.systems import phased
from sim.components import Activation, Position, Stage, Stats
from sim.rules import movement as MV
from sim.world import mutations as M
from sim.world import queries as W

# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_TYPE = Stage.TYPE
_WEAPONS = Stage.WEAPONS


class CommandSystem(esper.Processor):
    def process(self, battle) -> None:
        if battle.action is not None:  # a whole-battle command waiting on a decision: resume it
            phased.resume(battle)
            return
        if battle.activation_unit is not None or not battle.queue:
            return
        cmd = battle.queue.popleft()
        if isinstance(cmd, Shoot):
            ent = battle.units[cmd.unit]
            battle.changes.touched(ent)
            W.unit_state(ent).selected_to_shoot = True
            battle.activation = Activation("shoot", cmd, _TYPE)
            esper.add_component(ent, battle.activation)
            battle.activation_unit = ent
        elif isinstance(cmd, Fight):
            if battle.turn_state is not None:  # (a stratagem may be offered first: 15.03)
                phased.start(battle, cmd)
                return
            phased.start_fight(battle, cmd)
        elif isinstance(cmd, Move):
            self._move(battle, cmd)
        elif isinstance(cmd, EndTurn):
            upkeep.roll_over_turn(battle)
        else:
            phased.start(battle, cmd)

    def _move(self, battle, cmd: Move) -> None:
        """09.05-09.07 Apply a validated move: positions and the unit's turn bookkeeping."""
        ent = battle.units[cmd.unit]
        battle.changes.touched(ent)
        st = W.unit_state(ent)
        moved = []
        final = []
        distances = []
        places = []
        allowance = None
        if cmd.mode == "advance":
            allowance = st.advance_roll
            if allowance is None:  # (free play without a selection: rolled as the move is made)
                (allowance,) = battle.dice.d6(1, "advance roll")  # 09.06: M + D6
        for mid, x, y in cmd.to:
            m = battle.models[mid]
            pos = esper.component_for_entity(m, Position)
            if allowance is not None:  # 09.06 a roll that falls short: as far as it allows
                limit = esper.component_for_entity(m, Stats).M + allowance
                x, y, dist = MV.advance_end(pos.x, pos.y, x, y, limit)
            else:
                dist = ((x - pos.x) ** 2 + (y - pos.y) ** 2) ** 0.5
            places.append((m, x, y))
            moved.append(m)
            final.append([mid, x, y])
            distances.append((mid, dist))
        M.move_models(places)
        # 24.16 "moved": each model's total this turn; the unit's furthest-moving model counts
        st.model_moved, furthest = MV.add_move(st.model_moved, distances)
        st.moved = max(st.moved, furthest)
        st.move_type = cmd.mode
        if st.move_selected is None:
            st.move_selected = cmd.mode
        if battle.turn_state is not None:
            battle.turn_state.in_progress = None
        if cmd.mode == "advance":
            st.advanced = True
        elif cmd.mode == "fall back":
            st.fell_back = True
        battle.changes.moved(moved)
        battle.emit(ev.MOVED, unit=cmd.unit, mode=cmd.mode, to=final, advance_roll=allowance,
                    distance=round(max((d for _m, d in distances), default=0.0), 6))
        if st.move_selected == "desperate escape":
            upkeep.after_desperate_escape(battle, ent, cmd.unit)
