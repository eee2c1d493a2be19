"""The exact odds against the battle itself, on every shipped scenario's first activation.

**Free play** (every shipped scenario without a mission whose script starts with an attack):
`sim stats`'s own machinery (sim.analysis.stats.iter_runs and Tally) plays the script cut after that
step with 600 seeds (the issue asks 20,000; far fewer keep `make test` within its five-minute
budget) and, for each target and for the attacker's [HAZARDOUS] losses, the Monte Carlo mean of
models destroyed and of wounds lost must lie within the 99% interval around the exact
expectation: |mean - exact| <= 2.576 * sd / sqrt(600), sd the exact standard deviation.
The seeds are fixed, so the test is deterministic.

**Battles with a mission**: the battle is played with the scenario's seed up to its first
attack (the roll-off, moves and charges before it are dice too), then that activation is
resolved again and again on forks of the battle there (Battle.fork) with fresh dice streams
(seeds 1..200), which is the state the exact odds describe; the same 99% interval.
scenarios/reserves.toml has no attack (its default players never shoot or fight).

The plan the odds use (sim.odds.problem.finish_declared: 24.02 duplicated abilities, 24.29
psychic modifiers, as Select Weapons makes them) is compared with the declarations the battle's
WeaponSelectionSystem leaves for the attacks, on every attack step of every free-play scenario."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import esper
import pytest

from sim.scenario.script_run import attack_kind
from sim.battle import Battle
from sim.components import Stage
from sim.odds.engine import solve
from sim.odds.problem import finish_declared
from sim.analysis.locate import first_attack, problem_at
from sim.players.resolve import answer_from, submit_and_resolve
from sim.scenario.load import load_scenario
from sim.scenario.script_run import to_command
from sim.analysis.stats import Tally, iter_runs
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
ALL = sorted(ROOT.glob("scenarios/*.toml"))
Z99 = 2.576
RUNS = 600
MISSION_RUNS = 200


def _free_play():
    out = []
    for p in ALL:
        spec = load_scenario(p)
        if spec.mission is None and spec.script and attack_kind(spec.script[0]) is not None:
            out.append(p)
    return out


def _missions():
    return [p for p in ALL if load_scenario(p).mission is not None and p.name != "reserves.toml"]


def _close(mc_mean, measure, runs, what):
    tol = Z99 * measure.sd / math.sqrt(runs)
    assert abs(mc_mean - measure.mean) <= tol + 1e-12, (what, mc_mean, measure.mean, tol)


def test_every_shipped_scenario_is_covered():
    assert len(_free_play()) + len(_missions()) + 1 == len(ALL)


@pytest.mark.parametrize("path", _free_play(), ids=lambda p: p.stem)
def test_exact_odds_against_sim_stats(path):
    spec = load_scenario(path)
    loc = first_attack(spec)
    with loc.battle:
        odds = solve(problem_at(loc))
    assert odds.method == "exact"
    one = dataclasses.replace(spec, script=spec.script[:1])
    tally = Tally(one).add_all(iter_runs(one, 1, RUNS, jobs=1))
    index = {u.id: k for k, u in enumerate(one.units)}
    for t in odds.targets:
        k = index[t.uid]
        _close(tally.destroyed[k] / RUNS, t.destroyed, RUNS, f"{t.uid} models destroyed")
        _close(tally.wounds_lost[k] / RUNS, t.damage, RUNS, f"{t.uid} wounds lost")
    if odds.hazard_rolls:
        k = index[odds.attacker]
        _close(tally.wounds_lost[k] / RUNS, odds.hazard_lost, RUNS, "hazard wounds lost")
        _close(tally.destroyed[k] / RUNS, odds.hazard_destroyed, RUNS, "hazard models destroyed")


def _losses(battle, uids):
    battle._enter()
    out = {}
    for uid in uids:
        r = W.roster(battle.units[uid])
        out[uid] = [max(w.remaining, 0) for w in r.wounds]
    return out


@pytest.mark.parametrize("path", _missions(), ids=lambda p: p.stem)
def test_exact_odds_against_the_battle_with_a_mission(path):
    spec = load_scenario(path)
    loc = first_attack(spec)
    with loc.battle:
        odds = solve(problem_at(loc))
        uids = [t.uid for t in odds.targets] + [odds.attacker]
        sums = {u: [0, 0] for u in uids}
        outcomes = set()  # (the wounds each run took: the forks' dice differ, the attack landed)
        # (the attack alone: a stratagem its step answers, such as the Explosives used after
        # the unit has shot, 15.05, is declined; its mortal wounds are not the attack's)
        attack_only = {k: v for k, v in loc.decisions.items() if k != "stratagem"}
        for s in range(1, MISSION_RUNS + 1):
            with loc.battle.fork(seed=s) as b:  # (the battle at its first attack, fresh dice)
                before = _losses(b, uids)
                submit_and_resolve(b, spec, loc.where, loc.command, answer_from(attack_only))
                after = _losses(b, uids)
            loc.battle._enter()
            for u in uids:
                sums[u][0] += sum(1 for x, y in zip(before[u], after[u]) if x > 0 and y == 0)
                sums[u][1] += sum(before[u]) - sum(after[u])
            outcomes.add(tuple(sum(before[u]) - sum(after[u]) for u in uids))
    assert len(outcomes) > 1 or odds.targets[0].damage.sd == 0.0, outcomes
    runs = MISSION_RUNS
    for t in odds.targets:
        _close(sums[t.uid][0] / runs, t.destroyed, runs, f"{t.uid} models destroyed")
        _close(sums[t.uid][1] / runs, t.damage, runs, f"{t.uid} wounds lost")
    _close(sums[odds.attacker][1] / runs, odds.hazard_lost, runs, "hazard wounds lost")


def _staged(battle, cmd, decisions):
    """The battle's own declarations for ``cmd``, once Select Weapons has made its choices."""
    battle.submit(cmd)
    answer = answer_from(decisions)
    for _ in range(100):
        act = battle.activation
        if act is not None and act.stage in (Stage.ATTACKS, Stage.HAZARD, Stage.CLEANUP):
            return act.declared
        if battle.pending is not None:
            battle.answer(answer(battle.pending))
        battle.tick()
    raise AssertionError("the activation never reached its attacks")


def _steps():
    out = []
    for p in _free_play():
        spec = load_scenario(p)
        out += [(p, n) for n, s in enumerate(spec.script) if attack_kind(s) is not None]
    return out


def test_the_odds_plan_is_the_battles_plan():
    """For every attack step of every free-play scenario (each from the scenario's start)."""
    checked = 0
    changed = 0  # (declarations Select Weapons changes: copied, the plan's own left alone)
    for path, n in _steps():
        spec = load_scenario(path)
        step = spec.script[n]
        with Battle(spec) as b:
            cmd = to_command(b, step)
            if b.check(cmd) is not None:
                continue  # (a later step needs what the steps before it did)
            plan = b.validated.declared
            before = [(d.key, d.abilities, d.ignored) for d in plan]
            ours = finish_declared(b, plan, dict(step.decisions))
            assert [(d.key, d.abilities, d.ignored) for d in plan] == before, (path, n)
            changed += sum(1 for a, d in zip(ours, plan) if (a.key, a.abilities, a.ignored) != (d.key, d.abilities,
                                                                                                 d.ignored))
            theirs = _staged(b, cmd, step.decisions)
            b._enter()
            assert [(d.model_id, d.weapon.name, d.target, d.key, d.abilities, d.ignored) for d in ours] == \
                   [(d.model_id, d.weapon.name, d.target, d.key, d.abilities, d.ignored) for d in theirs], (path, n)
            checked += 1
    assert checked >= 25
    assert changed > 0
    assert esper.current_world is not None
