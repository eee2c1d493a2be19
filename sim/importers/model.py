"""What an import makes: units, models and weapons as the scenario format holds them (names,
numbers, keywords, the abilities the engine knows, the names of those it does not as inert
labels), independent of the file they came from; and the conversion of one BattleScribe
profile into them (the values read strictly, sim.importers.bsdata)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sim.importers import bsdata as B
from sim.rules.abilities import AbilityError, Hook, effects_of, parse_unit_abilities, parse_weapon_abilities
from sim.scenario import load as L


@dataclass(frozen=True)
class Base:
    shape: str  # round | oval | rect
    length_mm: float
    width_mm: float

    def text(self) -> str:
        if self.shape == "round":
            return f"{self.length_mm:g}mm"
        return f"{self.length_mm:g}x{self.width_mm:g}mm {self.shape}"


@dataclass(frozen=True)
class Weapon:
    name: str
    range: int | None  # None: melee
    A: str
    skill: int | None  # BS or WS; None only for a weapon that hits automatically
    S: int
    AP: int
    D: str
    abilities: str = ""  # the printed abilities the engine knows, comma-separated
    labels: tuple[str, ...] = ()  # printed abilities it does not (inert)
    weapon: str = ""  # 04.01.03 the multi-profile weapon it is a profile of ("": none)


@dataclass(frozen=True)
class Model:
    name: str
    count: int
    M: int
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    InSv: int | None
    base: Base
    weapons: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()  # its own, beyond its unit's
    abilities: tuple[str, ...] = ()  # its own known abilities, as printed
    labels: tuple[str, ...] = ()  # its own abilities the engine does not implement
    role: str = "bodyguard"


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    models: tuple[Model, ...]
    keywords: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    points: int | None = None


@dataclass
class Collected:
    """Abilities met while reading one unit or model: the known ones as printed, the others as
    labels, and an invulnerable save if one was named."""

    abilities: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    invuln: int | None = None

    def add(self, name: str, description: str = "") -> None:
        name = B.clean_name(name)
        if not name:
            return
        inv = invulnerable(name, description)
        if inv is not None:
            if inv == 0:
                _add(self.labels, name)
            else:
                self.invuln = inv if self.invuln is None else min(self.invuln, inv)
            return
        try:
            parse_unit_abilities(name, "unit")
        except AbilityError:
            _add(self.labels, name)
        else:
            _add(self.abilities, name)


def _add(lst: list, x) -> None:
    if x not in lst:
        lst.append(x)


_INV_NAME = re.compile(r"invulnerable\s+save", re.I)
_INV_VALUE = re.compile(r"(\d)\s*\+\s*(\*)?")
_INV_DESC = re.compile(r"\b(\d)\+\s+invulnerable\s+save\b", re.I)


def invulnerable(name: str, description: str = "") -> int | None:
    """None: not an invulnerable save ability. 0: one the engine cannot apply as a plain InSv (a
    condition, marked "*" in the data, or no value). Else the save's roll. The value is read from
    the name ("Invulnerable Save (4+)") or, failing that, from the one "N+ invulnerable save" in
    the description (the description itself is never kept)."""
    if not _INV_NAME.search(name):
        return None
    m = _INV_VALUE.search(name)
    if m:
        return 0 if m.group(2) else int(m.group(1))
    found = _INV_DESC.findall(description or "")
    return int(found[0]) if len(set(found)) == 1 else 0


# --- profiles -> records -----------------------------------------------------------------------

def split_keywords(text: str) -> list[str]:
    """A weapon's Keywords characteristic split into printed abilities (commas and brackets)."""
    out, buf, depth = [], [], 0
    for ch in text:
        if ch == "[":
            depth += 1
            continue
        if ch == "]":
            depth = max(0, depth - 1)
            ch = ","
        if ch in ",;":
            tok = " ".join("".join(buf).split())
            if tok:
                out.append(tok)
            buf = []
        else:
            buf.append(ch)
    tok = " ".join("".join(buf).split())
    if tok:
        out.append(tok)
    return [t for t in out if B.norm(t) not in B.NONE_MARKS]


def weapon_keywords(text: str, weapon_name: str = "weapon") -> tuple[list[str], list[str]]:
    """A Keywords characteristic as (printed abilities the engine implements, the others): each
    printed ability goes through the ability registry's parser on its own."""
    known, labels = [], []
    for tok in split_keywords(text):
        try:
            parse_weapon_abilities(tok, weapon_name)
        except AbilityError:
            _add(labels, tok)
        else:
            known.append(tok)
    return known, labels


def weapon(profile: dict, file: str, place: str, name: str | None = None) -> Weapon:
    """A weapon profile (Range, A, BS or WS, S, AP, D, Keywords)."""
    chars = B.characteristics(profile)
    name = name or B.clean_name(B.text(profile, "name"))
    _check_name(name, file, f"{place}.name", "a weapon name")

    def need(key: str) -> str:
        if key not in chars:
            raise B.where_error(file, f"{place}.{key.upper() if len(key) <= 2 else key.capitalize()}",
                                B.Bad(f"the characteristic {key.upper() if len(key) <= 2 else key.capitalize()} "
                                      f"of weapon {name!r}", "<missing>"))
        return chars[key]

    def at(key: str) -> str:
        return f"{place}.{key}"

    try:
        rng_text = need("range")
        melee = rng_text.strip().casefold() == "melee"
        rng = None if melee else B.inches(rng_text, "Range")
        if rng is not None and not L.RANGE[0] <= rng <= L.RANGE[1]:
            raise B.Bad(f"Range of {L.RANGE[0]} to {L.RANGE[1]} inches", repr(rng_text))
    except B.Bad as e:
        raise B.where_error(file, at("Range"), e) from None
    known, labels = weapon_keywords(chars.get("keywords", ""), name)
    for tok in labels:
        _check_name(tok, file, at("Keywords"), "a weapon keyword")
    abil_text = ", ".join(known)
    parsed = parse_weapon_abilities(abil_text, name)
    skill_key = "ws" if melee else "bs"
    fields = {}
    for key, read in (("a", lambda v: B.dice(v, "A")), ("s", lambda v: B.whole(v, "S")), ("ap", B.ap),
                      ("d", lambda v: B.dice(v, "D"))):
        try:
            fields[key] = read(need(key))
        except B.Bad as e:
            raise B.where_error(file, at(key.upper()), e) from None
    skill_text = chars.get(skill_key, chars.get("bs" if melee else "ws", ""))
    skill = None
    if B.norm(skill_text) not in B.NONE_MARKS:
        try:
            skill = B.roll(skill_text, skill_key.upper())
        except B.Bad as e:
            raise B.where_error(file, at(skill_key.upper()), e) from None
        if not 2 <= skill <= 6:
            raise B.where_error(file, at(skill_key.upper()), B.Bad(f"{skill_key.upper()} from 2+ to 6+", repr(skill_text)))
    elif Hook.AUTOMATIC_HITS not in effects_of(parsed):
        raise B.where_error(file, at(skill_key.upper()), B.Bad(
            f"{skill_key.upper()} as a roll like 3+ (none only for a weapon that hits automatically)",
            repr(skill_text) if skill_text else "<missing>"))
    w = Weapon(name, rng, fields["a"], skill, fields["s"], fields["ap"], fields["d"], abil_text, tuple(labels))
    _check_weapon_bounds(w, file, place)
    return w


def _check_weapon_bounds(w: Weapon, file: str, place: str) -> None:
    from sim.rules.dice import parse_dice_expr
    if not L.S[0] <= w.S <= L.S[1]:
        raise B.where_error(file, f"{place}.S", B.Bad(f"S from {L.S[0]} to {L.S[1]}", str(w.S)))
    if not L.AP[0] <= w.AP <= L.AP[1]:
        raise B.where_error(file, f"{place}.AP", B.Bad(f"AP from {L.AP[0]} to {L.AP[1]}", str(w.AP)))
    for key in ("A", "D"):
        d = parse_dice_expr(getattr(w, key))
        if d.minimum < 1 or d.k > L.FIXED[1] or (d.is_random and not L.DICE_N[0] <= d.n <= L.DICE_N[1]):
            raise B.where_error(file, f"{place}.{key}", B.Bad(
                f"{key} of 1 to {L.FIXED[1]}, or 1 to {L.DICE_N[1]} dice plus at most {L.FIXED[1]}", getattr(w, key)))


def statline(profile: dict, file: str, place: str) -> dict:
    """M T Sv W Ld OC and InSv of a Unit profile, as whole numbers (InSv None when blank)."""
    chars = B.characteristics(profile)
    out = {}
    readers = {"M": lambda v: 0 if B.norm(v) in ("-",) else B.inches(v, "M"),
               "T": lambda v: B.whole(v, "T"),
               "Sv": lambda v: 7 if B.norm(v) in ("-",) else B.roll(v, "Sv"),
               "W": lambda v: B.whole(v, "W"),
               "Ld": lambda v: B.roll(v, "Ld"),
               "OC": lambda v: 0 if B.norm(v) in ("-",) else B.whole(v, "OC")}
    for key, read in readers.items():
        if key.casefold() not in chars:
            raise B.where_error(file, f"{place}.{key}", B.Bad(
                f"the characteristic {key} of {B.text(profile, 'name')[:60]!r}", "<missing>"))
        try:
            out[key] = read(chars[key.casefold()])
        except B.Bad as e:
            raise B.where_error(file, f"{place}.{key}", e) from None
        lo, hi = L.STATS.get(key, (2, 7))
        if not lo <= out[key] <= hi:
            raise B.where_error(file, f"{place}.{key}", B.Bad(f"{key} from {lo} to {hi}", repr(chars[key.casefold()])))
    inv = chars.get("insv", "")
    out["InSv"] = None
    if B.norm(inv) not in B.NONE_MARKS:
        try:
            out["InSv"] = B.roll(inv, "InSv")
        except B.Bad as e:
            raise B.where_error(file, f"{place}.InSv", e) from None
        if not 2 <= out["InSv"] <= 6:
            raise B.where_error(file, f"{place}.InSv", B.Bad("InSv from 2+ to 6+", repr(inv)))
    return out


_BASE = re.compile(r"^\s*(\d{1,4}(?:\.\d+)?)\s*(?:mm)?\s*(?:[x\u00d7]\s*(\d{1,4}(?:\.\d+)?)\s*(?:mm)?)?\s*"
                   r"(oval|round|rect|rectangular|hull)?\s*$", re.I)


def base_in_data(profile: dict) -> Base | None:
    """A base size a Unit profile states (a characteristic "Base" or "Base Size": "32mm",
    "60x35mm oval"); None when it states none or one this cannot read."""
    chars = B.characteristics(profile)
    v = chars.get("base size", chars.get("base", ""))
    m = _BASE.match(v) if v else None
    if not m:
        return None
    a = float(m.group(1))
    b = float(m.group(2)) if m.group(2) else a
    kind = (m.group(3) or "").casefold()
    shape = "round" if a == b and kind in ("", "round") else ("rect" if kind.startswith("rect") else "oval")
    if not (L.BASE_MM[0] <= a <= L.BASE_MM[1] and L.BASE_MM[0] <= b <= L.BASE_MM[1]) or kind == "hull":
        return None
    return Base(shape, a, b)


def _check_name(name: str, file: str, place: str, what: str) -> None:
    if not 1 <= len(name) <= L.MAX_NAME or any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in name):
        raise B.where_error(file, place, B.Bad(f"{what} of 1 to {L.MAX_NAME} characters without control characters",
                                               repr(name[:60]) + ("..." if len(name) > 60 else "")))


check_name = _check_name
