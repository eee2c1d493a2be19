"""Unit abilities that change attacks against (or by) a unit, through the ECS with forced dice:
24.12 Feel No Pain (per wound, mortal wounds included), 24.33 Stealth (benefit of cover: -1 BS,
ranged only), 24.18 [IGNORES COVER] (removes cover from every source), 24.24 Lone Operative
(visible and targetable only within 12" or X", not when attached to a non-Lone Operative unit),
24.39 Damaged X (-1 to hit at X or fewer wounds), 24.08 Deadly Demise X (a 6 when destroyed: X
mortal wounds to every unit within 6", after the attacking unit's attacks), 24.13 Fights First."""

from __future__ import annotations

import esper
import pytest

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.components import Wounds
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario

WEAPONS = {
    "rifle": weapon(36, 1, 3, 4, 0, 1),
    "cannon": weapon(36, 1, 3, 8, -2, 3),
    "flare rifle": weapon(36, 1, 3, 4, 0, 1, "[IGNORES COVER]"),
    "tank flare": weapon(36, 1, 3, 4, 0, 1, "[IGNORES COVER: VEHICLE]"),
    "bomb": weapon(36, 1, 3, 4, 0, 2, "[DEVASTATING WOUNDS]"),
    "mortar": weapon(48, 1, 3, 4, 0, 1, "[INDIRECT FIRE, IGNORES COVER]"),
    "knife": weapon("melee", 1, 3, 4, 0, 1),
}
COVER = ["benefit of cover (13.08)", -1]
DAMAGED = ["Damaged (24.39)", -1]


def spec(target_abilities=None, target_at=(10, 30), n=1, W_=5, kw=("INFANTRY",), shooter_abilities=None,
         terrain=None, extra_units=()):
    sh_kw = {"abilities": shooter_abilities} if shooter_abilities else {}
    sh = unit("sh", model((10, 10), list(WEAPONS), W=10), **sh_kw)
    t_kw = {"abilities": target_abilities} if target_abilities else {}
    t = unit("t", model(row(*target_at, n), ["knife"], W=W_, Sv=7), keywords=kw, **t_kw)
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [sh]}, {"name": "B", "units": [t, *extra_units]}]}
    if terrain:
        data["terrain"] = terrain
    return parse_scenario(data, "test.toml")


def shoot(sp, name, rolls, unit_="sh", target="t", type_=None):
    b = Battle(sp, dice=ForcedDice(rolls))
    try:
        b.run_command(Shoot(unit_, (Selection(f"{unit_}/1", name, target),), type_))
        assert b.dice.remaining == 0
    except BaseException:
        b.close()
        raise
    return b


# --- Feel No Pain --------------------------------------------------------------------------------


def test_24_12_fnp_rolled_per_wound_of_normal_damage():
    """D3 cannon, FNP 5+: FNP rolls [5, 4, 6] -> 1 wound lost."""
    with shoot(spec("Feel No Pain 5+"), "cannon", [3, 2, 1, 5, 4, 6]) as b:
        step = of_type(b, "damage")[0]["steps"][0]
        assert (step["damage"], step["fnp"], step["lost"]) == (3, [5, 4, 6], 1)
        assert wounds(b, "t/1") == 4


def test_24_12_fnp_rolled_per_devastating_mortal_wound():
    with shoot(spec("Feel No Pain 4+"), "bomb", [3, 6, 4, 3]) as b:  # 2 MW: FNP [4, 3] -> 1 lost
        step = of_type(b, "damage")[0]["steps"][0]
        assert (step["mortal"], step["fnp"], step["lost"]) == (2, [4, 3], 1)


def test_24_12_fnp_against_deadly_demise_mortal_wounds():
    """A Deadly Demise 2 tank dies next to a FNP 5+ squad: each mortal wound gets its own FNP roll."""
    tank = unit("tank", model((10, 20), ["knife"], W=3, Sv=7, base_mm=60), keywords=("VEHICLE",),
                abilities="Deadly Demise 2")
    sp = spec("Feel No Pain 5+", target_at=(14, 20), extra_units=[tank])
    # cannon at the tank: hit 3, wound 2 (S8 vs T4: 2+), save 1, D3 kills it; demise 6; FNP [5, 1]
    with shoot(sp, "cannon", [3, 2, 1, 6, 5, 1], target="tank") as b:
        (mw,) = of_type(b, "mortal wounds")
        assert [(s["model"], s["fnp"], s["lost"]) for s in mw["steps"]] == [("t/1", [5], 0), ("t/1", [1], 1)]
        assert wounds(b, "t/1") == 4


# --- Stealth / IGNORES COVER -----------------------------------------------------------------------


def test_24_33_stealth_gives_benefit_of_cover_minus_1_bs():
    with shoot(spec("Stealth"), "rifle", [3]) as b:  # BS 3+ -> 4+: a 3 misses
        (pool,) = of_type(b, "pool")
        assert pool["skill"] == 4 and COVER in pool["modifiers"]
        assert of_type(b, "hit rolls")[0]["hits"] == 0


def test_24_33_stealth_needs_every_model():
    u = unit("t", model((10, 30), ["knife"], W=5, Sv=7, ids=["t/1"]),
             model((11.5, 30), ["knife"], W=5, Sv=7, ids=["t/2"]))
    u["models"][0]["abilities"] = "Stealth"
    sh = unit("sh", model((10, 10), ["rifle"]))
    with Battle(scenario(WEAPONS, [sh], [u]), dice=ForcedDice([3, 1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        assert of_type(b, "pool")[0]["skill"] == 3


def test_24_33_stealth_does_not_affect_melee():
    a = unit("a", model((10, 10), ["knife"]))
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7), abilities="Stealth")
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice([3, 1])) as b:
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))
        assert of_type(b, "pool")[0]["skill"] == 3 and of_type(b, "hit rolls")[0]["hits"] == 1


def test_24_18_ignores_cover_removes_stealth():
    with shoot(spec("Stealth"), "flare rifle", [3, 1]) as b:
        (pool,) = of_type(b, "pool")
        assert pool["skill"] == 3 and COVER not in pool["modifiers"]


def test_24_18_ignores_cover_removes_terrain_cover():
    """INFANTRY inside a crater field (13.08 a): cover against the rifle, none against the flare rifle."""
    crater = [{"piece": "crater field", "at": [10, 30]}]
    with shoot(spec(terrain=crater), "rifle", [3]) as b:
        assert of_type(b, "pool")[0]["skill"] == 4
    with shoot(spec(terrain=crater), "flare rifle", [3, 1]) as b:
        assert of_type(b, "pool")[0]["skill"] == 3


def test_24_18_ignores_cover_removes_indirect_fire_cover():
    with shoot(spec(), "mortar", [4, 1], type_="indirect") as b:
        assert of_type(b, "pool")[0]["skill"] == 3  # no -1 BS from 10.07


def test_24_01_ignores_cover_conditional_only_against_the_keyword():
    with shoot(spec("Stealth", kw=("VEHICLE",)), "tank flare", [3, 1]) as b:
        assert of_type(b, "pool")[0]["skill"] == 3
    with shoot(spec("Stealth", kw=("INFANTRY",)), "tank flare", [2]) as b:  # 2 misses either way
        assert of_type(b, "pool")[0]["skill"] == 4


# --- Lone Operative ----------------------------------------------------------------------------------


def test_24_24_lone_operative_not_targetable_beyond_12():
    with Battle(spec("Lone Operative", target_at=(10, 24)), dice=ForcedDice([])) as b:  # ~12.7" edge to edge
        with pytest.raises(Refusal, match="visible"):
            b.submit(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))


def test_24_24_lone_operative_targetable_within_12():
    with shoot(spec("Lone Operative", target_at=(10, 22)), "rifle", [1]) as b:  # ~10.7"
        assert of_type(b, "pool")[0]["dice"] == 1


def test_24_24_lone_operative_x_inches():
    with shoot(spec('Lone Operative 18"', target_at=(10, 27)), "rifle", [1]) as b:  # ~15.7"
        assert of_type(b, "pool")[0]["dice"] == 1
    with Battle(spec('Lone Operative 18"', target_at=(10, 31)), dice=ForcedDice([])) as b:  # ~19.7"
        with pytest.raises(Refusal):
            b.submit(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))


def test_24_24_lone_operative_attached_to_a_non_lone_operative_bodyguard_is_visible():
    u = unit("t", model((10, 30), ["knife"], W=4, Sv=7, keywords=("CHARACTER",), role="leader", ids=["boss"]),
             model((11.5, 30), ["knife"], W=1, Sv=7, ids=["g1"]))
    u["models"][0]["abilities"] = "Lone Operative"
    sh = unit("sh", model((10, 10), ["rifle"]))
    with Battle(scenario(WEAPONS, [sh], [u]), dice=ForcedDice([1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        assert of_type(b, "pool")[0]["dice"] == 1


def test_24_24_lone_operative_and_indirect_fire_beyond_12():
    with Battle(spec("Lone Operative", target_at=(10, 30)), dice=ForcedDice([])) as b:
        with pytest.raises(Refusal):
            b.submit(Shoot("sh", (Selection("sh/1", "mortar", "t"),), "indirect"))


# --- Damaged -------------------------------------------------------------------------------------------


def damaged_shooter(left):
    sp = spec(shooter_abilities="Damaged 4")

    def run(rolls):
        b = Battle(sp, dice=ForcedDice(rolls))
        b._enter()
        esper.component_for_entity(b.models["sh/1"], Wounds).remaining = left
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        return b
    return run


def test_24_39_damaged_minus_one_to_hit_at_x_or_fewer_wounds():
    with damaged_shooter(4)([3]) as b:  # 3 - 1 = 2 < 3: miss
        (pool,) = of_type(b, "pool")
        assert DAMAGED in pool["modifiers"] and pool["hit_mod"] == -1
        assert of_type(b, "hit rolls")[0]["hits"] == 0


def test_24_39_damaged_nothing_above_x_wounds():
    with damaged_shooter(5)([3, 1]) as b:
        assert DAMAGED not in of_type(b, "pool")[0]["modifiers"]


def test_24_39_damaged_applies_to_melee_too_and_a_6_still_hits():
    a = unit("a", model((10, 10), ["knife"], W=10), abilities="Damaged: 1-4 wounds remaining")
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7))
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice([6, 1])) as b:
        b._enter()
        esper.component_for_entity(b.models["a/1"], Wounds).remaining = 1
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))
        assert DAMAGED in of_type(b, "pool")[0]["modifiers"]
        assert of_type(b, "hit rolls")[0]["criticals"] == 1


# --- Deadly Demise ---------------------------------------------------------------------------------------


def demise_spec(x="2"):
    tank = unit("tank", model((10, 20), ["knife"], W=3, Sv=7, base_mm=60), keywords=("VEHICLE",),
                abilities=f"Deadly Demise {x}")
    near = unit("near", model((14, 20), ["knife"], W=5, Sv=7))  # ~2.4" from the tank
    far = unit("far", model((20, 20), ["knife"], W=5, Sv=7))  # ~8.4"
    sh = unit("sh", model((10, 10), ["cannon", "rifle"], W=10))
    return scenario(WEAPONS, [sh], [tank, near, far])


def test_24_08_deadly_demise_on_a_6_mortal_wounds_within_6():
    with shoot(demise_spec(), "cannon", [3, 2, 1, 6], target="tank") as b:
        (dd,) = of_type(b, "deadly demise")
        assert dd["roll"] == 6 and dd["units"] == ["near"]
        assert (wounds(b, "near/1"), wounds(b, "far/1"), wounds(b, "sh/1")) == (3, 5, 10)


def test_24_08_deadly_demise_nothing_on_1_to_5():
    with shoot(demise_spec(), "cannon", [3, 2, 1, 5], target="tank") as b:
        (dd,) = of_type(b, "deadly demise")
        assert dd["units"] == [] and not of_type(b, "mortal wounds")


def test_24_08_deadly_demise_random_x_rolled_per_unit():
    """Deadly Demise D3 with two units within 6": a separate D3 for each ([6 -> 3], [1 -> 1])."""
    tank = unit("tank", model((10, 20), ["knife"], W=3, Sv=7, base_mm=60), keywords=("VEHICLE",),
                abilities="Deadly Demise D3")
    a1 = unit("n1", model((14, 20), ["knife"], W=5, Sv=7))
    a2 = unit("n2", model((6, 20), ["knife"], W=5, Sv=7))
    sh = unit("sh", model((10, 10), ["cannon"], W=10))
    with shoot(scenario(WEAPONS, [sh], [tank, a1, a2]), "cannon", [3, 2, 1, 6, 6, 1], target="tank") as b:
        assert [(m["unit"], m["count"]) for m in of_type(b, "mortal wounds")] == [("n1", 3), ("n2", 1)]


def test_24_08_deadly_demise_after_the_attacking_units_attacks():
    """The demise roll comes after every pool of the attacking unit (the rifle pool resolves after
    the cannon pool that killed the tank)."""
    sp = demise_spec()
    with Battle(sp, dice=ForcedDice([3, 2, 1, 1, 6])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "cannon", "tank"), Selection("sh/1", "rifle", "near"))))
        types = [e["type"] for e in b.events if e["type"] in ("hit rolls", "deadly demise", "attacks resolved")]
        assert types == ["hit rolls", "hit rolls", "deadly demise", "attacks resolved"]


def test_24_08_deadly_demise_can_chain():
    t1 = unit("t1", model((10, 20), ["knife"], W=3, Sv=7, base_mm=60), keywords=("VEHICLE",), abilities="Deadly Demise 3")
    t2 = unit("t2", model((14, 20), ["knife"], W=3, Sv=7, base_mm=60), keywords=("VEHICLE",), abilities="Deadly Demise 3")
    sh = unit("sh", model((10, 10), ["cannon"], W=10))
    with shoot(scenario(WEAPONS, [sh], [t1, t2]), "cannon", [3, 2, 1, 6, 6], target="t1") as b:
        assert [d["model"] for d in of_type(b, "deadly demise")] == ["t1/1", "t2/1"]
        # t1's 3 mortal wounds destroy t2 (W3), whose own Deadly Demise then resolves too
        assert wounds(b, "t2/1") == 0


# --- Fights First ---------------------------------------------------------------------------------------


def test_24_13_fights_first_unit_fights_before_others():
    a = unit("a", model((10, 10), ["knife"]))
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7), abilities="Fights First")
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice([1, 1])) as b:
        with pytest.raises(Refusal, match="Fights First"):
            b.submit(Fight("a", (Selection("a/1", "knife", "t"),)))
        b.run_command(Fight("t", (Selection("t/1", "knife", "a"),)))
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))


def test_24_24_01_attached_lone_operative_switches_back_on_when_only_lone_operatives_remain():
    """24.24.01: a Lone Operative leader in a bodyguard without the ability gets no benefit;
    once the bodyguard is shot dead (and removed after the attacks) only a Lone Operative is
    left, and the ability applies again: 20" away it can no longer be seen."""
    from sim.battle import Battle
    from sim.commands import EndTurn, Selection, Shoot
    from sim.rules.dice import ForcedDice
    from sim.scenario.load import parse_scenario
    data = {
        "battle": {"name": "lo", "seed": 1},
        "weapons": {"rifle": {"range": 36, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
        "armies": [
            {"name": "A", "units": [{"id": "sh", "keywords": ["INFANTRY"], "models": [
                {"M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1, "weapons": ["rifle"], "at": [[10, 5]]}]}]},
            {"name": "B", "units": [{"id": "u", "keywords": ["INFANTRY"], "models": [
                {"M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "weapons": ["rifle"], "at": [[10, 25]]},
                {"id": "agent", "role": "leader", "M": 6, "T": 4, "Sv": 3, "W": 4, "Ld": 6, "OC": 1,
                 "keywords": ["CHARACTER"], "abilities": "Lone Operative", "weapons": ["rifle"],
                 "at": [[12, 25]]}]}]},
        ],
    }
    with Battle(parse_scenario(data, "lo.toml"), dice=ForcedDice([6, 6, 1])) as b:
        assert b.visibility.model_visible("sh/1", "agent")  # attached to a non-LO bodyguard
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "u"),)))  # hit 6, wound 6, save 1
        assert b.events[-1]["removed"] == ["u/1"]
        b.run_command(EndTurn())
        assert not b.visibility.model_visible("sh/1", "agent")  # only a Lone Operative is left
