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
    S: int | str  # a random S as dice ("2D6", 02.02.03)
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
    InSv_against: str = ""  # "ranged" or "melee": its InSv counts only against those attacks (05.03)
    rules: tuple[str, ...] = ()  # keys of its own modelled rules, beyond its unit's (sim.rules.effects)


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    models: tuple[Model, ...]
    keywords: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    points: int | None = None
    can_lead: tuple[str, ...] = ()  # the datasheets it can lead (its Leader ability's list; sim.importers.leaders)
    transport: dict | None = field(default=None, hash=False)  # 18.01 its capacity table (sim.importers.transport)
    rules: tuple[str, ...] = ()  # keys of the modelled rules every model holds (sim.rules.effects)
    split_by: str | None = None  # 26 step 7 the transport whose rule splits it in two (sim.scenario.split)


@dataclass
class Collected:
    """Abilities met while reading one unit or model: the known ones as printed, the rules of
    sim.rules.effects modelled (their keys, with the printed names met), the others as labels, the
    invulnerable saves named (sim.importers.model.Invuln, resolved with the statline's InSv by
    :func:`invulnerable_save`) and, of a CHARACTER, the datasheets its Leader ability names.
    ``factions``: the unit's (a rule found by name alone must be of one of them)."""

    abilities: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    invulns: list["Invuln"] = field(default_factory=list)
    leader_text: list[str] = field(default_factory=list)  # (read for names only, never kept)
    transport_text: list[str] = field(default_factory=list)  # (read for numbers and keywords only, never kept)
    rules: list[str] = field(default_factory=list)  # keys of sim.rules.effects records, in order met
    rule_names: dict = field(default_factory=dict)  # key -> the printed name met
    held: list = field(default_factory=list)  # (name, how modelled, the data's condition): report only
    factions: tuple = ()  # the unit's factions ("Faction: ..." categories)

    def add(self, name: str, description: str = "", ids=()) -> None:
        """One ability or rule by its printed name and the community data's ids (of the rule or
        profile, and of the link to it): a core ability the engine implements is kept as printed;
        else a rule with a record of sim.rules.effects (by id, else by name) is kept by its key;
        else it is an inert label."""
        name = B.clean_name(name)
        if not name:
            return
        inv = invulnerable(name, description)
        if inv is not None:
            self.invulns.append(inv)
            return
        try:
            parsed = parse_unit_abilities(name, "unit")
        except AbilityError:
            rec = rule_record(ids, name, self.factions)
            if rec is not None:
                _add(self.rules, rec.key)
                self.rule_names.setdefault(rec.key, name)
            elif core_weapon_ability(name):  # (a glossary link: its weapons carry it, or get it under a condition)
                from sim.importers.report import CORE, WEAPON_LINK
                _add(self.held, (name, CORE, WEAPON_LINK))
            else:
                _add(self.labels, name)
        else:
            _add(self.abilities, name)
            if description and any(Hook.LEADS in a.spec.hooks for a in parsed):  # (19.01 its list of units)
                self.leader_text.append(description)


def rule_record(ids, name: str, factions=()):
    """The record of sim.rules.effects.table for a rule as the data attaches it (by its ids,
    else by its printed name), or None. By name alone, a record of a faction the unit does not
    have (``factions``: its "Faction: ..." categories; none known: any) is not taken."""
    from sim.rules.abilities.value import norm
    from sim.rules.effects import table
    ids = tuple(i for i in ids if isinstance(i, str) and i)
    if isinstance(factions, str):
        factions = (factions,) if factions else ()
    for f in tuple(factions) or ("",):
        rec = table.lookup(ids, name, f)
        if rec is None:
            return None
        if rec.source == "ritual":  # a ritual is attempted through its rule, never held
            return None
        if set(rec.ids) & set(ids) or not rec.faction or not factions:
            return rec
        if any(norm(rec.faction) == norm(x) for x in factions):
            return rec
    return None


def _add(lst: list, x) -> None:
    if x not in lst:
        lst.append(x)


_INV_NAME = re.compile(r"invulnerable\s+save", re.I)
_INV_VALUE = re.compile(r"(\d)\s*\+\s*(\*)?")
_INV_DESC = re.compile(r"\b(\d)\+\s+invulnerable\s+save\b", re.I)
_AGAINST = re.compile(r"\bagainst\s+(ranged|melee|shooting)\s+attacks\b|\((ranged|melee)\)", re.I)
_NO_REROLL = re.compile(r"\bre-?roll", re.I)
RANGED_ONLY, MELEE_ONLY = "ranged", "melee"
UNKNOWN, NO_REROLL = "unknown", "no re-roll"


@dataclass(frozen=True)
class Invuln:
    """An invulnerable save the data names: its roll (None: none readable), whether the data
    marks it as conditional ("5+*"), and the condition read from what the data states
    (``against``: "ranged" or "melee" attacks only; ``condition``: NO_REROLL, a save that cannot
    be re-rolled, or UNKNOWN, a condition the data does not state). Only the roll and these flags
    are read from a description; the description itself is never kept."""

    name: str
    roll: int | None
    starred: bool = False
    against: str = ""
    condition: str = ""


def invulnerable(name: str, description: str = "") -> Invuln | None:
    """None: not an invulnerable save ability. Else what it gives: the roll from the name
    ("Invulnerable Save (4+)", "(5+*)") or, failing that, from the one "N+ invulnerable save" in
    the description; its condition from the name or description ("against ranged attacks",
    "(Ranged)"); a "*" with neither is a condition the data does not state."""
    if not _INV_NAME.search(name):
        return None
    m = _INV_VALUE.search(name)
    roll, starred = (int(m.group(1)), bool(m.group(2))) if m else (None, False)
    starred = starred or name.strip().startswith("*")
    if roll is None:
        found = _INV_DESC.findall(description or "")
        roll = int(found[0]) if len(set(found)) == 1 else None
    return _condition(name, roll, starred, f"{name} {description or ''}")


def _condition(name: str, roll, starred: bool, text: str) -> Invuln:
    kinds = {(a or b).casefold() for a, b in _AGAINST.findall(text)}
    kinds = {"ranged" if k == "shooting" else k for k in kinds}
    if len(kinds) == 1:
        return Invuln(name, roll, starred, kinds.pop())
    if starred:
        return Invuln(name, roll, True, "", NO_REROLL if _NO_REROLL.search(text) and not kinds else UNKNOWN)
    return Invuln(name, roll)


def statline_invuln(value: str) -> Invuln | None:
    """The InSv characteristic as printed: "4+", "5+*" (a condition stated elsewhere), "5+
    (Ranged)"; None when blank or "-". Raises Bad for anything else."""
    v = value.strip()
    if B.norm(v) in B.NONE_MARKS:
        return None
    m = re.match(r"^(\d)\s*\+?\s*(\*)?\s*(?:\(\s*(ranged|melee)\s*\))?\s*(\*)?$", v, re.I)
    if not m:
        raise B.Bad('InSv as a roll like 4+ (or 5+*, 5+ (Ranged))', repr(v[:40]))
    roll = int(m.group(1))
    if not 2 <= roll <= 6:
        raise B.Bad("InSv from 2+ to 6+", repr(v[:40]))
    if m.group(3):
        return Invuln("InSv", roll, False, m.group(3).casefold())
    return Invuln("InSv", roll, bool(m.group(2) or m.group(4)))


def invulnerable_save(stat: Invuln | None, found: list[Invuln]) -> tuple[int | None, str, list[str], list[str]]:
    """(InSv, InSv_against, notes, labels) of a model from its statline's InSv and the
    invulnerable save abilities it and its unit have. A statline "5+*" takes its condition from
    the ability that states one. The best save for every attack is kept; with none, the best
    save against ranged (or melee) attacks only, kept as such (05.03). A save whose condition the
    data does not state is not applied (its ability stays a label; a note says why); one that only
    cannot be re-rolled is applied (a note says the restriction is not)."""
    notes: list[str] = []
    labels: list[str] = []
    if stat is not None and stat.starred and not stat.against:
        match = [f for f in found if f.roll in (None, stat.roll) and (f.starred or f.against or f.condition)]
        why = next((f for f in match if f.against), None) or next((f for f in match if f.condition == NO_REROLL), None)
        if why is not None:
            stat = Invuln(why.name, stat.roll, True, why.against, "" if why.against else why.condition)
            found = [f for f in found if f not in match]
        else:
            stat = Invuln(match[0].name if match else "InSv", stat.roll, True, "", UNKNOWN)
            found = [f for f in found if f not in match[:1]]
    cands = ([stat] if stat is not None else []) + [f for f in found if f.roll is not None]
    for f in found:
        if f.roll is None:
            labels.append(f.name)
            if f.starred or f.against or f.condition:
                notes.append(f"{f.name!r}: an invulnerable save whose value the data does not give: not applied")

    def what(c: Invuln) -> str:
        return f"invulnerable save {c.roll}+" + ("*" if c.starred else "") + (f" ({c.name!r})" if c.name != "InSv" else "")

    plain = [c for c in cands if not c.against and c.condition != UNKNOWN]
    conditional = sorted((c for c in cands if c.against), key=lambda c: c.roll)
    roll, against = (min(c.roll for c in plain), "") if plain else (None, "")
    if roll is None and conditional:
        roll, against = conditional[0].roll, conditional[0].against
        notes.append(f"{what(conditional[0])} against {against} attacks only (05.03)")
        conditional = conditional[1:]
    for c in conditional:
        if not (c.roll >= roll and not against):
            notes.append(f"{what(c)} against {c.against} attacks only: not applied (a model has one InSv: "
                         f"{roll}+{' against ' + against + ' attacks' if against else ''} kept)")
    for c in cands:
        if c.condition == UNKNOWN:
            if c.name != "InSv":
                labels.append(c.name)
            notes.append(f"{what(c)}: a condition the data does not state (not ranged or melee attacks only): "
                         "not applied")
        elif c.condition == NO_REROLL and c.roll == roll and not against:
            notes.append(f"{what(c)}: applied; that it cannot be re-rolled is not (the engine offers re-rolls)")
    return roll, against, notes, list(dict.fromkeys(labels))


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
    for key, read in (("a", lambda v: B.dice(v, "A")), ("s", B.strength), ("ap", B.ap),
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
    S = parse_dice_expr(str(w.S))  # (a random S: its lowest and highest results)
    if not (L.S[0] <= S.minimum and S.maximum <= L.S[1]) or (S.is_random and not L.DICE_N[0] <= S.n <= L.DICE_N[1]):
        raise B.where_error(file, f"{place}.S", B.Bad(f"S from {L.S[0]} to {L.S[1]}", str(w.S)))
    if not L.AP[0] <= w.AP <= L.AP[1]:
        raise B.where_error(file, f"{place}.AP", B.Bad(f"AP from {L.AP[0]} to {L.AP[1]}", str(w.AP)))
    for key in ("A", "D"):
        d = parse_dice_expr(getattr(w, key))
        if d.minimum < 1 or d.k > L.FIXED[1] or (d.is_random and not L.DICE_N[0] <= d.n <= L.DICE_N[1]):
            raise B.where_error(file, f"{place}.{key}", B.Bad(
                f"{key} of 1 to {L.FIXED[1]}, or 1 to {L.DICE_N[1]} dice plus at most {L.FIXED[1]}", getattr(w, key)))


def statline(profile: dict, file: str, place: str) -> dict:
    """M T Sv W Ld OC of a Unit profile, as whole numbers, and its InSv as printed (an Invuln, or
    None when blank; resolved with the abilities by :func:`invulnerable_save`)."""
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
    try:
        out["InSv"] = statline_invuln(chars.get("insv", ""))
    except B.Bad as e:
        raise B.where_error(file, f"{place}.InSv", e) from None
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


def modelled_as(name: str, ids=(), factions=()) -> str:
    """How the engine models an ability of this name and these ids: report.CORE for a core
    ability of sim.rules.abilities, a rule record's key, or "" (not modelled)."""
    from sim.importers.report import CORE
    name = B.clean_name(name)
    if not name or invulnerable(name) is not None:
        return ""
    try:
        parse_unit_abilities(name, "unit")
    except AbilityError:
        rec = rule_record(ids, name, factions)
        return rec.key if rec is not None else ""
    return CORE


def core_weapon_ability(name: str) -> bool:
    """Is this the name of a weapon ability the engine implements (sim.rules.abilities), as the
    data names the rule it attaches: "Lethal Hits", or without its value: "Sustained Hits",
    "Anti-", "Melta"."""
    from sim.rules.abilities import WEAPON_ABILITY_NAMES
    try:
        parse_weapon_abilities(B.clean_name(name), "weapon")
        return True
    except AbilityError:
        pass
    n = re.sub(r"\s+", " ", B.clean_name(name).upper()).strip()
    return any(n == a or n.startswith(a + " ") or n.startswith(a + "-") for a in WEAPON_ABILITY_NAMES)
