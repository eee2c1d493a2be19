"""20 Strategic reserves: the 50% cap (Part A ruling 27), arrival from round 2, destruction at the
end of round 3 (20.03) and of the battle (20.01.02), and the 20.04 ingress set-up limits."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.geometry import footprint, round_base
from sim.rules.objectives import default_zones
from sim.rules.reserves import (
    FormationUnit, _edge_reach, destroyed_at_end_of_round, ingress_problems, may_arrive,
    reserves_problems,
)

BOARD = (60.0, 44.0)
R = 32 / 25.4 / 2
ATTACKER_ZONE = default_zones(BOARD)["attacker"]   # y 32..44


def units(n_reserves, n_total, points=None):
    return [FormationUnit(f"u{i}", i < n_reserves, points) for i in range(n_total)]


# --- 20.01 the cap ---------------------------------------------------------------------

@pytest.mark.parametrize("res,total,ok", [(2, 5, True), (3, 5, False), (2, 4, True), (3, 4, False),
                                          (0, 1, True), (1, 1, False), (0, 0, True)])
def test_ruling_27_without_points_at_most_half_the_units_rounded_down(res, total, ok):
    problems = reserves_problems(units(res, total))
    assert (problems == []) is ok
    if not ok:
        assert "20.01" in problems[0] and "rounded down" in problems[0]


def test_20_01_points_cap_is_50_percent_of_the_limit():
    army = [FormationUnit("a", True, 500), FormationUnit("b", True, 500), FormationUnit("c", False, 100)]
    assert reserves_problems(army, points_limit=2000) == []          # exactly 50%
    problems = reserves_problems(army, points_limit=1998)
    assert len(problems) == 1 and "1000 points" in problems[0] and "20.01" in problems[0]


def test_ruling_27_points_without_a_limit_use_the_army_total():
    # 3 of 4 units by count would fail, but by points it is 300 of 1000
    army = [FormationUnit(f"s{i}", True, 100) for i in range(3)] + [FormationUnit("big", False, 700)]
    assert reserves_problems(army) == []
    army2 = [FormationUnit("a", True, 600), FormationUnit("b", False, 400)]
    assert reserves_problems(army2) != []


def test_ruling_27_missing_points_fall_back_to_counting_units():
    army = [FormationUnit("a", True, 100), FormationUnit("b", True, None), FormationUnit("c", False, 900)]
    assert "rounded down" in reserves_problems(army)[0]


def test_20_01_no_fortifications_in_reserves():
    army = [FormationUnit("bunker", True, keywords=("FORTIFICATION",)), *units(0, 3)]
    problems = reserves_problems(army)
    assert problems == ["bunker: a FORTIFICATION unit cannot start in strategic reserves (20.01)"]


# --- 20.03 timing ----------------------------------------------------------------------

@pytest.mark.parametrize("rnd,ok", [(1, False), (2, True), (3, True), (5, True)])
def test_20_03_arrivals_from_round_2(rnd, ok):
    assert may_arrive(rnd) is ok


@pytest.mark.parametrize("rnd,repositioned,gone", [
    (1, False, False), (2, False, False), (3, False, True), (4, False, False), (5, False, True),
    (3, True, False), (5, True, True),
])
def test_20_03_20_01_02_unarrived_reserves_destroyed(rnd, repositioned, gone):
    assert destroyed_at_end_of_round(rnd, repositioned=repositioned) is gone


# --- 20.04 ingress ---------------------------------------------------------------------

def test_20_04_exactly_6_inches_from_the_edge_is_wholly_within():
    fp = round_base(32, 30, 6 - R)        # far edge of the base exactly 6" from the bottom edge
    assert ingress_problems([fp], BOARD, [], 2) == []


def test_20_04_past_6_inches_is_refused_naming_model_rule_and_distance():
    fp = round_base(32, 30, 6 - R + 1e-6)
    problems = ingress_problems([fp], BOARD, [], 2, names=["Intercessor 1"])
    assert len(problems) == 1
    p = problems[0]
    assert p.startswith("Intercessor 1:") and "20.04" in p and '6.000001"' in p


def test_20_04_a_base_in_a_corner_is_within_6_of_two_edges():
    # at (5.6, 5.6) the deepest point of the base is 5.6 + r / sqrt(2) = 6.045" from both edges,
    # though its centre's distance to each edge plus r along one axis (6.23") overstates it
    fp = round_base(32, 5.6, 5.6)
    reach = 5.6 + R / math.sqrt(2)
    assert math.isclose(_edge_reach(fp, BOARD), reach, abs_tol=1e-8)
    assert ingress_problems([fp], BOARD, [], 2) != []
    assert ingress_problems([round_base(32, 5.5, 5.5)], BOARD, [], 2) == []   # 5.945"


def test_20_04_each_model_may_use_a_different_edge():
    a = round_base(32, 3, 20)       # west edge
    b = round_base(32, 20, 3)       # south edge
    assert ingress_problems([a, b], BOARD, [], 2) == []


def test_20_04_hulls_are_measured_by_their_shape():
    # a 4" x 2" rectangle lying along the south edge: its top edge at y = 6 exactly
    flat = footprint("rect", 30, 5, 4, 2)
    assert ingress_problems([flat], BOARD, [], 2) == []
    # stood up (rotated 90 degrees) its top reaches y = 7
    assert ingress_problems([footprint("rect", 30, 5, 4, 2, 90)], BOARD, [], 2) != []
    # an oval whose tip reaches exactly 6": the inscribed core is within the documented tolerance
    assert ingress_problems([footprint("oval", 30, 4, 2, 4)], BOARD, [], 2) == []


def test_20_04_exactly_8_inches_from_an_enemy_is_refused():
    fp = round_base(32, 30, 3)
    enemy = round_base(32, 30 + 2 * R + 8.0, 3)
    problems = ingress_problems([fp], BOARD, [enemy], 2, names=["m"], enemy_names=["Ork Boy 3"])
    assert len(problems) == 1 and "Ork Boy 3" in problems[0] and '8"' in problems[0] and "20.04" in problems[0]
    assert ingress_problems([fp], BOARD, [enemy.moved(enemy.x + 1e-6, enemy.y)], 2) == []


def test_20_04_the_nearest_enemy_is_named():
    fp = round_base(32, 30, 3)
    far = round_base(32, 30, 30)
    near = round_base(32, 34, 3)
    p = ingress_problems([fp], BOARD, [far, near], 2)
    assert len(p) == 1 and "enemy model 1" in p[0]


@pytest.mark.parametrize("rnd,banned", [(2, True), (3, False), (4, False)])
def test_20_04_before_round_3_not_in_the_enemy_zone(rnd, banned):
    fp = round_base(32, 3, 40)      # in the attacker's zone, within 6" of the west edge
    problems = ingress_problems([fp], BOARD, [], rnd, ATTACKER_ZONE)
    assert (problems != []) is banned
    if banned:
        assert "deployment zone" in problems[0] and "20.04" in problems[0]


def test_20_04_touching_the_enemy_zone_counts_as_within():
    touching = round_base(32, 3, 32 - R)
    clear = round_base(32, 3, 32 - R - 1e-6)
    assert ingress_problems([touching], BOARD, [], 2, ATTACKER_ZONE) != []
    assert ingress_problems([clear], BOARD, [], 2, ATTACKER_ZONE) == []


def test_20_03_ingress_in_round_1_is_refused():
    problems = ingress_problems([round_base(32, 3, 20)], BOARD, [], 1)
    assert len(problems) == 1 and "20.03" in problems[0]


def test_03_01_a_base_off_the_battlefield_is_refused():
    problems = ingress_problems([round_base(32, R - 0.01, 20)], BOARD, [], 2)
    assert len(problems) == 1 and "battlefield" in problems[0] and "03.01" in problems[0]
    assert ingress_problems([round_base(32, R, 20)], BOARD, [], 2) == []


@settings(max_examples=80, deadline=None)
@given(st.floats(0.7, 59.3), st.floats(0.7, 43.3))
def test_20_04_edge_reach_matches_a_brute_force_sample(x, y):
    fp = round_base(32, x, y)
    # brute force: the deepest of many points of the disc (the depth is 1-Lipschitz, so the
    # samples, 2*pi*R/64 apart on the rim, miss the true maximum by at most R*pi/64)
    best = 0.0
    for k in range(64):
        for rr in (R, 0.5 * R, 0.0):
            px, py = x + rr * math.cos(2 * math.pi * k / 64), y + rr * math.sin(2 * math.pi * k / 64)
            best = max(best, min(px, 60 - px, py, 44 - py))
    reach = _edge_reach(fp, BOARD)
    assert best - 1e-9 <= reach <= best + R * math.pi / 64 + 1e-9
