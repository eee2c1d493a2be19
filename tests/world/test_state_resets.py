"""Resets declared beside the fields they reset (sim.world.state_hash.reset): the end of each
turn puts every UnitState field declared ``reset: turn`` back to its default (upkeep.
roll_over_turn, for the units a command touched), the start of each phase every TurnState
field declared ``reset: phase`` (battle_round), and nothing else."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import esper

from _state_values import ROOT, default_of, off_default
from phased import mission_scenario, model, unit
from scen import row, scenario, weapon
from sim.battle import Battle
from sim.commands import EndTurn, Move, Selection, Shoot, StartBattle
from sim.components import UnitState
from sim.phases.state import MissionSpec, Phase, TurnState
from sim.players import play_battle
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario
from sim.phases import battle_round
from sim.world import state_hash as SH

# What the end of a turn and the start of a phase reset before the resets were declared (the
# hand lists of upkeep.roll_over_turn and battle_round._enter): the declarations keep them
TURN = {"advanced", "fell_back", "moved", "move_type", "model_moved", "set_up_this_turn",
        "oversized_set_up", "charged", "selected_to_shoot", "selected_to_fight",
        "ranged_attacks_this_turn", "advance_roll", "move_selected", "charge_roll",
        "charge_resolved", "piled_in", "consolidated", "counteroffensive",
        "disembarked", "transport_fired"}  # (18.04/18.05, 24.14: declared with the fields, issue 24)
PHASE = {"step", "stratagems_used", "stratagem_targets", "engaged_at_fight_step",
         "eligible_this_phase", "in_progress", "smoke", "overrun", "melee_gains"}
_ENTITIES = SimpleNamespace(units={"a": 1, "b": 2}, models={"a/1": 3})


def _names(cls, scope):
    return {name for name, _, _ in SH.reset_fields(cls, scope)}


def test_the_declared_resets_are_the_ones_the_hand_lists_made():
    assert _names(UnitState, "turn") == TURN
    assert _names(UnitState, "phase") == set()
    assert _names(TurnState, "phase") == PHASE
    assert _names(TurnState, "turn") == set()


def _off_defaults(obj):
    for f in dataclasses.fields(obj):
        if f.name != "mission":
            setattr(obj, f.name, off_default(obj, f, _ENTITIES))
    return obj


def test_a_reset_puts_back_exactly_its_scope_fields_to_fresh_defaults():
    for cls, scope, made in ((UnitState, "turn", lambda: UnitState()),
                             (TurnState, "phase", lambda: TurnState(MissionSpec()))):
        obj, before = _off_defaults(made()), None
        before = {f.name: getattr(obj, f.name) for f in dataclasses.fields(cls)}
        SH.reset(obj, scope)
        for f in dataclasses.fields(cls):
            if f.name in _names(cls, scope):
                assert getattr(obj, f.name) == default_of(f), f.name
            else:
                assert getattr(obj, f.name) is before[f.name], f.name
    a, b = UnitState(model_moved={"x/1": 1.0}), UnitState(model_moved={"y/1": 1.0})
    SH.reset(a, "turn"), SH.reset(b, "turn")
    assert a.model_moved == {} and a.model_moved is not b.model_moved  # (a fresh one each)


def _free_play():
    ws = {"rifle": weapon(24, 1, 3, 4, 0, 1), "missile": weapon(48, 1, 3, 8, -2, 3, "ONE SHOT")}
    return scenario(ws, [unit("a", model(row(10, 10, 2), ["rifle", "missile"])),
                         unit("c", model(row(10, 4, 2), ["rifle"]))],
                    [unit("b", model(row(10, 20, 2), ["rifle"]))])


def test_13_09_the_end_of_turn_resets_the_turn_and_rolls_the_ranged_attacks_over():
    with Battle(_free_play(), dice=ForcedDice([1, 1])) as b:
        b.run_command(Move("c", (("c/1", 11, 5), ("c/2", 13, 5)), "normal"))
        b.run_command(Shoot("a", (Selection("a/1", "missile", "b"), Selection("a/2", "rifle", "b"))))
        b._enter()
        a, c = (esper.component_for_entity(b.units[u], UnitState) for u in "ac")
        a.battle_shocked = a.snap_shooting = True  # (neither is reset at a turn's end)
        assert c.moved > 0 and c.move_type == "normal" and c.model_moved
        assert a.selected_to_shoot and a.ranged_attacks_this_turn and a.used_one_shot
        b.run_command(EndTurn())
        for st in (a, c):
            assert all(getattr(st, name) == default_of(f) for name, f in
                       ((f.name, f) for f in dataclasses.fields(UnitState)) if name in TURN)
        assert a.ranged_attacks_last_turn and not c.ranged_attacks_last_turn
        assert a.battle_shocked and a.snap_shooting and a.used_one_shot == {"a/1:missile:0"}
        b.run_command(EndTurn())
        assert not a.ranged_attacks_last_turn  # (no shot that turn: it rolls over as none)


def test_a_phase_begins_with_its_phase_fields_reset_and_the_others_kept():
    red = [unit("r", model((10, 10), ["blade"]))]
    blue = [unit("x", model((40, 30), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        ts = b.turn_state
        r, x = b.units["r"], b.units["x"]
        ts.stratagems_used, ts.stratagem_targets = (["Smokescreen"], []), ([], ["x"])
        ts.engaged_at_fight_step, ts.eligible_this_phase, ts.smoke = {r}, {r, x}, [x]
        ts.in_progress, ts.overrun, ts.melee_gains = r, x, {"r": ("precision",)}
        ts.pending_fights, ts.forced_pick, ts.fight_passes, ts.resume_chooser = [x], r, 1, 1
        battle_round._enter(b, Phase.SHOOTING)
        assert (ts.phase, ts.step, ts.chooser) == (Phase.SHOOTING, None, ts.active)
        assert all(getattr(ts, name) == default_of(f) for f in dataclasses.fields(TurnState)
                   for name in [f.name] if name in PHASE)
        assert (ts.pending_fights, ts.forced_pick, ts.fight_passes, ts.resume_chooser) == ([x], r, 1, 1)


def test_the_end_of_turn_begins_with_the_fight_phase_fields_reset():
    """The End of turn is a phase like the others: what held "this phase" in the Fight phase
    (12.04 the units engaged at the start of its step, 12.08 those eligible to fight) is gone
    once it begins (before, only the step and 15.03's melee gains were)."""
    spec = load_scenario(ROOT / "scenarios/charge_terrain.toml")
    with Battle(spec) as b:
        seen = []

        def on_event(e):
            if e["type"] == "step" and e["step"] == "consolidate" or (
                    e["type"] == "phase" and e["phase"] == "end of turn"):
                ts = b.turn_state
                seen.append((e.get("step") or e["phase"], set(ts.engaged_at_fight_step),
                             set(ts.eligible_this_phase), ts.stratagems_used))

        b.listeners.append(on_event)
        play_battle(b, spec)
        assert b.turn_state.over and b.turn_state.phase == Phase.END
        consolidate = [s for s in seen if s[0] == "consolidate"]
        assert consolidate and all(engaged and eligible for _, engaged, eligible, _ in consolidate)
        ends = [s for s in seen if s[0] == "end of turn"]
        assert len(ends) == 2 and all(s[1:] == (set(), set(), ([], [])) for s in ends)
