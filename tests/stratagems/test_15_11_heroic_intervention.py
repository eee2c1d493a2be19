"""15.11 Heroic Intervention at the end of the opponent's Charge phase: Leap to Defend (1 CP,
only at units that charged this phase) or Into the Fray (2 CP, any enemy within 6", the roll
capped at 6); the unit charges (11.04) and so fights first; not offered without the CP."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import ChargeMove, DeclareCharge, EndPhase, StartBattle
from sim.plan import moves as MV
from sim.rules.dice import ForcedDice
from sim.world import queries as W
from sim.commands import charge_command


def _spec():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 16), ["blade"])), unit("b2", model((24, 15), ["blade"]))]
    return mission_scenario(red, blue)


def _to(b, phase):
    while str(b.turn_state.phase) != phase:
        b.run_command(EndPhase())


def test_15_11_leap_to_defend_charges_a_unit_that_charged():
    # r1 charges b1 (roll 3 + 3 = 6, b1 4.74" away); blue's b2 leaps to defend (roll 4 + 4 = 8)
    with Battle(_spec(), dice=ForcedDice([3, 3, 4, 4] + [1] * 20)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 1]
        _to(b, "charge")
        b.run_command(DeclareCharge("r1"))
        b.run_command(charge_command(b, "r1", None, None))

        def blue(req):
            return "b2: Leap to Defend" if req.kind == "stratagem" and "b2: Leap to Defend" in req.options else req.default
        b.run_command(EndPhase(), blue)
        (hi,) = of_type(b, "stratagem")
        assert hi["stratagem"] == "Heroic Intervention" and hi["target"] == "b2" and b.turn_state.cp[1] == 0
        made = [e for e in of_type(b, "charge") if e.get("note") == "Heroic Intervention (Leap to Defend)"]
        assert made and made[0]["result"] == "made" and made[0]["targets"] == ["r1"]
        b._enter()
        assert W.unit_state(b.units["b2"]).charged and W.unit_engaged(b.units["b2"])
        assert str(b.turn_state.phase) == "fight"


def test_15_11_not_offered_without_the_cp_or_when_declined():
    with Battle(_spec(), dice=ForcedDice([1, 1] + [1] * 20)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 0]
        _to(b, "charge")
        b.run_command(DeclareCharge("r1"))
        b.run_command(ChargeMove("r1", (), ()))
        b.run_command(EndPhase())
        assert [e for e in of_type(b, "decision") if e["kind"] == "stratagem"] == []


def _offered_after_a_failed_charge(red_at, blue_at):
    """r1 declares a charge at b1 and rolls 1 + 1 (fails); blue has 2 CP: the options offered."""
    red = [unit("r1", model(red_at, ["blade"]))]
    blue = [unit("b1", model(blue_at, ["blade"]))]
    offered = []
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1, 1] + [1] * 20)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp = [0, 2]
        _to(b, "charge")
        b.run_command(DeclareCharge("r1"))
        b.run_command(ChargeMove("r1", (), ()))
        assert not W.unit_state(b.units["r1"]).charged

        def blue_answers(req):
            if req.kind == "stratagem":
                offered.extend(req.options)
            return req.default
        b.run_command(EndPhase(), blue_answers)
    return offered


def test_15_11_no_leap_to_defend_after_a_charge_that_failed():
    # b1 4.74" from r1: Into the Fray (any enemy within 6") may be offered, Leap to Defend (only
    # at units that charged this phase) may not: r1's charge failed
    offered = _offered_after_a_failed_charge((20, 10), (20, 16))
    assert "b1: Into the Fray" in offered
    assert "b1: Leap to Defend" not in offered


def test_15_11_nothing_offered_after_a_failed_charge_with_no_enemy_within_6():
    # b1 7.74" from r1: within 12" (r1 could declare), but no mode has a target
    assert _offered_after_a_failed_charge((20, 10), (20, 19)) == []


# --- 21.03 taking to the skies: a Heroic Intervention is a charge like any other ----------------

# a dense wall 1" thick at x = 18..19: a MONSTER's path may not cross it on the ground (Part A 12)
WALL = [[18, 5], [19, 5], [19, 15], [18, 15]]
TERRAIN = [{"name": "wall", "area": WALL, "features": [{"category": "dense", "polygon": WALL}]}]


def _fly_spec(r1_x: float, abilities=None):
    """Blue's FLY MONSTER b2 at (17, 10) on one side of the wall, red's r1 at (r1_x, 10) on the
    other (32 mm bases: r1_x - 18.26 inches apart edge to edge). On the ground b2 can reach no
    spot within 2" of r1 (the wall's near side is 2" + from it, going round is too far)."""
    kw = {"abilities": abilities} if abilities else {}
    red = [unit("r1", model((r1_x, 10), ["blade"]))]
    blue = [unit("b2", model((17, 10), ["blade"], M=8), keywords=("MONSTER", "FLY"), **kw)]
    return mission_scenario(red, blue, terrain=TERRAIN)


def _into_the_fray(b):
    """Blue's b2 intervenes Into the Fray (2 CP) at the end of red's Charge phase: its charge event."""
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 2]
    _to(b, "charge")

    def blue(req):
        return "b2: Into the Fray" if req.kind == "stratagem" and "b2: Into the Fray" in req.options else req.default
    b.run_command(EndPhase(), blue)
    (made,) = [e for e in of_type(b, "charge") if e.get("note") == "Heroic Intervention (Into the Fray)"]
    return made


def test_15_11_21_03_a_fly_unit_intervenes_taking_to_the_skies_when_the_ground_is_blocked():
    # r1 3.24" away beyond the wall; the roll 4 + 4 = 8 is capped at 6 (Into the Fray), 4" flying
    with Battle(_fly_spec(21.5), dice=ForcedDice([4, 4] + [1] * 20)) as b:
        made = _into_the_fray(b)
        assert made["roll"] == 6 and made["result"] == "made" and made["targets"] == ["r1"]
        assert made["fly"] is True
        b._enter()
        assert W.unit_state(b.units["b2"]).charged and W.unit_engaged(b.units["b2"])
        assert W.footprint(b.models["b2/1"]).x > 19  # over the wall


def test_15_11_a_heroic_intervention_on_the_ground_is_logged_without_fly():
    red = [unit("r1", model((21.5, 10), ["blade"]))]
    blue = [unit("b2", model((17, 10), ["blade"], M=8), keywords=("MONSTER", "FLY"))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([4, 4] + [1] * 20)) as b:  # (no wall)
        made = _into_the_fray(b)
        assert made["result"] == "made" and "fly" not in made


@pytest.mark.parametrize("abilities,result", [(None, "not made"), ("Hover", "made")])
def test_15_11_21_03_24_17_a_heroic_intervention_taking_to_the_skies_reaches_2_inches_less(abilities, result):
    # r1 4.5" away beyond the wall: within the capped roll of 6 on the ground (blocked), but not
    # within 6 - 2 = 4" taking to the skies; with Hover the whole 6"
    with Battle(_fly_spec(22.76, abilities), dice=ForcedDice([4, 4] + [1] * 20)) as b:
        made = _into_the_fray(b)
        assert made["roll"] == 6 and made["result"] == result
        assert made.get("fly") is (True if result == "made" else None)
        b._enter()
        assert W.unit_state(b.units["b2"]).charged is (result == "made")
