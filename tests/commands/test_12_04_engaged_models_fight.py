"""12.04 / 04.01 / 04.02 Which models of a unit selected to fight must select a melee weapon:
each one engaged with an enemy unit (it can fight) that has a melee weapon selects one (exactly
one besides its [EXTRA ATTACKS] weapons) and targets among the enemy units it is engaged with;
a Fight that leaves such a model out, or gives a selected weapon no target, is refused naming
the model (it used to be accepted and make no attacks). A model engaged with no enemy unit needs
no selection; a unit without melee weapons may still be selected to fight and makes no attacks
(the rules' FAQ); a [ONE SHOT] melee weapon already fired need not (cannot) be selected."""

from __future__ import annotations

import pytest

from phased import mission_scenario
from scen import model, of_type, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import EndPhase, EndTurn, Fight, Selection, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {"blade": weapon("melee", 2, 3, 4, 0, 1), "gun": weapon(24, 1, 3, 4, 0, 1),
           "tail spike": weapon("melee", 1, 4, 4, 0, 1, "[EXTRA ATTACKS]"),
           "charge": weapon("melee", 1, 3, 4, 0, 1, "[ONE SHOT]")}
MISSES = [1] * 20


def _spec(weapons=("blade",), third_at=(30, 10)):
    """a: three models, a/1 and a/2 in base contact with t1's two models, a/3 far away."""
    a = unit("a", model([(10, 10), (11.5, 10), third_at], list(weapons)))
    t = unit("t1", model([(10, 11.3), (11.5, 11.3)], ["blade"], W=5, Sv=7))
    return scenario(WEAPONS, [a], [t])


def test_12_04_an_engaged_model_left_out_of_the_fight_is_refused_by_name():
    with Battle(_spec(), dice=ForcedDice(MISSES)) as b:
        before = b.state_hash()
        with pytest.raises(Refusal, match=r"^a/2 is engaged with t1 and must fight: select one of its melee "
                                          r"weapons \(blade\).*\(04\.01, 04\.02, 12\.04\)"):
            b.submit(Fight("a", (Selection("a/1", "blade", "t1"),)))
        with pytest.raises(Refusal, match=r"^a/1 is engaged with t1 and must fight"):
            b.submit(Fight("a", ()))
        assert b.state_hash() == before and not W.unit_state(b.units["a"]).selected_to_fight


def test_12_04_a_selected_melee_weapon_without_a_target_is_refused_by_name():
    with Battle(_spec(), dice=ForcedDice(MISSES)) as b:
        with pytest.raises(Refusal, match=r"^a/2 blade: no target: .*engaged with \(t1\) \(04\.02, 12\.04\)"):
            b.submit(Fight("a", (Selection("a/1", "blade", "t1"), Selection("a/2", "blade", None))))
    # an [EXTRA ATTACKS] weapon too: each selected weapon attacks
    with Battle(_spec(("blade", "tail spike")), dice=ForcedDice(MISSES)) as b:
        with pytest.raises(Refusal, match=r"^a/1 tail spike: no target"):
            b.submit(Fight("a", (Selection("a/1", "blade", "t1"), Selection("a/1", "tail spike", None),
                                 Selection("a/2", "blade", "t1"), Selection("a/2", "tail spike", "t1"))))


def test_12_04_a_model_engaged_with_no_enemy_unit_needs_no_selection():
    with Battle(_spec(), dice=ForcedDice(MISSES)) as b:
        b.run_command(Fight("a", (Selection("a/1", "blade", "t1"), Selection("a/2", "blade", "t1"))))
        (sel,) = of_type(b, "weapons selected")
        assert [s[0] for s in sel["selections"]] == ["a/1", "a/2"]
        assert [p["dice"] for p in of_type(b, "pool")] == [4]


def test_faq_a_unit_without_melee_weapons_may_be_selected_to_fight_and_makes_no_attacks():
    with Battle(_spec(("gun",)), dice=ForcedDice([])) as b:
        b.run_command(Fight("a", ()))
        assert W.unit_state(b.units["a"]).selected_to_fight
        assert of_type(b, "pool") == [] and b.dice.count == 0
    # and a model without one, in a unit whose other models fight
    a = unit("a", model((10, 10), ["blade"]), model((11.5, 10), ["gun"]))
    t = unit("t1", model([(10, 11.3), (11.5, 11.3)], ["blade"], W=5, Sv=7))
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice(MISSES)) as b:
        b.run_command(Fight("a", (Selection("a/1", "blade", "t1"),)))
        assert [p["dice"] for p in of_type(b, "pool")] == [2]


def test_24_26_a_model_whose_only_melee_weapon_is_a_spent_one_shot_needs_no_selection():
    a = unit("a", model((10, 10), ["charge"]), model((11.5, 10), ["blade"]))
    t = unit("t1", model([(10, 11.3), (11.5, 11.3)], ["blade"], W=20, Sv=7))
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice(MISSES)) as b:
        with pytest.raises(Refusal, match=r"^a/1 is engaged with t1 and must fight.*\(charge\)"):
            b.submit(Fight("a", (Selection("a/2", "blade", "t1"),)))
        b.run_command(Fight("a", (Selection("a/1", "charge", "t1"), Selection("a/2", "blade", "t1"))))
        b.run_command(EndTurn())
        b.run_command(Fight("a", (Selection("a/2", "blade", "t1"),)))  # (a/1 has nothing left to fight with)
        assert [e["selections"] for e in of_type(b, "weapons selected")][-1] == [["a/2", "blade", "t1", None]]


def test_12_04_in_a_battle_the_fight_step_refuses_a_fight_without_attacks():
    """The Fight step of a battle with a mission: the same refusal, through the phase gates."""
    red = [unit("ra", model([(20, 20), (21.5, 20)], ["blade"]))]
    blue = [unit("ba", model([(20, 21.3), (21.5, 21.3)], ["blade"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice(MISSES)) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.step) != "fight":
            b.run_command(EndPhase())
        with pytest.raises(Refusal, match=r"^ra/1 is engaged with ba and must fight"):
            b.submit(Fight("ra", ()))
        with pytest.raises(Refusal, match=r"^ra/2 blade: no target"):
            b.submit(Fight("ra", (Selection("ra/1", "blade", "ba"), Selection("ra/2", "blade", None))))
        b.run_command(Fight("ra", (Selection("ra/1", "blade", "ba"), Selection("ra/2", "blade", "ba"))))
        assert [p["dice"] for p in of_type(b, "pool")] == [4]
