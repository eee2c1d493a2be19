"""05.04 Inflict damage: saves lowest first, current group, wounded model first, the save rows
(unmodified 1, invulnerable automatically, AP on armour only), random D after the model is
chosen, excess damage lost, remaining attacks lost; 24.10 DEVASTATING WOUNDS after normal
damage, at most one model per critical wound."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.allocation import TargetModel, allocation_groups, default_order
from sim.rules.attack import save_fails, saved_by_invulnerable
from sim.rules.dice import ForcedDice, parse_dice_expr
from sim.rules.sequence import DamageState, PoolState, inflict_damage, roll_saves


def M(id, W=2, rem=None, Sv=3, InSv=None, char=False):
    return TargetModel(id, W, W if rem is None else rem, Sv, InSv, char)


def setup(models, order=None, precision=None, fnp=None):
    gs = allocation_groups(models)
    order = order or default_order(gs, models)
    st_ = DamageState(models, {m.id: m.remaining for m in models}, gs, order, precision, fnp=fnp or {})
    Sv = {m.id: m.Sv for m in models}
    InSv = {m.id: m.InSv for m in models}
    return st_, Sv, InSv


def P(AP=0, D=1, wounds=0, mortal=0):
    p = PoolState(dice=0, skill=3, S=4, AP=AP, D=parse_dice_expr(D), T=4)
    p.wounds = wounds
    p.mortal_criticals = mortal
    return p


# --- 05.04 step 2 save rows ---------------------------------------------------------------


def test_05_04_unmodified_one_fails_even_with_2_plus_invulnerable():
    assert save_fails(1, 0, 2, 2) is True


def test_05_04_ap_adjusts_armour_only():
    # Sv3+, AP-1: a 3 becomes 2 (fails), a 4 becomes 3 (saves)
    assert save_fails(3, -1, 3, None) is True
    assert save_fails(4, -1, 3, None) is False
    # InSv 4+ ignores AP: a 4 saves against AP-3
    assert save_fails(4, -3, 3, 4) is False
    assert save_fails(3, -3, 3, 4) is True


def test_05_04_invulnerable_used_automatically_when_better():
    # Sv3+ AP-2: needs 5; InSv 4+: a 4 is saved by the invulnerable row
    assert save_fails(4, -2, 3, 4) is False
    assert saved_by_invulnerable(4, -2, 3, 4) is True
    # a 5 is saved either way: not credited to the invulnerable save
    assert saved_by_invulnerable(6, -2, 3, 4) is False
    assert saved_by_invulnerable(5, -1, 3, 4) is False


def test_05_04_rulebook_example_ap1_on_3_saves_for_sv2():
    assert save_fails(3, -1, 2, None) is False
    assert save_fails(3, -1, 3, None) is True


def test_05_04_no_save_7_plus_and_positive_ap_ignored():
    assert save_fails(6, 0, 7, None) is True
    assert save_fails(5, +1, 6, None) is True  # AP never positive: 5 does not become 6


def test_05_03_saves_rolled_together_sorted_lowest_first():
    p = P(wounds=4)
    assert roll_saves(p, ForcedDice([5, 1, 6, 3])) == [1, 3, 5, 6]
    assert roll_saves(P(wounds=0), ForcedDice([])) == []


# --- inflict damage -------------------------------------------------------------------------


def test_05_04_lowest_save_first_goes_to_wounded_model():
    """Worst (lowest) save resolved first; in the group, a wounded model is picked first."""
    models = [M("a"), M("b", rem=1), M("c")]
    st_, Sv, InSv = setup(models)
    out = inflict_damage(P(AP=0), [1, 2, 5], st_, ForcedDice([]), Sv, InSv)
    assert [(r["save"], r["model"], r.get("lost")) for r in out] == [(1, "b", 1), (2, "a", 1), (5, "a", None)]
    assert st_.remaining == {"a": 1, "b": 0, "c": 2}


def test_05_04_excess_damage_lost():
    models = [M("a", W=2), M("b", W=2)]
    st_, Sv, InSv = setup(models)
    out = inflict_damage(P(D=3), [1, 1], st_, ForcedDice([]), Sv, InSv)
    assert [(r["model"], r["damage"], r["lost"]) for r in out] == [("a", 3, 2), ("b", 3, 2)]
    assert st_.remaining == {"a": 0, "b": 0}


def test_05_04_remaining_attacks_lost_when_unit_destroyed():
    models = [M("a", W=1)]
    st_, Sv, InSv = setup(models)
    dice = ForcedDice([])
    out = inflict_damage(P(), [1, 2, 2], st_, dice, Sv, InSv)
    assert out[0]["destroyed"] is True
    assert out[1] == {"lost": "unit destroyed: remaining attacks are lost"}
    assert len(out) == 2


def test_05_04_01_current_group_advances_when_wiped():
    # group a (Sv3) first, then b (Sv5): once a is wiped, b takes the rest with its own Sv
    models = [M("a", W=1, Sv=3), M("a2", W=1, Sv=3), M("b", W=1, Sv=5)]
    st_, Sv, InSv = setup(models, order=("a", "b"))
    out = inflict_damage(P(), [2, 2, 4], st_, ForcedDice([]), Sv, InSv)
    assert [(r["group"], r["model"], r["saved"]) for r in out] == [
        ("a", "a", False), ("a", "a2", False), ("b", "b", False)]
    # the 4 would have saved on a Sv3+ model: the group's own Sv is used
    assert st_.remaining == {"a": 0, "a2": 0, "b": 0}


def test_05_04_saved_attack_rolls_no_damage():
    models = [M("a", W=3)]
    st_, Sv, InSv = setup(models)
    dice = ForcedDice([4])
    out = inflict_damage(P(D="D6"), [5, 6], st_, dice, Sv, InSv)
    assert [r["saved"] for r in out] == [True, True] and dice.log == []


def test_05_04_save_uses_the_current_groups_sv_not_the_best():
    models = [M("bad", W=1, Sv=6), M("good", W=1, Sv=2)]
    st_, Sv, InSv = setup(models, order=("good", "bad"))
    out = inflict_damage(P(), [3, 5], st_, ForcedDice([]), Sv, InSv)
    assert [(r["model"], r["saved"]) for r in out] == [("good", True), ("good", True)]


def test_02_02_03_random_damage_rolled_per_failed_save_after_model_chosen():
    models = [M("a", W=3), M("b", W=3)]
    st_, Sv, InSv = setup(models)
    dice = ForcedDice([2, 6, 5])  # D3: 1, 3, 3
    out = inflict_damage(P(D="D3"), [1, 2, 2, 2, 6], st_, dice, Sv, InSv)
    # save 1 -> a takes 1 (a: 2); save 2 -> a (wounded) takes 3 -> 2 lost, destroyed;
    # save 2 -> b takes 3 (destroyed); the unit is destroyed: the last 2 and the 6 are lost
    assert [(r.get("model"), r.get("damage"), r.get("lost")) for r in out] == [
        ("a", 1, 1), ("a", 3, 2), ("b", 3, 3), (None, None, "unit destroyed: remaining attacks are lost")]
    assert [p for p, _ in dice.log] == ["damage roll (D3)"] * 3
    assert dice.remaining == 0


def test_24_10_normal_damage_before_devastating_mortal_wounds():
    """Mortal wounds from DEVASTATING WOUNDS come after every normal damage of the pool; each
    critical wound harms at most one model, excess lost (rulebook: D3 vs 2W -> 1 MW wasted)."""
    models = [M("a", W=2), M("b", W=2), M("c", W=2)]
    st_, Sv, InSv = setup(models)
    dice = ForcedDice([6])  # the devastating D3 rolls 3
    out = inflict_damage(P(D="D3", mortal=1, wounds=1), [6], st_, dice, Sv, InSv)
    assert out[0]["saved"] is True
    assert (out[1]["mortal"], out[1]["model"], out[1]["lost"]) == (3, "a", 2)
    assert st_.remaining == {"a": 0, "b": 2, "c": 2}


def test_24_10_mortal_wounds_go_to_the_model_normal_damage_wounded():
    models = [M("a", W=3), M("b", W=3)]
    st_, Sv, InSv = setup(models, order=("a",))
    dice = ForcedDice([])
    out = inflict_damage(P(D=1, mortal=2, wounds=1), [1], st_, dice, Sv, InSv)
    assert [(r["model"], r["lost"]) for r in out] == [("a", 1), ("a", 1), ("a", 1)]
    assert st_.remaining == {"a": 0, "b": 3}


def test_24_10_devastating_goes_to_non_characters_first():
    models = [M("cap", W=4, char=True), M("a", W=2)]
    st_, Sv, InSv = setup(models)
    out = inflict_damage(P(D=3, mortal=2), [], st_, ForcedDice([]), Sv, InSv)
    assert [(r["model"], r["lost"]) for r in out] == [("a", 2), ("cap", 3)]
    assert st_.remaining == {"cap": 1, "a": 0}


def test_part_a_4_devastating_to_precision_group_first():
    models = [M("a", W=2), M("cap", W=4, char=True)]
    st_, Sv, InSv = setup(models, precision="cap")
    out = inflict_damage(P(D=2, mortal=3), [], st_, ForcedDice([]), Sv, InSv)
    # two criticals kill the CHARACTER (2 + 2); the third goes by 06.02 to a
    assert [(r["model"], r["lost"]) for r in out] == [("cap", 2), ("cap", 2), ("a", 2)]


def test_24_28_precision_current_group_for_normal_damage():
    models = [M("a", W=1), M("cap", W=2, char=True)]
    st_, Sv, InSv = setup(models, precision="cap")
    out = inflict_damage(P(), [1, 1, 1], st_, ForcedDice([]), Sv, InSv)
    assert [r["model"] for r in out] == ["cap", "cap", "a"]


def test_24_12_feel_no_pain_per_wound():
    models = [M("a", W=3)]
    st_, Sv, InSv = setup(models, fnp={"a": 5})
    dice = ForcedDice([5, 2, 6])  # D3 damage 3 -> FNP rolls 5 (saved), 2 (lost), 6 (saved)
    out = inflict_damage(P(D=3), [1], st_, dice, Sv, InSv)
    assert (out[0]["damage"], out[0]["lost"], out[0]["fnp"]) == (3, 1, [5, 2, 6])


def test_24_12_feel_no_pain_stops_when_the_model_is_destroyed():
    """Feel No Pain is rolled one wound at a time and stops once the model has no wounds left:
    the rest of that attack's damage is lost unrolled and does not carry to the next model
    (the README's ruling says so). D3 damage 3 on a 1-wound model, FNP 5+: a 5 saves the first
    wound, a 2 loses the second and destroys it; the third wound is not rolled for."""
    models = [M("a", W=1), M("b", W=1)]
    st_, Sv, InSv = setup(models, fnp={"a": 5, "b": 5})
    dice = ForcedDice([5, 2, 6])
    out = inflict_damage(P(D=3), [1], st_, dice, Sv, InSv)
    assert [(r["model"], r["damage"], r["fnp"], r["lost"], r["destroyed"]) for r in out] == [
        ("a", 3, [5, 2], 1, True)]
    assert st_.remaining == {"a": 0, "b": 1}


# --- invariants -----------------------------------------------------------------------------

@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(2, 6), st.booleans()), min_size=1, max_size=8),
       st.lists(st.integers(1, 6), max_size=15), st.integers(1, 4), st.integers(0, 3),
       st.integers(0, 3))
def test_05_04_invariants_no_negative_wounds_no_allocation_to_dead(specs, saves, D, lost0, mortal):
    models = [TargetModel(f"m{i}", w, w - min(lost0, w - 1) if i == 0 else w, sv, None, ch)
              for i, (w, sv, ch) in enumerate(specs)]
    st_, Sv, InSv = setup(models)
    before = dict(st_.remaining)
    out = inflict_damage(P(D=D, mortal=mortal, wounds=len(saves)), sorted(saves), st_, ForcedDice([]), Sv, InSv)
    dead = set()
    for r in out:
        if "model" in r:
            assert r["model"] not in dead, "a destroyed model received an allocation"
            if r.get("destroyed"):
                dead.add(r["model"])
    for mid, rem in st_.remaining.items():
        assert rem >= 0
        assert rem <= before[mid]
    assert sum(before.values()) - sum(st_.remaining.values()) == sum(
        r.get("lost", 0) for r in out if isinstance(r.get("lost"), int))


def test_05_04_save_faces_table_is_the_save_rows():
    """The per-face table inflict_damage reads is exactly the 05.04 step 2 rows for every face,
    AP, Sv and invulnerable save."""
    from sim.rules.sequence import save_faces
    for AP in range(-6, 1):
        for Sv in range(2, 8):
            for InSv in (None, 2, 3, 4, 5, 6):
                table = save_faces(AP, Sv, InSv)
                for face in range(1, 7):
                    assert table[face] == (save_fails(face, AP, Sv, InSv),
                                           saved_by_invulnerable(face, AP, Sv, InSv))
