"""15 The movement-, charge- and fight-side core stratagems in play: Epic Challenge (15.03),
Crushing Impact (15.06) and Rapid Ingress (15.07). Each is offered to its player as a
decision at its moment, after the 15.01 limits (sim.rules.stratagems.refusal) allow it, with
the default "decline" (Part A ruling 25), through the offer machinery of sim.systems.stratagems;
a use is paid for and recorded there. Each function is a generator (it may wait for the
answer) and returns whether the stratagem was used.

A decision's options name what the rule makes its player pick (a CHARACTER model, a model and
an enemy unit, a unit in reserves); a script may also answer "use", which stands for the
first option (the request's context "use")."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Character, Stats, Unit
from sim.decisions import DecisionRequest
from sim.rules import crushing_impact as CI
from sim.rules import stratagems as SG
from sim.rules.abilities import Hook, tag
from sim.systems.stratagems import DECLINE, _context, _pay, ask
from sim.world import queries as W

_GAINED = (Hook.PRECISION,)  # 15.03 what a CHARACTER model's melee weapons gain


def _request(record, player: int, key: str, options: list, prompt: str, target: str | None) -> DecisionRequest:
    return DecisionRequest("stratagem", f"{record.name}: {key}", player, options + [DECLINE], DECLINE,
                           prompt=f"use {record.name} ({record.section}, {SG.cost(record)} CP)? {prompt}",
                           context={"stratagem": record.name, "target": target, "use": options[0]})


def epic_challenge(battle, ent: int):
    """15.03 Just after a CHARACTER unit of the player whose turn it is is selected to fight
    in their Fight phase: one CHARACTER model of it (the answer names it) has its melee weapons
    gain [PRECISION] until the end of the phase (TurnState.melee_gains, read when the fight is
    planned: sim.plan.fight; the precision allocation of 24.28 does the rest). Only models with
    a melee weapon are offered."""
    ts = battle.turn_state
    if ts is None:
        return False
    unit = esper.component_for_entity(ent, Unit)
    record = SG.by_name("Epic Challenge")
    ctx = _context(battle, record, unit.owner, unit.id, window=SG.SELECTED_TO_FIGHT,
                   battle_shocked=W.unit_state(ent).battle_shocked)
    ctx.update(target_keywords=W.unit_keywords(ent))
    if SG.refusal(record, **ctx) is not None:
        return False
    chars = [W.model_id(m) for m in W.unit_models(ent)
             if esper.has_component(m, Character) and any(w.is_melee for w in W.weapons_of(m))]
    if not chars:
        return False
    gain = ", ".join(tag(h) for h in _GAINED)
    req = _request(record, unit.owner, unit.id, chars,
                   f"which CHARACTER model of {unit.id} has its melee weapons gain {gain} this phase?", unit.id)
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return False
    ts.melee_gains[answer] = tuple(dict.fromkeys(ts.melee_gains.get(answer, ()) + _GAINED))
    battle.changes.touched(ent)
    _pay(battle, record, unit.owner, unit.id, f"{answer}'s melee weapons gain {gain} until the end of the phase")
    return True


def _pairs(ent: int) -> list[tuple[str, str]]:
    """15.06 (model, enemy unit) pairs: each living model of the unit with each enemy unit it
    is engaged with, in unit order then the enemy units' order."""
    out = []
    enemies = W.engaged_with(ent)
    for m in W.unit_models(ent):
        for e in enemies:
            if any(W.models_engaged(m, em) for em in W.unit_models(e)):
                out.append((W.model_id(m), esper.component_for_entity(e, Unit).id))
    return out


def crushing_impact(battle, ent: int):
    """15.06 Just after a MONSTER or VEHICLE unit of the player whose turn it is ends a charge
    move in their Charge phase: the player picks an enemy unit engaged with it and one of its
    models engaged with that unit (the answer "model -> unit"), rolls one D6 per point of that
    model's T, and each 5+ is a mortal wound on the enemy unit, each 1 one on their own unit,
    at most 6 each (sim.rules.crushing_impact). The enemy's are inflicted first, then the
    unit's own (06.02, one at a time); casualties are removed after their 'when destroyed'
    rules."""
    ts = battle.turn_state
    if ts is None:
        return False
    unit = esper.component_for_entity(ent, Unit)
    record = SG.by_name("Crushing Impact")
    ctx = _context(battle, record, unit.owner, unit.id, window=SG.AFTER_CHARGE_MOVE,
                   battle_shocked=W.unit_state(ent).battle_shocked)
    ctx.update(target_keywords=W.unit_keywords(ent))
    if SG.refusal(record, **ctx) is not None:
        return False
    pairs = _pairs(ent)
    if not pairs:
        return False
    options = [f"{mid} -> {eid}" for mid, eid in pairs]
    req = _request(record, unit.owner, unit.id, options,
                   f"which of {unit.id}'s models, against which enemy unit engaged with it?", unit.id)
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return False
    mid, eid = answer.split(" -> ", 1)
    enemy = battle.units[eid]
    T = esper.component_for_entity(battle.models[mid], Stats).T
    _pay(battle, record, unit.owner, unit.id, f"{mid} (T{T}) against {eid}")
    from sim.systems.mortal_wounds import suffer_mortal_wounds
    from sim.systems.removal import remove_casualties
    rolls = battle.dice.d6(CI.dice_count(T), f"Crushing Impact {mid} -> {eid}")
    result = CI.crushing_impact(rolls)
    battle.emit(ev.CRUSHING_IMPACT, unit=unit.id, model=mid, T=T, target=eid, rolls=list(rolls),
                to_enemy=result.to_enemy, to_own=result.to_own)
    source = f"Crushing Impact ({record.section})"
    if result.to_enemy:
        suffer_mortal_wounds(battle, enemy, result.to_enemy, source=source, by=source)
    if result.to_own and not W.unit_destroyed(ent):
        suffer_mortal_wounds(battle, ent, result.to_own, source=source, by=source)
    battle.changes.touched(enemy)
    remove_casualties(battle)
    return True


def rapid_ingress(battle, player: int):
    """15.07 At the end of the opponent's Movement phase (never in battle round 1): one of the
    player's units in strategic reserves (not AIRCRAFT) makes an ingress move now. It arrives
    where the headless ingress places it (Part A ruling 27: the legal spot nearest the nearest
    objective its side does not control), checked as any ingress move is (20.04, 03.02:
    sim.plan.phased.check_ingress; the Movement phase's gates aside); only units with a legal
    spot are offered. The answer names the unit."""
    from sim.errors import PlanError
    from sim.plan import phased as PH
    from sim.commands.ingress import default_ingress
    from sim.systems.placing import apply_ingress
    ts = battle.turn_state
    if ts is None:
        return False
    record = SG.by_name("Rapid Ingress")

    def problem(cmd):
        try:
            PH.check_ingress(battle, cmd)
        except PlanError as e:
            return str(e)
        return None

    spots = {}
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or not W.in_reserves(u):
            continue
        ctx = _context(battle, record, player, unit.id, window=SG.END_OF_PHASE,
                       battle_shocked=W.unit_state(u).battle_shocked)
        ctx.update(target_facts=("in strategic reserves",), target_keywords=W.unit_keywords(u))
        if SG.refusal(record, **ctx) is not None:
            continue
        cmd = default_ingress(battle, u, player, check=problem)
        if cmd is not None:
            spots[unit.id] = cmd
    if not spots:
        return False
    options = list(spots)
    req = _request(record, player, "end of the opponent's Movement phase", options,
                   "which unit in strategic reserves arrives now?", None)
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return False
    _pay(battle, record, player, answer, "an ingress move at the end of the opponent's Movement phase")
    apply_ingress(battle, spots[answer].unit, spots[answer].to)
    return True
