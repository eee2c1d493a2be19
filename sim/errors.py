"""The errors the simulator raises for bad input, in one module that imports nothing of sim.

Every layer that refuses input raises one of these and every layer that reports them (the
battle, the runner, the command line, the sandbox) imports them from here, so no module has to
import the battle, the planner or the loader just to name an error (DESIGN.md: no import
cycles). Errors that belong to one pure rule stay with it (sim.rules.abilities.AbilityError,
sim.rules.dice.DiceExhausted).
"""

from __future__ import annotations


class Refusal(Exception):
    """A command or answer the rules do not allow; nothing changed (sim.battle)."""


class PlanError(Exception):
    """04.01/04.02 (and 09 for moves): why a command cannot be planned as given. Validation
    turns it into a Refusal with the same message (sim.commands.validate)."""


class ScenarioError(Exception):
    """A scenario file that cannot be loaded: one clear message naming the file, the path inside
    it, what was expected and what was found."""

    def __init__(self, file: str, path: str, expected: str, found: str):
        self.file, self.path, self.expected, self.found = file, path, expected, found
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return escape_controls(f"{where}: expected {self.expected}, found {self.found}")


class ImportFileError(ScenarioError):
    """A roster or catalogue file that cannot be imported (sim.importers): the same one line,
    naming the file, the place inside it, what was expected and what was found."""


def escape_controls(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1; newlines too) written as a repr-style
    escape, so a message quoting a hostile file is one line and cannot drive the terminal."""
    return "".join(c if not _is_control(c) else repr(c)[1:-1] for c in text)


def _is_control(c: str) -> bool:
    o = ord(c)
    return o < 0x20 or 0x7F <= o <= 0x9F


class ScriptError(Exception):
    """A scripted command or decision the rules refuse (reported like a scenario error;
    sim.players.runner)."""


class LogError(Exception):
    """The log cannot be replayed at all: bad file, unknown format, changed scenario
    (sim.replay.log)."""
