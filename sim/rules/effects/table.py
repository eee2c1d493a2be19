"""Rules as data: every modelled datasheet ability, army rule and detachment rule, one
sim.rules.effects.vocabulary.RuleRecord each, in the modules of sim.rules.effects.records
(army rules, detachment rules, datasheet abilities), looked up by the project's key, by the
community data's id, or by printed name as a fallback.

The records are the project's own paraphrases: a one-line summary and effects, never the
published text. Building the table checks it (unique keys, ids and names); a test builds it."""

from __future__ import annotations

import functools

from sim.rules.abilities.value import norm
from sim.rules.effects.vocabulary import RuleRecord, VocabularyError
from sim.rules.effects import vocabulary as V


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict, dict]:
    from sim.rules.effects.records import load_all
    ALL = load_all()
    by_key: dict[str, RuleRecord] = {}
    by_id: dict[str, RuleRecord] = {}
    by_name: dict[str, list[RuleRecord]] = {}
    for r in ALL:
        if r.key in by_key:
            raise VocabularyError(f"two rule records have the key {r.key!r}")
        by_key[r.key] = r
        for i in r.ids:
            if i in by_id:
                raise VocabularyError(f"the community id {i!r} is in {by_id[i].key!r} and {r.key!r}")
            by_id[i] = r
        for n in r.names:
            by_name.setdefault(norm(n), []).append(r)
    for r in ALL:  # a choice picking one more option of another rule names a rule offering them
        c = r.choice
        if c is not None and c.adds_to:
            t = by_key.get(c.adds_to)
            if t is None or t.choice is None or t.choice.lasts != V.KEPT or not set(c.options) <= set(t.choice.options):
                raise VocabularyError(f"{r.key}: its choice adds to {c.adds_to!r}, which is no rule keeping picks "
                                      f"of the options {list(c.options)}")
    return by_key, by_id, by_name


def records() -> tuple[RuleRecord, ...]:
    """Every record, in table order."""
    return tuple(_tables()[0].values())


def by_key(key: str) -> RuleRecord | None:
    return _tables()[0].get(key)


def lookup(ids=(), name: str = "", faction: str = "") -> RuleRecord | None:
    """The record of a rule as the community data attaches it: by any of its ``ids`` first, else
    by its printed ``name`` (when several records share the name, the one of ``faction``, else
    the first)."""
    _, by_id, by_name = _tables()
    for i in ids:
        r = by_id.get(i)
        if r is not None:
            return r
    found = by_name.get(norm(name)) if name else None
    if not found:
        return None
    if faction:
        for r in found:
            if r.faction and norm(r.faction) == norm(faction):
                return r
    return found[0]


def named(name: str) -> tuple[RuleRecord, ...]:
    """Every record printed with this name (any case), in table order."""
    return tuple(_tables()[2].get(norm(name), ())) if name else ()


def resolve(text: str) -> RuleRecord | None:
    """A rule as a scenario file writes it: its key, or a printed name only one record has (a
    name several records share, e.g. one per faction, resolves to none: its key says which)."""
    r = by_key(text)
    if r is not None:
        return r
    found = named(text)
    return found[0] if len(found) == 1 else None
