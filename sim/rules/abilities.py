"""24 Abilities: weapon abilities ([ANTI-X Y+], [PISTOL], ...) and attack-related unit abilities as data.

Parses the three common printings, case-insensitively, into :class:`Ability` values:

* datasheet style ``"[ANTI-VEHICLE 4+, PRECISION]"``, ``"[BLAST], [HEAVY]"`` (one or many bracket groups);
* Wahapedia style ``"anti-infantry 4+, precision"``;
* BattleScribe style ``"Anti-vehicle 2+, Pistol"``;
* ``"-"`` or ``""`` for none. A list of strings is accepted too (each item parsed the same way).

Decisions (documented for the rules code that consumes these values):

* [PISTOL] is [CLOSE-QUARTERS] for every rules purpose (24.27): it parses to name ``CLOSE-QUARTERS`` and
  keeps the token in ``printed``, which takes no part in equality.
* ANTI keywords may contain spaces: everything between ``ANTI-`` and the trailing ``N+`` is the keyword list,
  ``/``-separated, so ``"ANTI-CHAOS SPACE MARINES 3+"`` is one keyword ``"CHAOS SPACE MARINES"``. A multi-word
  keyword matches a unit that has it as one keyword, or (02.05.01: adjacent keywords mean all of them) that has
  every part of some split of it into consecutive words, e.g. CHAOS + SPACE MARINES. A keyword never matches a
  longer keyword that contains it (02.05.01 FAQ: COMMISSAR is not COMMISSAR GRAVES).
* ``/`` alternatives mean "any of" (02.05.01); ``ANTI-non-MONSTER/VEHICLE`` triggers against a unit having
  none of them. Keyword and condition tuples are upper-case and de-duplicated, in printed order (for display);
  equality and hashing compare them as sets, so the order in which alternatives were printed never makes two
  otherwise identical attacks differ (04.03 pooling).
* [BLAST] is [BLAST 1] (value 1); Lone Operative without X is 12". Random X (``D3``) is allowed for SUSTAINED
  HITS, RAPID FIRE and Deadly Demise; MELTA, BLAST and CLEAVE take whole numbers. A fixed X is stored as int.
* Lone Operative's printed X is kept as printed (>= 1"); the 9"-30" cap (02.02.01) is the rules code's job.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable

from sim.rules.dice import DiceExpr, parse_dice_expr

__all__ = [
    "Ability",
    "AbilityError",
    "ABILITY_HELP",
    "WEAPON_ABILITY_NAMES",
    "UNIT_ABILITY_NAMES",
    "parse_weapon_abilities",
    "parse_unit_abilities",
    "duplicates",
    "has",
    "get",
    "is_close_quarters",
]

# Value kinds.
_NONE, _COUNT, _DICE, _OPT1, _FNP, _INCHES, _WOUNDS, _ANTI = range(8)

_WEAPON_KINDS: dict[str, int] = {
    "ANTI": _ANTI, "ASSAULT": _NONE, "BLAST": _OPT1, "CLEAVE": _COUNT, "CLOSE-QUARTERS": _NONE,
    "DEVASTATING WOUNDS": _NONE, "EXTRA ATTACKS": _NONE, "HAZARDOUS": _NONE, "HEAVY": _NONE,
    "IGNORES COVER": _NONE, "INDIRECT FIRE": _NONE, "LANCE": _NONE, "LETHAL HITS": _NONE, "MELTA": _COUNT,
    "ONE SHOT": _NONE, "PRECISION": _NONE, "PSYCHIC": _NONE, "RAPID FIRE": _DICE, "SUSTAINED HITS": _DICE,
    "TORRENT": _NONE, "TWIN-LINKED": _NONE,
}
_UNIT_KINDS: dict[str, int] = {
    "FEEL NO PAIN": _FNP, "STEALTH": _NONE, "LONE OPERATIVE": _INCHES, "DAMAGED": _WOUNDS,
    "FIGHTS FIRST": _NONE, "DEADLY DEMISE": _DICE,
}
_ALIASES = {"PISTOL": "CLOSE-QUARTERS"}
_DEFAULTS = {"BLAST": 1, "LONE OPERATIVE": 12}

WEAPON_ABILITY_NAMES: frozenset[str] = frozenset(_WEAPON_KINDS)
UNIT_ABILITY_NAMES: frozenset[str] = frozenset(_UNIT_KINDS)
_ALL_KINDS = {**_WEAPON_KINDS, **_UNIT_KINDS}

ABILITY_HELP: dict[str, tuple[str, str]] = {
    "ANTI": ("24.03", "Against a target unit with the named keyword, an unmodified wound roll at or above the "
             "threshold counts as a critical wound. The 'non-' form works against units without the keyword."),
    "ASSAULT": ("24.04", "The unit can still shoot after advancing, but only with its ASSAULT weapons."),
    "BLAST": ("24.05", "Adds one attack die (or X) for every five models in the target unit, rounding down. "
              "Cannot be fired at a unit that is engaged with the shooter's unit."),
    "CLEAVE": ("24.06", "If every attack of this weapon goes at one target, add X attack dice for every five "
               "models in that target, rounding down."),
    "CLOSE-QUARTERS": ("24.07", "Lets the unit shoot at enemies it is engaged with (close-quarters shooting). "
                       "Otherwise a model fires either these weapons or its other guns, not both, unless it is "
                       "a MONSTER or VEHICLE. [PISTOL] is the same ability under its older name."),
    "DEVASTATING WOUNDS": ("24.10", "A critical wound skips the save and instead inflicts mortal wounds equal to "
                           "the weapon's Damage, which can kill at most one model."),
    "EXTRA ATTACKS": ("24.11", "Used on top of the model's other melee weapon, never instead of it."),
    "HAZARDOUS": ("24.15", "After the unit finishes attacking, roll once per hazardous weapon used: each 1-2 "
                  "costs a mortal wound (three if the unit is all MONSTER/VEHICLE)."),
    "HEAVY": ("24.16", "+1 to hit in your Shooting phase if the unit is unengaged, was not set up this turn and "
              "no model in it moved more than 3\"."),
    "IGNORES COVER": ("24.18", "The target never gets the benefit of cover against these attacks."),
    "INDIRECT FIRE": ("24.19", "Can shoot at targets the unit cannot see, at a penalty: the target gets cover and "
                      "hit rolls of 1-5 (or 1-3 with a friendly spotter) fail."),
    "LANCE": ("24.21", "+1 to the wound roll if the attacker's unit made a charge move this turn."),
    "LETHAL HITS": ("24.23", "A critical hit may wound automatically, skipping the wound roll (so it can never "
                    "be a critical wound)."),
    "MELTA": ("24.25", "Adds X to the weapon's Damage if the target was within half range when picked."),
    "ONE SHOT": ("24.26", "Can be used only once per battle."),
    "PRECISION": ("24.28", "The attacker may aim these attacks at a visible CHARACTER in the target unit, even "
                  "one leading bodyguards."),
    "PSYCHIC": ("24.29", "A psychic attack: the attacker may disregard any modifiers to its BS/WS or hit roll, "
                "keeping the helpful ones."),
    "RAPID FIRE": ("24.30", "Adds X attack dice if the target was within half range when picked."),
    "SUSTAINED HITS": ("24.36", "Each critical hit scores X extra hits; the extra hits are not critical."),
    "TORRENT": ("24.37", "Hits automatically: no hit roll, so never a critical hit."),
    "TWIN-LINKED": ("24.38", "The wound roll may be re-rolled."),
    "FEEL NO PAIN": ("24.12", "Each time a model would lose a wound, mortal wounds included, roll a D6: on X+ "
                     "that wound is not lost."),
    "STEALTH": ("24.33", "If every model has it, the unit counts as in cover against ranged attacks."),
    "LONE OPERATIVE": ("24.24", "Unless attached to another unit, enemies can see and target it (indirect fire "
                       "included) only from within 12\" (or X\")."),
    "DAMAGED": ("24.39", "While the model has X or fewer wounds left, its attacks take -1 to hit."),
    "FIGHTS FIRST": ("24.13", "If every model has it, the unit fights in the first fighting step."),
    "DEADLY DEMISE": ("24.08", "When the model is destroyed, roll a D6: on a 6 every unit within 6\" suffers X "
                      "mortal wounds."),
}

_KEYWORD_RE = re.compile(r"^[A-Z0-9][A-Z0-9' \-]*$")
_ANTI_RE = re.compile(r"^ANTI(?:\s*-\s*|\s+)(?P<body>.*)$")
_NON_RE = re.compile(r"^NON\s*-\s*")
_THRESHOLD_RE = re.compile(r"^(?P<kw>.*?)\s*(?P<y>\d+)\s*\+?$")
_FNP_RE = re.compile(r"^(\d+)\s*\+?$")
_INCHES_RE = re.compile(r'^(\d+)\s*(?:"|\'\'|IN|INCH|INCHES)?$')
_WOUNDS_RE = re.compile(r"^:?\s*(?:(\d+)\s*-\s*)?(\d+)(?:\s*WOUNDS?(?:\s*REMAINING)?)?$")
_NONE_MARKS = {"", "-", "\u2013", "\u2014", "N/A", "NONE"}
_TRANSLATE = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
                            "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"',
                            "\u00a0": " "})


def _norm(text: str) -> str:
    """Upper-case, unicode dashes/quotes to ASCII, whitespace collapsed."""
    return " ".join(text.translate(_TRANSLATE).upper().split())


def _name_pattern(name: str) -> re.Pattern:
    parts = re.split(r"[\s\-]+", name)
    return re.compile("^" + r"[\s\-]*".join(map(re.escape, parts)) + r"(?![A-Z0-9'])")


# Longest names first, so "LETHAL HITS" is never cut short by a shorter name.
_NAME_PATTERNS = [(n, _name_pattern(n)) for n in sorted([*_ALL_KINDS, *_ALIASES], key=len, reverse=True)]


@dataclass(frozen=True, slots=True, eq=False)
class Ability:
    """24.01 One weapon or unit ability, parsed. Equality ignores ``printed`` ([PISTOL] == [CLOSE-QUARTERS])
    and the order of ``/`` alternatives (ANTI-MONSTER/VEHICLE == ANTI-VEHICLE/MONSTER).

    Construction normalises: keywords/condition upper-case, de-duplicated (printed order kept); a fixed
    DiceExpr value becomes an int; BLAST defaults to 1 and LONE OPERATIVE to 12.
    """

    name: str
    value: int | DiceExpr | None = None
    keywords: tuple[str, ...] = ()
    negated: bool = False
    condition: tuple[str, ...] = ()
    printed: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        name = _ALIASES.get(self.name, self.name)
        if name not in _ALL_KINDS:
            raise ValueError(f"unknown ability name {self.name!r}")
        object.__setattr__(self, "name", name)
        value = self.value
        if isinstance(value, DiceExpr) and not value.is_random:
            value = value.k
        if value is None:
            value = _DEFAULTS.get(name)
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
        """24.03 [ANTI-X Y+]: True if the target unit has any X (with non-X: has none of them)."""
        if self.name != "ANTI":
            return False
        return _unit_has_any(self.keywords, target_unit_keywords) != self.negated

    def label(self) -> str:
        """24 Canonical display, e.g. "ANTI-VEHICLE 4+", "SUSTAINED HITS 1: INFANTRY/BEASTS"."""
        name, v = self.name, self.value
        if name == "ANTI":
            text = f"ANTI-{'non-' if self.negated else ''}{'/'.join(self.keywords)} {v}+"
        elif name == "FEEL NO PAIN":
            text = f"FEEL NO PAIN {v}+"
        elif name == "LONE OPERATIVE":
            text = "LONE OPERATIVE" if v == 12 else f'LONE OPERATIVE {v}"'
        elif name == "BLAST" and v == 1:
            text = "BLAST"
        elif v is None:
            text = name
        else:
            text = f"{name} {v}"
        return f"{text}: {'/'.join(self.condition)}" if self.condition else text

    def __str__(self) -> str:
        return self.label()


class AbilityError(ValueError):
    """24 An unknown or malformed ability. ``weapon`` is the weapon name (or, for unit abilities, the
    ``where`` string, used verbatim as the message prefix); ``token`` is the offending token as printed."""

    def __init__(self, weapon: str, token: str, message: str, *, unit: bool = False):
        self.weapon = weapon
        self.token = token
        self.message = message
        self.unit = unit
        super().__init__(weapon, token, message)

    @property
    def where(self) -> str:
        return self.weapon

    def __str__(self) -> str:
        prefix = self.weapon if self.unit else f'weapon "{self.weapon}"'
        return f"{prefix}: {self.message}"


# --- keyword matching -----------------------------------------------------------------------------


def _kw_tuple(items) -> tuple[str, ...]:
    if isinstance(items, str):
        items = (items,)
    return tuple(dict.fromkeys(_norm(k) for k in items))


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
    unit = frozenset(_norm(k) for k in target_unit_keywords)
    return any(_unit_has(k, unit) for k in kws)


# --- parsing --------------------------------------------------------------------------------------


def _split(text, fail) -> list[str]:
    """Split a printed ability list into tokens: commas/semicolons and bracket groups separate them."""
    if isinstance(text, (list, tuple)):
        out: list[str] = []
        for item in text:
            out.extend(_split(item, fail))
        return out
    if text is None:
        return []
    if not isinstance(text, str):
        raise fail(repr(text), f"expected ability text like \"[HEAVY, PRECISION]\", found {text!r}")
    stripped = text.strip()
    if _norm(stripped) in _NONE_MARKS:
        return []
    tokens: list[str] = []
    buf: list[str] = []
    depth = 0

    def flush() -> None:
        token = " ".join("".join(buf).split())
        if token:
            tokens.append(token)
        buf.clear()

    for ch in stripped:
        if ch == "[":
            if depth:
                raise fail(stripped, f'unbalanced brackets in "{stripped}": "[" inside another "[...]"')
            flush()
            depth = 1
        elif ch == "]":
            if not depth:
                raise fail(stripped, f'unbalanced brackets in "{stripped}": "]" without a matching "["')
            flush()
            depth = 0
        elif ch in ",;":
            flush()
        else:
            buf.append(ch)
    if depth:
        raise fail(stripped, f'unbalanced brackets in "{stripped}": "[" is never closed')
    flush()
    return tokens


def _keywords(part: str, token: str, what: str, fail) -> tuple[str, ...]:
    kws = [" ".join(k.split()) for k in part.split("/")]
    if not part.strip():
        raise fail(token, f'"{token}" has an empty {what}')
    for k in kws:
        if not k:
            raise fail(token, f'"{token}" has an empty keyword in its {what}')
        if not _KEYWORD_RE.match(k):
            raise fail(token, f'"{token}": "{k}" is not a keyword (in its {what})')
    return tuple(kws)


def _suggest(head: str, names: Iterable[str]) -> str:
    guess = re.sub(r"(\s+\S*\d\S*)+$", "", head)
    names = sorted(names)
    close = difflib.get_close_matches(guess, names, n=1, cutoff=0.6)
    if close:
        return f'did you mean "{close[0]}"?'
    return "expected one of " + ", ".join("ANTI-X Y+" if n == "ANTI" else n for n in names)


def _parse_count(name: str, kind: int, rest: str, token: str, fail):
    if not rest:
        if kind == _OPT1:
            return None
        raise fail(token, f'"{token}": {name} needs a value X, e.g. "{name} 1"')
    try:
        expr = parse_dice_expr(rest)
    except ValueError:
        hint = "a whole number" if kind in (_COUNT, _OPT1) else "a number or dice like D3"
        raise fail(token, f'"{token}": {name} X must be {hint}, found "{rest}" (missing a comma?)') from None
    if expr.is_random and kind in (_COUNT, _OPT1):
        raise fail(token, f'"{token}": {name} X must be a whole number, found "{rest}"')
    if expr.minimum < 1:
        raise fail(token, f'"{token}": {name} X must be at least 1, found "{rest}"')
    return expr if expr.is_random else expr.k


def _parse_anti(head: str, token: str, fail) -> Ability:
    body = _ANTI_RE.match(head).group("body")
    negated = bool(_NON_RE.match(body))
    if negated:
        body = _NON_RE.sub("", body)
    m = _THRESHOLD_RE.match(body)
    if not m:
        raise fail(token, f'"{token}": ANTI needs a keyword and a threshold, e.g. "ANTI-VEHICLE 4+"')
    y = int(m.group("y"))
    if not 2 <= y <= 6:
        raise fail(token, f'"{token}": the ANTI threshold must be 2+ to 6+, found {y}+')
    kws = _keywords(m.group("kw"), token, "ANTI keyword", fail)
    return Ability("ANTI", y, kws, negated, printed=token)


def _parse_token(token: str, kinds: dict[str, int], other: dict[str, int], allow_condition: bool,
                 fail) -> Ability:
    norm = _norm(token)
    condition: tuple[str, ...] = ()
    head = norm
    if allow_condition and ":" in norm:
        head, cond = (s.strip() for s in norm.split(":", 1))
        condition = _keywords(cond, token, "condition after ':'", fail)
    if "ANTI" in kinds and _ANTI_RE.match(head):
        a = _parse_anti(head, token, fail)
        return Ability(a.name, a.value, a.keywords, a.negated, condition, token)
    for name, pat in _NAME_PATTERNS:
        m = pat.match(head)
        if m:
            break
    else:
        kind_word = "ability" if allow_condition else "unit ability"
        raise fail(token, f'unknown {kind_word} "{token}" ({_suggest(head, [*kinds, *_ALIASES])})')
    canon = _ALIASES.get(name, name)
    if canon not in kinds:
        if canon in other:
            mine, theirs = ("a weapon", "a unit") if allow_condition else ("a unit", "a weapon")
            raise fail(token, f'"{token}" is {theirs} ability, not {mine} ability')
        raise fail(token, f'unknown ability "{token}"')  # pragma: no cover - names are all in a table
    kind = kinds[canon]
    rest = head[m.end():].strip()
    if kind == _ANTI:
        raise fail(token, f'"{token}": ANTI needs a keyword and a threshold, e.g. "ANTI-VEHICLE 4+"')
    if kind == _NONE:
        if rest:
            raise fail(token, f'"{token}": {canon} takes no value, found "{rest}" (missing a comma?)')
        value = None
    elif kind in (_COUNT, _DICE, _OPT1):
        value = _parse_count(canon, kind, rest, token, fail)
    elif kind == _FNP:
        fm = _FNP_RE.match(rest)
        if not fm:
            raise fail(token, f'"{token}": FEEL NO PAIN needs a roll like "5+", found "{rest}"')
        value = int(fm.group(1))
        if not 2 <= value <= 6:
            raise fail(token, f'"{token}": FEEL NO PAIN must be 2+ to 6+, found {value}+')
    elif kind == _INCHES:
        value = None
        if rest:
            im = _INCHES_RE.match(rest)
            if not im or int(im.group(1)) < 1:
                raise fail(token, f'"{token}": LONE OPERATIVE X must be a distance like 15", found "{rest}"')
            value = int(im.group(1))
    else:  # _WOUNDS
        wm = _WOUNDS_RE.match(rest)
        if not wm or (wm.group(1) is not None and int(wm.group(1)) != 1) or int(wm.group(2)) < 1:
            raise fail(token, f'"{token}": DAMAGED needs X wounds, e.g. "Damaged 4" or "Damaged: 1-4 wounds '
                              f'remaining", found "{rest}"')
        value = int(wm.group(2))
    return Ability(canon, value, (), False, condition, token)


def parse_weapon_abilities(text, weapon: str) -> tuple[Ability, ...]:
    """24.01 Parse a weapon's printed abilities ("[ANTI-VEHICLE 4+, PRECISION]", "anti-infantry 4+, precision",
    "Anti-vehicle 2+, Pistol", "-"), keeping duplicates (24.02 is resolved in Select Weapons).
    Conditional forms "[LETHAL HITS: VEHICLE]" set ``condition``. Raises AbilityError."""

    def fail(token: str, message: str) -> AbilityError:
        return AbilityError(weapon, token, message)

    return tuple(_parse_token(t, _WEAPON_KINDS, _UNIT_KINDS, True, fail) for t in _split(text, fail))


def parse_unit_abilities(text_or_list, where: str) -> tuple[Ability, ...]:
    """24 Parse attack-related unit abilities ("Feel No Pain 5+", "Stealth", 'Lone Operative 15"',
    "Damaged: 1-4 wounds remaining", "Fights First", "Deadly Demise D3"); a string or a list of them.
    ``where`` names the place in the scenario for errors. Raises AbilityError."""

    def fail(token: str, message: str) -> AbilityError:
        return AbilityError(where, token, message, unit=True)

    return tuple(_parse_token(t, _UNIT_KINDS, _WEAPON_KINDS, False, fail) for t in _split(text_or_list, fail))


# --- queries --------------------------------------------------------------------------------------


def duplicates(abilities: Iterable[Ability]) -> dict[str, tuple[Ability, ...]]:
    """24.02 Abilities present more than once, by name (numbers and keywords ignored), first-seen order."""
    groups: dict[str, list[Ability]] = {}
    for a in abilities:
        groups.setdefault(a.name, []).append(a)
    return {name: tuple(group) for name, group in groups.items() if len(group) > 1}


def get(abilities: Iterable[Ability], name: str, target_keywords: Iterable[str] | None = None) -> Ability | None:
    """24.01 The first ability of this name ("PISTOL" means CLOSE-QUARTERS) that applies to a target with
    these keywords (any, if ``target_keywords`` is None). The ANTI keyword itself is not checked here."""
    canon = _ALIASES.get(_norm(name), _norm(name))
    kws = None if target_keywords is None else frozenset(target_keywords)
    for a in abilities:
        if a.name == canon and (kws is None or a.applies_to(kws)):
            return a
    return None


def has(abilities: Iterable[Ability], name: str, target_keywords: Iterable[str] | None = None) -> bool:
    """24.01 True if an ability of this name applies (see :func:`get`)."""
    return get(abilities, name, target_keywords) is not None


def is_close_quarters(abilities: Iterable[Ability]) -> bool:
    """24.07/24.27 True for a [CLOSE-QUARTERS] or [PISTOL] weapon."""
    return any(a.name == "CLOSE-QUARTERS" for a in abilities)
