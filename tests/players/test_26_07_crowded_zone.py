"""26 steps 7-8 with 20.01: the default player (and the tactician, which declares formations as it
does) holds in strategic reserves the units its deployment zone has no room for, as far as the
reserves cap allows, and sets a crowded zone up largest bases first; an army with room is
declared and deployed as its file plans, without the whole-army search
(sim.players.deployment.room_for, deploy_order)."""

from __future__ import annotations

import tomllib

import pytest
from too_many_tanks import FITS_WITH_ONE_HELD, TEXT

from sim.battle import Battle
from sim.commands import DeclareFormations, StartBattle
from sim.players import deployment as DEP
from sim.players import make_player, play_battle
from sim.rules.movement.solvers import placement as PL
from sim.rules.turn import PreBattleStep
from sim.scenario.load import parse_scenario
from sim.world import queries as W


def _spec(text: str, **zone):
    data = tomllib.loads(text)
    data["mission"]["zones"].update(zone)
    return parse_scenario(data, "crowded.toml")


def _at_formations(b):
    b.run_command(StartBattle())
    assert b.turn_state.pre_battle == PreBattleStep.FORMATIONS and b.turn_state.chooser == 0
    b._enter()


def test_26_07_room_for_holds_in_reserves_the_unit_the_zone_has_no_room_for():
    """Two columns of three 150 mm bases, a 20" x 8" zone with room for one: the solver sets the
    first (by id) up and finds no room for the other, which is held; the cap (half the units)
    allows one."""
    with Battle(_spec(FITS_WITH_ONE_HELD)) as b:
        _at_formations(b)
        cmd = DEP.formations(b, 0)
        assert cmd == DeclareFormations("red", ("tanks",))
        assert b.check(cmd) is None


def test_26_07_a_crowded_army_held_in_part_plays_its_battle():
    """With the default player on both sides the battle that stopped at deployment is played:
    one column deployed, the other in reserves, arriving from round 2 or destroyed after round 3
    (20.03)."""
    spec = _spec(FITS_WITH_ONE_HELD)
    with Battle(spec) as b:
        play_battle(b, spec)
        held = [e for e in b.events if e["type"] == "battle formations" and e["player"] == "red"]
        assert held and held[0]["reserves"] == ["tanks"]
        assert b.turn_state.over


def test_26_07_room_for_stops_at_the_reserves_cap():
    """A 14" x 8" zone has room for neither column: the first the solver tries (by id: "more")
    finds no room and is held, the cap (half the units) keeps the other, which still finds no
    room, and the deployment says so (test_26_08_army_does_not_fit.py)."""
    with Battle(_spec(TEXT)) as b:
        _at_formations(b)
        assert DEP.formations(b, 0) == DeclareFormations("red", ("more",))


def test_26_07_an_army_with_room_is_declared_as_planned_without_the_search(monkeypatch):
    """A 60" x 12" zone: the columns' bases take under CROWDED of it, so the whole-army set-up is
    not searched and nothing is held."""
    def no_search(*a, **k):
        raise AssertionError("the whole army's set-up was searched for an army with room")

    monkeypatch.setattr(PL, "place_army", no_search)
    with Battle(_spec(TEXT, red=[[0, 0], [60, 0], [60, 12], [0, 12]])) as b:
        _at_formations(b)
        assert DEP.formations(b, 0) == DeclareFormations("red")
        b.run_command(DeclareFormations("red"))
        assert DEP.deploy_order(b, 0) == [b.units["tanks"], b.units["more"]]


def test_26_08_deploy_order_takes_the_largest_bases_first_in_a_crowded_zone():
    """A crowded zone (the 20" x 8" one, nothing held): the unit of the larger bases first,
    whatever the unit order; with room, unit order."""
    data = tomllib.loads(FITS_WITH_ONE_HELD)
    data["armies"][0]["units"][0]["models"][0]["base_mm"] = 100  # (the first unit's bases smaller)
    spec = parse_scenario(data, "crowded.toml")
    with Battle(spec) as b:
        _at_formations(b)
        b.run_command(DeclareFormations("red"))
        assert DEP.deploy_order(b, 0) == [b.units["more"], b.units["tanks"]]
    data["mission"]["zones"]["red"] = [[0, 0], [60, 0], [60, 12], [0, 12]]
    with Battle(parse_scenario(data, "roomy.toml")) as b:
        _at_formations(b)
        b.run_command(DeclareFormations("red"))
        assert DEP.deploy_order(b, 0) == [b.units["tanks"], b.units["more"]]
        assert not any(W.in_reserves(u) for u in DEP.deploy_order(b, 0))


@pytest.mark.parametrize("kind", ["default", "tactician"])
def test_26_08_both_players_deploy_a_crowded_zone(kind):
    """The default player and the tactician alike hold one column and deploy the other, and
    the battle is played to its result."""
    spec = _spec(FITS_WITH_ONE_HELD)
    with Battle(spec) as b:
        play_battle(b, spec, players=[make_player(kind, side, b, spec) for side in (0, 1)])
        held = [e["reserves"] for e in b.events if e["type"] == "battle formations" and e["player"] == "red"]
        assert held == [["tanks"]] and b.turn_state.over


def test_20_01_a_fortification_is_never_held_by_the_random_player():
    """The random player's reserves draw reads each unit's keywords before any is on the table
    (its roster's): a FORTIFICATION is not held (20.01), and its formations pass the check."""
    data = tomllib.loads(FITS_WITH_ONE_HELD)
    data["armies"][0]["units"][0]["keywords"] = ["FORTIFICATION", "VEHICLE"]
    with Battle(parse_scenario(data, "fort.toml")) as b:
        _at_formations(b)
        cmd = DEP.formations(b, 0, pick=lambda options: options[0])  # (every draw: True)
        assert "tanks" not in cmd.reserves and b.check(cmd) is None
