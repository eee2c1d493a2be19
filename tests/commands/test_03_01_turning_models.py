"""03.01 Turning models in a battle: a move's (and a set-up's) ``face`` turns bases that are
not round about their centres; the check refuses a turn whose sweep crosses what the base may
not cross, and names the rule; the world, the log, the state hash, a fork and the sight all
read the turned base; facings are put on their grid and read back from a log unchanged."""

from __future__ import annotations

import json
import math

import esper
import pytest

from phased import mission_scenario
from scen import model, of_type, scenario, unit
from sim.battle import Battle
from sim.commands import Deploy, EndPhase, Ingress, Move, ScoutMove, StartBattle, from_dict, to_dict
from sim.components import Position
from sim.errors import Refusal
from sim.world import queries as W

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}


def tank(at, **kw):
    m = model([at], ["gun"], M=10, **kw)
    m.pop("base_mm")
    m.update(base=[150, 60], shape="oval")
    return m


def _spec(at=(20.0, 10.0), enemy=(40.0, 40.0)):
    return scenario(GUN, [unit("r1", tank(at), keywords=["VEHICLE"]), unit("r2", model((5, 30), ["gun"]))],
                    [unit("b1", model(enemy, ["gun"]))])


def _facing(b, mid):
    b._enter()
    return W.footprint(b.models[mid]).angle


def test_03_01_a_move_turns_a_hull_and_the_world_the_log_and_the_hash_read_it():
    with Battle(_spec()) as b, Battle(_spec()) as plain:
        b.run_command(Move("r1", (("r1/1", 20, 16),), face=(("r1/1", 90),)))
        plain.run_command(Move("r1", (("r1/1", 20, 16),)))
        assert _facing(b, "r1/1") == 90.0 and _facing(plain, "r1/1") == 0.0
        (e,) = of_type(b, "moved")
        assert e["face"] == [["r1/1", 90.0]]
        assert "face" not in of_type(plain, "moved")[0]          # (a move that turns nothing says nothing)
        assert b.state_hash() != plain.state_hash()
        # a fork has the facing (its own copy)
        f = b.fork()
        f._enter()
        assert W.footprint(f.models["r1/1"]).angle == 90.0
        mine = esper.component_for_entity(f.models["r1/1"], Position)
        b._enter()
        assert mine is not esper.component_for_entity(b.models["r1/1"], Position)
        f.close()


@pytest.mark.parametrize("face,match", [
    ((("r2/1", 90),), r"r2/1 has a round base: it has no facing to turn \(03.01\)"),
    ((("b1/1", 90),), r"no model 'b1/1' in unit r1 to turn"),
    ((("r1/1", 90), ("r1/1", 45)), r"r1/1 is turned twice"),
    ((("r1/1", math.nan),), r"a facing is a finite number of degrees"),
])
def test_03_01_what_a_turn_may_name(face, match):
    with Battle(_spec()) as b:
        unit_id = "r2" if face[0][0] == "r2/1" else "r1"
        at = (5, 31) if unit_id == "r2" else (20, 12)
        with pytest.raises(Refusal, match=match):
            b.submit(Move(unit_id, ((f"{unit_id}/1", *at),), face=face))


def test_03_01_a_model_turned_must_be_placed_in_the_move():
    spec = scenario(GUN, [unit("r1", tank((20, 10)), tank((20, 13)), keywords=["VEHICLE"])],
                    [unit("b1", model((40, 40), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1/2 is turned but not placed: give its end position in 'to'"):
            b.submit(Move("r1", (("r1/1", 20, 12),), face=(("r1/2", 90),)))
        b.run_command(Move("r1", (("r1/1", 20, 8), ("r1/2", 20, 13)), face=(("r1/2", 90),)))
        assert _facing(b, "r1/2") == 90.0 and _facing(b, "r1/1") == 0.0


def test_03_01_a_turn_whose_sweep_crosses_the_edge_is_refused_and_the_same_move_turned_later_is_not():
    with Battle(_spec(at=(20.0, 2.0))) as b:
        with pytest.raises(Refusal, match=r"r1/1: turning to 90 degrees, its base would go 0\.9\d\" over the "
                                          r"battlefield edge .*\(03\.01\)"):
            b.submit(Move("r1", (("r1/1", 20, 2),), face=(("r1/1", 90),)))
        assert b.check(Move("r1", (("r1/1", 20, 6),), face=(("r1/1", 90),))) is None


def test_03_01_facings_are_on_their_grid_and_a_command_reads_back_from_its_log_unchanged():
    c = Move("r1", (("r1/1", 20, 16),), face=(("r1/1", 450.00000049),))
    assert c.face == (("r1/1", 90.0),)
    assert Move("r1", (("r1/1", 20, 16),), face=(("r1/1", -0.0),)).face == (("r1/1", 0.0),)
    assert Move("r1", (("r1/1", 20, 16),), face=(("r1/1", 359.9999999),)).face == (("r1/1", 0.0),)
    text = json.dumps(to_dict(c))
    assert '"face": [["r1/1", 90.0]]' in text
    assert from_dict(json.loads(text)) == c
    assert "face" not in to_dict(Move("r1", (("r1/1", 20, 16),)))
    for cls in (Deploy, Ingress, ScoutMove):
        assert cls("r1", (("r1/1", 1, 2),), face=(("r1/1", -90),)).face == (("r1/1", 270.0),)


def test_03_01_a_turned_model_is_seen_as_one_set_up_at_that_facing():
    """The sight index reads the turned base: a model that turned is seen, and sees, exactly as
    the same model set up at that facing in a fresh battle. A ruin's footprint lies just beyond
    the tank's nose: lying across, the tank is outside it and hidden behind it (13.10); turned
    to point into it, the tank is within it and seen."""
    wall = [{"name": "ruin", "area": [[10, 18], [30, 18], [30, 24], [10, 24]],
             "features": [{"category": "light", "polygon": [[10, 22], [12, 22], [12, 23], [10, 23]]}]}]

    def spec(angle):
        t = tank((20.0, 16.0))
        t["angle"] = angle
        data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": GUN, "terrain": wall,
                "armies": [{"name": "A", "units": [unit("r1", t, keywords=["VEHICLE"])]},
                           {"name": "B", "units": [unit("b1", model([(16, 30), (24, 30), (20, 30)], ["gun"]))]}]}
        from sim.scenario.load import parse_scenario
        return parse_scenario(data, "t.toml")

    with Battle(spec(0.0)) as b, Battle(spec(90.0)) as fresh:
        b.run_command(Move("r1", (("r1/1", 20, 16),), face=(("r1/1", 90),)))
        for x in (b, fresh):
            x._enter()
        seen = {m: b.visibility.model_visible(m, "r1/1") for m in ("b1/1", "b1/2", "b1/3")}
        want = {m: fresh.visibility.model_visible(m, "r1/1")
                for m in ("b1/1", "b1/2", "b1/3")}
        assert seen == want
        with Battle(spec(0.0)) as still:
            still._enter()
            before = {m: still.visibility.model_visible(m, "r1/1")
                      for m in ("b1/1", "b1/2", "b1/3")}
        assert before != want   # (the turn changes what it sees: the test is not vacuous)


def _reserves_spec():
    red = [unit("r1", model([(30, 6)], ["gun"])), unit("rr", tank((5, 2)), keywords=["VEHICLE"], reserves=True)]
    blue = [unit("b1", model([(30, 38)], ["gun"]))]
    return mission_scenario(red, blue)


def test_03_01_an_ingress_sets_a_hull_up_turned_and_checks_it_turned():
    with Battle(_reserves_spec()) as b:
        b.run_command(StartBattle())
        start = b.turn_state.round
        while b.turn_state.round == start:
            b.run_command(EndPhase())
        # along the west edge, 1.2" from it: lying along the edge it is wholly within 6"; across it, over
        with pytest.raises(Refusal, match=r"rr/1"):
            b.submit(Ingress("rr", (("rr/1", 1.2, 20),)))
        b.run_command(Ingress("rr", (("rr/1", 1.2, 20),), face=(("rr/1", 90),)))
        assert _facing(b, "rr/1") == 90.0
        assert of_type(b, "ingress")[0]["face"] == [["rr/1", 90.0]]


def test_03_01_every_command_that_places_models_may_turn_them():
    from sim.commands import RECORDS
    from sim.commands.base import FACE, TO
    assert {r.kind for r in RECORDS if TO in r.fields} == {r.kind for r in RECORDS if FACE in r.fields}


def test_11_04_a_charge_move_turns_the_tank_and_its_conditions_read_the_turned_base():
    """Its nose turned to the target, the tank ends within 1" of it (engaged: the charge is
    made, the event says the turn); the same end unturned is 2.27" away, not engaged, and is
    refused: the 11.04 conditions read the base as it ends."""
    from sim.commands import ChargeMove, DeclareCharge
    from sim.rules.dice import ForcedDice
    blade = {"blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}}
    half_w, r = 30 / 25.4, 16 / 25.4
    target_y = 10 + half_w + r + 6.0

    def battle():
        t = tank((20.0, 10.0))
        t["weapons"] = ["blade"]
        red = [unit("r1", t, keywords=["VEHICLE"])]
        blue = [unit("b1", model((20, target_y), ["blade"])), unit("b2", model((50, 40), ["blade"]))]
        b = Battle(mission_scenario(red, blue, weapons=blade), dice=ForcedDice([3, 4]))
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        b.run_command(DeclareCharge("r1"))
        return b

    end_y = round(target_y - r - 0.5 - 150 / 25.4 / 2, 6)
    with battle() as b:
        with pytest.raises(Refusal, match=r"r1/1: it ends 2\.27\" from the nearest charge target model but could "
                                          r"end within 1\" of one"):
            b.submit(ChargeMove("r1", ("b1",), (("r1/1", 20, end_y),)))
    with battle() as b:
        b.run_command(ChargeMove("r1", ("b1",), (("r1/1", 20, end_y),), face=(("r1/1", 90),)))
        (made,) = [e for e in of_type(b, "charge") if e["result"] == "made"]
        assert made["face"] == [["r1/1", 90.0]] and _facing(b, "r1/1") == 90.0
        b._enter()
        assert W.unit_engaged(b.units["r1"])


def test_03_01_the_players_ingress_turns_a_long_vehicle_to_arrive_along_a_short_edge():
    """A 170 mm long oval in reserves, aimed at the middle of the west edge: lying as it is
    (long along x) it cannot be wholly within 6" of that edge, and it may not be set up touching
    it either (it fits when turned, so it is not too large, 03.02.02); the placement solver turns
    it (face 90), and the check takes it."""
    from sim.commands.ingress import ingress_candidates
    from sim.rules.reserves import wholly_within_edge_strip
    knight = model([(5, 5)], ["gun"], M=10)
    knight.pop("base_mm")
    knight.update(base=[170, 105], shape="oval")
    red = [unit("r1", model([(30, 6)], ["gun"])), unit("rk", knight, keywords=["VEHICLE"], reserves=True)]
    blue = [unit("b1", model([(30, 38)], ["gun"]))]
    with Battle(mission_scenario(red, blue)) as b:
        b.run_command(StartBattle())
        start = b.turn_state.round
        while b.turn_state.round == start:
            b.run_command(EndPhase())
        b._enter()
        got = [cmd for _a, cmd in ingress_candidates(b, b.units["rk"], [(0.5, 22.0)])]
        first = next(cmd for cmd in got if b.check(cmd) is None)
        assert first.face == (("rk/1", 90.0),), first
        (mid, x, y), = first.to
        fp = W.footprint(b.models["rk/1"]).moved(x, y, 90.0)
        assert x < 6 and wholly_within_edge_strip(fp, b.scenario.board)
        # the same place unturned is refused (not within 6", and not too large to be)
        assert b.check(Ingress("rk", first.to)) is not None
        b.run_command(first)
        assert _facing(b, "rk/1") == 90.0 and not of_type(b, "ingress")[0].get("oversized")


def test_03_01_a_table_saved_mid_battle_keeps_each_models_facing():
    """The sandbox's saved table (sim.sandbox.save_table.table_toml) writes a turned model's
    facing as its angle: loaded back, the model faces as it did."""
    from sim.sandbox.save_table import table_toml
    from sim.scenario.load import parse_scenario
    import tomllib
    with Battle(_spec()) as b:
        b.run_command(Move("r1", (("r1/1", 20, 16),), face=(("r1/1", 75),)))
        text = table_toml(b)
    with Battle(parse_scenario(tomllib.loads(text), "saved.toml")) as again:
        assert _facing(again, "r1/1") == 75.0
        again._enter()
        assert W.footprint(again.models["r1/1"]).y == 16.0
