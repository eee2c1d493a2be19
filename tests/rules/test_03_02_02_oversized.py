"""03.02.02 Oversized models.

A base that cannot fit wholly within the deployment zone is set up touching its player's
battlefield edge; one that cannot fit wholly within the reserves set-up distance (6" of an
edge, 20.04) is set up touching an edge, still more than 8" from every enemy model; in the turn
of such a set-up (AIRCRAFT excepted for reserves) the unit may not make normal, advance,
fall-back or charge moves, nor ranged attacks."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import (DeclareCharge, EndPhase, Ingress, Move, SelectToMove, Selection, Shoot,
                          StartBattle)
from sim.errors import Refusal, ScenarioError
from sim.rules.deployment import deployment_problems, fits_within, player_edge, touches_edge
from sim.rules.geometry import footprint, round_base
from sim.rules.objectives import default_zones
from sim.rules.reserves import fits_edge_strip, ingress_problems, oversized_restricted
from sim.scenario.load import parse_scenario
from sim.world import queries as W

BOARD = (60.0, 44.0)
ZONES = default_zones(BOARD)
SOUTH, NORTH = ZONES["defender"], ZONES["attacker"]  # y = 0-12 and y = 32-44
BIG = 310  # mm: a 12.2" round base, too large for a 12"-deep zone
HUGE = 200  # mm: a 7.87" round base, too large for 6" of an edge (7.03" is the most that fits)


# --- fitting -----------------------------------------------------------------------------------

def test_03_02_02_a_base_fits_a_strip_zone_exactly_when_its_narrow_side_does():
    assert fits_within(round_base(300, 0, 0), SOUTH)  # 11.81"
    assert not fits_within(round_base(305, 0, 0), SOUTH)  # 12.01"
    assert fits_within(footprint("rect", 0, 0, 14, 11.99, angle=90), SOUTH)  # turned to lie along it
    assert not fits_within(footprint("rect", 0, 0, 14, 12.01), SOUTH)
    assert fits_within(footprint("oval", 0, 0, 20, 11.9, angle=37), SOUTH)


def test_03_02_02_facing_is_free_a_long_base_fits_a_square_only_across_its_diagonal():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert fits_within(footprint("rect", 5, 5, 13, 1), square)  # only at about 45 degrees
    assert not fits_within(footprint("rect", 5, 5, 14.2, 1), square)  # longer than the diagonal


def test_03_02_02_a_non_convex_zone_is_tried_piece_by_piece():
    ell = [(0, 0), (20, 0), (20, 5), (5, 5), (5, 20), (0, 20)]
    assert fits_within(round_base(120, 0, 0), ell)  # 4.72": in one arm
    assert not fits_within(round_base(140, 0, 0), ell)  # 5.51": wider than either arm


def test_03_02_02_a_players_battlefield_edge_is_the_one_its_zone_runs_along():
    assert player_edge(SOUTH, BOARD) == "south" and player_edge(NORTH, BOARD) == "north"
    assert player_edge([(0, 0), (10, 0), (10, 44), (0, 44)], BOARD) == "west"  # 44" on x = 0, 10" on y = 0
    assert player_edge([(50, 10), (55, 10), (55, 30)], BOARD) == "east"  # on no edge: the nearest


def test_03_02_02_touching_an_edge():
    r = BIG / 25.4 / 2
    assert touches_edge(round_base(BIG, 30, r), BOARD, ("south",))
    assert touches_edge(round_base(BIG, 30, r + 0.001), BOARD, ("south",))  # within 0.001"
    assert not touches_edge(round_base(BIG, 30, r + 0.002), BOARD, ("south",))
    assert not touches_edge(round_base(BIG, 30, r - 0.01), BOARD, ("south",))  # over the edge
    assert not touches_edge(round_base(BIG, 30, 44 - r), BOARD, ("south",))  # the wrong edge


# --- deployment --------------------------------------------------------------------------------

def test_03_02_02_deployment_too_large_for_the_zone_touches_its_players_edge():
    r = BIG / 25.4 / 2
    ok = [("r/1", 0, round_base(BIG, 30, r)), ("b/1", 1, round_base(BIG, 30, 44 - r))]
    assert deployment_problems(ok, (SOUTH, NORTH), BOARD) == []
    (p,) = deployment_problems([("r/1", 0, round_base(BIG, 30, r + 0.5))], (SOUTH, NORTH), BOARD)
    assert p == ("r/1 cannot fit wholly within its deployment zone, so it is set up touching its "
                 "battlefield edge (south); it is 0.500\" from it (03.02.02)")
    # touching an edge, but not its player's
    (p,) = deployment_problems([("r/1", 0, round_base(BIG, r, 22))], (SOUTH, NORTH), BOARD)
    assert "(03.02.02)" in p
    # a base that fits must still be wholly within (26 step 8), touching the edge or not
    (p,) = deployment_problems([("r/1", 0, round_base(300, 30, 10))], (SOUTH, NORTH), BOARD)
    assert "not wholly within its deployment zone" in p and "(26 step 8)" in p


def _deployed(at):
    data = {"battle": {"name": "t", "board": [60, 44]},
            "weapons": {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
            "armies": [{"name": "A", "units": [unit("r1", model(at, ["gun"], base_mm=BIG), keywords=("VEHICLE",))]},
                       {"name": "B", "units": [unit("b1", model((30, 40), ["gun"]))]}],
            "mission": {"first": "red", "rounds": 1}}
    return parse_scenario(data, "test.toml")


def test_03_02_02_a_scenario_deploys_an_oversized_model_touching_its_edge():
    r = BIG / 25.4 / 2
    _deployed((30, r))
    with pytest.raises(ScenarioError, match=r"r1/1 cannot fit wholly within its deployment zone.*\(03.02.02\)"):
        _deployed((30, r + 1))


# -the pure rules ------------------------------------------------------------------

def test_03_02_02_what_fits_within_6_inches_of_an_edge():
    assert fits_edge_strip(round_base(178, 0, 0), BOARD)  # 7.01": only in a corner of the board
    assert not fits_edge_strip(round_base(179, 0, 0), BOARD)
    assert fits_edge_strip(footprint("rect", 0, 0, 20, 6), BOARD)
    assert not fits_edge_strip(footprint("rect", 0, 0, 20, 9), BOARD)


def test_03_02_02_an_oversized_ingress_touches_an_edge_more_than_8_inches_from_enemies():
    r = HUGE / 25.4 / 2
    assert ingress_problems([round_base(HUGE, 30, r)], BOARD, [], 2) == []
    assert ingress_problems([round_base(HUGE, r, 22)], BOARD, [], 2) == []  # any edge
    (p,) = ingress_problems([round_base(HUGE, 30, r + 1)], BOARD, [], 2, names=["big/1"])
    assert p == ("big/1: its base cannot fit wholly within 6\" of a battlefield edge, so it is set up "
                 "touching an edge; it is 1.000\" from the nearest (03.02.02, 0.001\" counts as touching)")
    # still more than 8" from every enemy model
    enemy = round_base(32, 30, r * 2 + 8 - 0.1)
    (p,) = ingress_problems([round_base(HUGE, 30, r)], BOARD, [enemy], 2, names=["big/1"])
    assert "more than 8\" from all enemy models (20.04)" in p
    # a base that fits is held to 20.04, touching an edge or not
    (p,) = ingress_problems([round_base(178, 30, 10)], BOARD, [], 2, names=["m/1"])
    assert "(20.04)" in p


def test_03_02_02_aircraft_are_excepted_from_the_restriction():
    assert oversized_restricted(True, {"VEHICLE"})
    assert not oversized_restricted(True, {"VEHICLE", "AIRCRAFT"})
    assert not oversized_restricted(False, {"VEHICLE"})


# --- reserves in a battle ----------------------------------------------------------------------

R_HUGE = HUGE / 25.4 / 2


def _battle_spec():
    red = [unit("r1", model((30, 6), ["gun"])), unit("r2", model((40, 6), ["gun"])),
           unit("big", model((10, 10), ["gun", "blade"], base_mm=HUGE, M=10), keywords=("VEHICLE",), reserves=True),
           unit("small", model([(5, 2), (6.5, 2)], ["gun", "blade"]), reserves=True)]
    blue = [unit("b1", model([(30, 38), (31.5, 38)], ["gun"])), unit("b2", model((50, 38), ["gun"])),
            unit("b3", model((10, 34), ["gun"]))]
    return mission_scenario(red, blue)


def _to_red_round_2(b):
    b.run_command(StartBattle())
    while b.turn_state.round < 2:
        b.run_command(EndPhase())
    assert b.turn_state.active == 0 and str(b.turn_state.phase) == "movement"


def _phase_to(b, name):
    while str(b.turn_state.phase) != name:
        b.run_command(EndPhase())


def test_03_02_02_an_oversized_ingress_not_touching_an_edge_is_refused():
    with Battle(_battle_spec()) as b:
        _to_red_round_2(b)
        with pytest.raises(Refusal, match=r"big/1: its base cannot fit wholly within 6\".*\(03.02.02"):
            b.submit(Ingress("big", (("big/1", 18, R_HUGE + 0.5),)))
        b.run_command(Ingress("big", (("big/1", 18, R_HUGE),)))
        (e,) = of_type(b, "ingress")
        assert e["oversized"] == ["big/1"]
        assert W.unit_state(b.units["big"]).oversized_set_up


def test_03_02_02_the_turn_of_the_set_up_no_move_no_charge_no_ranged_attacks():
    with Battle(_battle_spec()) as b:
        _to_red_round_2(b)
        b.run_command(Ingress("big", (("big/1", R_HUGE, 16),)))  # touching the west edge, 14" from b3
        reason = b.check(Move("big", (("big/1", 8, 16),)))
        assert reason == ("big was set up this turn touching a battlefield edge (an oversized model) and may not "
                          "make a normal move this turn (03.02.02)")
        assert "(03.02.02)" in b.check(SelectToMove("big", "advance"))
        _phase_to(b, "shooting")
        shoot = Shoot("big", (Selection("big/1", "gun", "b3"),))
        assert b.check(shoot) == ("big was set up this turn touching a battlefield edge (an oversized model) and "
                                  "may not make ranged attacks this turn (03.02.02)")
        _phase_to(b, "charge")
        assert "may not declare a charge or make a charge move this turn (03.02.02)" in b.check(DeclareCharge("big"))
        # the end of the turn clears it
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        assert not W.unit_state(b.units["big"]).oversized_set_up


def test_03_02_02_a_unit_that_fits_may_shoot_and_charge_after_its_ingress():
    with Battle(_battle_spec()) as b:
        _to_red_round_2(b)
        b.run_command(Ingress("small", (("small/1", 3, 14), ("small/2", 3, 15.5))))
        assert not W.unit_state(b.units["small"]).oversized_set_up
        _phase_to(b, "shooting")
        assert b.check(Shoot("small", (Selection("small/1", "gun", "b3"), Selection("small/2", "gun", "b3")))) is None


def test_03_02_02_the_default_ingress_sets_an_oversized_model_touching_an_edge():
    from sim.commands.ingress import default_ingress
    with Battle(_battle_spec()) as b:
        _to_red_round_2(b)
        b._enter()
        cmd = default_ingress(b, b.units["big"], 0)
        assert cmd is not None and b.check(cmd) is None
        (mid, x, y), = cmd.to
        assert touches_edge(round_base(HUGE, x, y), BOARD)


def test_03_02_02_a_base_wholly_within_6_inches_as_placed_is_never_called_oversized():
    # its own facing is tried first, so a base that is within as placed also fits
    fp = footprint("rect", 30, 3.0, 20, 6, angle=0)
    assert fits_edge_strip(fp, BOARD) and ingress_problems([fp], BOARD, [], 2) == []
    # memoised by shape and size: the answer is the same wherever the base stands
    assert fits_edge_strip(round_base(HUGE, 30, 22), BOARD) == fits_edge_strip(round_base(HUGE, 3, 3), BOARD)
