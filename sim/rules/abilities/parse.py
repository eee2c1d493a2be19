"""24 Parsing printed abilities into Ability values; names, aliases, value kinds and defaults come from the
registry (sim.rules.abilities.registry).

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
from typing import Iterable

from sim.rules.abilities import registry as RG
from sim.rules.abilities.registry import ALIASES as _ALIASES, REGISTRY, UNIT, WEAPON
from sim.rules.abilities.value import Ability, norm
from sim.rules.dice import parse_dice_expr


_WEAPON_KINDS: dict[str, str] = {r.name: r.value for r in REGISTRY.values() if r.scope == WEAPON}
_UNIT_KINDS: dict[str, str] = {r.name: r.value for r in REGISTRY.values() if r.scope == UNIT}
_ALL_KINDS = {**_WEAPON_KINDS, **_UNIT_KINDS}
_NONE, _COUNT, _DICE, _OPT1, _FNP, _INCHES, _WOUNDS, _KEYWORDS = (
    RG.NONE, RG.COUNT, RG.DICE, RG.OPTIONAL_COUNT, RG.ROLL, RG.INCHES, RG.WOUNDS, RG.KEYWORD_ROLL)

_KEYWORD_RE = re.compile(r"^[A-Z0-9][A-Z0-9' \-]*$")
# abilities of keywords and a threshold ("ANTI-VEHICLE 4+"): name -> the pattern of their head
_KEYWORD_ROLL_RES = {name: re.compile(rf"^{re.escape(name)}(?:\s*-\s*|\s+)(?P<body>.*)$")
                     for name, kind in _WEAPON_KINDS.items() if kind == _KEYWORDS}
_NON_RE = re.compile(r"^NON\s*-\s*")
_FNP_RE = re.compile(r"^(\d+)\s*\+?$")
_INCHES_RE = re.compile(r'^(\d+)\s*(?:"|\'\'|IN|INCH|INCHES)?$')
_WOUNDS_RE = re.compile(r"^:?\s*(?:(\d+)\s*-\s*)?(\d+)(?:\s*WOUNDS?(?:\s*REMAINING)?)?$")
_NONE_MARKS = {"", "-", "\u2013", "\u2014", "N/A", "NONE"}
# Limits (README, Limits): every token is at most MAX_TOKEN characters before any pattern sees
# it, so no pattern, int() or keyword match can take more than a bounded time.
MAX_TOKEN = 200
MAX_ANTI_KEYWORDS = 8  # "/" alternatives in an ANTI keyword
MAX_KEYWORD_WORDS = 6  # words in one keyword ("CHAOS SPACE MARINES": 3)
MAX_X = 100  # a fixed X, and the +k of a random X (SUSTAINED HITS, RAPID FIRE, BLAST, MELTA...)
MAX_DICE = 20  # dice in a random X
MAX_INCHES = 100  # Lone Operative X
MAX_WOUNDS = 1000  # Damaged X
_norm = norm


def _name_pattern(name: str) -> re.Pattern:
    parts = re.split(r"[\s\-]+", name)
    return re.compile("^" + r"[\s\-]*".join(map(re.escape, parts)) + r"(?![A-Z0-9'])")


# Longest names first, so "LETHAL HITS" is never cut short by a shorter name.
_NAME_PATTERNS = [(n, _name_pattern(n)) for n in sorted([*_ALL_KINDS, *_ALIASES], key=len, reverse=True)]


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
        if len(token) > MAX_TOKEN:
            raise fail(f"{token[:40]}...", f'"{token[:40]}..." is {len(token)} characters long '
                                           f'(an ability has at most {MAX_TOKEN})')
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
    if len(kws) > MAX_ANTI_KEYWORDS:
        raise fail(token, f'"{token}": at most {MAX_ANTI_KEYWORDS} keywords in its {what}, found {len(kws)}')
    for k in kws:
        if not k:
            raise fail(token, f'"{token}" has an empty keyword in its {what}')
        if not _KEYWORD_RE.match(k):
            raise fail(token, f'"{token}": "{k}" is not a keyword (in its {what})')
        if k.count(" ") >= MAX_KEYWORD_WORDS:
            raise fail(token, f'"{token}": a keyword of at most {MAX_KEYWORD_WORDS} words in its {what}, found "{k}"')
    return tuple(kws)


def _suggest(head: str, names: Iterable[str]) -> str:
    words = head.split()  # drop trailing words with a digit ("SUSTAINED HTS 2" -> "SUSTAINED HTS")
    while len(words) > 1 and any(c.isdigit() for c in words[-1]):
        words.pop()
    guess = " ".join(words)
    names = sorted(names)
    close = difflib.get_close_matches(guess, names, n=1, cutoff=0.6)
    if close:
        return f'did you mean "{close[0]}"?'
    return "expected one of " + ", ".join(f"{n}-X Y+" if _ALL_KINDS.get(n) == _KEYWORDS else n for n in names)


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
    if expr.k > MAX_X or expr.n > MAX_DICE:
        raise fail(token, f'"{token}": {name} X must be at most {MAX_X} (or up to {MAX_DICE} dice plus at most '
                          f'{MAX_X}), found "{rest}"')
    return expr if expr.is_random else expr.k


def _threshold(body: str) -> tuple[str, str] | None:
    """Split "KEYWORDS Y+" into the keywords and the digits of Y (the longest run of digits at
    the end, before an optional "+"); None without one. (A scan, not a regular expression: a
    pattern with a lazy and a greedy part backtracks for minutes on a long run of digits.)"""
    body = body.rstrip()
    if body.endswith("+"):
        body = body[:-1].rstrip()
    j = len(body)
    while j and body[j - 1].isdigit():
        j -= 1
    if j == len(body):
        return None
    return body[:j].rstrip(), body[j:]


def _parse_keyword_roll(name: str, head: str, token: str, fail) -> Ability:
    """An ability of keywords and a threshold, e.g. 24.03 "ANTI-VEHICLE 4+", "ANTI-non-PSYKER 5+"."""
    body = _KEYWORD_ROLL_RES[name].match(head).group("body")
    negated = bool(_NON_RE.match(body))
    if negated:
        body = _NON_RE.sub("", body)
    parts = _threshold(body)
    if parts is None:
        raise fail(token, f'"{token}": {name} needs a keyword and a threshold, e.g. "{name}-VEHICLE 4+"')
    kw, digits = parts
    if len(digits.lstrip("0")) > 1 or not 2 <= int(digits) <= 6:
        raise fail(token, f'"{token}": the {name} threshold must be 2+ to 6+, found {digits[:12]}'
                          f'{"..." if len(digits) > 12 else ""}+')
    kws = _keywords(kw, token, f"{name} keyword", fail)
    return Ability(name, int(digits), kws, negated, printed=token)


def _parse_token(token: str, kinds: dict[str, int], other: dict[str, int], allow_condition: bool,
                 fail) -> Ability:
    norm = _norm(token)
    condition: tuple[str, ...] = ()
    head = norm
    if allow_condition and ":" in norm:
        head, cond = (s.strip() for s in norm.split(":", 1))
        condition = _keywords(cond, token, "condition after ':'", fail)
    for name, pattern in _KEYWORD_ROLL_RES.items():
        if name in kinds and pattern.match(head):
            a = _parse_keyword_roll(name, head, token, fail)
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
    if kind == _KEYWORDS:
        raise fail(token, f'"{token}": {canon} needs a keyword and a threshold, e.g. "{canon}-VEHICLE 4+"')
    if kind == _NONE:
        if rest:
            raise fail(token, f'"{token}": {canon} takes no value, found "{rest}" (missing a comma?)')
        value = None
    elif kind in (_COUNT, _DICE, _OPT1):
        value = _parse_count(canon, kind, rest, token, fail)
    elif kind == _FNP:
        fm = _FNP_RE.match(rest)
        if not fm:
            raise fail(token, f'"{token}": {canon} needs a roll like "5+", found "{rest}"')
        value = int(fm.group(1))
        if not 2 <= value <= 6:
            raise fail(token, f'"{token}": {canon} must be 2+ to 6+, found {value}+')
    elif kind == _INCHES:
        value = None
        if not rest and RG.REGISTRY[canon].default is None:
            raise fail(token, f'"{token}": {canon} needs a distance, e.g. "{canon.capitalize()} 6\""')
        if rest:
            im = _INCHES_RE.match(rest)
            if not im or not 1 <= int(im.group(1)) <= MAX_INCHES:
                raise fail(token, f'"{token}": {canon} X must be a distance like 15" (1" to {MAX_INCHES}"), '
                                  f'found "{rest}"')
            value = int(im.group(1))
    else:  # _WOUNDS
        wm = _WOUNDS_RE.match(rest)
        if (not wm or (wm.group(1) is not None and int(wm.group(1)) != 1)
                or not 1 <= int(wm.group(2)) <= MAX_WOUNDS):
            printed = canon.capitalize()
            raise fail(token, f'"{token}": {canon} needs X wounds, e.g. "{printed} 4" or "{printed}: 1-4 '
                              f'wounds remaining", found "{rest}"')
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


