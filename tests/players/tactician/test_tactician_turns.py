"""03.01 The tactician turns a vehicle where a move it chose is refused as the vehicle stands
(sim.players.tactician.movement._legal_best: the same ends, its vehicles turned to lie along
the step, options.turned_moves), and no player checks a turned move that cannot be legal at
any facing (options.turn_futile: the disc each base holds, whatever its facing, would end over
a feature or cross a dense one)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np

from sim.battle import Battle
from sim.commands import EndPhase, Move, StartBattle
from sim.players import make_player
from sim.players import options as O
from sim.rules.grid import snap_facing
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _movement_phase(b: Battle) -> None:
    b.run_command(StartBattle())
    while str(b.turn_state.phase) != "movement":
        b.run_command(EndPhase())
    b._enter()


def _spec():
    return dataclasses.replace(load_scenario(ROOT / "scenarios" / "turning.toml"), script=())


def test_03_01_the_tactician_turns_its_tank_through_a_gate_it_cannot_cross_across():
    """scenarios/turning.toml: the tank's objective lies beyond a 4" gate its hull is too wide
    for across. As it stands the tactician's tank stopped short of the wall; now it turns and
    drives through lengthwise (take the turning out of _legal_best and the tank stays south)."""
    with Battle(_spec()) as b:
        _movement_phase(b)
        player = make_player("tactician", 0, b, _spec())
        cmd = player.choose(b).command
        while cmd.unit != "tank":
            b.run_command(cmd)
            cmd = player.choose(b).command
        assert cmd.face == (("tank/1", 90.0),) and b.check(cmd) is None
        assert cmd.to[0][2] > 15.5      # (beyond the wall, whose far side is at y = 15.5)
        b.run_command(cmd)
        assert b.events[-1]["type"] != "error"


def test_03_01_turn_futile_across_a_wall_and_not_through_the_gate():
    with Battle(_spec()) as b:
        _movement_phase(b)
        across = Move("tank", (("tank/1", 15.0, 17.0),))   # (straight over the west wall)
        gate = Move("tank", (("tank/1", 22.0, 19.0),))     # (through the gate, lengthwise it fits)
        assert O.turn_futile(b, across) and not O.turn_futile(b, gate)
        assert b.check(gate) is not None                    # (as it stands: too wide across)
        assert b.check(dataclasses.replace(gate, face=(("tank/1", 90.0),))) is None
        assert O.turned_moves(b, b.units["tank"], [across, gate], keep=True)[0] is None


def test_03_01_turn_futile_only_says_so_of_moves_refused_at_every_facing():
    """Seeded ends about the tank near the walls: each move turn_futile says True of is
    refused turned to every one of eight facings (and as it stands)."""
    rng = np.random.default_rng(3011)
    futile = 0
    with Battle(_spec()) as b:
        _movement_phase(b)
        tank = b.units["tank"]
        for _ in range(60):
            t, r = rng.uniform(0, 2 * math.pi), rng.uniform(2.0, 11.5)
            cmd = Move("tank", (("tank/1", 22.0 + r * math.cos(t), 8.0 + r * math.sin(t)),))
            if not O.turn_futile(b, cmd):
                continue
            futile += 1
            assert b.check(cmd) is not None
            for a in range(0, 180, 23):
                assert b.check(dataclasses.replace(cmd, face=(("tank/1", snap_facing(a + 1.0)),))) is not None
        assert O.turned_moves(b, tank, []) == []
    assert futile >= 5


def test_03_01_a_move_that_ends_in_the_gate_as_the_tank_stands_is_made_turned():
    """A move ending inside the gate ends over the walls at the tank's own facing (the quick
    look, routes.ends_in_feature, passes it by); turned along its step it ends clear, and the
    tactician's check of its moves takes it so."""
    from sim.players.tactician import routes as R
    from sim.players.tactician.movement import _legal_best
    with Battle(_spec()) as b:
        _movement_phase(b)
        cmd = Move("tank", (("tank/1", 22.0, 15.25),))
        assert R.ends_in_feature(b, cmd) and b.check(cmd) is not None
        (got,) = _legal_best(b, [(1.0, 0, cmd, "into the gate")])
        assert got.command.face == (("tank/1", 90.0),) and got.command.to == cmd.to
