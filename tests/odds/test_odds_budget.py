"""Issue 25: the odds of any attack within bounded memory and time (sim.odds.budget). The exact
engine counts every array's entries before allocating it and its work as it goes; beyond
either the seeded Monte Carlo answers, its note naming the budget; the Monte Carlo is bounded
too. The budgets count work, never time, so which engine answers is the same everywhere."""

from __future__ import annotations

import pytest

from odds_support import pool, problem, unit
from sim.odds import budget as BU
from sim.odds import engine as E
from sim.odds import exact as EX
from sim.odds import fast as FA
from sim.odds.montecarlo import simulate
from sim.odds.problem import OddsError


@pytest.fixture(autouse=True)
def fresh():
    E.solve.cache_clear()
    yield
    E.solve.cache_clear()


def test_a_horde_of_save_rolls_too_large_to_count_gets_the_exact_odds_without_the_counters():
    """10 weapons of A 20D6+100 at 200 W1 models asked numpy for (201, 1670, 1670) float64
    (4 GiB) to count unsaved attacks: counted first, and beyond the memory budget the odds are
    worked out again without the counters (issue 29; the Monte Carlo answered here before):
    exact, the note saying what is left out and why."""
    pr = problem([pool(A="20D6+100", copies=10)], [unit(models=((200, 1, 4, None, False),))])
    odds = E.solve(pr)
    assert odds.method == "exact"
    note = odds.notes[0]
    assert note.startswith("unsaved attacks and mortal wounds not counted: intractable exactly with them (")
    assert "beyond the memory budget of 64 MiB" in note and "save rolls on 201 states" in note, note
    assert odds.targets[0].unsaved is None and odds.targets[0].mortal is None
    assert odds.targets[0].destroyed.mean == pytest.approx(200.0)


def test_counting_beyond_its_share_of_the_work_budget_gives_the_odds_without_the_counters(monkeypatch):
    """The counters may take WORK_BUDGET / COUNTERS_SHARE: an attack whose counting costs more
    (and whose odds without them cost less) gets the exact odds without them, equal to what
    solve gives when not asked for them."""
    pr = problem([pool(index=i, A=10, D="D3", S=4 + i, AP=-i, abilities="DEVASTATING WOUNDS") for i in range(3)],
                 [unit(models=((5, 2, 3, None, False), (5, 2, 4, None, False)))])
    costs = {}
    for counters in (True, False):
        with BU.counting() as b:
            E._exact(pr, counters)
        costs[counters] = b.work
    assert costs[False] < costs[True]
    monkeypatch.setattr(BU, "WORK_BUDGET", max(costs[False] + 1, costs[True] * BU.COUNTERS_SHARE // 2))
    odds = E.solve(pr, counters=True)
    assert odds.method == "exact" and odds.targets[0].unsaved is None
    assert "not counted" in odds.notes[0] and f"work budget of {BU.WORK_BUDGET // BU.COUNTERS_SHARE:,}" in odds.notes[0]
    plain = E.solve(pr, counters=False)
    assert odds.targets[0].destroyed.p.tolist() == plain.targets[0].destroyed.p.tolist()


def test_below_the_memory_budget_the_answer_is_exact_and_above_it_the_monte_carlo(monkeypatch):
    pr = problem([pool(A=8, skill=3, S=4, AP=-1, D="D3")], [unit(models=((5, 2, 4, None, False),), fnp=6)])
    exact = E.solve(pr)
    assert exact.method == "exact"
    monkeypatch.setattr(BU, "MEMORY_BUDGET", 1_000)  # bytes: the save rolls' array is larger
    E.solve.cache_clear()
    mc = E.solve(pr)
    assert mc.method == "monte carlo" and "beyond the memory budget of 0 MiB" in mc.notes[0]
    a, b = exact.targets[0].destroyed, mc.targets[0].destroyed
    assert abs(a.mean - b.mean) <= 4 * a.sd / mc.runs ** 0.5


def test_the_work_budget_stops_the_exact_engine_where_the_count_says_and_the_answer_is_repeatable(monkeypatch):
    pr = problem([pool(index=i, A=10, D="D3", S=4 + i % 5, AP=-(i % 3)) for i in range(6)],
                 [unit(models=((10, 2, 3, None, False),))])
    with BU.counting() as b:  # (the path solve takes: sim.odds.fast)
        FA.solve_target(pr, 0, {p.index: EX.PoolOdds(p, pr.targets[0]) for p in pr.pools}, False)
    assert 0 < b.work  # (what the exact answer costs)
    monkeypatch.setattr(BU, "WORK_BUDGET", b.work // 2)
    first = E.solve(pr, counters=False)
    E.solve.cache_clear()
    again = E.solve(pr, counters=False)
    assert first.method == "monte carlo" and f"work budget of {b.work // 2:,} units" in first.notes[0]
    assert again.notes == first.notes and again.targets[0].destroyed.p.tolist() == first.targets[0].destroyed.p.tolist()
    monkeypatch.setattr(BU, "WORK_BUDGET", b.work)
    E.solve.cache_clear()
    assert E.solve(pr, counters=False).method == "exact"


def test_twenty_pools_at_one_target_stay_within_the_work_budget(monkeypatch):
    """Twenty pools of D3 damage with [DEVASTATING WOUNDS] and [SUSTAINED HITS] at a two-save
    horde ran past 120 s: the count stops the exact engine at WORK_BUDGET, then the Monte Carlo
    stops at MC_WORK_BUDGET. (Exact without the counters since the save rolls of large chains
    go by their nonzero entries, about 1.5e8 units: the budget here is lowered below that.)"""
    monkeypatch.setattr(BU, "WORK_BUDGET", 5 * 10**7)
    abilities = ["", "SUSTAINED HITS 1", "LETHAL HITS", "DEVASTATING WOUNDS", "TWIN-LINKED"]
    pools = [pool(index=i, A=f"{1 + i % 3}D6+{i}", S=3 + i % 6, AP=-(i % 4), D=["D3", 1, 2, "D6", 3][i % 5],
                  abilities=abilities[i % 5]) for i in range(20)]
    pr = problem(pools, [unit(models=((30, 3, 3, None, False), (30, 3, 5, None, False), (30, 3, 6, 4, False)))])
    odds = E.solve(pr, counters=False)
    assert odds.method == "monte carlo" and f"the work budget of {BU.WORK_BUDGET:,} units" in odds.notes[0]
    assert 0 < odds.runs < E.MC_RUNS


def test_a_pool_after_its_target_is_all_but_surely_destroyed_still_sums_to_one():
    """Six pools of 30 attacks at three W1 models: the pools after the first are rolled with a
    chance of about 1e-16, and dividing by 1 - lost (rounding) gave measures summing to 0.992
    (an AssertionError escaped `sim odds`); divided by the mass rolled they sum to 1."""
    pr = problem([pool(index=i, A=30, D="D3", S=4 + i % 5, AP=-(i % 3)) for i in range(6)],
                 [unit(models=((3, 1, 3, None, False),))])
    odds = E.solve(pr, counters=False)
    assert odds.method == "exact" and odds.max_sum_error <= 1e-12
    for p in odds.pools:
        assert abs(float(p.dice.p.sum()) - 1.0) <= 1e-12


def test_an_attack_too_large_for_the_monte_carlo_too_is_refused_with_its_figure():
    pr = problem([pool(A="20D6+100", copies=100)], [unit(models=((10, 1, 4, None, False),))])
    with pytest.raises(OddsError, match=r"an attack of up to 22,000 attack dice, more than the 20,000"):
        E.solve(pr, counters=False)


def test_the_monte_carlo_ends_its_runs_at_its_budget():
    pr = problem([pool(A=10, D="D3")], [unit(models=((10, 2, 3, None, False),))])
    full = simulate(pr, 500, 1)
    cut = simulate(pr, 500, 1, budget=2_000)
    assert full.runs == 500 and 0 < cut.runs < 500
    # (the runs made are the first ones of the full count: the same seeds)
    assert simulate(pr, cut.runs, 1).targets[0].destroyed.p.tolist() == cut.targets[0].destroyed.p.tolist()
