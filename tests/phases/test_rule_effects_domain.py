"""Rules that read an army's domain (sim.rules.effects.domain) in small battles with forced dice:
The Shadow of Chaos (+1 to a daemon unit's battle-shock test in its army's domain, a wounded
model healed or BATTLELINE models returned on a pass; -1 to an enemy unit's test there and D3
mortal wounds on a fail), with the domain growing as objectives are held."""

from __future__ import annotations

import esper

from phased import WEAPONS, model, unit
from scen import kill, of_type, wounds
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.components import Wounds
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario

SHADOW = "The Shadow of Chaos"


def _battle(red, blue, dice, red_rules=(SHADOW,), objectives=None):
    """Red (the Defender: its zone y 0-12) holds ``red_rules``; blue's zone is y 32-44."""
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red, "rules": list(red_rules)}, {"name": "B", "units": blue}],
            "mission": {"first": "red", "rounds": 5, "deployed": False}}
    if objectives is not None:
        data["mission"]["objectives"] = objectives
    return Battle(parse_scenario(data, "test.toml"), dice=ForcedDice(dice))


def _hurt(b, mid, left):
    b._enter()
    esper.component_for_entity(b.models[mid], Wounds).remaining = left


def _to(b, rnd, active):
    while (b.turn_state.round, b.turn_state.active) != (rnd, active):
        b.run_command(EndPhase())


def _daemons(y, keywords=("INFANTRY",)):
    return unit("d", model([(26, y), (28, y), (30, y), (32, y)], ["gun"], Ld=7, W=3), keywords=keywords)


def _kill(b, *mids):
    """Destroyed and removed, as casualties are."""
    from sim.world import mutations
    for mid in mids:
        kill(b, mid)
        mutations.remove_casualties([b.models[mid]])


def _half_and_hurt(b):
    _kill(b, "d/1", "d/2")
    _hurt(b, "d/3", 1)


def test_shadow_of_chaos_a_daemon_unit_in_its_zone_adds_1_and_heals_one_model_on_a_pass():
    blue = [unit("b", model((30, 40), ["gun"]))]
    with _battle([_daemons(6)], blue, [3, 3, 5]) as b:  # 6 + 1 = 7 passes Ld 7+; D3 (5) = 3 wounds
        b.run_command(StartBattle())
        _half_and_hurt(b)
        _to(b, 2, 0)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 7 and shock["passed"] is True
        assert wounds(b, "d/3") == 3 and wounds(b, "d/4") == 3  # (healed up to its W: 1 + 2)
        heal = [e for e in of_type(b, "rule effect") if e.get("healed") is not None]
        assert heal[0]["rule"] == SHADOW and heal[0]["healed"] == {"d/3": 2} and heal[0]["returned"] == []
        assert b.dice.remaining == 0


def test_shadow_of_chaos_outside_the_domain_no_modifier_and_no_healing():
    blue = [unit("b", model((30, 40), ["gun"]))]
    with _battle([_daemons(22)], blue, [3, 3]) as b:  # in No Man's Land: 6 fails Ld 7+
        b.run_command(StartBattle())
        _half_and_hurt(b)
        _to(b, 2, 0)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 6 and shock["passed"] is False
        assert wounds(b, "d/3") == 1 and not of_type(b, "mortal wounds")


def test_shadow_of_chaos_no_mans_land_joins_while_red_holds_half_of_its_objectives():
    objectives = [{"name": "west", "at": [12, 22], "kind": "expansion"},
                  {"name": "east", "at": [48, 22], "kind": "expansion"}]
    blue = [unit("b", model((48, 22), ["gun"]))]  # (holds east)
    for holder, passes in ((unit("h", model((12, 22), ["gun"])), True), (unit("h", model((12, 30), ["gun"])), False)):
        dice = [3, 3, 1] if passes else [3, 3]  # 6 (+ 1 with No Man's Land in red's domain) against Ld 7+
        with _battle([_daemons(22), holder], blue, dice, objectives=objectives) as b:
            b.run_command(StartBattle())
            _half_and_hurt(b)
            _to(b, 2, 0)
            held = {k: c.controller for k, c in b.turn_state.control.items()}
            assert held == {"west": 0 if passes else None, "east": 1}
            (shock,) = of_type(b, "battle-shock")
            assert shock["passed"] is passes and wounds(b, "d/3") == (2 if passes else 1)


def test_shadow_of_chaos_battleline_returns_destroyed_models_on_a_pass():
    blue = [unit("b", model((30, 40), ["gun"]))]
    red = [_daemons(6, keywords=("INFANTRY", "BATTLELINE"))]
    with _battle(red, blue, [3, 3, 6]) as b:  # passes; D3 (6) = 3: both destroyed models back
        b.run_command(StartBattle())
        _half_and_hurt(b)
        _to(b, 2, 0)
        back = [e for e in of_type(b, "rule effect") if e.get("returned")]
        assert back[0]["returned"] == ["d/1", "d/2"] and back[0]["rule"] == SHADOW
        assert wounds(b, "d/1") == 3 and wounds(b, "d/3") == 1  # (returned whole; no model healed instead)
        assert b.dice.remaining == 0


def test_shadow_of_chaos_an_enemy_in_the_domain_subtracts_1_and_takes_d3_mortal_wounds_on_a_fail():
    red = [unit("r", model((30, 40), ["gun"]))]  # (red's own units need not be near)
    blue = [unit("e", model([(26, 8), (28, 8), (30, 8), (32, 8)], ["gun"], Ld=7, W=1))]
    with _battle(red, blue, [4, 3, 4]) as b:  # 7 - 1 = 6 fails Ld 7+; D3 (4) = 2 mortal wounds
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        (shock,) = of_type(b, "battle-shock")
        assert shock["unit"] == "e" and shock["roll"] == 6 and shock["passed"] is False
        (mw,) = of_type(b, "mortal wounds")
        assert mw["unit"] == "e" and mw["count"] == 2 and mw["source"] == SHADOW
        assert [e["unit"] for e in of_type(b, "unit destroyed")] == ["e"]
        assert b.dice.remaining == 0


def test_shadow_of_chaos_an_enemy_outside_the_domain_is_untouched():
    red = [unit("r", model((30, 40), ["gun"]))]
    blue = [unit("e", model([(26, 22), (28, 22), (30, 22), (32, 22)], ["gun"], Ld=7, W=1))]
    with _battle(red, blue, [4, 3]) as b:  # 7 passes Ld 7+
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 7 and shock["passed"] is True and not of_type(b, "mortal wounds")
    with _battle(red, [unit("e", model([(26, 22), (28, 22), (30, 22), (32, 22)], ["gun"], Ld=7, W=1))],
                 [3, 3], red_rules=()) as b:  # (no rule: a fail costs nothing)
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        assert of_type(b, "battle-shock")[0]["passed"] is False and not of_type(b, "mortal wounds")


def _enemy(y):
    return [unit("e", model([(26, y), (28, y), (30, y), (32, y)], ["gun"], Ld=7, W=1))]


def test_shadow_of_chaos_an_enemy_near_a_greater_daemon_outside_the_domain_subtracts_1_and_takes_mortal_wounds():
    gun = [unit("g", model((29, 26), ["gun"], base_mm=60), keywords=("MONSTER", "GREAT UNCLEAN ONE"))]
    with _battle(gun, _enemy(22), [4, 3, 2]) as b:  # in No Man's Land, ~2.4" from it: 7 - 1 fails; D3 (2) = 1
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 6 and shock["passed"] is False
        (mw,) = of_type(b, "mortal wounds")
        assert mw["count"] == 1 and mw["source"] == SHADOW
        assert b.dice.remaining == 0
    plain = [unit("g", model((29, 26), ["gun"], base_mm=60), keywords=("MONSTER",))]
    with _battle(plain, _enemy(22), [4, 3]) as b:  # (no greater daemon: 7 passes)
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        assert of_type(b, "battle-shock")[0]["passed"] is True and not of_type(b, "mortal wounds")


def test_shadow_of_chaos_in_the_domain_and_near_a_greater_daemon_subtracts_1_once():
    gun = [unit("g", model((29, 4), ["gun"], base_mm=60), keywords=("MONSTER", "BLOODTHIRSTER"))]
    with _battle(gun, _enemy(8), [5, 3]) as b:  # 8 - 1 = 7 passes Ld 7+ (not 8 - 2)
        b.run_command(StartBattle())
        _kill(b, "e/1", "e/2")
        _to(b, 1, 1)
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] == 7 and shock["passed"] is True and not of_type(b, "mortal wounds")
