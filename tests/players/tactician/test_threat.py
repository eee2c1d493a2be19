"""The tactician's threat map (issue 27 item 1): a charge roll's chances (11.02), the plain
expectation of an attack (05), and each enemy unit's reach next turn: its move, then its
weapons' ranges or a charge declared within 12" (11.01)."""

from __future__ import annotations

import math

import pytest

from phased import mission_scenario, model, unit, weapon
from sim.battle import Battle
from sim.commands import StartBattle
from sim.players.tactician import judge as J
from sim.players.tactician import threat as T

WEAPONS = {"gun": weapon(24, 2, 3, 4, 0, 1), "blade": weapon("melee", 2, 3, 4, 0, 1),
           "sword": weapon("melee", 5, 2, 5, -2, 2)}
OBJS = [{"name": "mid", "at": [30, 22], "kind": "central"}]


@pytest.mark.parametrize("n, p", [(2, 1.0), (1.5, 1.0), (7, 21 / 36), (6.2, 21 / 36), (12, 1 / 36), (12.5, 0.0)])
def test_p_2d6_at_least(n, p):
    assert math.isclose(J.p_2d6_at_least(n), p)


def _battle(red, blue):
    b = Battle(mission_scenario(red, blue, objectives=OBJS, weapons=WEAPONS), seed=1)
    b.run_command(StartBattle())
    b._enter()
    return b


def test_the_expected_models_of_a_plain_attack():
    # 5 models x 2 attacks, hit 3+ (4/6), S4 v T4 wound 4+ (3/6), Sv3 at AP0 fails 2/6: D1 v W1
    red = [unit("r1", model([(10 + 1.5 * i, 10) for i in range(5)], ["gun"]))]
    blue = [unit("b1", model([(10 + 1.5 * i, 30) for i in range(5)], ["gun"], T=4, Sv=3, W=1))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        shooter, target = tm.bodies[b.units["r1"]], tm.bodies[b.units["b1"]]
        assert math.isclose(T.damage(shooter, target, melee=False) / target.worth, 10 * 4 / 6 * 3 / 6 * 2 / 6)
        assert T.damage(shooter, target, melee=False, within=25) == 0.0  # (beyond its 24")


def test_a_d2_weapon_takes_a_whole_w2_model_and_half_of_nothing_more():
    red = [unit("r1", model([(10, 10)], ["sword"]))]
    blue = [unit("b1", model([(10, 30), (11.5, 30)], ["gun"], T=4, Sv=3, W=2))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        # 5 attacks, WS2+ (5/6), S5 v T4 (4/6), Sv3 at AP-2 fails 4/6, D2 v W2: one model each
        expect = 5 * 5 / 6 * 4 / 6 * 4 / 6
        got = T.damage(tm.bodies[b.units["r1"]], tm.bodies[b.units["b1"]], melee=True)
        assert math.isclose(got, min(expect, 2) * tm.bodies[b.units["b1"]].worth)


def test_an_enemy_beyond_its_move_and_charge_threatens_nothing_and_within_it_does():
    # (the enemy: M 6, no guns; our unit 30" away, then moved to 14" away)
    red = [unit("r1", model([(29.25, 4), (30.75, 4)], ["gun"], W=1))]
    blue = [unit("b1", model([(26 + 1.6 * i, 35) for i in range(6)], ["sword"], M=6))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        u = b.units["r1"]
        assert tm.exposure(u) == 0.0
        near = tm.exposure(u, 0.0, 16.0)  # (gap about 14": 8" to charge after its 6" move)
        g = T.gap(tm.bodies[u], tm.bodies[b.units["b1"]], 0.0, 16.0)
        p = J.p_2d6_at_least(g - 6 - 2)
        assert 0 < p < 1
        assert math.isclose(near, p * tm.dmg(tm.bodies[b.units["b1"]], tm.bodies[u], True))
        assert tm.exposure(u, 0.0, 26.0) > near  # (closer: a surer charge)


def test_guns_threaten_within_move_plus_range_all_their_fire_when_nothing_else_is_in_reach():
    red = [unit("r1", model([(29.25, 4), (30.75, 4)], ["gun"], W=1))]
    blue = [unit("b1", model([(30, 40)], ["gun"], M=6))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        u = b.units["r1"]
        assert tm.exposure(u) == 0.0  # (about 35" away: 6" + 24" do not reach)
        me, e = tm.bodies[u], tm.bodies[b.units["b1"]]
        # (the enemy's guns have no other target: what they take of it is lost to the army)
        assert math.isclose(tm.exposure(u, 0.0, 10.0), T.damage(e, me, melee=False))


def test_guns_threaten_only_what_the_unit_offers_over_the_best_other_target_they_reach():
    # (r2 stands in b1's reach: the shots go to one of the two; r1 in reach too costs the army
    # only what it offers the guns beyond r2)
    red = [unit("r1", model([(29.25, 4), (30.75, 4)], ["gun"], W=1)),
           unit("r2", model([(29.25, 20)], ["gun"], W=1, T=8, Sv=2))]
    blue = [unit("b1", model([(30, 40)], ["gun"], M=6))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        u = b.units["r1"]
        me, other, e = tm.bodies[u], tm.bodies[b.units["r2"]], tm.bodies[b.units["b1"]]
        assert tm.exposure(u) == 0.0
        full, anyway = T.damage(e, me, melee=False), T.damage(e, other, melee=False)
        assert 0 < anyway < full  # (r2 is the harder target)
        assert math.isclose(tm.exposure(u, 0.0, 10.0), full - anyway)


def _alternatives_one_by_one(tm, me):
    """ThreatMap.alternatives as it was first written: for each enemy unit, the most its
    shooting and its charge take of each of our other units, one unit at a time."""
    best = [[0.0, 0.0] for _e in tm.enemies]
    for o in tm.mine:
        if o is me or o.ent == me.ent or not len(o.xy):
            continue
        for i, ((e, move, shots, melee), g) in enumerate(zip(tm.against(o), tm.gaps(o))):
            after_move = g - move
            if shots:
                best[i][0] = max(best[i][0], min(T._reaching(shots, after_move), o.models) * o.worth)
            if melee and after_move <= T.CHARGE_REACH:
                best[i][1] = max(best[i][1], J.p_2d6_at_least(after_move - T.ENGAGEMENT_RANGE) * tm.dmg(e, o, True))
    return [tuple(x) for x in best]


@pytest.mark.parametrize("order,twins", [((0, 1, 2, 3), False), ((0, 1, 2, 3), True), ((2, 0, 1, 3), False),
                                         ((1, 2, 0, 3), False), ((3, 2, 1, 0), False)])
def test_alternatives_are_each_enemys_best_other_target_one_by_one(order, twins):
    """ThreatMap.alternatives reads each enemy unit's best two of our units: for every one of
    ours, the same floats as the loop over the others, whatever order our units come in (a
    unit worth less, then more, then between: the second best is not the first one met), and
    with two equal units (``twins``: the best of the others is the same value as the best)."""
    units = [unit("r1", model([(20, 10), (21.5, 10)], ["gun", "blade"], W=1)),
             unit("r2", model([(34, 12)], ["gun"], W=2, T=6)),
             unit("r3", model([(44, 8), (45.5, 8), (47, 8)], ["gun"], W=1, Sv=5)),
             unit("r4", model([(28, 24)], ["blade"], W=3))]
    red = [units[k] for k in order]
    if twins:
        red.append(unit("r5", model([(34, 14)], ["gun"], W=2, T=6)))
    blue = [unit("b1", model([(22, 30), (23.5, 30)], ["gun", "sword"], M=8)),
            unit("b2", model([(40, 34)], ["gun"], M=6)),
            unit("b3", model([(30, 27)], ["sword"], M=10))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        assert len(tm.mine) == len(red)
        some = False
        for me in tm.mine:
            want = _alternatives_one_by_one(tm, me)
            assert tm.alternatives(me) == want
            some |= any(s > 0 and m > 0 for s, m in want)
        assert some   # (guns and charges that reach several of ours)


def test_the_enemy_oc_that_can_reach_an_objective():
    red = [unit("r1", model([(10, 4)], ["gun"]))]
    blue = [unit("b1", model([(30, 32), (31.5, 32)], ["gun"], OC=2)),   # 10" off: can reach
            unit("b2", model([(55, 40)], ["gun"], OC=5)),                # far: cannot
            unit("b3", model([(30, 28)], ["gun"], OC=0))]                # no OC
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        assert tm.enemy_oc_reaching((30, 22)) == 4


def test_the_rows_of_many_positions_equal_each_position_alone():
    # (exposure_rows, firepower_rows and charge_value_rows: the same sums, to the bit, as the
    # one-position calls, positions near and far, in and beyond reach and charge range)
    red = [unit("r1", model([(29.25, 4), (30.75, 4)], ["gun", "blade"], W=1)),
           unit("r2", model([(12, 14)], ["gun"], W=1))]  # (another target: ThreatMap.alternatives)
    blue = [unit("b1", model([(26 + 1.6 * i, 35) for i in range(6)], ["sword"], M=6)),
            unit("b2", model([(10, 30), (11.5, 30)], ["gun"], M=6))]
    with _battle(red, blue) as b:
        tm = T.ThreatMap(b, 0)
        u = b.units["r1"]
        shifts = [(dx * 1.3, dy * 2.9) for dx in range(-6, 7) for dy in range(0, 11)]
        assert tm.exposure_rows(u, shifts) == [tm.exposure(u, dx, dy) for dx, dy in shifts]
        assert tm.firepower_rows(u, shifts) == [tm.firepower(u, dx, dy) for dx, dy in shifts]
        assert tm.charge_value_rows(u, shifts) == [tm.charge_value(u, dx, dy) for dx, dy in shifts]
        assert len(set(tm.exposure_rows(u, shifts))) > 3 and max(tm.charge_value_rows(u, shifts)) > 0
