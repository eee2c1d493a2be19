"""09.06 / 03.01 A free-play advance moved without a selection: its D6 is rolled as the move is
made, a model sent beyond M + the roll stops on its path where the roll runs out, and that
stopping place is checked like the end of any other move: if it is illegal no model moves
(03.01: they return to their start) and the unit stays selected to advance with its roll."""

from __future__ import annotations

import pytest

from scen import model, of_type, scenario, unit
from sim.battle import Battle
from sim.commands import Move
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}


def _spec():
    # r1/1 at x = 10, M 6; a friendly r2/1 at x = 17.5 on its line; the enemy far away
    return scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6)), unit("r2", model((17.5, 10), ["gun"]))],
                    [unit("b1", model((50, 40), ["gun"]))])


def _at(b, mid):
    b._enter()
    return W.footprint(b.models[mid]).centre


def test_09_06_a_short_roll_that_leaves_a_base_on_another_is_not_made():
    with Battle(_spec(), dice=ForcedDice([1])) as b:
        b.run_command(Move("r1", (("r1/1", 22, 10),), "advance"))  # 12": legal for a roll of 6
        assert _at(b, "r1/1") == (10, 10)  # the roll of 1 stopped it at x = 17, on r2/1: not made
        assert of_type(b, "moved") == []
        (e,) = of_type(b, "move not made")
        assert e["advance_roll"] == 1 and "overlapping the base of friendly model r2/1" in e["reason"]
        assert "(03.01" in e["reason"]
        st = W.unit_state(b.units["r1"])
        assert st.move_selected == "advance" and st.advance_roll == 1 and not st.advanced
        # the unit moves again with the roll it has: M + 1 = 7"
        with pytest.raises(Refusal, match=r"may move at most 7\" in an advance move \(09.06\)"):
            b.submit(Move("r1", (("r1/1", 17.1, 12),), "advance"))
        b.run_command(Move("r1", (("r1/1", 16, 10),), "advance"))
        assert _at(b, "r1/1") == (16, 10) and W.unit_state(b.units["r1"]).advanced
        assert len([d for d in b.events if d["type"] == "dice"]) == 1  # one roll in all


def test_09_06_a_short_roll_that_stops_on_open_ground_moves_there():
    with Battle(_spec(), dice=ForcedDice([3])) as b:
        b.run_command(Move("r1", (("r1/1", 22, 10),), "advance"))
        assert _at(b, "r1/1") == (19, 10)  # M + 3 = 9" on, past r2/1 (1.5" apart: clear)
        (e,) = of_type(b, "moved")
        assert e["advance_roll"] == 3 and e["distance"] == 9.0


def test_09_06_the_stop_follows_the_path_through_its_turning_points():
    spec = scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec, dice=ForcedDice([2])) as b:
        b.run_command(Move("r1", (("r1/1", 16, 16),), "advance", via=(("r1/1", ((16, 10),)),)))
        assert _at(b, "r1/1") == (16, 12)  # 6" east, then 2" of the 6" north: 8" = M + 2
        assert W.unit_state(b.units["r1"]).moved == 8.0


def test_09_06_a_flying_free_play_advance_stops_at_m_plus_the_roll_less_2():
    spec = scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6), keywords=("VEHICLE", "FLY"))],
                    [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec, dice=ForcedDice([2])) as b:
        b.run_command(Move("r1", (("r1/1", 20, 10),), "advance", fly=True))  # 10" <= 6 + 6 - 2
        assert _at(b, "r1/1") == (16, 10)  # 6 + 2 - 2 = 6"
