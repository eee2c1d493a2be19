"""15 Core stratagems in play: at each moment one may be used, it is offered to its player as
a decision (Part A ruling 25), after the 15.01 limits (sim.rules.stratagems.refusal) say it
can be; the answer's CP are paid and the use recorded. The default answer is the ruling's
policy: none, except a Command Re-roll of a failed charge roll.

Offered so far: Command Re-roll (15.02) after an advance or charge roll (here), and, in
sim.systems.command_reroll, after a roll for the number of attacks, a hit, wound, save (the
defender's), damage or hazard roll, one die of it, only when a die could come out better and
the limits allow it (never in free play, which has no CP); Insane Bravery (15.04)
before a battle-shock roll, Heroic Intervention (15.11) at the end of the opponent's Charge
phase, Counteroffensive (15.12) after an enemy unit has fought; in sim.systems.more_stratagems,
Epic Challenge (15.03) just after a CHARACTER unit is selected to fight in its player's Fight
phase, Crushing Impact (15.06) just after a MONSTER or VEHICLE unit's charge move in its
player's Charge phase and Rapid Ingress (15.07) at the end of the opponent's Movement phase
(from round 2); and in sim.systems.shooting_stratagems, Fire Overwatch (15.08, with 15.09 snap
shooting) at the end of the opponent's Movement phase, Smokescreen (15.10) at the start of the
opponent's Shooting phase and Explosives (15.05) in the player's Shooting phase (at its start
and after each of their units has shot)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import PENDING, DecisionRequest
from sim.rules.turn import PLAYER
from sim.plan.fight import fight_eligible
from sim.rules import stratagems as SG
from sim.world import queries as W

USE, DECLINE = "use", "decline"


def ask(battle, request: DecisionRequest):
    """Wait (a generator) for the answer to ``request``; returns it."""
    while True:
        value = battle.decide(request)
        if value is not PENDING:
            return value
        yield


def _context(battle, record, player: int, target: str | None, *, window: str, roll=None,
             battle_shocked: bool = False) -> dict:
    ts = battle.turn_state
    return dict(cp=ts.cp[player], phase=str(ts.phase), window=window,
                whose_turn=SG.YOURS if ts.active == player else SG.OPPONENT,
                used_this_phase=ts.stratagems_used[player], target=target,
                units_targeted_this_phase=ts.stratagem_targets[player],
                target_battle_shocked=battle_shocked, used_once_per_battle=ts.once_per_battle[player],
                round=ts.round, roll=roll)


def _pay(battle, record, player: int, target: str | None, about: str) -> None:
    ts = battle.turn_state
    price = SG.cost(record)
    ts.cp[player] -= price
    ts.stratagems_used[player].append(record.name)
    if target is not None:
        ts.stratagem_targets[player].append(target)
    if record.once_per_battle:
        ts.once_per_battle[player].append(record.name)
    battle.emit(ev.STRATAGEM, player=PLAYER[player], stratagem=record.name, section=record.section,
                cp=price, cp_left=ts.cp[player], target=target, about=about)


def offer(battle, name: str, player: int, target: str | None, *, window: str = SG.AFTER_ROLL,
          roll: str | None = None, roll_failed: bool = False, battle_shocked: bool = False,
          about: str = ""):
    """Offer stratagem ``name`` to ``player`` for ``target`` now (a generator; returns True if
    it is used and paid for). Nothing is asked when the rules do not allow it (free play has
    no CP: never)."""
    ts = battle.turn_state
    if ts is None:
        return False
    record = SG.by_name(name)
    ctx = _context(battle, record, player, target, window=window, roll=roll, battle_shocked=battle_shocked)
    if SG.refusal(record, **ctx) is not None:
        return False
    rest = {k: v for k, v in ctx.items() if k != "roll"}
    default = USE if SG.default_policy_uses(record, roll=roll, roll_failed=roll_failed, **rest) else DECLINE
    req = DecisionRequest("stratagem", f"{name}: {target} {about}".strip(), player, [USE, DECLINE], default,
                          prompt=f"use {name} ({record.section}, {SG.cost(record)} CP) on {target}: {about}?",
                          context={"stratagem": name, "target": target})
    answer = yield from ask(battle, req)
    if answer != USE:
        return False
    _pay(battle, record, player, target, about)
    return True


def counteroffensive(battle, player: int, after_unit: int):
    """15.12 Right after an enemy unit has resolved its attacks in the Fight step: ``player``
    may pick one of their units eligible to fight; it gains Fights First for the phase and
    must be their next pick. Returns the unit entity chosen, or None (a generator)."""
    ts = battle.turn_state
    record = SG.by_name("Counteroffensive")
    units = [u for u in fight_eligible(battle, player)]
    options = []
    for u in units:
        uid = esper.component_for_entity(u, Unit).id
        ctx = _context(battle, record, player, uid, window=SG.AFTER_ENEMY_ATTACKS,
                       battle_shocked=W.unit_state(u).battle_shocked)
        if SG.refusal(record, **ctx) is None:
            options.append(uid)
    if not options:
        return None
    enemy = esper.component_for_entity(after_unit, Unit).id
    req = DecisionRequest("stratagem", f"Counteroffensive: after {enemy}", player, options + [DECLINE], DECLINE,
                          prompt=f"use Counteroffensive (15.12, {SG.cost(record)} CP) on one of {', '.join(options)}?",
                          context={"stratagem": "Counteroffensive", "use": options[0]})
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return None
    u = battle.units[answer]
    W.unit_state(u).counteroffensive = True
    battle.changes.touched(u)
    _pay(battle, record, player, answer, f"after {enemy} fought")
    ts.chooser = player
    return u


LEAP, FRAY = "Leap to Defend", "Into the Fray"


def heroic_intervention(battle, player: int):
    """15.11 At the end of the opponent's Charge phase ``player`` may have one unengaged unit
    within 12" of an enemy unit (a VEHICLE only if CHARACTER or WALKER) charge: Leap to Defend
    (1 CP) at units that charged this phase, or Into the Fray (2 CP) at any enemy unit within
    6", the roll capped at 6. The answer names the unit and the mode ("unit: mode"); the charge
    roll, its targets (within 12" and the roll, 11.04; sim.rules.charge) and the solver's
    placement (Part A ruling 17) follow, on the ground or, when no ground charge is found and the
    unit has FLY, taking to the skies (21.03: 2" less unless Hover, as the default player's
    charge); a charge that cannot be made moves nothing. A generator."""
    from sim.plan import moves as MV
    from sim.rules import charge as CHG
    from sim.rules.movement.solvers import charge as CH
    ts = battle.turn_state
    record = SG.by_name("Heroic Intervention")
    options = []
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or W.unit_destroyed(u) or W.unit_engaged(u):
            continue
        if not CHG.may_declare(MV.unit_gap(u, W.enemy_units(u))):
            continue
        facts = ("unengaged", "within 12 inches of an enemy unit")
        for mode, extra in ((LEAP, False), (FRAY, True)):
            ctx = _context(battle, record, player, unit.id, window=SG.END_OF_PHASE,
                           battle_shocked=W.unit_state(u).battle_shocked)
            ctx.update(extra=extra, target_facts=facts, target_keywords=W.unit_keywords(u))
            if SG.refusal(record, **ctx) is None:
                options.append(f"{unit.id}: {mode}")
    if not options:
        return
    req = DecisionRequest("stratagem", "Heroic Intervention", player, options + [DECLINE], DECLINE,
                          prompt="use Heroic Intervention (15.11): which unit charges, and how?",
                          context={"stratagem": "Heroic Intervention", "use": options[0]})
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return
    uid, mode = answer.split(": ", 1)
    u = battle.units[uid]
    ts.cp[player] -= SG.cost(record, extra=mode == FRAY) - SG.cost(record)  # (the +1 CP section)
    _pay(battle, record, player, uid, mode)
    st = W.unit_state(u)
    battle.changes.touched(u)
    roll = sum(battle.dice.d6(2, f"charge roll {uid} (Heroic Intervention)"))
    if mode == FRAY:
        roll = CHG.into_the_fray_roll(roll)
    cap = CHG.CHARGE_RANGE if mode == LEAP else CHG.INTO_THE_FRAY_RANGE
    sol, targets = None, []
    for sky in (False, True) if MV.can_fly(u) else (False,):  # (21.03 on the ground first)
        reach = MV.charge_reach(u, roll, sky, cap)
        gaps = {}
        for e in W.enemy_units(u):
            gap = MV.unit_gap(u, [e])
            if CHG.in_reach(gap, reach) and (mode == FRAY or W.unit_state(e).charged):
                gaps[esper.component_for_entity(e, Unit).id] = gap
        if not gaps:
            continue
        targets = sorted(gaps, key=lambda t: (gaps[t], t))[:1]  # (Part A ruling 17: the closest)
        sol = CH.solve_charge(uid, targets, MV.charge_limit(u, roll, sky), MV.bodies(), battle.scenario.terrain,
                              battle.scenario.board, **MV.path_rules(u, sky))
        if sol:
            break
    if not sol:
        battle.emit(ev.CHARGE, unit=uid, roll=roll, targets=[], result="not made", note=f"Heroic Intervention ({mode})")
        return
    from sim.systems.placing import apply_positions
    final = apply_positions(battle, u, [(mid, float(p[-1][0]), float(p[-1][1])) for mid, p in sorted(sol.paths.items())])
    st.charged = True  # 11.04: Fights First until the end of the turn, 'made a charge move'
    battle.emit(ev.CHARGE, unit=uid, roll=roll, targets=list(targets), result="made", to=final,
                note=f"Heroic Intervention ({mode})", **({"fly": True} if sky else {}))  # (21.03)
