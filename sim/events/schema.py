"""How an event type is declared, and how an event is checked against its declaration.

A declaration is a ``TypedDict`` whose every field is ``Annotated`` with what it holds, in
words, and ``NotRequired`` when an event of the type may leave it out. ``declare(name)`` files it
under its type's name (a constant of sim.events) in its module's table; sim.events.declared
gathers the tables. The declarations are static types: the engine builds its events as plain
dicts (the attack path as one dict display each) and never checks them. Tests and tools do,
with ``problems``.

(No ``from __future__ import annotations`` in the declaring modules: on Python 3.11 a TypedDict
whose annotations are strings does not see ``NotRequired``.)
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin


@dataclass(frozen=True)
class Field:
    """One declared field of an event (or of a record inside one)."""

    name: str
    holds: str  # what it holds, in words
    kind: object  # its type: the annotation without Annotated and NotRequired
    optional: bool  # an event may leave it out


def registrar(table: dict[str, type]):
    """A ``declare(name)`` decorator filing declarations in ``table`` (type name -> TypedDict)."""
    def declare(name: str):
        def add(cls):
            if name in table:
                raise ValueError(f"event type {name!r} declared twice ({table[name].__name__}, {cls.__name__})")
            table[name] = cls
            return cls
        return add
    return declare


@functools.cache
def fields(declaration) -> dict[str, Field]:
    """The declared fields of a TypedDict, by name, in declaration order."""
    out = {}
    optional = declaration.__optional_keys__
    for name, hint in typing.get_type_hints(declaration, include_extras=True).items():
        holds, kind = "", hint
        while True:
            origin = get_origin(kind)
            if origin in (NotRequired, Required):
                kind = get_args(kind)[0]
            elif origin is Annotated:
                holds, kind = kind.__metadata__[0], kind.__origin__
            else:
                break
        out[name] = Field(name, holds, kind, name in optional)
    return out


def problems(event, table: dict[str, type]) -> list[str]:
    """What is wrong with ``event`` against its type's declaration in ``table``: its type not
    declared, a field it has that is not declared, a required field missing, a value not of
    the declared type (records inside checked the same way). Empty when it matches."""
    if not isinstance(event, dict):
        return [f"an event is a dict, found {_show(event)}"]
    declaration = table.get(event.get("type"))
    if declaration is None:
        return [f"event type {event.get('type')!r} is not declared (sim.events)"]
    return _record(event, declaration, repr(event["type"]))


def _record(value: dict, declaration, where: str) -> list[str]:
    declared = fields(declaration)
    out = [f"{where}: field {k!r} is not declared" for k in value if k not in declared]
    out += [f"{where}: required field {k!r} is missing" for k, f in declared.items()
            if not f.optional and k not in value]
    for k, v in value.items():
        f = declared.get(k)
        if f is not None:
            bad = _mismatch(v, f.kind, f"{where}.{k}")
            if bad:
                out.append(bad)
    return out


def _mismatch(value, kind, where: str) -> str | None:
    """Why ``value`` is not of the declared ``kind``, or None. JSON-safe values: a list may
    stand for a tuple (the logs hold lists), an int for a float; a bool is never an int."""
    if kind is Any:
        return None
    if kind is None or kind is type(None):
        return None if value is None else f"{where}: expected null, found {_show(value)}"
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if any(_mismatch(value, k, where) is None for k in options):
            return None
        records = [k for k in options if typing.is_typeddict(k)] if isinstance(value, dict) else []
        if records:  # (the record it is closest to, and why it is not that)
            closest = min(records, key=lambda k: len(_record(value, k, "")))
            return f"{where}: matches no {' or '.join(_name(k) for k in options)}: " + _mismatch(value, closest, where)
        return f"{where}: expected {' or '.join(_name(k) for k in options)}, found {_show(value)}"
    if origin is Literal:
        if any(type(value) is type(a) and value == a for a in get_args(kind)):
            return None
        return f"{where}: expected one of {list(get_args(kind))}, found {_show(value)}"
    if origin in (list, tuple, dict) and not isinstance(value, (list, tuple) if origin is not dict else dict):
        return f"{where}: expected {_name(kind)}, found {_show(value)}"
    if origin is list:
        (item,) = get_args(kind)
        return next((m for i, v in enumerate(value) if (m := _mismatch(v, item, f"{where}[{i}]"))), None)
    if origin is tuple:
        items = get_args(kind)
        if len(items) != len(value):
            return f"{where}: expected {len(items)} items, found {len(value)}"
        return next((m for i, (v, k) in enumerate(zip(value, items)) if (m := _mismatch(v, k, f"{where}[{i}]"))),
                    None)
    if origin is dict:
        kk, vk = get_args(kind)
        return next((m for k, v in value.items()
                     if (m := _mismatch(k, kk, f"{where} key") or _mismatch(v, vk, f"{where}[{k!r}]"))), None)
    if typing.is_typeddict(kind):
        if not isinstance(value, dict):
            return f"{where}: expected {kind.__name__}, found {_show(value)}"
        found = _record(value, kind, f"{where} ({kind.__name__})")
        return "; ".join(found) or None
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    return None if ok else f"{where}: expected {_name(kind)}, found {_show(value)}"


def _name(kind) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")


def _show(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"
