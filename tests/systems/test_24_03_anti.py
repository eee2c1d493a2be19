"""24.03 [ANTI-X Y+] through the ECS: the target unit has X if any model has it (19.03, an
attached unit has its leader's keywords); ANTI-non-X; two ANTI abilities => one chosen in Select
Weapons (24.02, Part A ruling 8); with [DEVASTATING WOUNDS]; LETHAL HITS auto-wounds are never
critical wounds."""

from __future__ import annotations

from scen import kill, model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.rules.dice import ForcedDice

WEAPONS = {
    "melta": weapon(24, 1, 2, 4, 0, 1, "[ANTI-VEHICLE 4+]"),
    "witchseeker": weapon(24, 1, 2, 4, 0, 1, "[ANTI-PSYKER 2+]"),
    "purger": weapon(24, 1, 2, 4, 0, 1, "[ANTI-non-VEHICLE 3+]"),
    "twin anti": weapon(24, 1, 2, 4, 0, 1, "[ANTI-VEHICLE 4+, ANTI-INFANTRY 2+]"),
    "devastator": weapon(24, 1, 2, 4, 0, 3, "[ANTI-VEHICLE 4+, DEVASTATING WOUNDS]"),
    "lethal devastator": weapon(24, 2, 2, 4, 0, 3, "[ANTI-VEHICLE 2+, DEVASTATING WOUNDS, LETHAL HITS]"),
}


def spec(target):
    shooter = unit("sh", model((10, 10), list(WEAPONS)))
    return scenario(WEAPONS, [shooter], [target])


def infantry(n=3, W=2):
    return unit("inf", model(row(10, 30, n), [], W=W, T=4, Sv=3), keywords=("INFANTRY",))


def tank(W=10):
    return unit("tank", model((10, 30), [], W=W, T=4, Sv=3, base_mm=60), keywords=("VEHICLE",))


def fire(b, weapon_name, target, answer=None):
    b.run_command(Shoot("sh", (Selection("sh/1", weapon_name, target),)), answer=answer)
    return of_type(b, "wound rolls")[-1]


def test_24_03_anti_vehicle_against_a_vehicle_critical_on_unmodified_4():
    # hit 4; wound 4 (S4 vs T4 needs 4+ anyway): a critical wound; save 1 fails
    with Battle(spec(tank()), dice=ForcedDice([4, 4, 1])) as b:
        wr = fire(b, "melta", "tank")
        assert (wr["critical_on"], wr["criticals"], wr["wounds"]) == (4, 1, 1)
        assert of_type(b, "pool")[0]["abilities"] == ["ANTI-VEHICLE 4+"]


def test_24_03_anti_vehicle_against_infantry_does_not_apply():
    with Battle(spec(infantry()), dice=ForcedDice([4, 5, 6])) as b:
        wr = fire(b, "melta", "inf")
        assert (wr["critical_on"], wr["criticals"]) == (6, 0)
        assert of_type(b, "pool")[0]["abilities"] == []


def test_19_03_keyword_on_only_one_model_counts_for_the_unit():
    mixed = unit("mix", model((10, 30), [], W=2, keywords=("INFANTRY",)),
                 model((14, 30), [], W=10, base_mm=60, keywords=("VEHICLE",)), keywords=())
    with Battle(spec(mixed), dice=ForcedDice([4, 4, 6])) as b:
        wr = fire(b, "melta", "mix")
        assert (wr["critical_on"], wr["criticals"]) == (4, 1)


def test_19_03_attached_unit_has_its_leaders_psyker_keyword():
    """ANTI-PSYKER 2+ against an attached unit whose only PSYKER is the leader: an unmodified 2
    is a critical wound even though the wound is allocated to a bodyguard."""
    unit_ = unit("att",
                 model((10, 30), [], W=4, keywords=("CHARACTER", "PSYKER"), role="leader", ids=["seer"]),
                 model(row(11.5, 30, 2), [], W=1, ids=["g1", "g2"]))
    with Battle(spec(unit_), dice=ForcedDice([4, 2, 1])) as b:
        wr = fire(b, "witchseeker", "att")
        assert (wr["critical_on"], wr["criticals"], wr["wounds"]) == (2, 1, 1)
        assert of_type(b, "damage")[0]["steps"][0]["model"] == "g1"


def test_19_03_once_the_psyker_leader_is_destroyed_the_unit_is_no_longer_psyker():
    unit_ = unit("att",
                 model((10, 30), [], W=4, keywords=("CHARACTER", "PSYKER"), role="leader", ids=["seer"]),
                 model(row(11.5, 30, 2), [], W=1, ids=["g1", "g2"]))
    with Battle(spec(unit_), dice=ForcedDice([4, 2])) as b:
        kill(b, "seer")
        wr = fire(b, "witchseeker", "att")
        assert (wr["critical_on"], wr["wounds"]) == (6, 0)  # a 2 fails S4 vs T4


def test_24_03_anti_non_x():
    with Battle(spec(infantry()), dice=ForcedDice([4, 3, 6])) as b:
        assert fire(b, "purger", "inf")["critical_on"] == 3
    with Battle(spec(tank()), dice=ForcedDice([4, 3])) as b:
        wr = fire(b, "purger", "tank")
        assert (wr["critical_on"], wr["wounds"]) == (6, 0)


def test_24_02_two_anti_default_lowest_threshold_whose_keyword_the_target_has():
    with Battle(spec(infantry()), dice=ForcedDice([4, 2, 6])) as b:
        b.submit(Shoot("sh", (Selection("sh/1", "twin anti", "inf"),)))
        b.step_until_blocked()
        req = b.pending
        assert req.kind == "duplicate"
        assert sorted(req.options) == ["ANTI-INFANTRY 2+", "ANTI-VEHICLE 4+"]
        assert req.default == "ANTI-INFANTRY 2+"
        b.answer(req.default)
        b.step_until_blocked()
        assert of_type(b, "wound rolls")[0]["critical_on"] == 2
    with Battle(spec(tank()), dice=ForcedDice([4, 4, 6])) as b:
        assert fire(b, "twin anti", "tank")["critical_on"] == 4


def test_24_02_two_anti_the_chosen_one_is_the_only_one_used():
    with Battle(spec(infantry()), dice=ForcedDice([4, 2])) as b:
        wr = fire(b, "twin anti", "inf", answer=lambda r: "ANTI-VEHICLE 4+" if r.kind == "duplicate" else r.default)
        assert (wr["critical_on"], wr["wounds"]) == (6, 0)


def test_24_10_anti_plus_devastating_mortal_wounds_after_normal_damage():
    """devastator: D3 fixed, ANTI-VEHICLE 4+ + DEVASTATING WOUNDS vs a tank (W10)."""
    with Battle(spec(tank()), dice=ForcedDice([4, 4])) as b:
        wr = fire(b, "devastator", "tank")
        assert (wr["criticals"], wr["devastating"]) == (1, 1)
        assert of_type(b, "save rolls")[0]["rolls"] == []
        (dmg,) = of_type(b, "damage")
        assert [(s["mortal"], s["model"], s["lost"]) for s in dmg["steps"]] == [(3, "tank/1", 3)]
        assert wounds(b, "tank/1") == 7


def test_24_10_devastating_at_most_one_model_per_critical_wound():
    with Battle(spec(infantry(W=2)), dice=ForcedDice([4, 6])) as b:  # a 6 is critical anyway
        fire(b, "devastator", "inf")
        (dmg,) = of_type(b, "damage")
        assert [(s["model"], s["lost"]) for s in dmg["steps"]] == [("inf/1", 2)]
        assert [wounds(b, f"inf/{i}") for i in (1, 2, 3)] == [0, 2, 2]


def take_lethal(req):
    return "take" if req.kind == "lethal_hits" else req.default


def test_24_23_lethal_auto_wound_is_not_a_critical_wound():
    """Hit 6 with LETHAL HITS taken wounds automatically: no wound roll, so no ANTI/DEVASTATING;
    it goes to a save. The second attack hits on 3 and rolls a 2: ANTI-VEHICLE 2+ critical ->
    mortal wounds, after the normal damage."""
    with Battle(spec(tank()), dice=ForcedDice([6, 3, 2, 1])) as b:
        wr = fire(b, "lethal devastator", "tank", answer=take_lethal)
        assert wr["rolls"] == [2]
        assert (wr["auto"], wr["criticals"], wr["devastating"]) == (1, 1, 1)
        assert of_type(b, "save rolls")[0]["rolls"] == [1]
        steps = of_type(b, "damage")[0]["steps"]
        assert [("mortal" in s, s["lost"]) for s in steps] == [(False, 3), (True, 3)]
        assert wounds(b, "tank/1") == 4


def test_24_23_lethal_hits_may_be_declined_to_roll_for_anti():
    """The default declines LETHAL HITS when DEVASTATING WOUNDS is there: the critical hit rolls
    to wound like any hit (here 2: an ANTI-VEHICLE 2+ critical wound -> 3 mortal wounds)."""
    with Battle(spec(tank()), dice=ForcedDice([6, 3, 2, 1])) as b:
        wr = fire(b, "lethal devastator", "tank")
        assert [(d["kind"], d["answer"]) for d in of_type(b, "decision")] == [("lethal_hits", "decline")]
        assert (wr["rolls"], wr["auto"], wr["devastating"]) == ([2, 1], 0, 1)
        assert wounds(b, "tank/1") == 7
