"""24 weapon and unit abilities inside the attack sequence (sim/rules/sequence.py), with forced
dice: 24.23 [LETHAL HITS], 24.36 [SUSTAINED HITS X], 24.37 [TORRENT], 24.38 [TWIN-LINKED] with
24.03 [ANTI], 24.10 [DEVASTATING WOUNDS] and 24.12 Feel No Pain, and the hard interactions of
01.05.01 (an automatic success is never a critical) and 01.05.02 (re-rolls before modifiers, a
die is re-rolled once, the re-rolled result is what counts)."""

from __future__ import annotations

from sim.rules.allocation import TargetModel, allocation_groups, default_order
from sim.rules.dice import ForcedDice, parse_dice_expr
from sim.rules.sequence import DamageState, PoolState, inflict_damage, roll_hits, roll_saves, roll_wounds

import pytest


def pool(dice=1, skill=3, S=4, T=4, AP=0, D=1, **kw) -> PoolState:
    return PoolState(dice=dice, skill=skill, S=S, AP=AP, D=parse_dice_expr(D), T=T, **kw)


def target(n=1, W=1, Sv=7, fnp=None):
    models = [TargetModel(f"t/{i}", W, W, Sv, None, False) for i in range(1, n + 1)]
    gs = allocation_groups(models)
    st = DamageState(models, {m.id: m.remaining for m in models}, gs, default_order(gs, models),
                     fnp={m.id: fnp for m in models} if fnp else {})
    return st, {m.id: m.Sv for m in models}, {m.id: None for m in models}


def run(p: PoolState, rolls, n=1, W=1, Sv=7, fnp=None):
    """Hit, wound, save and damage with the given dice; returns (dice, damage state, records)."""
    d = ForcedDice(rolls)
    st, Sv_, InSv = target(n, W, Sv, fnp)
    hits = roll_hits(p, d)
    wounds = roll_wounds(p, d) if (p.hits or p.auto_wounds) else None
    recs = inflict_damage(p, roll_saves(p, d), st, d, Sv_, InSv)
    assert d.remaining == 0, "a test must use every forced die"
    return hits, wounds, st, recs


# --- 24.36 SUSTAINED HITS -------------------------------------------------------------------


def test_24_36_critical_hit_scores_x_extra_hits():
    p = pool(dice=3, sustained=2)
    rec = roll_hits(p, ForcedDice([6, 4, 2]))
    assert (rec["criticals"], rec["sustained"], p.hits) == (1, 2, 4)  # 6 -> 3 hits, 4 -> 1, 2 fails


def test_24_36_no_critical_no_extra_hits():
    p = pool(dice=2, sustained=1)
    assert roll_hits(p, ForcedDice([5, 5]))["sustained"] == 0 and p.hits == 2


def test_24_36_sustained_d3_rolls_x_per_critical_hit():
    p = pool(dice=2, sustained=parse_dice_expr("D3"))
    d = ForcedDice([6, 6, 5, 2])  # two criticals; D3 rolls 5 -> 3 and 2 -> 1
    rec = roll_hits(p, d)
    assert (rec["criticals"], rec["sustained"], p.hits) == (2, 4, 6)
    assert [pur for pur, _ in d.log] == ["hit rolls", "sustained hits (D3)", "sustained hits (D3)"]


def test_24_36_extra_hits_are_not_critical_so_never_lethal():
    """SUSTAINED 2 + LETHAL: one critical hit wounds automatically; its 2 extra hits are ordinary
    hits that must roll to wound (they are not critical hits, so LETHAL does not touch them)."""
    p = pool(dice=1, sustained=2, lethal=True)
    roll_hits(p, ForcedDice([6]))
    assert (p.auto_wounds, p.hits) == (1, 2)


# --- 24.23 LETHAL HITS + SUSTAINED HITS on the same critical hit ----------------------------


def test_24_23_24_36_lethal_and_sustained_on_the_same_critical_hit():
    """Hit rolls [6, 3]: the 6 wounds automatically (LETHAL) and adds 1 hit (SUSTAINED 1); the 3
    hits. Wound rolls: 2 dice only (the extra hit and the 3), both 1s fail. The auto-wound goes to
    a save (a 1, fails), so exactly 1 damage."""
    p = pool(dice=2, sustained=1, lethal=True)
    hits, wounds, st, recs = run(p, [6, 3, 1, 1, 1], W=5)
    assert (hits["criticals"], hits["sustained"], hits["lethal"]) == (1, 1, 1)
    assert wounds["rolls"] == [1, 1] and (wounds["auto"], wounds["wounds"]) == (1, 1)
    assert st.remaining["t/1"] == 4


# --- LETHAL auto-wound is never a critical wound (01.05.01) ---------------------------------


def test_24_23_lethal_auto_wound_does_not_trigger_anti_or_devastating():
    """ANTI 2+ and DEVASTATING WOUNDS with LETHAL taken: the critical hit's automatic wound makes no
    wound roll, so it is not a critical wound (no mortal wounds); it goes to a normal save."""
    p = pool(dice=1, lethal=True, devastating=True, critical_wound_on=2, D=3)
    hits, wounds, st, recs = run(p, [6, 6], W=10, Sv=3)  # save 6: saved
    assert wounds["rolls"] == [] and (wounds["auto"], wounds["criticals"], wounds["devastating"]) == (1, 0, 0)
    assert p.mortal_criticals == 0
    assert recs == [{"save": 6, "model": "t/1", "group": "t/1", "saved": True, "invulnerable": False}]
    assert st.remaining["t/1"] == 10


def test_24_23_lethal_declined_rolls_to_wound_and_can_be_devastating():
    p = pool(dice=1, lethal=False, devastating=True, D=3)
    hits, wounds, st, recs = run(p, [6, 6], W=10)
    assert (wounds["criticals"], wounds["devastating"]) == (1, 1)
    assert recs[0]["mortal"] == 3 and st.remaining["t/1"] == 7


def test_24_23_only_critical_hits_wound_automatically():
    p = pool(dice=3, lethal=True)
    roll_hits(p, ForcedDice([6, 5, 1]))
    assert (p.auto_wounds, p.hits) == (1, 1)


# --- 24.37 TORRENT -----------------------------------------------------------------------------


def test_24_37_torrent_rolls_no_hit_dice_and_scores_no_critical():
    """TORRENT with SUSTAINED and LETHAL: every attack hits, but no critical hit exists, so neither
    triggers; the wound roll is the first die used."""
    p = pool(dice=4, torrent=True, sustained=2, lethal=True, skill=6, hit_mod=-1)
    d = ForcedDice([])
    rec = roll_hits(p, d)
    assert d.log == []
    assert (rec["hits"], rec["criticals"], p.auto_wounds, p.hits) == (4, 0, 0, 4)


# --- 24.38 TWIN-LINKED (01.05.02) ---------------------------------------------------------------


def test_24_38_twin_linked_rerolls_failed_wound_rolls_once():
    p = pool(S=4, T=4, twin_linked=True)
    p.hits = 3
    d = ForcedDice([2, 5, 3, 1, 3])  # 2 and 3 fail (need 4+), re-rolled to 1 and 3: still fail
    rec = roll_wounds(p, d)
    assert rec["rerolled"] == [1, 3] and rec["rolls"] == [1, 5, 3] and p.wounds == 1
    assert [pur for pur, _ in d.log] == ["wound rolls", "wound re-rolls (twin-linked)"]


def test_24_38_twin_linked_successes_are_not_rerolled():
    p = pool(twin_linked=True)
    p.hits = 2
    rec = roll_wounds(p, ForcedDice([4, 6]))
    assert rec["rerolled"] == [] and p.wounds == 2


def test_24_38_then_24_03_anti_judged_on_the_rerolled_unmodified_result():
    """ANTI 4+ against S3 vs T4 (5+ to wound): first roll 2 fails and is re-rolled to 4, an
    unmodified 4 -> critical wound (with DEVASTATING: mortal wounds)."""
    p = pool(S=3, T=4, twin_linked=True, critical_wound_on=4, devastating=True, D=2)
    p.hits = 1
    rec = roll_wounds(p, ForcedDice([2, 4]))
    assert rec["rolls"] == [4] and (rec["criticals"], rec["devastating"]) == (1, 1)


def test_24_38_rerolled_before_modifiers_anti_ignores_the_modifier():
    """-1 to wound: a 4 re-rolled to a 4 is still a critical wound with ANTI 4+ (unmodified), and
    the modifier does not turn the re-roll's 4 into a failure."""
    p = pool(S=4, T=4, wound_mod=-1, twin_linked=True, critical_wound_on=4)
    p.hits = 1
    rec = roll_wounds(p, ForcedDice([3, 4]))  # 3 - 1 fails -> re-roll 4: critical (ANTI 4+)
    assert rec["rerolled"] == [4] and rec["criticals"] == 1


def test_24_38_a_die_is_rerolled_once_only():
    p = pool(twin_linked=True)
    p.hits = 1
    d = ForcedDice([1, 1, 6])
    roll_wounds(p, d)
    assert p.wounds == 0 and d.remaining == 1  # the re-rolled 1 is not re-rolled again


def test_24_38_lethal_auto_wounds_are_never_rerolled():
    p = pool(dice=1, twin_linked=True, lethal=True)
    d = ForcedDice([6])
    roll_hits(p, d)
    rec = roll_wounds(p, d)
    assert rec["rolls"] == [] and rec["rerolled"] == [] and p.wounds == 1


# --- 24.10 DEVASTATING WOUNDS with 24.12 Feel No Pain ------------------------------------------


def test_24_10_one_critical_wound_hurts_at_most_one_model():
    """D3 devastating against W1 models: 3 mortal wounds, 1 model destroyed, 2 lost."""
    p = pool(dice=1, devastating=True, D=3)
    _h, _w, st, recs = run(p, [4, 6], n=3, W=1)
    assert [(r["mortal"], r["model"], r["lost"]) for r in recs] == [(3, "t/1", 1)]
    assert st.remaining == {"t/1": 0, "t/2": 1, "t/3": 1}


def test_24_10_each_critical_wound_its_own_model():
    p = pool(dice=2, devastating=True, D=3)
    _h, _w, st, recs = run(p, [4, 4, 6, 6], n=3, W=1)
    assert [r["model"] for r in recs] == ["t/1", "t/2"] and st.remaining["t/3"] == 1


def test_24_10_24_12_feel_no_pain_rolled_per_mortal_wound():
    """D3 devastating vs W5 FNP 5+: 3 mortal wounds, one FNP roll each ([5, 2, 6]: 1 lost)."""
    p = pool(dice=1, devastating=True, D=3)
    _h, _w, st, recs = run(p, [4, 6, 5, 2, 6], W=5, fnp=5)
    assert recs[0]["fnp"] == [5, 2, 6] and recs[0]["lost"] == 1 and st.remaining["t/1"] == 4


def test_24_10_24_12_fnp_rolls_stop_when_the_model_is_destroyed():
    """D6 devastating rolls 5 vs W2 FNP 6+: rolls until the model dies ([1, 1]); the other 3
    mortal wounds are lost with no FNP roll and never reach the second model."""
    p = pool(dice=1, devastating=True, D="D6")
    _h, _w, st, recs = run(p, [4, 6, 5, 1, 1], n=2, W=2, fnp=6)
    assert recs == [{"mortal": 5, "model": "t/1", "lost": 2, "destroyed": True,
                     "source": "devastating wounds", "fnp": [1, 1]}]
    assert st.remaining == {"t/1": 0, "t/2": 2}


def test_24_10_mortal_wounds_after_the_pool_normal_damage():
    """One normal wound (fails its save) and one devastating: the normal damage resolves first,
    on t/1, then the mortal wounds go to the wounded t/1 (06.02: a model that has lost wounds)."""
    p = pool(dice=2, devastating=True, D=2)
    _h, _w, st, recs = run(p, [4, 4, 4, 6, 1], n=2, W=3, Sv=3)
    assert [("mortal" in r, r["model"], r["lost"]) for r in recs] == [(False, "t/1", 2), (True, "t/1", 1)]
    assert st.remaining == {"t/1": 0, "t/2": 3}


def test_24_12_feel_no_pain_on_normal_damage_per_wound():
    p = pool(dice=1, D=3, AP=-1)
    _h, _w, st, recs = run(p, [4, 4, 1, 6, 6, 1], W=5, Sv=3, fnp=6)
    assert recs[0]["fnp"] == [6, 6, 1] and recs[0]["lost"] == 1 and st.remaining["t/1"] == 4


def test_24_12_no_fnp_roll_without_the_ability():
    p = pool(dice=1, D=3)
    with pytest.raises(AssertionError, match="every forced die"):
        run(p, [4, 4, 1, 6], W=5, Sv=3)  # the extra 6 is never asked for -> left over
