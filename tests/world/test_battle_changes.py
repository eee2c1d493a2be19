"""battle.changes (sim.world.changes.Changes): what the systems note for each other, set and cleared
by the systems its fields name, through the whole ECS path."""

from __future__ import annotations

from scen import model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import EndTurn, Move, Selection, Shoot
from sim.rules.dice import ForcedDice


def spec():
    ws = {"rifle": weapon(24, 1, 3, 4, 0, 1)}
    return scenario(ws, [unit("a", model(row(10, 10, 2), ["rifle"]))],
                    [unit("b", model(row(10, 20, 2), ["rifle"])),
                     unit("c", model(row(30, 30, 1), ["rifle"]))])


def test_a_move_is_noted_until_the_visibility_index_catches_up():
    with Battle(spec()) as b:
        assert b.changes.moved_models == []
        b.run_command(Move("a", (("a/1", 12, 12), ("a/2", 14, 12)), "normal"))
        assert b.changes.moved_models == [b.models["a/1"], b.models["a/2"]]
        b.run_command(EndTurn())  # (nothing reads visibility: it stays behind)
        assert b.changes.moved_models == [b.models["a/1"], b.models["a/2"]]
        vis = b.visibility  # (reading it takes the moves in)
        assert b.changes.moved_models == []
        assert vis.index.fps[vis.index.row["a/1"]].x == 12


def test_a_first_ranged_attack_marks_shots_changed_until_hidden_is_synced():
    cmd = Shoot("a", tuple(Selection(f"a/{i}", "rifle", "b") for i in (1, 2)))
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        assert not b.changes.shots_changed  # (the index synced when it was built)
        b.submit(cmd)
        b.step_until_blocked()
        # (the last tick ends the activation; nothing ticks after it)
        assert b.changes.shots_changed
        b.run_command(EndTurn())
        assert b.changes.shots_changed  # (until visibility is read)
        b.visibility  # noqa: B018
        assert not b.changes.shots_changed


def test_the_end_of_turn_resets_the_touched_units_and_keeps_those_that_shot():
    cmd = Shoot("a", tuple(Selection(f"a/{i}", "rifle", "b") for i in (1, 2)))
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        a, bb, c = b.units["a"], b.units["b"], b.units["c"]
        assert list(b.changes.touched_units) == [a, bb, c]  # (the scenario may set any state)
        b.run_command(EndTurn())
        assert list(b.changes.touched_units) == []
        b.run_command(Move("c", (("c/1", 31, 30),), "normal"))
        b.run_command(cmd)
        assert list(b.changes.touched_units) == [c, a]
        b.run_command(EndTurn())
        assert list(b.changes.touched_units) == [a]  # it shot: its 13.09 record rolls over
        b.run_command(EndTurn())
        assert list(b.changes.touched_units) == []
