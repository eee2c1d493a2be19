"""Psychic rituals at the start of the Shooting phase (a rule's RITUAL grants: Cabal of
Sorcerers): each unit of the active player a RITUAL grant acts on (in unit order) is asked which
ritual its caster attempts, at which unit, and whether the third die is rolled (a
``rule_choice`` decision, "none" or "<ritual key> at <unit id>[ +D6]": scripts, the default and
random players and the sandbox answer it); then the Psychic test is rolled, perils suffered, and
a manifested ritual's mortal wounds inflicted at once and its lasting grants put in force until
the end of the phase (a ``rule_choices`` entry by "<player>:<ritual key>": {"value": its target,
"round", "player", "result": the test's total, "ritual": its key}; sim.world.rule_effects reads
it). Each attempt is logged as a ``psychic test`` event, perils and mortal wounds as ``rule
effect`` events, the ritual's end as a ``rule choice`` event (null). The test, the options, the
default and what goes off at once are sim.rules.effects.rituals (pure)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import DecisionRequest, ask
from sim.rules.effects import rituals as RT
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.rules.geometry import within_distance
from sim.rules.turn import PLAYER
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE

KIND = "rule_choice"


def _caster(u: int, acts) -> int | None:
    """The model that attempts the unit's ritual: the first living bearer of the rule (a rule its
    models carry), else its first living PSYKER model, else its first living model."""
    models = W.unit_models(u)
    for a in acts:
        if a.held.bearers and a.holder == u:
            for m in models:
                if W.model_id(m) in a.held.bearers:
                    return m
    return next((m for m in models if "PSYKER" in W.model_keywords(m)), models[0] if models else None)


def _targets(battle, caster: int, rec: V.RuleRecord, rng: float) -> list[tuple[str, float]]:
    """(unit id, distance) of each enemy unit on the battlefield within ``rng``" of the caster and
    visible to it, in unit order; a ritual that inflicts mortal wounds at once (as a shot would)
    not at a Lone Operative beyond its range (24.24)."""
    owner = esper.component_for_entity(W.unit_of(caster), Unit).owner
    strikes = any(g.what.trigger == V.ON_MANIFEST for g in rec.grants)
    cid = W.model_id(caster)
    vis = battle.visibility
    out = []
    for t in W.all_units():
        if esper.component_for_entity(t, Unit).owner == owner or W.off_table(t) or W.unit_destroyed(t):
            continue
        models = W.unit_models(t)
        if not models:
            continue
        d = W.nearest_distance(caster, models)
        if not within_distance(d, rng):
            continue
        if not any(vis.model_visible(cid, W.model_id(m)) for m in models):
            continue
        if strikes and vis.lone_operative_beyond(cid, t):
            continue
        out.append((esper.component_for_entity(t, Unit).id, d))
    return out


def start_of_shooting(battle):
    """At the start of the active player's Shooting phase (a generator): each unit a RITUAL
    grant acts on may attempt one ritual its army has not attempted this turn (module
    docstring)."""
    if not RE.any_rules():
        return
    ts = battle.turn_state
    p = ts.active
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != p or W.off_table(u) or W.unit_destroyed(u):
            continue
        acts = RE.acting(battle, u, (V.RITUAL,))
        if not acts:
            continue
        rule = acts[0].held.record
        tried = RE.limit_key(battle, p, rule.key, V.ONCE_PER_TURN, unit.id)
        caster = _caster(u, acts)
        if caster is None or R.current.rule_uses.get(tried):
            continue
        left = _rituals_left(battle, p, caster, acts)
        opts = RT.options([(r.key, [t for t, _d in targets]) for r, _w, targets in left])
        if len(opts) == 1:
            continue
        default = RT.default_answer([(r.key, w, targets) for r, w, targets in left])
        req = DecisionRequest(KIND, f"{PLAYER[p]}:{rule.key}@{unit.id} ritual round {ts.round}", p, opts, default,
                              prompt=f"{rule.name} ({unit.name}): attempt a ritual with {W.model_id(caster)}?",
                              context={"rule": rule.key, "choice": "ritual", "unit": unit.id})
        answer = yield from ask(battle, req)
        picked = RT.parse(answer)
        if picked is None:
            continue
        key, target, extra = picked
        rec, warp = next((r, w) for r, w, _t in left if r.key == key)
        res = R.current
        res.rule_uses[tried] = 1
        once = RE.limit_key(battle, p, key, V.ONCE_PER_TURN)
        res.rule_uses[once] = res.rule_uses.get(once, 0) + 1
        yield from _attempt(battle, u, caster, rule, rec, warp, target, extra)


def _rituals_left(battle, p: int, caster: int, acts) -> list[tuple[V.RuleRecord, int, list]]:
    """(ritual record, Warp Charge, [(target id, distance)]) of each ritual the unit's RITUAL
    grants open that its army has not attempted this turn, in the rules' order (once each)."""
    out, seen = [], set()
    for a in acts:
        e = a.grant.what
        rec = table.by_key(e.ability)
        if rec is None or rec.key in seen:
            continue
        seen.add(rec.key)
        if R.current.rule_uses.get(RE.limit_key(battle, p, rec.key, V.ONCE_PER_TURN)):
            continue
        out.append((rec, e.roll, _targets(battle, caster, rec, float(e.value))))
    return out


def _attempt(battle, u: int, caster: int, rule: V.RuleRecord, rec: V.RuleRecord, warp: int, target: str,
             extra: bool):
    """The Psychic test of one ritual and what follows (a generator: casualties are removed)."""
    ts = battle.turn_state
    uid, cid = esper.component_for_entity(u, Unit).id, W.model_id(caster)
    dice = list(battle.dice.d6(2, f"psychic test {cid} ({rec.name})"))
    if extra:
        dice += battle.dice.d6(1, f"psychic test {cid} ({rec.name}, extra die)")
    total, perils = RT.psychic_test(dice)
    if perils:  # (the perils first: whether the caster survives them decides the test)
        n = RT.PERILS.roll(battle.dice, f"perils {uid} ({rec.name})")
        battle.emit(ev.RULE_EFFECT, rule=rule.name, unit=uid,
                    effect=f"suffers {n} mortal wound{'s' if n != 1 else ''} (perils: {dice})")
        suffer_mortal_wounds(battle, u, n, source=f"{rule.name} perils", by=uid)
    done = RT.manifested(total, warp, W.alive(caster))
    battle.emit(ev.PSYCHIC_TEST, rule=rule.name, ritual=rec.name, unit=uid, model=cid, target=target,
                dice=dice, total=total, needed=warp, perils=perils, manifested=done)
    if W.casualties():
        yield from remove_casualties(battle)
    if not done:
        return
    t = battle.units[target]
    for e in RT.at_once(rec, total):
        if W.unit_destroyed(t):
            break
        k = e.dice.roll(battle.dice, f"{rec.name} mortal wounds ({uid} at {target})")
        battle.emit(ev.RULE_EFFECT, rule=rec.name, unit=uid, target=target,
                    effect=f"inflicts {k} mortal wound{'s' if k != 1 else ''} on {target}")
        if k > 0:
            suffer_mortal_wounds(battle, t, k, source=rec.name, by=uid)
    if W.casualties():
        yield from remove_casualties(battle)
    if RT.lasting(rec):
        ck = RE.choice_key(ts.active, rec.key)
        R.current.rule_choices[ck] = {"value": target, "round": ts.round, "player": ts.active, "result": total,
                                      "ritual": rec.key}
        battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[ts.active], value=target, unit=uid)


def end_of_phase(battle) -> None:
    """The rituals in force end with the phase they were manifested in (each logged as a ``rule
    choice`` event, null)."""
    if not RE.any_rules():
        return
    res = R.current
    for ck in [k for k, c in res.rule_choices.items() if "ritual" in c]:
        c = res.rule_choices.pop(ck)
        rec = table.by_key(c["ritual"])
        battle.emit(ev.RULE_CHOICE, rule=rec.name if rec else c["ritual"], player=PLAYER[c["player"]], value=None)
