"""09.05.01 One normal move per phase (and 09.02: a unit is selected to move once): a second
normal, advance or fall-back move of the same unit in the same turn is refused with the rule's
number, and nothing moves; after the end of the turn the unit may move again. "Moved" for
[HEAVY] (24.16) is the distance the unit's models moved this turn."""

from __future__ import annotations

import esper
import pytest

from scen import model, of_type, row, scenario, unit, weapon
from sim.world import queries as W
from sim.battle import Battle
from sim.errors import Refusal
from sim.commands import EndTurn, Move, Selection, Shoot
from sim.components import Position
from sim.rules.dice import ForcedDice

WEAPONS = {"cannon": weapon(36, 1, 4, 5, -1, 1, "[HEAVY]"),
           "claws": weapon("melee", 1, 4, 4, 0, 1)}
HEAVY = "[HEAVY] (24.16)"


def spec(**gunner_kw):
    gunners = unit("gun", model(row(10, 10, 2), ["cannon"]), **gunner_kw)
    brutes = unit("brutes", model((30, 12), ["claws"]))  # engaged with the pair below
    pair = unit("pair", model(row(30, 14, 2), ["claws"]))
    target = unit("target", model((10, 30), ["claws"]))
    return scenario(WEAPONS, [gunners, brutes], [target, pair])


def by(b, uid, dx, dy, mode="normal"):
    b._enter()
    return Move(uid, tuple((W.model_id(m), *_add(_pos(m), dx, dy))
                           for m in W.unit_models(b.units[uid])), mode)


def _add(pos, dx, dy):
    return (pos[0] + dx, pos[1] + dy)


def _pos(m):
    p = esper.component_for_entity(m, Position)
    return (p.x, p.y)


def positions(b, uid):
    b._enter()
    return [_pos(m) for m in W.unit_models(b.units[uid])]


@pytest.mark.parametrize("first,second", [("normal", "normal"), ("normal", "advance"),
                                          ("advance", "normal"), ("advance", "advance")])
def test_09_05_01_a_second_move_in_the_same_turn_is_refused(first, second):
    with Battle(spec(), dice=ForcedDice([1])) as b:  # (an advance roll of 1, if one is made)
        b.run_command(by(b, "gun", 3, 0, first))
        before = positions(b, "gun")
        with pytest.raises(Refusal, match=r"09\.05\.01"):
            b.submit(by(b, "gun", 3, 0, second))
        assert positions(b, "gun") == before
        assert "09.05.01" in of_type(b, "refused")[-1]["reason"]
        assert len(of_type(b, "moved")) == 1


def test_09_05_01_fall_back_then_normal_move_is_refused():
    with Battle(spec()) as b:
        b.run_command(by(b, "brutes", 0, -3, "fall back"))
        assert not W.unit_engaged(b.units["brutes"])
        with pytest.raises(Refusal, match=r"09\.05\.01"):
            b.submit(by(b, "brutes", -3, 0))


def test_09_05_01_a_move_declared_by_the_scenario_counts():
    """A unit the scenario says moved this turn (turn state ``moved``) has made its move."""
    with Battle(spec(moved=2.0)) as b:
        with pytest.raises(Refusal, match=r"09\.05\.01"):
            b.submit(by(b, "gun", 1, 0))


def test_09_05_01_after_the_end_of_turn_the_unit_moves_again():
    with Battle(spec()) as b:
        b.run_command(by(b, "gun", 3, 0))
        b.run_command(EndTurn())
        assert W.unit_state(b.units["gun"]).moved == 0.0
        b.run_command(by(b, "gun", 3, 0))
        assert positions(b, "gun")[0] == (16, 10)
        assert W.unit_state(b.units["gun"]).moved == pytest.approx(3.0)


def test_24_16_heavy_after_two_attempted_3in_moves_is_judged_on_the_one_made():
    """Two 3" moves used to be accepted and [HEAVY] kept its +1 (the largest single move, 3");
    now the second is refused: the unit moved 3" and [HEAVY] applies."""
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(by(b, "gun", 3, 0))
        with pytest.raises(Refusal):
            b.submit(by(b, "gun", 3, 0))
        b.run_command(Shoot("gun", (Selection("gun/1", "cannon", "target"),
                                    Selection("gun/2", "cannon", "target"))))
        (p,) = of_type(b, "pool")
        assert dict(map(tuple, p["modifiers"])).get(HEAVY) == 1


def test_24_16_heavy_lost_after_one_move_of_more_than_3in():
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(by(b, "gun", 3.5, 0))
        b.run_command(Shoot("gun", (Selection("gun/1", "cannon", "target"),
                                    Selection("gun/2", "cannon", "target"))))
        (p,) = of_type(b, "pool")
        assert HEAVY not in dict(map(tuple, p["modifiers"]))


def test_09_05_01_a_move_checked_before_it_was_made_is_checked_again_after(monkeypatch):
    """Battle.check's verdicts are kept for the very commands it judged, until anything happens
    (a player checks its options, then submits one: each validated once, whatever was checked
    between); a command made since makes the old verdicts void, so the same Move submitted
    again is refused (09.05.01)."""
    import sim.commands as commands_module
    calls = []
    real = commands_module.validate
    monkeypatch.setattr(commands_module, "validate", lambda b, c: calls.append(c) or real(b, c))
    with Battle(spec()) as b:
        cmd = by(b, "gun", 3, 0)
        assert b.check(cmd) is None and b.check(cmd) is None
        b.run_command(cmd)
        assert calls == [cmd]  # (checked once, submitted on that verdict)
        assert b.check(cmd) is not None and "09.05.01" in b.check(cmd)
        with pytest.raises(Refusal, match=r"09\.05\.01"):
            b.submit(cmd)
        other = by(b, "target", 0, 1)
        assert b.check(other) is None
        assert b.check(cmd) is not None  # (another command's verdict stands for no other)
        n = len(calls)
        assert b.check(other) is None and b.check(cmd) is not None and len(calls) == n  # (kept, both)
        b.emit("note", text="anything that happens is an event")
        assert b.check(other) is None and len(calls) == n + 1  # (checked again)
        b.check(cmd)
        b.submit(other)
        assert len(calls) == n + 2  # (submitted on its verdict, another command checked between)
