"""The odds of one declared attack as a result: per target the distributions of models destroyed
(per allocation group too), damage, unsaved attacks and mortal wounds; per pool its attack dice,
hits, wounds and critical wounds; the attacker's hazard losses; summaries (expectation, standard
deviation, "at least k") and a JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.odds import dist as DI
from sim.odds.problem import Problem
from sim.rules.allocation import allocation_groups

SUM_TOLERANCE = 1e-12


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
    pruned: float = 0.0  # the chance of the states dropped as below 1e-15 (sim.odds.fast; at most 1e-13)

    def target(self, uid: str) -> TargetOdds:
        return next(t for t in self.targets if t.uid == uid)

    def as_dict(self) -> dict:
        out = {"attack": self.label, "attacker": self.attacker, "kind": self.kind, "method": self.method,
               "targets": [t.as_dict() for t in self.targets], "pools": [p.as_dict() for p in self.pools],
               "hazard": {"rolls": self.hazard_rolls, "wounds_lost": self.hazard_lost.as_dict(),
                          "models_destroyed": self.hazard_destroyed.as_dict()},
               "notes": list(self.notes)}
        if self.method == "exact":
            out["arithmetic"] = (f"float64; every distribution sums to 1 within {SUM_TOLERANCE:g} "
                                 f"(largest error here {self.max_sum_error:.1e}"
                                 + (f"; states below 1e-15 dropped: {self.pruned:.1e} in all" if self.pruned else "")
                                 + ")")
        else:
            out["runs"], out["seed"] = self.runs, self.seed
        return out


def profile(pool) -> str:
    k = pool.key
    abil = f" [{', '.join(a.label() for a in k.abilities)}]" if k.abilities else ""
    mods = "".join(f" {'+' if v > 0 else ''}{v} {n}" for n, v in (("hit", k.hit_mod), ("wound", k.wound_mod)) if v)
    skill = "unmodified 6 (snap)" if k.snap else f"{k.skill}+"  # (15.09: the BS is ignored)
    return f"{skill} S{k.S} AP{k.AP} D{k.D}{abil}{mods}"


def _rules_words(rules) -> str:
    return "; ".join(f"{name}: {what}" for name, what in rules)


def notes_of(problem: Problem) -> list[str]:
    notes = []
    for p in problem.pools:  # the rules' effects taken (sim.plan.rule_effects), named
        if p.rules:
            notes.append(f"pool {p.index} takes from rules: {_rules_words(p.rules)}")
    for tv in problem.targets:
        if tv.rules:
            notes.append(f"{tv.uid}'s models take from rules: {_rules_words(tv.rules)}")
    for tv in problem.targets:
        if any(e and s > 0 for e, s in zip(tv.explodes, tv.start)):
            notes.append(f"not included: Deadly Demise (24.08) of {tv.uid}'s models destroyed by the attack")
    av = problem.attacker
    if problem.hazard_rolls and any(e and s > 0 for e, s in zip(av.explodes, av.start)):
        notes.append(f"not included: Deadly Demise (24.08) of {av.uid}'s models destroyed by its hazard rolls")
    return notes


def measure(name: str, values: dict) -> Measure:
    n = max(values) if values else 0
    p = np.zeros(n + 1)
    for k, v in values.items():
        p[k] += v
    return Measure(name, p)


def target_odds(tv, final, counted: bool = True) -> TargetOdds:
    """The measures of a target from its final distribution: the reference path's joint
    {(wounds left, failed, mortal): p} (sim.odds.exact), or sim.odds.fast's Final (the wounds
    left, and each counter's distribution on its own)."""
    if isinstance(final, dict):
        states, unsaved, mortal = {}, {}, {}
        for (r, u, mw), p in final.items():
            states[r] = states.get(r, 0.0) + p
            unsaved[u] = unsaved.get(u, 0.0) + p
            mortal[mw] = mortal.get(mw, 0.0) + p
    else:
        states = final.states
        unsaved = {k: float(v) for k, v in enumerate(final.unsaved)} if final.unsaved is not None else {0: 1.0}
        mortal = {k: float(v) for k, v in enumerate(final.mortal)} if final.mortal is not None else {0: 1.0}
    alive0 = [i for i, x in enumerate(tv.start) if x > 0]
    destroyed, damage = {}, {}
    groups = allocation_groups(tv.target_models(tv.start))
    index = {m: i for i, m in enumerate(tv.ids)}
    by_group = [dict() for _ in groups]
    w0 = sum(tv.start)
    for r, p in states.items():
        d = sum(1 for i in alive0 if r[i] <= 0)
        destroyed[d] = destroyed.get(d, 0.0) + p
        lost = w0 - sum(r)
        damage[lost] = damage.get(lost, 0.0) + p
        for g, acc in zip(groups, by_group):
            k = sum(1 for m in g.members if r[index[m]] <= 0)
            acc[k] = acc.get(k, 0.0) + p
    return TargetOdds(tv.uid, tv.name, len(alive0), w0, measure("models destroyed", destroyed),
                      measure("damage", damage), measure("unsaved attacks", unsaved) if counted else None,
                      measure("mortal wounds", mortal) if counted else None,
                      [(g.label(), len(g.members), measure("models destroyed", acc))
                       for g, acc in zip(groups, by_group)])


def hazard_measures(problem: Problem, hz: dict) -> tuple[Measure, Measure]:
    av = problem.attacker
    alive0 = [i for i, x in enumerate(av.start) if x > 0]
    lost, destroyed = {}, {}
    w0 = sum(av.start)
    for r, p in hz.items():
        k = w0 - sum(r)
        lost[k] = lost.get(k, 0.0) + p
        d = sum(1 for i in alive0 if r[i] <= 0)
        destroyed[d] = destroyed.get(d, 0.0) + p
    return measure("wounds lost", lost), measure("models destroyed", destroyed)
