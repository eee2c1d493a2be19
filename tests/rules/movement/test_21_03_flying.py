"""21.03 Flying: taking to the skies (24.17 Hover, 24.16 [HEAVY]).

A FLY unit about to make a normal, advance, fall-back or charge move may take to the skies:
its maximum distance drops by 2" (not with Hover), and its path may pass through every model
and every terrain feature; where it ends is checked as ever (Part A rulings 12-14). In the
simulator it is the ``fly`` switch of the Move and ChargeMove commands (and of move and charge
script steps), refused with the rule for a unit without FLY."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import (ChargeMove, DeclareCharge, EndPhase, Move, SelectToMove, StartBattle,
                          command_from_dict, command_to_dict)
from sim.errors import Refusal, ScenarioError
from sim.rules.dice import ForcedDice
from sim.rules.movement.moves import path_stop, sky_distance, sky_refusal
from sim.players.runner import play
from sim.scenario.load import parse_scenario
from sim.world import queries as W
from sim.commands import charge_command

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1},
       "blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}}
WALL = [[18, 5], [19, 5], [19, 15], [18, 15]]  # a dense wall 1" thick, x = 18..19
TERRAIN = [{"name": "wall", "area": WALL, "features": [{"category": "dense", "polygon": WALL}]}]


def _free(red, blue, terrain=None, script=None):
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": GUN,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}]}
    if terrain:
        data["terrain"] = terrain
    if script:
        data["script"] = script
    return parse_scenario(data, "test.toml")


def _flyer(at=(15, 10), M=8, keywords=("VEHICLE", "FLY"), abilities=None, uid="r1"):
    kw = {"abilities": abilities} if abilities else {}
    return unit(uid, model([at], ["gun", "blade"], M=M), keywords=keywords, **kw)


def _far_enemy():
    return unit("b1", model((50, 40), ["gun"]))


# --- the pure rules ----------------------------------------------------------------------------

def test_21_03_the_maximum_distance_drops_by_2_but_not_with_hover():
    assert sky_distance(8, hover=False) == 6.0
    assert sky_distance(8, hover=True) == 8.0
    assert sky_distance(1.5, hover=False) == 0.0  # never below 0
    assert sky_distance(6 + 3, hover=False) == 7.0  # an advance: M + the roll, then -2


def test_21_03_only_a_fly_unit_takes_to_the_skies_and_only_for_its_four_moves():
    assert sky_refusal("r1", {"INFANTRY"}, "normal") == "r1 has no FLY keyword and cannot take to the skies (21.03)"
    for move in ("normal", "advance", "fall back", "charge"):
        assert sky_refusal("r1", {"FLY"}, move) is None
    assert "21.03" in sky_refusal("r1", {"FLY"}, "pile in")


def test_09_06_a_path_is_cut_where_the_allowance_runs_out_never_past_it():
    path, d = path_stop(((0, 0), (3, 0), (3, 10)), 5)
    assert path == ((0.0, 0.0), (3.0, 0.0), (3.0, 2.0)) and d == 5.0
    assert path_stop(((0, 0), (3, 4)), 5)[1] == 5.0  # exactly the limit: the whole path
    for limit in (0.1234567, 2.7182818, 4.9999999):  # rounding to 1e-6" never goes past the limit
        _p, d = path_stop(((0.1, 0.2), (7.3, 5.9)), limit)
        assert d <= limit


# --- normal and advance moves ------------------------------------------------------------------

def test_21_03_a_path_through_an_enemy_model_is_refused_on_the_ground_and_accepted_flying():
    spec = _free([_flyer(M=10)], [unit("b1", model((18.5, 10), ["gun"]))])
    with Battle(spec) as b:
        past = (("r1/1", 22, 11.5),)  # 7.16" on, its line 0.73" from b1/1's centre (bases 1.26")
        assert "its path crosses the base of enemy model b1/1" in b.check(Move("r1", past))
        # flying: through the model, but it may still not end within engagement range of it
        assert "engagement range" in b.check(Move("r1", (("r1/1", 21, 10),), fly=True))
        b.run_command(Move("r1", past, fly=True))  # at most 10 - 2 = 8"
        assert W.unit_state(b.units["r1"]).moved == pytest.approx(7.15891, abs=1e-5)
        (e,) = of_type(b, "moved")
        assert e["fly"] is True


def test_21_03_a_path_across_a_dense_feature_is_refused_on_the_ground_and_accepted_flying():
    spec = _free([_flyer()], [_far_enemy()], terrain=TERRAIN)
    with Battle(spec) as b:
        ground = Move("r1", (("r1/1", 21, 10),))
        assert "(13.06, Part A 12)" in b.check(ground)  # a VEHICLE may not cross a dense feature
        b.run_command(Move("r1", (("r1/1", 21, 10),), fly=True))
        b._enter()
        assert W.footprint(b.models["r1/1"]).centre == (21, 10)


def test_21_03_flying_the_end_is_still_checked():
    spec = _free([_flyer(M=14), unit("r2", model((20, 12), ["gun"]))], [_far_enemy()], terrain=TERRAIN)
    with Battle(spec) as b:
        assert "Part A 13" in b.check(Move("r1", (("r1/1", 18.5, 10),), fly=True))  # ends in the wall
        assert "overlapping the base of friendly model r2/1" in b.check(Move("r1", (("r1/1", 20, 12),), fly=True))
        assert "battlefield edge" in b.check(Move("r1", (("r1/1", 15, 0.3),), fly=True))


@pytest.mark.parametrize("abilities,limit", [(None, 6), ("Hover", 8)])
def test_21_03_24_17_the_normal_move_limit_taking_to_the_skies(abilities, limit):
    spec = _free([_flyer(abilities=abilities)], [_far_enemy()])
    with Battle(spec) as b:
        too_far = Move("r1", (("r1/1", 15 + limit + 0.1, 10),), fly=True)
        assert f"may move at most {limit}\" in a normal move (09.05)" in b.check(too_far)
        assert b.check(Move("r1", (("r1/1", 15 + limit, 10),), fly=True)) is None
        assert b.check(Move("r1", (("r1/1", 23, 10),))) is None  # on the ground: M = 8


def test_24_17_hover_needs_every_model():
    red = unit("r1", model([(15, 10)], ["gun"], M=8), model([(16.5, 10)], ["gun"], M=8, name="other"),
               keywords=("VEHICLE", "FLY"))
    red["models"][0]["abilities"] = "Hover"
    spec = _free([red], [_far_enemy()])
    with Battle(spec) as b:
        reason = b.check(Move("r1", (("r1/1", 22, 10), ("r1/2", 23.5, 10)), fly=True))
        assert "may move at most 6\"" in reason


def test_21_03_a_unit_without_fly_is_refused_with_the_rule():
    spec = _free([unit("r1", model((15, 10), ["gun"], M=8))], [_far_enemy()])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"r1 has no FLY keyword and cannot take to the skies \(21.03\)"):
            b.submit(Move("r1", (("r1/1", 17, 10),), fly=True))
        b.run_command(Move("r1", (("r1/1", 17, 10),)))


def test_21_03_an_advance_taking_to_the_skies_is_m_plus_the_roll_less_2():
    spec = mission_scenario([_flyer(M=8)], [_far_enemy()], terrain=TERRAIN)
    with Battle(spec, dice=ForcedDice([3])) as b:
        b.run_command(StartBattle())
        b.run_command(SelectToMove("r1", "advance"))  # the roll: 3, so 11" on the ground, 9" flying
        assert "may move at most 9\" in an advance move (09.06)" in b.check(
            Move("r1", (("r1/1", 24.1, 10),), "advance", fly=True))
        b.run_command(Move("r1", (("r1/1", 24, 10),), "advance", fly=True))  # over the wall
        st = W.unit_state(b.units["r1"])
        assert st.advanced and st.moved == 9.0


def test_21_03_a_fall_back_taking_to_the_skies_passes_through_the_enemy():
    spec = mission_scenario([_flyer(at=(15, 10), M=8)],
                            [unit("b1", model([(16.3, 10), (15, 11.3), (15, 8.7)], ["gun"]))])
    with Battle(spec) as b:
        b.run_command(StartBattle())
        assert "crosses the base of enemy model" in b.check(Move("r1", (("r1/1", 21, 10),), "fall back"))
        b.run_command(Move("r1", (("r1/1", 21, 10),), "fall back", fly=True))
        assert W.unit_state(b.units["r1"]).fell_back


def test_24_16_heavy_moved_is_the_path_length_not_the_straight_line():
    spec = _free([_flyer(M=8)], [_far_enemy()])
    with Battle(spec) as b:
        b.run_command(Move("r1", (("r1/1", 15, 13),), via=(("r1/1", ((17, 11.5),)),), fly=True))
        # 2.5" + 2.5" along the path, though it ends only 3" from where it started
        assert W.unit_state(b.units["r1"]).moved == pytest.approx(5.0)


# --- charges -----------------------------------------------------------------------------------

def _charge_spec(abilities=None):
    # r1 behind the wall; b1 beyond it, 5" from r1 edge to edge (the wall between)
    red = [_flyer(at=(15, 10), M=8, abilities=abilities)]
    blue = [unit("b1", model((21.26, 10), ["gun"]))]
    return mission_scenario(red, blue, terrain=TERRAIN)


def _to_charge_phase(b):
    b.run_command(StartBattle())
    while str(b.turn_state.phase) != "charge":
        b.run_command(EndPhase())


def test_21_03_a_charge_across_a_feature_is_refused_on_the_ground_and_accepted_flying():
    with Battle(_charge_spec(), dice=ForcedDice([4, 4])) as b:  # roll 8: 6" flying
        _to_charge_phase(b)
        b.run_command(DeclareCharge("r1"))
        ground = ChargeMove("r1", ("b1",), (("r1/1", 20, 10),))
        assert "(13.06, Part A 12)" in b.check(ground)
        b.run_command(ChargeMove("r1", ("b1",), (("r1/1", 20, 10),), fly=True))
        st = W.unit_state(b.units["r1"])
        assert st.charged
        assert of_type(b, "charge")[-1]["fly"] is True


@pytest.mark.parametrize("abilities,accepted", [(None, False), ("Hover", True)])
def test_21_03_24_17_a_flying_charge_loses_2_inches_unless_hover(abilities, accepted):
    with Battle(_charge_spec(abilities), dice=ForcedDice([3, 3])) as b:  # roll 6: b1 is 5" away
        _to_charge_phase(b)
        b.run_command(DeclareCharge("r1"))
        cmd = ChargeMove("r1", ("b1",), (("r1/1", 20, 10),), fly=True)  # 5" on, into base contact
        reason = b.check(cmd)
        if accepted:
            assert reason is None
        else:  # 4" taking to the skies: b1, 5" away, cannot be a target
            assert reason == ("b1 is 5.00\" away: a charge target must be within 12\" and within the charge "
                              "roll of 6\", 4\" taking to the skies (21.03) (11.04)")


def test_21_03_a_charge_by_a_unit_without_fly_may_not_take_to_the_skies():
    red = [unit("r1", model((15, 10), ["gun", "blade"], M=8), keywords=("VEHICLE",))]
    spec = mission_scenario(red, [unit("b1", model((21.26, 10), ["gun"]))], terrain=TERRAIN)
    with Battle(spec, dice=ForcedDice([4, 4])) as b:
        _to_charge_phase(b)
        b.run_command(DeclareCharge("r1"))
        with pytest.raises(Refusal, match=r"no FLY keyword.*\(21.03\)"):
            b.submit(ChargeMove("r1", ("b1",), (("r1/1", 20, 10),), fly=True))


def test_21_03_the_default_charge_flies_only_when_no_ground_charge_is_found():
    from sim.plan import moves as MV
    with Battle(_charge_spec(), dice=ForcedDice([4, 4])) as b:
        _to_charge_phase(b)
        b.run_command(DeclareCharge("r1"))
        b._enter()
        assert charge_command(b, "r1", None, None).targets == ()  # the ground solver: blocked
        cmd = charge_command(b, "r1", None, None, fly=None)
        assert cmd.fly and cmd.targets == ("b1",)
        b.run_command(cmd)
        assert W.unit_state(b.units["r1"]).charged


# --- commands, scripts and players --------------------------------------------------------------

def test_21_03_the_switch_round_trips_and_ground_moves_log_as_before():
    m = Move("r1", (("r1/1", 1.0, 2.0),), "advance", fly=True)
    assert command_to_dict(m)["fly"] is True and command_from_dict(command_to_dict(m)) == m
    assert "fly" not in command_to_dict(Move("r1", (("r1/1", 1.0, 2.0),)))
    c = ChargeMove("r1", ("b1",), (("r1/1", 1.0, 2.0),), fly=True)
    assert command_from_dict(command_to_dict(c)) == c
    with pytest.raises(ValueError, match="fly"):
        command_from_dict({"kind": "move", "unit": "r1", "to": [], "fly": "yes"})


def test_21_03_a_script_step_takes_to_the_skies():
    script = [{"move": "r1", "to": {"r1/1": [21, 10]}, "fly": True}]
    spec = _free([_flyer()], [_far_enemy()], terrain=TERRAIN, script=script)
    with Battle(spec) as b:
        play(b, spec)
        (e,) = of_type(b, "moved")
        assert e["fly"] is True and e["to"] == [["r1/1", 21.0, 10.0]]


def test_21_03_a_script_step_fly_must_be_true_or_false():
    with pytest.raises(ScenarioError, match=r"fly.*true or false"):
        _free([_flyer()], [_far_enemy()], script=[{"move": "r1", "by": [1, 0], "fly": "yes"}])
    with pytest.raises(ScenarioError, match=r"21.03"):
        _free([_flyer()], [_far_enemy()], script=[{"move": "r1", "mode": "stationary", "fly": True}])


def test_21_03_the_default_player_flies_over_a_wall_it_cannot_cross():
    from sim.players.default import DefaultPlayer
    red = [_flyer(at=(15, 10), M=8)]
    spec = mission_scenario(red, [_far_enemy()], terrain=TERRAIN,
                            objectives=[{"name": "east", "at": [40, 10], "kind": "central"}])
    with Battle(spec) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "movement":
            b.run_command(EndPhase())
        p = DefaultPlayer(0, b, spec)
        cmd = p.choose(b).command
        assert isinstance(cmd, Move) and cmd.fly  # 6" flying beats the 2" ground step short of the wall
        b.run_command(cmd)
        b._enter()
        assert W.footprint(b.models["r1/1"]).centre == pytest.approx((21, 10))


def test_21_03_the_random_player_flies_sometimes_and_only_fly_units_draw():
    from sim.players.random_player import RandomPlayer
    spec = _free([_flyer(), unit("r2", model((30, 30), ["gun"]))], [_far_enemy()])
    with Battle(spec) as b:
        b._enter()
        p = RandomPlayer(0, b, spec)
        before = p.rng.getstate()
        assert p._fly(b.units["r2"]) is False and p.rng.getstate() == before  # no draw without FLY
        flips = {p._fly(b.units["r1"]) for _ in range(40)}
        assert flips == {True, False}
