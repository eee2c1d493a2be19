"""The table's engaged outlines (sim.sandbox.scene.Scene): a unit is drawn engaged exactly when
the world says it is (03.04, W.unit_engaged), read again after a move."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from sim.battle import Battle
from sim.commands import Move, SelectToMove, StartBattle
from sim.rules.dice import ForcedDice
from sim.sandbox.scene import Scene
from sim.world import queries as W


def test_scene_engaged_is_the_world_s_engagement():
    red = [unit("r", model((20, 20), ["blade"])), unit("far", model((50, 10), ["blade"]))]
    blue = [unit("b", model((20, 21.5), ["blade"])), unit("lone", model((5, 40), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        sc = Scene(b)
        assert {u: v.engaged for u, v in sc.units.items()} == {"r": True, "far": False, "b": True, "lone": False}
        b._enter()
        assert all(v.engaged == W.unit_engaged(v.ent) for v in sc.units.values())
        b.run_command(SelectToMove("r", "fall back"))
        b.run_command(Move("r", (("r/1", 20, 15),), "fall back"))
        assert sc.refresh()
        assert not sc.units["r"].engaged and not sc.units["b"].engaged
