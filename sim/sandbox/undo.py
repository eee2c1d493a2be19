"""Undo (Ctrl+Z): take back the last command of the current phase by simulating the battle
again from its log: a fresh Battle of the same table and seed, every command but the last
submitted again with the answers the log recorded for it. The dice are the same stream, so the
battle is the one it was before that command (its state hash included); a saved replay file is
never touched (the sandbox's log is rebuilt in memory).

A mixin of :class:`sim.sandbox.app.Sandbox`; ``resimulate`` is the pure part."""

from __future__ import annotations

import json

from sim import names
from sim.battle import Battle
from sim.commands import command_from_dict
from sim.errors import Refusal
from sim.replay.log import Recorder, logged_decisions, replay_command

def logged_commands(lines: list[str]) -> tuple[list, dict[int, list]]:
    """The commands of a recorder's log lines, in order, and each one's logged answers."""
    recs = [json.loads(line) for line in lines[1:]]
    commands = [command_from_dict(r["command"]) for r in recs if r["t"] == "command"]
    return commands, logged_decisions(recs)


def resimulate(spec, seed: int, scenario_path: str, commands, answers) -> tuple[Battle, Recorder]:
    """A fresh battle with ``commands`` applied in order, each resolved with its logged
    answers, recorded as the sandbox records (command, events, state hash)."""
    battle = Battle(spec, seed=seed)
    rec = Recorder(battle, scenario_path)
    try:
        for i, cmd in enumerate(commands):
            rec.command(cmd)
            replay_command(battle, cmd, answers.get(i, []))
            rec.end_command(battle)
    except BaseException:
        battle.close()
        raise
    return battle, rec


class UndoMixin:
    def undo_refusal(self) -> str | None:
        """Why Undo does nothing now (its button greyed with it, Ctrl+Z says it), or None. While
        the computer has the choice (its turn, its selections in a Fight phase, paused or not)
        the last command is the computer's: not the person's to take back (undo works on the
        person's turn, on their own commands)."""
        if self.mode != "battle":
            return "undo works on the battle (leave set-up or the replay first)"
        ts = self.battle.turn_state
        if self.ai and ts is not None and not ts.over and ts.round > 0 and \
                (ts.chooser in self.ai or getattr(self, "_ai_cmd", None) is not None):
            side = self._ai_cmd[0] if getattr(self, "_ai_cmd", None) is not None else ts.chooser
            return (f"the computer is playing {self.spec.armies[side].name}: its commands are not yours "
                    f"to take back (undo works on your turn)")
        if not self.recorder.n:
            return "nothing to undo: no command has been given in this battle"
        return None

    def undo(self) -> None:
        why = self.undo_refusal()
        if why:
            self.status = why
            return
        commands, answers = logged_commands(self.recorder.lines)
        if not commands:
            self.status = "nothing to undo: no command has been given in this battle"
            return
        last = commands[-1]
        if last.record.boundary and not self.resolving:  # (what came before it is settled)
            self.status = (f"cannot undo past {last.record.boundary}: undo takes back the commands of the "
                           f"current phase only")
            return
        keep = commands[:-1]
        try:
            battle, rec = resimulate(self.spec, self.battle.seed, self.scenario_path, keep, answers)
        except (Refusal, ValueError, KeyError, TypeError) as e:  # (a bug: the log replays by design)
            self.status = f"undo failed: the battle could not be simulated again: {e}"
            return
        notes = self.ai_notes  # (the computer's lines of the commands kept: the same events)
        self.adopt_battle(battle, rec)
        self.ai_notes_of = {battle: {i: n for i, n in notes.items() if i < len(battle.events)}}
        self.unsaved = True
        u = getattr(last, "unit", None)  # (the unit by its name: sim.names)
        what = f"{last.kind} {names.name(names.of_battle(battle), u) if u else ''}".strip()
        self.status = f"took back: {what}"
        # (the computer plays on as it was: undo takes back the person's commands only, on their turn)
