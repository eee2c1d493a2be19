"""11 The Charge phase's commands: declaring a charge and making its roll (11.02 steps 1-2; a
Command Re-roll may follow, 15.02), and the charge move (11.02 step 3, 11.04; 21.03 taking to
the skies; Crushing Impact may follow, 15.06)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import esper

from sim import events as ev
from sim.events.core import faced
from sim.commands.base import FACE, FLY, TARGETS, TO, UNIT, VIA, CommandRecord, on_grid
from sim.components import Unit
from sim.errors import PlanError
from sim.plan import moves as MV
from sim.plan.common import oversized_refusal
from sim.plan.phased import live_unit, one_at_a_time
from sim.rules import charge as CHG
from sim.rules import transport as TR
from sim.rules.movement.solvers import charge as CS
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment, Roll
from sim.rules.turn import Phase
from sim.systems.placing import apply_positions
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.systems import rule_effects as RX
from sim.systems.removal import remove_casualties
from sim.rules.effects import phase_rules as PR
from sim.rules.effects import vocabulary as EV
from sim.rules.effects import eligibility as EL
from sim.rules.effects import dice_pool as DPR
from sim.systems import dice_pools as DPS
from sim.world import rule_reads as RR


@dataclass(frozen=True, slots=True)
class DeclareCharge:
    """11.02 steps 1-2: declare a charge with a unit and make its charge roll (2D6)."""

    unit: str


@dataclass(frozen=True, slots=True)
class ChargeMove:
    """11.02 step 3 / 11.04: the charge targets and each model's end position; no targets =
    the charge is not made (nothing moves). ``fly``: the unit takes to the skies (21.03)."""

    unit: str
    targets: tuple[str, ...]
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    fly: bool = False  # 21.03 take to the skies
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


def _owner(ent: int) -> int:
    return esper.component_for_entity(ent, Unit).owner


# --- DeclareCharge -------------------------------------------------------------------------

def _check_declare(battle, cmd: DeclareCharge) -> None:
    """11.02 step 1: a unit may declare a charge unless it has already declared one this phase,
    no enemy unit is within 12", it is engaged, or it advanced or fell back this turn (or made
    a Rapid, Combat or Emergency disembark, 18.04/18.05)."""
    ent = live_unit(battle, cmd.unit)
    one_at_a_time(battle, ent, "11.02")
    oversized_refusal(ent, "declare a charge or make a charge move")
    st = W.unit_state(ent)
    if st.charge_roll is not None:
        raise PlanError(f"{cmd.unit} has already declared a charge this phase (11.02)")
    if (st.advanced or st.fell_back) and not RR.permitting(battle, ent, EL.CHARGE):  # (or a rule lets it)
        raise PlanError(f"{cmd.unit} {'advanced' if st.advanced else 'fell back'} this turn and "
                        f"cannot declare a charge (11.02, 09.06/09.07)")
    if TR.charge_barred(st.disembarked):
        raise PlanError(f"{cmd.unit} made a {st.disembarked} this turn and cannot declare a charge "
                        f"({'18.05' if st.disembarked == TR.DisembarkMode.EMERGENCY else '18.04'})")
    if W.unit_engaged(ent):
        raise PlanError(f"{cmd.unit} is engaged and cannot declare a charge (11.02)")
    near = MV.unit_gap(ent, W.enemy_units(ent))
    if not CHG.may_declare(near):
        raise PlanError(f"{cmd.unit} has no enemy unit within 12\" (nearest "
                        f"{'none' if near is None else f'{near:.2f}'}\") and cannot declare a charge (11.02)")


def _apply_declare(battle, cmd: DeclareCharge):
    """11.02 steps 1-2: declared; the charge roll (2D6) is its maximum distance."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    near = MV.unit_gap(ent, W.enemy_units(ent))
    dice = battle.dice
    if RE.any_rules():  # a pool's die may stand for one of the two (sim.systems.dice_pools)
        dice = DPS.dice_for(battle, (yield from DPS.substitute(
            battle, ent, "charge", DPR.two_dice_chance(99 if near is None else math.ceil(near - 1e-9)
                                                        - PR.modifier([a.grant.what for a in RR.modifying(
                                                            battle, ent, "charge")], "charge")))),
            f"charge roll {cmd.unit}")
    roll = Roll("charge", list(dice.d6(2, f"charge roll {cmd.unit}")),
                lambda _i, why: list(battle.dice.d6(2, f"charge roll {cmd.unit} ({why})")))
    st.charge_roll = sum(roll.dice)
    if battle.turn_state is not None:
        battle.turn_state.in_progress = ent  # (until its charge move is made or given up, 11.02)
    # a failed charge roll reaches no enemy unit (ruling 25's default re-rolls one: README)
    roll.failed = near is None or st.charge_roll < near
    roll.about = f"charge roll {st.charge_roll}"
    rules = RE.any_rules()
    if rules and (st.advanced or st.fell_back):  # (the rule that let it declare, logged)
        RX.permission_used(battle, ent, EL.CHARGE)
    mod = RX.roll_modifier(battle, ent, "charge") if rules else 0
    new = None
    if rules:  # (a rule's modifier and re-roll first: sim.systems.rule_effects; a die re-rolled once)
        roll.failed = near is None or PR.modified_roll(st.charge_roll, mod, PR.CHARGE_CAP) < near
        # (its possible targets: enemy units within 12", 11.02, for a re-roll of charges at some of them)
        reach = [e for e in W.enemy_units(ent) if (d := MV.unit_gap(ent, [e])) is not None and d <= CHG.CHARGE_RANGE]
        new = yield from RX.reroll(battle, ent, "charge", list(roll.dice), roll.failed, others=reach)
        if new is not None:
            roll.dice[:] = new
    if new is None:
        yield from battle.offer(Moment(SG.AFTER_ROLL, player=_owner(ent), unit=ent, roll=roll))
    st.charge_roll = sum(roll.dice)
    if mod:
        st.charge_roll = PR.modified_roll(st.charge_roll, mod, PR.CHARGE_CAP)
    battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, result="declared")


# --- ChargeMove ----------------------------------------------------------------------------

def _check_charge_move(battle, cmd: ChargeMove) -> None:
    """11.02 step 3 / 11.04: after the roll, targets within 12" and within the roll (edge to
    edge, before moving; ruling 17), then the move and its conditions (sim.plan.moves)."""
    ent = live_unit(battle, cmd.unit)
    st = W.unit_state(ent)
    if st.charge_roll is None:
        raise PlanError(f"{cmd.unit} has not declared a charge (11.02: declare and roll first)")
    if st.charge_resolved:
        raise PlanError(f"{cmd.unit}'s charge has already been resolved this phase (11.02)")
    MV.check_sky(ent, cmd.fly, "charge")
    if not cmd.targets:
        if cmd.to:
            raise PlanError("a charge with no targets moves no model (11.02 step 3)")
        return
    enemies = {esper.component_for_entity(u, Unit).id: u for u in W.enemy_units(ent)}
    if len(set(cmd.targets)) != len(cmd.targets):
        raise PlanError("a charge target is named twice (11.04)")
    reach = MV.charge_limit(ent, st.charge_roll, cmd.fly)
    limit = MV.charge_reach(ent, st.charge_roll, cmd.fly)
    permits = _permits(battle, ent)
    for t in cmd.targets:
        u = enemies.get(t)
        if u is None or W.unit_destroyed(u):
            raise PlanError(f"{t!r} is not an enemy unit on the battlefield (11.04)")
        problem = permits and RR.permission_refusal(battle, ent, EL.CHARGE, u, permits)
        if problem:
            raise PlanError(problem)
        gap = MV.unit_gap(ent, [u])
        if not CHG.in_reach(gap, limit):
            sky = f", {reach:g}\" taking to the skies (21.03)" if cmd.fly else ""
            raise PlanError(f"{t} is {gap:.2f}\" away: a charge target must be within 12\" and within "
                            f"the charge roll of {st.charge_roll}\"{sky} (11.04)")
    MV.check_charge(battle, ent, cmd, st.charge_roll)


def _apply_charge_move(battle, cmd: ChargeMove):
    """11.02 step 3 / 11.04: the move (validated), then Fights First until the end of the turn
    and 'made a charge move this turn'; no targets: nothing moves. Just after a MONSTER or
    VEHICLE unit's charge move, Crushing Impact (15.06) is offered (the stratagems whose
    window a charge move opens)."""
    ent = battle.units[cmd.unit]
    st = W.unit_state(ent)
    st.charge_resolved = True
    if battle.turn_state is not None:
        battle.turn_state.in_progress = None
    if not cmd.targets:
        battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, targets=[], result="not made")
        return
    final = apply_positions(battle, ent, cmd.to, cmd.face)
    st.charged = True
    sky = {"fly": True} if cmd.fly else {}  # (21.03 taking to the skies)
    battle.emit(ev.CHARGE, unit=cmd.unit, roll=st.charge_roll, targets=list(cmd.targets),
                result="made", to=final, **sky, **faced(cmd.face))
    if RE.any_rules():  # (a rule's mortal wounds after a charge move: sim.systems.rule_effects)
        if RX.trigger_mortal_wounds(battle, ent, EV.ON_CHARGE, RX.charge_targets(ent)):
            yield from remove_casualties(battle)
    yield from battle.offer(Moment(SG.AFTER_CHARGE_MOVE, player=_owner(ent), unit=ent))


def _permits(battle, ent: int) -> list:
    """The rules' leave the unit charges by when it advanced or fell back this turn (09.06 /
    09.07: RR.permitting), whose conditions on each target the charge move's check tests."""
    st = W.unit_state(ent)
    return RR.permitting(battle, ent, EL.CHARGE) if st.advanced or st.fell_back else []


# --- the automatic player's choice (Part A ruling 17) ---------------------------------------

def default_targets(battle, ent: int, limit: float, body) -> list[str]:
    """Part A ruling 17: the closest eligible enemy unit (CS.default_charge_targets: within 12"
    and within ``limit``, nearest first), an enemy unit the rules' leave to charge after
    advancing or falling back does not cover (a condition of it on the target: Thrill Seekers',
    the check's RR.permission_refusal) being no eligible one; [] when none is."""
    uid = esper.component_for_entity(ent, Unit).id
    permits = _permits(battle, ent)
    if not permits:  # (the usual case: every unit in reach is eligible)
        return CS.default_charge_targets(uid, limit, body)
    return [t for t in CS.charge_targets(uid, limit, body)
            if not RR.permission_refusal(battle, ent, EL.CHARGE, battle.units[t], permits)][:1]


def charge_command(battle, uid: str, targets, to, fly: bool | None = False):
    """11.04 The charge move a script step or a player makes: the step's ``to`` as written,
    or the solver's placement (Part A ruling 17: the closest eligible enemy unit when no
    targets are named); no legal placement = the charge is not made (no targets). ``fly``:
    take to the skies (21.03); None: on the ground, or, if no ground charge is found and the
    unit has FLY, taking to the skies (the default player's choice)."""
    ent = battle.units[uid]
    roll = W.unit_state(ent).charge_roll
    if to is not None:
        return ChargeMove(uid, tuple(targets or ()), tuple((m, *p) for m, p in to.items()), fly=bool(fly))
    if roll is None:
        return ChargeMove(uid, (), ())
    body = MV.bodies()
    tries = [bool(fly)] if fly is not None else [False] + ([True] if MV.can_fly(ent) else [])
    for sky in tries:
        limit = MV.charge_limit(ent, roll, sky)
        aims = default_targets(battle, ent, limit, body) if targets is None else targets
        if not aims:
            continue
        sol = CS.solve_charge(uid, aims, limit, body, battle.scenario.terrain, battle.scenario.board,
                              **MV.path_rules(ent, sky))
        if sol:
            return ChargeMove(uid, tuple(sorted(aims)), MV.solution_ends(sol), MV.solution_turns(sol), fly=sky)
    return ChargeMove(uid, (), (), fly=bool(fly))  # (a charge asked to fly by a unit without FLY: refused)


DECLARE_CHARGE = CommandRecord(
    "declare charge", DeclareCharge, "11.02", "declare a charge with a unit and make its charge roll (2D6)",
    (UNIT,), check=_check_declare, apply=_apply_declare,
    describe=lambda c: f"== {c['unit']} declares a charge", phase=Phase.CHARGE, script_step="charge")

CHARGE_MOVE = CommandRecord(
    "charge move", ChargeMove, "11.02", "make a declared charge's move at its targets (none: it is not made)",
    (UNIT, TARGETS, TO, VIA, FLY, FACE), check=_check_charge_move, apply=_apply_charge_move, phase=Phase.CHARGE)
