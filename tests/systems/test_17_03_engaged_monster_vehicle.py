"""17.03 and 10.06 through the ECS, after the rulebook's worked example: a vehicle engaged with
infantry A uses close-quarters shooting (-1 to hit except [CLOSE-QUARTERS] weapons at A, no
[BLAST] at A); unengaged infantry B may normal-shoot the engaged vehicle at -1 (not [BLAST]);
infantry A, engaged with the vehicle, shoots it close-quarters with CQ weapons only, no -1."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

WEAPONS = {
    "cannon": weapon(36, 1, 3, 8, -1, 2),
    "pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]"),
    "frag": weapon(24, 1, 3, 4, 0, 1, "[BLAST]"),
    "rifle": weapon(24, 1, 3, 4, 0, 1),
}


def spec():
    tank = unit("tank", model((20, 20), ["cannon", "pistol", "frag"], W=12, T=9, base_mm=60),
                keywords=("VEHICLE",))
    far = unit("far", model((40, 20), ["rifle"], W=1))  # unengaged enemy of A and B
    a = unit("A", model(row(19.5, 22.6, 2), ["rifle", "pistol", "frag"], W=1))  # engaged with the tank
    b = unit("B", model(row(20, 30, 2), ["rifle", "pistol", "frag"], W=1))  # unengaged
    return scenario(WEAPONS, [tank, far], [a, b])


def run(sp, unit_id, sels, type=None, dice=None):
    b = Battle(sp, dice=ForcedDice(dice if dice is not None else [1] * 10))
    b.run_command(Shoot(unit_id, tuple(Selection(*s) for s in sels), type))
    return b


def mods(b):
    return [(p["weapons"], p["hit_mod"]) for p in of_type(b, "pool")]


def test_17_03_layout_engagement():
    from sim.world import queries as W
    with Battle(spec()) as b:
        assert [W.model_id(W.unit_models(u)[0]) for u in W.engaged_with(b.units["tank"])] == ["A/1"]
        assert W.engaged_with(b.units["B"]) == []


def test_10_06_vehicle_close_quarters_non_cq_weapon_minus_one_cq_weapon_none():
    with run(spec(), "tank", [("tank/1", "cannon", "A"), ("tank/1", "pistol", "A")]) as b:
        assert of_type(b, "weapons selected")[0]["selections"] == [["tank/1", "cannon", "A", None],
                                                                   ["tank/1", "pistol", "A", None]]
        assert sorted(mods(b)) == [(["cannon"], -1), (["pistol"], 0)]


def test_10_06_vehicle_close_quarters_at_an_unengaged_target_minus_one():
    with run(spec(), "tank", [("tank/1", "cannon", "B")], type="close-quarters") as b:
        assert mods(b) == [(["cannon"], -1)]


def test_10_06_vehicle_cannot_fire_blast_at_unit_engaged_with_it():
    with Battle(spec()) as b:
        with pytest.raises(Refusal, match="BLAST"):
            b.submit(Shoot("tank", (Selection("tank/1", "frag", "A"),)))


def test_17_03_unengaged_infantry_normal_shoots_engaged_vehicle_at_minus_one():
    with run(spec(), "B", [("B/1", "rifle", "tank"), ("B/2", "pistol", "tank")]) as b:
        assert mods(b) == [(["pistol", "rifle"], -1)]  # identical after modifiers: one pool
        assert of_type(b, "pool")[0]["dice"] == 2


def test_17_03_no_blast_at_an_engaged_vehicle():
    with Battle(spec()) as b:
        with pytest.raises(Refusal, match="17.03"):
            b.submit(Shoot("B", (Selection("B/1", "frag", "tank"),)))


def test_17_03_engaged_infantry_close_quarters_pistols_at_the_vehicle_no_penalty():
    with run(spec(), "A", [("A/1", "pistol", "tank"), ("A/2", "pistol", "tank")]) as b:
        assert mods(b) == [(["pistol"], 0)]
        assert [e for e in b.events if "eligible" in e][0]["eligible"]["close-quarters"] is True


def test_17_03_engaged_infantry_cannot_fire_rifles_at_the_vehicle():
    with Battle(spec()) as b:
        with pytest.raises(Refusal, match="10.06"):
            b.submit(Shoot("A", (Selection("A/1", "rifle", "tank"),)))


def test_17_03_01_being_engaged_does_not_allow_normal_shooting():
    with Battle(spec()) as b:
        with pytest.raises(Refusal, match="normal"):
            b.submit(Shoot("A", (Selection("A/1", "pistol", "tank"),), "normal"))


def test_24_07_monster_vehicle_fires_pistol_and_cannon_under_normal_shooting():
    tank = unit("tank", model((20, 20), ["cannon", "pistol"], W=12, T=9, base_mm=60), keywords=("VEHICLE",))
    sp = scenario(WEAPONS, [tank], [unit("B", model(row(20, 28, 2), ["rifle"], W=1))])
    with run(sp, "tank", [("tank/1", "cannon", "B"), ("tank/1", "pistol", "B")]) as b:
        assert sorted(mods(b)) == [(["cannon"], 0), (["pistol"], 0)]
