"""15.10 Smokescreen in a battle: at the start of the opponent's Shooting phase the player may
pick one SMOKE unit (1 CP); until the end of that phase attacks that target it get the benefit
of cover (13.08: -1 BS, never against [IGNORES COVER]); within the 15.01 limits; the default
policy declines (Part A ruling 25). (Its other half, units hidden by the SMOKE unit's models,
cannot arise: models never block line of sight here, Part A ruling 2.)"""

from __future__ import annotations

from phased import mission_scenario, model, unit, weapon
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.rules.dice import ForcedDice
from sim.world import queries as W

COVER = ["benefit of cover (13.08)", -1]
WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "cover gun": weapon(24, 1, 3, 4, 0, 1, "[IGNORES COVER]"),
           "blade": weapon("melee", 2, 3, 4, 0, 1)}


def _spec(smoke=("SMOKE",)):
    red = [unit("r1", model((20, 5), ["gun", "cover gun"]))]
    blue = [unit("b1", model((20, 20), ["blade"]), keywords=("INFANTRY", *smoke)),
            unit("b2", model((30, 20), ["blade"]))]
    return mission_scenario(red, blue, weapons=WEAPONS)


def _smoke(req):
    return "b1" if req.kind == "stratagem" and req.key == "Smokescreen" else req.default


def _battle(spec, cp=1, answer=_smoke, setup=None):
    b = Battle(spec, dice=ForcedDice([1] * 4))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, cp]
    if setup:
        b._enter()
        setup(b)
    b.run_command(EndPhase(), answer)  # (the end of red's Movement phase: the Shooting phase starts)
    return b


def _pool_mods(b, weapon_name, target):
    b.run_command(Shoot("r1", (Selection("r1/1", weapon_name, target),)))
    return of_type(b, "pool")[-1]["modifiers"]


def test_15_10_attacks_on_the_smoke_unit_get_the_benefit_of_cover():
    with _battle(_spec()) as b:
        (used,) = of_type(b, "stratagem")
        assert (used["stratagem"], used["target"], used["cp"]) == ("Smokescreen", "b1", 1) and b.turn_state.cp[1] == 0
        assert _pool_mods(b, "gun", "b1") == [COVER]
        assert of_type(b, "pool")[-1]["skill"] == 4  # BS 3+ worsened by 1


def test_15_10_not_other_units_nor_ignores_cover_nor_the_next_phase():
    with _battle(_spec()) as b:
        assert _pool_mods(b, "gun", "b2") == []  # (another unit)
    with _battle(_spec()) as b:
        assert _pool_mods(b, "cover gun", "b1") == []  # 24.18 removes every source of cover
    with _battle(_spec()) as b:
        b.run_command(EndPhase())  # the Shooting phase ends
        b._enter()
        assert b.turn_state.smoke == []
        assert not b.visibility.benefit_of_cover("r1/1", b.units["b1"], W.weapons_of(b.models["r1/1"])[0], "normal")


def test_15_10_the_default_declines_and_then_there_is_no_cover():
    with _battle(_spec(), answer=None) as b:
        (d,) = [e for e in of_type(b, "decision") if e["key"] == "Smokescreen"]
        assert d["answer"] == "decline" and d["player"] == 1 and b.turn_state.cp[1] == 1
        assert _pool_mods(b, "gun", "b1") == []


def test_15_10_only_a_smoke_unit_with_the_cp_and_not_battle_shocked():
    def asked(b):
        return [e for e in of_type(b, "decision") if e["key"] == "Smokescreen"]
    with _battle(_spec(smoke=())) as b:
        assert asked(b) == []
    with _battle(_spec(), cp=0) as b:
        assert asked(b) == []
    with _battle(_spec(), setup=lambda b: setattr(W.unit_state(b.units["b1"]), "battle_shocked", True)) as b:
        assert asked(b) == []
    with _battle(_spec()) as b:
        assert len(asked(b)) == 1  # (and only at the start of the opponent's Shooting phase)
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        assert len(asked(b)) == 1
