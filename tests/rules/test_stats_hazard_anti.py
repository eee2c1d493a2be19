"""Seeded statistical checks of 06.03 hazard rolls and 24.03 [ANTI-X 4+] through the rules code.

Each test rolls N = 60,000 dice from the battle dice stream (Dice(seed), fixed seeds, so the test is
deterministic) and compares the observed rate with the exact probability p:

* hazard failure (1-2 on a D6): p = 1/3, standard error sqrt(p(1-p)/N) = 0.00192;
* ANTI 4+ critical wound (unmodified 4, 5 or 6): p = 1/2, standard error 0.00204.

Tolerance: 4 standard errors (0.0077 and 0.0082). A fair stream lands outside that band with
probability about 6e-5 per seed; a rule off by one pip (1/6 or 1/2 vs 1/3, 1/3 or 2/3 vs 1/2) is
off by >= 0.16, about 80 standard errors, so it cannot pass.
"""

from __future__ import annotations

import math

import pytest

from sim.rules.dice import Dice, DiceExpr
from sim.rules.mortal import hazard_failures
from sim.rules.sequence import PoolState, roll_wounds

N = 60_000


def tolerance(p: float) -> float:
    return 4 * math.sqrt(p * (1 - p) / N)


@pytest.mark.parametrize("seed", [1, 20260])
def test_06_03_hazard_failures_one_third(seed):
    rolls = Dice(seed).d6(N, "hazard rolls")
    rate = hazard_failures(rolls) / N
    assert abs(rate - 1 / 3) <= tolerance(1 / 3), rate


@pytest.mark.parametrize("seed", [2, 40417])
def test_24_03_anti_4_plus_critical_wounds_one_half(seed):
    # S1 vs T10 needs 6+, so every critical below 6 comes from ANTI 4+ alone
    p = PoolState(dice=N, skill=3, S=1, AP=0, D=DiceExpr(0, 0, 1), T=10, critical_wound_on=4,
                  devastating=True)
    p.hits = N
    rec = roll_wounds(p, Dice(seed))
    rate = rec["criticals"] / N
    assert abs(rate - 1 / 2) <= tolerance(1 / 2), rate
    assert p.mortal_criticals == rec["criticals"] and p.wounds == 0
