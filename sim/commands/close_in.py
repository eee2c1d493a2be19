"""12.02/12.03 and 12.07/12.08 The Fight phase's moves: a pile-in move (Pile In step) and a
consolidation move (Consolidate step), each at most 3", checked against its rule's conditions
(sim.plan.moves; the solvers of Part A ruling 18 are the automatic players' defaults)."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim import events as ev
from sim.events.core import faced
from sim.commands.base import FACE, SELECTED, TO, UNIT, VIA, CommandRecord, on_grid, optional_str
from sim.components import Unit
from sim.errors import PlanError
from sim.plan import moves as MV
from sim.plan.fight import was_eligible_to_fight
from sim.plan.phased import live_unit
from sim.rules.movement.moves import ConsolidationMode
from sim.rules.movement.solvers import pile_in as PS
from sim.rules.turn import PLAYER, FightStep, Phase
from sim.systems.placing import apply_positions
from sim.world import queries as W


@dataclass(frozen=True, slots=True)
class PileIn:
    """12.02/12.03 A pile-in move: each moving model's end position, and its pile-in targets
    (12.03: an engaged unit's are every enemy unit it is engaged with; an unengaged unit
    selects one or more of the enemy units within 5"; none given: every one it may, Part A
    ruling 18)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    targets: tuple[str, ...] = ()
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


@dataclass(frozen=True, slots=True)
class Consolidate:
    """12.07/12.08 A consolidation move: each moving model's end position; the mode (ongoing,
    engaging, objective) is the compulsory one for the unit's position (12.08), and the
    selection is the player's: ``targets``, the enemy units an engaging consolidation heads for
    (one or more within 3"; an ongoing one's are every engaged enemy unit), or ``objective``,
    the objective (by name) an objective consolidation heads for (one within 3"). None given:
    Part A ruling 18's (the closest enemy unit, the nearest objective)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    targets: tuple[str, ...] = ()
    objective: str | None = None
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


def _place(battle, cmd, event: str) -> int:
    ent = battle.units[cmd.unit]
    final = apply_positions(battle, ent, cmd.to, cmd.face)
    battle.emit(event, unit=cmd.unit, to=final, **faced(cmd.face))
    return ent


# --- PileIn --------------------------------------------------------------------------------

def _check_pile_in(battle, cmd: PileIn) -> None:
    """12.02/12.03 One pile-in move per unit: it must be engaged or have charged this turn."""
    ent = live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.piled_in:
        raise PlanError(f"{cmd.unit} has already piled in this phase (12.02)")
    if not (W.unit_engaged(ent) or st.charged):
        raise PlanError(f"{cmd.unit} is neither engaged nor charged this turn and cannot pile in (12.03)")
    MV.check_pile_in(battle, ent, cmd)


def _apply_pile_in(battle, cmd: PileIn) -> None:
    ent = _place(battle, cmd, ev.PILED_IN)
    W.unit_state(ent).piled_in = True


# --- Consolidate ---------------------------------------------------------------------------

def _check_consolidate(battle, cmd: Consolidate) -> None:
    """12.07/12.08 One consolidation move per unit that was eligible to fight this phase."""
    ent = live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.consolidated:
        raise PlanError(f"{cmd.unit} has already consolidated this phase (12.07)")
    if not was_eligible_to_fight(battle, ent):
        raise PlanError(f"{cmd.unit} was not eligible to fight this phase and cannot consolidate (12.08)")
    MV.check_consolidate(battle, ent, cmd)


def _apply_consolidate(battle, cmd: Consolidate) -> None:
    ent = _place(battle, cmd, ev.CONSOLIDATED)
    W.unit_state(ent).consolidated = True
    _engaged_by_consolidation(battle, ent)


def _engaged_by_consolidation(battle, ent: int) -> None:
    """12.08 (and its 2026 errata for ongoing consolidation): each engaged enemy unit that has
    not yet been selected to fight this phase is selected to fight by its player, one at a
    time, before the Consolidate step goes on (TurnState.pending_fights)."""
    ts = battle.turn_state
    if ts is None:
        return
    new = [u for u in W.engaged_with(ent) if not W.unit_state(u).selected_to_fight
           and u not in ts.pending_fights]
    if not new:
        return
    if not ts.pending_fights:
        ts.resume_chooser = ts.chooser
    ts.pending_fights.extend(new)
    ts.chooser = esper.component_for_entity(ts.pending_fights[0], Unit).owner
    battle.emit(ev.STEP, step=str(FightStep.FIGHT), player=PLAYER[ts.chooser],
                units=[esper.component_for_entity(u, Unit).id for u in new], rule="12.08")


def _made(verb: str):
    return lambda c: f"== {c['unit']} makes a {verb} move"


# --- the automatic player's choices (Part A ruling 18) --------------------------------------

def pile_in_command(battle, uid: str, to, targets=None, checked: bool = True):
    """12.03 A pile-in move toward ``targets`` (None: every enemy unit it may pile in toward,
    Part A ruling 18): the step's ``to``, or the solver's placement; None when the unit has no
    legal pile-in move. The command names its targets. ``checked=False``: the solver's move is
    not verified by the rules here, for a caller that puts the command to Battle.check before
    using it and takes a refused one as none (the players: solve_pile_in's ``checked``)."""
    ent = battle.units[uid]
    st = W.unit_state(ent)
    may = not W.unit_destroyed(ent) and not st.piled_in and (W.unit_engaged(ent) or st.charged)
    if targets is None:
        targets = PS.pile_in_targets(uid, MV.bodies()) if may else []
    if to is not None:
        return PileIn(uid, tuple((m, *p) for m, p in to.items()), targets=tuple(targets))
    if not may:
        return None
    sol = PS.solve_pile_in(uid, MV.bodies(), battle.scenario.terrain, battle.scenario.board, targets=targets,
                           may_cross_dense=MV.may_cross_dense(ent), moving_only=True, checked=checked)
    if not (sol and sol.paths):
        return None
    return PileIn(uid, MV.solution_ends(sol), MV.solution_turns(sol), tuple(sorted(sol.targets)))


def consolidate_command(battle, uid: str, to, targets=None, objective: str | None = None, checked: bool = True):
    """12.08 A consolidation move in the compulsory mode toward ``targets`` (an engaging
    consolidation's enemy units) or ``objective`` (an objective consolidation's, by name), each
    None: Part A ruling 18's; the step's ``to``, or the solver's placement; None when the unit
    has none. The command names its selection. ``checked``: as ``pile_in_command``'s."""
    ent = battle.units[uid]
    st = W.unit_state(ent)
    objs = MV.objectives(battle)
    may = not W.unit_destroyed(ent) and not st.consolidated and was_eligible_to_fight(battle, ent)
    mode = PS.consolidation_mode(uid, MV.bodies(), objs) if may or to is not None else None
    if mode is not None:  # (the selection the command names: the player's, else ruling 18's)
        name, default_targets, default_obj = mode
        if name == ConsolidationMode.OBJECTIVE:
            objective, targets = objective or objs[default_obj].name, ()
        else:
            targets, objective = tuple(targets or default_targets), None
    if to is not None:
        return Consolidate(uid, tuple((m, *p) for m, p in to.items()), targets=tuple(targets or ()),
                           objective=objective)
    if mode is None or not may:
        return None
    sol = PS.solve_consolidation(uid, MV.bodies(), battle.scenario.terrain, battle.scenario.board, objs,
                                 targets=targets or None,
                                 objective=None if objective is None else MV.objective_index(battle, objective),
                                 may_cross_dense=MV.may_cross_dense(ent), moving_only=True, checked=checked)
    if not (sol and sol.paths):
        return None
    return Consolidate(uid, MV.solution_ends(sol), MV.solution_turns(sol), tuple(targets or ()), objective)


PILE_IN = CommandRecord(
    "pile in", PileIn, "12.02", "a pile-in move (up to 3\") in the Pile In step",
    (UNIT, TO, VIA, SELECTED, FACE), check=_check_pile_in, apply=_apply_pile_in, describe=_made("pile in"),
    phase=Phase.FIGHT, step=FightStep.PILE_IN, script_step="pile_in")

CONSOLIDATE = CommandRecord(
    "consolidate", Consolidate, "12.07", "a consolidation move (up to 3\") in the Consolidate step",
    (UNIT, TO, VIA, SELECTED, optional_str("objective", "an objective's name"), FACE), check=_check_consolidate,
    apply=_apply_consolidate, describe=_made("consolidate"),
    phase=Phase.FIGHT, step=FightStep.CONSOLIDATE, script_step="consolidate")
