"""`sim odds SCENARIO --step N` reaching 15.08 Fire Overwatch's 15.09 snap shooting: in a battle
with a mission, a script step that is no attack is the shooting its resolution includes (found
as the battle plans it, the unit selected to shoot), and its odds use the snap rule's hit roll
(sim.rules.shooting.snap_hit_result through sim.rules.sequence.hit_faces: only an unmodified 6
hits, never a critical hit). Checked against the battle itself: the scenario played to the end
of that step with 400 seeds, every mean within its 99% interval."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sim.battle import Battle
from sim.cli import main
from sim.errors import ScenarioError
from sim.odds.engine import solve
from sim.analysis.locate import _play_until, at_step, problem_at
from sim.rules import shooting as SH
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "scenarios/shooting_stratagems.toml"  # step 2: blue's Fire Overwatch, the wardens at the assault squad
RUNS = 400  # (tests/bench/crosscheck_odds.py runs this check with 20,000)
Z99 = 2.576


def _close(mc_mean, measure, runs, what):
    tol = Z99 * measure.sd / math.sqrt(runs)
    assert abs(mc_mean - measure.mean) <= tol + 1e-12, (what, mc_mean, measure.mean, tol)


def _located():
    return at_step(load_scenario(PATH), 2)


def test_15_09_step_2_is_the_fire_overwatch_snap_shooting():
    loc = _located()
    with loc.battle as b:
        assert loc.plan is not None and loc.plan.shooting_type == SH.SNAP and loc.command.unit == "wardens"
        assert b.dice.count == 0  # (no die is rolled before it: the battle at any seed is here)
        problem = problem_at(loc)
    assert [p.key.snap for p in problem.pools] == [True]
    odds = solve(problem)
    assert odds.method == "exact" and "snap shooting (15.09)" in loc.where
    hits = odds.pools[0].hits  # 10 dice, each hitting on an unmodified 6 only: Binomial(10, 1/6)
    want = [math.comb(10, k) * (1 / 6) ** k * (5 / 6) ** (10 - k) for k in range(11)]
    assert np.allclose(np.pad(hits.p, (0, 11 - len(hits.p))), want, atol=1e-12)
    # never a critical hit, so the heavy rifles' critical wounds are the wound rolls' 6s only
    assert odds.pools[0].criticals.mean == pytest.approx(10 / 6 * 1 / 6, abs=1e-12)
    assert odds.pools[0].wounds.mean == pytest.approx(10 / 6 * 2 / 3, abs=1e-12)  # S5 vs T4: 3+


def test_15_09_snap_shooting_odds_against_the_battle_itself():
    spec = load_scenario(PATH)
    loc = _located()
    with loc.battle as b:
        odds = solve(problem_at(loc))
        b._enter()
        start = [w.remaining for w in W.roster(b.units["assault"]).wounds]
    (t,) = odds.targets
    after = spec.script[2]  # (the step after the Fire Overwatch one: the snap shooting is over)
    destroyed = lost = 0
    for s in range(1, RUNS + 1):
        with Battle(spec, seed=s, record_dice=False) as b:
            assert _play_until(b, spec, lambda c: c.step is after) is not None
            b._enter()
            r = W.roster(b.units["assault"])
            destroyed += sum(1 for w in r.wounds if w.remaining <= 0)
            lost += sum(s0 - max(w.remaining, 0) for s0, w in zip(start, r.wounds))
    _close(destroyed / RUNS, t.destroyed, RUNS, "assault models destroyed")
    _close(lost / RUNS, t.damage, RUNS, "assault wounds lost")


def test_15_09_sim_odds_step_json(capsys):
    assert main(["odds", str(PATH), "--step", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["where"] == "step 2 (script[1]): wardens, snap shooting (15.09)"
    assert doc["pools"][0]["hits"]["mean"] == pytest.approx(10 / 6, abs=1e-12)


@pytest.mark.parametrize("n, found", [(1, "move (script[0]), with no shooting inside it"),
                                      (5, "end phase (script[4]), with no shooting inside it")])
def test_15_09_a_step_without_a_shooting_inside_is_refused(n, found):
    with pytest.raises(ScenarioError) as e:
        at_step(load_scenario(PATH), n)
    assert found in str(e.value)
