"""15.10 Smokescreen: at the start of your opponent's Shooting phase, one of your SMOKE units:
until the end of the phase, attacks that target it get the benefit of cover (13.08). Its other
half (a unit not fully visible because of models in the SMOKE unit) never arises here: models
never block line of sight (Part A ruling 2)."""

from __future__ import annotations

from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import DECLINE, Moment, StratagemRecord, allowed, choose, own_units, pay, uid

NAME = "Smokescreen"


def _offer(battle, player: int, moment: Moment):
    """The answer is the unit's id; it goes into TurnState.smoke, which the cover rule reads."""
    options = [uid(u) for u in own_units(player) if allowed(battle, RECORD, player, u, SG.START_OF_PHASE)]
    if not options:
        return False
    answer = yield from choose(battle, RECORD, player, NAME, options,
                               f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP) on which SMOKE unit?",
                               use=False)
    if answer == DECLINE:
        return False
    battle.turn_state.smoke.append(battle.units[answer])
    pay(battle, RECORD, player, answer, "benefit of cover against attacks that target it until the end of the phase")
    return True


RECORD = StratagemRecord(
    NAME, "15.10", 1, SG.OPPONENT, Phase.SHOOTING, SG.START_OF_PHASE,
    "Until the phase ends, attacks on the SMOKE unit, or on units hidden from the attacker by "
    "its models, are made as if the target had the benefit of cover.",
    "a friendly SMOKE unit", _offer, keywords_any=("SMOKE",))
