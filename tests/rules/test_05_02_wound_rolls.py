"""05.02 Wound rolls: the S-vs-T table, unmodified 1/6, [ANTI] (24.03), [TWIN-LINKED] (24.38),
[LETHAL HITS] auto-wounds (24.23) and [DEVASTATING WOUNDS] (24.10)."""

from __future__ import annotations

import pytest

from sim.rules.attack import CRITICAL, FAIL, SUCCESS, wound_result, wound_threshold
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.sequence import PoolState, roll_hits, roll_wounds

D1 = DiceExpr(0, 0, 1)


@pytest.mark.parametrize("S,T,need", [
    (8, 4, 2),   # S = 2T: 2+
    (9, 4, 2),   # S > 2T
    (7, 4, 3),   # S > T, below 2T
    (5, 4, 3),
    (4, 4, 4),   # S = T
    (3, 4, 5),   # S < T, above T/2
    (2, 4, 6),   # S = T/2: 6+
    (1, 4, 6),   # S < T/2
    (3, 5, 5),   # 2S = 6 > 5: 5+
    (2, 5, 6),   # 2S = 4 <= 5: 6+
    (3, 7, 6),   # S <= T/2: 3 <= 3.5: 6+
])
def test_05_02_wound_table(S, T, need):
    assert wound_threshold(S, T) == need


def test_05_02_wound_table_odd_toughness_boundaries():
    # T5: S10 = 2T 2+; S9, S6 3+; S5 4+; S4, S3 5+ (3 > 2.5); S2, S1 6+
    assert [wound_threshold(s, 5) for s in (10, 9, 6, 5, 4, 3, 2, 1)] == [2, 3, 3, 4, 5, 5, 6, 6]


@pytest.mark.parametrize("roll,expected", [(1, FAIL), (2, FAIL), (3, FAIL), (4, SUCCESS),
                                           (5, SUCCESS), (6, CRITICAL)])
def test_05_02_rows_s4_t4(roll, expected):
    assert wound_result(roll, 4, 4) == expected


def test_05_02_unmodified_one_fails_at_2_plus():
    assert wound_result(1, 10, 4, +1) == FAIL


def test_24_03_anti_critical_on_unmodified_threshold():
    # ANTI-X 4+ vs a unit with X: unmodified 4 is a critical wound even at S1 vs T10 (6+)
    assert wound_result(4, 1, 10, 0, critical_on=4) == CRITICAL
    assert wound_result(3, 1, 10, 0, critical_on=4) == FAIL


def test_24_03_anti_modified_result_is_not_critical():
    # an unmodified 3 with +1 is 4, but only an unmodified 4+ is critical
    assert wound_result(3, 4, 4, +1, critical_on=4) == SUCCESS
    assert wound_result(3, 4, 8, +1, critical_on=4) == FAIL  # and 4 < 6+ fails outright


def test_24_03_anti_2_plus_unmodified_one_still_fails():
    assert wound_result(1, 4, 4, 0, critical_on=2) == FAIL
    assert wound_result(2, 4, 4, -1, critical_on=2) == CRITICAL


def pool(hits, **kw):
    p = PoolState(dice=hits, skill=3, S=kw.pop("S", 4), AP=0, D=kw.pop("D", D1), T=kw.pop("T", 4), **kw)
    p.hits = hits
    return p


def test_05_02_pool_wounds_and_criticals():
    p = pool(5)
    rec = roll_wounds(p, ForcedDice([1, 3, 4, 5, 6]))
    assert (p.wounds, rec["criticals"], p.mortal_criticals) == (3, 1, 0)


def test_24_03_anti_pool_counts_criticals_on_unmodified():
    p = pool(4, critical_wound_on=4, wound_mod=+1, devastating=True)
    rec = roll_wounds(p, ForcedDice([3, 4, 5, 6]))
    # 3+1 = 4 wounds (not critical); 4, 5, 6 critical -> devastating
    assert (p.wounds, p.mortal_criticals, rec["criticals"]) == (1, 3, 3)


def test_24_10_devastating_criticals_skip_saves():
    p = pool(3, devastating=True)
    roll_wounds(p, ForcedDice([6, 4, 2]))
    assert (p.wounds, p.mortal_criticals) == (1, 1)


def test_24_38_twin_linked_rerolls_failed_wounds_once():
    p = pool(4, twin_linked=True)
    dice = ForcedDice([1, 3, 4, 6, 1, 5])  # 1 and 3 fail; re-rolled to 1 and 5
    rec = roll_wounds(p, dice)
    assert rec["rerolled"] == [1, 5]
    assert rec["rolls"] == [1, 5, 4, 6]
    assert p.wounds == 3  # the re-rolled 1 fails and is not re-rolled again
    assert dice.remaining == 0


def test_24_38_twin_linked_reroll_can_be_an_anti_critical():
    p = pool(1, twin_linked=True, critical_wound_on=4, T=10, S=1, devastating=True)
    roll_wounds(p, ForcedDice([2, 4]))
    assert (p.wounds, p.mortal_criticals) == (0, 1)


def test_24_38_twin_linked_no_reroll_when_nothing_fails():
    p = pool(2, twin_linked=True)
    dice = ForcedDice([4, 6])
    rec = roll_wounds(p, dice)
    assert rec["rerolled"] == [] and [x for x, _ in dice.log] == ["wound rolls"]


def test_24_23_lethal_auto_wound_is_never_a_critical_wound():
    """A LETHAL HITS auto-wound rolls no wound die: it cannot trigger ANTI or DEVASTATING."""
    p = PoolState(dice=2, skill=3, S=4, AP=0, D=D1, T=4, lethal=True, devastating=True,
                  critical_wound_on=2)
    dice = ForcedDice([6, 6])  # two critical hits -> two auto-wounds, no wound dice
    roll_hits(p, dice)
    rec = roll_wounds(p, dice)
    assert dice.remaining == 0
    assert (p.wounds, p.mortal_criticals, rec["criticals"], rec["auto"]) == (2, 0, 0, 2)


def test_24_23_lethal_and_normal_hits_mixed():
    p = PoolState(dice=3, skill=3, S=4, AP=0, D=D1, T=4, lethal=True, devastating=True)
    dice = ForcedDice([6, 4, 2, 6])  # crit (auto), hit, miss; wound roll for the hit: 6 critical
    roll_hits(p, dice)
    roll_wounds(p, dice)
    assert (p.wounds, p.mortal_criticals) == (1, 1)  # auto-wound to saves, critical -> mortal


def test_05_02_no_hits_rolls_no_dice():
    p = pool(0)
    dice = ForcedDice([])
    assert roll_wounds(p, dice)["wounds"] == 0 and dice.log == []


def test_05_02_01_unit_toughness_bodyguard_first_then_highest():
    """05.02.01 / 19.02 Mixed T: the highest bodyguard T while any bodyguard model is left
    (even below a leader's), else the highest T of the models left."""
    from sim.rules.attack import unit_toughness
    T, guard = (6, 4, 4, 3), (False, True, True, True)
    assert unit_toughness(T, guard, range(4)) == 4  # leader T6 ignored while bodyguards live
    assert unit_toughness(T, guard, [0, 3]) == 3
    assert unit_toughness(T, guard, [0]) == 6  # only the leader left
    assert unit_toughness((5, 3, 4), (False, False, False), range(3)) == 5  # not attached
