"""Shared helpers for the state-by-declaration tests: a battle played to its end, and for any
field a value other than the one it holds (or other than its declared default)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from pathlib import Path

from sim.battle import Battle
from sim.players import play_battle
from sim.scenario.load import load_scenario
from sim.world.state_hash import CACHE, IDS

ROOT = Path(__file__).resolve().parents[2]


def played_battle(seed: int = 3) -> Battle:
    """The default table played to its end by two random players (models destroyed, VP booked,
    objectives controlled). The caller closes it (``with``)."""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    b = Battle(spec, seed=seed)
    play_battle(b, spec)
    return b


def hashed(cls) -> list[dataclasses.Field]:
    """The fields of ``cls`` not marked a cache, read straight off the declaration."""
    return [f for f in dataclasses.fields(cls) if CACHE not in f.metadata]


def default_of(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise LookupError(f.name)


def other(value, f: dataclasses.Field, battle: Battle):
    """A value the field ``f`` could hold that is not ``value`` (unit or model entities for an
    ``ids`` field, taken from ``battle``)."""
    kind = f.metadata.get(IDS)
    if kind is None:
        return _other(value, f.name)
    ents = sorted((battle.units if kind == "unit" else battle.models).values())
    if value is None or isinstance(value, int):
        return next(e for e in ents if e != value)
    fresh = next((e for e in ents if e not in value), None)
    if isinstance(value, dict):  # (every unit a key already: another value for the first)
        return {**value, fresh: 1} if fresh is not None else {
            **value, next(iter(value)): _other(next(iter(value.values())), f.name)}
    if isinstance(value, (set, frozenset)):
        return type(value)(value | {fresh})
    return type(value)([*value, fresh])


def _other(value, name: str):
    if isinstance(value, bool):
        return not value
    if isinstance(value, Enum):
        return next(m for m in type(value) if m != value)
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 1
    if isinstance(value, dict):
        return {**value, "x": 1}
    if isinstance(value, (set, frozenset)):
        return type(value)(value | {"x"})
    if isinstance(value, (list, tuple)):
        return type(value)([*value, "x"])
    raise TypeError(f"{name}: no other value for {value!r}")


def off_default(obj, f: dataclasses.Field, battle: Battle):
    """A value for ``f`` that differs from its declared default (its current one when it has
    no default)."""
    try:
        return other(default_of(f), f, battle)
    except LookupError:
        return getattr(obj, f.name)
