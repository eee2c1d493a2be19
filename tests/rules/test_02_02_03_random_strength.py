"""02.02.03 A random S (2D6, D6+6, D3): rolled for each attack as its wound roll is made (the
project's reading, docs/rules-additions.md 02.02.03), each wound roll judged against its own S,
a re-roll of the wound die keeping it; the exact odds weigh every S it can take, and agree with
the engine's own dice by Monte Carlo; the scenario format and the importer read it."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from sim.rules.dice import DiceExpr, ForcedDice, parse_dice_expr
from sim.rules.sequence import (PoolState, judge_wounds, roll_wounds, strength_rolled, wound_dice,
                                wound_rerollable)

D1 = DiceExpr(0, 0, 1)
TWO_D6 = parse_dice_expr("2D6")


def _pool(S, hits, T=4, **kw) -> PoolState:
    p = PoolState(hits, 3, S, 0, D1, T, **kw)
    p.hits = hits
    return p


def test_02_02_03_strength_rolled_for_each_attack_before_its_wound_roll():
    """Three hits with S 2D6 at T4: S 2 (1+1), 6 (3+3), 12 (6+6) rolled first, then the wound
    rolls 4, 3, 2: S2 needs 6+ (4 fails), S6 needs 3+ (3 wounds), S12 needs 2+ (2 wounds)."""
    dice = ForcedDice([1, 1, 3, 3, 6, 6, 4, 3, 2])
    p = _pool(TWO_D6, 3)
    rec = roll_wounds(p, dice)
    assert rec["strengths"] == [2, 6, 12]
    assert rec["rolls"] == [4, 3, 2] and rec["wounds"] == 2 and p.wounds == 2
    assert [purpose for purpose, _ in dice.log] == ["strength"] * 3 + ["wound rolls"]
    assert dice.remaining == 0


def test_02_02_03_a_fixed_strength_rolls_nothing_more():
    dice = ForcedDice([4, 3, 2])
    rec = roll_wounds(_pool(4, 3), dice)
    assert "strengths" not in rec and rec["wounds"] == 1 and dice.remaining == 0


def test_02_02_03_d3_strength_is_a_halved_d6():
    """S D3 at T2: a 1 or 2 on the D6 is S1 (6+), a 5 is S3 (3+)."""
    dice = ForcedDice([2, 5, 3, 3])
    rec = roll_wounds(_pool(parse_dice_expr("D3"), 2, T=2), dice)
    assert rec["strengths"] == [1, 3] and rec["wounds"] == 1


def test_02_02_03_twin_linked_rerolls_each_die_failed_against_its_own_strength():
    """[TWIN-LINKED] re-rolls the failed wound rolls: a 3 fails at S2 (6+) and is re-rolled; the
    same 3 wounds at S6 (3+) and is kept. The re-roll keeps the S rolled (2): its 6 wounds."""
    dice = ForcedDice([1, 1, 3, 3, 3, 3, 6])
    p = _pool(TWO_D6, 2, twin_linked=True)
    rolls, rerolled = wound_dice(p, dice)
    assert p.strengths == [2, 6] and rolls == [6, 3] and rerolled == {0: 6}
    rec = judge_wounds(p, rolls, rerolled)
    assert rec["wounds"] == 2 and dice.remaining == 0


def test_15_02_command_reroll_offers_the_dice_a_reroll_could_better_at_their_own_strength():
    """A wound roll of 3 fails at S2 and is worth re-rolling; at S6 it already wounds."""
    p = _pool(TWO_D6, 2)
    p.strengths = [2, 6]
    assert wound_rerollable(p, [3, 3], {}) == [0]


def test_02_02_01_random_strength_is_never_below_1():
    """02.02.01: S is at least 1 (every expression the formats take is 1 or more already; the
    floor is the rule's, whatever the expression)."""
    assert strength_rolled(DiceExpr(0, 0, 0), ForcedDice([])) == 1
    assert strength_rolled(parse_dice_expr("D6+6"), ForcedDice([5])) == 11


# --- the exact odds ---------------------------------------------------------------------------

def test_02_02_03_exact_wound_chance_of_a_d6_strength_by_hand():
    """S D6 at T4: S1-2 wound on 6+, S3 on 5+, S4 on 4+, S5-6 on 3+: (1+1+2+3+4+4)/36 = 5/12;
    a critical wound is a 6 whatever the S: 1/6."""
    from sim.odds import faces as FA
    fail, normal, crit = FA.wound_of(_pool(parse_dice_expr("D6"), 0))
    assert normal + crit == pytest.approx(float(F(5, 12)), abs=1e-15)
    assert crit == pytest.approx(1 / 6, abs=1e-15)


def test_02_02_03_exact_odds_weigh_each_strength_with_twin_linked():
    """With [TWIN-LINKED] each S's failed faces are re-rolled: S D6 at T4 gives
    sum over S of P(wound at S) * (2 - P(wound at S)) / 6."""
    from sim.odds import faces as FA
    p = _pool(parse_dice_expr("D6"), 0, twin_linked=True)
    by_s = [F(1, 6), F(1, 6), F(1, 3), F(1, 2), F(2, 3), F(2, 3)]
    want = sum(q * (2 - q) for q in by_s) / 6
    fail, normal, crit = FA.wound_of(p)
    assert normal + crit == pytest.approx(float(want), abs=1e-15)


def test_02_02_03_exact_odds_against_the_engine_by_monte_carlo():
    """A12 BS3+ S 2D6 AP-1 D2 [TWIN-LINKED] at five T5 W2 Sv3+ models and three W1: every mean
    of the exact odds within the 99% interval of 4,000 runs of the engine's own dice."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "odds"))
    from odds_support import pool, problem, unit
    from sim.odds.engine import solve
    from sim.odds.montecarlo import simulate
    tv = unit(models=((5, 2, 3, None, False), (3, 1, 4, None, False)))
    pr = problem([pool(A=12, skill=3, S=TWO_D6, AP=-1, D=2, abilities="[TWIN-LINKED]")], [tv])
    ex, mc = solve(pr), simulate(pr, 4000, 11)
    assert ex.method == "exact"
    t, m = ex.targets[0], mc.targets[0]
    for a, b in ((ex.pools[0].wounds, mc.pools[0].wounds), (t.destroyed, m.destroyed), (t.damage, m.damage)):
        assert abs(a.mean - b.mean) <= 2.576 * max(a.sd, 1e-9) / 4000 ** 0.5, (a.name, a.mean, b.mean)


# --- the battle, the scenario format and the importer -------------------------------------------

def _battle_spec(S):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
    from scen import model, scenario, unit, weapon
    ws = {"gun": weapon(36, 2, 2, S, 0, 1)}
    return scenario(ws, [unit("gun", model((10, 10), ["gun"]))],
                    [unit("t", model([(10, 30), (11.5, 30)], [], T=6, Sv=7, ids=["t1", "t2"]))])


def test_02_02_03_a_battle_logs_each_strength_and_the_report_shows_them():
    """A2 BS2+ S "D6+2" at T6: hits 5, 5; S rolled 1+2 = 3 (at most half T6: 6+) and 6+2 = 8
    (above T: 3+); wound rolls 5, 5: one wound."""
    from sim.battle import Battle
    from sim.commands import Selection, Shoot
    from sim.replay.report import describe
    spec = _battle_spec("D6+2")
    (gun,) = [w for u in spec.units for m in u.models for w in m.weapons if w.name == "gun"]
    assert gun.S == parse_dice_expr("D6+2")
    with Battle(spec, dice=ForcedDice([5, 5, 1, 6, 5, 5, 1])) as b:
        b.run_command(Shoot("gun", (Selection("gun/1", "gun", "t"),)))
        (pool,) = [e for e in b.events if e["type"] == "pool"]
        (wr,) = [e for e in b.events if e["type"] == "wound rolls"]
        assert pool["S"] == "D6+2" and wr["S"] == "D6+2"
        assert wr["strengths"] == [3, 8] and wr["wounds"] == 1
        assert "SD6+2 [3, 8] vs T6" in describe(wr)


@pytest.mark.parametrize("S,ok", [("2D6", True), ("D6+6", True), ("3", True), ("20D6", False),
                                  ("D6+99", False), ("2D4", False)])
def test_02_02_03_the_scenario_format_reads_a_random_strength_within_bounds(S, ok):
    from sim.errors import ScenarioError
    if ok:
        spec = _battle_spec(S)
        (gun,) = [w for u in spec.units for m in u.models for w in m.weapons if w.name == "gun"]
        assert gun.S == (3 if S == "3" else parse_dice_expr(S))
    else:
        with pytest.raises(ScenarioError) as e:
            _battle_spec(S)
        assert "weapons.gun.S" in str(e.value) or ".S" in str(e.value)


def test_02_02_03_the_importer_reads_a_random_strength():
    from sim.importers import bsdata as B
    assert B.strength("2D6") == "2D6" and B.strength(" d6+6 ") == "D6+6" and B.strength("7") == 7
    with pytest.raises(B.Bad):
        B.strength("lots")
