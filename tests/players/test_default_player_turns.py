"""03.01 The default player turns a vehicle where that takes it further than it could go as
it stands: the tank of scenarios/turning.toml, too wide across for the gate toward its
objective, drives through lengthwise (its Move turns it, and the check accepts it), where
before it stopped at the wall."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.players import make_player
from sim.players import options as O
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_03_01_the_default_player_turns_a_tank_through_a_gate_it_cannot_cross_across():
    spec = load_scenario(ROOT / "scenarios" / "turning.toml")
    spec = dataclasses.replace(spec, script=())
    with Battle(spec) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "movement":
            b.run_command(EndPhase())
        b._enter()
        tank = b.units["tank"]
        goal = O.objective_goal(b, tank, 0)
        moves = O.moves_toward(b, tank, goal, "normal")
        assert moves and b.check(moves[0]) is not None       # (all the way across: the wall is in the way)
        first = next(m for m in moves if b.check(m) is None)  # (as it stands: up to the wall)
        turned = O.turned_moves(b, tank, moves)
        assert turned and all(m.face == (("tank/1", 90.0),) for m in turned)
        tried = O.with_turns(b, tank, moves)
        assert tried[0] is moves[0] and tried[1].face and tried[1].to == moves[0].to
        player = make_player("default", 0, b, spec)
        cmd = player.choose(b).command
        while cmd.unit != "tank":
            b.run_command(cmd)
            cmd = player.choose(b).command
        assert cmd.face == (("tank/1", 90.0),) and b.check(cmd) is None
        assert cmd.to[0][2] > first.to[0][2] + 5     # (through the gate, beyond where it stopped before)
