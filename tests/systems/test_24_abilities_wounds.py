"""Wound-roll and damage abilities through the ECS, forced dice: 24.38 [TWIN-LINKED] (then 24.03
[ANTI] judged on the re-rolled unmodified result), 24.21 [LANCE] (+1 to wound after a charge),
24.25 [MELTA X] (D + X within half range at Select Targets, random D included), 24.03 + 24.10
[ANTI] with [DEVASTATING WOUNDS], and their 24.01 conditional forms."""

from __future__ import annotations

from scen import model, of_type, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.rules.dice import ForcedDice

WEAPONS = {
    "twin gun": weapon(24, 1, 3, 4, 0, 1, "[TWIN-LINKED]"),
    "twin hunter": weapon(24, 1, 3, 3, 0, 2, "[TWIN-LINKED, ANTI-VEHICLE 4+, DEVASTATING WOUNDS]"),
    "fusion gun": weapon(24, 1, 3, 9, -4, "D6", "[MELTA 2]"),
    "tank fusion": weapon(24, 1, 3, 9, -4, "D6", "[MELTA 2: VEHICLE]"),
    "seeker gun": weapon(24, 1, 3, 4, 0, 1, "[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]"),
    "pike": weapon("melee", 1, 3, 4, 0, 1, "[LANCE]"),
    "tank pike": weapon("melee", 1, 3, 4, 0, 1, "[LANCE: VEHICLE]"),
    "tank twin": weapon(24, 1, 3, 4, 0, 1, "[TWIN-LINKED: VEHICLE]"),
    "tank bomb": weapon(24, 1, 3, 4, 0, 2, "[DEVASTATING WOUNDS: VEHICLE]"),
    "knife": weapon("melee", 1, 4, 4, 0, 1),
}
LANCE = ["[LANCE] after a charge (24.21)", 1]


def spec(target_kw=("INFANTRY",), at=(10, 30), W_=20, n=1, **shooter_kw):
    sh = unit("sh", model((10, 10), list(WEAPONS)), **shooter_kw)
    pts = [(at[0] + 2.6 * i, at[1]) for i in range(n)]
    t = unit("t", model(pts, ["knife"], W=W_, Sv=7, base_mm=60), keywords=target_kw)
    return scenario(WEAPONS, [sh], [t])


def shoot(sp, name, rolls, answer=None):
    b = Battle(sp, dice=ForcedDice(rolls))
    b.run_command(Shoot("sh", (Selection("sh/1", name, "t"),)), answer=answer)
    assert b.dice.remaining == 0
    return b


# --- TWIN-LINKED -----------------------------------------------------------------------------


def test_24_38_twin_linked_rerolls_a_failed_wound_roll():
    with shoot(spec(), "twin gun", [4, 2, 5, 1]) as b:  # wound 2 fails -> re-roll 5; save 1
        (wr,) = of_type(b, "wound rolls")
        assert wr["rerolled"] == [5] and wr["rolls"] == [5] and wr["wounds"] == 1
        assert [p for p, _ in b.dice.log] == ["hit rolls", "wound rolls", "wound re-rolls (twin-linked)", "save rolls"]


def test_24_38_twin_linked_then_anti_on_the_rerolled_result():
    """S3 vs T4 needs 5+; ANTI-VEHICLE 4+: the first wound roll 3 fails, is re-rolled to 4, which is
    an unmodified 4: a critical wound -> DEVASTATING: 2 mortal wounds, no save roll."""
    with shoot(spec(("VEHICLE",)), "twin hunter", [4, 3, 4]) as b:
        (wr,) = of_type(b, "wound rolls")
        assert (wr["critical_on"], wr["rolls"], wr["criticals"], wr["devastating"]) == (4, [4], 1, 1)
        assert wounds(b, "t/1") == 18


def test_24_38_twin_linked_rerolled_to_a_failure_is_final():
    with shoot(spec(("VEHICLE",)), "twin hunter", [4, 3, 2]) as b:
        (wr,) = of_type(b, "wound rolls")
        assert wr["wounds"] == 0 and wounds(b, "t/1") == 20


# --- MELTA --------------------------------------------------------------------------------------


def test_24_25_melta_within_half_range_random_d_plus_x():
    """Target 10" away (half of 24" is 12"): D becomes D6+2; damage roll 3 -> 5 damage."""
    with shoot(spec(at=(10, 20)), "fusion gun", [3, 2, 1, 3]) as b:
        (pool,) = of_type(b, "pool")
        assert pool["D"] == "D6+2"
        (dmg,) = of_type(b, "damage")
        assert dmg["steps"][0]["damage"] == 5 and wounds(b, "t/1") == 15


def test_24_25_melta_beyond_half_range_plain_d():
    with shoot(spec(at=(10, 30)), "fusion gun", [3, 2, 1, 3]) as b:
        (pool,) = of_type(b, "pool")
        assert pool["D"] == "D6"
        assert of_type(b, "damage")[0]["steps"][0]["damage"] == 3 and wounds(b, "t/1") == 17


def test_24_25_melta_conditional_only_against_the_keyword():
    with shoot(spec(("VEHICLE",), at=(10, 20)), "tank fusion", [3, 2, 1, 3]) as b:
        assert of_type(b, "pool")[0]["D"] == "D6+2"
    with shoot(spec(("INFANTRY",), at=(10, 20)), "tank fusion", [3, 2, 1, 3]) as b:
        assert of_type(b, "pool")[0]["D"] == "D6"


def test_24_25_24_10_melta_adds_to_devastating_mortal_wounds_too():
    ws = dict(WEAPONS, **{"fusion gun": weapon(24, 1, 3, 9, -4, "D6", "[MELTA 2, DEVASTATING WOUNDS]")})
    sh = unit("sh", model((10, 10), ["fusion gun"]))
    t = unit("t", model((10, 20), ["knife"], W=20, Sv=7, base_mm=60), keywords=("VEHICLE",))
    with Battle(scenario(ws, [sh], [t]), dice=ForcedDice([3, 6, 1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "fusion gun", "t"),)))
        step = of_type(b, "damage")[0]["steps"][0]
        assert (step["mortal"], step["lost"]) == (3, 3)  # D6 rolled 1, +2


# --- ANTI + DEVASTATING ------------------------------------------------------------------------------


def test_24_03_24_10_anti_infantry_devastating_one_model_per_critical():
    """3 W1 infantry; wound rolls [4, 5] are both critical (ANTI 4+): 2 mortal wounds of D1, one
    model each."""
    sp_ws = dict(WEAPONS, **{"seeker gun": weapon(24, 2, 3, 4, 0, 1, "[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]")})
    sh = unit("sh", model((10, 10), ["seeker gun"]))
    t = unit("t", model([(10, 30), (12.6, 30), (15.2, 30)], ["knife"], W=1, Sv=3, base_mm=60))
    with Battle(scenario(sp_ws, [sh], [t]), dice=ForcedDice([3, 3, 4, 5])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "seeker gun", "t"),)))
        (wr,) = of_type(b, "wound rolls")
        assert (wr["criticals"], wr["devastating"]) == (2, 2)
        assert [wounds(b, f"t/{i}") for i in (1, 2, 3)] == [0, 0, 1]


def test_24_03_anti_infantry_vs_vehicle_a_4_is_only_a_wound():
    with shoot(spec(("VEHICLE",)), "seeker gun", [3, 4, 1]) as b:
        (wr,) = of_type(b, "wound rolls")
        assert (wr["critical_on"], wr["criticals"], wr["wounds"]) == (6, 0, 1)


# --- LANCE --------------------------------------------------------------------------------------


def melee_spec(charged, target_kw=("INFANTRY",)):
    a = unit("a", model((10, 10), ["pike", "tank pike"]), charged=charged)
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7), keywords=target_kw)
    return scenario(WEAPONS, [a], [t])


def fight(sp, name, rolls):
    b = Battle(sp, dice=ForcedDice(rolls))
    b.run_command(Fight("a", (Selection("a/1", name, "t"),)))
    assert b.dice.remaining == 0
    return b


def test_24_21_lance_plus_one_to_wound_after_a_charge():
    with fight(melee_spec(True), "pike", [3, 3, 1]) as b:  # wound 3 + 1 = 4: wounds
        (pool,) = of_type(b, "pool")
        assert LANCE in pool["modifiers"] and pool["wound_mod"] == 1
        assert of_type(b, "wound rolls")[0]["wounds"] == 1


def test_24_21_lance_nothing_without_a_charge():
    with fight(melee_spec(False), "pike", [3, 3]) as b:
        (pool,) = of_type(b, "pool")
        assert LANCE not in pool["modifiers"] and of_type(b, "wound rolls")[0]["wounds"] == 0


def test_24_21_lance_modifier_does_not_change_a_critical_wound():
    """LANCE +1 after a charge: an unmodified 5 + 1 is 6, but not a critical wound (crits are unmodified)."""
    ws = dict(WEAPONS, pike=weapon("melee", 1, 3, 4, 0, 1, "[LANCE, DEVASTATING WOUNDS]"))
    a = unit("a", model((10, 10), ["pike"]), charged=True)
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7))
    with Battle(scenario(ws, [a], [t]), dice=ForcedDice([3, 5, 1])) as b:
        b.run_command(Fight("a", (Selection("a/1", "pike", "t"),)))
        (wr,) = of_type(b, "wound rolls")
        assert (wr["criticals"], wr["devastating"], wr["wounds"]) == (0, 0, 1)


def test_24_01_lance_vehicle_only_against_vehicles():
    with fight(melee_spec(True, ("VEHICLE",)), "tank pike", [3, 3, 1]) as b:
        assert LANCE in of_type(b, "pool")[0]["modifiers"]
    with fight(melee_spec(True, ("INFANTRY",)), "tank pike", [3, 2]) as b:  # 2 fails either way
        assert LANCE not in of_type(b, "pool")[0]["modifiers"]


def test_24_01_twin_linked_vehicle_only_against_vehicles():
    with shoot(spec(("VEHICLE",)), "tank twin", [4, 2, 5, 1]) as b:
        assert of_type(b, "wound rolls")[0]["rerolled"] == [5]
    with shoot(spec(("INFANTRY",)), "tank twin", [4, 2]) as b:
        assert of_type(b, "wound rolls")[0]["rerolled"] == []


def test_24_01_devastating_vehicle_only_against_vehicles():
    with shoot(spec(("VEHICLE",)), "tank bomb", [4, 6]) as b:
        assert of_type(b, "wound rolls")[0]["devastating"] == 1 and wounds(b, "t/1") == 18
    with shoot(spec(("INFANTRY",)), "tank bomb", [4, 6, 1]) as b:  # a normal critical: save roll 1
        assert of_type(b, "wound rolls")[0]["devastating"] == 0 and wounds(b, "t/1") == 18
