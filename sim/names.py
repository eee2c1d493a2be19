"""The name a person reads for a unit (issue 28 item 1): one home for it, used by the sandbox's
panels, buttons, dice tray, status line and log, ``sim run``'s report and the CLI's other text.
Ids stay where a machine reads them (``--json``, replay logs).

A unit is shown by its datasheet name ("Raider Mob"); when two or more units of the battle
share that name, each is numbered in the scenario's order: "Raider Mob (1)", "Raider Mob (2)"
(numbered from 1, the order a person reads the roster in). Pure: reads only the scenario's unit
specs (ids, names), so a name never changes during a battle, and a destroyed unit keeps its own.
"""

from __future__ import annotations

import re
from collections import Counter

from sim.rules.turn import PLAYER


def unit_names(units) -> dict[str, str]:
    """{unit id: the name a person reads}, from ``units``: (id, name) pairs or objects with
    ``id`` and ``name`` (a scenario's UnitSpecs), in the scenario's order."""
    pairs = [tuple(u) if isinstance(u, tuple) else (u.id, u.name) for u in units]
    count = Counter(name for _uid, name in pairs)
    seen: Counter = Counter()
    out = {}
    for uid, name in pairs:
        if count[name] > 1:
            seen[name] += 1
            out[uid] = f"{name} ({seen[name]})"
        else:
            out[uid] = name
    return out


def model_names(units) -> dict[str, str]:
    """{model id: the name a person reads}, from a scenario's UnitSpecs: the model's name,
    numbered from 1 within its unit when several of the unit's models share it ("Raider 3")."""
    out = {}
    for us in units:
        count = Counter(ms.name for ms in us.models)
        seen: Counter = Counter()
        for ms in us.models:
            if count[ms.name] > 1:
                seen[ms.name] += 1
                out[ms.id] = f"{ms.name} {seen[ms.name]}"
            else:
                out[ms.id] = ms.name
    return out


def model_of_unit(model: str, unit: str) -> str:
    """"Raider 1 of Raider Mob (2)": a model's name with its unit's shown name, the one form
    for a model whose unit the text does not otherwise make clear."""
    return f"{model} of {unit}"


def models_with_units(units) -> dict[str, str]:
    """{model id: the name a person reads where the text does not say its unit}: model_names,
    each with its unit's shown name (model_of_unit) when another unit has a model of the same
    datasheet name ("Raider 1" in two Raider Mobs); a model no other unit has stays as it is."""
    units = list(units)
    shown = unit_names(units)
    models = model_names(units)
    holders: dict[str, set] = {}  # (a datasheet model name: the units that have such a model)
    for us in units:
        for ms in us.models:
            holders.setdefault(ms.name, set()).add(us.id)
    return {ms.id: model_of_unit(models[ms.id], shown[us.id]) if len(holders[ms.name]) > 1 else models[ms.id]
            for us in units for ms in us.models}


def models_in_units(units) -> dict[str, tuple[str, str]]:
    """{model id: (its unit's id, the model's name: model_names)}, from a scenario's UnitSpecs
    (for models_by_unit)."""
    units = list(units)
    models = model_names(units)
    return {ms.id: (us.id, models[ms.id]) for us in units for ms in us.models}


def models_by_unit(mids, models: dict[str, tuple[str, str]], names: dict[str, str]) -> str:
    """A list of models as a person reads it, grouped by unit in order of first mention: a
    unit's several models counted ("3 of Raider Mob (2)"), a unit's one model named with its
    unit (model_of_unit: "Warden Sergeant of Warden Squad"). ``models``: models_in_units;
    ``names``: the units' names (a unit not in it by its id)."""
    by_unit: dict[str, list[str]] = {}
    for mid in mids:
        by_unit.setdefault(models[mid][0], []).append(mid)
    return ", ".join(f"{len(ms)} of {name(names, uid)}" if len(ms) > 1 else
                     model_of_unit(models[ms[0]][1], name(names, uid)) for uid, ms in by_unit.items())


# (the lists of models that in_words reads grouped by unit, given the models: an attack's
# casualties, "removed: r-squad2/1, r-squad2/3, w-squad1/4", report.describe's line)
_LISTED = re.compile(r"(removed: )([^;\n]+)")


def _grouped(text: str, models: dict[str, tuple[str, str]], names: dict[str, str]) -> str:
    def sub(m):
        mids = m.group(2).split(", ")
        if not all(mid in models for mid in mids):
            return m.group(0)  # ("none", or names already: left as it is)
        return m.group(1) + models_by_unit(mids, models, names)
    return _LISTED.sub(sub, text)


def _cached(table: dict, battle, make) -> dict[str, str]:
    """``make(spec.units)`` for the battle's scenario, kept in ``table`` per scenario object
    (a long session's many tables: the last 64)."""
    spec = battle.scenario
    cache = table.get(id(spec))
    if cache is None or cache[0] is not spec:
        cache = table[id(spec)] = (spec, make(spec.units))
        if len(table) > 64:
            table.pop(next(iter(table)))
    return cache[1]


_CACHE: dict[int, tuple] = {}
_MCACHE: dict[int, tuple] = {}
_WCACHE: dict[int, tuple] = {}
_UCACHE: dict[int, tuple] = {}


def of_battle(battle) -> dict[str, str]:
    """The names of a battle's units (its scenario's units, cached on the scenario object)."""
    return _cached(_CACHE, battle, unit_names)


def models_of_battle(battle) -> dict[str, str]:
    """The names of a battle's models (model_names of its scenario, cached like of_battle)."""
    return _cached(_MCACHE, battle, model_names)


def models_with_units_of_battle(battle) -> dict[str, str]:
    """models_with_units of a battle's scenario (cached like of_battle)."""
    return _cached(_WCACHE, battle, models_with_units)


def models_in_units_of_battle(battle) -> dict[str, tuple[str, str]]:
    """models_in_units of a battle's scenario (cached like of_battle)."""
    return _cached(_UCACHE, battle, models_in_units)


def name(names: dict[str, str], uid: str) -> str:
    """The name of unit ``uid`` (the id itself for a unit not in ``names``)."""
    return names.get(uid, uid)


def in_words(text: str, names: dict[str, str], models: dict[str, tuple[str, str]] | None = None) -> str:
    """``text`` with every unit id in it (a whole word: not part of a longer id or a model id
    such as "w-retinue/2") read as the unit's name; a possessive follows the name ("blue's"
    read as "Raiders'", "red's" as "Iron Host's"). The one home that turns engine text (a
    refusal, a reason, an event's line, a decision's prompt) into people's words: ``names``
    also maps the players (sides_of_battle) when the text is the engine's. Given ``models``
    (models_in_units), a list of removed models reads grouped by unit (models_by_unit:
    "removed: 3 of Raider Mob (2), Warden Sergeant of Warden Squad")."""
    if text and "(" in text:
        text = plural_words(text)
    if not text or not names:
        return text
    if models and "removed: " in text:
        text = _grouped(text, models, names)
    rx = _pattern(names)
    return rx.sub(lambda m: possessive(names[m.group(1)]) if m.group(2) else names[m.group(1)], text)


_PLURAL = re.compile(r"\b(\d+) ((?:[A-Za-z-]+ ){0,2})([A-Za-z-]+)\((e?s)\)")
_BARE_PLURAL = re.compile(r"\b([A-Za-z-]+)\((e?s)\)")


def plural_words(text: str) -> str:
    """Engine text (a log line, a rule's progress) with its "(s)" counts in words a person
    reads: "1 enemy unit(s)" as "1 enemy unit", "0 objective marker(s)" as "0 objective
    markers", an uncounted "weapon(s)" as "weapons". The engine's own text is unchanged (logs
    and replays keep it); this is how it is shown."""
    text = _PLURAL.sub(lambda m: f"{m.group(1)} {m.group(2)}{m.group(3)}{'' if m.group(1) == '1' else m.group(4)}",
                       text)
    return _BARE_PLURAL.sub(lambda m: m.group(1) + m.group(2), text)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun in words a person reads: "1 model", "3 models" (never "model(s)")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def possessive(name: str) -> str:
    """"Wardens'", "Iron Host's": the possessive of a name a person reads."""
    return name + ("'" if name.endswith("s") else "'s")


def sides_of_battle(battle) -> dict[str, str]:
    """{player key ("red", "blue": sim.rules.turn.PLAYER): the army's name}, the players as a
    person reads them ("Wardens"); the engine's texts name them by key (logs, refusals)."""
    return dict(zip(PLAYER, (a.name for a in battle.scenario.armies)))


def everything_of_battle(battle) -> dict[str, str]:
    """Unit and model ids of a battle with their names (for in_words on a line that names both)."""
    return {**models_of_battle(battle), **of_battle(battle)}


def everything_with_units_of_battle(battle) -> dict[str, str]:
    """everything_of_battle with each model whose unit a line does not make clear read with it
    (models_with_units: "Raider 1 of Raider Mob (2)")."""
    return {**models_with_units_of_battle(battle), **of_battle(battle)}


def ids_named(event, known) -> list[str]:
    """The ids an event names: its string values (nested ones too, its ``type`` left out) that
    ``known`` accepts, in order of first mention (the units and models a person sees named)."""
    out: dict[str, None] = {}

    def walk(v):
        if isinstance(v, str):
            if known(v):
                out[v] = None
        elif isinstance(v, dict):
            for k, x in v.items():
                if k != "type":
                    walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
    walk(event)
    return list(out)


def ids_in(text: str, names: dict[str, str]) -> list[str]:
    """The unit ids ``text`` names, in order of first mention."""
    if not text or not names:
        return []
    return list(dict.fromkeys(m.group(1) for m in _pattern(names).finditer(text)))


_RX: dict[tuple, re.Pattern] = {}


def _pattern(names: dict[str, str]) -> re.Pattern:
    key = tuple(names)
    rx = _RX.get(key)
    if rx is None:
        ids = sorted(names, key=len, reverse=True)  # (the longest first: "a-b1" before "a-b")
        rx = re.compile(r"(?<![\w/-])(" + "|".join(re.escape(u) for u in ids) + r")(?![\w/-])('s\b)?")
        if len(_RX) > 64:
            _RX.clear()
        _RX[key] = rx
    return rx
