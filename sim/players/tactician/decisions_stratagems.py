"""The tactician's stratagems (15): each offer's options weighed in points and the best used when
its expected gain pays for its CP now (decisions_value.cp_price: the CP budget). Command Re-roll:
decisions_reroll. Anything not judged declines (Part A ruling 25's default)."""

from __future__ import annotations

import math

import esper

from sim.components import Character, Stats, Wounds
from sim.plan import moves as MV
from sim.players.tactician import decisions_reroll
from sim.players.tactician.decisions_attacks import melee_value, snap_value
from sim.players.tactician.decisions_value import (OBJECTIVE_POINTS, cp_price, model_name, model_value,
                                                   near_objective, two_d6_at_least, unit_name, unit_value,
                                                   value_per_wound)
from sim.rules.charge import INTO_THE_FRAY_RANGE
from sim.world import queries as W

DECLINE, USE = "decline", "use"
COUNTER_SHARE = 0.5  # Counteroffensive: the share of a unit's fight put at risk by waiting
SMOKE_SHARE = 0.2  # Smokescreen: the share of a shot-at unit's worth that cover saves
INGRESS_SHARE = 0.15  # Rapid Ingress: arriving half a turn early, as a share of the unit's worth
EXPLOSIVES_MW = 3.0  # 15.05 six D6, each 4+: three mortal wounds on average
SHOT_AT = 24.0  # Smokescreen: an enemy unit this near is taken to shoot at the unit


def mortal_value(battle, u: int, n: float) -> float:
    """What ``n`` mortal wounds on unit ``u`` are worth (06.02: spilling from model to model,
    non-CHARACTER models first, a wounded one before the others)."""
    def key(m):
        return (esper.has_component(m, Character),
                esper.component_for_entity(m, Wounds).remaining >= esper.component_for_entity(m, Stats).W)
    models = sorted(W.unit_models(u), key=key)
    out, left = 0.0, n
    for m in models:
        if left <= 0:
            break
        rem = esper.component_for_entity(m, Wounds).remaining
        if left >= rem:
            out += model_value(battle, m)
            left -= rem
        else:
            out += left * value_per_wound(battle, m)
            left = 0
    return out


def _pick(player, battle, req, values: dict[str, float], cost_of, words) -> str:
    """The option whose value most exceeds the price of its CP now (cost_of(option) CP; the
    first of equals, in the offer's order), if it exceeds it; else decline. Explained."""
    prices = {o: cp_price(battle, req.player, cost_of(o)) for o in values}
    order = list(values)
    best = max(order, key=lambda o: (values[o] - prices[o], -order.index(o))) if order else None
    chosen = best if best is not None and values[best] >= prices[best] else DECLINE
    if player.explaining:
        from sim.players.base import Weighed
        price = prices[best] if best is not None else math.inf
        ws = [Weighed(words(o), v, "pts") for o, v in sorted(values.items(), key=lambda x: -x[1])[:2]]
        ws.append(Weighed("the CP's price now", -1.0 if price == math.inf else price, "pts"))
        player.explain(req.context.get("stratagem", "stratagem"), DECLINE if chosen == DECLINE else words(chosen), ws)
    return chosen


def _pair_words(battle):
    def words(o: str) -> str:
        a, b = o.split(" -> ", 1)
        return f"{unit_name(battle, a)} at {unit_name(battle, b)}"
    return words


# --- each stratagem --------------------------------------------------------------------------------

def insane_bravery(player, battle, req) -> str:
    """15.04 once per battle: a unit whose battle-shock would cost an objective's control."""
    u = battle.units[req.context["target"]]
    ld = min(W.unit_leaderships(u) or [7])
    p_fail = 1.0 - two_d6_at_least(ld)
    held = near_objective(battle, u)
    v = p_fail * ((OBJECTIVE_POINTS if held else 0.0) + 0.1 * unit_value(battle, u))
    return _pick(player, battle, req, {USE: v}, lambda _o: 1, lambda o: f"{unit_name(battle, req.context['target'])} "
                 f"passes ({p_fail:.0%} to fail{', on an objective' if held else ''})" if o == USE else o)


def fire_overwatch(player, battle, req) -> str:
    from sim.plan.snap import snap_selections
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        a, b = o.split(" -> ", 1)
        key = ("overwatch", battle.turn_state.round, battle.turn_state.active, o)  # (this phase's)
        if key not in player.memo:
            u, e = battle.units[a], battle.units[b]
            player.memo[key] = snap_value(battle, u, e, snap_selections(battle, u, e))
        values[o] = player.memo[key]
    return _pick(player, battle, req, values, lambda _o: 1, _pair_words(battle))


def heroic_intervention(player, battle, req) -> str:
    """15.11 the unit and mode whose chance of reaching times its fight is worth the most."""
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        uid, mode = o.split(": ", 1)
        u = battle.units[uid]
        fray = mode != "Leap to Defend"
        best = 0.0
        for e in W.enemy_units(u):
            if not fray and not W.unit_state(e).charged:
                continue
            gap = MV.unit_gap(u, [e])
            if gap is None:
                continue
            need = max(1, math.ceil(gap - 1e-9))
            if fray and need > INTO_THE_FRAY_RANGE:
                continue
            p = two_d6_at_least(need)
            best = max(best, p * melee_value(battle, u, e))
        values[o] = best
    return _pick(player, battle, req, values, lambda o: 2 if "Into the Fray" in o else 1,
                 lambda o: f"{unit_name(battle, o.split(': ', 1)[0])}: {o.split(': ', 1)[1]}")


def counteroffensive(player, battle, req) -> str:
    """15.12 (2 CP) the unit whose fight is worth the most, fighting before it can be hit: only
    once the tactician's fight choices honour the pick it forces (TurnState.forced_pick; the
    ``attacks`` module says so with HONOURS_FORCED_PICK), else a refused command would end the
    battle."""
    from sim.players.tactician import attacks
    if not getattr(attacks, "HONOURS_FORCED_PICK", False):
        return DECLINE
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        u = battle.units[o]
        values[o] = COUNTER_SHARE * max((melee_value(battle, u, e) for e in W.engaged_with(u)), default=0.0)
    return _pick(player, battle, req, values, lambda _o: 2, lambda o: unit_name(battle, o))


def epic_challenge(player, battle, req) -> str:
    """15.03 a CHARACTER's attacks may go to an enemy CHARACTER: worth what they would take
    off it beyond what they would take off its bodyguards."""
    u = battle.units[req.context["target"]]
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        m = battle.models[o]
        best = 0.0
        for e in W.engaged_with(u):
            plain = melee_value(battle, u, e, models=[m])
            for c in W.unit_models(e):
                if esper.has_component(c, Character):
                    best = max(best, melee_value(battle, u, e, model=c, models=[m]) - plain)
        values[o] = best
    return _pick(player, battle, req, values, lambda _o: 1, lambda o: model_name(battle, o))


def explosives(player, battle, req) -> str:
    values = {}
    for o in req.options:
        if o != DECLINE:
            values[o] = mortal_value(battle, battle.units[o.split(" -> ", 1)[1]], EXPLOSIVES_MW)
    return _pick(player, battle, req, values, lambda _o: 1, _pair_words(battle))


def crushing_impact(player, battle, req) -> str:
    """15.06 one D6 per point of T: 5+ wounds the enemy, a 1 the unit itself (6 at most each)."""
    own = battle.units[req.context["target"]]
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        mid, eid = o.split(" -> ", 1)
        n = esper.component_for_entity(battle.models[mid], Stats).T
        values[o] = (mortal_value(battle, battle.units[eid], min(6.0, n / 3))
                     - mortal_value(battle, own, min(6.0, n / 6)))
    return _pick(player, battle, req, values, lambda _o: 1, lambda o: " at ".join(
        (model_name(battle, o.split(" -> ")[0]), unit_name(battle, o.split(" -> ")[1]))))


def smokescreen(player, battle, req) -> str:
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        u = battle.units[o]
        gap = MV.unit_gap(u, W.enemy_units(u))
        values[o] = SMOKE_SHARE * unit_value(battle, u) if gap is not None and gap <= SHOT_AT else 0.0
    return _pick(player, battle, req, values, lambda _o: 1, lambda o: unit_name(battle, o))


def rapid_ingress(player, battle, req) -> str:
    """15.07 half a turn early; the whole unit when this is its last chance to arrive (a unit
    still in reserves when the battle ends is lost)."""
    ts = battle.turn_state
    rounds = ts.mission.rounds if ts.mission is not None else 5
    last_chance = ts.round >= rounds and _went_first(battle, req.player)
    values = {}
    for o in req.options:
        if o == DECLINE:
            continue
        u = battle.units[o]
        values[o] = unit_value(battle, u) * (1.0 if last_chance else INGRESS_SHARE)
    return _pick(player, battle, req, values, lambda _o: 1, lambda o: unit_name(battle, o))


def _went_first(battle, player: int) -> bool:
    """Whether ``player`` goes first in each battle round (07.02): in the last round, the
    opponent's turn is then the last of the battle."""
    return battle.turn_state.first == player


def _judged() -> dict:
    """The stratagems the tactician judges, by the name their record gives them (sim.stratagems)."""
    from sim.stratagems import counteroffensive as s_co, crushing_impact as s_ci, epic_challenge as s_ec
    from sim.stratagems import explosives as s_ex, fire_overwatch as s_fo, heroic_intervention as s_hi
    from sim.stratagems import insane_bravery as s_ib, rapid_ingress as s_ri, smokescreen as s_sm
    return {s_ib.NAME: insane_bravery, s_fo.NAME: fire_overwatch, s_hi.NAME: heroic_intervention,
            s_co.NAME: counteroffensive, s_ec.NAME: epic_challenge, s_ex.NAME: explosives,
            s_ci.NAME: crushing_impact, s_sm.NAME: smokescreen, s_ri.NAME: rapid_ingress}


def answer(player, battle, req):
    name = req.context.get("stratagem")
    from sim.stratagems.command_reroll import NAME as COMMAND_REROLL
    if name == COMMAND_REROLL:
        return decisions_reroll.answer(player, battle, req)
    f = _judged().get(name)
    if f is None:
        return req.default
    return f(player, battle, req)
