"""Headless runs: play a scenario's script to the end, answering decisions from the script or
with the default policies, optionally recording a replay log."""

from __future__ import annotations

from sim.battle import Battle, Refusal
from sim.scenario.script import to_command


class ScriptError(Exception):
    """A scripted command or decision the rules refuse (reported like a scenario error)."""


def answer_from(step_decisions: dict):
    def answer(req):
        if req.kind in step_decisions:
            return step_decisions[req.kind]
        return req.default
    return answer


def play(battle: Battle, scenario, recorder=None) -> None:
    """Run every script step: submit its command, tick until idle, answering decisions."""
    for step in scenario.script:
        cmd = to_command(battle, step)
        if recorder:
            recorder.command(cmd)
        try:
            battle.submit(cmd)
        except Refusal as e:
            raise ScriptError(f"{scenario.path}: {step.where}: the rules refuse this command: {e}") from None
        try:
            battle.resolve(answer_from(step.decisions))
        except Refusal as e:  # the refused decision is still pending
            raise ScriptError(f"{scenario.path}: {step.where}.decisions.{battle.pending.kind}: {e}") from None
        if recorder:
            recorder.end_command(battle)
