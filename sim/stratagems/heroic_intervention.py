"""15.11 Heroic Intervention: at the end of your opponent's Charge phase, one of your unengaged
units within 12" of an enemy unit (a VEHICLE only if CHARACTER or WALKER) declares a charge of
its own: Leap to Defend (1 CP) at units that charged this phase, or, for 1 more CP, Into the
Fray at any enemy unit within 6", the roll capped at 6."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.plan import moves as MV
from sim.rules import charge as CHG
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.rules.movement.solvers import charge as CH
from sim.decisions import DecisionRequest, ask
from sim.stratagems.base import DECLINE, Fact, Moment, StratagemRecord, allowed, choose, pay
from sim.stratagems.facts import UNENGAGED
from sim.systems.placing import apply_positions
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.systems import rule_effects as RX
from sim.systems.removal import remove_casualties
from sim.rules.effects import vocabulary as EV
from sim.rules.effects import phase_rules as PR
import math
from sim.rules.effects import dice_pool as DPR
from sim.systems import dice_pools as DPS

NAME = "Heroic Intervention"
LEAP, FRAY = "Leap to Defend", "Into the Fray"
NEAR_AN_ENEMY = Fact("within 12 inches of an enemy unit",
                     lambda battle, u: CHG.may_declare(MV.unit_gap(u, W.enemy_units(u))))


def has_targets(u: int, mode: str) -> bool:
    """15.11 A mode is offered only when it could have a target: Leap to Defend an enemy unit
    that charged this phase within 12" (after a charge that failed, or none, there is none);
    Into the Fray an enemy unit within 6"."""
    enemies = W.enemy_units(u)
    if mode == LEAP:
        charged = [e for e in enemies if W.unit_state(e).charged]
        return bool(charged) and CHG.may_declare(MV.unit_gap(u, charged))
    return CHG.in_reach(MV.unit_gap(u, enemies), CHG.INTO_THE_FRAY_RANGE)


def _offer(battle, player: int, moment: Moment):
    """The answer names the unit and the mode ("unit: mode"); the charge roll follows, then its
    target: the player picks one of the enemy units it may charge (11.04: within 12" and the
    roll; sim.rules.charge), a ``charge_targets`` decision whose default is the closest (Part A
    ruling 17), asked only when there is a choice; then the solver's placement, on the ground
    or, when no ground charge is found and the unit has FLY, taking to the skies (21.03: 2" less
    unless Hover, as the default player's charge). A charge that cannot be made moves nothing."""
    options = []
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or W.unit_destroyed(u):
            continue
        for mode, extra in ((LEAP, False), (FRAY, True)):
            if has_targets(u, mode) and allowed(battle, RECORD, player, u, SG.END_OF_PHASE, extra=extra):
                options.append(f"{unit.id}: {mode}")
    if not options:
        return False
    answer = yield from choose(battle, RECORD, player, NAME, options,
                               f"use {NAME} ({RECORD.section}): which unit charges, and how?")
    if answer == DECLINE:
        return False
    uid, mode = answer.split(": ", 1)
    u = battle.units[uid]
    pay(battle, RECORD, player, uid, mode, extra=mode == FRAY)
    st = W.unit_state(u)
    battle.changes.touched(u)
    dice = battle.dice
    if RE.any_rules():  # a pool's die may stand for one of the two (sim.systems.dice_pools)
        near = MV.unit_gap(u, W.enemy_units(u))
        dice = DPS.dice_for(battle, (yield from DPS.substitute(
            battle, u, "charge", DPR.two_dice_chance(99 if near is None else math.ceil(near - 1e-9)))),
            f"charge roll {uid} ({NAME})")
    roll = sum(dice.d6(2, f"charge roll {uid} ({NAME})"))
    if RE.any_rules():  # (the rules' charge modifiers: sim.systems.rule_effects)
        roll = PR.modified_roll(roll, RX.roll_modifier(battle, u, "charge"), PR.CHARGE_CAP)
    if mode == FRAY:
        roll = CHG.into_the_fray_roll(roll)
    cap = CHG.CHARGE_RANGE if mode == LEAP else CHG.INTO_THE_FRAY_RANGE
    tries = (False, True) if MV.can_fly(u) else (False,)  # (21.03 on the ground first)
    gaps = {}  # each enemy unit it may target (11.04 within 12" and the roll), in its nearest reach
    for sky in tries:
        reach = MV.charge_reach(u, roll, sky, cap)
        for e in W.enemy_units(u):
            gap = MV.unit_gap(u, [e])
            if CHG.in_reach(gap, reach) and (mode == FRAY or W.unit_state(e).charged):
                gaps.setdefault(esper.component_for_entity(e, Unit).id, gap)
    sol, targets, sky = None, [], False
    if gaps:
        # the player picks the unit it charges; the default is the closest (Part A ruling 17)
        order = sorted(gaps, key=lambda t: (gaps[t], t))
        target = order[0]
        if len(order) > 1:
            target = yield from ask(battle, DecisionRequest(
                "charge_targets", f"{NAME}: {uid}", player, order, order[0],
                prompt=f"{uid} charges ({NAME}, {mode}; roll {roll}\"): at which enemy unit? (11.04)",
                context={"stratagem": NAME, "target": uid}))
        targets = [target]
        for sky in tries:
            if not CHG.in_reach(gaps[target], MV.charge_reach(u, roll, sky, cap)):
                continue
            sol = CH.solve_charge(uid, targets, MV.charge_limit(u, roll, sky), MV.bodies(), battle.scenario.terrain,
                                  battle.scenario.board, **MV.path_rules(u, sky))
            if sol:
                break
    if not sol:
        battle.emit(ev.CHARGE, unit=uid, roll=roll, targets=[], result="not made", note=f"{NAME} ({mode})")
        return True
    final = apply_positions(battle, u, [(mid, float(p[-1][0]), float(p[-1][1])) for mid, p in sorted(sol.paths.items())])
    st.charged = True  # 11.04: Fights First until the end of the turn, 'made a charge move'
    battle.emit(ev.CHARGE, unit=uid, roll=roll, targets=list(targets), result="made", to=final,
                note=f"{NAME} ({mode})", **({"fly": True} if sky else {}))  # (21.03)
    if RE.any_rules():  # (a rule's mortal wounds after a charge move)
        if RX.trigger_mortal_wounds(battle, u, EV.ON_CHARGE, RX.charge_targets(u)):
            yield from remove_casualties(battle)
    return True


RECORD = StratagemRecord(
    NAME, "15.11", 1, SG.OPPONENT, Phase.CHARGE, SG.END_OF_PHASE,
    "The unit declares a charge of its own, either only at units that charged this phase "
    "(Leap to Defend) or, for 1 more CP, at anything within 6 inches with the roll capped at 6 "
    "(Into the Fray).",
    "a friendly unengaged unit within 12 inches of an enemy unit; a VEHICLE only if CHARACTER or WALKER",
    _offer, needs=(UNENGAGED, NEAR_AN_ENEMY), vehicle_needs_any=("CHARACTER", "WALKER"), extra=(FRAY, 1))
