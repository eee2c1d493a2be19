"""26 steps 5-11 as pure rules (sim.rules.pre_battle): the roll-off, who deploys next (26 step
8, TITANIC), the Scouts distance of a unit (24.31 with 24.02's Scouts exception), where
Infiltrators may set up (24.20) and where a scout move may end (24.32)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.rules.geometry import footprint
from sim.rules import pre_battle as PB
from sim.rules.pre_battle import infiltrator_problems, next_deployer, roll_off, scout_end_problems, unit_scouts

R32 = 16 / 25.4  # a 32 mm base's radius, inches


def disc(x, y):
    return footprint("round", x, y, 2 * R32, 2 * R32, 0.0)


def test_01_05_05_roll_off():
    assert roll_off(5, 2) == 0 and roll_off(1, 6) == 1 and roll_off(4, 4) is None


def test_26_08_alternate_then_the_other_sets_up_the_rest():
    assert next_deployer(0, (3, 2), (False, False)) == (1, (False, False))
    assert next_deployer(1, (3, 2), (False, False)) == (0, (False, False))
    assert next_deployer(0, (3, 0), (False, False)) == (0, (False, False))  # blue is done
    assert next_deployer(1, (0, 2), (False, False)) == (1, (False, False))
    assert next_deployer(0, (0, 0), (False, False)) == (None, (False, False))


def test_26_08_titanic_costs_the_next_deployment_turn():
    # red set up a TITANIC unit (its skip), then blue set up one: blue goes again, the skip spent
    assert next_deployer(1, (2, 2), (True, False)) == (1, (False, False))
    assert next_deployer(1, (2, 1), (False, False)) == (0, (False, False))
    # a skip is not spent while the other player has nothing to set up
    assert next_deployer(1, (2, 0), (False, True)) == (0, (False, True))


@given(st.lists(st.booleans(), min_size=1, max_size=12), st.lists(st.booleans(), min_size=1, max_size=12))
def test_26_08_every_unit_is_set_up_exactly_once(titanic0, titanic1):
    """Whatever the TITANIC units, the sequence sets up every unit of both players and ends."""
    units = [list(titanic0), list(titanic1)]
    left = [len(units[0]), len(units[1])]
    skips = (False, False)
    p, steps = 0, 0
    while p is not None:
        assert left[p] > 0
        t = units[p][len(units[p]) - left[p]]
        left[p] -= 1
        if t:
            skips = tuple(s or i == p for i, s in enumerate(skips))
        p, skips = next_deployer(p, tuple(left), skips)
        steps += 1
        assert steps <= 24
    assert left == [0, 0]


def test_24_31_24_02_scouts_uses_the_lowest_of_each_models_best():
    assert unit_scouts([[6, 8], [6, 8]]) == 8
    assert unit_scouts([[6], [8], [8], [8], [8], [8]]) == 6
    assert unit_scouts([[6], []]) is None
    assert unit_scouts([]) is None


def test_24_20_infiltrators_more_than_8_from_zone_and_enemy_models():
    zone = ((0, 0), (60, 0), (60, 12), (0, 12))
    ok = infiltrator_problems([disc(30, 20 + R32 + 0.01)], ["m"], zone, [], [])
    assert ok == []
    (p,) = infiltrator_problems([disc(30, 20 + R32)], ["m"], zone, [], [])
    assert "8.00\" from the enemy deployment zone" in p and "24.20" in p
    (p,) = infiltrator_problems([disc(30, 30)], ["m"], zone, [disc(30, 30 + 8 + 2 * R32)], ["e"])
    assert p.startswith("m: 8.00\" from e") and "24.20" in p


def test_24_32_a_scout_move_ends_more_than_8_from_every_enemy_unit():
    assert scout_end_problems([disc(0, 0)], ["m"], [disc(0, 8.01 + 2 * R32)], ["e"]) == []
    (p,) = scout_end_problems([disc(0, 0)], ["m"], [disc(0, 8 + 2 * R32)], ["e"])
    assert "24.32" in p
    assert scout_end_problems([disc(0, 0)], ["m"], [], []) == []


def test_24_31_carried_scouts_a_dedicated_transport_scouts_for_passengers_that_all_have_it():
    ded = ("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT")
    assert PB.carried_scouts(ded, [[6], [6], [8, 6]]) == 6
    assert PB.carried_scouts(ded, [[6], []]) is None            # a passenger model without Scouts
    assert PB.carried_scouts(ded, []) is None                   # nothing embarked
    assert PB.carried_scouts(("VEHICLE", "TRANSPORT"), [[6]]) is None  # not a dedicated transport
