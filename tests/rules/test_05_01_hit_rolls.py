"""05.01 Hit rolls, with [TORRENT] (24.37), [SUSTAINED HITS] (24.36) and [LETHAL HITS] (24.23)."""

from __future__ import annotations

import pytest

from sim.rules.attack import CRITICAL, FAIL, SUCCESS, hit_result
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.sequence import PoolState, roll_hits

D1 = DiceExpr(0, 0, 1)


def pool(n, skill=3, **kw):
    return PoolState(dice=n, skill=skill, S=4, AP=0, D=D1, T=4, **kw)


@pytest.mark.parametrize("roll,expected", [(1, FAIL), (2, FAIL), (3, SUCCESS), (4, SUCCESS),
                                           (5, SUCCESS), (6, CRITICAL)])
def test_05_01_rows_bs3(roll, expected):
    assert hit_result(roll, 3) == expected


def test_05_01_unmodified_one_fails_even_with_bs2_and_plus_one():
    assert hit_result(1, 2, +1) == FAIL


def test_05_01_unmodified_six_hits_even_with_bs6_and_minus_one():
    assert hit_result(6, 6, -1) == CRITICAL


def test_05_01_modified_six_is_not_critical():
    # a 5 with +1 is 6 but not an unmodified 6: a hit, not a critical hit
    assert hit_result(5, 3, +1) == SUCCESS


def test_05_01_bs_outside_2_6_is_clamped():
    assert hit_result(2, 1) == SUCCESS  # BS 1+ clamps to 2+: 2 hits
    assert hit_result(5, 7) == FAIL  # BS 7+ clamps to 6+: a 5 misses
    assert hit_result(6, 9) == CRITICAL


def test_05_01_pool_counts_hits_and_criticals():
    p = pool(6)
    rec = roll_hits(p, ForcedDice([1, 2, 3, 4, 5, 6]))
    assert rec["rolls"] == [1, 2, 3, 4, 5, 6]
    assert (rec["hits"], rec["criticals"], p.hits) == (4, 1, 4)


def test_05_01_minus_one_to_hit():
    p = pool(6, hit_mod=-1)
    roll_hits(p, ForcedDice([1, 2, 3, 4, 5, 6]))
    assert p.hits == 3  # 4, 5 -> 3, 4 hit; 3 -> 2 fails; 6 critical


def test_24_37_torrent_hits_automatically_no_roll_no_critical():
    p = pool(4, skill=6, hit_mod=-1, torrent=True, lethal=True, sustained=2)
    dice = ForcedDice([])
    rec = roll_hits(p, dice)
    assert dice.log == []
    assert (p.hits, rec["criticals"], p.auto_wounds) == (4, 0, 0)


def test_24_36_sustained_hits_extra_hits():
    p = pool(3, sustained=2)
    rec = roll_hits(p, ForcedDice([6, 4, 1]))
    # critical 6 -> 1 + 2 extra; 4 hits; 1 fails
    assert (p.hits, rec["criticals"], rec["sustained"]) == (4, 1, 2)


def test_24_36_sustained_random_x_rolled_per_critical():
    p = pool(2, sustained=DiceExpr(1, 3, 0))
    dice = ForcedDice([6, 6, 6, 1])  # two crits; D3 rolls 3 (6->3) and 1 (1->1)
    roll_hits(p, dice)
    assert p.hits == 2 + 3 + 1
    assert [purpose for purpose, _ in dice.log] == ["hit rolls", "sustained hits (D3)", "sustained hits (D3)"]


def test_24_23_lethal_hits_critical_wounds_automatically():
    p = pool(4, lethal=True)
    roll_hits(p, ForcedDice([6, 6, 3, 1]))
    assert (p.auto_wounds, p.hits) == (2, 1)


def test_24_36_24_23_sustained_extra_hits_are_not_critical_so_not_lethal():
    p = pool(1, lethal=True, sustained=1)
    rec = roll_hits(p, ForcedDice([6]))
    # the critical wounds automatically; its 1 extra hit is a normal hit that must roll to wound
    assert (p.auto_wounds, p.hits, rec["criticals"]) == (1, 1, 1)


def test_05_01_05_02_a_pool_counted_face_by_face_as_die_by_die():
    """sequence._tally: a pool of more dice than faces is counted face by face (list.count); the
    same counts as judging each die, for every face table and any rolls."""
    import random

    from sim.rules.sequence import _tally, hit_faces, wound_faces
    rng = random.Random(5)
    tables = [hit_faces(s, m, f) for s in (2, 3, 4, 6) for m in (-1, 0, 1) for f in (0, 4)]
    tables += [wound_faces(S, T, m, c) for S, T in ((4, 4), (8, 4), (3, 7)) for m in (-1, 0, 1) for c in (4, 6)]
    for by_face in tables:
        for n in (0, 1, 6, 7, 20, 61):
            rolls = [rng.randint(1, 6) for _ in range(n)]
            crits = sum(1 for r in rolls if by_face[r] == CRITICAL)
            normal = sum(1 for r in rolls if by_face[r] and by_face[r] != CRITICAL)
            assert _tally(rolls, by_face) == (crits, normal)
