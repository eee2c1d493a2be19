"""15.12 Counteroffensive: in the Fight phase, just after an enemy unit has resolved its attacks,
one of your units that is eligible to fight gains Fights First until the end of the phase and
must be the next unit you pick to fight."""

from __future__ import annotations

from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import DECLINE, Moment, StratagemRecord, allowed, choose, own_units, pay, uid
from sim.stratagems.facts import ELIGIBLE_TO_FIGHT
from sim.world import queries as W

NAME = "Counteroffensive"


def _offer(battle, player: int, moment: Moment):
    """Offered to ``player`` after ``moment.unit`` (an enemy unit) fought: the answer names one
    of their units eligible to fight (12.04); it fights first this phase (UnitState
    .counteroffensive) and is their next pick (TurnState.forced_pick), the Fight step back in
    its step 1 (Fights First combats), with ``player`` to pick."""
    options = [uid(u) for u in own_units(player) if allowed(battle, RECORD, player, u, SG.AFTER_ENEMY_ATTACKS)]
    if not options:
        return False
    enemy = uid(moment.unit)
    answer = yield from choose(battle, RECORD, player, f"{NAME}: after {enemy}", options,
                               f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP) on one of {', '.join(options)}?")
    if answer == DECLINE:
        return False
    u = battle.units[answer]
    W.unit_state(u).counteroffensive = True
    battle.changes.touched(u)
    pay(battle, RECORD, player, answer, f"after {enemy} fought")
    ts = battle.turn_state
    ts.chooser = player
    ts.forced_pick = u
    ts.fights_first_step = True
    return True


RECORD = StratagemRecord(
    NAME, "15.12", 2, SG.OPPONENT, Phase.FIGHT, SG.AFTER_ENEMY_ATTACKS,
    "The unit gains Fights First until the phase ends and must be the next unit its player picks to fight.",
    "a friendly unit that is eligible to fight", _offer, needs=(ELIGIBLE_TO_FIGHT,))
