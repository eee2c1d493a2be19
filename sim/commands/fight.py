"""12.04-12.06 Selecting a unit to fight: the Fight command (a normal fight, or the fight an
overrun fight owes once its pile-in is made) and the Overrun command (the overrun fight type
with its one additional pile-in move, 12.06). Their checks are the fight plan (04.01/04.02 with
12.04, 24.26 [ONE SHOT]) and 12.06's conditions; once a unit is selected, Epic Challenge
(15.03) may follow, then its activation starts and the attack systems resolve it."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim import events as ev
from sim.events.core import faced
from sim.commands.base import FACE, SELECTED, TO, UNIT, VIA, CommandRecord, on_grid
from sim.commands.shoot import SELECTIONS, targets_of
from sim.components import Unit
from sim.errors import PlanError
from sim.phases.battle_round import after_fight
from sim.plan import moves as MV
from sim.plan.common import Selection, find_unit, not_there
from sim.plan.fight import check_fights_first, eligible_to_fight
from sim.plan.fight import fight_types
from sim.plan.validated import validated_fight
from sim.rules.movement.solvers import pile_in as PS
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment
from sim.rules.turn import FightStep, FightType, Phase
from sim.systems.activation import start_fight
from sim.systems.placing import apply_positions
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.systems import rule_effects as RX
from sim.systems.removal import remove_casualties
from sim.rules.effects import vocabulary as EV


@dataclass(frozen=True, slots=True)
class Fight:
    """12.04/12.05 Select a unit to fight: one melee weapon per model (plus its [EXTRA ATTACKS]
    weapons), its targets and splits (04.01-04.03)."""

    unit: str
    selections: tuple[Selection, ...]


@dataclass(frozen=True, slots=True)
class Overrun:
    """12.06 Select a unit to fight with the overrun fight type: its one additional pile-in
    move (12.03; each moving model's end position, none = it does not pile in), then its
    fight, which is the next command (a Fight for this unit)."""

    unit: str
    to: tuple[tuple[str, float, float], ...] = ()
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    targets: tuple[str, ...] = ()  # 12.03 its pile-in targets (none given: Part A ruling 18's)
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


# --- Fight ---------------------------------------------------------------------------------

def _check_fight(battle, cmd: Fight) -> None:
    battle.validated = validated_fight(battle, cmd)


def _apply_fight(battle, cmd: Fight):
    """12.04 The unit is selected to fight and its activation begins; in a battle with a
    mission, Epic Challenge (15.03) is offered just after a (normal fight's) selection first."""
    if battle.turn_state is None:
        start_fight(battle, cmd)
        return None
    return _fight(battle, cmd)


def _fight(battle, cmd: Fight):
    """12.04 / 12.05 In a battle with a mission: the unit is selected to fight (a normal fight;
    or the fight of an overrun fight, selected already, 12.06), Epic Challenge (15.03) is
    offered just after a selection, then its activation begins. A stratagem used after the
    command was validated changes its weapons: the plan is made again."""
    ent = battle.units[cmd.unit]
    ts = battle.turn_state
    if ts.overrun == ent:
        ts.overrun = None  # (its selection, and the offer, came with the Overrun command)
    else:
        W.unit_state(ent).selected_to_fight = True
        if (yield from _selected(battle, ent)):
            battle.validated = None  # (WeaponSelectionSystem plans it again, with the gain)
    if RE.any_rules():  # (a rule's mortal wounds when selected to fight: sim.systems.rule_effects)
        if RX.trigger_mortal_wounds(battle, ent, EV.ON_SELECTED_FIGHT, RX.fight_target(ent)):
            yield from remove_casualties(battle)
            battle.validated = None  # (its targets may be gone: planned again)
    start_fight(battle, cmd, then=after_fight)  # (12.04 whose pick is next, once it has fought)


def _selected(battle, ent: int):
    """Just after a unit is selected to fight: the stratagems that window opens (15.03 Epic
    Challenge); returns the names of those used (a generator)."""
    owner = esper.component_for_entity(ent, Unit).owner
    return (yield from battle.offer(Moment(SG.SELECTED_TO_FIGHT, player=owner, unit=ent)))


# --- Overrun -------------------------------------------------------------------------------

def _check_overrun(battle, cmd: Overrun) -> None:
    """12.06 Select a unit for an overrun fight: a battle with a mission, a unit not yet
    selected to fight and eligible to fight (12.04: engaged now or at the start of the Fight
    step, or charged), after any waiting Fights First units (12.04 step 1), of a kind that may
    overrun (``fight_types``); its pile-in move, if it makes one, as 12.03 says (targets: every
    engaged enemy unit, else the enemy units within 5"; at most 3"; it must end engaged)."""
    ts = battle.turn_state
    if ts is None:
        raise PlanError("an overrun fight is a fight type of the Fight step of a battle with a mission (12.06)")
    ent = find_unit(battle, cmd.unit)
    if W.unit_destroyed(ent):
        raise PlanError(f"unit {not_there(ent, cmd.unit)}")
    if W.unit_state(ent).selected_to_fight:
        raise PlanError(f"unit {cmd.unit} was already selected to fight this phase (12.04)")
    if not eligible_to_fight(battle, ent):
        raise PlanError(f"unit {cmd.unit} is not eligible to fight: not engaged (now or at the start of the "
                        f"Fight step) and did not charge; an overrun fight needs a unit eligible to fight "
                        f"(12.04, 12.06)")
    check_fights_first(battle, ent)
    if FightType.OVERRUN not in fight_types(battle, ent):
        raise PlanError(f"unit {cmd.unit} was engaged at the start of the Fight step and still is: it makes "
                        f"a normal fight, not an overrun fight (12.05, 12.06)")
    if cmd.to:
        MV.check_pile_in(battle, ent, cmd)
    elif cmd.via or cmd.targets or cmd.face:
        raise PlanError("turning points, facings or pile-in targets given for a pile-in move that moves no model (12.06)")


def _apply_overrun(battle, cmd: Overrun):
    """12.06 The unit is selected to fight with the overrun fight type: Epic Challenge (15.03)
    may follow the selection; then its one additional pile-in move (12.03), if it makes one;
    its fight is the next command (TurnState.overrun). Enemy units it engages become eligible
    to fight (engaged now, 12.04)."""
    ent = battle.units[cmd.unit]
    ts = battle.turn_state
    battle.changes.touched(ent)
    W.unit_state(ent).selected_to_fight = True
    ts.overrun = ent
    battle.emit(ev.OVERRUN, unit=cmd.unit, rule="12.06")
    yield from _selected(battle, ent)
    if cmd.to:
        final = apply_positions(battle, ent, cmd.to, cmd.face)
        battle.emit(ev.PILED_IN, unit=cmd.unit, to=final, note="overrun fight (12.06)", **faced(cmd.face))


# --- the automatic player's choice (Part A ruling 18) ---------------------------------------

def overrun_command(battle, uid: str, to, targets=None):
    """12.06 An Overrun command: the step's ``to`` for its additional pile-in move, or the
    solver's pile-in toward ``targets`` (None: Part A ruling 18's, every engaged enemy unit,
    else those within 5"); no move when none is legal. The command names its targets."""
    ent = battle.units[uid]
    if W.unit_destroyed(ent):
        return Overrun(uid)
    if targets is None:
        targets = PS.pile_in_targets(uid, MV.bodies())
    if to is not None:
        return Overrun(uid, tuple((m, *p) for m, p in to.items()), targets=tuple(targets))
    sol = PS.solve_pile_in(uid, MV.bodies(), battle.scenario.terrain, battle.scenario.board, targets=targets,
                           may_cross_dense=MV.may_cross_dense(ent), moving_only=True) if targets else None
    if not (sol and sol.paths):
        return Overrun(uid)
    return Overrun(uid, MV.solution_ends(sol), MV.solution_turns(sol), tuple(sorted(sol.targets)))


FIGHT = CommandRecord(
    "fight", Fight, "12.04", "select a unit to fight (a normal fight), with one melee weapon per model and its targets",
    (UNIT, SELECTIONS), check=_check_fight, apply=_apply_fight,
    describe=lambda c: f"== {c['unit']} is selected to fight" + targets_of(c), phase=Phase.FIGHT, step=FightStep.FIGHT,
    selects_to_fight=True, fights=True, attacks=True, script_step="fight")

OVERRUN_FIGHT = CommandRecord(
    "overrun", Overrun, "12.06", "select a unit for an overrun fight: one more pile-in move, then its fight",
    (UNIT, TO, VIA, SELECTED, FACE), check=_check_overrun, apply=_apply_overrun, phase=Phase.FIGHT, step=FightStep.FIGHT,
    selects_to_fight=True)
