"""The random player follows 12.08: an enemy unit a consolidation engaged is selected to fight
by its player, one at a time, and "becomes eligible to fight", even when the unit that engaged
it is gone before its pick comes (then, unengaged, it makes an overrun fight, 12.06). Seen at
scenarios/ladder/full_size.toml seed 11 (default v random): the random player's only option was
a normal fight the rules refused, and its End Phase was refused in turn."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import kill
from sim.battle import Battle
from sim.commands import Consolidate, EndPhase, StartBattle
from sim.rules.dice import ForcedDice
from sim.players.random_player import RandomPlayer
from sim.world import queries as W

D = 32 / 25.4  # a 32 mm base, inches


def _to(b, name, step=None):
    while not (str(b.turn_state.phase) == name and (step is None or str(b.turn_state.step) == step)):
        b.run_command(EndPhase())


def test_units_a_consolidation_engaged_are_picked_even_when_its_unit_is_gone():
    red = [unit("r1", model((20, 10), ["blade"]))]
    # (b1 north and b2 east of r1, each within 3": the consolidation engages both)
    blue = [unit("b1", model((20, 10 + D + 2.3), ["blade"])), unit("b2", model((20 + D + 2.3, 10), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to(b, "fight", "consolidate")
        b._enter()
        W.unit_state(b.units["r1"]).selected_to_fight = True  # (as if it had fought)
        # (0.4" north-east: within 2" of both, engaging both)
        cmd = Consolidate("r1", (("r1/1", 20.4, 10.4),), targets=("b1", "b2"))
        assert b.check(cmd) is None
        b.run_command(cmd)
        b._enter()
        ts = b.turn_state
        assert ts.pending_fights == [b.units["b1"], b.units["b2"]] and ts.chooser == 1
        kill(b, "r1/1")  # (as if b1's fight had destroyed it: b1 and b2 are engaged no more)
        player = RandomPlayer(1, b, b.scenario)
        for _ in range(6):
            if not ts.pending_fights and ts.overrun is None:
                break
            c = player.choose(b)
            assert b.check(c.command) is None, c.command
            b.run_command(c.command)
            b._enter()
        assert not ts.pending_fights and ts.overrun is None
        assert W.unit_state(b.units["b1"]).selected_to_fight and W.unit_state(b.units["b2"]).selected_to_fight
