"""`sim matrix`: every attacking unit of one scenario file (or the unit library, which is one)
against every unit of another, at a given range, with or without cover: the exact expected
damage, models destroyed and chance to wipe the unit, as a table, a CSV and a heatmap.

Each pair is a battle of its own on an empty board (no terrain), both units fresh (they have not
moved: [HEAVY] applies), the attacker's models on an arc around the defender's first model so
each is ``range`` inches from it (models that do not fit stand on rings behind, farther away),
the defender's other models behind that one. ``cover``: the defender counts as in cover against
ranged attacks, as 24.33 gives it (the registry's record with that effect) (so [IGNORES COVER] still denies it).
``fight``: the units in base contact instead, a column against a column, and the attacker
fights with its melee weapons. The attack is the one `sim odds --unit A --target B` makes:
every model's weapons (for a fight its first melee weapon and its [EXTRA ATTACKS] ones), those
that cannot reach left out."""

from __future__ import annotations

import csv
import dataclasses
import math
from typing import NamedTuple

from sim.battle import Battle
from sim.errors import PlanError, ScenarioError
from sim.odds.engine import solve
from sim.odds.problem import OddsError
from sim.analysis.locate import Located, _default_step, problem_at, usable_command
from sim.rules.abilities import Ability, Hook, with_hook
from sim.scenario.spec import Army, ScenarioSpec
from sim.rules.attack import AttackKind

CENTRE = 100.0
BOARD = (200.0, 200.0)
GAP = 0.2  # inches between bases side by side
MAX_RANGE = 1_000.0  # inches between the units at most (the longest weapon range a scenario takes)


class Cell(NamedTuple):
    attacker: str
    defender: str
    damage: float | None
    destroyed: float | None
    wiped: float | None
    models: int
    note: str = ""


def _radius(ms) -> float:
    return max(ms.length, ms.width) / 2


def _renamed(us, prefix: str, owner: int):
    ids = {m.id: prefix + m.id for m in us.models}
    models = tuple(dataclasses.replace(m, id=ids[m.id]) for m in us.models)
    return dataclasses.replace(us, id=prefix + us.id, owner=owner, models=models, reserves=False,
                               allocation_order=tuple(ids.get(i, i) for i in us.allocation_order))


def _placed(us, points):
    return dataclasses.replace(us, models=tuple(dataclasses.replace(m, x=x, y=y)
                                                for m, (x, y) in zip(us.models, points)))


def _shooting_layout(att, dfn, rng: float):
    """The defender's first model at the centre and the rest behind it (+x, rows of 5); the
    attackers on arcs to its left, the first at ``rng`` from it (edge to edge)."""
    rd = _radius(dfn.models[0])
    step_d = 2 * max(_radius(m) for m in dfn.models) + GAP
    dpts = [(CENTRE, CENTRE)]
    for k in range(1, len(dfn.models)):
        col, row = divmod(k - 1, 5)
        dpts.append((CENTRE + step_d * (col + 1), CENTRE + step_d * (row - 2)))
    ra = max(_radius(m) for m in att.models)
    apts = []
    rho = rng + rd + ra
    left = len(att.models)
    while left:
        per = max(1, int(math.pi * rho / (2 * ra + GAP)))  # (half a circle)
        n = min(per, left)
        dth = (2 * ra + GAP) / rho
        for j in range(n):
            th = math.pi + (j - (n - 1) / 2) * dth
            apts.append((CENTRE + rho * math.cos(th), CENTRE + rho * math.sin(th)))
        left -= n
        rho += 2 * ra + GAP
    return apts, dpts


def _fight_layout(att, dfn):
    """A column of defenders and, 0.5" to its left, a column of attackers (more columns behind
    when they outnumber it)."""
    ra = max(_radius(m) for m in att.models)
    rd = max(_radius(m) for m in dfn.models)
    step = 2 * max(ra, rd) + GAP
    n = len(dfn.models)
    dpts = [(CENTRE, CENTRE + step * (k - (n - 1) / 2)) for k in range(n)]
    apts = []
    for k in range(len(att.models)):
        col, row = divmod(k, n)
        apts.append((CENTRE - rd - 0.5 - ra - col * (2 * ra + GAP), CENTRE + step * (row - (n - 1) / 2)))
    return apts, dpts


def pair_spec(att, dfn, rng: float, cover: bool, fight: bool, weapons: dict) -> ScenarioSpec:
    a, d = _renamed(att, "a:", 0), _renamed(dfn, "d:", 1)
    apts, dpts = _fight_layout(a, d) if fight else _shooting_layout(a, d, rng)
    a, d = _placed(a, apts), _placed(d, dpts)
    if cover and not all(any(Hook.COVER_FOR_ALL in x.spec.hooks for x in m.abilities) for m in d.models):
        stealth = Ability(with_hook(Hook.COVER_FOR_ALL).name)  # (24.33, by what it does)
        d = dataclasses.replace(d, models=tuple(dataclasses.replace(m, abilities=tuple(m.abilities) + (stealth,))
                                                for m in d.models))
    return ScenarioSpec(name=f"{att.id} vs {dfn.id}", description="", seed=1, board=BOARD, terrain=(),
                        armies=(Army("attackers", (176, 64, 56)), Army("defenders", (64, 96, 176))),
                        units=(a, d), weapons=weapons, script=(), path="<matrix>")


def cell(att, dfn, rng: float, cover: bool, fight: bool, weapons: dict) -> Cell:
    spec = pair_spec(att, dfn, rng, cover, fight, weapons)
    a, d = spec.units
    models = len(d.models)
    step = _default_step(spec, a, d.id, AttackKind.FIGHTING if fight else AttackKind.SHOOTING)
    if not step.action["models"]:
        return Cell(att.id, dfn.id, None, None, None, models, "no " + ("melee" if fight else "ranged") + " weapon")
    with Battle(spec, record_dice=False) as battle:
        try:
            loc = Located(battle, usable_command(battle, step), {}, "")
            odds = solve(problem_at(loc), counters=False)
        except (OddsError, PlanError) as e:
            return Cell(att.id, dfn.id, None, None, None, models, str(e))
    t = odds.targets[0]
    note = "; ".join(odds.notes) + (f" ({odds.method})" if odds.method != "exact" else "")
    return Cell(att.id, dfn.id, t.damage.mean, t.destroyed.mean, t.wiped, models, note)


def matrix(attackers: ScenarioSpec, defenders: ScenarioSpec, rng: float = 12.0, cover: bool = False,
           fight: bool = False) -> list[list[Cell]]:
    """Rows: the attackers file's units (listed order); columns: the defenders file's. ``rng``
    from 0 to MAX_RANGE inches (as `sim matrix --range` reads it: sim.options)."""
    if not (isinstance(rng, (int, float)) and math.isfinite(rng) and 0 <= rng <= MAX_RANGE):
        raise ScenarioError("<matrix>", "range", f"a distance in inches from 0 to {MAX_RANGE:g}", repr(rng))
    if not attackers.units or not defenders.units:
        which = attackers if not attackers.units else defenders
        raise ScenarioError(which.path, "armies", "at least one unit", "none")
    weapons = {**defenders.weapons, **attackers.weapons}
    return [[cell(a, d, rng, cover, fight, weapons) for d in defenders.units] for a in attackers.units]


HEADER = ("attacker", "defender", "models", "expected_damage", "expected_models_destroyed", "p_wipe", "note")


def write_csv(cells: list[list[Cell]], path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for row in cells:
            for c in row:
                w.writerow([c.attacker, c.defender, c.models,
                            "" if c.damage is None else f"{c.damage:.6f}",
                            "" if c.destroyed is None else f"{c.destroyed:.6f}",
                            "" if c.wiped is None else f"{c.wiped:.6f}", c.note])


def text(cells: list[list[Cell]]) -> str:
    defenders = [c.defender for c in cells[0]]
    width = max(15, *(len(d) for d in defenders))
    corner = "attacker \\ defender"
    head = f"{corner:<20}" + "".join(f"{d:>{width + 2}}" for d in defenders)
    lines = [head, f"{'':<20}" + "".join(f"{'dmg/models/wipe':>{width + 2}}" for _ in defenders)]
    for row in cells:
        parts = []
        for c in row:
            parts.append("-" if c.damage is None else f"{c.damage:.1f}/{c.destroyed:.2f}/{100 * c.wiped:.0f}%")
        lines.append(f"{row[0].attacker:<20}" + "".join(f"{p:>{width + 2}}" for p in parts))
    return "\n".join(lines)

