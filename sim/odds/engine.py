"""The odds of one declared attack, worked out exactly (sim.odds.exact) or, when that is
intractable, by a seeded Monte Carlo of the same rules (sim.odds.montecarlo); the result, its
summaries (expectation, standard deviation, "at least k") and a JSON form."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from sim.odds import dist as DI
from sim.odds import exact as EX
from sim.odds.blas import one_thread
from sim.odds.problem import Problem
from sim.rules.allocation import allocation_groups

MC_RUNS = 20_000
MC_SEED = 1


@dataclass
class Measure:
    """One quantity's distribution: ``p[k]`` = P(value = k)."""

    name: str
    p: np.ndarray

    @property
    def mean(self) -> float:
        return DI.mean(self.p)

    @property
    def sd(self) -> float:
        return DI.sd(self.p)

    def at_least(self) -> np.ndarray:
        return DI.at_least(self.p)

    def as_dict(self) -> dict:
        return {"mean": self.mean, "sd": self.sd, "p": [float(x) for x in self.p],
                "at_least": [float(x) for x in self.at_least()]}


@dataclass
class TargetOdds:
    uid: str
    name: str
    models: int  # alive when the attack starts
    wounds: int  # wounds left when it starts
    destroyed: Measure  # models destroyed
    damage: Measure  # wounds lost (after Feel No Pain; excess damage on a model lost, 05.04)
    unsaved: Measure | None  # save rolls failed (None: not counted)
    mortal: Measure | None  # mortal wounds from [DEVASTATING WOUNDS] (None: not counted)
    groups: list = field(default_factory=list)  # [(label, models, Measure of models destroyed)]

    @property
    def wiped(self) -> float:
        return float(self.destroyed.p[self.models]) if len(self.destroyed.p) > self.models else 0.0

    def as_dict(self) -> dict:
        return {"unit": self.uid, "name": self.name, "models": self.models, "wounds": self.wounds,
                "wiped_out": self.wiped, "models_destroyed": self.destroyed.as_dict(),
                "damage": self.damage.as_dict(),
                "unsaved_attacks": self.unsaved.as_dict() if self.unsaved else None,
                "mortal_wounds": self.mortal.as_dict() if self.mortal else None,
                "groups": [{"group": g, "models": n, "models_destroyed": m.as_dict()} for g, n, m in self.groups]}


@dataclass
class PoolSummary:
    index: int
    target: str
    weapons: tuple
    profile: str
    lost: float  # P(its target was destroyed before it: no dice rolled)
    dice: Measure
    hits: Measure
    wounds: Measure
    criticals: Measure

    def as_dict(self) -> dict:
        return {"pool": self.index, "target": self.target, "weapons": list(self.weapons), "profile": self.profile,
                "lost": self.lost, "attack_dice": self.dice.as_dict(), "hits": self.hits.as_dict(),
                "wounds": self.wounds.as_dict(), "critical_wounds": self.criticals.as_dict()}


@dataclass
class Odds:
    label: str
    attacker: str
    kind: str
    method: str  # "exact" or "monte carlo"
    targets: list[TargetOdds]
    pools: list[PoolSummary]
    hazard_rolls: int
    hazard_lost: Measure  # the attacker's wounds lost to its hazard rolls
    hazard_destroyed: Measure
    notes: list[str] = field(default_factory=list)
    runs: int | None = None
    seed: int | None = None
    max_sum_error: float = 0.0

    def target(self, uid: str) -> TargetOdds:
        return next(t for t in self.targets if t.uid == uid)

    def as_dict(self) -> dict:
        out = {"attack": self.label, "attacker": self.attacker, "kind": self.kind, "method": self.method,
               "targets": [t.as_dict() for t in self.targets], "pools": [p.as_dict() for p in self.pools],
               "hazard": {"rolls": self.hazard_rolls, "wounds_lost": self.hazard_lost.as_dict(),
                          "models_destroyed": self.hazard_destroyed.as_dict()},
               "notes": list(self.notes)}
        if self.method == "exact":
            out["arithmetic"] = (f"float64; every distribution sums to 1 within {EX.SUM_TOLERANCE:g} "
                                 f"(largest error here {self.max_sum_error:.1e})")
        else:
            out["runs"], out["seed"] = self.runs, self.seed
        return out


def _profile(pool) -> str:
    k = pool.key
    abil = f" [{', '.join(a.label() for a in k.abilities)}]" if k.abilities else ""
    mods = "".join(f" {'+' if v > 0 else ''}{v} {n}" for n, v in (("hit", k.hit_mod), ("wound", k.wound_mod)) if v)
    return f"{k.skill}+ S{k.S} AP{k.AP} D{k.D}{abil}{mods}"


def _notes(problem: Problem) -> list[str]:
    notes = []
    for tv in problem.targets:
        if any(e and s > 0 for e, s in zip(tv.explodes, tv.start)):
            notes.append(f"not included: Deadly Demise (24.08) of {tv.uid}'s models destroyed by the attack")
    av = problem.attacker
    if problem.hazard_rolls and any(e and s > 0 for e, s in zip(av.explodes, av.start)):
        notes.append(f"not included: Deadly Demise (24.08) of {av.uid}'s models destroyed by its hazard rolls")
    return notes


def _measure(name: str, values: dict) -> Measure:
    n = max(values) if values else 0
    p = np.zeros(n + 1)
    for k, v in values.items():
        p[k] += v
    return Measure(name, p)


def target_odds(tv, final: dict, counted: bool = True) -> TargetOdds:
    """The measures of a target from its final distribution {(wounds left, failed, mortal): p}."""
    alive0 = [i for i, x in enumerate(tv.start) if x > 0]
    destroyed, damage, unsaved, mortal = {}, {}, {}, {}
    groups = allocation_groups(tv.target_models(tv.start))
    index = {m: i for i, m in enumerate(tv.ids)}
    by_group = [dict() for _ in groups]
    w0 = sum(tv.start)
    for (r, u, mw), p in final.items():
        d = sum(1 for i in alive0 if r[i] <= 0)
        destroyed[d] = destroyed.get(d, 0.0) + p
        lost = w0 - sum(r)
        damage[lost] = damage.get(lost, 0.0) + p
        unsaved[u] = unsaved.get(u, 0.0) + p
        mortal[mw] = mortal.get(mw, 0.0) + p
        for g, acc in zip(groups, by_group):
            k = sum(1 for m in g.members if r[index[m]] <= 0)
            acc[k] = acc.get(k, 0.0) + p
    return TargetOdds(tv.uid, tv.name, len(alive0), w0, _measure("models destroyed", destroyed),
                      _measure("damage", damage), _measure("unsaved attacks", unsaved) if counted else None,
                      _measure("mortal wounds", mortal) if counted else None,
                      [(g.label(), len(g.members), _measure("models destroyed", acc))
                       for g, acc in zip(groups, by_group)])


@functools.lru_cache(maxsize=128)
def solve(problem: Problem, counters: bool = True) -> Odds:
    """The odds of ``problem``: exact, or a seeded Monte Carlo of the same rules when the exact
    chain would be too large (the result says which, and why). Kept for equal problems.
    ``counters`` False leaves out the unsaved attacks and mortal wounds (the rest is the same,
    and cheaper when the target's models save differently)."""
    try:
        with one_thread():
            return _exact(problem, counters)
    except EX.Intractable as e:
        from sim.odds.montecarlo import simulate
        odds = simulate(problem, MC_RUNS, MC_SEED)
        odds.notes.insert(0, f"Monte Carlo of the same rules ({MC_RUNS:,} runs, seed {MC_SEED}): "
                             f"intractable exactly ({e})")
        return odds


def _exact(problem: Problem, counters: bool = True) -> Odds:
    pool_odds = {p.index: EX.PoolOdds(p, problem.targets[p.target]) for p in problem.pools}
    targets = []
    err = 0.0
    for t, tv in enumerate(problem.targets):
        final = EX.solve_target(problem, t, pool_odds, counters)
        err = max(err, abs(sum(final.values()) - 1.0))
        targets.append(target_odds(tv, final, counters))
    pools = []
    for p in problem.pools:
        po = pool_odds[p.index]
        po.finish()
        for v in (po.dice, po.hits, po.wounds, po.criticals):
            err = max(err, abs(float(v.sum()) - 1.0))
        pools.append(PoolSummary(p.index, problem.targets[p.target].uid, p.weapons, _profile(p), po.lost,
                                 Measure("attack dice", po.dice), Measure("hits", po.hits),
                                 Measure("wounds", po.wounds), Measure("critical wounds", po.criticals)))
    hz = EX.solve_hazard(problem)
    err = max(err, abs(sum(hz.values()) - 1.0))
    hl, hd = _hazard_measures(problem, hz)
    if err > EX.SUM_TOLERANCE:
        raise AssertionError(f"odds: probabilities sum to 1 within {err:.1e}, beyond {EX.SUM_TOLERANCE:g}")
    return Odds(problem.label, problem.attacker.uid, problem.kind, "exact", targets, pools, problem.hazard_rolls,
                hl, hd, _notes(problem), max_sum_error=err)


def _hazard_measures(problem: Problem, hz: dict) -> tuple[Measure, Measure]:
    av = problem.attacker
    alive0 = [i for i, x in enumerate(av.start) if x > 0]
    lost, destroyed = {}, {}
    w0 = sum(av.start)
    for r, p in hz.items():
        k = w0 - sum(r)
        lost[k] = lost.get(k, 0.0) + p
        d = sum(1 for i in alive0 if r[i] <= 0)
        destroyed[d] = destroyed.get(d, 0.0) + p
    return _measure("wounds lost", lost), _measure("models destroyed", destroyed)


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


def for_plan(battle, plan, decisions: dict | None = None) -> Preview:
    """The odds of a validated plan (battle.validated, a sim.plan ShootPlan, or a list of
    sim.plan.Declared) in the battle as it is now, summarised for a front end: expected models
    destroyed, the chance to destroy the unit, and the distribution, per target. Equal attacks
    at equal states are worked out once (solve keeps them)."""
    from sim.world import queries as W
    declared = plan if isinstance(plan, list) else plan.declared
    if not declared:
        return Preview((), True)
    battle._enter()
    attacker = W.unit_of(declared[0].model)
    kind = "fight" if declared[0].weapon.is_melee else "shoot"
    from sim.odds.problem import build_problem
    return preview(solve(build_problem(battle, declared, attacker, kind, decisions,
                                       getattr(plan, "shooting_type", None)), counters=False))


def for_command(battle, command, decisions: dict | None = None) -> Odds:
    """The odds of a Shoot or Fight command in the battle as it is now (OddsError if the rules
    refuse it)."""
    from sim.odds.problem import problem_for_command
    return solve(problem_for_command(battle, command, decisions))


def z99() -> float:
    """The two-sided 99% normal quantile."""
    return 2.5758293035489004


def close_to_1(x: float) -> bool:
    return math.isclose(x, 1.0, abs_tol=EX.SUM_TOLERANCE)
