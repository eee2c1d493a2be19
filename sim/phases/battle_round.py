"""07 The battle round, run: what happens when the battle starts and when a phase (or a
player's part of a Fight-phase step) ends. The StartBattle and EndPhase commands' records apply
it (sim.commands.flow); dice and events go through the battle as everywhere else.

Order at every phase end (RULES §17, §28; ruling 19): objective control first, then the
phase's own end rules, then mission scoring; then the stratagems whose windows the moment opens
(15: Battle.offer; the registry says which and in what order; none is named here).
"""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.phases.fight_order import normalise_picker, pick_after_pass, start_fight_step
from sim.plan.fight import fight_eligible
from sim.rules.turn import PLAYER
from sim.phases.state import FightStep, Phase
from sim.phases import rule_choices, scoring, upkeep
from sim.phases import forced_shock
from sim.phases import rituals
from sim.phases import oaths
from sim.rules.effects import oaths as OA
from sim.systems import dice_pools
from sim.systems import rule_effects
from sim.rules.effects import vocabulary as EV
from sim.rules import pre_battle as PB
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment
from sim.systems.transport import destroy_empty_dedicated
from sim.world import queries as W
from sim.world import state_hash as SH


def other(player: int) -> int:
    return 1 - player


def start_battle(battle):
    """26 steps 10-12 of a battle whose armies are placed by the scenario: the first-turn
    roll-off, then battle round 1 begins. (A battle deployed by the rules begins with steps
    5-11 instead: sim.phases.pre_battle, which calls these two in turn.) The scenario's
    battle formations stand declared: every DEDICATED TRANSPORT left empty is destroyed (18.01)."""
    yield from oaths.swear(battle)  # (the end of reading the mission: before all else here)
    destroy_empty_dedicated(battle)
    first_turn(battle)
    yield from begin(battle)


def roll_off(battle, why: str) -> int:
    """01.05.05 A roll-off: each player rolls a D6, the higher wins, ties roll again."""
    while True:
        rolls = battle.dice.d6(2, f"{why} roll-off ({', '.join(PLAYER)})")
        winner = PB.roll_off(rolls[0], rolls[1])
        if winner is not None:
            return winner


def first_turn(battle) -> None:
    """26 step 10 The first-turn roll-off (unless the scenario names the first player)."""
    ts = battle.turn_state
    first = ts.mission.first
    ts.first = roll_off(battle, "first turn") if first is None else first


def begin(battle):
    """26 step 12 Starting strengths (01.02.01), then battle round 1 begins."""
    ts = battle.turn_state
    # 01.02.01 every model of the unit, in strategic reserves too
    ts.starting_strength = {u: len(esper.component_for_entity(u, Unit).models) for u in W.all_units()}
    battle.emit(ev.BATTLE_START, first=PLAYER[ts.first], rounds=ts.mission.rounds)
    yield from oaths.start_of_battle(battle)
    yield from _start_round(battle, 1)


def _start_round(battle, n: int):
    ts = battle.turn_state
    ts.round = n
    battle.emit(ev.ROUND, round=n)
    yield from dice_pools.round_start(battle)  # the rules' dice at the round's start
    yield from _start_turn(battle, ts.first)


def _start_turn(battle, player: int):
    ts = battle.turn_state
    ts.active = ts.chooser = player
    battle.emit(ev.PLAYER_TURN, round=ts.round, player=PLAYER[player])
    _enter(battle, Phase.COMMAND)
    yield from rule_choices.start_of_phase(battle)
    yield from upkeep.command_phase(battle, forced_shock.in_step)
    yield from forced_shock.forced_tests(battle, EV.AT_COMMAND)  # (08.04)
    rule_effects.returns(battle, EV.AT_COMMAND)
    _end_of_phase(battle)
    yield from rule_choices.end_of_phase(battle)
    _enter(battle, Phase.MOVEMENT)
    yield from rule_choices.start_of_phase(battle)


def _enter(battle, phase: Phase) -> None:
    ts = battle.turn_state
    ts.phase = phase
    ts.chooser = ts.active
    SH.reset(ts, "phase")  # (every TurnState field declared reset: phase)
    battle.emit(ev.PHASE, round=ts.round, player=PLAYER[ts.active], phase=str(phase))


def _end_of_phase(battle) -> None:
    """14.02.01 Control first, then the rules' returns at the end of the phase (RETURN), then
    mission scoring that falls at this moment."""
    scoring.settle_control(battle)
    rule_effects.returns(battle, EV.AT_END_OF_PHASE)
    rituals.end_of_phase(battle)  # rituals last until the end of the phase
    scoring.score(battle, battle.turn_state.phase)


def end_phase(battle):
    """07.02 The player with the choice ends the phase (or their part of a Fight-phase step)."""
    ts = battle.turn_state
    phase = ts.phase
    if phase == Phase.MOVEMENT:
        upkeep.remained_stationary(battle)
        _end_of_phase(battle)
        yield from rule_choices.end_of_phase(battle)
        # the end of the phase's stratagems (RULES §28), then the Shooting phase starts: the
        # start of the phase's, then those usable at any moment of it
        yield from battle.offer(Moment(SG.END_OF_PHASE))
        _enter(battle, Phase.SHOOTING)
        yield from rule_choices.start_of_phase(battle)
        yield from rituals.start_of_shooting(battle)  # the rules' rituals (sim.phases.rituals)
        yield from battle.offer(Moment(SG.START_OF_PHASE))
        yield from battle.offer(Moment(SG.DURING_PHASE))
    elif phase == Phase.SHOOTING:
        _end_of_phase(battle)
        yield from rule_choices.end_of_phase(battle)
        _enter(battle, Phase.CHARGE)
        yield from rule_choices.start_of_phase(battle)
    elif phase == Phase.CHARGE:
        upkeep.unmade_charges(battle)
        _end_of_phase(battle)
        yield from rule_choices.end_of_phase(battle)
        # 11.03, then the end of the phase's stratagems (RULES §28)
        yield from battle.offer(Moment(SG.END_OF_PHASE))
        _enter(battle, Phase.FIGHT)
        yield from rule_choices.start_of_phase(battle)
        ts.step = FightStep.PILE_IN
        battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])
    elif phase == Phase.FIGHT:
        yield from _end_fight_part(battle)


def _end_fight_part(battle):
    ts = battle.turn_state
    if ts.step == FightStep.FIGHT:  # 12.04.01 a pass
        passer = ts.chooser
        battle.emit(ev.FIGHT_PASS, player=PLAYER[passer])
        picker = pick_after_pass(battle, passer)
        if picker != passer or ts.fight_passes == 0:  # (the same player's passes in a row count once)
            ts.fight_passes += 1
        # the step ends when both players have passed in succession, or the other player has
        # no eligible unit; otherwise the other player picks (or, unable to, the passer again)
        if picker is None or ts.fight_passes >= 2:
            yield from _next_fight_step(battle)
        else:
            ts.chooser = other(passer)
            normalise_picker(battle)
        return
    if ts.chooser == ts.active:  # 12.02/12.07 the player whose turn it is goes first
        ts.chooser = other(ts.active)
        battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])
        return
    yield from _next_fight_step(battle)


def _next_fight_step(battle):
    ts = battle.turn_state
    if ts.step == FightStep.PILE_IN:
        start_fight_step(battle)
        battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])
        normalise_picker(battle)
        if ts.step == FightStep.CONSOLIDATE:
            battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])
    elif ts.step == FightStep.FIGHT:
        ts.step = FightStep.CONSOLIDATE
        ts.chooser = ts.active
        battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])
    else:
        _end_of_phase(battle)
        yield from rule_choices.end_of_phase(battle)  # e.g. units back into reserves
        yield from _end_turn(battle)


def after_fight(battle, unit_ent: int):
    """12.04 After a unit's fight: the other player picks next (normalised for who can), unless
    a stratagem used just after an enemy unit's attacks changes that (15.12 Counteroffensive
    makes one of theirs their next pick)."""
    ts = battle.turn_state
    owner = esper.component_for_entity(unit_ent, Unit).owner
    if ts.pending_fights and ts.pending_fights[0] == unit_ent:  # 12.08: engaged by a consolidation
        ts.pending_fights.pop(0)
        if ts.pending_fights:
            ts.chooser = esper.component_for_entity(ts.pending_fights[0], Unit).owner
        else:
            ts.chooser, ts.resume_chooser = ts.resume_chooser, None
        return
    ts.fight_passes = 0
    ts.chooser = other(owner)
    ts.forced_pick = None
    if ts.step == FightStep.FIGHT:
        yield from battle.offer(Moment(SG.AFTER_ENEMY_ATTACKS, player=other(owner), unit=unit_ent))
        if ts.forced_pick is not None:
            return
    normalise_picker(battle, after_fight=True)
    if ts.step == FightStep.CONSOLIDATE:
        battle.emit(ev.STEP, step=str(ts.step), player=PLAYER[ts.chooser])


def _end_turn(battle):
    """07.02 step 7: control, end-of-turn rules (03.03 coherency removals for both armies),
    mission scoring; then the other player's turn, or the end of the round."""
    ts = battle.turn_state
    ts.phase = Phase.END
    SH.reset(ts, "phase")  # (a phase begins: the Fight phase's step, 15.03 gains, ... are over)
    battle.emit(ev.PHASE, round=ts.round, player=PLAYER[ts.active], phase=str(Phase.END))
    scoring.settle_control(battle)
    yield from upkeep.coherency_removals(battle)
    scoring.score(battle, Phase.END)
    oaths.judge(battle, OA.END_OF_TURN)
    upkeep.roll_over_turn(battle)
    if ts.active == ts.first:
        yield from _start_turn(battle, other(ts.first))
        return
    # 07.03 end of the battle round
    oaths.judge(battle, OA.END_OF_ROUND)
    upkeep.end_of_round(battle)
    if ts.round >= ts.mission.rounds:
        scoring.finish(battle)
        return
    yield from _start_round(battle, ts.round + 1)
