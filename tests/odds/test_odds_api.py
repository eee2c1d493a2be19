"""sim.odds.for_plan, the small API a front end (the sandbox's orders panel) calls with the plan
it validated: per target the expected models destroyed, P(destroyed) and the distribution; the
same numbers as the full odds, and kept for an equal attack at an equal state."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.battle import Battle
from sim.odds import engine as E
from sim.odds import for_plan
from sim.scenario.load import load_scenario
from sim.scenario.script_run import to_command

ROOT = Path(__file__).resolve().parents[2]


def test_for_plan_matches_the_full_odds_and_is_cached():
    spec = load_scenario(ROOT / "scenarios/default.toml")
    with Battle(spec) as b:
        cmd = to_command(b, spec.script[2])
        assert b.check(cmd) is None
        full = E.for_command(b, cmd)
        E.solve.cache_clear()
        pv = for_plan(b, b.validated)
        assert pv.exact and len(pv.targets) == 1
        uid, mean, wiped, hist = pv.first
        t = full.targets[0]
        assert uid == t.uid and mean == pytest.approx(t.destroyed.mean, abs=1e-12)
        assert wiped == pytest.approx(t.wiped, abs=1e-12) and sum(hist) == pytest.approx(1.0, abs=1e-12)
        assert for_plan(b, b.validated.declared) == pv
        assert E.solve.cache_info().hits >= 1
        assert for_plan(b, []) == E.Preview((), True)


def test_12_04_odds_of_a_fight_where_a_model_is_engaged_with_another_unit_only():
    """``sim odds --unit brutes --target pickets``: brutes/3 is engaged with the guard only, so it
    fights the guard (12.04; the rules refuse a fight that leaves it out), and the odds cover
    both targets."""
    from sim.analysis.locate import problem_at, unit_against
    spec = load_scenario(ROOT / "tests/sandbox/data/extra/fight_two_fronts.toml")
    located = unit_against(spec, "brutes", "pickets", fight=True)
    try:
        assert [(s.model, s.target) for s in located.command.selections] == [
            ("brutes/1", "pickets"), ("brutes/2", "pickets"), ("brutes/3", "guards")]
        odds = E.solve(problem_at(located), counters=False)
        assert sorted(t.uid for t in odds.targets) == ["guards", "pickets"]
    finally:
        located.battle.close()
