"""Illegal Shoot/Fight commands are refused with a reason, and nothing changes (04.01, 04.02,
10.04-10.07, 17.03, 24.07, 09.07): same state hash, no dice rolled, only a 'refused' event."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

WEAPONS = {
    "rifle": weapon(24, 1, 3, 4, 0, 1),
    "pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]"),
    "knife": weapon("melee", 2, 3, 4, 0, 1),
    "frag": weapon(24, 1, 3, 4, 0, 1, "[BLAST]"),
    "autocannon": weapon(36, 2, 3, 8, -1, 2),
    "bolter": weapon(24, 2, 3, 4, 0, 1, "[ASSAULT]"),
}


def spec(shooter_kw=None, shooter_pos=(10, 10), target_pos=(10, 20), brawler_pos=None,
         target_keywords=("INFANTRY",), shooter_keywords=("INFANTRY",)):
    shooter = unit("shooters", model(row(*shooter_pos, 2), ["rifle", "pistol", "knife", "frag", "bolter"]),
                   keywords=shooter_keywords, **(shooter_kw or {}))
    army0 = [shooter]
    if brawler_pos is not None:  # a friendly unit engaged with the target
        army0.append(unit("brawlers", model(brawler_pos, ["knife"])))
    target = unit("target", model(row(*target_pos, 2), ["knife"], base_mm=32), keywords=target_keywords)
    return scenario(WEAPONS, army0, [target])


def refused(sp, cmd, match):
    with Battle(sp, dice=ForcedDice([])) as b:
        h = b.state_hash()
        with pytest.raises(Refusal, match=match) as e:
            b.submit(cmd)
        assert b.state_hash() == h
        assert [ev["type"] for ev in b.events] == ["refused"]
        assert b.events[0]["reason"] == str(e.value)
        assert b.busy is False and b.pending is None
        assert b.dice.log == []
        return str(e.value)


def S(*sels, type=None, unit="shooters"):
    return Shoot(unit, tuple(Selection(*s) for s in sels), type)


def test_24_07_pistol_and_rifle_on_one_model_refused():
    reason = refused(spec(), S(("shooters/1", "rifle", "target"), ("shooters/1", "pistol", "target")), "24.07")
    assert "shooters/1" in reason


def test_24_07_pistol_on_one_model_rifle_on_another_accepted():
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(S(("shooters/1", "pistol", "target"), ("shooters/2", "rifle", "target")))
        assert [p["dice"] for p in of_type(b, "pool")] == [2]  # identical profiles pool


def test_04_02_engaged_target_without_close_quarters_refused():
    # the target is engaged with the friendly brawlers, not with the shooters
    sp = spec(target_pos=(10, 20), brawler_pos=(10, 18.5))
    refused(sp, S(("shooters/1", "rifle", "target")), "engaged")


def test_10_06_advanced_unit_asking_close_quarters_refused():
    sp = spec(shooter_kw={"advanced": True}, shooter_pos=(10, 10), target_pos=(10, 11.6))
    refused(sp, S(("shooters/1", "pistol", "target"), type="close-quarters"), "advanced")


def test_04_01_melee_weapon_cannot_shoot():
    refused(spec(), S(("shooters/1", "knife", "target")), "melee")


def test_09_07_fell_back_unit_cannot_shoot():
    refused(spec(shooter_kw={"fell_back": True}), S(("shooters/1", "rifle", "target")), "fell back")


def test_10_06_non_mv_close_quarters_only_at_engaged_units():
    sp = spec(target_pos=(10, 11.6))
    # engaged, CQ shooting: the rifle is not CLOSE-QUARTERS
    refused(sp, S(("shooters/1", "rifle", "target"), type="close-quarters"), "10.06")


def test_10_06_blast_never_at_engaged_unit():
    sp = spec(target_pos=(10, 11.6))
    refused(sp, S(("shooters/1", "frag", "target")), "10.06|BLAST")


def test_10_04_engaged_unit_cannot_use_normal_shooting():
    sp = spec(target_pos=(10, 11.6))
    refused(sp, S(("shooters/1", "pistol", "target"), type="normal"), "normal")


def test_10_05_assault_shooting_needs_an_advance():
    refused(spec(), S(("shooters/1", "bolter", "target"), type="assault"), "advance")


def test_10_05_advanced_unit_fires_only_assault_weapons():
    sp = spec(shooter_kw={"advanced": True})
    refused(sp, S(("shooters/1", "rifle", "target")), "10.05")
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        b.run_command(S(("shooters/1", "bolter", "target")))
        assert [p["weapons"] for p in of_type(b, "pool")] == [["bolter"]]


def test_10_02_shooting_type_event_keeps_its_type_tag():
    """The ShootingTypeSystem's event must still be a 'shooting type' event that names the
    chosen type (an event field called 'type' would overwrite the event's own tag)."""
    sp = spec(shooter_kw={"advanced": True})
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        b.run_command(S(("shooters/1", "bolter", "target")))
        evs = [e for e in b.events if "eligible" in e]
        assert len(evs) == 1
        assert evs[0]["type"] == "shooting type"
        assert "assault" in evs[0].values()


def test_10_06_engaged_unit_without_cq_weapon_or_mv_cannot_shoot():
    ws = dict(WEAPONS)
    sp = scenario(ws, [unit("shooters", model((10, 10), ["rifle"]))], [unit("target", model((10, 11.6), ["knife"]))])
    refused(sp, S(("shooters/1", "rifle", "target")), "no shooting type")


def test_04_02_friendly_target_refused():
    sp = spec(brawler_pos=(30, 30))
    refused(sp, S(("shooters/1", "rifle", "brawlers")), "enemy")


def test_04_02_out_of_range_refused():
    sp = spec(target_pos=(10, 40))  # pistol range 12"
    refused(sp, S(("shooters/1", "pistol", "target")), "range")


def test_10_02_unit_selected_twice_refused():
    with Battle(spec(), dice=ForcedDice([1])) as b:
        b.run_command(S(("shooters/1", "rifle", "target")))
        h = b.state_hash()
        with pytest.raises(Refusal, match="already"):
            b.submit(S(("shooters/1", "rifle", "target")))
        assert b.state_hash() == h


def test_12_04_fight_when_not_engaged_refused():
    refused(spec(), Fight("shooters", (Selection("shooters/1", "knife", "target"),)), "12.04")


def test_04_01_fight_with_two_melee_weapons_or_ranged_weapon_refused():
    ws = dict(WEAPONS, axe=weapon("melee", 1, 3, 5, -1, 1))
    sp = scenario(ws, [unit("a", model((10, 10), ["knife", "axe", "rifle"]))],
                  [unit("t", model((10, 11.6), ["knife"]))])
    refused(sp, Fight("a", (Selection("a/1", "knife", "t"), Selection("a/1", "axe", "t"))), "exactly one")
    refused(sp, Fight("a", (Selection("a/1", "rifle", "t"),)), "ranged")


def test_commands_refused_while_an_activation_waits_on_a_decision():
    sp = scenario(WEAPONS, [unit("shooters", model(row(10, 10, 2), ["rifle"]))],
                  [unit("target", model((10, 20), ["knife"], W=2), model((11.5, 20), ["knife"], W=1))])
    with Battle(sp, dice=ForcedDice([4, 4, 4, 4, 1, 1])) as b:
        b.submit(S(("shooters/1", "rifle", "target"), ("shooters/2", "rifle", "target")))
        b.step_until_blocked()
        assert b.pending is not None and b.pending.kind == "allocation_order"
        h = b.state_hash()
        with pytest.raises(Refusal, match="activation"):
            b.submit(S(("shooters/1", "rifle", "target")))
        assert b.state_hash() == h


@pytest.mark.parametrize("kw,weapons,qualifies", [
    ({}, ["rifle"], True),
    ({"advanced": True}, ["rifle"], False),        # 10.05: no [ASSAULT] weapon
    ({"advanced": True}, ["rifle", "bolter"], True),
    ({"fell_back": True}, ["rifle"], False),
])
def test_10_02_a_unit_that_qualifies_for_no_shooting_type_is_refused_before_its_targets(kw, weapons, qualifies):
    """10.02 step 2 sim.players.options.qualifies_to_shoot (what the random player asks before
    building a Shoot) is the plan's own verdict: False exactly when a Shoot asking no type is
    refused because the unit qualifies for no shooting type."""
    from sim.players import options as O
    sp = scenario(WEAPONS, [unit("shooters", model(row(10, 10, 2), weapons), **kw)],
                  [unit("target", model(row(10, 20, 2), ["knife"]))])
    with Battle(sp) as b:
        b._enter()
        assert O.qualifies_to_shoot(b.units["shooters"]) is qualifies
        why = b.check(S(*[(f"shooters/{k}", weapons[0], "target") for k in (1, 2)]))
        assert (why is not None and "qualifies for no shooting type" in why) is not qualifies
