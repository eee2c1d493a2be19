"""A seeded Monte Carlo of one declared attack with the engine's own rule functions (roll_hits,
roll_wounds, roll_saves, inflict_damage, resolve_mortal_wounds): the odds engine's fallback when
the exact chain is too large, and a check on it. Each run rolls one battle's dice stream (seed,
seed + 1, ...); the pools are set up as the exact engine sets them up (sim.odds.exact.Setup and
Context: abilities, T, allocation order and [PRECISION] pick at each pool's start).

Its work is bounded (sim.odds.budget): it stops after the run in which its dice rolled reach the
budget it is given, it refuses (OddsError) an attack that could roll more than
MC_MAX_ATTACK_DICE attack dice in one run, and it keeps at most MC_CACHE set-ups and contexts."""

from __future__ import annotations

import dataclasses
from collections import Counter

from sim.odds import budget as BU
from sim.odds import exact as EX
from sim.odds import result as R
from sim.odds.problem import OddsError, Problem, UnitView
from sim.rules import pools as PL
from sim.rules.allocation import allocation_groups
from sim.rules.dice import Dice, DiceExpr
from sim.rules.mortal import hazard_failures, hazard_mortal_wounds, resolve_mortal_wounds
from sim.rules.sequence import DamageState, inflict_damage, roll_hits, roll_saves, roll_wounds


POOL_STEPS = 100  # the steps a pool's rolls count beside its dice (setting it up, judging the rolls)


def _attack_dice(pool, tv: UnitView, living, dice: Dice) -> int:
    """04.03 step 2, rolled (as AttackResolutionSystem's _attack_dice)."""
    keywords, has_char = tv.unit_keywords(living), tv.has_character(living)
    n = 0
    for m in pool.members:
        a = m.A.roll(dice, "attacks") if m.A.is_random else m.A.k
        if m.attacks is not None:
            a = m.attacks
        if m.adds_dice:
            for ab in PL.applying(m.abilities, keywords, has_char):
                add = ab.spec.extra_dice
                if add is not None:
                    x = add(ab, m.half_range, m.target_models, m.split)
                    a += x.roll(dice, "extra dice") if isinstance(x, DiceExpr) else int(x)
        n += a
    return n


def run_once(problem: Problem, dice: Dice, setups: dict, contexts: dict):
    """One run: per target (wounds left, saves failed, mortal wounds), the attacker's wounds
    left after its hazard rolls, per pool (dice, hits, wounds, critical wounds) or None when
    its dice were lost, and the run's steps beside the dice it rolled (its work): POOL_STEPS per
    pool rolled, and each pool's wounds allocated, plus one, times its target's models (what
    allocating reads)."""
    steps = 0
    left = [list(tv.start) for tv in problem.targets]
    failed = [0] * len(problem.targets)
    mortal = [0] * len(problem.targets)
    pools = []
    for pool in problem.pools:
        tv = problem.targets[pool.target]
        rem = left[pool.target]
        if max(rem) <= 0:
            pools.append(None)
            continue
        r = tuple(rem)
        living = UnitView.living(r)
        setup = setups.get((pool.index, living))
        if setup is None:
            if len(setups) >= BU.MC_CACHE:
                setups.clear()
            setup = setups[(pool.index, living)] = EX.Setup(problem, pool, living, odds=False)
        p = dataclasses.replace(setup.state, dice=_attack_dice(pool, tv, living, dice))
        hit = roll_hits(p, dice)
        wnd = {"wounds": 0, "criticals": 0}
        if p.hits or p.auto_wounds:
            wnd = roll_wounds(p, dice)
        pools.append((p.dice, hit["hits"], wnd["wounds"], wnd["criticals"]))
        steps += POOL_STEPS
        if not (p.wounds or p.mortal_criticals):
            continue
        steps += len(tv.ids) * (1 + p.wounds + p.mortal_criticals)
        ctx = contexts.get((pool.index, r))
        if ctx is None:
            if len(contexts) >= BU.MC_CACHE:
                contexts.clear()
            ctx = contexts[(pool.index, r)] = EX.Context(problem, pool, setup, r)
        models = ctx.models
        groups = allocation_groups(models)
        remaining = dict(zip(tv.ids, rem))
        st = DamageState(models, remaining, groups, ctx.order, ctx.precision,
                         fnp={i: f for i, f in zip(tv.ids, tv.fnp) if f}, W=dict(zip(tv.ids, tv.W)),
                         taken={i: t for i, t in zip(tv.ids, tv.taken) if t})
        p.save_reroll = ctx.save_reroll  # (01.05.02: the faces a rule re-rolls at this state)
        saves = roll_saves(p, dice)
        recs = inflict_damage(p, saves, st, dice, dict(zip(tv.ids, tv.Sv)), dict(zip(tv.ids, tv.saves_InSv)),
                              {i: m for i, m in zip(tv.ids, tv.save_mod) if m} or None)
        for rec in recs:
            if rec.get("saved") is False:
                failed[pool.target] += 1
            if "mortal" in rec:
                mortal[pool.target] += rec["mortal"]
        left[pool.target] = [remaining[i] for i in tv.ids]
    av = problem.attacker
    hz = av.start
    if problem.hazard_rolls:
        rolls = dice.d6(problem.hazard_rolls, "hazard rolls")
        mw = hazard_mortal_wounds(hazard_failures(rolls), problem.attacker_all_monster_or_vehicle)
        remaining = dict(zip(av.ids, av.start))
        resolve_mortal_wounds(mw, av.target_models(av.start), remaining,
                              {i: f for i, f in zip(av.ids, av.fnp) if f}, dice)
        hz = tuple(remaining[i] for i in av.ids)
    return [(tuple(x), u, m) for x, u, m in zip(left, failed, mortal)], hz, pools, steps


def most_attack_dice(problem: Problem) -> int:
    """The most attack dice one run can roll (04.03 step 2: every declaration's largest A, and
    the most any of its abilities could add)."""
    n = 0
    for pool in problem.pools:
        for m in pool.members:
            n += m.attacks if m.attacks is not None else m.A.maximum
            if m.adds_dice:
                for ab in m.abilities:
                    add = ab.spec.extra_dice
                    if add is not None:
                        x = add(ab, m.half_range, m.target_models, m.split)
                        n += x.maximum if isinstance(x, DiceExpr) else int(x)
    return n


def simulate(problem: Problem, runs: int, seed: int, budget: int | None = None):
    """The Odds of ``problem`` from ``runs`` seeded runs (method "monte carlo"); with a
    ``budget`` of work (dice rolled plus allocation steps, run_once), from the runs made until
    their work reaches it (the Odds' ``runs`` says how many). OddsError when one run could roll
    more than MC_MAX_ATTACK_DICE attack dice."""
    most = most_attack_dice(problem)
    if most > BU.MC_MAX_ATTACK_DICE:
        raise OddsError(f"an attack of up to {most:,} attack dice, more than the {BU.MC_MAX_ATTACK_DICE:,} the "
                        f"odds work out (too large exactly, and too large for the Monte Carlo's budget of "
                        f"{BU.MC_WORK_BUDGET:,} steps)")
    finals = [Counter() for _ in problem.targets]
    hazard: Counter = Counter()
    per_pool = [[Counter(), Counter(), Counter(), Counter(), 0] for _ in problem.pools]
    setups: dict = {}
    contexts: dict = {}
    work = 0
    made = 0
    for k in range(runs):
        if budget is not None and work >= budget:
            break
        dice = Dice(seed + k)
        out, hz, pools, steps = run_once(problem, dice, setups, contexts)
        work += dice.count + steps
        made += 1
        for c, o in zip(finals, out):
            c[o] += 1
        hazard[hz] += 1
        for acc, p in zip(per_pool, pools):
            if p is None:
                acc[4] += 1
                continue
            for c, v in zip(acc, p):
                c[v] += 1
    runs = made
    targets = [R.target_odds(tv, {k: v / runs for k, v in c.items()}) for tv, c in zip(problem.targets, finals)]
    summaries = []
    for pool, acc in zip(problem.pools, per_pool):
        rolled = runs - acc[4]
        ms = [R.measure(name, {k: v / rolled for k, v in c.items()} if rolled else {0: 1.0})
              for name, c in zip(("attack dice", "hits", "wounds", "critical wounds"), acc)]
        summaries.append(R.PoolSummary(pool.index, problem.targets[pool.target].uid, pool.weapons,
                                       R.profile(pool), acc[4] / runs, *ms))
    hl, hd = R.hazard_measures(problem, {k: v / runs for k, v in hazard.items()})
    return R.Odds(problem.label, problem.attacker.uid, problem.kind, "monte carlo", targets, summaries,
                  problem.hazard_rolls, hl, hd, R.notes_of(problem), runs=runs, seed=seed)
