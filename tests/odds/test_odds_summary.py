"""sim.odds.engine.summary: what the tactician reads of solve(problem, counters=False) (each target's
expected models destroyed, expected damage, P(wiped out), and the hazard rolls' expected models
destroyed), the same floats bit for bit, on every attack a whole tactician battle weighs, on
constructed edges (hazard rolls, several targets, an attack intractable exactly)."""

from __future__ import annotations

import pytest

from odds_support import pool, problem, unit
from sim.odds import budget as BU
from sim.odds import engine as E


pytestmark = pytest.mark.usefixtures("fresh_odds_caches")


def _means(odds) -> E.Summary:
    """solve's answer read as the tactician read it before summary (judge.attack_odds)."""
    return E.Summary(tuple((t.uid, t.models, t.destroyed.mean, t.damage.mean, t.wiped) for t in odds.targets),
                     odds.hazard_destroyed.mean if odds.hazard_rolls else 0.0)


def _same(pr) -> None:
    got, want = E.summary(pr), _means(E.solve(pr, counters=False))
    assert got == want  # (float ==: the same bits, or both 0.0)
    assert [type(x) for t in got.targets for x in t] == [type(x) for t in want.targets for x in t]


def test_one_pool_one_target():
    _same(problem([pool(A=10, skill=3, S=4, AP=-1, D=1)], [unit(models=((10, 1, 3, None, False),))]))


def test_hazard_rolls_and_feel_no_pain():
    pr = problem([pool(A="2D6", skill=3, S=7, AP=-2, D="D3")], [unit(models=((5, 2, 4, None, False),), fnp=5)],
                 hazard=3, attacker=unit("a", ((3, 2, 3, None, False),)))
    _same(pr)
    assert E.summary(pr).hazard_destroyed > 0


def test_several_pools_and_targets_a_character_a_wounded_model():
    t1 = unit("t1", ((4, 2, 3, 5, False), (1, 4, 3, 4, True)), start=(2, 2, 2, 1, 4))
    t2 = unit("t2", ((3, 3, 2, None, False),), kw=("VEHICLE",))
    pr = problem([pool(0, 0, A=12, S=4, AP=-1, D=1, abilities="SUSTAINED HITS 1"),
                  pool(1, 0, A=4, S=8, AP=-3, D="D6", abilities="DEVASTATING WOUNDS"),
                  pool(2, 1, A=6, S=9, AP=-2, D=3)], [t1, t2])
    _same(pr)


def test_an_attack_intractable_exactly_is_solve_s_monte_carlo(monkeypatch):
    pr = problem([pool(A=8, skill=3, S=4, AP=-1, D="D3")], [unit(models=((5, 2, 4, None, False),), fnp=6)])
    monkeypatch.setattr(BU, "MEMORY_BUDGET", 1_000)  # (bytes: the save rolls' array is larger)
    _same(pr)  # (summary's fallback is solve itself: one Monte Carlo, kept by solve's cache)
    assert E.solve(pr, counters=False).method == "monte carlo"


def test_every_attack_a_tactician_battle_weighs():
    from sim.battle import Battle
    from sim.players import play_battle
    from sim.players.tactician import TacticianPlayer
    from sim.players.tactician import judge as J
    from sim.scenario.load import load_scenario
    asked = []
    summary = J.summary
    J.summary = lambda pr: asked.append(pr) or summary(pr)
    try:
        spec = load_scenario("scenarios/battle_default.toml")
        with Battle(spec, seed=3) as b:
            play_battle(b, spec, players=[TacticianPlayer(s, b, spec) for s in (0, 1)])
    finally:
        J.summary = summary
    assert len(asked) > 100 and any(len(pr.pools) > 1 for pr in asked)
    for pr in asked:
        _same(pr)
        E.solve.cache_clear()
        E._summary.cache_clear()
