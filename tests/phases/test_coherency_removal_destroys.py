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


def test_03_03_a_unit_found_coherent_is_measured_again_only_when_its_bases_change(monkeypatch):
    """The End of Turn step keeps, per unit, the bases it last found in coherency (the same
    footprint objects at the same rows: footprints are replaced by every move): a unit that
    has not moved or lost a model since is not measured again; one that lost a model is, and
    a gap it leaves takes a model (03.03)."""
    import sim.phases.upkeep as UP
    measured = []
    real = UP.removals

    def removals(fps):
        measured.append([mid for mid, _fp in fps])
        return real(fps)
    monkeypatch.setattr(UP, "removals", removals)
    # (r/2 links r/1 and r/3: 0.24" and 0.74" apart; without it they are 2.24" apart)
    red = [unit("r", model([(10, 10), (11.5, 10), (13.5, 10)], ["blade"]))]
    blue = [unit("b", model([(50, 40), (51.5, 40)], ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        while b.turn_state.active == 0:     # (red's turn ends: both units measured)
            b.run_command(EndPhase())
        assert measured == [["r/1", "r/2", "r/3"], ["b/1", "b/2"]]
        while b.turn_state.active == 1:     # (blue's turn ends: nothing moved, nothing measured)
            b.run_command(EndPhase())
        assert len(measured) == 2
        from scen import kill
        kill(b, "r/2")
        while b.turn_state.active == 0:     # (red lost a model: measured, out of coherency)
            b.run_command(EndPhase())
        assert measured[2:] == [["r/1", "r/3"]]
        b._enter()
        assert len(W.unit_models(b.units["r"])) == 1
