"""The import report: per unit, its abilities and rules in three kinds — **modelled** (a core
ability of sim.rules.abilities, or a rule with a record of sim.rules.effects: its key), **modelled
when the condition in the data holds** (a rule the engine models that the data attaches only
under a condition the import does not meet: a detachment's rule while that detachment is not
chosen, a weapon ability the data attaches without printing it in the weapon's Keywords) and
**not modelled** (imported as an inert text label, with its name); the keywords no rule of the
engine reads; where each model's base size came from; and what else the import decided (a
weapon's other profiles, a leader attached, a modifier it could not evaluate). The army's rules
(army and detachment rules) are reported once. Names and numbers only: no description or other
rules text ever reaches it."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.names import counted

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
    labels: list[tuple[str, str]] = field(default_factory=list)  # (where, name): inert labels (not modelled)
    modelled: list[tuple[str, str, str]] = field(default_factory=list)  # (where, name, how: a rule key / CORE)
    held: list[tuple[str, str, str, str]] = field(default_factory=list)  # (where, name, how, the data's condition)
    keywords_without_rule: list[str] = field(default_factory=list)
    bases: list[tuple[str, str, str]] = field(default_factory=list)  # (model, base, from where)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def label(self, where: str, name: str) -> None:
        if (where, name) not in self.labels:
            self.labels.append((where, name))

    def model(self, where: str, name: str, how: str) -> None:
        if (where, name, how) not in self.modelled:
            self.modelled.append((where, name, how))

    def hold(self, where: str, name: str, how: str, why: str) -> None:
        if not any(h[:3] == (where, name, how) for h in self.held):
            self.held.append((where, name, how, why))


CORE = "core ability"  # a modelled ability of sim.rules.abilities (as opposed to a rule record's key)
WEAPON_LINK = ("a weapon ability the data links on the datasheet: its weapons that print it in their Keywords "
               "have it, the others only under a condition of the data")


@dataclass
class ImportReport:
    file: str
    kind: str  # "roster" or "datasheet"
    units: list[UnitReport] = field(default_factory=list)
    army: list[str] = field(default_factory=list)  # selections that are not units (names only), warnings
    skipped: list[str] = field(default_factory=list)  # units refused and left out (`--skip-bad`): their errors
    rules: list[tuple[str, str, str]] = field(default_factory=list)  # the army's: (from where, name, key)
    left_out: list[str] = field(default_factory=list)  # detachment rules a datasheet alone leaves out: "det: rule"

    def text(self) -> str:
        lines = [f"import report: {self.file} ({self.kind}, {counted(len(self.units), 'unit')})"]
        for n in self.army:
            lines.append(f"  army: {n}")
        for e in self.skipped:
            lines.append(f"  skipped (--skip-bad): {e}")
        for where, name, key in self.rules:
            lines.append(f"  army rule, modelled: {where}: {name!r} (rule {key!r}, every unit of the army)")
        if self.left_out:
            lines.append("  detachment rules left out (no detachment is chosen for a datasheet alone): "
                         + "; ".join(self.left_out))
        for u in self.units:
            pts = f", {u.points} pts" if u.points is not None else ""
            lines.append(f"  {u.id}: {u.name}{pts}")
            for where, name, how in u.modelled:
                lines.append(f"    modelled: {where}: {name!r} ({how if how == CORE else f'rule {how!r}'})")
            for where, name, how, why in u.held:
                lines.append(f"    modelled when the condition in the data holds (not applied here): {where}: {name!r} "
                             f"({how if how == CORE else f'rule {how!r}'}; {why})")
            for where, name in u.labels:
                lines.append(f"    not modelled, imported as inert text label: {where}: {name!r}")
            if u.keywords_without_rule:
                lines.append("    keywords kept (no rule of the engine reads them): " + ", ".join(u.keywords_without_rule))
            for model, base, src in u.bases:
                lines.append(f"    base of {model}: {base}, from {src}")
            for n in u.notes:
                lines.append(f"    note: {n}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "army": list(self.army), "skipped": list(self.skipped),
                "rules": [{"where": w, "name": n, "key": k} for w, n, k in self.rules],
                "left_out": list(self.left_out),
                "units": [{"id": u.id, "name": u.name, "points": u.points,
                           "modelled": [{"where": w, "name": n, "how": h} for w, n, h in u.modelled],
                           "held": [{"where": w, "name": n, "how": h, "condition": c} for w, n, h, c in u.held],
                           "labels": [{"where": w, "name": n} for w, n in u.labels],
                           "keywords_without_rule": list(u.keywords_without_rule),
                           "bases": [{"model": m, "base": b, "from": s} for m, b, s in u.bases],
                           "notes": list(u.notes)} for u in self.units]}
