"""24.01 An ability as a value: its name (canonical, from the registry), X, keywords and 24.01
condition, with the keyword matching its rules need (02.05.01) and its canonical label.
How it is printed and what it does are its registry record's (``Ability.spec``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from sim.rules.abilities import registry as RG
from sim.rules.abilities.registry import ALIASES, REGISTRY, AbilityDef
from sim.rules.dice import DiceExpr

_TRANSLATE = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
                            "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"',
                            "\u00a0": " "})


def norm(text: str) -> str:
    """Upper-case, unicode dashes/quotes to ASCII, whitespace collapsed."""
    return " ".join(text.translate(_TRANSLATE).upper().split())


@dataclass(frozen=True, slots=True, eq=False)
class Ability:
    """24.01 One weapon or unit ability, parsed. Equality ignores ``printed`` (an alias prints
    differently but is the same ability, 24.27) and the order of ``/`` alternatives
    (MONSTER/VEHICLE == VEHICLE/MONSTER).

    Construction normalises: the name to its canonical one (aliases), keywords/condition
    upper-case and de-duplicated (printed order kept); a fixed DiceExpr value becomes an int; a
    missing X takes the record's default. ``spec`` is the ability's registry record.
    """

    name: str
    value: int | DiceExpr | None = None
    keywords: tuple[str, ...] = ()
    negated: bool = False
    condition: tuple[str, ...] = ()
    printed: str = field(default="", compare=False)
    spec: AbilityDef = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        name = ALIASES.get(self.name, self.name)
        spec = REGISTRY.get(name)
        if spec is None:
            raise ValueError(f"unknown ability name {self.name!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "spec", spec)
        value = self.value
        if isinstance(value, DiceExpr) and not value.is_random:
            value = value.k
        if value is None:
            value = spec.default
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "keywords", _kw_tuple(self.keywords))
        object.__setattr__(self, "condition", _kw_tuple(self.condition))

    def _key(self) -> tuple:
        return (self.name, self.value, frozenset(self.keywords), self.negated, frozenset(self.condition))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ability):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def applies_to(self, target_unit_keywords: Iterable[str]) -> bool:
        """24.01 True if the ability has no keyword condition or the target unit has one of its keywords."""
        if not self.condition:
            return True
        return _unit_has_any(self.condition, target_unit_keywords)

    def anti_matches(self, target_unit_keywords: Iterable[str]) -> bool:
        """24.03 For an ability of keywords and a threshold: True if the target unit has any of
        its keywords (negated, "non-": has none of them). False for any other ability."""
        if self.spec.value != RG.KEYWORD_ROLL:
            return False
        return _unit_has_any(self.keywords, target_unit_keywords) != self.negated

    def label(self) -> str:
        """24 Canonical display, e.g. "ANTI-VEHICLE 4+", "SUSTAINED HITS 1: INFANTRY/BEASTS"; X is
        left out when it is the record's default."""
        name, v, kind = self.name, self.value, self.spec.value
        if kind == RG.KEYWORD_ROLL:
            text = f"{name}-{'non-' if self.negated else ''}{'/'.join(self.keywords)} {v}+"
        elif kind == RG.ROLL:
            text = f"{name} {v}+"
        elif v is None or v == self.spec.default:
            text = name
        elif kind == RG.INCHES:
            text = f'{name} {v}"'
        else:
            text = f"{name} {v}"
        return f"{text}: {'/'.join(self.condition)}" if self.condition else text

    def __str__(self) -> str:
        return self.label()



def _kw_tuple(items) -> tuple[str, ...]:
    if isinstance(items, str):
        items = (items,)
    return tuple(dict.fromkeys(norm(k) for k in items))


def _unit_has(kw: str, unit_kws: frozenset[str]) -> bool:
    """02.05.01 Exact keyword, or a multi-word keyword split into consecutive keywords the unit all has."""
    if kw in unit_kws:
        return True
    words = kw.split(" ")
    reach = [True] + [False] * len(words)
    for i in range(len(words)):
        if reach[i]:
            for j in range(i + 1, len(words) + 1):
                if not reach[j] and " ".join(words[i:j]) in unit_kws:
                    reach[j] = True
    return reach[-1]


def _unit_has_any(kws: tuple[str, ...], target_unit_keywords: Iterable[str]) -> bool:
    unit = frozenset(norm(k) for k in target_unit_keywords)
    return any(_unit_has(k, unit) for k in kws)


