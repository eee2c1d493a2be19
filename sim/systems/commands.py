"""CommandSystem: takes the next accepted command and starts it (one per tick)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.commands import EndTurn, Fight, Move, Shoot
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
            ent = battle.units[cmd.unit]
            battle.changes.touched(ent)
            W.unit_state(ent).selected_to_fight = True
            battle.activation = Activation("fight", cmd, _WEAPONS)
            esper.add_component(ent, battle.activation)
            battle.activation_unit = ent
        elif isinstance(cmd, Move):
            self._move(battle, cmd)
        elif isinstance(cmd, EndTurn):
            shots_changed = False
            # only the units whose state can differ from a fresh turn's: those a command
            # touched this turn and those that shot last turn (Changes.touched_units)
            for ent in battle.changes.take_touched():
                st = W.unit_state(ent)
                # 13.09 "made ranged attacks this turn or last" changes only for a unit that
                # shot last turn and not this one
                if st.ranged_attacks_last_turn and not st.ranged_attacks_this_turn:
                    shots_changed = True
                st.ranged_attacks_last_turn = st.ranged_attacks_this_turn
                st.ranged_attacks_this_turn = False
                st.advanced = st.fell_back = st.charged = st.set_up_this_turn = False
                st.selected_to_shoot = st.selected_to_fight = False
                st.moved = 0.0
                st.move_type = None
                st.model_moved = {}
                if st.ranged_attacks_last_turn:
                    battle.changes.touched(ent)  # (rolls over at the next end of turn)
            battle.turn += 1
            if shots_changed:
                battle.changes.shots_changed = True
            battle.record({"type": ev.TURN, "turn": battle.turn})

    def _move(self, battle, cmd: Move) -> None:
        """09.05-09.07 Apply a validated move: positions and the unit's turn bookkeeping."""
        ent = battle.units[cmd.unit]
        battle.changes.touched(ent)
        st = W.unit_state(ent)
        moved = []
        final = []
        distances = []
        allowance = None
        if cmd.mode == "advance":
            (roll,) = battle.dice.d6(1, "advance roll")  # 09.06: M + D6
            allowance = roll
        for mid, x, y in cmd.to:
            m = battle.models[mid]
            pos = esper.component_for_entity(m, Position)
            dist = ((x - pos.x) ** 2 + (y - pos.y) ** 2) ** 0.5
            if allowance is not None:
                limit = esper.component_for_entity(m, Stats).M + allowance
                if dist > limit:  # the advance roll fell short: go as far as it allows
                    f = limit / dist
                    x, y = round(pos.x + (x - pos.x) * f, 6), round(pos.y + (y - pos.y) * f, 6)
                    dist = limit
            M.move_model(m, x, y)
            moved.append(m)
            final.append([mid, x, y])
            distances.append((mid, dist))
        # 24.16 "moved": each model's total this turn; the unit's furthest-moving model counts
        st.model_moved, furthest = MV.add_move(st.model_moved, distances)
        st.moved = max(st.moved, furthest)
        st.move_type = cmd.mode
        if cmd.mode == "advance":
            st.advanced = True
        elif cmd.mode == "fall back":
            st.fell_back = True
        battle.changes.moved(moved)
        battle.emit(ev.MOVED, unit=cmd.unit, mode=cmd.mode,
                    to=final, advance_roll=allowance)
