"""Which grants of datasheet abilities, army rules and detachment rules (sim.rules.effects) reach a
unit now: the queries the attack plan, movement, charges and the phases ask, and the facts the
grants' conditions read off the world (sim.rules.effects.conditions decides).

A unit's rules are its UnitRules component (built from the scenario: its army's rules, its own
and its models'). A grant reaches a unit

* from the unit's own rules when its ``who`` is BEARER (only the bearer's attacks and saves:
  the caller passes the model), UNIT or ARMY;
* from a friendly unit's rule when it is an AURA and a model of the unit is within its range
  of the bearer (of any model of the holding unit when the rule is the unit's as a whole);
* from an enemy unit's rule when it is an ENEMY_AURA, likewise; or ENEMIES (every enemy unit, once
  per rule, while a unit holding it is on the battlefield);
* an ENGAGED_ENEMY grant (a forced battle-shock test of an engaged enemy unit the holder's
  player picks) reaches its holding unit: its conditions are read for the holder;
* from a friendly unit's rule (its own included) when it is a CHOSEN_FRIEND grant and the
  rule's PICK_FRIEND choice in force picked this unit (its range was checked when it was picked),
  or, for a rule asking no choice, a LEND rule of the same holder whose tag its name carries
  picked it (the Bondsman rule lending a Knight's "... (Bondsman)" ability);

and acts when its conditions hold (and uses remain, for a limited one). The choice a rule asks
(Oath of Moment's target, the Waaagh!'s turn) is kept in the battle's Resources
(``rule_choices``), by player and rule key. A battle with no rules (no UnitRules anywhere)
answers every query with nothing at the cost of one attribute read."""

from __future__ import annotations

from typing import NamedTuple

import esper

from sim.components import ModelId, Stats, Unit, UnitMember, UnitRules, Wounds
from sim.rules import command as CMD
from sim.rules.effects import rituals as RT
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, failing_condition, not_now, why_not
from sim.rules.geometry import within_distance
from sim.rules.geometry import EPS, footprint_polygon_distance
from sim.rules.turn import PLAYER
from sim.world import queries as W
from sim.world import resources as R


class Acting(NamedTuple):
    """A grant that reaches a unit: the rule as held (with its bearers), the grant, and the
    entity of the unit that holds it."""

    held: V.Held
    grant: V.Grant
    holder: int


def any_rules() -> bool:
    """True if some unit of the current battle holds a rule (else every query is empty)."""
    res = R.current
    return res is not None and res.has_rules


def held_by(unit_ent: int) -> tuple:
    """The rules a unit holds (sim.rules.effects.vocabulary.Held), in the scenario's order."""
    r = esper.try_component(unit_ent, UnitRules)
    return () if r is None else r.held


def choice_key(owner: int, key: str, unit: str = "") -> str:
    """The key of a rule's choice and uses in Resources: "<player>:<rule key>" for a rule the
    army holds as one (an army or detachment rule), "<player>:<rule key>@<unit id>" for a
    datasheet's, which each unit holding it chooses and uses on its own (``scope_of``)."""
    return f"{PLAYER[owner]}:{key}" + (f"@{unit}" if unit else "")


def scope_of(record: V.RuleRecord, holder: int) -> str:
    """Whose choice and uses a held rule's are: the holding unit's id for a datasheet ability
    (two units with it call it and use it apart), "" for an army or detachment rule (one per
    army)."""
    return esper.component_for_entity(holder, Unit).id if record.source == V.DATASHEET else ""


def choice_of(owner: int, key: str, unit: str = ""):
    """The choice in force for a player's rule (the enemy unit id picked, or True once called),
    else None; ``unit``: the holding unit's id for a datasheet ability (scope_of)."""
    res = R.current
    if res is None:
        return None
    c = res.rule_choices.get(choice_key(owner, key, unit))
    return None if c is None else c.get("value")


def uses_of(owner: int, key: str, unit: str = "") -> int:
    res = R.current
    return 0 if res is None else res.rule_uses.get(choice_key(owner, key, unit), 0)


def limit_key(battle, owner: int, key: str, limit: str, unit: str = "") -> str:
    """The rule_uses key counting the uses of a rule limited once per battle, turn or phase
    (When.limit): "<player>:<rule key>|battle", "...|turn <round>.<active player>",
    "...|phase <round>.<active player>.<phase>"."""
    base = choice_key(owner, key, unit)
    if limit == V.ONCE_PER_BATTLE:
        return f"{base}|battle"
    ts = getattr(battle, "turn_state", None)
    rnd, act, ph = (0, 0, "") if ts is None else (ts.round, ts.active, str(ts.phase))
    if limit == V.ONCE_PER_TURN:
        return f"{base}|turn {rnd}.{act}"
    return f"{base}|phase {rnd}.{act}.{ph}"


def spent(battle, a: "Acting") -> bool:
    """A limited grant (When.limit) already used within its limit (a use is counted by
    ``use``)."""
    lim = a.grant.when.limit
    if not lim:
        return False
    owner = esper.component_for_entity(a.holder, Unit).owner
    res = R.current
    unit = scope_of(a.held.record, a.holder)
    return res is not None and res.rule_uses.get(limit_key(battle, owner, a.held.record.key, lim, unit), 0) > 0


def use(battle, a: "Acting") -> None:
    """Count a use of a limited grant that just acted (nothing for an unlimited one)."""
    lim = a.grant.when.limit
    res = R.current
    if not lim or res is None:
        return
    k = limit_key(battle, esper.component_for_entity(a.holder, Unit).owner, a.held.record.key, lim,
                  scope_of(a.held.record, a.holder))
    res.rule_uses[k] = res.rule_uses.get(k, 0) + 1


def _bearer_alive(holder: int, bearers: tuple) -> bool:
    """A model of ``bearers`` (model ids) is still alive in the holding unit."""
    return any(esper.component_for_entity(m, ModelId).id in bearers for m in W.unit_models(holder))


def _within(unit_ent: int, holder: int, bearers: tuple, rng: float) -> bool:
    """A model of ``unit_ent`` within ``rng``" of a living bearer (any model of ``holder`` for a
    rule the holding unit has as a whole)."""
    if unit_ent == holder:
        return True
    if not W.may_be_within(unit_ent, holder, rng):  # (the units' boxes alone say it is not: W.units_near)
        return False
    gap = _gap(holder, unit_ent, bearers)
    return gap is not None and within_distance(gap, rng)  # (01.04.01)


def _gap(other: int, unit_ent: int, bearers: tuple = ()) -> float | None:
    """01.04 The distance from the models of ``other`` (its living ``bearers`` only, when
    given: model ids) to those of ``unit_ent``, the closest pair's; None when either has none.
    Kept while nothing moves (W.kept_while_still)."""
    kept = W.kept_while_still()
    key = ("gap", other, unit_ent, bearers)
    if key in kept:
        return kept[key]
    mine = W.unit_models(unit_ent)
    srcs = W.unit_models(other) if mine else ()
    if bearers:
        srcs = [m for m in srcs if esper.component_for_entity(m, ModelId).id in bearers]
    got = kept[key] = min(W.nearest_distances(srcs, mine)) if srcs else None
    return got


def _aura_sources() -> tuple:
    """Every (holding unit, held rule, grant) of an AURA, ENEMY_AURA or CHOSEN_FRIEND grant in the
    battle (those that reach other units), in unit order: fixed by the scenario, so listed once
    (Resources.rule_auras)."""
    res = R.current
    if res.rule_auras is None:
        res.rule_auras = tuple((u, h, g) for u in W.all_units() for h in held_by(u) for g in h.record.grants
                               if g.who in (V.AURA, V.ENEMY_AURA, V.CHOSEN_FRIEND, V.ENEMIES))
    return res.rule_auras


def kinds_held() -> frozenset:
    """The kinds of grant (V.KINDS) the battle's rules can make: those of every grant a unit holds,
    and of the lasting grants of each ritual a RITUAL grant opens (sim.phases.rituals puts them in
    force). Fixed by the scenario, so listed once (Resources.rule_kinds): a grant of another kind
    reaches no unit."""
    res = R.current
    if res.rule_kinds is None:
        from sim.rules.effects import table
        kinds = set()
        for u in W.all_units():
            for h in held_by(u):
                for g in h.record.grants:
                    kinds.add(g.what.kind)
                    rec = table.by_key(g.what.ability) if g.what.kind == V.RITUAL else None
                    if rec is not None:
                        kinds.update(x.what.kind for x in RT.lasting(rec))
        res.rule_kinds = frozenset(kinds)
    return res.rule_kinds


def reaching(unit_ent: int, kinds: tuple[str, ...] | None = None) -> list[Acting]:
    """Every grant (of ``kinds``, all if None) that reaches ``unit_ent`` now by who holds it and
    where (module docstring), before its conditions: its own rules' first, then the auras of the
    other units, friendly and enemy, in the battle's unit order.

    What depends on where models stand (a bearer alive, the unit's keywords, an aura's holder on
    the battlefield and within range) is read once while nothing moves, comes or goes
    (``_reach``, kept with W.kept_while_still); what the armies' choices decide (a chosen friend
    picked, a ritual in force) is read on every call: a choice can change while nothing moves."""
    if not any_rules() or (kinds is not None and kinds_held().isdisjoint(kinds)):
        return []
    kept = W.kept_while_still()
    key = ("reaching", unit_ent)
    plan = kept.get(key)
    if plan is None:
        plan = kept[key] = _reach(unit_ent)
    own, auras = plan
    out: list[Acting] = []
    picked: set = set()  # (a rule reaching a chosen friend once, however many units hold it)
    _reached(unit_ent, own, kinds, picked, out)
    # the rituals its army manifested this phase (sim.phases.rituals)
    if R.current.rule_choices:
        out += _rituals(unit_ent, esper.component_for_entity(unit_ent, Unit).owner, _keywords(unit_ent), kinds)
    _reached(unit_ent, auras, kinds, picked, out)
    return out


def _reached(unit_ent: int, entries: tuple, kinds, picked: set, out: list) -> None:
    """``reaching``'s reading of ``entries`` (``_reach``'s) now: those of ``kinds`` (all if None),
    a CHOSEN_FRIEND grant only where its rule's choice in force picked the unit (once per rule and
    grant, ``picked``), onto ``out``."""
    me = None
    for h, g, holder, chosen in entries:
        if kinds is not None and g.what.kind not in kinds:
            continue
        if chosen:
            if me is None:
                me = esper.component_for_entity(unit_ent, Unit)
            if (h.record.key, g) in picked or not _picked(me.owner, holder, h, me.id):
                continue
            picked.add((h.record.key, g))
        out.append(Acting(h, g, holder))


def _aura_candidates(owner: int) -> tuple:
    """The aura sources (``_aura_sources``) that can reach a unit of ``owner`` now, in their order,
    as (holding unit, held, grant, kind): a friendly CHOSEN_FRIEND or AURA grant, an enemy
    ENEMY_AURA one (its kind AURA here: it reaches as a friendly aura does), each with its holder
    on the battlefield; and of an enemy rule's ENEMIES grant the first holder on the battlefield
    (every holder's grant is the same, keywords and all: it reaches a unit once per rule). Kept
    while nothing moves, comes or goes (W.kept_while_still); ``_reach`` reads the keywords, the
    range and which unit is asking."""
    kept = W.kept_while_still()
    key = ("aura candidates", owner)
    got = kept.get(key)
    if got is not None:
        return got
    out = []
    enemies: set = set()
    for other, h, g in _aura_sources():
        friendly = esper.component_for_entity(other, Unit).owner == owner
        who = g.who
        if who == V.ENEMIES:
            if friendly or (h.record.key, g) in enemies:
                continue
        elif who == V.CHOSEN_FRIEND:
            if not friendly:
                continue
        elif who != (V.AURA if friendly else V.ENEMY_AURA):
            continue
        if W.unit_destroyed(other) or W.off_table(other):
            continue
        if who == V.ENEMIES:
            enemies.add((h.record.key, g))
        out.append((other, h, g, V.AURA if who == V.ENEMY_AURA else who))  # (an enemy's aura: an AURA here)
    got = kept[key] = tuple(out)
    return got


def _keywords(unit_ent: int):
    """The unit's keywords as the rules reaching it read them: off the battlefield or destroyed, a
    unit keeps its roster's (a rule picking it before deployment, or acting as it is destroyed)."""
    return W.unit_keywords(unit_ent) or W.roster(unit_ent).keywords


def _reach(unit_ent: int) -> tuple[tuple, tuple]:
    """``reaching``'s reads of where models stand, for every kind of grant: (its own rules'
    grants, the other units' aura grants), each as (held, grant, holding unit, chosen) in
    ``reaching``'s order, ``chosen`` marking a CHOSEN_FRIEND grant, which reaches the unit only if
    the rule's choice in force picked it (read by ``reaching`` on each call). An ENEMIES grant is
    listed once per rule, as ``reaching`` counts it."""
    owner = esper.component_for_entity(unit_ent, Unit).owner
    kws = _keywords(unit_ent)
    own = []
    for h in held_by(unit_ent):
        if h.bearers and not _bearer_alive(unit_ent, h.bearers):
            continue  # (a rule its bearers carry ends with them: a leader's, once the leader is destroyed)
        for g in h.record.grants:
            if g.who in (V.BEARER, V.UNIT, V.ARMY, V.AURA, V.ENGAGED_ENEMY) and all(k in kws for k in g.keywords):
                own.append((h, g, unit_ent, False))
            elif g.who == V.CHOSEN_FRIEND:
                own.append((h, g, unit_ent, True))
    auras = []
    for other, h, g, kind in _aura_candidates(owner):
        if kind == V.ENEMIES:
            if all(k in kws for k in g.keywords):
                auras.append((h, g, other, False))
        elif other == unit_ent:
            continue
        elif kind == V.CHOSEN_FRIEND:
            auras.append((h, g, other, True))
        elif all(k in kws for k in g.keywords) and _within(unit_ent, other, h.bearers, g.range):
            auras.append((h, g, other, False))
    return tuple(own), tuple(auras)


def _rituals(unit_ent: int, owner: int, kws, kinds) -> list[Acting]:
    """The lasting grants (sim.rules.effects.rituals.lasting) of each ritual in force for the
    unit's army (a ``rule_choices`` entry with "ritual": sim.phases.rituals), with the grant's
    keywords; the unit itself stands as the holder (its army's choice is the ritual's)."""
    out = []
    for c in R.current.rule_choices.values():
        if "ritual" not in c or c["player"] != owner:
            continue
        held = _ritual_held(c["ritual"])
        for g in RT.lasting(held.record):
            if (kinds is None or g.what.kind in kinds) and all(k in kws for k in g.keywords):
                out.append(Acting(held, g, unit_ent))
    return out


def _ritual_held(key: str) -> V.Held:
    h = _RITUALS.get(key)
    if h is None:
        from sim.rules.effects import table
        h = _RITUALS[key] = V.Held(table.by_key(key))
    return h


_RITUALS: dict = {}  # (a ritual's record as held: one per key, the records being fixed)


def psychic_result(owner: int, key: str) -> int:
    """The total of the Psychic test that manifested ritual ``key`` for ``owner`` (0: not in
    force)."""
    res = R.current
    c = None if res is None else res.rule_choices.get(choice_key(owner, key))
    return 0 if c is None else int(c.get("result", 0))


def _picked(owner: int, holder: int, h: V.Held, uid: str) -> bool:
    """The CHOSEN_FRIEND grants of ``h`` (held by ``holder``) reach the unit ``uid``: the rule's own
    PICK_FRIEND choice picked it, or (a rule asking no choice) a LEND rule of the holder whose tag
    the rule's name carries ("... (Bondsman)") picked it."""
    rec = h.record
    if rec.choice is not None:
        v = choice_of(owner, rec.key, scope_of(rec, holder))
        return v == uid or (isinstance(v, list) and uid in v)  # (PICK_FRIENDS keeps a list)
    for lh in held_by(holder):
        for g in lh.record.grants:
            if g.what.kind == V.LEND and any(n.endswith(f"({g.what.ability})") for n in rec.names) \
                    and choice_of(owner, lh.record.key, scope_of(lh.record, holder)) == uid:
                return True
    return False


def facts(battle, unit_ent: int, held: V.Held, holder: int, attack: str = "", other: int | None = None,
          need: frozenset | None = None, psychic: bool = False, placed=None) -> Facts:
    """The facts a grant of ``held`` (held by ``holder``) reads for ``unit_ent`` now; ``other``:
    the other unit of an attack (its target, or the attacker for a save). ``need``: the names of
    the conditions to be read (None: all); the costly facts no condition reads are left at
    their defaults."""
    every = need is None
    ts = battle.turn_state
    st = W.unit_state(unit_ent)
    owner = esper.component_for_entity(holder, Unit).owner
    choice = choice_of(owner, held.record.key, scope_of(held.record, holder))
    kind = held.record.choice.kind if held.record.choice is not None else ""
    phase, own_turn = _now(battle, unit_ent)
    kws, chosen_target, other_half = frozenset(), False, False
    dist = None
    if other is not None:
        kws = W.unit_keywords(other)
        chosen_target = kind == V.PICK_ENEMY and choice == esper.component_for_entity(other, Unit).id
        other_half = (every or V.TARGET_BELOW_HALF in need or V.TARGET_NOT_BELOW_HALF in need) \
            and _below_half(battle, other)
        mine, theirs = W.unit_models(unit_ent), W.unit_models(other)
        if mine and theirs and (every or V.TARGET_WITHIN in need):
            dist = min(W.nearest_distances(mine, theirs))
    leading = (every or V.LEADING in need) and bool(held.bearers) and _leads(holder, held.bearers)
    near = _holder_units(unit_ent, holder) if every or V.NEAR_KEYWORD in need or V.NOT_NEAR_KEYWORD in need else ()
    oaths = R.current.oaths  # the army's oath (sim.phases.oaths), if it swore one
    oath = oaths.get(PLAYER[owner]) if oaths else None
    # the restrictions on the other unit, and the rule's mark
    at_start = targeted = marked = False
    if other is not None and (every or V.NOT_ENGAGED_AT_START in need):
        at_start = esper.component_for_entity(other, Unit).id in engaged_at_start(battle, unit_ent)
    if other is not None and (every or V.NOT_TARGETED in need):
        targeted = esper.component_for_entity(other, Unit).id in targeted_this_phase(battle, unit_ent)
    if every or V.MARKED in need:
        marked = mark_of(owner, held.record.key) == esper.component_for_entity(unit_ent, Unit).id
    return Facts(oath_quality="" if oath is None else oath["quality"],
                 honoured=oath is not None and oath.get("fulfilled") is not None,
                 target_engaged_at_start=at_start, target_targeted=targeted, marked=marked,
                 below_starting=(every or V.BELOW_STARTING in need) and _below_starting(battle, unit_ent),
                 led=(every or V.LED in need) and _led(unit_ent), has_target=other is not None,
                 target_on_objective=other is not None and (every or V.TARGET_ON_OBJECTIVE in need)
                 and _on_objective(battle, other),
                 phase=phase, own_turn=own_turn, attack=attack, battle_round=0 if ts is None else ts.round,
                 charged=st.charged, stationary=st.moved == 0 and not st.advanced and not st.fell_back,
                 below_half=(every or V.BELOW_HALF in need) and _below_half(battle, unit_ent),
                 on_objective=(every or V.ON_OBJECTIVE in need) and _on_objective(battle, unit_ent),
                 leading=leading, target_keywords=kws, target_chosen=chosen_target,
                 chosen=choice is not None and choice is not False, target_below_half=other_half,
                 target_distance=dist, option=choice if kind == V.PICK_OPTION and choice else "",
                 holder_units=near,
                 in_own_zone=(every or V.IN_OWN_ZONE in need) and _in_own_zone(battle, unit_ent),
                 target_battle_shocked=other is not None and W.unit_state(other).battle_shocked,
                 options_picked=tuple(choice) if kind in (V.PICK_OPTION, V.DICE_OPTIONS)  # (dice options)
                 and isinstance(choice, list) else (),
                 psychic_result=psychic_result(owner, held.record.key) if held.record.source == V.RITUAL_SOURCE
                 else 0,
                 psychic=psychic, **_domain_facts(battle, unit_ent, owner, every or bool(need & _DOMAIN_NEED), placed),
                 keywords=W.unit_keywords(unit_ent) if (every or V.LACKS_KEYWORD in need) else frozenset(),
                 arrived=(every or V.ARRIVED in need) and _arrived(battle, unit_ent),
                 starting_strength=_starting(battle, unit_ent) if every or V.STARTING_STRENGTH in need else 0)


def _now(battle, unit_ent: int) -> tuple[str, bool]:
    """(the phase, "" in free play; whether it is the turn of the unit's army, always in free
    play): the facts a grant's phases and turn read (sim.rules.effects.conditions.not_now)."""
    ts = battle.turn_state
    if ts is None:
        return "", True
    return str(ts.phase), ts.active == esper.component_for_entity(unit_ent, Unit).owner


def _in_own_zone(battle, unit_ent: int) -> bool:
    """01.04.01 A model of the unit is within (any part of its base in) its own army's deployment
    zone (the mission's, as the roles fell: TurnState.zones)."""
    ts = battle.turn_state
    zones = () if ts is None else ts.zones()
    owner = esper.component_for_entity(unit_ent, Unit).owner
    if owner >= len(zones):
        return False
    return any(footprint_polygon_distance(W.footprint(m), zones[owner]) <= EPS for m in W.unit_models(unit_ent))


def _holder_units(unit_ent: int, holder: int) -> tuple:
    """(keywords, distance to ``unit_ent``) of each unit of ``holder``'s army on the battlefield,
    in unit order (what a NEAR_KEYWORD condition reads)."""
    owner = esper.component_for_entity(holder, Unit).owner
    kept = W.kept_while_still()
    key = ("near", unit_ent, owner)
    got = kept.get(key)
    if got is not None:
        return got
    mine = W.unit_models(unit_ent)
    out = []
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != owner or W.off_table(u) or W.unit_destroyed(u):
            continue
        if mine and W.unit_models(u):
            out.append((W.unit_keywords(u), 0.0 if u == unit_ent else _gap(u, unit_ent)))
    got = kept[key] = tuple(out)
    return got


_DOMAIN_NEED = frozenset(V.DOMAIN_CONDITIONS)


def domain_of(battle, owner: int):
    """The player's domain now (sim.rules.effects.domain; the control in force is the one at the
    start of the phase, 14.02.01), or None when the battle has no deployment zones."""
    ts = battle.turn_state
    zones = () if ts is None else ts.zones()
    if len(zones) < 2:
        return None
    # (kept by what it reads: the zones, the objectives and who controls each)
    control = ts.control
    key = (owner, zones[owner], zones[1 - owner], ts.objectives,
           tuple(_controller(control.get(o.name)) for o in ts.objectives))
    try:
        got = _DOMAINS.get(key)
    except TypeError:  # (a zone of lists: not kept)
        key = got = None
    if got is None:
        from sim.rules.effects.domain import domain
        got = domain(owner, zones[owner], zones[1 - owner], ts.objectives, control)
        if key is not None:
            if len(_DOMAINS) >= 256:
                _DOMAINS.clear()
            _DOMAINS[key] = got
    return got


_DOMAINS: dict = {}  # domain_of's answers, by what they read


def _controller(value):
    """Who controls an objective, as sim.rules.effects.domain reads a control."""
    return getattr(value, "controller", value)


def _domain_facts(battle, unit_ent: int, owner: int, needed: bool, placed=None) -> dict:
    """The domain facts of ``unit_ent`` in the domain of the player ``owner`` (that holds the rule);
    ``placed``: the footprints the unit is being set up at (read instead of where it is)."""
    if not needed:
        return {}
    d = domain_of(battle, owner)
    if d is None:
        return {}
    if placed is not None:
        return _domain_of_bases(list(placed), d)
    kept = W.kept_while_still()  # (where the unit stands: kept while it stands there, for each domain)
    key = ("domain", unit_ent, d)
    got = kept.get(key)
    if got is None:
        models = W.unit_models(unit_ent)
        got = {} if not models or W.off_table(unit_ent) else _domain_of_bases([W.footprint(m) for m in models], d)
        kept[key] = got
    return got


def _domain_of_bases(fps: list, d) -> dict:
    """The domain facts of a unit whose models' bases are ``fps`` in the domain ``d`` ({} for
    no base)."""
    if not fps:
        return {}
    from sim.rules.effects.domain import unit_wholly_within, unit_within
    return {"in_domain": unit_within(fps, d), "wholly_in_domain": unit_wholly_within(fps, d)}



def battle_size(battle) -> str:
    """The battle size the mission names (V.BATTLE_SIZES; Strike Force in free play)."""
    ts = battle.turn_state
    return V.BATTLE_SIZES[1] if ts is None else ts.mission.size


def _arrived(battle, unit_ent: int) -> bool:
    """V.ARRIVED: set up as Reinforcements, its army's next Fight phase not yet over (20.03.01)."""
    from sim.rules.reserves import arrival_in_force
    ts = battle.turn_state
    st = W.unit_state(unit_ent)
    if ts is None or st.arrived is None:
        return False
    return arrival_in_force(st.arrived, ts.round, ts.active, str(ts.phase),
                            esper.component_for_entity(unit_ent, Unit).owner, ts.first)


def _starting(battle, unit_ent: int) -> int:
    """01.02.01 The unit's Starting Strength in models (every model, before the battle begins)."""
    ts = battle.turn_state
    every = len(W.unit_models(unit_ent, living=False))
    return every if ts is None else ts.starting_strength.get(unit_ent, every)


# what the conditions NOT_ENGAGED_AT_START, NOT_TARGETED and MARKED read
def turn_key(battle) -> str:
    """"<round>.<active player>": the turn a record of Resources.rule_marks was made in."""
    ts = battle.turn_state
    return "0.0" if ts is None else f"{ts.round}.{ts.active}"


def note_engaged_at_start(battle, unit_ent: int) -> None:
    """Remember the enemy units ``unit_ent`` is engaged with as it starts its move this turn (a unit
    that advances or falls back started the turn engaged with those, or with none: 09.05-09.07 need
    it unengaged to advance), for a unit an ELIGIBLE grant reaches whose conditions read it (so a
    battle without one keeps its state, and its hash, unchanged)."""
    if not any_rules() or not any(c[0] == V.NOT_ENGAGED_AT_START for a in reaching(unit_ent, (V.ELIGIBLE,))
                                  for c in a.grant.when.conditions):
        return
    ids = sorted(esper.component_for_entity(e, Unit).id for e in W.engaged_with(unit_ent))
    R.current.rule_marks[f"{esper.component_for_entity(unit_ent, Unit).id}|engaged at start"] = {
        "turn": turn_key(battle), "units": ids}


def engaged_at_start(battle, unit_ent: int) -> tuple:
    """The ids of the enemy units ``unit_ent`` was engaged with at the start of this turn, as noted
    when it moved (note_engaged_at_start; () if it has not moved this turn)."""
    res = R.current
    got = None if res is None else res.rule_marks.get(f"{esper.component_for_entity(unit_ent, Unit).id}|engaged at start")
    return tuple(got["units"]) if got and got["turn"] == turn_key(battle) else ()


def targeted_this_phase(battle, unit_ent: int) -> set:
    """The ids of the units another unit than ``unit_ent`` (of its army) has charged or selected as a
    target of its attacks since the current phase began, read off the battle's events."""
    from sim import events as ev
    me = esper.component_for_entity(unit_ent, Unit).id
    out: set = set()
    for e in reversed(battle.events):
        t = e.get("type")
        if t == ev.PHASE:
            break
        if t == ev.WEAPONS_SELECTED and e.get("unit") != me:
            out.update(s[2] for s in e.get("selections", ()) if s[2] is not None)
        elif t == ev.CHARGE and e.get("unit") != me:
            out.update(e.get("targets", ()))
    return out


def mark_of(owner: int, key: str):
    """The unit id an army's rule ``key`` has marked (a MARK grant moves it), else None."""
    res = R.current
    return None if res is None else res.rule_marks.get(choice_key(owner, key) + "|marked")


def _leads(holder: int, bearers: tuple) -> bool:
    """19.01 a living bearer is the leader or support of an attached unit."""
    for m in W.unit_models(holder):
        if esper.component_for_entity(m, ModelId).id in bearers:
            if esper.component_for_entity(m, UnitMember).role != "bodyguard":
                return True
    return False


def _led(unit_ent: int) -> bool:
    """19.01 the unit is an attached unit: one of its models (living or not) is a leader."""
    return any(esper.component_for_entity(m, UnitMember).role == "leader"
               for m in W.unit_models(unit_ent, living=False))


def _below_starting(battle, unit_ent: int) -> bool:
    """01.02.01 fewer models than the unit's Starting Strength (a single model: it has lost wounds)."""
    ts = battle.turn_state
    models = W.unit_models(unit_ent)
    if not models:
        return False
    start = len(W.unit_models(unit_ent, living=False)) if ts is None else ts.starting_strength.get(
        unit_ent, len(W.unit_models(unit_ent, living=False)))
    if start == 1:
        m = models[0]
        return esper.component_for_entity(m, Wounds).remaining < esper.component_for_entity(m, Stats).W
    return len(models) < start


def _below_half(battle, unit_ent: int) -> bool:
    ts = battle.turn_state
    models = W.unit_models(unit_ent)
    if not models:  # (destroyed: no strength to compare; a rule acting as it dies reads False)
        return False
    start = len(W.unit_models(unit_ent, living=False)) if ts is None else ts.starting_strength.get(
        unit_ent, len(W.unit_models(unit_ent, living=False)))
    if start == 1 and models:  # (01.02.01 a single model: its wounds left against its W)
        if ts is None:
            return False
        m = models[0]
        return CMD.half_strength(1, 1, single_model_W=esper.component_for_entity(m, Stats).W,
                                 wounds_left=esper.component_for_entity(m, Wounds).remaining) == CMD.BELOW_HALF
    return CMD.half_strength(start, len(models)) in (CMD.BELOW_HALF,)


def _on_objective(battle, unit_ent: int) -> bool:
    ts = battle.turn_state
    if ts is None or not ts.objectives:
        return False
    from sim.rules.objectives import in_range
    return any(in_range(W.footprint(m), o) for m in W.unit_models(unit_ent) for o in ts.objectives)


def acting(battle, unit_ent: int, kinds: tuple[str, ...], attack: str = "", other: int | None = None,
           model: str = "", psychic: bool = False, placed=None, stat: str | None = None) -> list[Acting]:
    """The grants of ``kinds`` (V.KINDS) that act on ``unit_ent`` now: reaching it, their
    conditions holding (sim.rules.effects.conditions), uses left; a BEARER grant only for its
    bearer (``model``: the model id the question is about, "" for the unit as a whole); ``psychic``:
    the attack is made with a [PSYCHIC] weapon (24.29); ``placed``: the footprints the unit is being
    set up at, which its conditions on where it is read; ``stat``: only the grants of that
    characteristic (a MODIFY's, an IGNORE_MODIFIERS'), the others' conditions not read."""
    out = []
    phase = own_turn = None
    for a in reaching(unit_ent, kinds):
        g = a.grant
        if stat is not None and g.what.stat != stat:
            continue
        if g.who == V.BEARER and a.held.bearers and model and model not in a.held.bearers:
            continue
        when = g.when
        if own_turn is None:  # (the facts ``not_now`` reads)
            phase, own_turn = _now(battle, unit_ent)
        if not_now(when, phase, attack, own_turn) is not None:
            continue  # (why_not's first parts: the conditions' facts are not gathered)
        if when.conditions:  # (why_not's other part, unworded)
            need = frozenset(c[0] for c in when.conditions)
            if failing_condition(when, facts(battle, unit_ent, a.held, a.holder, attack, other, need, psychic,
                                             placed)) is not None:
                continue
        if when.limit and spent(battle, a):
            continue
        out.append(a)
    return out


def explain(battle, unit_ent: int) -> list[tuple[V.Held, V.Grant, str | None]]:
    """Every grant reaching the unit, with why it does not act now (None: it acts): the unit
    card's "what it does now"."""
    return [(a.held, a.grant, why_not(a.grant.when, facts(battle, unit_ent, a.held, a.holder)))
            for a in reaching(unit_ent)]
