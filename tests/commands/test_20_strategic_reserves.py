"""20 Strategic reserves in a battle: units start off the battlefield (not targetable, no
distance to them), arrive from round 2 by an ingress move (20.03, 20.04: wholly within 6" of
an edge, more than 8" from every enemy model, not in the enemy zone before round 3, set up as
03.02 says), make no other move that phase, and are destroyed if still in reserves at the end
of round 3; at most half an army's units start there (ruling 27)."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Ingress, Move, Shoot, Selection, StartBattle
from sim.errors import Refusal, ScenarioError
from sim.world import queries as W


def _spec(**kw):
    red = [unit("r1", model([(30, 6), (31.5, 6)], ["gun"])),
           unit("rr", model([(5, 2), (6.5, 2)], ["gun"]), reserves=True)]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"])), unit("b2", model((50, 38), ["gun"]))]
    return mission_scenario(red, blue, **kw)


def _next_round(b):
    start = b.turn_state.round
    while b.turn_state.round == start and not b.turn_state.over:
        b.run_command(EndPhase())


def _ingress(x, y):
    return Ingress("rr", (("rr/1", x, y), ("rr/2", x + 1.5, y)))


def test_20_a_unit_in_reserves_is_not_on_the_battlefield():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        b._enter()
        assert W.in_reserves(b.units["rr"]) and W.unit_models(b.units["rr"]) == []
        assert b.units["rr"] not in W.enemy_units(b.units["b1"])


def test_20_03_reserves_arrive_not_before_round_2():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"cannot arrive in battle round 1.*\(20.03\)"):
            b.submit(_ingress(3, 20))
        _next_round(b)
        b.run_command(_ingress(3, 20))
        (e,) = of_type(b, "ingress")
        b._enter()
        st = W.unit_state(b.units["rr"])
        assert not W.in_reserves(b.units["rr"]) and st.set_up_this_turn and len(W.unit_models(b.units["rr"])) == 2
        with pytest.raises(Refusal, match=r"already made a ingress move|already made an ingress move|ingress"):
            b.submit(Move("rr", (("rr/1", 4, 20),)))


@pytest.mark.parametrize("x,y,match", [
    (7.5, 20, r"rr/1: part of its base is .* from the nearest battlefield edge.*\(20.04\)"),
    (40, 40, r"within the enemy deployment zone; before battle round 3 .*\(20.04\)|from b1/.*\(20.04\)"),
    (26, 42, r"rr/\d: \d.\d+\" from b1/\d; an ingress move sets up more than 8\" from all enemy models \(20.04\)"),
])
def test_20_04_where_an_ingress_move_may_set_up(x, y, match):
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _next_round(b)
        with pytest.raises(Refusal, match=match):
            b.submit(_ingress(x, y))


def test_03_02_an_ingress_move_sets_up_in_coherency_and_on_no_base():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _next_round(b)
        with pytest.raises(Refusal, match=r"03.03"):
            b.submit(Ingress("rr", (("rr/1", 3, 10), ("rr/2", 3, 20))))


def test_20_03_units_still_in_reserves_are_destroyed_at_the_end_of_round_3():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        for _ in range(3):
            _next_round(b)
        (d,) = [e for e in of_type(b, "unit destroyed") if e["unit"] == "rr"]
        assert "20.03" in d["by"]
        b._enter()
        assert W.unit_destroyed(b.units["rr"]) and not W.in_reserves(b.units["rr"])


def test_20_01_at_most_half_an_armys_units_start_in_reserves():
    red = [unit("r1", model((30, 6), ["gun"]), reserves=True)]
    blue = [unit("b1", model((30, 38), ["gun"]))]
    with pytest.raises(ScenarioError, match=r"at most half of each army's units in strategic reserves"):
        mission_scenario(red, blue)


def test_20_reserves_need_a_mission():
    from scen import scenario
    with pytest.raises(ScenarioError, match=r"strategic reserves need a \[mission\]"):
        scenario({"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
                 [unit("r1", model((10, 6), ["gun"])), unit("r2", model((20, 6), ["gun"]), reserves=True)],
                 [unit("b1", model((10, 38), ["gun"]))])


def test_20_a_unit_in_reserves_cannot_be_targeted():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        # blue's turn comes after red's: shoot from blue at the reserve unit
        while b.turn_state.active == 0 or str(b.turn_state.phase) != "shooting":
            b.run_command(EndPhase())
        with pytest.raises(Refusal):
            b.submit(Shoot("b1", (Selection("b1/1", "gun", "rr"),)))
