"""Catalogue coverage: how many datasheets of every catalogue in a folder import (`sim datasheets
--coverage FOLDER`; README "Catalogue coverage").

Each catalogue of the folder (a file whose root is a catalogue) is read once, with one
sim.importers.library.Folder for all of them, and each datasheet it lists is imported as
`sim import datasheet` would: the unit built with its default wargear and minimum models
(load_datasheet) and written into a new scenario, which the importer checks and the scenario
loader loads (into_scenario). A datasheet that fails either is **refused**, with the one-line
error's "expected" part as its reason (quoted names folded to '…', so alike refusals count
together) and the datasheet named beside it. What a catalogue loses to a missing catalogue is
kept as its warnings (sim.importers.catalogue.Catalogue.warnings).

The rule instances of the datasheets imported are counted too (sim.importers.rule_count:
modelled, inert, unknown), per catalogue and over the folder, with the most frequent rules not
modelled yet; :func:`as_dict` is the whole result for machines (`--json`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from sim.errors import ImportFileError, ScenarioError
from sim.importers.rule_count import INERT_, MODELLED, UNKNOWN, RuleTally
from sim.rules.turn import PLAYER

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass
class Refusal:
    datasheet: str
    reason: str  # the class: the error's "expected", quoted names folded
    message: str  # the whole one-line error


@dataclass
class CatalogueCoverage:
    file: str
    name: str
    listed: int = 0
    imported: int = 0
    refused: list[Refusal] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str = ""  # the catalogue itself could not be read
    rules: RuleTally = field(default_factory=RuleTally)  # rule instances of the datasheets imported

    @property
    def library(self) -> bool:
        return "library" in self.name.casefold()


def reason_of(e: ScenarioError) -> str:
    """A refusal's class: what the importer expected (the datasheet's and models' names folded)."""
    expected = getattr(e, "expected", "") or str(e)
    return _QUOTED.sub("'…'", expected)


def catalogue_files(folder: str | Path) -> list[Path]:
    from sim.importers.library import CATALOGUE_SUFFIXES, Folder
    f = Folder(folder)
    return [p for p in f.files if p.suffix.lower() in CATALOGUE_SUFFIXES and _is_catalogue(p)]


def _is_catalogue(path: Path) -> bool:
    """A file whose root is a catalogue (not the game system): a cheap look at its head."""
    from sim.scenario.files import read_head
    head = read_head(path, 4096)  # (a regular file only: never a FIFO opened to wait on)
    if head is None:
        return False
    if head[:2] == b"PK":
        return True  # (a .catz: read in full when covered)
    return re.match(rb'\s*\{\s*"catalogue"', head) is not None or re.search(rb"<(?:\w+:)?catalogue\b", head) is not None


def cover(folder: str | Path, only: str = "", progress=None) -> list[CatalogueCoverage]:
    """The coverage of every catalogue of ``folder`` (those whose file name contains ``only``)."""
    from sim.importers import into_scenario, load_datasheet
    from sim.importers.catalogue import Catalogue
    from sim.importers.library import Folder
    shared = Folder(folder)
    out = []
    for path in catalogue_files(folder):
        if only and only.casefold() not in path.name.casefold():
            continue
        cc = CatalogueCoverage(str(path), path.stem)
        out.append(cc)
        if progress:
            progress(path.stem)
        try:
            cat = Catalogue(path, folder=shared)
            sheets = cat.datasheets()
        except (ImportFileError, ScenarioError) as e:
            cc.error = str(e)
            continue
        cc.warnings = cat.warnings()
        cc.listed = len(sheets)
        from sim.importers.bsdata import clean_name, text
        for entry in sheets:
            name = clean_name(text(entry, "name"))
            try:
                army, rep = load_datasheet(path, name, catalogue=cat)
                into_scenario(army, PLAYER[0], None, str(path), name, rep)
            except (ImportFileError, ScenarioError) as e:
                cc.refused.append(Refusal(name, reason_of(e), str(e)))
            else:
                cc.imported += 1
                cc.rules.add(rep, name)
    return out


def table(results: list[CatalogueCoverage]) -> str:
    """The coverage as a Markdown table per catalogue, the totals, then every refusal reason
    counted with the datasheets it refuses, and every catalogue's warnings."""
    lines = ["| catalogue | listed | imported | refused |", "|---|---:|---:|---:|"]
    tl = ti = tr = 0
    for c in results:
        mark = " (could not be read)" if c.error else ""
        lines.append(f"| {c.name}{mark} | {c.listed} | {c.imported} | {len(c.refused)} |")
        tl, ti, tr = tl + c.listed, ti + c.imported, tr + len(c.refused)
    lines.append(f"| **all {len(results)} catalogues** | **{tl}** | **{ti}** | **{tr}** |")
    reasons: dict[str, list[str]] = {}
    for c in results:
        for r in c.refused:
            reasons.setdefault(r.reason, []).append(f"{r.datasheet} ({c.name})")
    if reasons:
        lines += ["", "Refusal reasons (count: datasheets):"]
        for reason, who in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"- {len(who)} x expected {reason}: " + "; ".join(who))
    warned = [(c.name, w) for c in results for w in c.warnings] + [(c.name, c.error) for c in results if c.error]
    if warned:
        lines += ["", "Catalogue warnings:"]
        lines += [f"- {n}: {w}" for n, w in warned]
    return "\n".join(lines)


def total_rules(results: list[CatalogueCoverage]) -> RuleTally:
    out = RuleTally()
    for c in results:
        out.merge(c.rules)
    return out


def rules_table(results: list[CatalogueCoverage], top: int = 20) -> str:
    """The rule instances of the imported datasheets as a Markdown table per catalogue and in
    all (modelled, inert, unknown, % modelled), then the most frequent unmodelled rules."""
    lines = ["| catalogue | datasheets imported | rule instances | modelled | inert | unknown | % modelled |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for c in results:
        t = c.rules
        lines.append(f"| {c.name} | {c.imported} | {t.total} | {t.counts[MODELLED]} | {t.counts[INERT_]} | "
                     f"{t.counts[UNKNOWN]} | {t.percent():.1f} |")
    t = total_rules(results)
    lines.append(f"| **all {len(results)} catalogues** | **{sum(c.imported for c in results)}** | **{t.total}** | "
                 f"**{t.counts[MODELLED]}** | **{t.counts[INERT_]}** | **{t.counts[UNKNOWN]}** | **{t.percent():.1f}** |")
    rows = t.top(top)
    if rows:
        lines += ["", f"Most frequent rules not modelled (of {len(t.unknown)}; name: instances, datasheets):"]
        lines += [f"- {name}: {n}, {k}" for name, n, k in rows]
    return "\n".join(lines)


def as_dict(results: list[CatalogueCoverage], top: int = 50) -> dict:
    """The coverage for machines (`sim datasheets --coverage FOLDER --json`)."""
    t = total_rules(results)
    return {
        "catalogues": [{"name": c.name, "file": c.file, "listed": c.listed, "imported": c.imported,
                        "refused": [{"datasheet": r.datasheet, "reason": r.reason} for r in c.refused],
                        "warnings": list(c.warnings), "error": c.error, "rules": c.rules.as_dict()}
                       for c in results],
        "total": {"listed": sum(c.listed for c in results), "imported": sum(c.imported for c in results),
                  "refused": sum(len(c.refused) for c in results), "rules": t.as_dict()},
        "unmodelled": [{"name": n, "instances": k, "datasheets": d} for n, k, d in t.top(top)],
    }
