"""The odds calculator (issue 28 item 11): one unit attacking another with no table, as a player's
dice calculator answers it. `sim odds --attacker FILE NAME --defender FILE NAME` and the sandbox's
calculator panel (sim.sandbox.calculator_panel) both ask ``columns``.

A unit comes from a catalogue (``.cat``, ``.catz``, the JSON form: the datasheet with its default
wargear and minimum models, as `sim import datasheet` makes it), a roster (``.ros``, ``.rosz``, New
Recruit JSON) or a scenario (``.toml``, by unit name or id); two units that share a name are told
apart as "Name (2)". The pair is set up as `sim matrix` sets it up (sim.analysis.matrix.pair_spec:
an empty board, the attacker ``range`` inches away, or in base contact for a fight) with the
conditions a player toggles: the defender in cover, the attacker stationary (24.16 [HEAVY]) or
having moved, having charged (a fight, 24.21 [LANCE]). The odds are sim.odds's exact odds (its
public ``solve``), per pair and, side by side, per weapon."""

from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path
from typing import NamedTuple

from sim.errors import ImportFileError, PlanError, ScenarioError
from sim.names import unit_names
from sim.scenario.spec import Army, UnitSpec

CATALOGUE = (".cat", ".catz")
ROSTER = (".ros", ".rosz")
SCENARIO = (".toml",)
EDGE = 0.001  # inches inside the range the attacker's models stand (01.04.01 "within")
MOVED = 6.0  # inches the attacker moved when it is not stationary (more than 24.16's 3")


class Pick(NamedTuple):
    """A unit picked for the calculator: its scenario unit, the weapon profiles it names, its
    army's rules and where it came from (for the report)."""

    unit: UnitSpec
    weapons: dict
    rules: tuple
    source: str
    name: str = ""  # as shown ("Raider Mob (2)"); the unit's name when empty

    @property
    def shown(self) -> str:
        return self.name or self.unit.name


@dataclasses.dataclass(frozen=True)
class Conditions:
    range: float = 12.0
    cover: bool = False
    stationary: bool = False
    charged: bool = False  # (a fight, the attacker having charged)
    fight: bool = False

    @property
    def melee(self) -> bool:
        return self.fight or self.charged

    def text(self) -> str:
        if self.melee:
            return "a fight" + (", charged" if self.charged else ", no charge")
        return (f"shooting at {self.range:g}\", " + ("stationary" if self.stationary else "moved")
                + (", defender in cover" if self.cover else ""))


@dataclasses.dataclass
class Column:
    """One attack's answer: ``label`` (the unit, or one of its weapons), the defender, the
    figures a player reads and the distributions behind them (sim.odds.result.Measure)."""

    label: str
    defender: str
    models: int = 0
    wounds: int = 0
    damage: object = None
    destroyed: object = None
    wiped: float = 0.0
    attacks: float = 0.0
    hits: float = 0.0
    wounding: float = 0.0
    method: str = "exact"
    note: str = ""

    @property
    def answered(self) -> bool:
        return self.damage is not None


def _names(units) -> list[str]:
    """Each unit's name, "Name (2)" for the second of a name and so on."""
    seen: dict[str, int] = {}
    out = []
    for u in units:
        n = seen[u.name] = seen.get(u.name, 0) + 1
        out.append(u.name if n == 1 else f"{u.name} ({n})")
    return out


def _choose(units, name: str, file: str, place: str):
    """(the unit, its shown name) of ``units`` called ``name`` (or with that id)."""
    shown = _names(units)
    want = name.strip().casefold()
    # (the sandbox's and `sim odds --unit`'s numbering too: "Raider Mob (1)" for the first of three)
    numbered = unit_names([(str(i), u.name) for i, u in enumerate(units)]).values()
    for u, s, n in zip(units, shown, numbered):
        if s.casefold() == want or n.casefold() == want or getattr(u, "id", None) == name:
            return u, s
    hits = [(u, s) for u, s in zip(units, shown) if s.casefold().startswith(want) or u.name.casefold() == want]
    if len(hits) == 1 or (hits and all(h.name == hits[0][0].name for h, _ in hits)):
        return hits[0]
    close = difflib.get_close_matches(name, shown, 5, 0.4) or [s for s in shown if want in s.casefold()][:5]
    hint = (f" (close: {', '.join(repr(c) for c in close)})" if close else
            f" (it holds {', '.join(repr(c) for c in shown[:8])}{', ...' if len(shown) > 8 else ''})" if shown else "")
    raise ScenarioError(file, place, "a unit it holds" + (f", one of {len(shown)}" if shown else ""),
                        f"{name!r}{hint}")


_CATALOGUES: dict = {}


def _catalogue(path: Path):
    """A catalogue read once per process (by path and modification time): the sandbox's panel
    asks for many units of one catalogue."""
    from sim.importers.catalogue import Catalogue
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in _CATALOGUES:
        _CATALOGUES.clear() if len(_CATALOGUES) > 8 else None
        _CATALOGUES[key] = Catalogue(path)
    return _CATALOGUES[key]


def _is_catalogue(path: Path) -> bool:
    if path.suffix.lower() in CATALOGUE:
        return True
    if path.suffix.lower() != ".json":
        return False
    with open(path, "rb") as f:
        head = f.read(4096)
    return re.search(rb'"(catalogue|gameSystem)"\s*:', head) is not None


def _as_spec_unit(army, file: str, name: str):
    """An imported army of one unit as the scenario loader reads it (the same path `sim import`
    and the sandbox's catalogue browser take)."""
    import tomllib

    from sim import importers
    from sim.scenario.load import parse_scenario
    from sim.rules.turn import PLAYER
    text = importers.into_scenario(army, PLAYER[0], None, file, name)
    spec = parse_scenario(tomllib.loads(text), file)
    return spec.units[0], dict(spec.weapons), tuple(spec.armies[0].rules)


def load_unit(file: str, name: str, place: str = "--attacker") -> Pick:
    """The unit ``name`` of ``file`` (a catalogue, roster or scenario). Raises ScenarioError
    (an ImportFileError for a catalogue or roster) naming the file and the option: a file that
    is not there or not one of these, or an unknown name (with the close names)."""
    path = Path(file)
    if not path.is_file():
        raise ScenarioError(file, place, "a catalogue, roster or scenario file", "no such file")
    suffix = path.suffix.lower()
    if suffix in SCENARIO:
        from sim.scenario.load import load_scenario
        spec = load_scenario(file)
        us, shown = _choose([u for u in spec.units], name, file, place)
        return Pick(us, dict(spec.weapons), tuple(spec.armies[us.owner].rules), file, shown)
    if _is_catalogue(path):
        from sim import importers
        cat = _catalogue(path)
        try:
            army, _ = importers.load_datasheet(path, name, catalogue=cat)
        except ImportFileError as e:
            expected = e.expected.replace("the name of a datasheet", "a datasheet")
            if "(" not in expected:  # (no close name: what it holds)
                from sim.importers import bsdata as B
                names = [B.clean_name(B.text(x, "name")) for x in cat.datasheets()]
                expected += f" (it holds {', '.join(repr(n) for n in names[:8])}{', ...' if len(names) > 8 else ''})"
            raise ImportFileError(file, place, expected, e.found) from None
        us, weapons, rules = _as_spec_unit(army, file, name)
        return Pick(us, weapons, rules, file)
    if suffix in ROSTER or suffix == ".json":
        from sim import importers
        army, _ = importers.load_roster(path, skip_bad=True)
        u, shown = _choose(list(army.units), name, file, place)
        one = importers.Army((dataclasses.replace(u, id=re.sub(r"[^a-z0-9-]+", "-", u.name.lower()).strip("-") or "unit"),),
                             army.weapons, army.rules)
        us, weapons, rules = _as_spec_unit(one, file, name)
        return Pick(us, weapons, rules, file, shown)
    raise ScenarioError(file, place, "a catalogue (.cat, .catz), roster (.ros, .rosz, .json) or scenario (.toml)",
                        f"a {suffix or 'file without an extension'}")


def _pair(att: Pick, dfn: Pick, cond: Conditions):
    from sim.analysis.matrix import pair_spec
    a = dataclasses.replace(att.unit, moved=0.0 if cond.stationary or cond.melee else MOVED,
                            charged=cond.charged, advanced=False, fell_back=False)
    d = dataclasses.replace(dfn.unit, charged=False, advanced=False, fell_back=False, moved=0.0)
    rng = max(cond.range - EDGE, 0.0)  # (within the range, whatever the arc's rounding)
    spec = pair_spec(a, d, rng, cond.cover and not cond.melee, cond.melee, {**dfn.weapons, **att.weapons})
    colours = [arm.colour for arm in spec.armies]
    return dataclasses.replace(spec, armies=(Army("attackers", colours[0], att.rules),
                                             Army("defenders", colours[1], dfn.rules)))


def _weapon_step(step, weapon: str):
    from sim.scenario.spec import ScriptStep
    models = {m: {w: t for w, t in ws.items() if w == weapon} for m, ws in step.action["models"].items()}
    models = {m: ws for m, ws in models.items() if ws}
    return ScriptStep({**step.action, "models": models}, step.decisions, step.where)


def columns(att: Pick, dfn: Pick, cond: Conditions, per_weapon: bool = False, label: str = "") -> list[Column]:
    """The attack of ``att`` on ``dfn`` under ``cond``: the whole unit's, then (``per_weapon``)
    each weapon's alone, each a Column."""
    from sim.analysis.locate import Located, _default_step, problem_at, usable_command
    from sim.battle import Battle
    from sim.odds import solve
    from sim.odds.problem import OddsError
    from sim.rules.attack import AttackKind
    spec = _pair(att, dfn, cond)
    a, d = spec.units
    kind = AttackKind.FIGHTING if cond.melee else AttackKind.SHOOTING
    step = _default_step(spec, a, d.id, kind)
    name = label or att.shown
    steps = [(name, step)]
    if per_weapon:
        steps += [(f"{name}: {w}", _weapon_step(step, w))
                  for w in dict.fromkeys(w for ws in step.action["models"].values() for w in ws)]
    out = []
    for lab, st in steps:
        col = Column(lab, dfn.shown, models=len(d.models))
        if not st.action["models"]:
            col.note = "no " + ("melee" if cond.melee else "ranged") + " weapon"
            out.append(col)
            continue
        with Battle(spec, record_dice=False) as battle:
            try:
                odds = solve(problem_at(Located(battle, usable_command(battle, st), {}, "")), counters=False)
            except (OddsError, PlanError) as e:
                col.note = _named(str(e), att, dfn)
                out.append(col)
                continue
        t = odds.targets[0]
        col.wounds, col.damage, col.destroyed, col.wiped = t.wounds, t.damage, t.destroyed, t.wiped
        col.attacks = sum(p.dice.mean for p in odds.pools)
        col.hits = sum(p.hits.mean for p in odds.pools)
        col.wounding = sum(p.wounds.mean for p in odds.pools)
        col.method = odds.method
        col.note = _named("; ".join(odds.notes), att, dfn)
        out.append(col)
    return out


def _named(note: str, att: Pick, dfn: Pick) -> str:
    """A rules message with the pair's unit names for their ids (a person reads it)."""
    note = re.sub(r"a:[^\s/]+/(\d+)", lambda m: f"{att.shown} model {m.group(1)}", note)
    note = re.sub(r"a:[^\s/,;:]+", lambda m: att.shown, note)
    return re.sub(r"d:[^\s/,;:]+", lambda m: dfn.shown, note)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if x >= 0.0005 or x == 0 else "<0.1%"


def rows(cols: list[Column]) -> list[tuple[str, list[str]]]:
    """The table the calculator shows: (row name, a value per column), the columns' labels and
    defenders first: expected attacks, hits, wounds, damage, models destroyed, the chance to
    destroy the unit, and "at least k models destroyed" with percentages."""
    out = [("", [c.label for c in cols]), ("against", [c.defender for c in cols])]

    def row(name, f):
        out.append((name, [f(c) if c.answered else "-" for c in cols]))

    row("attacks", lambda c: f"{c.attacks:.2f}")
    row("hits", lambda c: f"{c.hits:.2f}")
    row("wounds", lambda c: f"{c.wounding:.2f}")
    row("damage (wounds lost)", lambda c: f"{c.damage.mean:.2f} of {c.wounds}")
    row("models destroyed", lambda c: f"{c.destroyed.mean:.2f} of {c.models}")
    row("destroy the unit", lambda c: _pct(c.wiped))
    k_max = max((c.models for c in cols if c.answered), default=0)
    for k in range(1, k_max + 1):
        row(f"at least {k} model{'s' if k > 1 else ''}",
            lambda c, k=k: _pct(float(c.destroyed.at_least()[k])) if k < len(c.destroyed.p) else
            ("0.0%" if k <= c.models else ""))
    return out


def notes(cols: list[Column]) -> list[str]:
    out = []
    for c in cols:
        if not c.answered or c.note:
            out.append(f"note: {c.label}: {c.note or 'no answer'}")
        if c.answered and c.method != "exact":
            out.append(f"note: {c.label}: {c.method} (not exact)")
    return out


def text(cols: list[Column], cond: Conditions, title: str = "") -> str:
    """The columns side by side (``rows``), then the notes."""
    width = max(14, *(len(c.label) for c in cols), *(len(c.defender) for c in cols)) + 2
    lines = [title or f"odds ({cond.text()})"]
    lines += [f"{name:<26}" + "".join(f"{v:>{width}}" for v in values) for name, values in rows(cols)]
    return "\n".join(lines + notes(cols))


def as_dict(cols: list[Column], cond: Conditions) -> dict:
    return {"conditions": dataclasses.asdict(cond), "columns": [
        {"label": c.label, "defender": c.defender, "models": c.models, "wounds": c.wounds, "method": c.method,
         "note": c.note, "attacks": c.attacks, "hits": c.hits, "wounds_inflicted": c.wounding,
         "damage": c.damage.as_dict() if c.answered else None,
         "models_destroyed": c.destroyed.as_dict() if c.answered else None,
         "p_destroy_unit": c.wiped if c.answered else None} for c in cols]}
