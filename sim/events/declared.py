"""Every event type the engine emits, declared once: the table from each type's name (the
constants of sim.events) to its declaration, a TypedDict (sim.events.core, attacks, moves,
rounds, pre_battle), and an event checked against it. The engine never reads this table (its events are
plain dicts, built as fast as before); the tests check every event of the golden replays and
of random battles against it, so a field or an event cannot be emitted without being declared."""

from __future__ import annotations

from sim.events import attacks, core, moves, pre_battle, rounds, schema
from sim.events.schema import Field

DECLARED: dict[str, type] = {}
for _part in (core, attacks, moves, rounds, pre_battle):
    _twice = DECLARED.keys() & _part.DECLARED.keys()
    if _twice:
        raise ValueError(f"event types declared twice: {sorted(_twice)}")
    DECLARED.update(_part.DECLARED)


def fields(type_: str) -> dict[str, Field]:
    """The declared fields of the events of type ``type_`` (KeyError: not declared), ``type``
    included."""
    return schema.fields(DECLARED[type_])


def problems(event) -> list[str]:
    """What is wrong with ``event`` against its declaration (empty: it matches): its type not
    declared, a field not declared for it, a required field missing, a value of another type."""
    return schema.problems(event, DECLARED)
