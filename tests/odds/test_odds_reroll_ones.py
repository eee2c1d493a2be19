"""The exact odds of the re-roll-1s abilities (01.05.02, [REROLL HITS 1], [REROLL WOUNDS 1]):
the faces the rules re-roll (sim.rules.sequence.hit_reroll_faces, wound_reroll_faces) against
values worked out by hand, and the whole attack against a seeded Monte Carlo of the engine's own
functions (roll_hits, roll_wounds, inflict_damage) within its 99% interval."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from odds_support import pool, problem, unit
from sim.odds import faces as FA
from sim.odds.engine import solve
from sim.odds.montecarlo import simulate
from sim.rules.sequence import NO_FACES, ONES

BIG = 10**9


def test_01_05_02_hit_roll_bs3_rerolling_1s_by_hand():
    """BS3+: a hit 2/3 + 1/6 * 2/3 = 7/9; a critical 1/6 + 1/6 * 1/6 = 7/36."""
    fail, hit, crit = FA.hit(3, 0, 0, False, ONES)
    assert (fail, hit + crit, crit) == pytest.approx((2 / 9, 7 / 9, 7 / 36), abs=1e-15)
    assert FA.hit(3, 0, 0, False, NO_FACES)[0] == pytest.approx(1 / 3, abs=1e-15)  # (the re-roll is what differs)


def test_01_05_02_rerolled_before_the_modifier_by_hand():
    """BS3+ at -1 to hit: 3+ first rolled still needs 4+ after the modifier: a 1 re-rolled hits
    on 4-6; a hit 1/2 + 1/6 * 1/2 = 7/12."""
    fail, hit, crit = FA.hit(3, -1, 0, False, ONES)
    assert hit + crit == pytest.approx(7 / 12, abs=1e-15)


def test_01_05_02_wound_roll_s4_t4_rerolling_1s_by_hand():
    """S4 vs T4: 1/2 + 1/6 * 1/2 = 7/12; twin-linked re-rolls every failure: 1/2 + 1/2 * 1/2."""
    assert sum(FA.wound(4, 4, 0, 6, ONES)[1:]) == pytest.approx(7 / 12, abs=1e-15)
    assert sum(FA.wound(4, 4, 0, 6, frozenset({1, 2, 3}))[1:]) == pytest.approx(3 / 4, abs=1e-15)


@pytest.mark.parametrize("abilities, hit, wound", [
    ("[REROLL HITS 1]", F(7, 9), F(1, 2)),
    ("[REROLL WOUNDS 1]", F(2, 3), F(7, 12)),
    ("[REROLL HITS 1, REROLL WOUNDS 1]", F(7, 9), F(7, 12)),
    ("[REROLL WOUNDS 1, TWIN-LINKED]", F(2, 3), F(3, 4)),  # (the 1s are among the failures: once)
])
def test_01_05_02_expected_damage_by_hand(abilities, hit, wound):
    """A10 BS3+ S4 AP0 D1 at T4 with no save, one model with wounds to spare: 10 * P(hit) * P(wound)."""
    o = solve(problem([pool(A=10, skill=3, S=4, AP=0, D=1, abilities=abilities)],
                      [unit(models=((1, BIG, 7, None, False),))]))
    assert o.method == "exact"
    assert o.targets[0].damage.mean == pytest.approx(float(10 * hit * wound), abs=1e-12)
    assert o.pools[0].hits.mean == pytest.approx(float(10 * hit), abs=1e-12)


def test_01_05_02_exact_odds_against_the_same_rules_by_monte_carlo():
    """Both re-rolls with [SUSTAINED HITS 1] (a re-rolled 6 is a critical hit), [ANTI-INFANTRY
    4+] and [DEVASTATING WOUNDS] (a re-rolled 4+ is a critical wound) and a -1 to hit, at two
    save groups: every mean within the 99% interval of 4,000 runs."""
    tv = unit(models=((4, 1, 4, None, False), (3, 2, 3, None, False)))
    pr = problem([pool(A=12, skill=3, S=4, AP=0, D=1, hit_mod=-1,
                       abilities="[REROLL HITS 1, REROLL WOUNDS 1, SUSTAINED HITS 1, ANTI-INFANTRY 4+, "
                                 "DEVASTATING WOUNDS]")], [tv])
    ex, mc = solve(pr), simulate(pr, 4000, 5)
    assert ex.method == "exact"
    t, m = ex.targets[0], mc.targets[0]
    for a, b in ((ex.pools[0].hits, mc.pools[0].hits), (t.destroyed, m.destroyed), (t.damage, m.damage),
                 (t.unsaved, m.unsaved), (t.mortal, m.mortal)):
        assert abs(a.mean - b.mean) <= 2.576 * max(a.sd, 1e-9) / 4000 ** 0.5, (a.name, a.mean, b.mean)
