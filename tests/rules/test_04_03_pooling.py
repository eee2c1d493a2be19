"""04.03 Resolve Attacks: identical attacks are gathered into one pool; anything that differs
(BS/WS, S, AP, D, applicable abilities, modifiers) makes a separate pool."""

from __future__ import annotations

from sim.rules.abilities import parse_weapon_abilities
from sim.rules.dice import DiceExpr
from sim.rules.pools import effective_key, gather

D1 = DiceExpr(0, 0, 1)


def key(skill=3, S=4, AP=0, D=D1, abil="", hit=(), skill_mods=(), wound=(), ignored=()):
    return effective_key(skill, skill_mods, S, AP, D, parse_weapon_abilities(abil, "w"), hit, wound, ignored)


def test_04_03_rulebook_example_rifles_and_sidearm_pool_heavy_separate():
    """Rifles (BS3 S4 AP0 D1) and a [PISTOL] sidearm with the same profile pool together (PISTOL
    only matters for selection); the heavy rifle (S5 AP-1 D2 [HEAVY]) is its own pool."""
    rifle = key()
    sidearm = key(abil="[PISTOL]")
    heavy = key(S=5, AP=-1, D=DiceExpr(0, 0, 2), abil="[HEAVY]", hit=(("[HEAVY] (24.16)", 1),))
    assert rifle == sidearm
    pools = gather([(7, rifle), (7, rifle), (7, rifle), (7, rifle), (7, sidearm), (7, heavy)])
    assert [(p.target, p.members) for p in pools] == [(7, [0, 1, 2, 3, 4]), (7, [5])]


def test_04_03_characteristics_split_pools():
    base = key()
    for other in (key(skill=4), key(S=5), key(AP=-1), key(D=DiceExpr(1, 3, 0))):
        assert other != base


def test_04_03_applicable_abilities_split_pools():
    assert key(abil="[LETHAL HITS]") != key()
    assert key(abil="[ANTI-VEHICLE 4+]") != key(abil="[ANTI-VEHICLE 2+]")
    assert key(abil="[PSYCHIC]") != key()


def test_04_03_selection_only_abilities_do_not_split_pools():
    for a in ("[ASSAULT]", "[PISTOL]", "[CLOSE-QUARTERS]", "[HEAVY]", "[BLAST]", "[RAPID FIRE 1]",
              "[HAZARDOUS]", "[IGNORES COVER]", "[INDIRECT FIRE]", "[MELTA 2]", "[ONE SHOT]"):
        assert key(abil=a) == key(), a


def test_04_03_ability_order_does_not_matter():
    assert key(abil="[LETHAL HITS, PRECISION]") == key(abil="[PRECISION], [LETHAL HITS]")


def test_04_03_faq_cover_per_model_pools_separately():
    assert key(skill_mods=(("benefit of cover (13.08)", -1),)) != key()


def test_04_03_modifiers_compared_after_clamp():
    assert key(hit=(("a", -1), ("b", -1))) == key(hit=(("c", -1),))


def test_04_03_targets_in_declared_order_pools_in_first_declaration_order():
    a, b = key(), key(S=5)
    pools = gather([(2, b), (1, a), (2, a), (1, b), (2, b), (None, a)])
    assert [(p.target, p.key == a, p.members) for p in pools] == [
        (2, False, [0, 4]), (2, True, [2]), (1, True, [1]), (1, False, [3])]


def test_04_02_01_declarations_without_target_make_no_attacks():
    assert gather([(None, key()), (None, None)]) == []


from hypothesis import given
from hypothesis import strategies as st


@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(1, 3)), st.integers(0, 3)), max_size=20))
def test_04_03_every_targeted_declaration_in_exactly_one_pool_of_identical_attacks(decls):
    keys = [key(S=4 + s) for _t, s in decls]
    pools = gather([(t, k) for (t, _s), k in zip(decls, keys)])
    seen = [i for p in pools for i in p.members]
    assert sorted(seen) == [i for i, (t, _s) in enumerate(decls) if t is not None]
    for p in pools:
        assert all(decls[i][0] == p.target and keys[i] == p.key for i in p.members)
        assert p.members == sorted(p.members)
    # one pool per (target, key)
    assert len({(p.target, p.key) for p in pools}) == len(pools)


def test_04_03_plain_a_only_for_a_fixed_a_that_no_ability_can_add_to():
    """A weapon's plain A (what gathering adds without the per-weapon path) is its A when A is
    fixed and none of [RAPID FIRE X], [BLAST X], [CLEAVE X] can add dice; else there is none."""
    from sim.rules.dice import parse_dice_expr
    from sim.rules.profiles import WeaponProfile

    def w(A, abil=""):
        return WeaponProfile("w", 24, parse_dice_expr(A), 3, 4, 0, D1, parse_weapon_abilities(abil, "w"))

    assert w(2).plain_A == 2
    assert w(3, "[ASSAULT, HEAVY, LETHAL HITS]").plain_A == 3
    assert w("D6").plain_A is None
    for abil in ("[RAPID FIRE 1]", "[BLAST]", "[CLEAVE 1]", "[RAPID FIRE D3: INFANTRY]"):
        assert w(2, abil).plain_A is None, abil
