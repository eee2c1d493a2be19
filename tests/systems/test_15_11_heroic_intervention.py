"""15.11 Heroic Intervention at the end of the opponent's Charge phase: Leap to Defend (1 CP,
only at units that charged this phase) or Into the Fray (2 CP, any enemy within 6", the roll
capped at 6); the unit charges (11.04) and so fights first; not offered without the CP."""

from __future__ import annotations

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
