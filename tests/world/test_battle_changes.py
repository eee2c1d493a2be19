"""battle.changes (sim.world.changes.Changes): what the systems note for each other, set and cleared
by the systems its fields name, through the whole ECS path."""

from __future__ import annotations

from scen import model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import EndTurn, Move, Selection, Shoot
from sim.rules.dice import ForcedDice
from sim.world import queries as W


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


def test_the_units_whose_shots_changed_are_noted_and_only_they_are_synced():
    """Changes.shot names the units whose 13.09 record may have changed (a first shot of the
    turn; the turn after a unit's last shot ends): the index's sync reads those only, and
    knows then what a sync of every unit would know."""
    cmd = Shoot("a", tuple(Selection(f"a/{i}", "rifle", "b") for i in (1, 2)))
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        a = b.units["a"]
        vis = b.visibility
        assert not b.changes.shots_changed and b.changes.shot_units is None
        b.run_command(cmd)
        assert b.changes.shots_changed and b.changes.shot_units == {a: None}
        read = []
        was = vis.index.set_unit_made_ranged_attacks
        vis.index.set_unit_made_ranged_attacks = lambda uid, made: (read.append((uid, made)), was(uid, made))
        b.visibility  # noqa: B018
        assert read == [("a", True)] and vis.index.attacked_units == {"a"}
        assert not b.changes.shots_changed and b.changes.shot_units is None
        b.run_command(EndTurn())    # (it shot this turn: "this turn or last" still holds)
        assert not b.changes.shots_changed
        b.run_command(EndTurn())    # (its last shot is two turns back now)
        assert b.changes.shot_units == {a: None}
        b.visibility  # noqa: B018
        assert read[1:] == [("a", False)] and vis.index.attacked_units == set()
        # (a record changed without a note is not read by a sync of the units noted...)
        W.unit_state(b.units["c"]).ranged_attacks_this_turn = True
        b.changes.shot(a)
        b.visibility  # noqa: B018
        assert read[2:] == [] and vis.index.attacked_units == set()
        # (...and is by one set without naming a unit: every unit read)
        b.changes.shots_changed = True
        b.visibility  # noqa: B018
        assert read[2:] == [("c", True)] and vis.index.attacked_units == {"c"}


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
