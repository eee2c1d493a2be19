"""Headless runs: play a scenario's script to the end, answering decisions from the script or
with the default policies, optionally recording a replay log."""

from __future__ import annotations

import gc
from contextlib import contextmanager

from sim import events as ev
from sim.battle import Battle
from sim.decisions import Scripted
from sim.errors import Refusal, ScriptError
from sim.scenario.script import expand


@contextmanager
def frozen_heap():
    """For a headless run, once its battle is built: everything alive now (the interpreter's
    modules, the scenario, the battle's world) is set aside from Python's cyclic garbage
    collector (gc.freeze), and the collector itself is off, until the block ends; then both
    are handed back (gc.unfreeze, and the collector on again if it was on).

    None of what was set aside becomes garbage while the battle runs, yet every full
    collection would scan it all again (on the benchmark battle each took ~30 ms, and they
    came every few hundred activations); and the events a battle keeps for its report and log
    only ever grow, so each young collection scanned them once more (~3% of an activation).
    Nothing is lost by switching it off: objects are still freed by reference counting as
    before. A battle does point back at itself while it is open (its systems, visibility,
    resources, listeners and the dice's listener), but playing it makes no other cycles
    (tests/scenarios/test_frozen_heap.py plays every scenario with the collector off and finds
    no cyclic garbage), and Battle.close() breaks those it has, so a closed battle is freed by
    reference counting alone (tests/scenarios/test_no_leaks.py). Cyclic garbage made anyway
    would be frozen with the rest at the next run and never collected: a leak."""
    was_on = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
        gc.unfreeze()


def answer_from(step_decisions: dict):
    """A script step's answers: one per kind, standing for every request of that kind in the
    step (fitted to each one, sim.decisions.Scripted); the default for the other kinds."""
    def answer(req):
        if req.kind in step_decisions:
            return Scripted(step_decisions[req.kind])
        return req.default
    return answer


def note_left_out(battle: Battle, step, left_out: list) -> None:
    """The models a step's targets shorthand did not select, and why (sim.scenario.script
    .expand), as an event after its command: the report prints it, the log keeps it (and a
    replay expands the step again to check it)."""
    if left_out:
        battle.emit(ev.LEFT_OUT, step=step.where, unit=step.action["unit"], models=left_out)


def play(battle: Battle, scenario, recorder=None) -> None:
    """Run every script step: submit its command, tick until idle, answering decisions."""
    for step in scenario.script:
        cmd, left_out = expand(battle, step)
        if recorder:
            recorder.command(cmd)
        try:
            battle.submit(cmd)
        except Refusal as e:
            raise ScriptError(f"{scenario.path}: {step.where}: the rules refuse this command: {e}") from None
        note_left_out(battle, step, left_out)
        try:
            battle.resolve(answer_from(step.decisions))
        except Refusal as e:  # the refused decision is still pending
            raise ScriptError(f"{scenario.path}: {step.where}.decisions.{battle.pending.kind}: {e}") from None
        if recorder:
            recorder.end_command(battle)
