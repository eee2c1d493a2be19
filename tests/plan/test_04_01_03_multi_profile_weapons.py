"""04.01.03 Multi-profile weapons in a battle: each model picks one profile of the weapon when the
unit is selected to shoot or fight (different models may pick different ones); two profiles of
one weapon are refused naming 04.01.03; the scenario's ``weapon`` key and a model's weapon list
naming the weapon; the script, default and random players' choices; the odds take the profile
the plan declared."""

from __future__ import annotations

import pytest

from scen import model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.errors import ScenarioError
from sim.odds import for_plan
from sim.players import options as O
from sim.scenario.script_run import to_command
from sim.scenario.spec import ScriptStep

STD, SUP = "plasma - standard", "plasma - supercharge"


def weapons():
    w = {STD: weapon(24, 1, 3, 7, -2, 1), SUP: weapon(24, 1, 3, 8, -3, 2, "Hazardous"),
         "fist - strike": weapon("melee", 2, 3, 8, -2, 2), "fist - sweep": weapon("melee", 4, 3, 5, 0, 1),
         "claws": weapon("melee", 1, 4, 4, 0, 1)}
    for n in (STD, SUP):
        w[n]["weapon"] = "plasma"
    for n in ("fist - strike", "fist - sweep"):
        w[n]["weapon"] = "fist"
    return w


def spec(shooter_at=((10, 10),), target_at=(10, 20), target_W=2):
    return scenario(weapons(), [unit("sq", model(list(shooter_at), ["plasma", "fist"], W=2))],
                    [unit("target", model(row(*target_at, 3), ["claws"], W=target_W, Sv=4))])


def battle(**kw):
    sp = spec(**kw)
    return sp, Battle(sp)


def picked(b) -> list[tuple[str, str]]:
    return [(d.model_id, d.weapon.name) for d in b.validated.declared]


def test_04_01_03_a_model_list_naming_the_weapon_carries_each_profile_in_order():
    (m,) = spec().units[0].models
    assert [w.name for w in m.weapons] == [STD, SUP, "fist - strike", "fist - sweep"]
    assert {w.weapon for w in m.weapons} == {"plasma", "fist"}


def test_04_01_03_models_of_a_unit_may_pick_different_profiles():
    _, b = battle(shooter_at=row(10, 10, 2))
    with b:
        cmd = Shoot("sq", (Selection("sq/1", STD, "target"), Selection("sq/2", SUP, "target")))
        assert b.check(cmd) is None
        assert picked(b) == [("sq/1", STD), ("sq/2", SUP)]


def test_04_01_03_two_profiles_of_one_weapon_are_refused_naming_the_rule():
    _, b = battle()
    with b:
        why = b.check(Shoot("sq", (Selection("sq/1", STD, "target"), Selection("sq/1", SUP, "target"))))
        assert why is not None and "04.01.03" in why and "sq/1" in why and "\n" not in why
        # without a target too: a profile selected is a profile picked
        why = b.check(Shoot("sq", (Selection("sq/1", STD, "target"), Selection("sq/1", SUP, None))))
        assert "04.01.03" in why


def test_04_01_03_two_profiles_of_one_melee_weapon_are_refused_naming_the_rule():
    _, b = battle(target_at=(10, 11.3))
    with b:
        assert b.check(Fight("sq", (Selection("sq/1", "fist - sweep", "target"),))) is None
        why = b.check(Fight("sq", (Selection("sq/1", "fist - strike", "target"),
                                   Selection("sq/1", "fist - sweep", "target"))))
        assert why is not None and "04.01.03" in why


def test_04_01_03_the_picked_profile_is_the_one_resolved():
    # S8 AP-3 D2 supercharge: each unsaved wound destroys a W2 model; S7 D1 standard would not
    from sim.rules.dice import ForcedDice
    with Battle(spec(), dice=ForcedDice([6, 6, 1, 4])) as b:  # hit 6, wound 6, save 1; hazard 4
        b.run_command(Shoot("sq", (Selection("sq/1", SUP, "target"),)))
        hits = [e for e in b.events if e["type"] == "hazard rolls"]
        assert len(hits) == 1  # (the supercharge profile is [HAZARDOUS]; the standard is not)
        assert sum(1 for e in b.events if e["type"] == "model destroyed") == 1


def test_04_01_03_the_script_names_the_weapon_for_its_first_profile_or_a_profile():
    sp, b = battle(shooter_at=row(10, 10, 2))
    with b:
        step = ScriptStep({"step": "shoot", "unit": "sq", "targets": {"plasma": {"target": None}}, "models": {}})
        assert [(s.model, s.weapon) for s in to_command(b, step).selections] == [("sq/1", STD), ("sq/2", STD)]
        step = ScriptStep({"step": "shoot", "unit": "sq", "targets": {"plasma": {"target": None}},
                           "models": {"sq/2": {SUP: {"target": None}}}})
        assert [(s.model, s.weapon) for s in to_command(b, step).selections] == [("sq/1", STD), ("sq/2", SUP)]


def test_04_01_03_the_default_player_fires_the_first_profile_and_fights_with_the_first():
    _, b = battle()
    with b:
        cmd = O.shoot_command(b, b.units["sq"], b.units["target"])
        assert [s.weapon for s in cmd.selections] == [STD]
    _, b = battle(target_at=(10, 11.3))
    with b:
        assert [s.weapon for s in O.default_fight(b, b.units["sq"]).selections] == ["fist - strike"]


def test_04_01_03_the_random_player_picks_a_profile_uniformly():
    # seeded: 2,000 picks of its own stream; each profile 1/2 (sd 0.011), tolerance 0.04
    from sim.players.random_player import RandomPlayer
    sp, b = battle()
    with b:
        player = RandomPlayer(0, b, sp)
        u, t = b.units["sq"], b.units["target"]
        shots = [O.shoot_command(b, u, t, player._pick).selections[0].weapon for _ in range(2000)]
        assert set(shots) == {STD, SUP}
        assert shots.count(SUP) / 2000 == pytest.approx(0.5, abs=0.04)
        assert b.check(O.shoot_command(b, u, t, player._pick)) is None


def test_04_01_03_the_random_player_draws_nothing_for_weapons_with_one_profile():
    # (so every battle without a multi-profile weapon keeps its stream, and its golden)
    from sim.players.random_player import RandomPlayer
    w = {"gun": weapon(24, 1, 3, 4, 0, 1), "claws": weapon("melee", 1, 4, 4, 0, 1)}
    sp = scenario(w, [unit("sq", model((10, 10), ["gun"]))], [unit("target", model((10, 20), ["claws"]))])
    with Battle(sp) as b:
        player = RandomPlayer(0, b, sp)
        before = player.rng.getstate()
        O.shoot_command(b, b.units["sq"], b.units["target"], player._pick)
        assert player.rng.getstate() == before


def test_04_01_03_the_odds_take_the_profile_the_plan_declared():
    _, b = battle()
    with b:
        means = {}
        for name in (STD, SUP):
            assert b.check(Shoot("sq", (Selection("sq/1", name, "target"),))) is None
            means[name] = for_plan(b, b.validated).first[1]
        # the standard profile (D1) cannot destroy a W2 model with its one attack
        assert means[STD] == 0.0 and means[SUP] > 0.1


def test_04_01_03_the_weapon_key_names_no_profile():
    w = weapons()
    w[STD]["weapon"] = SUP
    with pytest.raises(ScenarioError, match="multi-profile weapon name"):
        scenario(w, [unit("sq", model((10, 10), [STD]))], [unit("target", model((10, 20), ["claws"]))])



def test_04_01_03_a_saved_table_keeps_each_profile_s_weapon():
    import tomllib
    from sim.sandbox.save_table import spec_toml
    from sim.scenario.load import parse_scenario
    sp = spec()
    again = parse_scenario(tomllib.loads(spec_toml(sp)), "saved.toml")
    assert again.weapons == sp.weapons and again.weapons[SUP].weapon == "plasma"
    assert again.units[0].models[0].weapons == sp.units[0].models[0].weapons
