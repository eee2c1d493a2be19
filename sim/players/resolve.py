"""Submitting and resolving one command of a headless run, answering its decisions: what the
script runner (sim.players.runner), the players (sim.players) and the replay (sim.replay) share."""

from __future__ import annotations

from sim import events as ev
from sim.battle import Battle
from sim.decisions import Scripted
from sim.errors import Refusal, ScriptError
from sim.rules.command_reroll import names_a_save
from sim.scenario.script_run import step_commands


def answer_from(step_decisions: dict, side: int | None = None):
    """A script step's answers: one per kind, standing for every request of that kind in the
    step (fitted to each one, sim.decisions.Scripted); the default for the other kinds. A
    stratagem is its user's decision: when the step is one side's (``side``), its stratagem
    answer is for that side's stratagems only (the other side's take their default); an
    ``end_phase`` step (no side) answers either side's, as a phase's end raises the opponent's
    (Rapid Ingress, Heroic Intervention). A stratagem answer naming a save roll's die ("save",
    "save 2") is the defender's Command Re-roll (15.02): the attacking side's step answers it."""
    def answer(req):
        if req.kind in step_decisions and not (req.kind == "stratagem" and side is not None
                                               and req.player != side and not _defenders(req, step_decisions)):
            return Scripted(step_decisions[req.kind])
        return req.default
    return answer


def _defenders(req, step_decisions) -> bool:
    """The other side's request is a Command Re-roll of a save roll, and the step's stratagem
    answer names a save roll's die (sim.rules.command_reroll)."""
    return req.context.get("roll") == "save" and names_a_save(step_decisions["stratagem"])


def note_left_out(battle: Battle, step, left_out: list) -> None:
    """The models a step's targets shorthand did not select, and why (sim.scenario.script
    .expand), as an event after its command: the report prints it, the log keeps it (and a
    replay expands the step again to check it)."""
    if left_out:
        battle.emit(ev.LEFT_OUT, step=step.where, unit=step.action["unit"], models=left_out)


def run_step(battle: Battle, scenario, step, recorder=None) -> None:
    """Submit and resolve every command of one script step (sim.scenario.script_run.step_commands)."""
    for got in step_commands(battle, step):
        submit_and_resolve(battle, scenario, step.where, got.command, answer_from(step.decisions), recorder,
                           step, got.left_out)


def submit_and_resolve(battle: Battle, scenario, where: str, cmd, answer, recorder=None, step=None,
                       left_out=()) -> None:
    """Submit one command and resolve it, answering decisions with ``answer``; a refusal is a
    ScriptError naming ``where`` (a script step, or a player)."""
    if recorder:
        recorder.command(cmd)
    try:
        battle.submit(cmd)
    except Refusal as e:
        raise ScriptError(f"{scenario.path}: {where}: the rules refuse this command: {e}") from None
    if step is not None:
        note_left_out(battle, step, list(left_out))
    try:
        battle.resolve(answer)
    except Refusal as e:  # the refused decision is still pending
        raise ScriptError(f"{scenario.path}: {where}.decisions.{battle.pending.kind}: {e}") from None
    if recorder:
        recorder.end_command(battle)
