"""15.05 Explosives in a battle: in the player's Shooting phase (offered at its start and after
each of their units has shot), an unengaged EXPLOSIVES/GRENADES unit that is eligible to shoot
and did not advance (1 CP) picks an unengaged enemy unit within 8" of and visible to one of its
models; six D6, each 4+ one mortal wound (06.02). It is not shooting: the unit may shoot after.
Within the 15.01 limits; the default policy declines (Part A ruling 25)."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "blade": weapon("melee", 2, 3, 4, 0, 1)}
FIVE = [(20, 12), (21.5, 12), (23, 12), (24.5, 12), (26, 12)]


def _spec(b1_at=FIVE, keywords=("INFANTRY", "GRENADES"), extra_blue=()):
    red = [unit("r1", model((20, 5), ["gun"]), keywords=keywords),
           unit("r2", model((40, 5), ["gun"]))]
    blue = [unit("b1", model(list(b1_at), ["blade"])), *extra_blue]
    return mission_scenario(red, blue, weapons=WEAPONS)


def _answer(option):
    def f(req):
        return option if req.kind == "stratagem" and option in req.options else req.default
    return f


def _battle(spec, dice=(), cp=1, setup=None, answer=None):
    """Red's turn, round 1, ended up to its Shooting phase: Explosives is offered as it starts."""
    b = Battle(spec, dice=ForcedDice(list(dice)))
    b.run_command(StartBattle())
    b.turn_state.cp = [cp, 0]
    if setup:
        b._enter()
        setup(b)
    b.run_command(EndPhase(), answer)
    return b


def _asked(b):
    return [e for e in of_type(b, "decision") if e["key"] == "Explosives"]


def test_15_05_six_dice_each_4_plus_is_a_mortal_wound():
    with _battle(_spec(), [4, 5, 6, 1, 2, 3], answer=_answer("r1 -> b1")) as b:
        (used,) = of_type(b, "stratagem")
        assert (used["stratagem"], used["target"], used["cp"], used["cp_left"]) == ("Explosives", "r1", 1, 0)
        (ex,) = of_type(b, "explosives")
        assert ex["rolls"] == [4, 5, 6, 1, 2, 3] and ex["mortal_wounds"] == 3 and ex["model"] == "r1/1"
        (mw,) = of_type(b, "mortal wounds")
        assert mw["count"] == 3 and mw["source"] == "Explosives (15.05)"
        b._enter()
        assert len(W.unit_models(b.units["b1"])) == 2  # (removed at once)
        assert not W.unit_state(b.units["r1"]).ranged_attacks_this_turn  # (not a ranged attack)
        # it is not shooting: r1 may still be selected to shoot
        assert b.check(Shoot("r1", (Selection("r1/1", "gun", "b1"),))) is None


@pytest.mark.parametrize("y,offered", [(12.0, True), (14.6, False)])
def test_15_05_only_an_enemy_unit_within_8_inches(y, offered):
    # 32 mm bases: centres 7 + 1.26 apart are 7" edge to edge; 9.6 apart, 8.34"
    with _battle(_spec(b1_at=[(20, y)])) as b:
        assert [e["answer"] for e in _asked(b)] == (["decline"] if offered else [])


def test_15_05_not_at_an_engaged_enemy_unit():
    red_near = unit("r3", model((20, 13.5), ["blade"]))  # engaged with b1
    spec = _spec(b1_at=[(20, 12)])
    with _battle(spec) as b:
        assert len(_asked(b)) == 1
    red = [unit("r1", model((20, 5), ["gun"]), keywords=("INFANTRY", "GRENADES")), red_near]
    spec = mission_scenario(red, [unit("b1", model((20, 12), ["blade"]))], weapons=WEAPONS)
    with _battle(spec) as b:
        assert _asked(b) == []


def test_15_05_only_an_explosives_unit_unengaged_not_advanced_not_shocked_with_the_cp():
    with _battle(_spec(keywords=("INFANTRY",))) as b:
        assert _asked(b) == []
    with _battle(_spec(), cp=0) as b:
        assert _asked(b) == []
    with _battle(_spec(), setup=lambda b: setattr(W.unit_state(b.units["r1"]), "advanced", True)) as b:
        assert _asked(b) == []
    with _battle(_spec(), setup=lambda b: setattr(W.unit_state(b.units["r1"]), "battle_shocked", True)) as b:
        assert _asked(b) == []
    with _battle(_spec(keywords=("INFANTRY", "EXPLOSIVES"))) as b:
        assert len(_asked(b)) == 1


def test_15_05_offered_again_after_each_unit_has_shot_until_used_once():
    with _battle(_spec(), [1] * 2 + [4, 4, 4, 4, 1, 1]) as b:
        assert [e["answer"] for e in _asked(b)] == ["decline"]  # (at the start of the phase)
        b.run_command(Shoot("r2", (Selection("r2/1", "gun", "b1"),)), _answer("r1 -> b1"))  # hit roll 1
        assert [e["answer"] for e in _asked(b)] == ["decline", "r1 -> b1"]
        assert of_type(b, "explosives")[0]["mortal_wounds"] == 4
        b.run_command(Shoot("r1", (Selection("r1/1", "gun", "b1"),)))  # hit roll 1: once per phase
        assert len(_asked(b)) == 2 and b.turn_state.cp[0] == 0


def test_15_05_not_for_a_unit_that_has_shot():
    # r1 shoots first: it is no longer eligible to shoot, so no Explosives for it afterwards
    with _battle(_spec(), [1]) as b:
        b.run_command(Shoot("r1", (Selection("r1/1", "gun", "b1"),)))
        assert [e["answer"] for e in _asked(b)] == ["decline"]  # (only the one at the start)


def test_15_05_not_in_the_opponents_shooting_phase():
    with _battle(_spec(), cp=3) as b:
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        assert len(_asked(b)) == 1 and _asked(b)[0]["player"] == 0


def test_15_05_the_thrower_is_the_first_model_with_the_keyword_within_8_inches_in_unit_order():
    """Steps 1-2 read model by model: a model without EXPLOSIVES/GRENADES (though within 8") never
    throws; of those with it, the first in unit order within 8" of the target and seeing it
    does (the distances read for the unit's models at once: the same values)."""
    from sim.stratagems.explosives import thrower
    red = [unit("r1", model((20, 20), ["gun"], keywords=["INFANTRY"]),
                model((40, 3), ["gun"], keywords=["GRENADES"]), model((24, 5), ["gun"], keywords=["GRENADES"]),
                model((21, 5), ["gun"], keywords=["GRENADES"]))]
    blue = [unit("b1", model((20, 12), ["blade"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS)) as b:
        b.run_command(StartBattle())
        b._enter()
        m = thrower(b, b.units["r1"], b.units["b1"])
        assert W.model_id(m) == "r1/3"  # (r1/1 within 8" but without the keyword; r1/2 out of range)
        models, target = W.unit_models(b.units["r1"]), W.unit_models(b.units["b1"])
        assert [W.nearest_distance(x, target) <= 8 for x in models] == [True, False, True, True]


def test_15_05_offered_at_every_enemy_unit_a_thrower_has_within_8_inches_and_only_those():
    """The offer reads only the enemy units the two units' boxes do not put farther than 8"
    (sim.world.queries.units_near, a superset): at units just inside, exactly at and just past
    8" edge to edge, and far, its options are those ``thrower`` finds over every enemy unit."""
    from sim.stratagems import explosives as EX
    gap = 2 * 0.5 * 32 / 25.4  # (the two 32 mm bases' radii: centre distance less edge distance)
    at = {"in": 8.0 - 1e-7, "on": 8.0, "past": 8.0 + 1e-7, "far": 14.0}
    blue = [unit(f"b-{k}", model([(20 + (d + gap) * c, 5 + (d + gap) * s)], ["blade"]))
            for (k, d), (c, s) in zip(at.items(), ((0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (0.6, 0.8)))]
    red = [unit("r1", model((20, 5), ["gun"]), keywords=("INFANTRY", "GRENADES"))]
    asked = []

    def answer(req):
        if req.kind == "stratagem":
            asked.append(req.options)
        return req.default

    with _battle(mission_scenario(red, blue, weapons=WEAPONS), answer=answer) as b:
        b._enter()
        r1 = b.units["r1"]
        every = [f"r1 -> b-{k}" for k in at if EX.thrower(b, r1, b.units[f"b-{k}"]) is not None]
        assert every == ["r1 -> b-in", "r1 -> b-on"]
        assert asked[0] == every + ["decline"]
