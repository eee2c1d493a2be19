"""The tactician's Command Re-roll (15.02): for each die offered, the expected points a re-roll
gains (the chance a new face does better, times what that result is worth given the chances of
the rest of the attack sequence), the best die taken when that gain pays for the CP
(decisions_value.cp_price). A failed charge roll is re-rolled when a new 2D6 would likely make
it; a passed roll, an advance roll, a die that cannot do better are never re-rolled."""

from __future__ import annotations

import math

import esper

from sim.components import Stats, Wounds
from sim.plan import moves as MV
from sim.rules.charge import CHARGE_RANGE
from sim.rules.command_reroll import option_words
from sim.stratagems.command_reroll import NAME as COMMAND_REROLL
from sim.rules.attack import CRITICAL, SUCCESS, AttackKind
from sim.rules.mortal import hazard_mortal_wounds
from sim.rules.sequence import hit_faces, save_faces
from sim.players.tactician.decisions_attacks import melee_value
from sim.players.tactician.decisions_value import (cp_price, damage_value, first_target_model, hit_chances,
                                                   hit_roll_value, model_value, two_d6_at_least, unit_name,
                                                   value_per_wound, wound_faces_of, wound_roll_value, mean)
from sim.world import queries as W

DECLINE, USE = "decline", "use"
CHARGE_BASE = 40.0  # a charge made, in points, beyond its fight's expected damage (the enemy tied up,
# an objective contested, the Fights First it gives)
CHARGE_MAX = 150.0  # at most, in points
MIN_CHARGE_CHANCE = 0.25  # below this chance a re-rolled charge is not worth asking for


def _face(option: str) -> int:
    return int(option.rsplit(":", 1)[1])


def _pool(battle, req):
    act = battle.activation
    if act is None or req.context.get("pool") is None:
        return None, None
    i = req.context["pool"]
    if not 0 <= i < len(act.pools):
        return None, None
    return act.pools[i], act.kind is AttackKind.FIGHTING


def _face_gains(values: list[float], face: int) -> float:
    """The expected gain of rolling again a die showing ``face``: the mean of the six faces'
    values (1..6; index 0 unused) less the value of the face it shows."""
    return sum(values[1:]) / 6 - values[face]


def die_gains(battle, req) -> dict[str, float]:
    """Each die offered -> the expected points a re-roll of it gains (negative: it loses)."""
    roll = req.context.get("roll")
    dice = req.context.get("dice") or {}
    if roll == "hazard":
        u = battle.units[req.context["target"]]
        m = first_target_model(u)
        if m is None:
            return {}
        mw = hazard_mortal_wounds(1, W.every_model_monster_or_vehicle(u))
        v = min(mw, esper.component_for_entity(m, Wounds).remaining) * value_per_wound(battle, m)
        return {o: 4 / 6 * v for o in dice}  # (a 1-2 fails: a new die passes on 3+)
    pool, melee = _pool(battle, req)
    if pool is None or pool.state is None:
        return {}
    p, target = pool.state, pool.spec.target
    out: dict[str, float] = {}
    if roll == "hit":
        one, crit = hit_roll_value(battle, p, target, melee)
        faces = hit_faces(p.skill, p.hit_mod, p.hit_fail_below, p.snap)
        vals = [0.0] + [crit if f == CRITICAL else one if f == SUCCESS else 0.0 for f in faces[1:]]
        out = {o: _face_gains(vals, _face(o)) for o in dice}
    elif roll == "wound":
        one, crit = wound_roll_value(battle, p, target, melee)
        faces = wound_faces_of(p)
        vals = [0.0] + [crit if f == CRITICAL else one if f == SUCCESS else 0.0 for f in faces[1:]]
        out = {o: _face_gains(vals, _face(o)) for o in dice}
    elif roll == "save":  # the defender's: a failed save re-rolled, at the model it is allocated to
        out = _save_gains(battle, pool, melee, dice)
    elif roll == "attacks":
        one, crit = hit_roll_value(battle, p, target, melee)
        h, c = hit_chances(p)
        per_attack = h * one + c * crit
        sides = _attack_sides(pool)
        out = {o: ((sides + 1) / 2 - _face(o)) * per_attack for o in dice}
    elif roll == "damage":
        out = _damage_gains(battle, pool, dice)
    return out


def _attack_sides(pool) -> int:
    got = pool.held.attack_dice if pool.held is not None else None
    if got:
        return max(e.sides for e, _v, _p in got)
    return 6


def _save_gains(battle, pool, melee: bool, dice: dict) -> dict[str, float]:
    p = pool.state
    order = pool.order or ()
    models = [m for m in (battle.models.get(k) for k in order) if m is not None and W.alive(m)]
    m = models[0] if models else first_target_model(pool.spec.target)
    if m is None:
        return {}
    st = esper.component_for_entity(m, Stats)
    insv = st.InSv
    if insv is not None and st.InSv_against and st.InSv_against != ("melee" if melee else "ranged"):
        insv = None
    faces = save_faces(p.AP, st.Sv, insv, 0)
    p_save = sum(1 for f in faces[1:] if not f[0]) / 6
    v = damage_value(battle, m, mean(p.D))
    return {o: p_save * v for o in dice}


def _damage_gains(battle, pool, dice: dict) -> dict[str, float]:
    q = pool.held.asking if pool.held is not None else None
    if q is None:
        return {}
    m = battle.models.get(q.model)
    if m is None:
        return {}
    total = sum(q.dice)
    out = {}
    for o, i in dice.items():
        old = q.dice[i]
        rest = total - old
        need = q.remaining - rest  # the face that would destroy the model
        p_kill = sum(1 for f in range(1, q.D.sides + 1) if f >= need) / q.D.sides if q.D.sides else 0.0
        gain_w = sum(max(0, min(f + rest, q.remaining) - min(total, q.remaining))
                     for f in range(1, q.D.sides + 1)) / max(1, q.D.sides)
        out[o] = p_kill * model_value(battle, m) * 0.5 + gain_w * value_per_wound(battle, m) * 0.5
    return out


def charge_gain(battle, req) -> tuple[float, float, int | None]:
    """A failed charge roll: (the chance a new roll reaches the nearest enemy unit, the points
    that is expected to gain, the distance needed); a roll that reaches: (0, 0, need)."""
    u = battle.units.get(req.context.get("target"))
    if u is None:
        return 0.0, 0.0, None
    st = W.unit_state(u)
    gap = MV.unit_gap(u, W.enemy_units(u))
    if gap is None or st.charge_roll is None:
        return 0.0, 0.0, None
    need = max(2, math.ceil(gap - 1e-9))
    if st.charge_roll >= need:
        return 0.0, 0.0, need
    p = two_d6_at_least(need)
    fights = [melee_value(battle, u, e) for e in W.enemy_units(u)
              if (g := MV.unit_gap(u, [e])) is not None and g <= CHARGE_RANGE]
    worth = min(CHARGE_MAX, CHARGE_BASE + max(fights, default=0.0))
    return p, p * worth, need


def answer(player, battle, req):
    """The Command Re-roll offer answered: the die (or whole roll) with the largest expected gain
    when it pays for the CP; else decline."""
    roll = req.context.get("roll")
    price = cp_price(battle, req.player, 1)
    target = req.context.get("target", "")
    name = unit_name(battle, target)
    if roll in ("charge", "advance"):
        if roll == "advance" or USE not in req.options:
            return _say(player, f"{COMMAND_REROLL}: {name}'s {roll} roll", DECLINE, [], price)
        p, gain, need = charge_gain(battle, req)
        use = p >= MIN_CHARGE_CHANCE and gain >= price
        chosen = USE if use else DECLINE
        return _say(player, f"{COMMAND_REROLL}: {name}'s charge roll (needs {need})", chosen,
                    [(f"re-roll ({p:.0%} to make it)", gain)], price)
    gains = die_gains(battle, req)
    if not gains:
        return DECLINE
    best = max(gains, key=lambda o: (gains[o], -list(gains).index(o)))
    chosen = best if gains[best] >= price else DECLINE
    return _say(player, f"{COMMAND_REROLL}: {name}'s {roll} roll", chosen,
                sorted(((f"re-roll {option_words(o)}", g) for o, g in gains.items()), key=lambda x: -x[1]), price)


def _say(player, what: str, chosen, options, price: float):
    if player.explaining:
        from sim.players.base import Weighed
        ws = [Weighed(label, value, "pts") for label, value in options[:2]]
        ws.append(Weighed("the CP's price now", price if price != math.inf else -1.0, "pts"))
        player.explain(what, option_words(str(chosen)), ws)  # (dice counted from 1, as people read them)
    return chosen
