"""Importing real armies: BattleScribe-format rosters (``.ros``, ``.rosz``, New Recruit's JSON)
and catalogues (``.cat``, ``.catz``, the JSON form) into scenario units (README "Importing
rosters and catalogues").

    source     reading a file in any of its forms, within limits (defusedxml for XML)
    bsdata     the data model: selections, profiles, characteristics, categories, costs; values
    catalogue  entry links, shared entries, modifiers; datasheets and their default loadout
    roster     a unit selection -> a Unit (models, weapons, abilities, labels, leaders)
    bases      base sizes the data does not give (assets/base_sizes.toml, a user file)
    scenario   units -> scenario text (placement in a deployment zone), and back
    report     what the engine does not implement, base sizes' sources, other decisions

The API for other front ends (the sandbox): :func:`load_roster`, :func:`load_datasheet`,
:func:`list_datasheets` and :func:`into_scenario`. Every refusal is a sim.errors.ImportFileError
(one line: file, place, expected, found); nothing is written unless the whole import succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.importers.model import Base, Model, Unit, Weapon
from sim.importers.report import ImportReport

__all__ = ["Army", "Base", "Model", "Unit", "Weapon", "ImportReport", "load_roster", "load_datasheet",
           "list_datasheets", "into_scenario"]


@dataclass(frozen=True)
class Army:
    """Imported units, the weapon profiles they use (by name), and the army's rules: the keys of
    the army and detachment rules of sim.rules.effects every unit holds (the scenario's
    ``[[armies]] rules``)."""

    units: tuple[Unit, ...]
    weapons: dict  # name -> Weapon
    rules: tuple[str, ...] = ()


def load_roster(path: str | Path, bases: str | Path | None = None,
                skip_bad: bool = False) -> tuple[Army, ImportReport]:
    """A roster's units (``.ros``, ``.rosz`` or New Recruit JSON) and the import report.
    ``bases``: a user base size table tried before assets/base_sizes.toml. A unit the importer
    cannot read refuses the roster (the error names the unit), unless ``skip_bad``: then the
    others are imported and the report's ``skipped`` lists each refused unit's error."""
    from sim.errors import ImportFileError
    from sim.importers import bsdata as B
    from sim.importers import model as M
    from sim.importers.bases import BaseTable
    from sim.importers.roster import Assembler, detachment_rules, force_rules, roster_selections, unit_names
    from sim.importers.source import read_document
    from sim.importers import transport as TP
    file = str(path)
    table = BaseTable(bases)
    _, doc = read_document(path, ("roster",))
    sels, other = roster_selections(doc, file)
    if not sels:
        raise B.where_error(file, "forces", B.Bad("a roster with at least one unit", "<no unit selection>"))
    asm = Assembler(file, table, known=unit_names(sels))
    units, skipped = [], []
    for sel, place in sels:
        try:
            units.append(asm.assemble(sel, place))
        except ImportFileError as e:
            if not skip_bad:
                raise
            skipped.append(e)
    if not units:
        raise skipped[0]
    factions = tuple(dict.fromkeys(c.split(":", 1)[1].strip() for s, _ in sels for c in B.category_names(s)
                                   if B.is_faction(c)))
    army_rules: list[tuple[str, str, str]] = []  # (from where, name, key)
    inert: list[tuple[str, str]] = []
    for det, rule, ids in detachment_rules(doc):  # (named as a unit's abilities are, roster.py)
        M.check_name(rule, file, f"forces: detachment {det[:60]!r}", "an ability name")
        rec = M.rule_record(ids, rule, factions)
        if rec is not None:
            army_rules.append((f"detachment {det!r}", rule, rec.key))
        else:
            inert.append((det, rule))
    force_inert = []
    for force, rule, ids in force_rules(doc):
        rec = M.rule_record(ids, rule, factions)
        if rec is not None:
            army_rules.append((f"force {force!r}", rule, rec.key))
        else:
            force_inert.append((force, rule))
    units = TP.army_passengers(units)
    units, hoisted = _army_rules(units, asm.reports, [k for _, _, k in army_rules])
    army_rules += hoisted
    if inert:  # (labels on every unit)
        units = [_with_labels(u, [r for _, r in inert]) for u in units]
        for r in asm.reports:
            for det, rule in inert:
                r.label(f"detachment {det!r}", rule)
    army = [f"not a unit, not imported: {n!r}" for n in other if n]
    army += [f"detachment {det!r}: rule {rule!r} (not modelled: an inert label on every unit)" for det, rule in inert]
    army += [f"force {force[:60]!r}: rule {rule[:100]!r} (not modelled)" for force, rule in force_inert]
    rep = ImportReport(file, "roster", asm.reports, army, [str(e) for e in skipped])
    rep.rules = list(dict.fromkeys(army_rules))
    return Army(tuple(units), asm.weapons, tuple(dict.fromkeys(k for _, _, k in army_rules))), rep


def _army_rules(units: list[Unit], reports, army=()) -> tuple[list[Unit], list[tuple[str, str, str]]]:
    """An army rule (a record of sim.rules.effects whose source is an army rule) that every unit
    of the roster holds as a whole is the army's (``[[armies]] rules``): taken off the units and
    their reports. One only some units hold (an allied unit has not its army's rule) stays with
    those units. A rule the army has already (``army``: its chosen detachment's, which the data
    may copy onto datasheets too) is taken off the units likewise."""
    from dataclasses import replace

    from sim.rules.effects import table
    from sim.rules.effects.vocabulary import ARMY_RULE
    if not units:
        return units, []
    keys = [k for k in units[0].rules if (r := table.by_key(k)) is not None and r.source == ARMY_RULE
            and all(k in u.rules for u in units) and k not in army]
    drop = set(keys) | set(army)
    if not drop:
        return units, []
    names = {}
    for r in reports:
        for where, name, how in r.modelled:
            if how in keys and where == "unit":
                names.setdefault(how, name)
        r.modelled = [m for m in r.modelled if m[2] not in drop]
    units = [replace(u, rules=tuple(k for k in u.rules if k not in drop),
                     models=tuple(replace(m, rules=tuple(k for k in m.rules if k not in drop)) for m in u.models))
             for u in units]
    return units, [("every unit's datasheet", names.get(k, table.by_key(k).name), k) for k in keys]


def _with_labels(unit: Unit, labels: list[str]) -> Unit:
    from dataclasses import replace
    have = set(unit.labels) | {a for m in unit.models for a in m.labels}
    return replace(unit, labels=unit.labels + tuple(x for x in dict.fromkeys(labels) if x not in have))


def list_datasheets(path: str | Path, search: str = "", notes: dict | None = None) -> list[dict]:
    """Each datasheet of a catalogue (matching ``search``, case-insensitive) as
    Catalogue.summary gives it: name, points, statlines and weapons as printed, ability names,
    and ``refused``: why the import would refuse its unit (Part A ruling 28), or None.
    ``notes``: a dict given ``warnings``, the catalogue's losses once each (a linked catalogue
    missing from the folder, with the links and datasheets it takes with it), and ``lost``, true
    when datasheets are lost with it."""
    from sim.importers.catalogue import Catalogue
    cat = Catalogue(path)
    if notes is not None:
        notes["warnings"] = cat.warnings()
        notes["lost"] = bool(cat.datasheets_lost() or any(m.imports_root for m in cat.missing_catalogues))
    want = search.casefold()
    return [cat.summary(e) for e in cat.datasheets()
            if not want or want in str(e.get("name", "")).casefold()]


def load_datasheet(path: str | Path, name: str, models: int | None = None,
                   bases: str | Path | None = None, catalogue=None) -> tuple[Army, ImportReport]:
    """One datasheet of a catalogue as a unit with its default wargear and its minimum number of
    models (or ``models``). ``catalogue``: a sim.importers.catalogue.Catalogue of ``path`` already
    read (the coverage tool reads each once)."""
    from sim.importers.bases import BaseTable
    from sim.importers.catalogue import Catalogue
    from sim.importers.roster import Assembler
    cat = catalogue if catalogue is not None else Catalogue(path)
    entry = cat.find(name)
    sel, notes = cat.build(entry, models)
    asm = Assembler(cat.file, BaseTable(bases), known=cat.datasheet_names())
    unit = asm.assemble(sel, f"datasheets[{name[:60]!r}]")
    rep = ImportReport(cat.file, "datasheet", asm.reports, [f"warning: {w}" for w in cat.warnings()])
    for n in notes:
        rep.units[0].note(n)
    rep.left_out = _left_out(cat)
    return Army((unit,), asm.weapons), rep


def _left_out(cat) -> list[str]:
    """The detachment rules of the catalogue, by name, which a datasheet imported alone leaves
    out (no detachment is chosen); a modelled one names its rule key. The core weapon abilities
    a detachment's entry links (to the glossary) are not its rules."""
    from sim.importers import model as M
    import re
    out = []
    for det, rule, ids in cat.detachment_rules():
        if M.core_weapon_ability(rule) or not re.search(r"[A-Za-z]", rule):
            continue  # (a core weapon ability the detachment confers: a glossary link; a table's row)
        how = M.modelled_as(rule, ids)
        out.append(f"{det}: {rule}" + (f" (modelled: rule {how!r})" if how else ""))
    return list(dict.fromkeys(out))


def into_scenario(army: Army, side: str, into: str | Path | None, file: str, name: str,
                  report: ImportReport | None = None, seed: int | None = None, add: bool = False) -> str:
    """The scenario text with ``army`` as the red or blue army: of a new scenario (a whole battle
    on the default table, default players; ``seed`` its seed), or of the scenario at ``into``
    (its other army, terrain, mission and script kept; a unit id the other army has is given a
    suffix, in the report too). The report heads the text as comments. Checked by the scenario
    loader before it is returned. ``add``: the units join that army of the scenario at ``into``
    (its units kept where they stand; the new ones placed clear of every base) instead of
    replacing it."""
    from dataclasses import replace

    from sim.importers.scenario import free_ids, scenario_text
    into = None if into is None else str(into)
    ids = free_ids(list(army.units), side, into, add)
    units = [replace(u, id=ids[u.id]) for u in army.units]
    header = HEADER
    if report is not None:
        for r in report.units:
            r.id = ids.get(r.id, r.id)
        header += "\n" + report.text()
    return scenario_text(units, army.weapons, side, into, file, name, header, seed, add, army.rules)


HEADER = "Imported by `sim import` (unofficial fan tool). Names and numbers only: no rules text."
