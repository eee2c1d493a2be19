"""CommandSystem: takes the next accepted command and starts it (one per tick)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.commands import EndTurn, Fight, Move, Shoot
from sim.systems import upkeep
from sim.systems import phased
from sim.systems.activation import select_to_shoot
from sim.components import Stage
from sim.errors import PlanError
from sim.plan import moves as MOVES
from sim.rules.movement import moves as MV
from sim.world import mutations as M
from sim.world import queries as W

# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
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
            select_to_shoot(battle, cmd)
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
        """09.05-09.07 Apply a validated move: positions and the unit's turn bookkeeping. Each
        model's distance (24.16 [HEAVY] "moved") is its path's length (Part A ruling 14;
        taking to the skies, 21.03, adds no vertical distance on the 2-D table).

        Free play lets an advance be moved without a selection: its D6 is rolled now, and a
        model sent beyond M + the roll stops on its path where the roll runs out. That move
        is checked again as made (03.01 end-of-move checks, with the roll now known); if it
        fails, no model moves (03.01: they return to their start) and the unit stays selected
        to advance with its roll, for another move command."""
        ent = battle.units[cmd.unit]
        battle.changes.touched(ent)
        st = W.unit_state(ent)
        allowance = None
        paths = MOVES.paths_of(battle, ent, cmd.to, cmd.via)
        if cmd.mode == "advance":
            allowance = st.advance_roll
            if allowance is None:  # (free play without a selection: rolled as the move is made)
                (allowance,) = battle.dice.d6(1, "advance roll")  # 09.06: M + D6
                st.advance_roll, st.move_selected = allowance, "advance"
                paths = self._advance_stops(battle, ent, cmd, paths, allowance)
                if paths is None:
                    return
        moved = []
        final = []
        distances = []
        places = []
        for mid, path in paths.items():
            m = battle.models[mid]
            x, y = path[-1]
            places.append((m, x, y))
            moved.append(m)
            final.append([mid, x, y])
            distances.append((mid, MV.path_length(path)))
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
        sky = {"fly": True} if cmd.fly else {}
        battle.emit(ev.MOVED, unit=cmd.unit, mode=cmd.mode, to=final, advance_roll=allowance,
                    distance=round(max((d for _m, d in distances), default=0.0), 6), **sky)
        if st.move_selected == "desperate escape":
            upkeep.after_desperate_escape(battle, ent, cmd.unit)

    @staticmethod
    def _advance_stops(battle, ent: int, cmd: Move, paths: dict, roll: int) -> dict | None:
        """09.06 The paths of a free-play advance whose D6 was just rolled: each cut where M +
        the roll (21.03: less 2" taking to the skies) runs out, and checked again as the move
        it now is (03.01). None, with a 'move not made' event, when that move is illegal."""
        short = {}
        for mid, path in paths.items():
            limit = MOVES.move_limit(ent, battle.models[mid], "advance", roll, cmd.fly)
            short[mid] = MV.path_stop(path, limit)[0]
        if short == paths:
            return paths  # (every model within the roll: the move validated is the move made)
        made = Move(cmd.unit, tuple((mid, p[-1][0], p[-1][1]) for mid, p in short.items()), "advance",
                    tuple((mid, p[1:-1]) for mid, p in short.items() if len(p) > 2), cmd.fly)
        try:
            MOVES.check_unit_move(battle, ent, made, "advance")
        except PlanError as e:
            battle.emit(ev.MOVE_NOT_MADE, unit=cmd.unit, mode="advance", advance_roll=roll,
                        reason=f"{e} (the advance roll of {roll} stopped the move short; no model moves, "
                               f"03.01, and the unit stays selected to advance)")
            return None
        return short
