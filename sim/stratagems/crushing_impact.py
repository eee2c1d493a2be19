"""15.06 Crushing Impact: in your Charge phase, just after a MONSTER or VEHICLE unit of yours ends
a charge move, one of its models engaged with an enemy unit rolls one D6 per point of its T:
each 5+ is a mortal wound on that enemy unit, each 1 one on your own unit, at most 6 each
(sim.rules.crushing_impact; this project plays the newer wording: README, our rulings)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Stats, Unit
from sim.rules import crushing_impact as CI
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import DECLINE, Moment, StratagemRecord, allowed, choose, pay, uid
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.world import queries as W

NAME = "Crushing Impact"


def _pairs(ent: int) -> list[tuple[str, str]]:
    """(model, enemy unit) pairs: each living model of the unit with each enemy unit it is
    engaged with, in unit order then the enemy units' order."""
    out = []
    enemies = W.engaged_with(ent)
    for m in W.unit_models(ent):
        for e in enemies:
            if any(W.models_engaged(m, em) for em in W.unit_models(e)):
                out.append((W.model_id(m), esper.component_for_entity(e, Unit).id))
    return out


def _offer(battle, player: int, moment: Moment):
    """Offered for ``moment.unit``, the unit that just charged: the answer "model -> unit"
    picks one of its models and an enemy unit engaged with it. The enemy's mortal wounds are
    inflicted first, then the unit's own (06.02, one at a time); casualties are removed after
    their 'when destroyed' rules."""
    ent = moment.unit
    if not allowed(battle, RECORD, player, ent, SG.AFTER_CHARGE_MOVE):
        return False
    pairs = _pairs(ent)
    if not pairs:
        return False
    unit = uid(ent)
    answer = yield from choose(
        battle, RECORD, player, f"{NAME}: {unit}", [f"{mid} -> {eid}" for mid, eid in pairs],
        f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP)? which of {unit}'s models, against which enemy unit "
        f"engaged with it?", target=unit)
    if answer == DECLINE:
        return False
    mid, eid = answer.split(" -> ", 1)
    enemy = battle.units[eid]
    T = esper.component_for_entity(battle.models[mid], Stats).T
    pay(battle, RECORD, player, unit, f"{mid} (T{T}) against {eid}")
    rolls = battle.dice.d6(CI.dice_count(T), f"Crushing Impact {mid} -> {eid}")
    result = CI.crushing_impact(rolls)
    battle.emit(ev.CRUSHING_IMPACT, unit=unit, model=mid, T=T, target=eid, rolls=list(rolls),
                to_enemy=result.to_enemy, to_own=result.to_own)
    source = f"{NAME} ({RECORD.section})"
    if result.to_enemy:
        suffer_mortal_wounds(battle, enemy, result.to_enemy, source=source, by=source)
    if result.to_own and not W.unit_destroyed(ent):
        suffer_mortal_wounds(battle, ent, result.to_own, source=source, by=source)
    battle.changes.touched(enemy)
    yield from remove_casualties(battle)
    return True


RECORD = StratagemRecord(
    NAME, "15.06", 1, SG.YOURS, Phase.CHARGE, SG.AFTER_CHARGE_MOVE,
    "One model of the charging MONSTER/VEHICLE rolls a die per point of its T against an "
    "enemy unit it is engaged with: 1s wound its own unit, 5+ wound the enemy (6 at most per unit).",
    "the friendly MONSTER or VEHICLE unit that just ended a charge move", _offer,
    keywords_any=("MONSTER", "VEHICLE"))
