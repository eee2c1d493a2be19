"""24 Abilities: the registry of weapon and unit abilities (one record each, ``registry``), the
effects the engine knows (``hooks``), abilities as values (``value``) and the parser that reads
them as datasheets, Wahapedia or BattleScribe print them (``parse``).

Everything outside this package asks about abilities through the records and their hooks; no
other module names an ability (a test checks the engine's code for it)."""

from __future__ import annotations

from typing import Iterable

from sim.rules.abilities.hooks import Hook
from sim.rules.abilities.parse import AbilityError, parse_unit_abilities, parse_weapon_abilities
from sim.rules.abilities.registry import (ABILITY_HELP, REGISTRY, UNIT_ABILITY_NAMES, WEAPON_ABILITY_NAMES,
                                          AbilityDef, spec, tag, with_hook)
from sim.rules.abilities.value import Ability, norm

__all__ = [
    "Ability",
    "AbilityDef",
    "AbilityError",
    "ABILITY_HELP",
    "Hook",
    "REGISTRY",
    "WEAPON_ABILITY_NAMES",
    "UNIT_ABILITY_NAMES",
    "parse_weapon_abilities",
    "parse_unit_abilities",
    "duplicates",
    "effects_of",
    "first_with",
    "has",
    "get",
    "is_close_quarters",
    "spec",
    "tag",
    "with_hook",
]


def effects_of(abilities: Iterable[Ability]) -> frozenset:
    """The hooks (registry effects) of these abilities, together."""
    out: set = set()
    for a in abilities:
        out |= a.spec.effects
    return frozenset(out)


def first_with(abilities: Iterable[Ability], hook: str, target_keywords: Iterable[str] | None = None
               ) -> Ability | None:
    """24.01 The first ability with this hook that applies to a target with these keywords (any
    target if ``target_keywords`` is None). The keywords of 24.03 are not checked here."""
    kws = None if target_keywords is None else frozenset(target_keywords)
    for a in abilities:
        if hook in a.spec.effects and (kws is None or a.applies_to(kws)):
            return a
    return None


def duplicates(abilities: Iterable[Ability]) -> dict[str, tuple[Ability, ...]]:
    """24.02 Abilities present more than once, by name (numbers and keywords ignored), first-seen order."""
    groups: dict[str, list[Ability]] = {}
    for a in abilities:
        groups.setdefault(a.name, []).append(a)
    return {name: tuple(group) for name, group in groups.items() if len(group) > 1}


def default_duplicate(copies, target_keywords) -> Ability:
    """24.02 default (Part A ruling 8): among the copies whose 24.01 condition the target meets
    (all of them if none does), the record's own choice when it has one (24.03: the lowest
    threshold whose keyword the target has); otherwise the highest fixed value; else the first."""
    live = [a for a in copies if a.applies_to(target_keywords)] or list(copies)  # 24.01
    choose = live[0].spec.duplicate
    if choose is not None:
        return choose(live, target_keywords)
    fixed = [a for a in live if isinstance(a.value, int)]
    if fixed:
        return max(fixed, key=lambda a: a.value)
    return live[0]


def get(abilities: Iterable[Ability], name: str, target_keywords: Iterable[str] | None = None) -> Ability | None:
    """24.01 The first ability of this name (an alias means its ability) that applies to a target
    with these keywords (any, if ``target_keywords`` is None). The keywords of 24.03 are not
    checked here. (For tests and tools that hold a name; the engine asks by hook.)"""
    canon = spec(norm(name)).name
    kws = None if target_keywords is None else frozenset(target_keywords)
    for a in abilities:
        if a.name == canon and (kws is None or a.applies_to(kws)):
            return a
    return None


def has(abilities: Iterable[Ability], name: str, target_keywords: Iterable[str] | None = None) -> bool:
    """24.01 True if an ability of this name applies (see :func:`get`)."""
    return get(abilities, name, target_keywords) is not None


def is_close_quarters(abilities: Iterable[Ability]) -> bool:
    """24.07/24.27 True for a close-quarters weapon (either printed name)."""
    return any(Hook.CLOSE_QUARTERS in a.spec.hooks for a in abilities)
