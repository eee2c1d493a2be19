"""09 The Movement phase's commands: selecting a unit to move with a move type (09.02: an
advance roll or a Desperate Escape's hazard rolls are made then, before any model moves) and
the move itself (09.05-09.07, 03.01; 21.03 taking to the skies)."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim import events as ev
from sim.events.core import faced
from sim.commands.base import FACE, FLY, TO, UNIT, VIA, CommandRecord, on_grid, mode_field, optional_str
from sim.components import Unit
from sim.errors import PlanError
from sim.phases import upkeep
from sim.plan import moves as MOVES
from sim.plan.common import not_there, oversized_refusal
from sim.plan.phased import live_unit, one_at_a_time
from sim.plan.transport import check_embark
from sim.rules.mortal import hazard_failed, hazard_failures, hazard_mortal_wounds
from sim.rules.movement import moves as MV
from sim.rules.movement.moves import MOVE_MODES, SELECT_MODES, MoveType, mode_of_selection
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment, Roll
from sim.rules.turn import Phase
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.systems import rule_effects as RX
from sim.rules.effects import phase_rules as PR
from sim.systems import dice_pools as DPS


@dataclass(frozen=True, slots=True)
class Move:
    """09.05-09.07 Move a unit's models to new positions: mode normal, advance or fall back.
    ``to`` holds (model id, x, y) for each model that moves; ``fly``: the unit takes to the
    skies (21.03: a FLY unit, 2" less, paths through all models and terrain features).

    ``embark``: a friendly TRANSPORT the unit embarks in right after the move (18.02). It is a
    field of the move, not a command of its own, because 18.02 allows it only "right after" a
    normal, advance or fall-back move: as one command nothing can come between the two (no
    other unit's move, no stratagem, no end of phase) and no state need remember which unit
    has just moved; the move is checked as any move, then the embark against where it leaves
    the models; and a replay, an undo or a script step holds one command for both."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    mode: str = MoveType.NORMAL
    via: tuple = ()  # (model id, ((x, y), ...)): the turning points of a model's path, if not straight
    fly: bool = False  # 21.03 take to the skies
    embark: str | None = None  # 18.02 the transport it embarks in right after the move
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to (free; a hull's turn is checked)

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


@dataclass(frozen=True, slots=True)
class SelectToMove:
    """09.02 Select a unit to move with a move type, before any model moves: stationary (09.04,
    the whole move), advance (09.06: the advance roll is made now, before moving), desperate
    escape (09.07: its hazard rolls are made now, before moving); normal and fall back too."""

    unit: str
    mode: str


def _owner(ent: int) -> int:
    return esper.component_for_entity(ent, Unit).owner


# --- Move ----------------------------------------------------------------------------------

def _check_move(battle, cmd: Move) -> None:
    """09.05-09.07 A move: the unit's only move this phase (09.05.01, 09.02), of a type it is
    eligible for (and was selected for, if it was: an advance is selected first, for its
    roll); normal and advance moves need an unengaged unit, a fall-back move an engaged one;
    then where every model goes (sim.plan.moves)."""
    if cmd.mode not in MOVE_MODES:
        raise PlanError(f"unknown move mode {cmd.mode!r} (expected normal, advance or fall back)")
    ent = battle.units.get(cmd.unit)
    if ent is None:
        raise PlanError(f"no unit {cmd.unit!r}")
    if W.embarked_in(ent) is not None:  # (it leaves its transport by a disembark, 18.04)
        raise PlanError(f"{not_there(ent, cmd.unit)}; it can only disembark (18.04)")
    one_at_a_time(battle, ent, "09.02")
    oversized_refusal(ent, f"make a {cmd.mode} move")
    st = W.unit_state(ent)
    problem = MV.second_move_refusal(
        cmd.unit, MV.move_made(st.move_type, st.advanced, st.fell_back, st.moved), cmd.mode)
    if problem:
        raise PlanError(problem)
    selected = st.move_selected
    if selected is not None and mode_of_selection(selected) != cmd.mode:
        raise PlanError(f"{cmd.unit} was selected to {selected if selected != MoveType.STATIONARY else 'remain stationary'}"
                        f" and cannot make a {cmd.mode} move (09.02)")
    if cmd.mode == MoveType.ADVANCE and selected is None and battle.turn_state is not None:
        raise PlanError(f"select {cmd.unit} to advance first: the advance roll is made before any model "
                        f"moves (09.06)")
    engaged = W.unit_engaged(ent)
    if cmd.mode == MoveType.FALL_BACK and not engaged:
        raise PlanError("a fall-back move needs an engaged unit (09.07)")
    if cmd.mode != MoveType.FALL_BACK and engaged:
        raise PlanError(f"an engaged unit cannot make a {cmd.mode} move (09.05/09.06)")
    if cmd.mode == MoveType.FALL_BACK and st.battle_shocked and selected != MoveType.DESPERATE_ESCAPE:
        raise PlanError(f"{cmd.unit} is battle-shocked: it may fall back only by Desperate Escape "
                        f"(select it for a desperate escape first) (09.07, 01.07)")
    MOVES.check_unit_move(battle, ent, cmd, selected)
    if cmd.embark is not None:
        check_embark(battle, ent, cmd)


def _apply_move(battle, cmd: Move) -> None:
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
    if cmd.mode == MoveType.ADVANCE:
        allowance = st.advance_roll
        if allowance is None:  # (free play without a selection: rolled as the move is made)
            (allowance,) = battle.dice.d6(1, "advance roll")  # 09.06: M + D6
            st.advance_roll, st.move_selected = allowance, MoveType.ADVANCE
            paths = _advance_stops(battle, ent, cmd, paths, allowance)
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
    if cmd.mode == MoveType.FALL_BACK:  # (whom it was engaged with, for a rule's permission)
        RE.note_engaged_at_start(battle, ent)
    M.move_models(places, cmd.face)
    # 24.16 "moved": each model's total this turn; the unit's furthest-moving model counts
    st.model_moved, furthest = MV.add_move(st.model_moved, distances)
    st.moved = max(st.moved, furthest)
    st.move_type = cmd.mode
    if st.move_selected is None:
        st.move_selected = cmd.mode
    if battle.turn_state is not None:
        battle.turn_state.in_progress = None
    if cmd.mode == MoveType.ADVANCE:
        st.advanced = True
    elif cmd.mode == MoveType.FALL_BACK:
        st.fell_back = True
    battle.changes.moved(moved)
    sky = {"fly": True} if cmd.fly else {}
    battle.emit(ev.MOVED, unit=cmd.unit, mode=cmd.mode, to=final, advance_roll=allowance,
                distance=round(max((d for _m, d in distances), default=0.0), 6), **sky, **faced(cmd.face))
    if cmd.embark is not None:  # 18.02 right after the move
        M.embark(ent, battle.units[cmd.embark])
        battle.emit(ev.EMBARKED, unit=cmd.unit, transport=cmd.embark)
    if st.move_selected == MoveType.DESPERATE_ESCAPE:
        upkeep.after_desperate_escape(battle, ent, cmd.unit)


def _advance_stops(battle, ent: int, cmd: Move, paths: dict, roll: int) -> dict | None:
    """09.06 The paths of a free-play advance whose D6 was just rolled: each cut where M + the
    roll (21.03: less 2" taking to the skies) runs out, and checked again as the move it now
    is (03.01). None, with a 'move not made' event, when that move is illegal."""
    short = {}
    for mid, path in paths.items():
        limit = MOVES.move_limit(ent, battle.models[mid], MoveType.ADVANCE, roll, cmd.fly, battle)
        short[mid] = MV.path_stop(path, limit)[0]
    if short == paths:
        return paths  # (every model within the roll: the move validated is the move made)
    made = Move(cmd.unit, tuple((mid, p[-1][0], p[-1][1]) for mid, p in short.items()), MoveType.ADVANCE,
                tuple((mid, p[1:-1]) for mid, p in short.items() if len(p) > 2), cmd.fly, face=cmd.face)
    try:
        MOVES.check_unit_move(battle, ent, made, MoveType.ADVANCE)
    except PlanError as e:
        battle.emit(ev.MOVE_NOT_MADE, unit=cmd.unit, mode=MoveType.ADVANCE, advance_roll=roll,
                    reason=f"{e} (the advance roll of {roll} stopped the move short; no model moves, "
                           f"03.01, and the unit stays selected to advance)")
        return None
    return short


def _describe_move(c: dict) -> str:
    mode = c.get("mode", MoveType.NORMAL)
    then = f" and embarks in {c['embark']}" if c.get("embark") else ""
    return f"== {c['unit']} makes {'an' if mode[:1] in 'aeiou' else 'a'} {mode} move{then}"


# --- SelectToMove --------------------------------------------------------------------------

def _check_select(battle, cmd: SelectToMove) -> None:
    """09.02 Select a unit to move, with a move type it is eligible for: remain stationary
    (09.04) any unit; normal (09.05) and advance (09.06) an unengaged unit; fall back (09.07)
    an engaged unit, Ordered Retreat only if not battle-shocked (desperate escape is the
    other mode). A unit is selected once per phase."""
    if cmd.mode not in SELECT_MODES:
        raise PlanError(f"unknown move type {cmd.mode!r} (expected {', '.join(SELECT_MODES)}) (09.02)")
    ent = live_unit(battle, cmd.unit)
    one_at_a_time(battle, ent, "09.02")
    if cmd.mode != MoveType.STATIONARY:
        oversized_refusal(ent, f"make a {mode_of_selection(cmd.mode)} move")
    st = W.unit_state(ent)
    if st.move_selected is not None or st.move_type is not None:
        raise PlanError(f"{cmd.unit} was already selected to move this phase "
                        f"({st.move_selected or st.move_type}) (09.02)")
    engaged = W.unit_engaged(ent)
    if cmd.mode in (MoveType.NORMAL, MoveType.ADVANCE) and engaged:
        raise PlanError(f"{cmd.unit} is engaged and cannot make a {cmd.mode} move (09.05/09.06)")
    if cmd.mode in (MoveType.FALL_BACK, MoveType.DESPERATE_ESCAPE) and not engaged:
        raise PlanError(f"{cmd.unit} is not engaged: a fall-back move needs an engaged unit (09.07)")
    if cmd.mode == MoveType.FALL_BACK and st.battle_shocked:
        raise PlanError(f"{cmd.unit} is battle-shocked: it may fall back only by Desperate Escape (09.07, 01.07)")


def _apply_select(battle, cmd: SelectToMove):
    """09.02 The unit is selected with its move type. 09.06: the advance roll is made now,
    before any model moves. 09.07 Desperate Escape: one hazard roll per model, before any
    model moves; models they destroy are removed at once (RULES §20). A Command Re-roll (15.02)
    may follow either roll (of the hazard rolls, one failed die)."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    st.move_selected = cmd.mode
    if battle.turn_state is not None and cmd.mode != MoveType.STATIONARY:
        battle.turn_state.in_progress = ent  # (until its move is made, 09.02)
    fields = {}
    if cmd.mode == MoveType.ADVANCE:
        dice = battle.dice
        if RE.any_rules():  # a pool's die may stand for it (sim.systems.dice_pools; the default: never)
            dice = DPS.dice_for(battle, (yield from DPS.substitute(battle, ent, "advance", lambda _v: 1.0)),
                                f"advance roll {cmd.unit}")
        roll = Roll("advance", list(dice.d6(1, f"advance roll {cmd.unit}")),
                    lambda _i, why: list(battle.dice.d6(1, f"advance roll {cmd.unit} ({why})")))
        (st.advance_roll,) = roll.dice
        roll.about = f"advance roll {st.advance_roll}"
        new = None
        if RE.any_rules():  # (a rule's re-roll first; a die re-rolled is not re-rolled again, 01.05.02)
            new = yield from RX.reroll(battle, ent, "advance", list(roll.dice), False)
            if new is not None:
                roll.dice[:] = new
        if new is None:
            yield from battle.offer(Moment(SG.AFTER_ROLL, player=_owner(ent), unit=ent, roll=roll))
        (st.advance_roll,) = roll.dice
        if RE.any_rules():  # (the rules' modifiers to the roll: sim.systems.rule_effects)
            st.advance_roll = PR.modified_roll(st.advance_roll, RX.roll_modifier(battle, ent, "advance"))
        fields["advance_roll"] = st.advance_roll
    elif cmd.mode == MoveType.STATIONARY:
        st.move_type = MoveType.STATIONARY
    battle.emit(ev.SELECTED_TO_MOVE, unit=cmd.unit, mode=cmd.mode, **fields)
    if cmd.mode == MoveType.DESPERATE_ESCAPE:
        n = len(W.unit_models(ent))
        purpose = f"desperate escape hazard rolls {cmd.unit}"
        roll = Roll("hazard", list(battle.dice.d6(n, purpose)),
                    lambda i, why: battle.dice.d6(1, f"{purpose} ({why})")[0])
        roll.candidates = hazard_failed(roll.dice)  # (a failed hazard roll may be re-rolled)
        yield from battle.offer(Moment(SG.AFTER_ROLL, player=_owner(ent), unit=ent, roll=roll))
        rolls, rr = roll.dice, roll.rerolled
        fails = hazard_failures(rolls)
        mw = hazard_mortal_wounds(fails, W.every_model_monster_or_vehicle(ent))
        extra = {} if rr is None else {"command_reroll": rr}
        battle.emit(ev.HAZARD, unit=cmd.unit, rolls=rolls, failures=fails, mortal_wounds=mw,
                    note="Desperate Escape (09.07)", **extra)
        if mw:
            suffer_mortal_wounds(battle, ent, mw, source="desperate escape", by=cmd.unit)
            yield from remove_casualties(battle)  # (at once, after their Deadly Demise rolls)


MOVE = CommandRecord(
    "move", Move, "09.02", "move a unit's models: a normal, advance or fall-back move",
    (UNIT, mode_field("a move mode", default=MoveType.NORMAL), TO, VIA, FLY,
     optional_str("embark", "a transport's unit id (18.02)"), FACE), check=_check_move, apply=_apply_move,
    describe=_describe_move, phase=Phase.MOVEMENT, script_step="move")

SELECT_TO_MOVE = CommandRecord(
    "select to move", SelectToMove, "09.02",
    "select a unit to move with a move type (an advance roll or Desperate Escape's hazard rolls come now)",
    (UNIT, mode_field("a move type")), check=_check_select, apply=_apply_select, phase=Phase.MOVEMENT)
