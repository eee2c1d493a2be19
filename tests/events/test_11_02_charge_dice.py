"""11.02 The dice of a unit's charge roll, read as the charge declaration promises (the last
dice event before the unit's declared charge event: sim.events.moves.charge_dice), not from the
roll's purpose text: the Command Re-roll's dice when one was made (15.02), and another unit's
roll never taken for its own, whatever their ids."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import ChargeMove, DeclareCharge, EndPhase, StartBattle
from sim.events.moves import charge_dice
from sim.rules.dice import ForcedDice


def test_11_02_the_charge_dice_are_the_re_roll_s_and_the_unit_s_own():
    # r and r2 each 10" (centres) from an enemy unit; r's roll of 2 fails and the default
    # policy re-rolls it (ruling 25, 15.02); r2 (an id r's is the start of) rolls 12
    red = [unit("r", model((20, 20), ["blade"])), unit("r2", model((40, 20), ["blade"]))]
    blue = [unit("b", model((20, 30), ["blade"])), unit("b2", model((40, 30), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1, 1, 5, 6, 6, 6])) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        assert charge_dice(b.events, "r") == ()
        b.run_command(DeclareCharge("r"))
        assert [e["about"] for e in of_type(b, "stratagem")] == ["charge roll 2"]  # (re-rolled)
        assert charge_dice(b.events, "r") == (5, 6)
        b.run_command(ChargeMove("r", (), ()))
        b.run_command(DeclareCharge("r2"))
        assert charge_dice(b.events, "r2") == (6, 6)
        assert charge_dice(b.events, "r") == (5, 6)
        assert [e["roll"] for e in of_type(b, "charge") if e["result"] == "declared"] == [11, 12]
