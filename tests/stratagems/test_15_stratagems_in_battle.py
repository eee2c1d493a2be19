"""15 Core stratagems in a battle: offered as decisions at their moment, within the 15.01
limits (CP, once per phase per player, once per battle), paid for, and with their effect.
Part A ruling 25: the default policy re-rolls a failed charge roll and uses nothing else."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import kill, of_type
from sim.battle import Battle
from sim.commands import ChargeMove, DeclareCharge, EndPhase, Fight, Selection, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W


def _to_phase(b, name):
    while str(b.turn_state.phase) != name:
        b.run_command(EndPhase())


def _charge_spec():
    red = [unit("r1", model((20, 10), ["blade"])), unit("r2", model((40, 10), ["blade"]))]
    blue = [unit("b1", model((20, 16), ["blade"])), unit("b2", model((40, 16), ["blade"]))]
    return mission_scenario(red, blue)


def test_15_02_the_default_policy_re_rolls_a_failed_charge_roll():
    # r1's charge roll 1 + 1 = 2 cannot reach b1 (4.74" away): re-rolled (1 CP) to 4 + 4 = 8
    with Battle(_charge_spec(), dice=ForcedDice([1, 1, 4, 4])) as b:
        b.run_command(StartBattle())
        _to_phase(b, "charge")
        b.run_command(DeclareCharge("r1"))
        (used,) = of_type(b, "stratagem")
        assert used["stratagem"] == "Command Re-roll" and used["cp"] == 1 and used["cp_left"] == 0
        b._enter()
        assert W.unit_state(b.units["r1"]).charge_roll == 8
        assert [p for p, _ in b.dice.log] == ["charge roll r1", "charge roll r1 (Command Re-roll)"]


def test_15_01_a_stratagem_needs_the_cp_and_is_once_per_phase():
    with Battle(_charge_spec(), dice=ForcedDice([1, 1, 2, 2, 1, 2])) as b:
        b.run_command(StartBattle())
        b.turn_state.cp[0] = 3
        _to_phase(b, "charge")
        b.run_command(DeclareCharge("r1"))  # 2, re-rolled to 4: still short, nothing more
        b.run_command(ChargeMove("r1", (), ()))  # (the charge is given up: 11.02 one at a time)
        b.run_command(DeclareCharge("r2"))  # 3: failed, but Command Re-roll was used this phase
        assert [e["target"] for e in of_type(b, "stratagem")] == ["r1"]
        assert b.turn_state.cp[0] == 2
        reqs = [e for e in of_type(b, "decision") if e["kind"] == "stratagem"]
        assert len(reqs) == 1  # (r2's roll was not even offered one)


def test_15_02_a_successful_charge_roll_is_not_re_rolled_by_default():
    with Battle(_charge_spec(), dice=ForcedDice([3, 4])) as b:
        b.run_command(StartBattle())
        _to_phase(b, "charge")
        b.run_command(DeclareCharge("r1"))
        assert of_type(b, "stratagem") == []
        (d,) = [e for e in of_type(b, "decision") if e["kind"] == "stratagem"]
        assert d["answer"] == "decline"


def _shock_spec():
    red = [unit("r1", model([(28, 20), (29.5, 20), (31, 20), (32.5, 20)], ["gun"], Ld=7))]
    blue = [unit("b1", model((30, 40), ["gun"]))]
    return mission_scenario(red, blue)


def _next_round(b, answer=None):
    start = b.turn_state.round
    while b.turn_state.round == start:
        b.run_command(EndPhase(), answer)


def test_15_04_insane_bravery_passes_the_roll_once_per_battle():
    use = (lambda req: "use" if req.kind == "stratagem" and "use" in req.options else req.default)
    # round 2: Insane Bravery (no dice); round 3: it cannot be used again, the roll (1 + 1) fails
    with Battle(_shock_spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(StartBattle())
        kill(b, "r1/1")
        kill(b, "r1/2")
        _next_round(b, use)
        (ib,) = of_type(b, "stratagem")
        assert ib["stratagem"] == "Insane Bravery" and ib["target"] == "r1"
        (shock,) = of_type(b, "battle-shock")
        assert shock["roll"] is None and shock["passed"] and shock["note"] == "Insane Bravery (15.04)"
        _next_round(b, use)
        shocks = of_type(b, "battle-shock")
        assert [s["passed"] for s in shocks] == [True, False] and len(of_type(b, "stratagem")) == 1


def test_15_12_counteroffensive_makes_the_chosen_unit_the_next_pick():
    red = [unit("ra", model((20, 20), ["blade"])), unit("rb", model((40, 20), ["blade"]))]
    blue = [unit("ba", model((20, 21.5), ["blade"])), unit("bb", model((40, 21.5), ["blade"])),
            unit("bc", model((50, 20), ["blade"]))]
    red.append(unit("rc", model((50, 21.5), ["blade"])))
    with Battle(mission_scenario(red, blue), dice=ForcedDice([1] * 40)) as b:
        b.run_command(StartBattle())
        b.turn_state.cp[1] = 2
        while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())

        def blue_counters(req):
            return "bc" if req.kind == "stratagem" and "bc" in req.options else req.default
        b.run_command(Fight("ra", (Selection("ra/1", "blade", "ba"),)), blue_counters)
        (co,) = of_type(b, "stratagem")
        assert co["stratagem"] == "Counteroffensive" and co["target"] == "bc" and b.turn_state.cp[1] == 0
        assert b.turn_state.chooser == 1
        with pytest.raises(Refusal, match=r"bc was the target of a Counteroffensive and must be picked next \(15.12\)"):
            b.submit(Fight("ba", (Selection("ba/1", "blade", "ra"),)))
        b.run_command(Fight("bc", (Selection("bc/1", "blade", "rc"),)))
        assert b.turn_state.forced_pick is None


def test_15_01_each_battle_keeps_its_own_record_of_stratagems_used():
    """(A once-per-battle use in one battle must not count in another.)"""
    from sim.phases.state import MissionSpec, TurnState
    a, b = TurnState(MissionSpec()), TurnState(MissionSpec())
    a.once_per_battle[0].append("Insane Bravery")
    a.stratagems_used[1].append("Command Re-roll")
    assert b.once_per_battle == ([], []) and b.stratagems_used == ([], [])
