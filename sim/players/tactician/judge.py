"""What the tactician's judgements rest on: what a unit is worth, and what an attack is expected
to destroy, worked out by the odds engine (sim.odds) from the same rules the battle rolls with."""

from __future__ import annotations

import esper

from sim.components import Roster, Unit
from sim.errors import PlanError
from sim.odds.engine import solve
from sim.odds.problem import OddsError, problem_for_command
from sim.world import queries as W


def model_worth(battle, u: int) -> float:
    """A unit's points per model (its file's points spread evenly; 10 a model where the file
    gives none)."""
    unit = esper.component_for_entity(u, Unit)
    r = esper.component_for_entity(u, Roster)
    spec = next((s for s in battle.scenario.units if s.id == unit.id), None)
    pts = (spec.points if spec is not None else None) or 10.0 * len(r.full)
    return pts / max(1, len(r.full))


def attack_value(battle, command) -> tuple[float, float] | None:
    """(expected models destroyed, expected points destroyed) of a Shoot or Fight command in the
    battle as it is now, from the exact odds (a Monte Carlo of the same rules where the exact
    chain is intractable); None when the rules refuse it."""
    try:
        odds = solve(problem_for_command(battle, command), counters=False)
    except (OddsError, PlanError):
        return None
    models = pts = 0.0
    for t in odds.targets:
        u = battle.units[t.uid]
        m = t.destroyed.mean
        models += m
        pts += m * model_worth(battle, u)
    return models, pts


def name(u: int) -> str:
    return esper.component_for_entity(u, Unit).name


def alive(u: int) -> int:
    return len(W.alive_models(u))
