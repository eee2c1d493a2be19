"""Every event the engine emits matches its declaration (sim.events.declared): its type is
declared, each field it has is declared for that type, every required field is there and each
value is of the declared type. Checked on every event of every golden replay, of a few random
battles, and of small battles made for the events those rarely show; so a new field or a new
event cannot be emitted without being declared (README, "Events")."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest

from phased import mission_scenario, model, unit
from scen import scenario, weapon
from sim import events as ev
from sim.battle import Battle
from sim.commands import EndPhase, Fight, Move, Selection, StartBattle, consolidate_command
from sim.errors import Refusal
from sim.events import schema
from sim.events.declared import DECLARED, fields, problems
from sim.players import play_battle
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = sorted((ROOT / "scenarios/replays").glob("*.jsonl"))


def _mismatches(events) -> list[str]:
    out = []
    for e in events:
        out += problems(e)
    return sorted(set(out))


def test_every_event_name_is_declared_once_and_every_declaration_named():
    names = [v for k, v in vars(ev).items() if k.isupper() and isinstance(v, str)]
    assert len(names) == len(set(names))
    assert sorted(DECLARED) == sorted(names)


def _records(declaration):
    """A declaration and the records declared inside its fields (nested TypedDicts)."""
    yield declaration
    todo = [f.kind for f in schema.fields(declaration).values()]
    while todo:
        kind = todo.pop()
        if typing.is_typeddict(kind):
            yield from _records(kind)
        todo += typing.get_args(kind)


def test_every_field_says_what_it_holds():
    vague = [f"{name}: {r.__name__}.{f.name}" for name, d in DECLARED.items() for r in _records(d)
             for f in schema.fields(r).values() if not f.holds.strip()]
    assert vague == []
    assert all(d.__doc__ and not d.__doc__.startswith(d.__name__ + "(") for d in DECLARED.values())


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.stem)
def test_every_event_of_a_golden_replay_matches_its_declaration(path):
    events = [r["event"] for r in map(json.loads, path.read_text().splitlines()) if r["t"] == "event"]
    assert len(events) > 0
    assert _mismatches(events) == []


def test_the_events_of_random_battles_match_their_declarations():
    """(The live events, commands among them, which the logs write as command lines. The
    battles are chosen so that every kind below occurs: the third has a charge.)"""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    seen = set()
    for players, seed in ((("random", "random"), 1), (("random", "random"), 2), (("default", "random"), 4)):
        sp = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
        with Battle(sp, seed=seed) as b:
            play_battle(b, sp)
            assert _mismatches(b.events) == []
            seen |= {e["type"] for e in b.events}
    assert {ev.COMMAND, ev.POOL, ev.DAMAGE, ev.CHARGE, ev.RESULT} <= seen


GUN = {"gun": weapon(24, 1, 3, 4, 0, 1), "blade": weapon("melee", 2, 3, 4, 0, 1),
       "axe": weapon("melee", 6, 2, 8, -5, 3)}


def _free_play_refused_and_not_made(seen):
    # a free-play advance whose roll of 1 stops r1/1 on r2/1 (09.06, 03.01); then a refused move
    spec = scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6)), unit("r2", model((17.5, 10), ["gun"]))],
                    [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec, dice=ForcedDice([1])) as b:
        b.run_command(Move("r1", (("r1/1", 22, 10),), "advance"))
        with pytest.raises(Refusal):
            b.submit(Move("r1", (("r1/1", 40, 10),), "advance"))
        seen.append(b.events)


def _fight_pass(seen):
    # ra charged but no enemy is within 5": red passes in the Fight step (12.04.01)
    with Battle(mission_scenario([unit("ra", model((20, 20), ["blade"]))], [unit("ba", model((20, 27), ["blade"]))]),
                dice=ForcedDice([1] * 40)) as b:
        b.run_command(StartBattle())
        for _ in range(2):
            b.run_command(EndPhase())
        b._enter()
        from sim.world import queries as W
        W.unit_state(b.units["ra"]).charged = True  # (as a charge move would)
        for _ in range(4):
            b.run_command(EndPhase())
        seen.append(b.events)


def _coherency_removal(seen):
    # r/3 stands apart: the end of red's turn removes models (03.03)
    red = [unit("r", model([(10, 10), (11.5, 10), (30, 10)], ["blade"]))]
    with Battle(mission_scenario(red, [unit("b", model((50, 40), ["blade"]))]), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        seen.append(b.events)


def _consolidation_engages(seen):
    # ra destroys b1, then consolidates into bb, which is selected to fight first (12.08)
    red = [unit("ra", model((20, 20), ["axe"]))]
    blue = [unit("b1", model((20, 21.5), ["blade"])), unit("bb", model((23.8, 20), ["blade"]))]
    with Battle(mission_scenario(red, blue, weapons=GUN), dice=ForcedDice([6] * 30 + [1] * 10)) as b:
        b.run_command(StartBattle())
        while not (str(b.turn_state.phase) == "fight" and str(b.turn_state.step) == "fight"):
            b.run_command(EndPhase())
        b.run_command(Fight("ra", (Selection("ra/1", "axe", "b1"),)))
        b.run_command(consolidate_command(b, "ra", None))
        seen.append(b.events)


def test_the_events_random_battles_rarely_show_match_their_declarations():
    """A refused command, a free-play advance not made, a Fight-step pass, a coherency removal,
    units selected to fight by a consolidation (the step event's optional units and rule)."""
    seen = []
    for play in (_free_play_refused_and_not_made, _fight_pass, _coherency_removal, _consolidation_engages):
        play(seen)
    events = [e for battle in seen for e in battle]
    assert _mismatches(events) == []
    types = {e["type"] for e in events}
    assert {ev.REFUSED, ev.MOVE_NOT_MADE, ev.FIGHT_PASS, ev.COHERENCY_REMOVED} <= types
    assert any(e["type"] == ev.STEP and "units" in e for e in events)


def test_the_check_sees_what_is_not_declared():
    """(The check can fail: an undeclared type, a field not declared, a required one missing,
    a value of another type, inside a record too.)"""
    charge = {"type": ev.CHARGE, "unit": "u", "roll": 7, "result": "declared"}
    assert problems(charge) == []
    assert problems({**charge, "dice": [3, 4]}) == ["'charge': field 'dice' is not declared"]
    assert problems({"type": "charge roll"}) == ["event type 'charge roll' is not declared (sim.events)"]
    assert problems({k: v for k, v in charge.items() if k != "roll"}) == ["'charge': required field 'roll' is missing"]
    assert problems({**charge, "roll": "7"}) == ["'charge'.roll: expected int, found str '7'"]
    assert problems({**charge, "result": "made it"}) == [
        "'charge'.result: expected one of ['declared', 'made', 'not made'], found str 'made it'"]
    hits = {"type": ev.HITS, "pool": 0, "skill": 3, "modifier": 0, "rolls": [1], "hits": 0, "criticals": 0}
    assert problems({**hits, "command_reroll": {"die": 0, "from": 1, "to": 5}}) == []
    assert problems({**hits, "command_reroll": {"die": 0, "from": 1}}) == [
        "'hit rolls'.command_reroll (CommandReroll): required field 'to' is missing"]
    assert problems({**hits, "rolls": [1, True]}) == ["'hit rolls'.rolls[1]: expected int, found bool True"]
    damage = {"type": ev.DAMAGE, "pool": 0, "steps": [{"save": 2, "model": "m", "group": "g", "saved": True,
                                                       "invulnerable": False}]}
    assert problems(damage) == []
    damage["steps"][0]["saved"] = False  # (a failed save must say what it did)
    assert problems(damage) == ["'damage'.steps[0]: matches no SavedStep or FailedStep or DevastatingStep or "
                                "LostStep: 'damage'.steps[0] (SavedStep).saved: expected one of [True], found "
                                "bool False"]
    damage["steps"][0] = {"save": 2, "model": "m", "group": "g", "saved": False, "damage": 1, "lost": 1,
                          "destroyed": False, "overkill": 0}
    assert problems(damage) == ["'damage'.steps[0]: matches no SavedStep or FailedStep or DevastatingStep or "
                                "LostStep: 'damage'.steps[0] (FailedStep): field 'overkill' is not declared"]


def test_fields_list_the_declaration():
    f = fields(ev.CHARGE)
    assert list(f) == ["type", "unit", "roll", "result", "targets", "to", "fly", "note", "face"]
    assert not f["roll"].optional and f["targets"].optional and f["roll"].kind is int
