"""Where the rules' dice economies meet the battle (pure rules: sim.rules.effects.dice_pool and
dice_options): the pools of dice an army's rule keeps (GAIN_DICE: Acts of Faith's Miracle dice)
are gained at the start of each battle round and when a unit holding the rule is destroyed; before
a roll for a unit that may substitute a pool's die for one of its dice (SUBSTITUTE), its player
is asked (a ``dice_pool`` decision: "use 6", ..., "decline"; at most once per phase for each
unit); and at the start of each battle round a DICE_OPTIONS rule's dice are rolled and its player
asked which options they activate (a ``rule_choice`` decision: "Warp Blades + Martial
Excellence", ..., "none"), kept in Resources.rule_choices for the round. Each gain, spend and
choice is logged (``dice pool``, ``rule choice`` events). In a battle where no unit holds a rule
every function returns at once."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import PENDING, DecisionRequest, ask
from sim.rules.effects import dice_options as DO
from sim.rules.effects import dice_pool as DP
from sim.rules.effects import vocabulary as V
from sim.rules.turn import PLAYER
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE

KIND = "dice_pool"


def _records(player: int, test) -> list[V.RuleRecord]:
    """The rules held by some unit of ``player`` not destroyed that ``test`` accepts, once each, in
    unit order."""
    out: dict[str, V.RuleRecord] = {}
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != player or W.unit_destroyed(u):
            continue
        for h in RE.held_by(u):
            if h.record.key not in out and test(h.record):
                out[h.record.key] = h.record
    return list(out.values())


def _gains(rec: V.RuleRecord, trigger: str) -> int:
    return sum(g.what.dice.k for g in rec.grants if g.what.kind == V.GAIN_DICE and g.what.trigger == trigger)


def _gain(battle, player: int, rec: V.RuleRecord, n: int, why: str, unit: str = "") -> None:
    pools = R.current.dice_pools
    key = RE.choice_key(player, rec.key)
    for value in battle.dice.d6(n, f"{rec.name} die ({PLAYER[player]})"):
        pool = pools.setdefault(key, [])
        pool.append(value)
        battle.emit(ev.DICE_POOL, rule=rec.name, player=PLAYER[player], gained=value, pool=list(pool),
                    effect=f"gains a die of {value} ({why})", **({"unit": unit} if unit else {}))


def round_start(battle):
    """At the start of a battle round (a generator): each army's pools gain their dice
    (AT_ROUND_START), then each DICE_OPTIONS rule's dice are rolled and its player asked which
    options to activate for the round (the first player's army first)."""
    if not RE.any_rules():
        return
    ts = battle.turn_state
    res = R.current
    for p in (ts.first, 1 - ts.first):
        for rec in _records(p, lambda r: _gains(r, V.AT_ROUND_START)):
            _gain(battle, p, rec, _gains(rec, V.AT_ROUND_START), f"battle round {ts.round}")
        for rec in _records(p, lambda r: r.choice is not None and r.choice.kind == V.DICE_OPTIONS):
            ch = rec.choice
            ck = RE.choice_key(p, rec.key)
            res.rule_choices.pop(ck, None)  # (last round's options end with it)
            rolled = sorted(battle.dice.d6(ch.dice, f"{rec.name} roll ({PLAYER[p]})"))
            opts = DO.answers(ch, rolled)
            answer = DO.NONE
            if len(opts) > 1:
                req = DecisionRequest("rule_choice", f"{ck} round {ts.round}", p, opts, DO.default_answer(ch, rolled, DO.acting_options(rec)),
                                      prompt=f"{rec.name}: {ch.prompt} (rolled {rolled})",
                                      context={"rule": rec.key, "choice": ch.kind, "dice": rolled,
                                               "moment": V.AT_ROUND_START, "turn": V.EITHER_TURN})
                answer = yield from ask(battle, req)
            value = DO.value_of(answer) if answer in opts else None
            if value is None:
                battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=False, dice=rolled)
                continue
            res.rule_choices[ck] = {"value": value, "round": ts.round, "player": p}
            res.rule_uses[ck] = res.rule_uses.get(ck, 0) + 1
            battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=value, dice=rolled)


def units_destroyed(battle, units) -> None:
    """Each unit of ``units`` (just destroyed, in order) holding a rule whose pool gains dice when
    a unit holding it is destroyed (ON_UNIT_DESTROYED) gains its army those dice."""
    if not RE.any_rules():
        return
    for u in units:
        owner = esper.component_for_entity(u, Unit).owner
        uid = esper.component_for_entity(u, Unit).id
        seen = set()
        for h in RE.held_by(u):
            n = _gains(h.record, V.ON_UNIT_DESTROYED)
            if n and h.record.key not in seen:
                seen.add(h.record.key)
                _gain(battle, owner, h.record, n, f"{uid} destroyed", uid)


def _offer(battle, u: int, stat: str, chance, about: str = ""):
    """The request offering a die of a pool for ``stat``'s roll for unit ``u``, with the rule
    it spends from, or None: no SUBSTITUTE of ``stat`` acts on the unit, its pool is empty, or
    the unit has used one this phase."""
    acts = [a for a in RE.acting(battle, u, (V.SUBSTITUTE,)) if a.grant.what.stat == stat]
    if not acts:
        return None
    unit = esper.component_for_entity(u, Unit)
    owner = esper.component_for_entity(acts[0].holder, Unit).owner
    res = R.current
    for a in acts:
        rec = a.held.record
        pool = res.dice_pools.get(RE.choice_key(owner, rec.key))
        if not pool or res.rule_uses.get(RE.limit_key(battle, owner, rec.key, V.ONCE_PER_PHASE, unit.id), 0):
            continue
        opts = DP.options(pool)
        req = DecisionRequest(KIND, f"{rec.key}: {unit.id} {stat}{about}", owner, opts, DP.default_answer(pool, chance),
                              prompt=f"{rec.name}: use a die of the pool {sorted(pool)} for {unit.id}'s {stat} roll?",
                              context={"rule": rec.key, "roll": stat, "unit": unit.id})
        return req, rec
    return None


def _spend(battle, req, rec, answer) -> int | None:
    value = DP.value_of(answer)
    if value is None or answer not in req.options:
        return None
    res = R.current
    owner, uid, stat = req.player, req.context["unit"], req.context["roll"]
    key = RE.choice_key(owner, rec.key)
    res.dice_pools[key] = DP.spend(res.dice_pools[key], value)
    lk = RE.limit_key(battle, owner, rec.key, V.ONCE_PER_PHASE, uid)
    res.rule_uses[lk] = res.rule_uses.get(lk, 0) + 1
    battle.emit(ev.DICE_POOL, rule=rec.name, player=PLAYER[owner], spent=value, unit=uid, roll=stat,
                pool=list(res.dice_pools[key]), effect=f"a die of {value} stands for one die of {uid}'s {stat} roll")
    return value


def substitute(battle, u: int, stat: str, chance, asked: bool = True):
    """Before ``stat``'s roll for unit ``u`` (a generator, for commands and the battle round):
    the value of the pool's die its player spends for one of the roll's dice, or None.
    ``chance``: the roll's chance of success with a die standing at a value (the default's
    answer, sim.rules.effects.dice_pool.default_answer); ``asked`` False takes the default
    without asking (a roll made where no decision can wait)."""
    if not RE.any_rules() or not any(R.current.dice_pools.values()):  # (no die to spend: nothing to ask)
        return None
    got = _offer(battle, u, stat, chance)
    if got is None:
        return None
    req, rec = got
    answer = (yield from ask(battle, req)) if asked else req.default
    return _spend(battle, req, rec, answer)


def substitute_now(battle, u: int, stat: str, chance, about: str = ""):
    """``substitute`` for a system that re-enters until the answer is in (the attack sequence's
    steps): PENDING while it waits, else the value spent or None."""
    if not any(R.current.dice_pools.values()):  # (no die to spend: nothing to ask)
        return None
    got = _offer(battle, u, stat, chance, about)
    if got is None:
        return None
    req, rec = got
    answer = battle.decide(req)
    if answer is PENDING:
        return PENDING
    return _spend(battle, req, rec, answer)


def dice_for(battle, value: int | None, purpose: str):
    """The dice a roll for ``purpose`` is made with: the battle's, with the pool's die of
    ``value`` standing for its first die when one was spent."""
    return battle.dice if value is None else DP.Substituted(battle.dice, value, purpose)
