"""10.07 indirect shooting through the ECS (benefit of cover; unmodified 1-5 fail, 1-3 if
stationary and the target is visible to a friendly unit) and 24.06 [CLEAVE] (extra dice only if
all of the weapon's attacks went at a single target)."""

from __future__ import annotations

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.rules.dice import ForcedDice

WEAPONS = {
    "mortar": weapon(48, 1, 2, 5, 0, 1, "[INDIRECT FIRE]"),
    "great axe": weapon("melee", 3, 3, 5, -1, 1, "[CLEAVE 1]"),
    "claws": weapon("melee", 1, 4, 4, 0, 1),
}


def mortar_spec(**unit_kw):
    mortars = unit("mortars", model((10, 10), ["mortar"]), **unit_kw)
    return scenario(WEAPONS, [mortars], [unit("t", model((10, 30), ["claws"], W=3, Sv=7))])


def fire(sp, roll):
    with Battle(sp, dice=ForcedDice([roll, 1])) as b:
        b.run_command(Shoot("mortars", (Selection("mortars/1", "mortar", "t"),), "indirect"))
        (pool,) = of_type(b, "pool")
        return pool, of_type(b, "hit rolls")[0]["hits"]


def test_10_07_indirect_gives_the_target_cover():
    pool, _ = fire(mortar_spec(), 6)
    assert pool["skill"] == 3  # BS2+ worsened by 1


def test_10_07_moved_unit_unmodified_1_to_5_fail():
    pool, hits = fire(mortar_spec(moved=4.0), 5)
    assert hits == 0  # 5 would reach BS3+, but under indirect fire only a 6 can hit
    _pool, hits6 = fire(mortar_spec(moved=4.0), 6)
    assert hits6 == 1


def test_10_07_stationary_and_visible_only_1_to_3_fail():
    _pool, hits4 = fire(mortar_spec(), 4)
    _pool, hits3 = fire(mortar_spec(), 3)
    assert (hits4, hits3) == (1, 0)


def cleave_spec():
    axe = unit("axe", model((20, 20), ["great axe"]))
    t1 = unit("t1", model(row(17, 21.6, 5), ["claws"], W=5, Sv=7))
    t2 = unit("t2", model(row(17, 18.4, 5), ["claws"], W=5, Sv=7))
    return scenario(WEAPONS, [axe], [t1, t2])


def test_24_06_cleave_single_target_adds_dice_per_5_models():
    with Battle(cleave_spec(), dice=ForcedDice([1] * 4)) as b:
        b.run_command(Fight("axe", (Selection("axe/1", "great axe", "t1"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [4]


def test_24_06_cleave_split_attacks_add_no_dice():
    with Battle(cleave_spec(), dice=ForcedDice([1] * 3)) as b:
        b.run_command(Fight("axe", (Selection("axe/1", "great axe", "t1", 2), Selection("axe/1", "great axe", "t2", 1))))
        assert [(p["target"], p["dice"]) for p in of_type(b, "pool")] == [("t1", 2), ("t2", 1)]
