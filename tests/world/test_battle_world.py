"""Each Battle gets its own esper world; close() (or leaving the with-block) deletes it, so
tests never leak entities (issue 2, 'The world (esper)')."""

from __future__ import annotations

import esper

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.components import ModelId, Unit
from sim.rules.dice import ForcedDice
from sim.world import resources


def spec():
    ws = {"rifle": weapon(24, 1, 3, 4, 0, 1)}
    return scenario(ws, [unit("a", model(row(10, 10, 3), ["rifle"]))], [unit("b", model(row(10, 20, 2), ["rifle"]))])


def test_each_battle_has_its_own_world_and_close_deletes_it():
    before = set(esper.list_worlds())
    b1 = Battle(spec())
    b2 = Battle(spec())
    try:
        assert b1.world != b2.world
        assert {b1.world, b2.world} <= set(esper.list_worlds())
        assert b1.world not in before and b2.world not in before
        b1._enter()
        assert resources.current is b1.resources
        assert len(esper.get_component(ModelId)) == 5 and len(esper.get_component(Unit)) == 2
        b2._enter()
        assert resources.current is b2.resources and b2.resources.spatial is not b1.resources.spatial
        assert len(esper.get_component(ModelId)) == 5  # not 10: nothing shared
    finally:
        b1.close()
        b2.close()
    assert b1.world not in esper.list_worlds() and b2.world not in esper.list_worlds()
    assert set(esper.list_worlds()) <= before | {"default"}
    assert resources.current is None  # (closing the entered battle uninstalls its resources)


def test_context_manager_deletes_world_and_close_is_idempotent():
    with Battle(spec()) as b:
        name = b.world
        assert esper.current_world == name
    assert name not in esper.list_worlds()
    b.close()  # again: no error
    assert name not in esper.list_worlds()


def test_two_battles_interleaved_do_not_disturb_each_other():
    cmd = Shoot("a", tuple(Selection(f"a/{i}", "rifle", "b") for i in range(1, 4)))
    with Battle(spec(), dice=ForcedDice([1, 1, 1])) as b1, Battle(spec(), dice=ForcedDice([4, 4, 4, 4, 4, 4, 1, 1, 1])) as b2:
        h1 = b1.state_hash()
        b2.run_command(cmd)
        assert b1.state_hash() == h1  # b2's damage is not in b1's world
        b1.run_command(cmd)
        assert len(of_type(b2, "model destroyed")) == 2
        assert of_type(b1, "model destroyed") == []


def test_same_seed_same_events():
    cmd = Shoot("a", tuple(Selection(f"a/{i}", "rifle", "b") for i in range(1, 4)))
    runs = []
    for _ in range(2):
        with Battle(spec(), seed=11) as b:
            b.run_command(cmd)
            runs.append((b.events, b.state_hash()))
    assert runs[0] == runs[1]
