"""The choices rules ask of their players (RuleChoice: Oath of Moment's target, the Waaagh!'s
turn), as decisions like any other: at the start of each phase the choices made that no longer
hold expire, then the active player is asked each choice of theirs whose moment this phase is (a
``rule_choice`` decision: an enemy unit's id, a friendly unit's id, or "call" / "decline"), while uses remain. Scripts
(a step's ``decisions``), the default and random players and the sandbox answer it; the choice
is kept in Resources.rule_choices ({"value", "round", "player"} by "<player>:<rule key>") and
counted in Resources.rule_uses; each is logged as a ``rule choice`` event. A choice asked in
either player's turn (RuleChoice.turn) is asked of its player in the other's turn too, after the
active player's; then the forced battle-shock tests due at the start of the phase are made
(sim.phases.forced_shock). What may be answered,
the default answer and when a choice expires are sim.rules.effects.choices (pure).

A choice of several friendly units (V.PICK_FRIENDS) is asked one unit a decision (a
unit's id, or "done") at its moment: the start or the end of a phase, in its army's turn or the
opponent's (``end_of_phase``), or at battle formations (``at_formations``); see ``ask_friends``."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import DecisionRequest, ask
from sim.rules.effects import choices as CH
from sim.rules.effects import vocabulary as V
from sim.rules.turn import PLAYER
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE
from sim.phases import forced_shock

KIND = "rule_choice"


def records_of(player: int) -> list[tuple[V.RuleRecord, str, str]]:
    """The rules asking a choice held by some unit of ``player`` (not destroyed), in unit order
    then the unit's order of rules, as (record, scope, unit name): an army or detachment rule
    once (scope ""), a datasheet ability once per unit holding it (scope: its id,
    sim.world.rule_effects.scope_of)."""
    out: dict[tuple[str, str], tuple] = {}
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or W.unit_destroyed(u):
            continue
        for h in RE.held_by(u):
            if h.record.choice is not None:
                scope = RE.scope_of(h.record, u)
                out.setdefault((h.record.key, scope), (h.record, scope, unit.name if scope else ""))
    return list(out.values())


def _unit(scope: str) -> dict:
    """The event's ``unit`` for a datasheet ability's choice (none for an army's rule)."""
    return {"unit": scope} if scope else {}


def _enemies(player: int) -> list[tuple[str, float]]:
    """(unit id, distance to the nearest of ``player``'s units on the battlefield) of each enemy
    unit on the battlefield, in unit order."""
    mine, theirs = [], []
    for u in W.all_units():
        if W.off_table(u) or W.unit_destroyed(u):
            continue
        (mine if esper.component_for_entity(u, Unit).owner == player else theirs).append(u)
    own = [m for u in mine for m in W.unit_models(u)]
    out = []
    for t in theirs:
        models = W.unit_models(t)
        d = min(W.nearest_distances(models, own)) if own and models else float("inf")
        out.append((esper.component_for_entity(t, Unit).id, d))
    return out


def _friends(player: int, rec: V.RuleRecord) -> list[tuple[str, float]]:
    """(unit id, distance to the nearest bearer) of each friendly unit ``rec``'s PICK_FRIEND
    choice may pick: on the battlefield, with its CHOSEN_FRIEND grant's keywords, within its range
    (0: any distance) of a living bearer of the rule (a model of a unit holding it: its bearers,
    or every model when the unit holds it as a whole), not a unit holding the rule itself; in unit
    order."""
    g = CH.friend_grant(rec)
    bearers = []
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != player or W.unit_destroyed(u) or W.off_table(u):
            continue
        for h in RE.held_by(u):
            if h.record.key == rec.key:
                bearers += [m for m in W.unit_models(u) if not h.bearers or W.model_id(m) in h.bearers]
    out = []
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != player or W.unit_destroyed(u) or W.off_table(u):
            continue
        if any(h.record.key == rec.key for h in RE.held_by(u)):
            continue
        kws = W.unit_keywords(u)
        models = W.unit_models(u)
        if not models or not all(k in kws for k in g.keywords):
            continue
        d = min(W.nearest_distances(models, bearers)) if bearers else float("inf")
        if g.range > 0 and d > g.range:
            continue
        out.append((esper.component_for_entity(u, Unit).id, d))
    return out


def start_of_phase(battle):
    """At the start of a phase (a generator): expire the choices that no longer hold (both
    players'), then ask the active player's choices whose moment it is."""
    if not RE.any_rules():
        return
    ts = battle.turn_state
    res = R.current
    phase = str(ts.phase)
    for p in (0, 1):
        for rec, scope, _name in records_of(p):
            ck = RE.choice_key(p, rec.key, scope)
            c = res.rule_choices.get(ck)
            if c is not None and CH.expired(rec.choice.lasts, c["round"], c["player"], ts.round, ts.active, p, phase):
                del res.rule_choices[ck]
                battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=None, **_unit(scope))
    # the active player's choices, then the other player's asked in either player's turn
    asked = [(ts.active, r) for r in records_of(ts.active)]
    asked += [(1 - ts.active, r) for r in records_of(1 - ts.active) if r[0].choice.turn == V.EITHER_TURN]
    for p, (rec, scope, name) in asked:
        ch = rec.choice
        ck = RE.choice_key(p, rec.key, scope)
        if ch.moment != phase or not CH.uses_left(ch, RE.uses_of(p, rec.key, scope)):
            continue
        if ch.kind == V.PICK_FRIENDS:  # asked by ask_friends (its moment's start or end)
            if ch.at == V.AT_START and ch.turn == V.OWN_TURN:
                yield from ask_friends(battle, p, rec, scope, name)
            continue
        if ch.kind == V.CALL and ck in res.rule_choices:
            continue  # (called and still in force)
        if not CH.asked_in_round(ch, ts.round, res.rule_uses.get(CH.round_key(ck, ts.round), 0) > 0):
            continue
        enemies = _friends(p, rec) if ch.kind == V.PICK_FRIEND else _enemies(p)
        opts = CH.options(ch, [u for u, _d in enemies])
        default = CH.default_answer(ch, enemies, ts.round)
        if ch.lasts == V.KEPT:  # the options not picked yet (for this rule, or the one it adds to)
            kept = RE.choice_key(p, ch.adds_to or rec.key, scope)
            opts = CH.options_left(ch, res.rule_choices.get(kept, {}).get("value") or [])
            default = opts[0] if opts else None
        if not opts:
            continue
        req = DecisionRequest(KIND, f"{ck} round {ts.round}", p, opts, default,
                              prompt=f"{rec.name}{f' ({name})' if name else ''}: {ch.prompt}",
                              context={"rule": rec.key, "choice": ch.kind, **({"unit": scope} if scope else {}),
                                       **({"turn": ch.turn} if ch.turn != V.OWN_TURN else {})})
        answer = yield from ask(battle, req)
        value = CH.value_of(ch, answer)
        if value is None:
            battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=False, **_unit(scope))
            continue
        if ch.rounds:  # (asked once in each of its rounds)
            res.rule_uses[CH.round_key(ck, ts.round)] = 1
        if ch.lasts == V.KEPT:  # added to the options picked before (of the rule it adds to, if any)
            before = res.rule_choices.get(kept, {}).get("value")
            res.rule_choices[kept] = {"value": CH.picked_value(before, value), "round": ts.round, "player": ts.active}
            value = CH.picked_value(res.rule_choices.get(ck, {}).get("value") if ch.adds_to else before, value)
        res.rule_choices[ck] = {"value": value, "round": ts.round, "player": ts.active}
        res.rule_uses[ck] = res.rule_uses.get(ck, 0) + 1
        battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=value, **_unit(scope))
    # the rules acting at the start of the phase, once its choices are made (forced battle-shock tests)
    yield from forced_shock.forced_tests(battle, V.AT_START_OF_PHASE)


# a choice of several friendly units (V.PICK_FRIENDS) -------------------------------

def friends_to_pick(player: int, rec: V.RuleRecord) -> list[str]:
    """The ids of the friendly units ``rec``'s PICK_FRIENDS choice may pick, in unit order: not
    destroyed (a model with wounds left, on the battlefield or waiting off it), with its
    CHOSEN_FRIEND grants' keywords; for a TO_RESERVES grant, on the battlefield and not within
    Engagement Range (sim.rules.reserves.removal_problem)."""
    from sim.rules.reserves import removal_problem
    grants = [g for g in rec.grants if g.who == V.CHOSEN_FRIEND]
    removes = any(g.what.kind == V.TO_RESERVES for g in grants)
    out = []
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != player or not W.alive_models(u):
            continue
        kws = W.roster(u).keywords  # (every model's: before deployment no model is on the battlefield)
        if not all(k in kws for g in grants for k in g.keywords):
            continue
        if removes and removal_problem(not W.off_table(u), bool(W.engaged_with(u))) is not None:
            continue
        out.append(esper.component_for_entity(u, Unit).id)
    return out


def ask_friends(battle, p: int, rec: V.RuleRecord, scope: str = "", name: str = ""):
    """Ask ``p``'s PICK_FRIENDS choice of ``rec`` (a generator): one ``rule_choice`` decision per
    unit, a unit's id or DONE, up to the most the battle size allows (V.by_size); the units
    picked are kept as a list (Resources.rule_choices), logged as one ``rule choice`` event, and
    the effects that act when they are picked (TO_RESERVES) then act
    (sim.systems.rule_effects.picked)."""
    from sim.systems import rule_effects as RX
    ts = battle.turn_state
    res = R.current
    ch = rec.choice
    ck = RE.choice_key(p, rec.key, scope)
    most = V.by_size(ch.most, RE.battle_size(battle))
    when = f"round {ts.round}" if ts.pre_battle is None else "battle formations"
    picked: list[str] = []
    while len(picked) < most:
        cands = [u for u in friends_to_pick(p, rec) if u not in picked]
        if not cands:
            break
        req = DecisionRequest(KIND, f"{ck} {when} pick {len(picked) + 1}", p, cands + [V.DONE],
                              CH.default_friends(rec, cands),
                              prompt=f"{rec.name}{f' ({name})' if name else ''}: {ch.prompt} "
                                     f"({len(picked)} of at most {most} picked)",
                              context={"rule": rec.key, "choice": ch.kind, "picked": list(picked),
                                       **({"unit": scope} if scope else {}),
                                       **({"turn": ch.turn} if ch.turn != V.OWN_TURN else {})})
        answer = yield from ask(battle, req)
        if answer not in cands:
            break
        picked.append(answer)
    if not picked:
        battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=False, **_unit(scope))
        return
    res.rule_choices[ck] = {"value": picked, "round": ts.round, "player": ts.active}
    res.rule_uses[ck] = res.rule_uses.get(ck, 0) + 1
    battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[p], value=list(picked), **_unit(scope))
    RX.picked(battle, p, rec, picked)


def _moment_records(player: int, moment: str) -> list:
    """``player``'s rules asking a PICK_FRIENDS choice at ``moment`` with uses left, as records_of
    gives them, but read off every unit of the player not destroyed (before the battle its units
    wait off the battlefield)."""
    out: dict = {}
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        if unit.owner != player or not W.alive_models(u):
            continue
        for h in RE.held_by(u):
            ch = h.record.choice
            if ch is not None and ch.kind == V.PICK_FRIENDS and ch.moment == moment:
                scope = RE.scope_of(h.record, u)
                if CH.uses_left(ch, RE.uses_of(player, h.record.key, scope)):
                    out.setdefault((h.record.key, scope), (h.record, scope, unit.name if scope else ""))
    return list(out.values())


def end_of_phase(battle):
    """At the end of a phase (a generator): the PICK_FRIENDS choices asked then (RuleChoice.at
    AT_END) of the active player's own-turn rules, then of the other player's opponent's-turn
    rules."""
    if not RE.any_rules():
        return
    ts = battle.turn_state
    for p in (ts.active, 1 - ts.active):
        for rec, scope, name in _moment_records(p, str(ts.phase)):
            ch = rec.choice
            if ch.at == V.AT_END and (ch.turn == V.OWN_TURN) == (p == ts.active):
                yield from ask_friends(battle, p, rec, scope, name)


def at_formations(battle, player: int):
    """26 step 7, once both battle formations are revealed (a generator): ``player``'s
    PICK_FRIENDS choices whose moment is V.FORMATIONS (e.g. the units a rule gives a deployment
    ability)."""
    if not RE.any_rules():
        return
    for rec, scope, name in _moment_records(player, V.FORMATIONS):
        yield from ask_friends(battle, player, rec, scope, name)


def scenario_choices(res, scenario) -> None:
    """The choices a scenario sets in force as the battle starts (each army's ``chosen``, checked
    by sim.scenario.load), into ``res`` (the battle's Resources, before it is installed): a
    rule's choice (a datasheet ability's for each unit holding it; a once-per-battle call counts
    as its use; an option a KEPT choice keeps starts its list of picks, of the rule it adds to as
    well, and answers the first round it is asked in), a rule's mark on the unit named; an oath is
    read by sim.phases.oaths."""
    from sim.rules.effects import table
    for owner, army in enumerate(scenario.armies):
        for key, value in army.chosen:
            rec = table.by_key(key)
            if rec.choice is None:  # (an oath the scenario swore: sim.phases.oaths reads it; a mark)
                if any(g.what.kind == V.MARK for g in rec.grants):  # (a rule's mark, on the unit named)
                    res.rule_marks[RE.choice_key(owner, key) + "|marked"] = value
                continue
            ch = rec.choice
            if ch.lasts == V.KEPT and isinstance(value, str):
                value = [value]
            units = [u.id for u in scenario.units if u.owner == owner
                     and (key in army.rules or any(key in m.rules for m in u.models))]
            # (a datasheet ability's choice is each holding unit's own: the same for each)
            for scope in (units if rec.source == V.DATASHEET else [""]):
                ck = RE.choice_key(owner, key, scope)
                if ch.lasts == V.KEPT:  # (added to the picks kept so far: its own, or the rule's it adds to)
                    for k in dict.fromkeys((ck, RE.choice_key(owner, ch.adds_to, scope) if ch.adds_to else ck)):
                        before = res.rule_choices.get(k, {}).get("value") or []
                        res.rule_choices[k] = {"value": [*before, *(v for v in value if v not in before)],
                                               "round": 0, "player": owner}
                    if ch.rounds:  # (its pick of the first round it is asked in)
                        res.rule_uses[CH.round_key(ck, min(ch.rounds))] = 1
                else:
                    res.rule_choices[ck] = {"value": value, "round": 0, "player": owner}
                if ch.uses:  # (a rule called once per battle: this was its call)
                    res.rule_uses[ck] = 1
