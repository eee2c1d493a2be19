"""State by declaration: the state hash, and the resets, read off the state dataclasses' fields.

The state hash (Battle.state_hash, written after every command of a replay log) covers every
declared field of the state dataclasses, as OpenRA's sync fields feed its sync hash: a field
added to ``UnitState``, ``TurnState``, a model's ``Position``, ``Wounds`` or ``Destroyed`` or
the battle's ``Resources`` is hashed without anyone remembering to add it. A field the hash
need not cover says so, and why, in its declaration; so does a field that goes back to its
default at a turn's end or when a phase begins. The metadata vocabulary
(``dataclasses.field(..., metadata={...})``):

- ``"cache": "why"``: not hashed, for the reason given (derived from hashed state, or fixed by
  the scenario, whose digest the replay log's header holds). The reason is required.
- ``"ids": "unit"`` or ``"model"``: the field holds unit (model) entities, shown by their
  stable ids (``"r-squad1"``, ``"r-squad1/3"``) so that a state reads as the battle does: the
  value itself, a collection's elements or a dict's keys.
- ``"reset": "turn"`` or ``"phase"``: :func:`reset` puts it back to its declared default at
  the end of each turn (upkeep.roll_over_turn) or when a phase begins (battle_round).

The canonical form is JSON: a dataclass is a dict of its hashed fields by name, leaving out
each field that shows as its declared default does (the declaration says what that is: the
form stays small, and a state reads as what differs from a fresh one); sets are sorted, floats
rounded to 6 places, enums shown by value, entities by id; dict keys are sorted when written.
Which components are state, and why the others are not, is declared here too: MODEL_STATE,
UNIT_STATE and NOT_STATE name every dataclass of sim.components between them (a test checks
it). Nothing here writes what it is given except :func:`reset`, which writes the one object it
is given; what this module keeps (each class's plan and the reset function written from it,
the memoised texts) are caches of answers that never change, never a battle's state.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict, deque
from enum import Enum
from json.encoder import encode_basestring_ascii as _string
from operator import attrgetter

from sim.components import (Activation, Base, Character, Destroyed, Keyword, ModelAbilities, ModelId,
                            Position, RollModifiers, Roster, Stats, Transport, Unit, UnitMember, UnitRules,
                            UnitState, Weapon, Wounds)

CACHE, IDS, RESET = "cache", "ids", "reset"
ID_KINDS = ("unit", "model")
SCOPES = ("turn", "phase")

# The components that change during a battle, hashed per model and per unit (by class name)
MODEL_STATE = (Position, Wounds, Destroyed)
UNIT_STATE = (UnitState,)
# The other components, and why the hash need not read them
NOT_STATE = {
    ModelId: "the model's identity: the key its state is shown under",
    Unit: "the unit's identity, owner and models: the key its state is shown under; fixed",
    Keyword: "fixed by the scenario (its digest is in the log's header)",
    Weapon: "fixed by the scenario",
    Character: "fixed by the scenario",
    Base: "fixed by the scenario: no rule changes a base (a model turned keeps its facing in "
          "its Position, hashed)",
    Stats: "fixed by the scenario",
    UnitMember: "fixed by the scenario",
    ModelAbilities: "fixed by the scenario",
    RollModifiers: "fixed by the scenario",
    UnitRules: "fixed by the scenario (its rules' choices and uses are the battle's Resources)",
    Transport: "fixed by the scenario (18.01 a transport's capacity)",
    Roster: "derived from the model components when the world is built (its wounds are the "
            "models' own Wounds, hashed)",
    Activation: "lives only while a command resolves; the hash is taken between commands",
}

_PLAIN = frozenset((bool, int, str, type(None)))
_SCALARS = _PLAIN | {float}
_NO_DEFAULT = object()
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))  # (one, not one per text)
_MEMO_SIZE = 1 << 14  # texts kept per class and signature before its memo starts again


# --- the declarations -----------------------------------------------------------------------

def _declared(cls: type) -> tuple[dataclasses.Field, ...]:
    """The fields of ``cls``, their metadata checked against the vocabulary (a misspelt key or
    an empty reason is an error, not a field silently hashed or never reset)."""
    out = dataclasses.fields(cls)
    for f in out:
        meta, where = f.metadata, f"{cls.__name__}.{f.name}"
        for key in meta:
            if key not in (CACHE, IDS, RESET):
                raise ValueError(f"{where}: expected metadata keys {CACHE!r}, {IDS!r}, {RESET!r}, found {key!r}")
        if CACHE in meta and not (isinstance(meta[CACHE], str) and meta[CACHE].strip()):
            raise ValueError(f"{where}: expected the reason it is not hashed, found {meta[CACHE]!r}")
        if IDS in meta and meta[IDS] not in ID_KINDS:
            raise ValueError(f"{where}: expected ids of {' or '.join(ID_KINDS)}, found {meta[IDS]!r}")
        if RESET in meta and meta[RESET] not in SCOPES:
            raise ValueError(f"{where}: expected a reset scope of {' or '.join(SCOPES)}, found {meta[RESET]!r}")
    return out


def _default(f: dataclasses.Field):
    """The field's declared default (a fresh one from its factory), or _NO_DEFAULT."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return _NO_DEFAULT


@dataclasses.dataclass(frozen=True, slots=True)
class _Plan:
    """How one class is hashed, made once per class (_plan): its hashed fields' names in
    declared order; ``values``, the tuple of those fields' values of each of a list of
    objects; its ``encode``, written out for it (_compile); its memos of texts by signature
    of types (_memo_texts; None for a class with entity fields, whose text depends on the
    battle's ids, or with a field that defaults to a container)."""

    names: tuple[str, ...]
    values: object
    encode: object
    memos: dict | None


_plans: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    plan = _plans.get(cls)
    if plan is None:
        fs = [f for f in _declared(cls) if CACHE not in f.metadata]
        names = tuple(f.name for f in fs)
        kinds = tuple(f.metadata.get(IDS) for f in fs)
        if len(names) == 1:  # (an attrgetter of one name gives the value, not a 1-tuple)
            values = (lambda objs, g=attrgetter(*names): list(zip(map(g, objs))))
        elif names:
            values = (lambda objs, g=attrgetter(*names): list(map(g, objs)))
        else:
            values = (lambda objs: [()] * len(objs))
        raw = tuple(_default(f) for f in fs)
        shown = tuple(d if d is _NO_DEFAULT else canonical(d, None) for d in raw)
        # (texts are memoised only for fields of plain scalars: no entities, no containers)
        scalars = not any(kinds) and all(d is _NO_DEFAULT or type(d) in _SCALARS for d in raw)
        plan = _plans[cls] = _Plan(names, values, _compile(names, kinds, raw, shown),
                                   {} if scalars else None)
    return plan


def _compile(names, kinds, raw_defaults, shown_defaults):
    """The ``encode`` of one class, written out field by field from its plan (as dataclasses
    writes an __init__): each field shown (canonical, or its entities by id) and kept unless
    it shows as its declared default does (compared as shown: a ``moved`` of 1e-9 shows as
    0.0, the default; a value equal to the default and of its type is not shown at all). A
    loop over the plan does the same at several times the cost, and this runs for most units
    after every command."""
    env = {"P": _PLAIN, "C": canonical, "E": _entities}
    src = ["def encode(o, ids):", "    out = {}"]
    for i, (name, kind, r, d) in enumerate(zip(names, kinds, raw_defaults, shown_defaults)):
        env[f"r{i}"], env[f"rt{i}"], env[f"d{i}"], env[f"t{i}"] = r, type(r), d, type(d)
        src.append(f"    v = o.{name}")
        show = ("v if type(v) in P else round(v, 6) + 0.0 if type(v) is float else C(v, ids)"
                if kind is None else f"E(v, ids[{kind!r}], ids)")
        if r is _NO_DEFAULT:
            src.append(f"    out[{name!r}] = {show}")
        elif kind is None and (r is None or r is False or r is True):
            # (a default that is a singleton: only that very object shows as it does)
            src.append(f"    if v is not r{i}:")
            src.append(f"        out[{name!r}] = {show}")
        else:
            src.append(f"    if v != r{i} or type(v) is not rt{i}:")
            src.append(f"        c = {show}")
            src.append(f"        if c != d{i} or type(c) is not t{i}:")
            src.append(f"            out[{name!r}] = c")
    src.append("    return out")
    exec("\n".join(src), env)
    return env["encode"]


def hashed_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields of ``cls`` the hash covers: every one not marked ``cache``."""
    return _plan(cls).names


# --- the canonical form ---------------------------------------------------------------------

def encode(obj, ids: dict[str, dict[int, str]] | None) -> dict:
    """The canonical form of a state dataclass: its hashed fields by name, each one that shows
    as its declared default left out. ``ids`` maps "unit" and "model" to {entity: stable id}."""
    return (_plans.get(type(obj)) or _plan(type(obj))).encode(obj, ids)


def canonical(v, ids: dict[str, dict[int, str]] | None):
    """The canonical JSON-safe form of a value: floats rounded to 6 places (-0.0 as 0.0), enums
    by value, sets sorted, tuples as lists, dataclasses by :func:`encode`. Any other type is an
    error naming it (a new kind of state must say how it is shown)."""
    t = type(v)
    if t in _PLAIN:
        return v
    if t is float:
        return round(v, 6) + 0.0
    plan = _plans.get(t)
    if plan is not None:  # (a dataclass met before)
        return plan.encode(v, ids)
    if t is list or t is tuple:
        return [canonical(x, ids) for x in v]
    if t is set or t is frozenset:
        return sorted(canonical(x, ids) for x in v)
    if t is dict:
        return {(k if type(k) is str else _key(canonical(k, ids))):
                (x if type(x) in _PLAIN else round(x, 6) + 0.0 if type(x) is float else canonical(x, ids))
                for k, x in v.items()}
    if isinstance(v, Enum):
        return v.value
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return encode(v, ids)
    if isinstance(v, float):  # (a numpy float, say)
        return round(float(v), 6) + 0.0
    if isinstance(v, int):
        return int(v)
    raise TypeError(f"the state hash cannot show a {t.__name__}: {v!r}")


def _key(k) -> str:
    return k if type(k) is str else json.dumps(k)


def _entities(v, names: dict[int, str], ids):
    """An ``ids`` field's value with its entities shown by id: the value itself, a list's or a
    set's elements (a set sorted by id), a dict's keys."""
    t = type(v)
    if v is None:
        return None
    if t is int:
        return names[v]
    if t is list or t is tuple:
        return [names[e] for e in v]
    if t is set or t is frozenset:
        return sorted(names[e] for e in v)
    if t is dict:
        return {names[k]: canonical(x, ids) for k, x in v.items()}
    raise TypeError(f"the state hash cannot show entities held in a {t.__name__}: {v!r}")


def entity_state(components: dict[type, list], names: dict[int, str], ids) -> dict:
    """Per entity (by stable id), its state components by class name: ``components`` maps each
    class to its (entity, component) pairs (esper.get_component's answer)."""
    out: dict[str, dict] = defaultdict(dict)
    for cls, pairs in components.items():
        enc, key = _plan(cls).encode, cls.__name__
        for ent, comp in pairs:
            out[names[ent]][key] = enc(comp, ids)
    return dict(out)


# --- the same written as text, for the hash (it runs after every command) ---------------------

def _memo_texts(cls: type, objs) -> list[str] | None:
    """The canonical JSON text of each of ``objs`` (all of class ``cls``), memoised, or None
    when that cannot be done exactly. When the class has no entity fields and each of its
    hashed fields holds one plain scalar type across ``objs`` (a float in every x), the values
    alone say what the text is: the texts are memoised on them (most models' positions and
    wounds stay the same from one command to the next), one memo per signature of types, so
    that 1, 1.0 and True are never taken for one another; the look-ups go column-wise, with
    no Python step per object."""
    plan = _plan(cls)
    if plan.memos is None or not objs:
        return None
    values = plan.values(objs)
    signature = tuple(map(_one_scalar_type, zip(*values)))
    if None in signature:
        return None
    memo = plan.memos.get(signature)
    if memo is None or len(memo) >= _MEMO_SIZE:
        memo = plan.memos[signature] = {}
    texts = list(map(memo.get, values))
    if None in texts:
        for i, t in enumerate(texts):
            if t is None:
                texts[i] = memo[values[i]] = _ENCODER.encode(plan.encode(objs[i], None))
    return texts


def _one_scalar_type(column) -> type | None:
    """The one type of a column of values, when there is one and it is a plain scalar."""
    types = set(map(type, column))
    return types.pop() if len(types) == 1 and types <= _SCALARS else None


def entity_texts(components: dict[type, list], names: dict[int, str], ids) -> str:
    """The canonical JSON text of ``entity_state(components, names, ids)``: from each
    component's memoised text (_memo_texts) when every class has them, column by column; else
    entity_state written in one go."""
    parts: defaultdict[str, list[str]] = defaultdict(list)
    for cls in sorted(components, key=lambda c: c.__name__):  # (each entity's keys in order)
        pairs = components[cls]
        if pairs:
            ents, objs = zip(*pairs)
            texts = _memo_texts(cls, objs)
            if texts is None:
                return _dumps(entity_state(components, names, ids))
            key = _string(cls.__name__) + ":"
            deque(map(list.append, map(parts.__getitem__, map(names.__getitem__, ents)),
                      map(key.__add__, texts)), maxlen=0)
    return "{" + ",".join([_string(n) + ":{" + ",".join(p) + "}" for n, p in sorted(parts.items())]) + "}"


def _dumps(value) -> str:
    """The canonical JSON text of a canonical value: keys sorted, no spaces."""
    return _ENCODER.encode(value)


# --- a battle -------------------------------------------------------------------------------

def _battle(turn, ids, models, units, reserves, resources, turn_state, entities, value) -> dict:
    """The parts of a battle's state, made by ``entities`` (the models and units) and
    ``value`` (the others): battle_state's dict, or battle_digest's texts."""
    parts = {"turn": value(turn),
             "models": entities(models, ids["model"], ids),
             "units": entities(units, ids["unit"], ids),
             "reserves": value(_entities(reserves, ids["unit"], ids)),
             "resources": value(encode(resources, ids))}
    if turn_state is not None:
        parts["battle"] = value(encode(turn_state, ids))
    return parts


def battle_state(turn: int, ids, *, models: dict[type, list], units: dict[type, list],
                 reserves, resources, turn_state) -> dict:
    """The canonical state of a battle: the turn count, each model's and each unit's state
    components (``models``, ``units``: class -> its (entity, component) pairs), the units in
    strategic reserves (the spatial index's ``off_table``, 20), the battle's ``Resources`` (the
    casualties awaiting removal), and in a battle with a mission its ``TurnState`` (None in
    free play: the state has what free play has). ``ids``: "unit" and "model" ->
    {entity: stable id}."""
    return _battle(turn, ids, models, units, reserves, resources, turn_state, entity_state,
                   lambda v: v)


def battle_digest(turn: int, ids, *, models: dict[type, list], units: dict[type, list],
                  reserves, resources, turn_state) -> str:
    """``digest(battle_state(...))`` of the same arguments, written part by part (the models'
    and units' components by entity_texts)."""
    parts = _battle(turn, ids, models, units, reserves, resources, turn_state, entity_texts, _dumps)
    blob = "{" + ",".join([_string(k) + ":" + t for k, t in sorted(parts.items())]) + "}"
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def digest(state: dict) -> str:
    """The state hash: 16 hex digits of the sha256 of the canonical JSON text."""
    return hashlib.sha256(_dumps(state).encode()).hexdigest()[:16]


# --- resets ---------------------------------------------------------------------------------

_resets: dict[tuple[type, str], tuple] = {}


def reset_fields(cls: type, scope: str) -> tuple[tuple[str, object, object], ...]:
    """(name, default, default factory or None) of each field of ``cls`` declared to reset in
    ``scope``, in declared order."""
    key = (cls, scope)
    plan = _resets.get(key)
    if plan is None:
        if scope not in SCOPES:
            raise ValueError(f"expected a reset scope of {' or '.join(SCOPES)}, found {scope!r}")
        plan = []
        for f in _declared(cls):
            if f.metadata.get(RESET) != scope:
                continue
            factory = None if f.default_factory is dataclasses.MISSING else f.default_factory
            if factory is None and f.default is dataclasses.MISSING:
                raise ValueError(f"{cls.__name__}.{f.name}: resets each {scope}, so it needs a default")
            plan.append((f.name, f.default, factory))
        plan = _resets[key] = tuple(plan)
    return plan


_reset_functions: dict[tuple[type, str], object] = {}


def reset(obj, scope: str) -> None:
    """Put each field of ``obj`` declared ``reset: scope`` back to its declared default (a
    fresh one from its default factory)."""
    fn = _reset_functions.get((type(obj), scope))
    if fn is None:
        fn = _reset_functions[type(obj), scope] = _reset_function(type(obj), scope)
    fn(obj)


def _reset_function(cls: type, scope: str):
    """``reset`` for ``cls`` and ``scope``: one function assigning each field of reset_fields'
    plan in turn (the default, or a fresh one from its factory), written as dataclasses writes
    its ``__init__``: an assignment a field instead of a setattr call (the end of each turn
    resets some twenty fields of each unit touched: 1.2 us a unit by setattr, 0.2 us so)."""
    ns: dict[str, object] = {}
    lines = []
    for k, (name, default, factory) in enumerate(reset_fields(cls, scope)):
        if not name.isidentifier():  # (a dataclass field always is: this makes the text safe)
            raise ValueError(f"{cls.__name__}: {name!r} is no field name")
        if factory is None:
            ns[f"d{k}"] = default
            lines.append(f"    o.{name} = d{k}")
        else:
            ns[f"f{k}"] = factory
            lines.append(f"    o.{name} = f{k}()")
    text = "def reset(o):\n" + ("\n".join(lines) or "    pass")
    exec(compile(text, f"<reset {cls.__qualname__} {scope}>", "exec"), ns)
    return ns["reset"]
