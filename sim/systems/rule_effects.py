"""Where the effects of datasheet abilities, army rules and detachment rules that act outside
the attack sequence change the battle: the glue between the battle round and commands (which
call these) and the pure rules (sim.rules.effects.phase_rules, which decide); what they make of
a unit's characteristics is read by sim.world.rule_reads. Each asks
sim.world.rule_effects.acting which grants act on the unit now; in a battle where no unit holds
a rule every function returns at once (``any_rules``), so such a battle rolls the same dice and
emits the same events as before.

* MODIFY advance (09.06), charge (11.02), battle-shock (01.07): ``roll_modifier``;
* REROLL advance / charge / battle-shock: ``reroll`` (ANY: the player is asked, a
  ``rule_reroll`` decision; FAILED / ONES: automatic);
* MORTAL_WOUNDS on a trigger (06.02): ``trigger_mortal_wounds`` (the caller removes the
  casualties), ``destroyed_mortal_wounds`` (sim.systems.removal);
* RETURN (wounds regained, destroyed models returned, each set up by the pure placement rule):
  ``returns``.

Each effect that changes something is logged as a ``rule effect`` event naming the rule."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import ModelId, Stats, Unit, Wounds
from sim.decisions import DecisionRequest, ask
from sim.rules.effects import phase_rules as PR
from sim.rules.effects import vocabulary as V
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.world.rule_reads import modifying

REROLL, DECLINE = "reroll", "decline"


def _uid(u: int) -> str:
    return esper.component_for_entity(u, Unit).id


def _names(acts) -> str:
    return ", ".join(dict.fromkeys(a.held.record.name for a in acts))


def _spend(battle, acts) -> None:
    for a in acts:
        RE.use(battle, a)


def roll_modifier(battle, u: int, stat: str) -> int:
    """The modifier to an advance, charge or battle-shock roll for the unit now (MODIFY of that
    roll); logged when not 0 (a use of a limited grant is counted)."""
    if not RE.any_rules():
        return 0
    acts = modifying(battle, u, stat)
    if stat in V.IGNORED_STATS:  # (the penalties it ignores, logged)
        every = RE.acting(battle, u, (V.MODIFY,), stat=stat)
        skipped = [a for a in every if a not in acts]
        if skipped:
            by = RE.acting(battle, u, (V.IGNORE_MODIFIERS,), stat=stat)
            battle.emit(ev.RULE_EFFECT, rule=_names(by), unit=_uid(u), roll=stat,
                        effect=f"ignores {PR.modifier([a.grant.what for a in skipped], stat):+d} to its {stat} roll "
                               f"({_names(skipped)})")
    mod = PR.modifier([a.grant.what for a in acts], stat)
    if mod:
        _spend(battle, acts)
        battle.emit(ev.RULE_EFFECT, rule=_names(acts), unit=_uid(u), roll=stat,
                    effect=f"{'+' if mod > 0 else ''}{mod} to its {stat} roll")
    return mod


def reroll(battle, u: int, stat: str, dice: list, failed: bool, asked: bool = True, others=()):
    """01.05.02 A rule's re-roll of an advance, charge or battle-shock roll just made (a
    generator; returns the new dice, or None when nothing was re-rolled). ANY: the unit's player
    is asked (a ``rule_reroll`` decision, "reroll" or "decline"; the default:
    sim.rules.effects.phase_rules.default_reroll); ``asked`` False takes the default without
    asking (a roll made where no decision can wait). FAILED and ONES re-roll automatically.
    Each die re-rolled once at most: the caller offers no Command Re-roll of a roll re-rolled.
    ``others``: the enemy units the roll is about (a charge's possible targets): a grant whose
    conditions read the other unit (its keywords) acts if they hold for any of them."""
    if not RE.any_rules():
        return None
    acts = [a for a in RE.acting(battle, u, (V.REROLL,)) if a.grant.what.stat == stat]
    for o in others:
        acts += [a for a in RE.acting(battle, u, (V.REROLL,), other=o) if a.grant.what.stat == stat and a not in acts]
    which = PR.reroll_which([a.grant.what for a in acts], stat)
    if which is None:
        return None
    act = next(a for a in acts if a.grant.what.which == which)
    name, uid = act.held.record.name, _uid(u)
    if which == V.ANY:
        default = REROLL if PR.default_reroll(stat, dice, failed) else DECLINE
        if asked:
            owner = esper.component_for_entity(u, Unit).owner
            req = DecisionRequest("rule_reroll", f"{act.held.record.key}: {uid} {stat}", owner, [REROLL, DECLINE],
                                  default, prompt=f"{name}: re-roll {uid}'s {stat} roll {list(dice)}?",
                                  context={"rule": act.held.record.key, "roll": stat, "unit": uid})
            answer = yield from ask(battle, req)
        else:
            answer = default
        idx = list(range(len(dice))) if answer == REROLL else None
    else:
        idx = PR.automatic_reroll(which, dice, failed)
    if not idx:
        return None
    new = list(dice)
    fresh = battle.dice.d6(len(idx), f"{stat} roll {uid} ({name} re-roll)")
    for i, d in zip(idx, fresh):
        new[i] = d
    RE.use(battle, act)
    battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, roll=stat, dice=list(dice), to=new,
                effect=f"re-rolls its {stat} roll: {list(dice)} -> {new}")
    return new


def charge_targets(u: int) -> list[int]:
    """ON_CHARGE's targets: each enemy unit within engagement range of the unit after its charge
    move."""
    return W.engaged_with(u)


def fight_target(u: int) -> list[int]:
    """ON_SELECTED_FIGHT's target: one engaged enemy unit (the first in unit order)."""
    return W.engaged_with(u)[:1]


def trigger_mortal_wounds(battle, u: int, trigger: str, targets: list[int], model: str = "") -> bool:
    """06.02 The MORTAL_WOUNDS effects on ``trigger`` acting on unit ``u`` (V.ON_CHARGE: each
    enemy unit within engagement range after its charge move; V.ON_SELECTED_FIGHT: one engaged
    enemy unit; V.ON_DESTROYED: the unit that destroyed the bearer, ``model``): for each target
    a D6 on the effect's ``roll`` or more (none when 0), then its ``dice`` mortal wounds. The
    caller removes the casualties. Returns whether any were inflicted."""
    if not RE.any_rules() or not targets:
        return False
    acts = [a for a in RE.acting(battle, u, (V.MORTAL_WOUNDS,), model=model) if a.grant.what.trigger == trigger]
    done = False
    uid = _uid(u)
    for a in acts:
        e, name = a.grant.what, a.held.record.name
        RE.use(battle, a)
        for t in targets:
            if W.unit_destroyed(t):
                continue
            tid = _uid(t)
            die = battle.dice.d6(1, f"{name} ({uid} at {tid})")[0] if e.roll > 0 else None
            if not PR.triggered_mortal_wounds(e.roll, die):
                battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, target=tid,
                            effect=f"rolls {die} against {tid}: no mortal wounds (needs {e.roll}+)")
                continue
            n = e.dice.roll(battle.dice, f"{name} mortal wounds ({uid} at {tid})")
            battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, target=tid,
                        effect=f"inflicts {n} mortal wound{'s' if n != 1 else ''} on {tid}"
                               + ("" if die is None else f" (rolled {die})"))
            if n > 0:
                suffer_mortal_wounds(battle, t, n, source=name, by=uid)
                done = True
    return done


def destroyed_mortal_wounds(battle, model_ent: int, by: str, fired: set) -> bool:
    """When a model is destroyed: ON_DESTROYED mortal wounds on the unit that destroyed it
    (``by``: the Destroyed record's unit or model id; nothing when no unit did). A BEARER or a
    bearer-held grant goes off for its bearer; a grant the unit holds as a whole when its last
    model is destroyed (``fired``: the units whose whole-unit grant went off already, kept by the
    caller). Returns whether any were inflicted (the caller removes casualties)."""
    if not RE.any_rules():
        return False
    u = W.unit_of(model_ent)
    killer = battle.units.get(by)
    if killer is None and by in battle.models:
        killer = W.unit_of(battle.models[by])
    if killer is None or killer == u:
        return False
    mid = esper.component_for_entity(model_ent, ModelId).id
    acts = [a for a in RE.reaching(u) if a.grant.what.kind == V.MORTAL_WOUNDS
            and a.grant.what.trigger == V.ON_DESTROYED and a.holder == u]
    whole = not W.alive_models(u) and u not in fired  # (a rule of the whole unit: once, its last model)
    fire = any((mid in a.held.bearers) if a.held.bearers else whole for a in acts)
    if not fire:
        return False
    if whole:
        fired.add(u)
    return trigger_mortal_wounds(battle, u, V.ON_DESTROYED, [killer], model=mid)


def returns(battle, moment: str) -> None:
    """The RETURN effects due at ``moment`` (V.AT_COMMAND: in the unit's own Command phase;
    V.AT_END_OF_PHASE: at the end of a phase, the grant's When.phases naming which), for every
    unit on the battlefield in unit order: WOUNDS, ``dice`` wounds regained, healing wounded
    models first, then returning destroyed models with 1 wound (sim.rules.effects.phase_rules
    .regain); MODELS, ``dice`` destroyed models returned with every wound. Each is set up by
    ``place_returned`` (none fits: it stays destroyed, and the wounds meant for it are lost)."""
    if not RE.any_rules():
        return
    ts = battle.turn_state
    for u in W.all_units():
        if W.off_table(u) or W.unit_destroyed(u):
            continue
        if moment == V.AT_COMMAND and ts is not None and esper.component_for_entity(u, Unit).owner != ts.active:
            continue
        if not any(a.grant.what.trigger == moment for a in RE.reaching(u, (V.RETURN,))):
            continue  # (none due now reaches it: no conditions read, as acting's answer would be filtered to none)
        for a in RE.acting(battle, u, (V.RETURN,)):
            e = a.grant.what
            if e.trigger != moment:
                continue
            RE.use(battle, a)
            _return(battle, u, a, e)


def _return(battle, u: int, a, e) -> None:
    name, uid = a.held.record.name, _uid(u)
    n = e.dice.roll(battle.dice, f"{name} ({uid})")
    every = W.unit_models(u, living=False)
    wounded = [(W.model_id(m), esper.component_for_entity(m, Wounds).remaining, esper.component_for_entity(m, Stats).W)
               for m in every if W.alive(m)]
    dead = [(W.model_id(m), esper.component_for_entity(m, Stats).W) for m in every
            if not W.alive(m) and not W.on_table(m)]
    if e.which == V.WOUNDS:
        gains, back = PR.regain(n, wounded, dead)
    elif e.which == V.ONE_MODEL:  # one wounded model, no returns
        gains, back = PR.regain_one(n, wounded), []
    else:  # (MODELS: whole models back, each with every wound)
        gains, back = {}, [mid for mid, _w in dead][:n]
    placed = []
    for mid in back:
        m = battle.models[mid]
        spot = _place(battle, u, m)
        if spot is None:  # (no room: it stays destroyed, and the wounds meant for it are lost)
            gains.pop(mid, None)
            continue
        M.return_model(m, spot[0], spot[1], 1 if e.which == V.WOUNDS else esper.component_for_entity(m, Stats).W)
        placed.append(mid)
        if mid in gains:
            gains[mid] -= 1  # (its first wound is its return)
    for mid, g in gains.items():
        if g > 0:
            esper.component_for_entity(battle.models[mid], Wounds).remaining += g
    healed = {mid: g for mid, g in gains.items() if g > 0}
    battle.changes.touched(u)
    if placed:
        battle.changes.moved([battle.models[mid] for mid in placed])
    battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, healed=healed, returned=placed,
                effect=f"regains {n} {'wound' if e.which == V.WOUNDS else 'model'}{'s' if n != 1 else ''}: "
                       + (", ".join(f"{k} +{v}" for k, v in healed.items()) or "no wound healed")
                       + (f"; {', '.join(placed)} returned" if placed else ""))


def _place(battle, u: int, m: int):
    """Where a returned model is set up (sim.rules.effects.phase_rules.place_returned)."""
    fps = W.spatial().fps
    mine = [W.footprint(x) for x in W.unit_models(u)]
    owner = esper.component_for_entity(u, Unit).owner
    others, enemies = [], []
    for v in W.all_units():
        if W.off_table(v):
            continue
        theirs = esper.component_for_entity(v, Unit).owner != owner
        for x in W.unit_models(v):
            fp = fps[W.model_row(x)]
            others.append(fp)
            if theirs:
                enemies.append(fp)
    return PR.place_returned(W.footprint(m), mine, others, enemies, battle.scenario.board)


def after_battle_shock(battle, u: int, passed: bool) -> bool:
    """01.07 Just after the unit's battle-shock test: passed, the RETURN effects of the moment
    V.AT_PASSED_SHOCK acting on it (as ``returns`` applies them); failed, the MORTAL_WOUNDS
    effects of the trigger V.ON_FAILED_SHOCK acting on it, to the unit itself (06.02). Returns
    whether mortal wounds were inflicted (the caller removes the casualties)."""
    if not RE.any_rules() or W.unit_destroyed(u):
        return False
    if not passed:
        return trigger_mortal_wounds(battle, u, V.ON_FAILED_SHOCK, [u])
    for a in RE.acting(battle, u, (V.RETURN,)):
        if a.grant.what.trigger == V.AT_PASSED_SHOCK:
            RE.use(battle, a)
            _return(battle, u, a, a.grant.what)
    return False


def spend_stratagem_cost(battle, name: str, target: str | None) -> None:
    """15.01 A stratagem ``name`` was paid for on unit ``target`` (its id): a use is counted of
    each limited STRATAGEM_COST grant that changed its cost (When.limit: once per battle, turn
    or phase), so it changes no further cost within its limit."""
    if target is None or not RE.any_rules():
        return
    u = battle.units.get(target)
    if u is None:
        return
    for a in RE.acting(battle, u, (V.STRATAGEM_COST,)):
        if a.grant.when.limit and PR.stratagem_cost_modifier([a.grant.what], name):
            RE.use(battle, a)


# units a rule moves into reserves, and destroyed units it brings back --------------

def picked(battle, player: int, rec: V.RuleRecord, units: list[str]) -> None:
    """The effects that act when a PICK_FRIENDS choice of ``rec`` picked ``units``: TO_RESERVES
    (20.02), each unit picked whose grant acts on it is removed from the battlefield into
    strategic reserves, in the order picked (logged)."""
    for uid in units:
        u = battle.units[uid]
        acts = [a for a in RE.acting(battle, u, (V.TO_RESERVES,)) if a.held.record.key == rec.key]
        if not acts:
            continue
        models = W.unit_models(u)
        M.to_reserves(u)
        battle.changes.touched(u)
        battle.changes.moved(models)
        battle.emit(ev.RULE_EFFECT, rule=rec.name, unit=uid,
                    effect=f"{uid} is removed from the battlefield into strategic reserves")


def _pool_key(owner: int, rec: V.RuleRecord) -> str:
    """The rule_uses key counting the points spent of a RESURGE rule's pool."""
    return RE.choice_key(owner, rec.key) + "|pool"


def pool_left(battle, owner: int, rec: V.RuleRecord) -> int:
    """The points of a RESURGE rule's pool its army has left (V.by_size of the record's pool,
    less those spent)."""
    spent_ = battle.resources.rule_uses.get(_pool_key(owner, rec), 0)
    return V.by_size(rec.pool, RE.battle_size(battle)) - spent_


def resurge(battle, units: list[int]):
    """When units are destroyed (sim.systems.removal, after their models are removed; a
    generator): for each, in unit order, a RESURGE grant acting on it (its keywords and its
    Starting Strength) whose cost its army's pool can pay may bring it back: its player is asked
    (a ``rule_reroll``-like ``rule_choice`` decision, "call" or "decline"; default: call); if
    called, the points are spent and the unit is set back, whole, into strategic reserves
    (sim.world.mutations.restore_to_reserves), logged."""
    from sim.rules.effects import choices as CH
    for u in units:
        if W.alive_models(u):
            continue
        owner = esper.component_for_entity(u, Unit).owner
        acts = [a for a in RE.acting(battle, u, (V.RESURGE,))
                if pool_left(battle, owner, a.held.record) >= a.grant.what.value]
        if not acts:
            continue
        a = acts[0]
        rec, cost, uid = a.held.record, a.grant.what.value, _uid(u)
        left = pool_left(battle, owner, rec)
        req = DecisionRequest("rule_choice", f"{rec.key}: {uid} destroyed", owner, [CH.CALL, CH.DECLINE], CH.CALL,
                              prompt=f"{rec.name}: spend {cost} of {left} points to bring {uid} back into "
                                     f"strategic reserves?",
                              context={"rule": rec.key, "choice": V.CALL, "unit": uid})
        answer = yield from ask(battle, req)
        if answer != CH.CALL:
            continue
        key = _pool_key(owner, rec)
        battle.resources.rule_uses[key] = battle.resources.rule_uses.get(key, 0) + cost
        M.restore_to_reserves(u)
        battle.changes.touched(u)
        battle.emit(ev.RULE_EFFECT, rule=rec.name, unit=uid,
                    effect=f"{uid} comes back whole into strategic reserves for {cost} points "
                           f"({left - cost} left)")


# a rule's mark moved by what a unit destroyed
def mark_after_attacks(battle, u: int) -> None:
    """After all of the unit's attacks are resolved (its casualties removed): if they destroyed an
    enemy unit, each MARK grant acting on it (trigger ON_DESTROYING) moves its rule's mark to the
    unit (Resources.rule_marks, "<player>:<rule key>|marked"), the first time in the turn for
    that army's rule; logged as a ``rule effect``."""
    if not RE.any_rules():
        return
    acts = [a for a in RE.acting(battle, u, (V.MARK,)) if a.grant.what.trigger == V.ON_DESTROYING]
    if not acts:
        return
    me = _uid(u)
    destroyed = []
    for e in reversed(battle.events):  # (this activation's events: back to its command)
        t = e.get("type")
        if t == ev.COMMAND:
            break
        if t == ev.UNIT_DESTROYED and e.get("by") == me:
            destroyed.append(e["unit"])
    if not destroyed:
        return
    res = battle.resources
    owner = esper.component_for_entity(u, Unit).owner
    for key in dict.fromkeys(a.held.record.key for a in acts):
        ck = RE.choice_key(owner, key)
        if res.rule_marks.get(ck + "|moved") == RE.turn_key(battle):
            continue  # (the first time in each turn only)
        res.rule_marks[ck + "|moved"] = RE.turn_key(battle)
        if res.rule_marks.get(ck + "|marked") == me:
            continue
        res.rule_marks[ck + "|marked"] = me
        name = next(a.held.record.name for a in acts if a.held.record.key == key)
        battle.emit(ev.RULE_EFFECT, rule=name, unit=me,
                    effect=f"becomes its army's marked unit, having destroyed {', '.join(sorted(destroyed))}")


def permission_used(battle, u: int, act: str) -> None:
    """Log the rules that let the unit ``act`` (shoot or declare a charge) in a turn it
    advanced or fell back (sim.world.rule_reads.permitting), as a ``rule effect``."""
    from sim.rules.effects import eligibility as EL
    from sim.world.rule_reads import permitting
    acts = permitting(battle, u, act)
    if acts:
        st = W.unit_state(u)
        moved = "advanced" if st.advanced else "fell back"
        battle.emit(ev.RULE_EFFECT, rule=_names(acts), unit=_uid(u),
                    effect=f"{'shoots' if act == EL.SHOOT else 'declares a charge'} in a turn it {moved}")
