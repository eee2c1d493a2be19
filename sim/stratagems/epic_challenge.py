"""15.03 Epic Challenge: in your Fight phase, just after a CHARACTER unit of yours is selected to
fight, one CHARACTER model of it has its melee weapons gain [PRECISION] until the end of the
phase."""

from __future__ import annotations

import esper

from sim.components import Character
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.rules.abilities import Hook, tag
from sim.stratagems.base import DECLINE, Moment, StratagemRecord, allowed, choose, pay, uid
from sim.world import queries as W

NAME = "Epic Challenge"
_GAINED = (Hook.PRECISION,)  # what a CHARACTER model's melee weapons gain


def _offer(battle, player: int, moment: Moment):
    """Offered for ``moment.unit``, the unit just selected to fight: the answer names one of its
    CHARACTER models with a melee weapon, whose melee weapons gain [PRECISION] until the end of
    the phase (TurnState.melee_gains, read when the fight is planned: sim.plan.fight; the
    precision allocation of 24.28 does the rest)."""
    ent = moment.unit
    if not allowed(battle, RECORD, player, ent, SG.SELECTED_TO_FIGHT):
        return False
    chars = [W.model_id(m) for m in W.unit_models(ent)
             if esper.has_component(m, Character) and any(w.is_melee for w in W.weapons_of(m))]
    if not chars:
        return False
    unit = uid(ent)
    gain = ", ".join(tag(h) for h in _GAINED)
    answer = yield from choose(
        battle, RECORD, player, f"{NAME}: {unit}", chars,
        f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP)? which CHARACTER model of {unit} has its melee "
        f"weapons gain {gain} this phase?", target=unit)
    if answer == DECLINE:
        return False
    ts = battle.turn_state
    ts.melee_gains[answer] = tuple(dict.fromkeys(ts.melee_gains.get(answer, ()) + _GAINED))
    battle.changes.touched(ent)
    pay(battle, RECORD, player, unit, f"{answer}'s melee weapons gain {gain} until the end of the phase")
    return True


RECORD = StratagemRecord(
    NAME, "15.03", 1, SG.YOURS, Phase.FIGHT, SG.SELECTED_TO_FIGHT,
    "A CHARACTER model of the unit just picked to fight gets the precision ability on its "
    "melee weapons until the phase ends.",
    "the friendly CHARACTER unit just selected to fight", _offer, keywords_any=("CHARACTER",))
