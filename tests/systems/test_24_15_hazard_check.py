"""HazardCheckSystem: 24.15 [HAZARDOUS] + 06.03 hazard rolls (Part A ruling 5): one roll per
HAZARDOUS weapon selected (per model per weapon, even without a target), all together, after the
unit has resolved all its attacks (shooting or fighting); 1-2 fails; 1 mortal wound per failure,
3 if every model still in the unit is MONSTER/VEHICLE; 06.02 allocation; none if the unit is
already destroyed."""

from __future__ import annotations

import esper

from scen import kill, dice_purposes, model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.components import Wounds
from sim.rules.dice import ForcedDice

WEAPONS = {
    "plasma": weapon(24, 1, 3, 7, -2, 2, "[HAZARDOUS]"),
    "plasma pistol": weapon(12, 1, 3, 7, -2, 2, "[HAZARDOUS, PISTOL]"),
    "rifle": weapon(24, 1, 3, 4, 0, 1),
    "plasma axe": weapon("melee", 2, 3, 6, -2, 1, "[HAZARDOUS]"),
    "claws": weapon("melee", 1, 4, 4, 0, 1),
}


def target(pos=(10, 25), n=3, W=5):
    return unit("target", model(row(*pos, n), ["claws"], W=W, Sv=3))


def shooters(*models, keywords=("INFANTRY",)):
    return unit("sq", *models, keywords=keywords)


def test_24_15_two_models_firing_make_two_rolls_after_attacks():
    sp = scenario(WEAPONS, [shooters(model(row(10, 10, 2), ["plasma"], W=2))], [target()])
    # hits 1 1 (miss); hazard rolls 3 4: no failure
    with Battle(sp, dice=ForcedDice([1, 1, 3, 4])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"), Selection("sq/2", "plasma", "target"))))
        assert dice_purposes(b) == [("hit rolls", [1, 1]), ("hazard rolls", [3, 4])]
        (hz,) = of_type(b, "hazard rolls")
        assert (hz["rolls"], hz["failures"], hz["mortal_wounds"]) == ([3, 4], 0, 0)
        # the hazard event comes after every attack event and before the activation ends
        types = [e["type"] for e in b.events if e["type"] != "dice"]
        assert types.index("hazard rolls") > types.index("hit rolls")
        assert types[-1] == "attacks resolved"


def test_24_15_one_model_two_hazardous_weapons_two_rolls():
    sp = scenario(WEAPONS, [shooters(model((10, 10), ["plasma", "plasma"], W=3), keywords=("VEHICLE",))],
                  [target()])
    with Battle(sp, dice=ForcedDice([1, 1, 2, 5])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"), Selection("sq/1", "plasma", "target"))))
        (hz,) = of_type(b, "hazard rolls")
        assert (hz["rolls"], hz["failures"], hz["mortal_wounds"], hz["per_failure"]) == ([2, 5], 1, 3, 3)
        assert wounds(b, "sq/1") == 0  # all-VEHICLE unit: 3 mortal wounds for one failure


def test_part_a_5_hazardous_weapon_without_target_still_rolls():
    sp = scenario(WEAPONS, [shooters(model(row(10, 10, 2), ["plasma", "rifle"], W=2))], [target()])
    with Battle(sp, dice=ForcedDice([1, 6])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "rifle", "target"), Selection("sq/2", "plasma", None))))
        assert dice_purposes(b) == [("hit rolls", [1]), ("hazard rolls", [6])]


def test_24_15_non_hazardous_weapons_make_no_rolls():
    sp = scenario(WEAPONS, [shooters(model(row(10, 10, 2), ["plasma", "rifle"], W=2))], [target()])
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "rifle", "target"), Selection("sq/2", "rifle", "target"))))
        assert of_type(b, "hazard rolls") == []
        assert b.dice.remaining == 0


def test_06_03_all_vehicle_unit_three_mortal_wounds_per_failure():
    sp = scenario(WEAPONS, [shooters(model(row(10, 10, 2, dx=3), ["plasma"], W=10, base_mm=60),
                                     keywords=("VEHICLE",))], [target()])
    with Battle(sp, dice=ForcedDice([1, 1, 1, 2])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"), Selection("sq/2", "plasma", "target"))))
        (hz,) = of_type(b, "hazard rolls")
        assert (hz["failures"], hz["mortal_wounds"]) == (2, 6)
        (mw,) = of_type(b, "mortal wounds")
        assert mw["count"] == 6 and mw["source"] == "hazard rolls"
        # 06.02: one at a time, wounded model first: all six on sq/1
        assert [s["model"] for s in mw["steps"]] == ["sq/1"] * 6
        assert (wounds(b, "sq/1"), wounds(b, "sq/2")) == (4, 10)


def test_06_03_faq_mixed_vehicle_and_infantry_unit_one_mortal_wound_per_failure():
    sp = scenario(WEAPONS, [unit("sq", model((10, 10), ["plasma"], W=10, base_mm=60, keywords=("VEHICLE",)),
                                 model((14, 10), ["plasma"], W=3, keywords=("INFANTRY",)), keywords=())],
                  [target()])
    with Battle(sp, dice=ForcedDice([1, 1, 1, 2])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"), Selection("sq/2", "plasma", "target"))))
        (hz,) = of_type(b, "hazard rolls")
        assert (hz["failures"], hz["mortal_wounds"], hz["per_failure"]) == (2, 2, 1)
        assert (wounds(b, "sq/1"), wounds(b, "sq/2")) == (8, 3)  # not necessarily the bearer: listed order


def test_24_15_faq_mortal_wounds_to_wounded_non_character_first():
    """The CHARACTER fires the plasma; the failure goes to the wounded non-CHARACTER model."""
    sp = scenario(WEAPONS, [unit("sq",
                                 model((10, 10), ["plasma"], W=4, keywords=("CHARACTER",), ids=["boss"]),
                                 model(row(11.5, 10, 2), ["rifle"], W=2, ids=["a", "b"]))],
                  [target()])
    with Battle(sp, dice=ForcedDice([1, 1, 5, 5, 2, 1, 1])) as b:
        esper.component_for_entity(b.models["b"], Wounds).remaining = 1
        b.run_command(Shoot("sq", (Selection("boss", "plasma", "target"),)))
        (hz,) = of_type(b, "hazard rolls")
        assert hz["rolls"] == [1] and hz["mortal_wounds"] == 1
        assert (wounds(b, "boss"), wounds(b, "a"), wounds(b, "b")) == (4, 2, 0)


def test_24_15_hazard_rolls_after_melee_too():
    sp = scenario(WEAPONS, [unit("sq", model(row(10, 10, 2), ["plasma axe"], W=2))],
                  [unit("target", model(row(10, 11.6, 2), ["claws"], W=5, Sv=3))])
    # 4 hit rolls, all 1: no hits. Then two hazard rolls (one per model): 1 fails, 6 passes
    with Battle(sp, dice=ForcedDice([1, 1, 1, 1, 1, 6])) as b:
        b.run_command(Fight("sq", (Selection("sq/1", "plasma axe", "target"), Selection("sq/2", "plasma axe", "target"))))
        assert dice_purposes(b) == [("hit rolls", [1, 1, 1, 1]), ("hazard rolls", [1, 6])]
        assert (wounds(b, "sq/1"), wounds(b, "sq/2")) == (1, 2)


def test_24_15_split_melee_hazardous_weapon_is_one_weapon_one_roll():
    """A model splitting its HAZARDOUS melee weapon's attacks between two targets (04.03) still
    selected one HAZARDOUS weapon: one hazard roll, not one per target."""
    sp = scenario(WEAPONS, [unit("sq", model((10, 10), ["plasma axe"], W=2))],
                  [unit("t1", model((10, 11.6), ["claws"], W=5)), unit("t2", model((11.6, 10), ["claws"], W=5))])
    with Battle(sp, dice=ForcedDice([1, 1, 6, 6])) as b:
        b.run_command(Fight("sq", (Selection("sq/1", "plasma axe", "t1", 1), Selection("sq/1", "plasma axe", "t2", 1))))
        hz = of_type(b, "hazard rolls")
        assert len(hz) == 1 and len(hz[0]["rolls"]) == 1


def test_part_a_5_unit_destroyed_before_its_hazard_rolls_makes_none():
    sp = scenario(WEAPONS, [shooters(model(row(10, 10, 2), ["plasma"], W=2))], [target()])
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        def kill_shooters(e):  # e.g. destroyed by a reaction during its attacks
            if e["type"] == "hit rolls":
                for mid in ("sq/1", "sq/2"):
                    kill(b, mid)
        b.listeners.append(kill_shooters)
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"), Selection("sq/2", "plasma", "target"))))
        (hz,) = of_type(b, "hazard rolls")
        assert hz["rolls"] == [] and hz["mortal_wounds"] == 0
        assert b.dice.log == [("hit rolls", (1, 1))]
        assert of_type(b, "mortal wounds") == []


def test_06_03_all_vehicle_counts_only_models_still_in_the_unit():
    """Part A 5: '3 if every model still in the unit is MONSTER or VEHICLE': the infantry model
    destroyed earlier no longer counts."""
    sp = scenario(WEAPONS, [unit("sq", model((10, 10), ["plasma"], W=10, base_mm=60, keywords=("VEHICLE",)),
                                 model((14, 10), ["rifle"], W=1, keywords=("INFANTRY",)), keywords=())],
                  [target()])
    with Battle(sp, dice=ForcedDice([1, 2])) as b:
        kill(b, "sq/2")
        b.run_command(Shoot("sq", (Selection("sq/1", "plasma", "target"),)))
        (hz,) = of_type(b, "hazard rolls")
        assert (hz["mortal_wounds"], hz["per_failure"]) == (3, 3)
        assert wounds(b, "sq/1") == 7
