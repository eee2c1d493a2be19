"""Rule instances of imported datasheets, for the coverage tool (`sim datasheets --coverage`;
README "Rules of datasheets, armies and detachments").

An **instance** is one ability or rule a datasheet shows (its unit's or one of its models',
once per datasheet by name): a datasheet imported by several catalogues counts once in each.
Each is

* **modelled**: a core ability of sim.rules.abilities the engine implements (an invulnerable
  save read into InSv included; a core weapon ability the data links on the datasheet, which
  its weapons carry or get under a condition of the data), or a rule with a record of
  sim.rules.effects;
* **inert**: known to have no effect on the battlefield the engine plays, or handled elsewhere
  (:data:`INERT`, each with its reason);
* **unknown**: neither (the engine does not model it yet).

Weapon abilities are not counted here (the weapon profiles carry them), nor the rules a
datasheet shows only under a condition of the roster (a detachment's rule: the import report
lists those that are modelled)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.importers.report import WEAPON_LINK, ImportReport
from sim.rules.abilities.value import norm

MODELLED, INERT_, UNKNOWN = "modelled", "inert", "unknown"
KINDS = (MODELLED, INERT_, UNKNOWN)

# Abilities the data attaches that change nothing on the battlefield the engine plays (army
# building, the Warlord, battle size) or that another part of the importer reads (a Leader's
# list of units): name -> why, in our words.
INERT = {norm(k): v for k, v in {
    "Assigned Agents": "army building: which armies may include the unit",
    "Attached Unit": "the list of units a Leader may join (read with the Leader ability)",
    "Crucible": "army building: how many such characters an army may take",
    "Supreme Commander": "army building: the model must be the Warlord",
    "Shadow Assignment": "army building: the Warlord and swapping the model at muster",
    "Enslaved Star God": "army building: the model cannot be the Warlord",
    "Mighty Edifice": "army building: the battle sizes the unit may be taken in",
    "Bodyguard": "army building: how many Leaders may join the unit",
    "Mission Tactics": "a pointer to the detachment's rule (the detachment carries it)",
    "Transport": "the transport capacity, read by the importer into the unit's capacity",
}.items()}


def inert_reason(name: str) -> str:
    return INERT.get(norm(name), "")


def instances(rep: ImportReport) -> list[tuple[str, str]]:
    """(name, kind) of each ability or rule instance of the units of an import report (their
    own and their models', not their weapons'; once per unit by name, modelled first)."""
    out: list[tuple[str, str]] = []
    for u in rep.units:
        seen: dict[str, int] = {}
        for where, name, _how in u.modelled:
            if not where.startswith("weapon ") and norm(name) not in seen:
                seen[norm(name)] = len(out)
                out.append((name, MODELLED))
        for where, name, how, why in u.held:  # (a core weapon ability linked on the datasheet)
            if why == WEAPON_LINK and not where.startswith("weapon ") and norm(name) not in seen:
                seen[norm(name)] = len(out)
                out.append((name, MODELLED))
        for where, name in u.labels:
            if where.startswith(("weapon ", "detachment ")) or norm(name) in seen:
                continue
            seen[norm(name)] = len(out)
            out.append((name, INERT_ if inert_reason(name) else UNKNOWN))
    return out


@dataclass
class RuleTally:
    """Instances counted by kind; the unmodelled ones (unknown) by name with the datasheets
    showing them."""

    counts: dict = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    unknown: dict = field(default_factory=dict)  # norm(name) -> [printed name, instances, {datasheets}]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def add(self, rep: ImportReport, datasheet: str) -> None:
        for name, kind in instances(rep):
            self.counts[kind] += 1
            if kind == UNKNOWN:
                row = self.unknown.setdefault(norm(name), [name, 0, set()])
                row[1] += 1
                row[2].add(datasheet)

    def merge(self, other: "RuleTally") -> None:
        for k in KINDS:
            self.counts[k] += other.counts[k]
        for key, (name, n, sheets) in other.unknown.items():
            row = self.unknown.setdefault(key, [name, 0, set()])
            row[1] += n
            row[2] |= sheets

    def top(self, n: int = 20) -> list[tuple[str, int, int]]:
        """The most frequent unmodelled rules: (name, instances, distinct datasheets)."""
        rows = sorted(self.unknown.values(), key=lambda r: (-r[1], -len(r[2]), r[0]))
        return [(name, k, len(sheets)) for name, k, sheets in rows[:n]]

    def percent(self, kind: str = MODELLED) -> float:
        return 100.0 * self.counts[kind] / self.total if self.total else 0.0

    def as_dict(self) -> dict:
        return {"instances": self.total, **self.counts, "percent_modelled": round(self.percent(), 1)}
