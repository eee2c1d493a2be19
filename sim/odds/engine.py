"""The odds of one declared attack, worked out exactly (sim.odds.exact) or, when that is
intractable, by a seeded Monte Carlo of the same rules (sim.odds.montecarlo), as a
sim.odds.result.Odds; and a small, cached API for a front end (for_plan)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from sim.odds import budget as BU
from sim.odds import exact as EX
from sim.odds import fast as FA
from sim.blas import one_thread
from sim.odds.montecarlo import simulate
from sim.odds.problem import Problem, anonymous, build_problem, problem_for_command
from sim.odds.result import (SUM_TOLERANCE, Measure, Odds, PoolSummary, TargetOdds, hazard_measures, measure,
                             notes_of, profile, target_odds)
from sim.rules.attack import AttackKind

MC_RUNS = 20_000
MC_SEED = 1


@functools.lru_cache(maxsize=128)
def solve(problem: Problem, counters: bool = True) -> Odds:
    """The odds of ``problem``: exact, or a seeded Monte Carlo of the same rules when the exact
    chain would go beyond its memory or work budget (sim.odds.budget; the result says which,
    and why; OddsError when the attack is too large for the Monte Carlo's budget too). Kept for equal problems.
    ``counters`` False leaves out the unsaved attacks and mortal wounds (the rest is the same,
    and cheaper). Counting them may take a share of the work budget (sim.odds.budget.COUNTERS_SHARE);
    beyond it, or beyond the memory budget, the odds are exact without them, the note saying so."""
    try:
        with one_thread(), BU.counting(BU.COUNTERS_SHARE if counters else 1):
            return _exact(problem, counters)
    except EX.Intractable as e:
        reason = e
    if counters:
        try:
            with one_thread(), BU.counting():
                odds = _exact(problem, False)
            odds.notes.insert(0, f"unsaved attacks and mortal wounds not counted: intractable exactly with them "
                                 f"({reason}); the rest is exact")
            return odds
        except EX.Intractable as e:
            reason = e
    odds = simulate(problem, MC_RUNS, MC_SEED, BU.MC_WORK_BUDGET)
    runs = f"{odds.runs:,} runs, seed {MC_SEED}"
    if odds.runs < MC_RUNS:
        runs += f": as many as its work budget of {BU.MC_WORK_BUDGET:,} steps allows"
    odds.notes.insert(0, f"Monte Carlo of the same rules ({runs}): intractable exactly ({reason})")
    return odds


def solve_reference(problem: Problem, counters: bool = True) -> Odds:
    """The exact odds by the reference path (sim.odds.exact.solve_target: each start state of a
    pool on its own, the counters joint), which solve's answer equals within 1e-12 (the tests
    compare them); not kept, no fallback (Intractable escapes)."""
    with one_thread(), BU.counting():
        return _exact(problem, counters, reference=True)


def _exact(problem: Problem, counters: bool = True, reference: bool = False) -> Odds:
    pool_odds = {p.index: EX.PoolOdds(p, problem.targets[p.target]) for p in problem.pools}
    targets = []
    err = 0.0
    pruned = 0.0
    for t, tv in enumerate(problem.targets):
        if reference:
            final = EX.solve_target(problem, t, pool_odds, counters)
            total = sum(final.values())
        else:
            final = FA.solve_target(problem, t, pool_odds, counters)
            pruned += final.pruned
            total = sum(final.states.values()) + final.pruned
        err = max(err, abs(total - 1.0))
        targets.append(target_odds(tv, final, counters))
    pools = []
    for p in problem.pools:
        po = pool_odds[p.index]
        po.finish()
        for v in (po.dice, po.hits, po.wounds, po.criticals):
            err = max(err, abs(float(v.sum()) - 1.0))
        pools.append(PoolSummary(p.index, problem.targets[p.target].uid, p.weapons, profile(p), po.lost,
                                 Measure("attack dice", po.dice), Measure("hits", po.hits),
                                 Measure("wounds", po.wounds), Measure("critical wounds", po.criticals)))
    hz = EX.solve_hazard(problem)
    err = max(err, abs(sum(hz.values()) - 1.0))
    hl, hd = hazard_measures(problem, hz)
    if err > SUM_TOLERANCE:
        raise AssertionError(f"odds: probabilities sum to 1 within {err:.1e}, beyond {SUM_TOLERANCE:g}")
    return Odds(problem.label, problem.attacker.uid, problem.kind, "exact", targets, pools, problem.hazard_rolls,
                hl, hd, notes_of(problem), max_sum_error=err, pruned=pruned)


class Summary(NamedTuple):
    """What a player weighing attacks reads of ``solve(problem, counters=False)`` (sim.players.
    tactician.judge): per target (unit id, models alive at the start, expected models destroyed,
    expected damage, P(every model destroyed)), and the attacker's expected models destroyed by
    its own hazard rolls (0.0 with none)."""

    targets: tuple
    hazard_destroyed: float


def summary(problem: Problem) -> Summary:
    """``solve(problem, counters=False)``'s means, the same floats to the bit, without the parts of
    its Odds nobody reads there: the pools' dice, hits and wounds, their profiles and notes, and
    each target's measures per allocation group. The same exact path (sim.odds.fast, its work
    counted in the same budget), so an attack intractable there is solve's (Monte Carlo) answer,
    by solve itself. Kept (the last SUMMARIES_KEPT) per anonymous problem
    (sim.odds.problem.anonymous: names made positional, which the odds never read), each
    target's unit id put back: attacks that differ only in names are solved once."""
    kept = _summary(anonymous(problem))
    return Summary(tuple((tv.uid, *t[1:]) for tv, t in zip(problem.targets, kept.targets)), kept.hazard_destroyed)


SUMMARIES_KEPT = 1024


@functools.lru_cache(maxsize=SUMMARIES_KEPT)
def _summary(problem: Problem) -> Summary:
    """``summary`` of a problem as given (an anonymous one: ``summary``)."""
    try:
        with one_thread(), BU.counting(1):
            pool_odds = {p.index: EX.PoolOdds(p, problem.targets[p.target]) for p in problem.pools}
            finals = [FA.solve_target(problem, t, pool_odds, False) for t in range(len(problem.targets))]
            hz = EX.solve_hazard(problem)
    except EX.Intractable:
        odds = solve(problem, counters=False)
        return Summary(tuple((t.uid, t.models, t.destroyed.mean, t.damage.mean, t.wiped) for t in odds.targets),
                       odds.hazard_destroyed.mean if odds.hazard_rolls else 0.0)
    err = 0.0
    out = []
    for tv, final in zip(problem.targets, finals):
        err = max(err, abs(sum(final.states.values()) + final.pruned - 1.0))
        # (target_odds's models destroyed and damage, summed in its order: the same measures)
        alive0 = [i for i, x in enumerate(tv.start) if x > 0]
        destroyed, damage = {}, {}
        w0 = sum(tv.start)
        for r, p in final.states.items():
            d = sum(1 for i in alive0 if r[i] <= 0)
            destroyed[d] = destroyed.get(d, 0.0) + p
            lost = w0 - sum(r)
            damage[lost] = damage.get(lost, 0.0) + p
        dm = Measure("models destroyed", _measure_p(destroyed))
        models = len(alive0)
        out.append((tv.uid, models, dm.mean, Measure("damage", _measure_p(damage)).mean,
                    float(dm.p[models]) if len(dm.p) > models else 0.0))
    err = max(err, abs(sum(hz.values()) - 1.0))
    if err > SUM_TOLERANCE:
        raise AssertionError(f"odds: probabilities sum to 1 within {err:.1e}, beyond {SUM_TOLERANCE:g}")
    return Summary(tuple(out), hazard_measures(problem, hz)[1].mean if problem.hazard_rolls else 0.0)


def _measure_p(values: dict):
    return measure("", values).p


# --- a small API for a front end (the sandbox's orders panel) ----------------------------------


@dataclass(frozen=True)
class Preview:
    """Per target unit: (unit id, expected models destroyed, P(destroyed), the distribution of
    models destroyed as a tuple); and whether it is exact."""

    targets: tuple
    exact: bool

    @property
    def first(self):
        return self.targets[0] if self.targets else None


def preview(odds: Odds) -> Preview:
    return Preview(tuple((t.uid, t.destroyed.mean, t.wiped, tuple(float(x) for x in t.destroyed.p))
                         for t in odds.targets), odds.method == "exact")


def problem_for_plan(battle, plan, decisions: dict | None = None) -> Problem | None:
    """The Problem of a validated plan in the battle as it is now (None for no attacks): what
    for_plan solves. It reads the world; solving it does not (a front end may solve it on
    another thread: ``preview(solve(problem, counters=False))`` is for_plan's answer)."""
    from sim.world import queries as W
    declared = plan if isinstance(plan, list) else plan.declared
    if not declared:
        return None
    battle._enter()
    attacker = W.unit_of(declared[0].model)
    kind = AttackKind.FIGHTING if declared[0].weapon.is_melee else AttackKind.SHOOTING
    return build_problem(battle, declared, attacker, kind, decisions, getattr(plan, "shooting_type", None))


def for_plan(battle, plan, decisions: dict | None = None) -> Preview:
    """The odds of a validated plan (battle.validated, a sim.plan ShootPlan, or a list of
    sim.plan.Declared) in the battle as it is now, summarised for a front end: expected models
    destroyed, the chance to destroy the unit, and the distribution, per target. Equal attacks
    at equal states are worked out once (solve keeps them)."""
    problem = problem_for_plan(battle, plan, decisions)
    if problem is None:
        return Preview((), True)
    return preview(solve(problem, counters=False))


def solve_preview(problem: Problem) -> tuple:
    """for_plan's second half, which reads no world (a front end runs it in a worker): the
    Preview of ``problem``, the notes (a Monte Carlo fallback, what is left out) and the method."""
    odds = solve(problem, counters=False)
    return preview(odds), tuple(odds.notes), odds.method


def for_command(battle, command, decisions: dict | None = None) -> Odds:
    """The odds of a Shoot or Fight command in the battle as it is now (OddsError if the rules
    refuse it)."""
    return solve(problem_for_command(battle, command, decisions))


__all__ = ["Measure", "Odds", "PoolSummary", "TargetOdds", "for_command", "for_plan", "preview", "problem_for_plan",
           "solve", "solve_preview", "solve_reference"]
