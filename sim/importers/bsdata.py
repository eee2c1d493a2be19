"""The BattleScribe data model, read from the plain data sim.importers.source gives: selections,
profiles and their characteristics, categories, costs, rules; and the values printed in them
(``6"``, ``3+``, ``D6+1``, ``-1``, ``Melee``) turned into numbers, strictly: a value the
simulator cannot read is an ImportFileError naming its place, never a guess.

Both rosters and catalogues use these; sim.importers.catalogue adds entry links, shared entries
and modifiers on top."""

from __future__ import annotations

import re

from sim.errors import ImportFileError

PTS = ("pts", "points")  # the names a points cost goes by (typeId "points" in New Recruit's JSON)
FACTION_PREFIX = "faction:"


def items(d, key) -> list[dict]:
    """The dicts of a collection (``profiles``, ``selections``...); [] when absent or empty."""
    v = d.get(key) if isinstance(d, dict) else None
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def text(d, key, default: str = "") -> str:
    v = d.get(key) if isinstance(d, dict) else None
    if isinstance(v, str):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _num_text(v)
    return default


def flag(d, key) -> bool:
    v = d.get(key) if isinstance(d, dict) else None
    return v is True or (isinstance(v, str) and v.strip().lower() == "true")


MAX_NUMBER = 1e9  # beyond any count, cost or modifier the data gives (a unit of 200 models, 100,000 points)


def number(d, key, default: float | None = None, what: str = "") -> float | None:
    """The number at ``key``: ``default`` when absent, not a number (a bool, words) or empty.
    A number that is not finite (NaN, an infinity, "1e400", thousands of digits) or beyond
    MAX_NUMBER raises Bad naming ``what`` (the caller adds the file and place): such a value is
    never used, nor quietly replaced."""
    v = d.get(key) if isinstance(d, dict) else None
    if isinstance(v, bool) or v is None:
        return default
    if isinstance(v, int):
        if abs(v) > MAX_NUMBER:
            raise _too_big(what or key, _digits(v))
        return float(v)
    if isinstance(v, float):
        f = v
    elif isinstance(v, str):
        t = v.strip()
        if len(t) > 40:
            if t.lstrip("+-").isdigit():
                raise _too_big(what or key, f"a number of {len(t.lstrip('+-')):,} digits")
            return default
        try:
            f = float(t)
        except ValueError:
            return default
    else:
        return default
    if f != f or abs(f) > MAX_NUMBER:
        raise _too_big(what or key, repr(v)[:40])
    return f


# the fields of a modifier whose value is text, an id or a flag (a name appended, a category
# added, hidden set), never a number; any other modifier's value is checked as a number
TEXT_FIELDS = frozenset({"name", "hidden", "category", "annotation", "description", "page", "publicationId"})
_HOLDERS = frozenset({"costs", "costLimits", "constraints", "modifiers", "modifierGroups", "repeats", "conditions",
                      "conditionGroups", "localConditionGroups"})


def check_numbers(node: dict, what: str | None = None) -> None:
    """Every number of one entry, selection, link, profile or rule that the importer may read,
    checked as :func:`number` checks it whether or not it is read (a modifier whose conditions do
    not hold, a cost of no points type, a roster's total): its ``defaultAmount`` and ``number``,
    and the ``value`` (and a repeat's ``repeats``) of its costs, constraints, modifiers (in
    modifier groups too; a modifier of a text field excepted), their repeats, conditions and
    condition groups. Raises Bad naming ``what`` (by default the node's name) and the field's
    place in it. Its children (selections, entries) are not looked at: each is checked as it is
    reached."""
    todo = [(node, "defaultAmount", "the defaultAmount"), (node, "number", "the number")]
    stack = [(node, "")]
    while stack:
        d, at = stack.pop()
        for key, v in d.items():
            if key not in _HOLDERS or not isinstance(v, list):
                continue
            for i, x in enumerate(v):
                if not isinstance(x, dict):
                    continue
                place = f"{at}{key}[{i}]"
                if key != "modifiers" or text(x, "field") not in TEXT_FIELDS:
                    todo.append((x, "value", place + ".value"))
                if key == "repeats":
                    todo.append((x, "repeats", place + ".repeats"))
                stack.append((x, place + "."))
    for d, key, place in todo:
        try:
            number(d, key, None, key)
        except Bad as e:
            kind = text(d, "type").strip()[:20] if key == "value" else ""
            who = what if what is not None else repr(clean_name(text(node, "name"))[:60])
            raise _too_big(f"{place}{f' ({kind!r})' if kind else ''} of {who}", e.found) from None


def _too_big(what: str, found: str) -> "Bad":
    return Bad(f"{what} as a finite number from {-MAX_NUMBER:,.0f} to {MAX_NUMBER:,.0f}", found)


def _digits(v: int) -> str:
    n = len(str(abs(v))) if abs(v) < 10 ** 4000 else v.bit_length() * 30103 // 100000
    return f"a number of {n:,} digits"


def _num_text(v) -> str:
    if isinstance(v, int):
        return str(v) if abs(v) < 10 ** 4000 else "<a number of thousands of digits>"
    return str(int(v)) if v == v and abs(v) != float("inf") and float(v).is_integer() else str(v)


def norm(s: str) -> str:
    """A name compared loosely: case, dashes and spaces folded; the data's arrow mark dropped."""
    s = s.replace("\u27a4", " ").replace("\u2013", "-").replace("\u2014", "-")
    return " ".join(s.split()).casefold()


def clean_name(s: str) -> str:
    """A name as the simulator keeps it: the data's leading arrow (a profile of a weapon with
    several) and surrounding blanks removed, inner runs of blanks made one."""
    return " ".join(s.replace("\u27a4", " ").split())


# --- profiles -------------------------------------------------------------------------------------

STAT_TYPE = "unit"
RANGED, MELEE = "ranged", "melee"


def characteristics(profile: dict) -> dict[str, str]:
    """name (folded) -> value text of a profile's characteristics."""
    out = {}
    for c in items(profile, "characteristics"):
        n = text(c, "name")
        if n:
            out.setdefault(n.strip().casefold(), text(c, "$text").strip())
    return out


def profile_kind(profile: dict) -> str:
    """"unit" (a statline), "ranged" or "melee" (a weapon), or "ability" (anything else: the
    data's Abilities and faction types such as Orders; a Transport's capacity too)."""
    t = text(profile, "typeName").strip().casefold()
    chars = characteristics(profile)
    if t == "unit" or (t in ("", "model") and {"m", "t", "sv", "w"} <= chars.keys()):
        return STAT_TYPE
    if "weapon" in t or ({"range", "a", "s", "ap", "d"} <= chars.keys() and t in ("", "weapon")):
        rng = chars.get("range", "")
        if "melee" in t or rng.strip().casefold() == "melee":
            return MELEE
        return RANGED
    return "ability"


def pts(d) -> float:
    """The points cost of one selection or entry (its own, not its children's). A cost that is
    not a finite number within bounds raises Bad (number)."""
    total = 0.0
    for c in items(d, "costs"):
        if text(c, "name").strip().casefold() in PTS or text(c, "typeId") == "points":
            total += number(c, "value", 0.0, f"the points cost of {clean_name(text(d, 'name'))[:60]!r}") or 0.0
    return total


def category_names(d) -> list[str]:
    return [text(c, "name").strip() for c in items(d, "categories") + items(d, "categoryLinks")
            if text(c, "name").strip()]


def is_faction(name: str) -> bool:
    return name.strip().casefold().startswith(FACTION_PREFIX)


# --- values ---------------------------------------------------------------------------------------

class Bad(Exception):
    """A value the simulator cannot read: (expected, found). Callers add the file and place."""

    def __init__(self, expected: str, found: str):
        super().__init__(expected, found)
        self.expected, self.found = expected, found


_INT = re.compile(r"^[+]?(\d{1,6})$")
_ROLL = re.compile(r"^(\d{1,2})\s*\+?$")
_INCHES = re.compile(r'^(\d{1,4})\s*\+?\s*(?:"|\u201d|\'\'|in(?:ch(?:es)?)?)?\s*\+?$', re.I)
_AP = re.compile(r"^([-\u2013\u2212])?\s*(\d{1,3})$")
NONE_MARKS = ("", "-", "\u2013", "\u2014", "n/a", "na", "none")


def _show(v: str) -> str:
    return repr(v[:40] + ("..." if len(v) > 40 else ""))


def whole(v: str, what: str) -> int:
    m = _INT.match(v.strip())
    if not m:
        if not v.strip():
            raise Bad(f"{what} as a whole number", "an empty value (a data error)")
        raise Bad(f"{what} as a whole number", _show(v))
    return int(m.group(1))


def strength(v: str) -> int | str:
    """A weapon's S: a whole number, or a random S as dice like 2D6 or D6+6 (02.02.03: rolled
    each time it is needed), written as the scenario format writes dice ("2D6")."""
    try:
        return whole(v, "S")
    except Bad:
        try:
            return dice(v, "S")
        except Bad:
            raise Bad("S as a whole number or dice like 2D6",
                      _show(v) if v.strip() else "an empty value (a data error)") from None


def roll(v: str, what: str) -> int:
    """"3+" -> 3 (a missing "+" is tolerated)."""
    m = _ROLL.match(v.strip())
    if not m and not v.strip():
        raise Bad(f"{what} as a roll like 3+", "an empty value (a data error)")
    if not m:
        raise Bad(f"{what} as a roll like 3+", _show(v))
    return int(m.group(1))


def inches(v: str, what: str) -> int:
    """'6"' -> 6; '20+"', '20"+' (a minimum move, as AIRCRAFT print it) -> 20."""
    m = _INCHES.match(v.strip())
    if not m and not v.strip():
        raise Bad(f'{what} in inches like 6"', "an empty value (a data error)")
    if not m:
        raise Bad(f'{what} in inches like 6"', _show(v))
    return int(m.group(1))


def ap(v: str) -> int:
    """"-1" -> -1, "0" -> 0; "-" alone (no AP, as some profiles print it) -> 0."""
    if v.strip() in ("-", "\u2013", "\u2212"):
        return 0
    m = _AP.match(v.strip())
    if not m or (not m.group(1) and int(m.group(2)) != 0):
        raise Bad("AP as 0 or a negative whole number like -1", _show(v))
    return -int(m.group(2)) if m.group(1) else 0


def dice(v: str, what: str) -> str:
    """A number or dice like D6+1, as the scenario format writes it ("D6+1", "2D6", "3")."""
    from sim.rules.dice import parse_dice_expr
    s = v.strip().upper().replace(" ", "")
    try:
        parse_dice_expr(s)
    except (ValueError, TypeError):
        raise Bad(f"{what} as a number or dice like D6+1", _show(v)) from None
    return s


def where_error(file: str, place: str, bad: Bad) -> ImportFileError:
    return ImportFileError(file, place, bad.expected, bad.found)
