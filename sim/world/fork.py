"""A cheap, independent copy of a battle as it is now (Battle.fork), to be played forward by a
search player and thrown away.

Only the state that changes during a battle is copied; what never changes once the world is
built is shared. Tables say which is which, and anything in none of them stops the fork with a
TypeError, so a new component, a new field or a new attribute cannot be forgotten:

- ``COMPONENTS``: each esper component type -> SHARE (never changed once built), or its
  copier (a new instance with the same field values; the listed nested containers copied too).
- ``_clone_value``'s ``_CLONERS``: the plain values of the turn state, the resources and the
  changes (lists, dicts, sets copied element by element; atoms, enums, frozen dataclasses and
  tuples of them shared); ``RESOURCES`` and ``TURN_STATE`` name their fields shared or copied
  otherwise.
- ``SPATIAL``, ``VISIBILITY``: the spatial index's and the visibility's attributes -> how each is
  copied (a cache that holds the original's objects is dropped, made again on first use).
- ``_BATTLE_ATTRS``: every attribute of a Battle, each set by ``fork_battle``.

The esper world is copied through esper's per-world context table (``esper._context_map``):
the same entity ids, so ``battle.units`` and ``battle.models`` stay valid; each entity's
component dict copied, its mutable components copied; the component-type index copied; esper's
query caches left empty (made again on first use). The dice keep their stream's state (the
same future) unless a seed is given (a fresh stream). The events of the fork start with what the
rules read of the past (``HISTORY``): this battle round's events of the kinds they read.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import random
import weakref
from collections import deque

import esper

from sim import components as K
from sim import events as ev
from sim.rules.dice import Dice, ForcedDice, KeyedDice
from sim.world.spatial import SpatialIndex


class ForkError(RuntimeError):
    """A battle that cannot be forked now (busy resolving a command, or closed)."""


SHARE = None  # (a COMPONENTS entry: the instance is shared, it never changes once built)


def _copier(cls, *containers: str):
    """A copier for slotted dataclass ``cls``: a new instance with the same field values, the
    fields named in ``containers`` (lists, dicts, sets of plain values) copied. Written out
    field by field (as dataclasses writes its __init__): a loop over the names costs twice as
    much, and a battle has a few hundred of these to copy."""
    names = [f.name for f in dataclasses.fields(cls)]
    assert all(n.isidentifier() for n in names) and set(containers) <= set(names)
    set_ = "object.__setattr__(c, {0!r}, o.{0})" if cls.__dataclass_params__.frozen else "c.{0} = o.{0}"
    lines = [set_.format(n) if n not in containers else f"c.{n} = o.{n}.copy()" for n in names]
    src = "def copy(o):\n    c = new(cls)\n" + "".join(f"    {x}\n" for x in lines) + "    return c\n"
    scope = {"new": object.__new__, "cls": cls}
    exec(src, scope)  # noqa: S102 - source made above from the dataclass's own field names
    return scope["copy"]


_ROSTER = "roster"  # (a COMPONENTS entry: copied with its wounds the fork's Wounds components)

# Every component type of sim.components: SHARE, or how it is copied. Roster is copied apart
# (its ``wounds`` are the models' own Wounds components: the fork's). Activation exists only
# while a command is being resolved: a fork is never made then.
COMPONENTS: dict[type, object] = {
    K.ModelId: SHARE, K.Keyword: SHARE, K.Weapon: SHARE, K.Character: SHARE, K.Base: SHARE,
    K.Stats: SHARE, K.UnitMember: SHARE, K.ModelAbilities: SHARE,
    K.Unit: SHARE,  # (its models list is made by build_world and never changed after)
    K.Transport: SHARE, K.RollModifiers: SHARE, K.UnitRules: SHARE,  # (frozen)
    K.Position: _copier(K.Position),
    K.Wounds: _copier(K.Wounds),
    K.Destroyed: _copier(K.Destroyed),
    K.UnitState: _copier(K.UnitState, "model_moved"),
    K.Roster: _ROSTER,
}
NOT_AT_IDLE = (K.Activation,)


# --- plain values ----------------------------------------------------------------------------

_ATOMS = {int, float, str, bool, type(None), bytes, complex}
_SHARED_VALUE_TYPES: set[type] = set()  # frozen dataclasses and enums seen (shared)


def _clone_list(v):
    for x in v:
        if type(x) not in _ATOMS:
            return [_clone_value(x) for x in v]
    return v.copy()


def _clone_dict(v):
    for x in v.values():
        if type(x) not in _ATOMS:
            return {k: _clone_value(x) for k, x in v.items()}
    return v.copy()


def _clone_tuple(v):
    for x in v:
        t = type(x)
        if t not in _ATOMS and t not in _SHARED_VALUE_TYPES and t is not frozenset:
            out = [_clone_value(x) for x in v]
            return type(v)(*out) if hasattr(v, "_fields") else tuple(out)  # (a named tuple's fields)
    return v


_CLONERS = {list: _clone_list, dict: _clone_dict, set: set.copy, deque: deque,
            tuple: _clone_tuple, frozenset: lambda v: v}


def _clone_value(v):
    """A copy of a plain value of the battle's state that shares nothing mutable with it."""
    t = type(v)
    if t in _ATOMS or t in _SHARED_VALUE_TYPES:
        return v
    f = _CLONERS.get(t)
    if f is not None:
        return f(v)
    if issubclass(t, enum.Enum) or (dataclasses.is_dataclass(t) and t.__dataclass_params__.frozen):
        _SHARED_VALUE_TYPES.add(t)
        return v
    if issubclass(t, tuple):  # (a named tuple)
        return _clone_tuple(v)
    raise TypeError(f"fork: no copier for a value of type {t.__module__}.{t.__qualname__}")


_FIELDS: dict[type, tuple] = {}


def _clone_dataclass(o, special: dict | None = None):
    """A copy of slotted dataclass ``o``: each field through ``special`` (field -> function, or
    SHARE) else _clone_value."""
    cls = type(o)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    c = object.__new__(cls)
    special = special or {}
    for n in names:
        v = getattr(o, n)
        s = special.get(n, _clone_value)
        object.__setattr__(c, n, v if s is SHARE else s(v))
    return c


# --- the spatial index -----------------------------------------------------------------------

def _copy_array(a):
    return a.copy()


_MISSING = object()

# Every attribute of a SpatialIndex: how it is copied. Dropped: caches that hold the original's
# objects (Living reads its Roster) or are keyed by the identity of an array the fork makes
# anew; they are made again on first use.
SPATIAL = {
    "fps": list.copy, "table": lambda t: t.copy(), "unit_of": _copy_array, "_present": list.copy, "_unit_of_list": list.copy,
    "_dist": _copy_array, "_far": _copy_array, "_moved": list.copy, "_far_rows": _copy_array,
    "_owner_of_unit": list.copy, "_owner": _copy_array,
    "near": lambda near: [s.copy() for s in near],
    "contacts": lambda cs: [d.copy() for d in cs],
    "_alive_units": lambda _a: None, "enemies": lambda _d: {}, "living": lambda _d: {},
    "keywords": dict.copy, "ranged_abilities": dict.copy, "target_models": dict.copy,
    "units": lambda u: None if u is None else list(u), "off_table": set.copy,
    "bodies": SHARE,  # (a BodyIndex: immutable, made anew on every change)
    "bodies_moved": dict.copy, "bodies_removed": set.copy, "row_ids": lambda r: None if r is None else dict(r),
    "version": SHARE, "presence_version": SHARE, "layout_version": SHARE, "control_levels": lambda _c: None, "living_layout": lambda _c: None, "unit_boxes": lambda _c: None,
    "in_range_rows": lambda _c: None, "unit_places": lambda _c: None, "coherent": dict.copy,
    "rule_facts": lambda _c: None,
}


def copy_spatial(sp: SpatialIndex) -> SpatialIndex:
    new = object.__new__(SpatialIndex)
    d = new.__dict__
    for k, v in sp.__dict__.items():
        how = SPATIAL.get(k, _MISSING)
        if how is _MISSING:
            raise TypeError(f"fork: SpatialIndex.{k} is not in sim.world.fork.SPATIAL")
        d[k] = v if how is SHARE else how(v)
    return new


# --- the resources and the rest ----------------------------------------------------------------

RESOURCES = {
    "spatial": copy_spatial,
    "has_rules": SHARE, "rule_auras": SHARE, "rule_kinds": SHARE, "conferred": SHARE,  # (fixed by the scenario)
}
TURN_STATE = {"mission": SHARE, "objectives": SHARE}  # (fixed by the scenario)


def copy_dice(dice: Dice, seed: int | None, keyed: bool = False, context=lambda: None) -> Dice:
    """The dice of a fork: the same stream state (seed None), or a fresh stream from ``seed``;
    ``keyed``: KeyedDice of ``seed``, each roll's context ``context()``; a keyed fork's dice
    without a seed go on as they were (the rolls counted so far). No listener (a fork records no
    dice events unless asked)."""
    if keyed or (seed is None and type(dice) is KeyedDice):
        new = KeyedDice(dice.seed if seed is None else seed, context)
        if not keyed:
            new._seen = dict(dice._seen)
            new.count = dice.count
        return new
    if seed is not None:
        return Dice(seed)
    if type(dice) is ForcedDice:
        new = ForcedDice(list(dice._queue))
        new.count = dice.count
        return new
    if type(dice) is not Dice:
        raise TypeError(f"fork: cannot copy dice of type {type(dice).__qualname__}")
    new = object.__new__(Dice)  # (Dice() would seed a stream only to replace it)
    new.seed = dice.seed
    new.listener = None
    rng = random.Random.__new__(random.Random)
    rng.setstate(dice._rng.getstate())
    new._rng = rng
    new.count = dice.count
    return new


# The kinds of past events the rules read (the newest first, back to the start of the battle
# round at the furthest): sim.phases.oaths._destroyed_this_round (back to the ROUND event),
# sim.world.rule_effects.targeted_this_phase (back to the PHASE event),
# sim.systems.rule_effects.mark_after_attacks (back to the COMMAND: the current one's only).
HISTORY = frozenset({ev.ROUND, ev.PHASE, ev.COMMAND, ev.UNIT_DESTROYED, ev.WEAPONS_SELECTED, ev.CHARGE})


def history(events: list) -> list:
    """What a fork keeps of the battle's events: those of the kinds in HISTORY since the
    start of the current battle round (every one before battle round 1). The event dicts are
    shared: an event is never changed once recorded."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i]["type"] == ev.ROUND:
            start = i
            break
    return [e for e in itertools.islice(events, start, None) if e["type"] in HISTORY]


def copy_world(battle) -> tuple:
    """A copy of the battle's esper world context (the tuple esper keeps per world: its entity
    counter, component index, entities, dead entities, query caches, processors...), the battle's
    world being the current one (esper's module globals hold it then). The same entity ids; the
    query caches and processors start empty."""
    if esper.current_world != battle.world:
        raise ForkError("fork: the battle's world is not the current one")
    entities = esper._entities
    for t in NOT_AT_IDLE:
        if t in esper._components:
            raise ForkError(f"fork: a {t.__name__} component is in the world (a command is being resolved)")
    new_entities = {e: comps.copy() for e, comps in entities.items()}
    rosters = []
    wounds_map: dict[int, K.Wounds] = {}
    for t, ents in esper._components.items():
        how = COMPONENTS.get(t, _MISSING)
        if how is SHARE:
            continue
        if how is _MISSING:
            raise TypeError(f"fork: component {t.__module__}.{t.__qualname__} is not in "
                            "sim.world.fork.COMPONENTS")
        if how is _ROSTER:
            rosters.extend(ents)
            continue
        if t is K.Wounds:
            for e in ents:
                old = entities[e][t]
                new_entities[e][t] = wounds_map[id(old)] = how(old)
        else:
            for e in ents:
                new_entities[e][t] = how(entities[e][t])
    for e in rosters:
        old = entities[e][K.Roster]
        new = _copy_roster(old)
        new.wounds = tuple([wounds_map[id(w)] for w in old.wounds])
        new_entities[e][K.Roster] = new
    nxt = next(esper._entity_count)  # (the original's counter goes on from the same number)
    esper._entity_count = itertools.count(nxt)
    components = {t: s.copy() for t, s in esper._components.items()}
    context = (itertools.count(nxt), components, new_entities, set(esper._dead_entities),
               {}, {}, [], {}, False, {}, {})
    return context


_copy_roster = _copier(K.Roster)


def fork_battle(battle, world: str, seed: int | None = None, record_dice: bool = False,
                keyed: bool = False, into=None):
    """Battle.fork's copy: a new battle of the same class whose esper world ``world`` is a copy
    of ``battle``'s (added to esper's table; the battle's world stays the current one), with
    everything but its systems (Battle.fork registers them in the new world). ``keyed``: its
    dice are KeyedDice of ``seed``, each roll's context the unit whose attacks resolve; a fork
    of a keyed fork without a seed goes on with its dice (as a fork of a stream does).
    ``into``: a Battle of that class not yet set up, to make the copy in (its constructor's,
    sim.world.templates) instead of a new one."""
    if keyed and seed is None:
        raise ForkError("fork: keyed dice need a seed")
    if battle.resources is None:
        raise ForkError("fork: the battle is closed")
    if battle.busy:
        raise ForkError("fork: the battle is resolving a command (fork it where a player chooses one)")
    battle._enter()
    unknown = set(vars(battle)) - _BATTLE_ATTRS
    if unknown:
        raise TypeError(f"fork: Battle attributes not in sim.world.fork._BATTLE_ATTRS: {sorted(unknown)}")
    context = copy_world(battle)

    f = object.__new__(type(battle)) if into is None else into
    f.scenario = battle.scenario
    f.seed = battle.seed if seed is None else int(seed)
    f.world = world
    f.events = history(battle.events)
    f.listeners = []
    ref = weakref.ref(f)  # (no cycle: a closed fork is freed by reference counting)
    f.dice = copy_dice(battle.dice, seed, keyed, lambda: ref().activation_unit)
    if record_dice:
        f.dice.listener = f._on_roll
    f.pending = None
    f._answers = _clone_dict(battle._answers)
    f.queue = deque()
    f.action = None
    f.activation_unit = None
    f.activation = None
    f.turn = battle.turn
    ts = battle.turn_state
    f.turn_state = None if ts is None else _clone_dataclass(ts, TURN_STATE)
    f.commands_done = battle.commands_done
    f.units = battle.units  # (fixed once the world is built: shared)
    f.models = battle.models
    f.validated = None
    f._checked = None
    f.scenario_allocation_orders = battle.scenario_allocation_orders  # (fixed by the scenario)
    f.resources = _clone_dataclass(battle.resources, RESOURCES)
    f.forked_from = battle.world
    f.forked_events = len(f.events)
    f._origin = weakref.ref(battle)
    f.systems = f.settling = ()
    # the visibility: the original's brought up to date (what Changes says it is behind on
    # taken in), then copied (its index's copy shares only what the index never changes)
    v = battle.visibility
    f.changes = _clone_dataclass(battle.changes)
    f._visibility = None
    if v is not None:
        nv = object.__new__(type(v))
        for k, val in vars(v).items():
            how = VISIBILITY.get(k, _MISSING)
            if how is _MISSING:
                raise TypeError(f"fork: BattleVisibility.{k} is not in sim.world.fork.VISIBILITY")
            setattr(nv, k, val if how is SHARE else how(val))
        nv.battle = f
        f._visibility = nv
    esper._context_map[world] = context
    return f


VISIBILITY = {
    "battle": SHARE,  # (set to the fork's after)
    "index": lambda ix: ix.copy(),
    "_lone_units": list.copy, "rules": SHARE, "_limited": set.copy, "_limits_key": SHARE,
    "_attacked": dict.copy,
}

# Attributes shared by design, by the qualified name of the class of the object holding them (the
# fork's copy holds the original's): fixed by the scenario, or never changed in place.
SHARED_ATTRS: dict[str, frozenset] = {
    "sim.world.spatial.SpatialIndex": frozenset(k for k, v in SPATIAL.items() if v is SHARE),
    "sim.world.resources.Resources": frozenset(k for k, v in RESOURCES.items() if v is SHARE),
    "sim.phases.state.TurnState": frozenset(k for k, v in TURN_STATE.items() if v is SHARE),
    # VisibilityIndex.copy: "arrays and the containers the index changes copied, the rest
    # (terrain blockers, ids, fixed pair lists) shared"
    "sim.rules.visibility.index.VisibilityIndex": frozenset({"blk", "_all_pairs", "_area_edges"}),
    "sim.systems.attack_resolution.AttackResolutionSystem": frozenset({"_steps"}),  # (its class's)
    "sim.components.Roster": frozenset(f.name for f in dataclasses.fields(K.Roster)) - {"wounds"},
}


# Every attribute of a Battle (Battle.__init__); fork_battle sets each on the fork.
_BATTLE_ATTRS = frozenset({
    "scenario", "seed", "world", "events", "listeners", "dice", "pending", "_answers", "queue",
    "action", "activation_unit", "activation", "turn", "turn_state", "commands_done", "units",
    "models", "_visibility", "validated", "_checked", "scenario_allocation_orders", "resources",
    "changes", "systems", "settling", "forked_from", "forked_events", "_origin",
})

