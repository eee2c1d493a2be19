"""07 The battle round: phases in order, whose turn, which commands each phase accepts (each
refusal names the rule), five rounds, the first player every round, and the end."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, phase, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, EndTurn, Move, Shoot, Selection, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice


def _spec(**kw):
    red = [unit("r1", model([(10, 6), (11.5, 6)], ["gun", "blade"]))]
    blue = [unit("b1", model([(10, 38), (11.5, 38)], ["gun", "blade"]))]
    return mission_scenario(red, blue, **kw)


def _end_phases(b, n):
    for _ in range(n):
        b.run_command(EndPhase())


def test_07_commands_before_the_battle_starts_are_refused():
    with Battle(_spec()) as b:
        with pytest.raises(Refusal, match=r"not started.*\(07\)"):
            b.submit(EndPhase())
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"already started"):
            b.submit(StartBattle())


def test_07_02_phases_run_in_order_and_the_fight_steps_alternate():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        # the Command phase needs no choice: the battle waits in red's Movement phase
        assert phase(b) == (1, 0, "movement", None, 0)
        seen = []
        for _ in range(8):
            b.run_command(EndPhase())
            seen.append(phase(b))
        assert seen == [
            (1, 0, "shooting", None, 0), (1, 0, "charge", None, 0), (1, 0, "fight", "pile in", 0),
            (1, 0, "fight", "pile in", 1),
            # nobody can fight: the Fight step ends at once; consolidation, red first
            (1, 0, "fight", "consolidate", 0), (1, 0, "fight", "consolidate", 1),
            (1, 1, "movement", None, 1),  # blue's turn, after its Command phase
            (1, 1, "shooting", None, 1)]
        phases = [(e["player"], e["phase"]) for e in of_type(b, "phase")]
        assert phases[:7] == [("red", "command"), ("red", "movement"), ("red", "shooting"), ("red", "charge"),
                              ("red", "fight"), ("red", "end of turn"), ("blue", "command")]


def test_07_02_the_first_player_goes_first_in_every_round_and_the_battle_ends_after_round_5():
    with Battle(_spec(first="blue")) as b:
        b.run_command(StartBattle())
        turns = []
        while not b.turn_state.over:
            turns.append((b.turn_state.round, b.turn_state.active))
            _end_phases(b, 7)
        assert turns == [(r, p) for r in range(1, 6) for p in (1, 0)]
        (res,) = of_type(b, "result")
        assert res["rounds"] == 5 and res["result"] == "draw"
        with pytest.raises(Refusal, match=r"over after round 5"):
            b.submit(EndPhase())


def test_26_the_first_turn_roll_off_rerolls_ties():
    dice = ForcedDice([3, 3, 2, 5])  # a tie, then blue wins
    with Battle(_spec(first="roll-off"), dice=dice) as b:
        b.run_command(StartBattle())
        assert b.turn_state.first == 1 and b.turn_state.active == 1
        assert [p for p, _ in dice.log] == ["first turn roll-off (red, blue)"] * 2


@pytest.mark.parametrize("cmd,rule", [
    (Shoot("r1", (Selection("r1/1", "gun", "b1"),)), r"Shooting phase \(10.02\).*round 1, red's Movement phase"),
    (EndTurn(), r"end the phase instead \(07.02\)"),
])
def test_07_02_commands_are_accepted_only_in_their_phase(cmd, rule):
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=rule):
            b.submit(cmd)


def test_09_02_only_the_active_player_moves():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"only red, whose turn it is.*\(09.02\).*blue's"):
            b.submit(Move("b1", (("b1/1", 10, 36),)))


def test_07_free_play_refuses_phase_commands():
    from scen import scenario
    spec = scenario({"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}},
                    [unit("r1", model((10, 6), ["gun"]))], [unit("b1", model((10, 38), ["gun"]))])
    with Battle(spec) as b:
        with pytest.raises(Refusal, match=r"needs a battle with a mission"):
            b.submit(EndPhase())
