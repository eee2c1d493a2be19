"""The default player's whole-unit moves (options.moves_toward): the longest step, all of the
unit's M toward a goal farther than that, is a move the rules accept (03.01) wherever the unit
stands and whatever its bearing: each step aims AIM_MARGIN (sim.rules.grid) short, so its ends,
snapped to the grid, take no model past M. (A step of exactly M was refused about one time in
two for a model a snap beyond it, and the player fell back to 3/4 of M.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from phased import mission_scenario, model, unit
from sim.battle import Battle
from sim.commands import EndPhase, StartBattle
from sim.phases.state import Phase
from sim.players import options as O
from sim.rules.grid import AIM_MARGIN


@pytest.mark.parametrize("seed", range(4))
def test_moves_toward_longest_step_is_legal_and_all_but_the_margin_of_m(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        x, y = (float(v) for v in np.round(rng.uniform([20, 16], [40, 28]), 6))
        spec = mission_scenario([unit("r", model((x, y), M=6), model((x + 1.5, y), M=6))],
                                [unit("b", model((56.0, 42.0)))])
        with Battle(spec) as b:
            b.run_command(StartBattle())
            while b.turn_state.phase != Phase.MOVEMENT:
                b.run_command(EndPhase())
            u = b.units["r"]
            a = rng.uniform(0, 2 * math.pi)
            goal = (x + 20 * math.cos(a), y + 20 * math.sin(a))
            moves = O.moves_toward(b, u, goal, "normal")
            assert b.check(moves[0]) is None, str(b.check(moves[0]))
            for (_m, ex, ey), (sx, sy) in zip(moves[0].to, ((x, y), (x + 1.5, y))):
                assert 6.0 - AIM_MARGIN - 1e-6 <= math.dist((ex, ey), (sx, sy)) <= 6.0
