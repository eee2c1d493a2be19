"""Abilities that change how many attack dice are gathered (04.03 step 2) or which weapons may be
selected (04.01), through the ECS with forced dice: 24.05 [BLAST]/[BLAST X] (per 5 models at
Select Targets: 4, 5 and 11 models), 24.30 [RAPID FIRE X] (within half range), 24.06 [CLEAVE X]
(only when every attack goes at one target), 24.26 [ONE SHOT] (refused the second time), 24.11
[EXTRA ATTACKS] (selected in addition to one other melee weapon)."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import EndTurn, Fight, Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

WEAPONS = {
    "shell gun": weapon(36, 2, 3, 4, 0, 1, "[BLAST]"),
    "big shell gun": weapon(36, 2, 3, 4, 0, 1, "[BLAST 2]"),
    "burst rifle": weapon(24, 2, 3, 4, 0, 1, "[RAPID FIRE 1]"),
    "storm rifle": weapon(24, 1, 3, 4, 0, 1, "[RAPID FIRE 2]"),
    "spray rifle": weapon(24, 1, 3, 4, 0, 1, "[RAPID FIRE D3]"),
    "tank shell gun": weapon(36, 2, 3, 4, 0, 1, "[BLAST: VEHICLE]"),
    "tank rifle": weapon(24, 1, 3, 4, 0, 1, "[RAPID FIRE 2: VEHICLE]"),
    "missile": weapon(48, 1, 3, 10, -2, 6, "[ONE SHOT]"),
    "knife": weapon("melee", 1, 4, 4, 0, 1),
    "halberd": weapon("melee", 2, 3, 5, -1, 1, "[CLEAVE 1]"),
    "sword": weapon("melee", 3, 3, 4, -1, 1),
    "tail spike": weapon("melee", 1, 4, 4, 0, 1, "[EXTRA ATTACKS]"),
}


def ranged_spec(n_targets, target_at=(5, 30), kw=("INFANTRY",)):
    sh = unit("sh", model(row(10, 10, 2), ["shell gun", "big shell gun", "burst rifle", "storm rifle",
                                           "spray rifle", "tank shell gun", "tank rifle", "missile"]))
    t = unit("t", model(row(*target_at, n_targets), ["knife"], W=1, Sv=7), keywords=kw)
    return scenario(WEAPONS, [sh], [t])


def dice_in_pool(sp, name, seed=5):
    """Fire one model's weapon; return the dice gathered (real dice: only the count matters)."""
    with Battle(sp, seed=seed) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", name, "t"),)))
        (pool,) = of_type(b, "pool")
        return pool["dice"]


# --- BLAST -------------------------------------------------------------------------------------


@pytest.mark.parametrize("models,extra", [(4, 0), (5, 1), (9, 1), (10, 2), (11, 2)])
def test_24_05_blast_one_extra_die_per_five_models(models, extra):
    assert dice_in_pool(ranged_spec(models), "shell gun") == 2 + extra


@pytest.mark.parametrize("models,extra", [(4, 0), (5, 2), (11, 4)])
def test_24_05_blast_x_adds_x_per_five_models(models, extra):
    assert dice_in_pool(ranged_spec(models), "big shell gun") == 2 + extra


def test_24_05_blast_counts_models_at_select_targets_not_when_rolled():
    """Two BLAST guns (both A2) at a 5-model unit: each gets +1 (5 models at Select Targets), even
    though the first pool... both are identical and pool together: 2 x (2 + 1) = 6 dice."""
    sp = ranged_spec(5)
    with Battle(sp, seed=3) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "shell gun", "t"), Selection("sh/2", "shell gun", "t"))))
        assert [p["dice"] for p in of_type(b, "pool")] == [6]


def test_24_01_blast_conditional_only_against_the_keyword():
    assert dice_in_pool(ranged_spec(5, kw=("VEHICLE",)), "tank shell gun") == 3
    assert dice_in_pool(ranged_spec(5, kw=("INFANTRY",)), "tank shell gun") == 2


# --- RAPID FIRE ----------------------------------------------------------------------------------


def test_24_30_rapid_fire_within_half_range_adds_x():
    assert dice_in_pool(ranged_spec(1, (10, 20)), "burst rifle") == 3  # A2 + 1
    assert dice_in_pool(ranged_spec(1, (10, 20)), "storm rifle") == 3  # A1 + 2


def test_24_30_rapid_fire_beyond_half_range_no_extra():
    assert dice_in_pool(ranged_spec(1, (10, 30)), "burst rifle") == 2
    assert dice_in_pool(ranged_spec(1, (10, 30)), "storm rifle") == 1


def test_24_30_rapid_fire_d3_rolls_the_extra_dice():
    """[RAPID FIRE D3] (the parser accepts random X) within half range: D3 extra dice, rolled when
    the dice are gathered; a D6 of 5 -> 3 extra -> 4 dice."""
    with Battle(ranged_spec(1, (10, 20)), dice=ForcedDice([5] + [1] * 4)) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "spray rifle", "t"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [4]


def test_24_01_rapid_fire_conditional_only_against_the_keyword():
    assert dice_in_pool(ranged_spec(1, (10, 20), kw=("VEHICLE",)), "tank rifle") == 3
    assert dice_in_pool(ranged_spec(1, (10, 20), kw=("INFANTRY",)), "tank rifle") == 1


# --- CLEAVE --------------------------------------------------------------------------------------


def cleave_spec(n1=5, n2=5):
    a = unit("a", model((20, 20), ["halberd", "knife"]))
    t1 = unit("t1", model(row(17, 21.6, n1), ["knife"], W=5, Sv=7))
    t2 = unit("t2", model(row(17, 18.4, n2), ["knife"], W=5, Sv=7))
    return scenario(WEAPONS, [a], [t1, t2])


@pytest.mark.parametrize("n,dice", [(4, 2), (5, 3), (10, 4)])
def test_24_06_cleave_single_target_per_five_models(n, dice):
    with Battle(cleave_spec(n1=n), dice=ForcedDice([1] * dice)) as b:
        b.run_command(Fight("a", (Selection("a/1", "halberd", "t1"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [dice]


def test_24_06_cleave_split_between_targets_adds_nothing():
    with Battle(cleave_spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(Fight("a", (Selection("a/1", "halberd", "t1", 1), Selection("a/1", "halberd", "t2", 1))))
        assert [(p["target"], p["dice"]) for p in of_type(b, "pool")] == [("t1", 1), ("t2", 1)]


# --- ONE SHOT -----------------------------------------------------------------------------------------


def test_24_26_one_shot_fires_once_then_refused():
    sp = ranged_spec(1, (10, 30))
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "missile", "t"),)))
        b.run_command(EndTurn())
        with pytest.raises(Refusal, match=r"ONE SHOT.*24\.26"):
            b.submit(Shoot("sh", (Selection("sh/1", "missile", "t"),)))
        assert b.events[-1]["type"] == "refused"
        # the other model's missile is its own weapon: it can still fire once
        b.run_command(Shoot("sh", (Selection("sh/2", "missile", "t"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [1, 1]


def test_24_26_one_shot_other_weapons_of_the_model_still_fire():
    with Battle(ranged_spec(1, (10, 30)), dice=ForcedDice([1, 1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "missile", "t"),)))
        b.run_command(EndTurn())
        b.run_command(Shoot("sh", (Selection("sh/1", "storm rifle", "t"),)))
        assert b.state()["units"]["sh"]["UnitState"]["used_one_shot"] == ["sh/1:missile:0"]


def test_24_26_one_shot_spent_even_when_selected_with_no_target():
    """Selected to attack counts, even if the weapon made no attacks (no target)."""
    with Battle(ranged_spec(1, (10, 30)), dice=ForcedDice([1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "missile", None), Selection("sh/2", "storm rifle", "t"))))
        b.run_command(EndTurn())
        with pytest.raises(Refusal, match="ONE SHOT"):
            b.submit(Shoot("sh", (Selection("sh/1", "missile", "t"),)))


# --- EXTRA ATTACKS ------------------------------------------------------------------------------------


def beast_spec():
    beast = unit("a", model((20, 20), ["sword", "knife", "tail spike"]))
    t = unit("t1", model((20, 21.6), ["knife"], W=10, Sv=7))
    return scenario(WEAPONS, [beast], [t])


def test_24_11_extra_attacks_weapon_attacks_in_addition():
    with Battle(beast_spec(), dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(Fight("a", (Selection("a/1", "sword", "t1"), Selection("a/1", "tail spike", "t1"))))
        assert sorted((p["weapons"][0], p["dice"]) for p in of_type(b, "pool")) == [("sword", 3), ("tail spike", 1)]


def test_24_11_extra_attacks_must_be_selected_with_the_other_weapon():
    with Battle(beast_spec(), dice=ForcedDice([])) as b:
        with pytest.raises(Refusal, match=r"EXTRA ATTACKS.*tail spike.*24\.11"):
            b.submit(Fight("a", (Selection("a/1", "sword", "t1"),)))


def test_24_11_still_only_one_non_extra_attacks_weapon():
    with Battle(beast_spec(), dice=ForcedDice([])) as b:
        with pytest.raises(Refusal, match="exactly one"):
            b.submit(Fight("a", (Selection("a/1", "sword", "t1"), Selection("a/1", "knife", "t1"),
                                 Selection("a/1", "tail spike", "t1"))))


def test_24_11_01_extra_attacks_alone_is_allowed():
    with Battle(beast_spec(), dice=ForcedDice([1])) as b:
        b.run_command(Fight("a", (Selection("a/1", "tail spike", "t1"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [1]


def test_24_26_one_shot_in_melee_is_refused_the_second_time():
    """24.26 applies to melee weapons too: a ONE SHOT melee weapon fights once per battle."""
    from sim.battle import Battle
    from sim.commands import EndTurn, Fight, Selection
    from sim.errors import Refusal
    from sim.scenario.load import parse_scenario
    data = {
        "battle": {"name": "t", "seed": 1},
        "weapons": {"charge": {"range": "melee", "A": 1, "WS": 3, "S": 4, "AP": 0, "D": 1,
                               "abilities": "[ONE SHOT]"},
                    "claw": {"range": "melee", "A": 1, "WS": 3, "S": 4, "AP": 0, "D": 1}},
        "armies": [
            {"name": "A", "units": [{"id": "a", "models": [
                {"M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1, "weapons": ["charge", "claw"], "at": [[10, 10]]}]}]},
            {"name": "B", "units": [{"id": "b", "models": [
                {"M": 6, "T": 4, "Sv": 7, "W": 20, "Ld": 6, "OC": 1, "weapons": ["claw"], "at": [[10, 11.5]]}]}]},
        ],
    }
    with Battle(parse_scenario(data, "t.toml")) as b:
        b.run_command(Fight("a", (Selection("a/1", "charge", "b"),)))
        b.run_command(EndTurn())
        before = b.state_hash()
        with pytest.raises(Refusal, match="ONE SHOT"):
            b.submit(Fight("a", (Selection("a/1", "charge", "b"),)))
        assert b.state_hash() == before
        b.run_command(Fight("a", (Selection("a/1", "claw", "b"),)))  # its other weapon still fights
