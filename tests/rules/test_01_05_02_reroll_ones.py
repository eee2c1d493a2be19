"""01.05.02 re-rolls, through the project's re-roll-1s abilities ([REROLL HITS 1], [REROLL WOUNDS
1]: one registry record each, sim/rules/abilities/registry.py) in the attack sequence
(sim/rules/sequence.py), with forced dice: a 1 is re-rolled once and the re-rolled result
stands, before modifiers; nothing else is re-rolled; no hit re-rolls under 10.07 indirect
shooting or 15.09 snap shooting, none with [TORRENT] (no roll); with [TWIN-LINKED] the 1s are
among the failed rolls it re-rolls, never re-rolled twice."""

from __future__ import annotations

import pytest

from sim.rules import pools as PL
from sim.rules.abilities import parse_weapon_abilities
from sim.rules.dice import ForcedDice, parse_dice_expr
from sim.rules.sequence import (ONES, PoolState, hit_reroll_faces, hit_rerollable, roll_hits, roll_wounds,
                                wound_reroll_faces)


def pool(abilities="", dice=1, skill=3, S=4, T=4, **kw) -> PoolState:
    """A pool whose flags are set by the abilities' registry records, as the battle sets them."""
    p = PoolState(dice=dice, skill=skill, S=S, AP=0, D=parse_dice_expr(1), T=T, **kw)
    PL.apply_pool_effects(parse_weapon_abilities(abilities, "gun"), p, lambda choice: choice.default)
    return p


def test_01_05_02_the_records_set_the_pool_flags():
    assert pool("[REROLL HITS 1]").reroll_hit_ones and not pool("[REROLL HITS 1]").reroll_wound_ones
    assert pool("[REROLL WOUNDS 1]").reroll_wound_ones and not pool("[REROLL WOUNDS 1]").reroll_hit_ones
    assert [a.name for a in parse_weapon_abilities("Re-roll Hits 1, reroll wounds 1", "gun")] == \
        ["REROLL HITS 1", "REROLL WOUNDS 1"]


def test_01_05_02_reroll_hits_1_rerolls_each_1_once():
    p = pool("[REROLL HITS 1]", dice=4)
    d = ForcedDice([1, 2, 1, 5, 3, 1])  # the two 1s re-rolled to 3 (hits) and 1 (stands)
    rec = roll_hits(p, d)
    assert rec["rolls"] == [3, 2, 1, 5] and rec["rerolled"] == [3, 1] and p.hits == 2
    assert [pur for pur, _ in d.log] == ["hit rolls", "hit re-rolls (1s)"] and d.remaining == 0


def test_01_05_02_reroll_hits_1_leaves_other_failures():
    p = pool("[REROLL HITS 1]", dice=2, skill=4)
    d = ForcedDice([2, 3])  # both fail (4+), neither is a 1
    rec = roll_hits(p, d)
    assert rec["rerolled"] == [] and p.hits == 0 and len(d.log) == 1


def test_01_05_02_rerolled_before_modifiers():
    """-1 to hit: the 1 is re-rolled (it is the unmodified result), the re-roll's 3 then takes
    the modifier (3 - 1 = 2 fails BS3+); a 6 re-rolled is a critical hit (unmodified 6)."""
    p = pool("[REROLL HITS 1, SUSTAINED HITS 1]", dice=2, hit_mod=-1)
    rec = roll_hits(p, ForcedDice([1, 1, 3, 6]))
    assert rec["rolls"] == [3, 6] and rec["criticals"] == 1 and p.hits == 2  # the critical and its extra hit


def test_01_05_02_no_hit_rerolls_under_indirect_or_snap_shooting_or_torrent():
    for kw in ({"hit_fail_below": 6}, {"snap": True}):
        p = pool("[REROLL HITS 1]", dice=2, **kw)
        assert hit_reroll_faces(p) == frozenset()
        d = ForcedDice([1, 6])
        rec = roll_hits(p, d)
        assert rec["rolls"] == [1, 6] and "rerolled" not in rec and d.remaining == 0
    p = pool("[REROLL HITS 1, TORRENT]", dice=2)
    assert roll_hits(p, ForcedDice([]))["hits"] == 2


def test_01_05_02_reroll_wounds_1_rerolls_each_1_once():
    p = pool("[REROLL WOUNDS 1]")
    p.hits = 3
    d = ForcedDice([1, 3, 1, 4, 1])  # the 1s re-rolled to 4 (wounds) and 1 (stands); 3 fails
    rec = roll_wounds(p, d)
    assert rec["rolls"] == [4, 3, 1] and rec["rerolled"] == [4, 1] and p.wounds == 1
    assert [pur for pur, _ in d.log] == ["wound rolls", "wound re-rolls (1s)"] and d.remaining == 0


def test_01_05_02_reroll_wounds_1_then_anti_on_the_unmodified_rerolled_result():
    p = pool("[REROLL WOUNDS 1, ANTI-INFANTRY 4+]", S=3, T=4, wound_mod=-1)
    p.critical_wound_on = 4  # (24.03 against an INFANTRY target: its record sets it when it applies)
    p.hits = 1
    rec = roll_wounds(p, ForcedDice([1, 4]))
    assert rec["rolls"] == [4] and rec["criticals"] == 1


def test_01_05_02_with_twin_linked_a_1_is_rerolled_once_only():
    p = pool("[REROLL WOUNDS 1, TWIN-LINKED]")
    assert wound_reroll_faces(p) == frozenset({1, 2, 3}) >= ONES  # every failed face, the 1 among them
    p.hits = 1
    d = ForcedDice([1, 1, 6])
    rec = roll_wounds(p, d)
    assert rec["rerolled"] == [1] and p.wounds == 0 and d.remaining == 1  # the re-rolled 1 stands


@pytest.mark.parametrize("rolls, rerolled, offered", [
    ([1, 2, 3], {0: 1}, [1]),  # the 1 re-rolled to 1 already: only the 2 is left for 15.02
    ([1, 2, 3], {}, [0, 1]),
])
def test_01_05_02_a_hit_die_rerolled_is_not_rerolled_again(rolls, rerolled, offered):
    p = pool("[REROLL HITS 1]", dice=3)
    assert hit_rerollable(p, rolls, rerolled) == offered
