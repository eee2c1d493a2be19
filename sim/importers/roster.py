"""Roster -> units. A roster (BattleScribe ``.ros``/``.rosz``, New Recruit's JSON) lists forces,
each a tree of selections: units (type "unit", or a single "model" at the top), the models in
them (type "model", ``number`` of them), and upgrades (wargear, weapons, enhancements), each
with its profiles (statlines, weapons, abilities), rules, categories and costs, already
evaluated by the list builder. :func:`assemble` turns one unit selection into a Unit; the
catalogue reader builds the same kind of selection tree for a datasheet's default loadout and
assembles it the same way.

Decisions (README "Importing rosters and catalogues"):

* Models: each "model" selection is ``number`` alike models; the weapons below it, ``number``
  of them in all, are shared out evenly (when they do not divide, the first models get one
  more). A unit with no model selection is one model (a vehicle, say) with the unit's statline.
* A weapon selection with several profiles of one kind (ranged or melee: standard and
  supercharge) is a multi-profile weapon named after the selection: every profile is a weapon
  profile of its own, marked as that weapon's (``weapon = ...``), and the model's loadout holds
  them all; the engine has the model pick one when it selects the weapon (04.01.03). The report
  names them.
* A unit selection nested inside another unit's selection is a leader attached to it (19.01):
  its models join the unit with role "leader". Rosters have no other field saying a leader is
  attached; a Leader ability alone leaves the units apart (and is a label).
* Keywords are the unit's categories without the faction ones ("Faction: ..."); a model's own
  categories beyond its unit's are its own keywords.
* Abilities (ability profiles and rules) are read by name: one the engine implements is kept as
  printed (Feel No Pain 5+, Stealth, Deadly Demise D3...), an invulnerable save becomes InSv;
  one with a rule record (sim.rules.effects: found by the data's ids, else by name) is a rule of
  the unit (of its models, when only some carry it); any other is an inert label. A weapon's
  rules that restate its Keywords characteristic are not labelled twice; a core weapon ability
  the data attaches without printing it is reported as given under a condition of the data.
* Army rules (README "Rules of datasheets, armies and detachments"): the chosen detachment's
  rules, the force's own rules and an army rule every unit holds go to the army's ``rules``
  (sim.importers.load_roster).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sim.errors import ImportFileError
from sim.importers import bsdata as B
from sim.importers import leaders as leaders_of
from sim.importers import model as M
from sim.importers import transport as TP
from sim.importers.attach import attach_leader
from sim.rules import transport as TR
from sim.importers.report import CORE, ENGINE_KEYWORDS, UnitReport

MAX_UNITS = 500
MAX_SELECTIONS = 200_000
MAX_PROFILES = 256  # profiles of one selection (the data's: a few statlines, weapons and abilities)


@dataclass
class _Gear:
    sel: dict
    count: int  # in all, for the model group that holds it
    weapons: list[tuple[str, M.Weapon]]  # (kind, weapon) of its weapon profiles


@dataclass
class _Group:
    sel: dict
    place: str
    count: int
    gear: list[_Gear] = field(default_factory=list)
    found: M.Collected = field(default_factory=M.Collected)
    own_keywords: list[str] = field(default_factory=list)
    role: str = "bodyguard"


class Assembler:
    """Assembles units for one file: keeps the weapons met so far (unique names), the unit ids
    given, and the reports."""

    def __init__(self, file: str, bases, taken_ids=(), weapons=None, known=None):
        self.file, self.bases = file, bases
        self.ids = set(taken_ids)
        self.weapons: dict[str, M.Weapon] = dict(weapons or {})
        self.reports: list[UnitReport] = []
        self.seen = 0
        self.known = leaders_of.known_names(known or ())  # datasheet names a Leader list may name
        self.factions: tuple[str, ...] = ()  # of the unit being read (a rule found by name: its faction's)

    # --- a unit ---------------------------------------------------------------------------------
    def assemble(self, sel: dict, place: str) -> M.Unit:
        """The unit of one unit selection. A unit the importer cannot read is refused with the
        one-line error, its place naming the unit."""
        name = B.clean_name(B.text(sel, "name"))
        M.check_name(name, self.file, f"{place}.name", "a unit name")
        weapons, ids = dict(self.weapons), set(self.ids)
        try:
            return self._assemble(sel, place, name)
        except ImportFileError as e:
            self.weapons, self.ids = weapons, ids  # (nothing of a refused unit kept)
            if repr(name[:60]) in e.path:  # (its place names it already: a datasheet's)
                raise
            raise ImportFileError(e.file, f"unit {name[:60]!r}, {e.path}" if e.path else f"unit {name[:60]!r}",
                                  e.expected, e.found) from None

    def _assemble(self, sel: dict, place: str, name: str) -> M.Unit:
        _in_version(sel, self.file, place, name)
        uid = self._id(name)
        rep = UnitReport(uid, name)
        unit, leaders = self._unit(sel, place, name, rep)
        for lsel, lplace in leaders:
            lname = B.clean_name(B.text(lsel, "name"))
            M.check_name(lname, self.file, f"{lplace}.name", "a unit name")
            lunit, more = self._unit(lsel, lplace, lname, rep, who=f"leader {lname!r}")
            if more:
                raise B.where_error(self.file, more[0][1], B.Bad("a leader with no unit nested in it", "<a nested unit>"))
            unit = attach_leader(unit, lunit)
            rep.note(f"leader {lname!r} attached (its selection is nested in this unit's)")
        pts = _points(sel, self.file, place)
        unit = M.Unit(uid, unit.name, unit.models, unit.keywords, unit.abilities, unit.labels,
                      int(round(pts)) if pts else None, unit.can_lead, unit.transport, unit.rules)
        rep.points = unit.points
        kws = {k for k in unit.keywords} | {k for m in unit.models for k in m.keywords}
        rep.keywords_without_rule = sorted(k for k in kws if k not in ENGINE_KEYWORDS)
        self.reports.append(rep)
        return unit

    def _unit(self, sel: dict, place: str, name: str, rep: UnitReport, who: str = "unit"):
        self.factions = tuple(c.split(":", 1)[1].strip() for c in B.category_names(sel) if B.is_faction(c))
        unit_kw = [k.upper() for k in B.category_names(sel) if not B.is_faction(k)]
        unit_kw = list(dict.fromkeys(unit_kw))
        groups: list[_Group] = []
        unit_found = M.Collected()
        loose: list[_Gear] = []
        leaders: list[tuple[dict, str]] = []
        self._abilities(sel, unit_found)
        if B.text(sel, "type") == "model":  # a single-model unit: its abilities are the unit's
            groups.append(self._group(sel, place, unit_kw, rep, collect=False))
        else:
            self._walk(sel, place, unit_kw, groups, loose, unit_found, leaders, rep, top=True)
        if not groups:  # a unit with no model selection: one model
            g = _Group(sel, place, 1)
            g.gear, g.found = loose, M.Collected()
            groups, loose = [g], []
        if loose:
            groups[0].gear.extend(loose)
            rep.note(f"wargear not held by a model given to {B.clean_name(B.text(groups[0].sel, 'name'))!r}: "
                             + ", ".join(sorted({B.clean_name(B.text(x.sel, 'name')) for x in loose})))
        groups = self._nested_leaders(groups, unit_kw, name, rep)
        # a rule every model group carries is the unit's (held by every model); one only some
        # carry stays with their models (its bearers)
        unit_rules = list(unit_found.rules)
        for key in dict.fromkeys(k for g in groups for k in g.found.rules):
            if key not in unit_rules and all(key in g.found.rules for g in groups):
                unit_rules.append(key)
                unit_found.rule_names.setdefault(key, next(g.found.rule_names[key] for g in groups))
        self._unit_rules = unit_rules
        stat_profiles = [(p, f"{place}.profiles[{i}]") for i, p in enumerate(B.items(sel, "profiles"))
                         if B.profile_kind(p) == B.STAT_TYPE and _shown(p)]
        shared = [(p, f"{g.place}.profiles[{i}]", B.clean_name(B.text(g.sel, "name")))
                  for g in groups for i, p in enumerate(B.items(g.sel, "profiles"))
                  if B.profile_kind(p) == B.STAT_TYPE and _shown(p)]
        models = []
        for g in groups:
            models.extend(self._models(g, name, unit_kw, stat_profiles, shared, unit_found, rep))
        _check_names(self.file, place, unit_kw, unit_found.labels)
        for g in groups:
            _check_names(self.file, g.place, g.own_keywords, g.found.labels)
        for a in unit_found.abilities:
            rep.model(who, a, CORE)
        for key in unit_rules:
            rep.model(who, unit_found.rule_names.get(key, key), key)
        for name_, how, why in unit_found.held:
            rep.hold(who, name_, how, why)
        for a in unit_found.labels:
            rep.label(who, a)
        unit_abil = tuple(unit_found.abilities)
        texts = unit_found.leader_text + [t for g in groups for t in g.found.leader_text]
        lead = tuple(leaders_of.can_lead(texts, self.known)) if texts else ()
        if lead:
            rep.note("can lead: " + ", ".join(lead))
        elif texts:
            rep.note("a Leader ability naming no datasheet known to the import")
        transport = self._capacity(sel, unit_kw, unit_found.transport_text
                                   + [t for g in groups for t in g.found.transport_text], rep)
        return M.Unit("", name, tuple(models), tuple(unit_kw), unit_abil, tuple(unit_found.labels),
                      can_lead=lead, transport=transport, rules=tuple(unit_rules)), leaders

    def _capacity(self, sel: dict, unit_kw, texts: list[str], rep: UnitReport) -> dict | None:
        """18.01 The unit's transport capacity, read from its Transport profile's numbers and
        keywords (sim.importers.transport); kept only on a TRANSPORT (or DEDICATED TRANSPORT)
        unit; the report says what was read and what was not."""
        if TR.DEDICATED in unit_kw:
            rep.note("a DEDICATED TRANSPORT with no unit embarked is destroyed when the battle starts (18.01): "
                     "give a passenger `embarked = \"<this unit's id>\"`, or embark one in the battle formations")
        if not texts:
            return None
        if TR.TRANSPORT not in unit_kw and TR.DEDICATED not in unit_kw:
            rep.note("a Transport capacity on a unit without the TRANSPORT keyword: not kept (18.01)")
            return None
        factions = [c.split(":", 1)[1] for c in B.category_names(sel) if B.is_faction(c)]
        cap = TP.read_capacity(texts[0], factions, wargear=_selection_names(sel))
        rep.note(TP.words(cap))
        return cap.table

    def _nested_leaders(self, groups: list[_Group], unit_kw, name: str, rep: UnitReport) -> list[_Group]:
        """A CHARACTER model nested in a unit that is not one (a roster's leader typed "model"
        inside its bodyguard's selection, 19.01): its models lead the unit (role "leader")."""
        if "CHARACTER" in unit_kw:
            return groups
        for g in groups:
            if "CHARACTER" in g.own_keywords and g.role == "bodyguard":
                g.role = "leader"
                rep.note(f"leader {B.clean_name(B.text(g.sel, 'name'))!r} attached (a CHARACTER model nested in "
                         "this unit's selection)")
        return groups

    def _walk(self, sel, place, unit_kw, groups, loose, found, leaders, rep, top=False, holder=None):
        for i, child in enumerate(B.items(sel, "selections")):
            self.seen += 1
            if self.seen > MAX_SELECTIONS:
                raise B.where_error(self.file, place, B.Bad(f"at most {MAX_SELECTIONS:,} selections", "more"))
            cplace = f"{place}.selections[{i}]"
            kind = B.text(child, "type")
            if kind == "unit":
                leaders.append((child, cplace))
            elif kind == "model" and holder is None:
                groups.append(self._group(child, cplace, unit_kw, rep))
            else:
                gear = self._gear(child, cplace)
                target = holder.gear if holder is not None else loose
                if gear.weapons:
                    target.append(gear)
                    self._weapon_rules(child, gear, rep)
                else:
                    self._abilities(child, holder.found if holder is not None else found)
                self._walk(child, cplace, unit_kw, groups, loose, found, leaders, rep, holder=holder)

    def _group(self, sel: dict, place: str, unit_kw, rep, collect: bool = True) -> _Group:
        n = _count(sel, self.file, place)
        g = _Group(sel, place, n)
        if collect:
            self._abilities(sel, g.found)
        own = self._gear(sel, place)
        if own.weapons:
            own.count = n
            g.gear.append(own)
        g.own_keywords = [k for k in dict.fromkeys(c.upper() for c in B.category_names(sel) if not B.is_faction(c))
                          if k not in unit_kw]
        self._walk(sel, place, unit_kw, [], [], g.found, [], rep, holder=g)
        return g

    def _gear(self, sel: dict, place: str) -> _Gear:
        out = []
        profiles = B.items(sel, "profiles")
        if len(profiles) > MAX_PROFILES:  # (before any is read: 25,000 profiles of one name)
            raise B.where_error(self.file, f"{place}.profiles", B.Bad(
                f"a selection of at most {MAX_PROFILES} profiles", f"<{len(profiles):,} profiles>"))
        for i, p in enumerate(profiles):
            kind = B.profile_kind(p)
            if kind in (B.RANGED, B.MELEE):
                out.append((kind, M.weapon(p, self.file, f"{place}.profiles[{i}]")))
        return _Gear(sel, _count(sel, self.file, place), out)

    def _abilities(self, sel: dict, found: M.Collected) -> None:
        """The abilities a selection shows (a profile or rule marked hidden is not shown), with the
        community data's ids of each (a rule's record is found by id, else by name: model.rule_record);
        and those the catalogue reader found hidden only by a condition of the roster ("held"):
        kept for the report when the engine models them."""
        found.factions = self.factions
        for p in B.items(sel, "profiles"):
            chars = B.characteristics(p) if B.profile_kind(p) == "ability" else {}
            text = chars.get("capacity") or " ".join(chars.values())
            if chars and _shown(p) and TP.is_capacity(B.text(p, "typeId"), B.text(p, "typeName"),
                                                      B.text(p, "name"), text):
                found.transport_text.append(text)
            elif B.profile_kind(p) == "ability" and _shown(p):
                desc = " ".join(v for k, v in B.characteristics(p).items())
                found.add(B.text(p, "name"), desc, (B.text(p, "id"),))
        for r in B.items(sel, "rules"):
            if _shown(r):
                ids = [i for i in (r.get("ids") if isinstance(r.get("ids"), list) else []) if isinstance(i, str)]
                found.add(B.text(r, "name"), B.text(r, "description"), tuple(ids) + (B.text(r, "id"),))
        for h in B.items(sel, "held"):
            ids = tuple(i for i in h.get("ids", ()) if isinstance(i, str))
            how = M.modelled_as(B.text(h, "name"), ids, self.factions)
            if how and not any(x[:2] == (B.clean_name(B.text(h, "name")), how) for x in found.held):
                found.held.append((B.clean_name(B.text(h, "name")), how, B.text(h, "why")))

    def _weapon_rules(self, sel: dict, gear: _Gear, rep: UnitReport) -> None:
        """Rules and ability profiles on a weapon selection: those its Keywords already print are
        not listed again; the others are the weapon's labels."""
        printed = [B.norm(t) for _, w in gear.weapons for t in M.split_keywords(w.abilities) + list(w.labels)]
        names = [B.text(r, "name") for r in B.items(sel, "rules")]
        names += [B.text(p, "name") for p in B.items(sel, "profiles") if B.profile_kind(p) == "ability"]
        for n in names:
            k = B.norm(B.clean_name(n)).rstrip("-").strip()
            if not k or any(t.startswith(k) for t in printed):
                continue
            core = M.core_weapon_ability(n)
            for _, w in gear.weapons:
                if core:  # (the engine implements it; the data gives it under a condition it does not print)
                    rep.hold(f"weapon {w.name!r}", B.clean_name(n), CORE,
                             "attached by the data, not in the weapon's Keywords: given under a condition")
                else:
                    rep.label(f"weapon {w.name!r}", B.clean_name(n))

    # --- models -----------------------------------------------------------------------------------
    def _models(self, g: _Group, unit_name, unit_kw, stat_profiles, shared, unit_found, rep) -> list[M.Model]:
        mname = B.clean_name(B.text(g.sel, "name")) or unit_name
        M.check_name(mname, self.file, f"{g.place}.name", "a model name")
        own_stats = [(p, f"{g.place}.profiles[{i}]") for i, p in enumerate(B.items(g.sel, "profiles"))
                     if B.profile_kind(p) == B.STAT_TYPE and _shown(p)]
        if own_stats:
            prof, pplace = own_stats[0]
        elif len(stat_profiles) == 1:
            prof, pplace = stat_profiles[0]
        elif stat_profiles:
            match = [sp for sp in stat_profiles if B.norm(B.text(sp[0], "name")) == B.norm(mname)]
            prof, pplace = (match or stat_profiles)[0]
            if not match:
                rep.note(f"{mname!r}: no statline named after it; the unit's first ({B.text(prof, 'name')!r}) used")
        elif shared:
            # the unit's one profile, kept on one of its models (Khorne Berzerkers' on the
            # Champion): the model named like it, else the only one, else the first
            match = [sp for sp in shared if B.norm(B.text(sp[0], "name")) == B.norm(mname)]
            distinct = list({B.norm(B.text(sp[0], "name")): sp for sp in shared}.values())
            prof, pplace, holder = (match or distinct)[0]
            how = "" if match or len(distinct) == 1 else f" (the first of {len(distinct)})"
            rep.note(f"{mname!r}: no Unit profile of its own; the unit's shared one ({B.text(prof, 'name')!r}, on "
                     f"{holder!r}) used{how}")
        else:
            raise B.where_error(self.file, f"{g.place}.profiles", B.Bad(
                f"a Unit profile (M T Sv W Ld OC) for model {mname!r}", "<none>"))
        stats = M.statline(prof, self.file, pplace)
        insv, against, notes, inv_labels = M.invulnerable_save(stats["InSv"], unit_found.invulns + g.found.invulns)
        stats["InSv"] = insv
        for n in notes:
            rep.note(f"{mname!r}: {n}")
        for a in inv_labels:
            if a not in g.found.labels and a not in unit_found.labels:
                g.found.labels.append(a)
        for f in unit_found.invulns + g.found.invulns:  # (read into InSv: modelled)
            if f.roll is not None and f.name not in inv_labels:
                rep.model("unit" if f in unit_found.invulns else f"model {mname!r}", f.name, CORE)
        own_rules = tuple(k for k in g.found.rules if k not in self._unit_rules)
        for a in g.found.abilities:
            if a not in unit_found.abilities:
                rep.model(f"model {mname!r}", a, CORE)
        for key in own_rules:
            rep.model(f"model {mname!r}", g.found.rule_names.get(key, key), key)
        for name_, how, why in g.found.held:
            rep.hold(f"model {mname!r}", name_, how, why)
        for a in g.found.labels:
            rep.label(f"model {mname!r}", a)
        kws = set(unit_kw) | set(g.own_keywords)
        base = M.base_in_data(prof)
        if base is None:
            base, src = self.bases.base_for(unit_name, mname, kws, stats["W"])
            src = f"the base table ({src})"
        else:
            src = "the data"
        rep.bases.append((mname, base.text(), src))
        # each model's loadout
        loadouts = [[] for _ in range(g.count)]
        for gear in g.gear:
            names = self._weapon_names(gear, rep)
            if not names:
                continue
            per, extra = divmod(gear.count, g.count)
            for k in range(g.count):
                loadouts[k].extend(names * (per + (1 if k < extra else 0)))
        out: list[M.Model] = []
        common = dict(M=stats["M"], T=stats["T"], Sv=stats["Sv"], W=stats["W"], Ld=stats["Ld"], OC=stats["OC"],
                      InSv=stats["InSv"], base=base, keywords=tuple(g.own_keywords),
                      abilities=tuple(a for a in g.found.abilities if a not in unit_found.abilities),
                      labels=tuple(a for a in g.found.labels if a not in unit_found.labels), role=g.role,
                      InSv_against=against, rules=own_rules)
        for lo in loadouts:
            t = tuple(lo)
            if out and out[-1].weapons == t:
                out[-1] = _replace(out[-1], count=out[-1].count + 1)
            else:
                out.append(M.Model(mname, 1, weapons=t, **common))
        return out

    def _weapon_names(self, gear: _Gear, rep: UnitReport) -> list[str]:
        """The weapon profile names one of its holders carries, each registered. Several
        profiles of one kind (ranged or melee) are one multi-profile weapon named after the
        selection (04.01.03: the model picks one when it selects the weapon); the report says
        which."""
        by_kind: dict[str, list[M.Weapon]] = {}
        for kind, w in gear.weapons:
            by_kind.setdefault(kind, []).append(w)
        gname = B.clean_name(B.text(gear.sel, "name"))
        multi = [k for k, ws in by_kind.items() if len(ws) > 1]
        taken = {w.name for _, w in gear.weapons}  # (a profile of the other kind may have the selection's name)
        out = []
        for kind, ws in by_kind.items():
            group = ""
            if len(ws) > 1:
                group = self._group_name(gname or ws[0].name, kind if len(multi) > 1 else "", taken, kind)
            names = [self._register(w if not group else _grouped(w, group), rep) for w in ws]
            out.extend(names)
            if group:
                rep.note(f"{group!r}: a multi-profile weapon of {len(names)} {kind} profiles ("
                         + ", ".join(repr(n) for n in names) + "), one picked when it is selected (04.01.03)")
        return out

    def _group_name(self, name: str, kind: str, taken: set[str], own_kind: str) -> str:
        """The name of a multi-profile weapon: its selection's (with its kind when the selection
        has profiles of both kinds, or when a profile has the selection's name: the Cerastus
        shock lance's ranged profile is "Cerastus shock lance"), never a weapon profile's name
        (a script names either)."""
        group = f"{name} ({kind})" if kind else name
        profiles = taken | set(self.weapons)
        if group in profiles and not kind:
            group = f"{name} ({own_kind})"
        k = 2
        base = group
        while group in profiles:
            group, k = f"{base} (weapon{'' if k == 2 else f' {k}'})", k + 1
        return group

    def _register(self, w: M.Weapon, rep: UnitReport) -> str:
        """The name ``w`` is kept under: its own, or, when a different profile or a
        multi-profile weapon met before has it (a script names either, so a profile never takes
        a multi-profile weapon's name: the War Dog Karnivore's one-profile Reaper chaintalon
        beside the Huntsman's two), its own with a number."""
        name, k = w.name, 2
        groups = {x.weapon for x in self.weapons.values() if x.weapon}
        while (name in self.weapons and self.weapons[name] != _renamed(w, name)) or name in groups:
            name = f"{w.name} #{k}"
            k += 1
        if name != w.name:
            other = "a multi-profile weapon" if w.name in groups else "another"
            rep.note(f"weapon {w.name!r} differs from {other} of that name: imported as {name!r}")
        self.weapons[name] = _renamed(w, name)
        for lab in w.labels:
            rep.label(f"weapon {name!r}", lab)
        return name

    def _id(self, name: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:40] or "unit"
        uid, k = base, 2
        while uid in self.ids:
            uid = f"{base}-{k}"
            k += 1
        self.ids.add(uid)
        return uid


def _in_version(sel: dict, file: str, place: str, name: str) -> None:
    """Part A ruling 28 (sim.rules.scope): a unit this version cannot play (AIRCRAFT: a category
    of the unit, of one of its models, 02.05.01, or of a leader nested in it) is refused before
    anything else is read, naming it."""
    from sim.rules import scope
    cats, stack, n = [], [sel], 0
    while stack and n < MAX_SELECTIONS:
        s, n = stack.pop(), n + 1
        cats += B.category_names(s)
        stack.extend(c for c in B.items(s, "selections") if B.text(c, "type") in ("model", "unit"))
    if scope.refusal(c for c in cats if not B.is_faction(c)) is not None:
        raise B.where_error(file, f"{place}.categories", B.Bad(scope.EXPECTED, f"AIRCRAFT unit {name!r}"))


def _shown(d: dict) -> bool:
    """A profile or rule the list builder shows (one marked hidden is left out)."""
    return not B.flag(d, "hidden")


def _renamed(w: M.Weapon, name: str) -> M.Weapon:
    return w if w.name == name else _replace(w, name=name)


def _grouped(w: M.Weapon, group: str) -> M.Weapon:
    """The profile as one of the multi-profile weapon ``group``'s (04.01.03)."""
    return _replace(w, weapon=group)


def _replace(m: M.Model, **kw) -> M.Model:
    from dataclasses import replace
    return replace(m, **kw)


def _check_names(file: str, place: str, keywords, labels) -> None:
    """Keywords (its categories) and inert labels (the names of abilities the engine does not
    implement) are written into the scenario as names are: each of 1 to MAX_NAME characters with
    no control character, or the file is refused here, naming it and the place (a name the
    data grew past that by a modifier, a category name with an escape sequence)."""
    for k in keywords:
        M.check_name(k, file, f"{place}.categories", "a keyword")
    for a in labels:
        M.check_name(a, file, f"{place}.abilities", "an ability name")


def _count(sel: dict, file: str, place: str) -> int:
    try:
        n = B.number(sel, "number", 1.0 if sel.get("number") is None else None)
    except B.Bad as e:
        raise B.where_error(file, f"{place}.number", B.Bad("a number of 0 to 200", e.found)) from None
    if n is None or n != int(n) or not 0 <= n <= 200:
        raise B.where_error(file, f"{place}.number", B.Bad("a number of 0 to 200", repr(sel.get("number"))[:40]))
    return int(n)


def _points(sel: dict, file: str, place: str) -> float:
    total, stack = 0.0, [(sel, place)]
    while stack:
        s, at = stack.pop()
        try:
            total += B.pts(s)
        except B.Bad as e:
            raise B.where_error(file, f"{at}.costs", e) from None
        stack.extend((c, f"{at}.selections[{i}]") for i, c in enumerate(B.items(s, "selections")))
    return total


def check_numbers(doc: dict, file: str) -> None:
    """Every number of the roster checked (bsdata.check_numbers), whether or not the import reads
    it: the roster's own costs and cost limits, and every force's and selection's (counts,
    costs), at most MAX_SELECTIONS of them; the first that is not a finite number within bounds
    refuses the roster, naming its place."""
    stack = [(doc, "", "the roster")]
    n = 0
    while stack and n < MAX_SELECTIONS:
        node, place, what = stack.pop()
        n += 1
        try:
            B.check_numbers(node, what)
        except B.Bad as e:
            raise B.where_error(file, place or "roster", e) from None
        for key in ("forces", "selections"):
            kids = B.items(node, key)
            stack.extend((c, f"{place}{'.' if place else ''}{key}[{i}]", None) for i, c in reversed(list(enumerate(kids))))


def roster_selections(doc: dict, file: str):
    """(selection, place) of every unit in a roster's forces, in order; and the names of the
    selections that are not units (detachment, battle size...), for the report. Every number of
    the roster is checked first (check_numbers)."""
    check_numbers(doc, file)
    units, other = [], []
    stack = [(f, f"forces[{i}]") for i, f in reversed(list(enumerate(B.items(doc, "forces"))))]
    while stack:
        force, fplace = stack.pop()
        for i, sel in enumerate(B.items(force, "selections")):
            place = f"{fplace}.selections[{i}]"
            if B.text(sel, "type") in ("unit", "model"):
                units.append((sel, place))
            else:
                nested = [(c, f"{place}.selections[{j}]") for j, c in enumerate(B.items(sel, "selections"))
                          if B.text(c, "type") == "unit"]
                units.extend(nested)
                if not nested:
                    other.append(B.clean_name(B.text(sel, "name"))[:100])
        stack.extend((f, f"{fplace}.forces[{j}]") for j, f in reversed(list(enumerate(B.items(force, "forces")))))
    if len(units) > MAX_UNITS:
        raise B.where_error(file, "forces", B.Bad(f"at most {MAX_UNITS} units", str(len(units))))
    return units, other


def detachment_rules(doc: dict) -> list[tuple[str, str, tuple]]:
    """(detachment, rule, ids) of the rules a roster's chosen detachments show: the rules (and
    ability profiles) of the selections under a force's "Detachment" selection, hidden ones left
    out, with the community data's ids (a rule's record is found by them, else by its name)."""
    out = []
    forces = list(B.items(doc, "forces"))
    n = 0
    while forces and n < MAX_SELECTIONS:
        force = forces.pop(0)
        forces.extend(B.items(force, "forces"))
        for sel in B.items(force, "selections"):
            if B.text(sel, "type") in ("unit", "model") or "detachment" not in B.norm(B.text(sel, "name")):
                continue
            stack = [(sel, B.clean_name(B.text(sel, "name")))]
            while stack and n < MAX_SELECTIONS:
                s, det = stack.pop()
                n += 1
                found = [(B.text(r, "name"), (B.text(r, "id"),)) for r in B.items(s, "rules") if _shown(r)]
                found += [(B.text(p, "name"), (B.text(p, "id"),)) for p in B.items(s, "profiles")
                          if B.profile_kind(p) == "ability" and _shown(p)]
                out += [(det, B.clean_name(x), i) for x, i in found if B.clean_name(x)]
                stack.extend((c, B.clean_name(B.text(c, "name")) or det) for c in B.items(s, "selections")
                             if B.text(c, "type") not in ("unit", "model"))
    return list(dict.fromkeys(out))


def force_rules(doc: dict) -> list[tuple[str, str, tuple]]:
    """(force, rule, ids) of the rules a roster's forces show at their own level (an army rule
    the list builder lists once for the force), hidden ones left out."""
    out, forces, n = [], list(B.items(doc, "forces")), 0
    while forces and n < MAX_SELECTIONS:
        force = forces.pop(0)
        n += 1
        forces.extend(B.items(force, "forces"))
        fname = B.clean_name(B.text(force, "name")) or "force"
        out += [(fname, B.clean_name(B.text(r, "name")), (B.text(r, "id"),)) for r in B.items(force, "rules")
                if _shown(r) and B.clean_name(B.text(r, "name"))]
    return list(dict.fromkeys(out))


def unit_names(sels) -> list[str]:
    """The names of a roster's unit selections (and of those nested in them): the datasheets a
    Leader ability's list may name in this roster."""
    out, stack = [], [s for s, _ in sels]
    while stack:
        s = stack.pop()
        out.append(B.text(s, "name"))
        stack.extend(c for c in B.items(s, "selections") if B.text(c, "type") == "unit")
    return out


def _selection_names(sel: dict, depth: int = 0) -> list[str]:
    """The names of everything the unit's selection takes, nested ones too (its models'
    wargear: what a capacity "if this model is equipped with ..." asks of it)."""
    out = []
    for child in B.items(sel, "selections"):
        out.append(B.clean_name(B.text(child, "name")))
        if depth < 8:
            out += _selection_names(child, depth + 1)
    return out
