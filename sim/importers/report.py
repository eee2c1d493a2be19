"""The import report: per unit, everything the engine does not implement (each ability or
weapon keyword imported as an inert text label, with its name; the keywords no rule of the
engine reads), where each model's base size came from, and what else the import decided (a
weapon's other profiles, a leader attached, a modifier it could not evaluate). Names and
numbers only: no description or other rules text ever reaches it."""

from __future__ import annotations

from dataclasses import dataclass, field

# Keywords some rule of the engine reads (every keyword also counts for [ANTI] and attached
# units' keyword checks, so none is dropped; the report lists the others as kept without a rule)
ENGINE_KEYWORDS = frozenset({
    "INFANTRY", "VEHICLE", "MONSTER", "CHARACTER", "BEASTS", "SWARM", "MOBILE", "WALKER", "TITANIC",
    "AIRCRAFT", "FORTIFICATION", "GRENADES", "EXPLOSIVES", "SMOKE", "PSYKER", "TRANSPORT", "DEDICATED TRANSPORT"})


@dataclass
class UnitReport:
    id: str
    name: str
    points: int | None = None
    labels: list[tuple[str, str]] = field(default_factory=list)  # (where, name): inert labels
    keywords_without_rule: list[str] = field(default_factory=list)
    bases: list[tuple[str, str, str]] = field(default_factory=list)  # (model, base, from where)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def label(self, where: str, name: str) -> None:
        if (where, name) not in self.labels:
            self.labels.append((where, name))


@dataclass
class ImportReport:
    file: str
    kind: str  # "roster" or "datasheet"
    units: list[UnitReport] = field(default_factory=list)
    army: list[str] = field(default_factory=list)  # selections that are not units (names only), warnings
    skipped: list[str] = field(default_factory=list)  # units refused and left out (`--skip-bad`): their errors

    def text(self) -> str:
        lines = [f"import report: {self.file} ({self.kind}, {len(self.units)} unit(s))"]
        for n in self.army:
            lines.append(f"  army: {n}")
        for e in self.skipped:
            lines.append(f"  skipped (--skip-bad): {e}")
        for u in self.units:
            pts = f", {u.points} pts" if u.points is not None else ""
            lines.append(f"  {u.id}: {u.name}{pts}")
            for where, name in u.labels:
                lines.append(f"    not implemented, imported as inert text label: {where}: {name!r}")
            if u.keywords_without_rule:
                lines.append("    keywords kept (no rule of the engine reads them): " + ", ".join(u.keywords_without_rule))
            for model, base, src in u.bases:
                lines.append(f"    base of {model}: {base}, from {src}")
            for n in u.notes:
                lines.append(f"    note: {n}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "army": list(self.army), "skipped": list(self.skipped),
                "units": [{"id": u.id, "name": u.name, "points": u.points,
                           "labels": [{"where": w, "name": n} for w, n in u.labels],
                           "keywords_without_rule": list(u.keywords_without_rule),
                           "bases": [{"model": m, "base": b, "from": s} for m, b, s in u.bases],
                           "notes": list(u.notes)} for u in self.units]}
