"""03.03 A model a coherency removal takes is destroyed (05.04): it is no longer one of its unit's
living models, so it no longer counts for objective control (14.02), coherency or targeting,
and the state hash records it at 0 wounds."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.rules.dice import ForcedDice
from sim.world import queries as W


def test_03_03_a_model_removed_for_coherency_is_no_longer_a_living_model_of_its_unit():
    red = [unit("r", model([(10, 10), (11.5, 10), (30, 10)], ["blade"]))]
    blue = [unit("b", model((50, 40), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        b._enter()
        assert [W.model_id(m) for m in W.unit_models(b.units["r"])] == ["r/1", "r/2"]
        assert not W.alive(b.models["r/3"])
        gone = b.state()["models"]["r/3"]
        assert gone["Wounds"] == {"remaining": 0} and gone["Destroyed"]["removed"] is True
