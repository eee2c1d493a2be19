"""The errors the simulator raises for bad input, in one module that imports nothing of sim.

Every layer that refuses input raises one of these and every layer that reports them (the
battle, the runner, the command line, the sandbox) imports them from here, so no module has to
import the battle, the planner or the loader just to name an error (DESIGN.md: no import
cycles). Errors that belong to one pure rule stay with it (sim.rules.abilities.AbilityError,
sim.rules.dice.DiceExhausted).
"""

from __future__ import annotations

import unicodedata


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

    def __reduce__(self):  # (pickled whole, e.g. from a worker process: args holds the message only)
        return type(self), (self.file, self.path, self.expected, self.found)

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return escape_controls(f"{where}: expected {self.expected}, found {self.found}")


class ImportFileError(ScenarioError):
    """A roster or catalogue file that cannot be imported (sim.importers): the same one line,
    naming the file, the place inside it, what was expected and what was found."""


def escape_controls(text: str) -> str:
    """``text`` with every character that can drive a terminal or hide text written as a
    repr-style escape (``\\x1b``, ``\\u202e``): the control characters (Unicode category Cc: C0,
    DEL, C1, newlines too), the format characters (Cf: bidirectional overrides and isolates,
    zero-width spaces and joiners, soft hyphens), the line and paragraph separators (Zl, Zp) and
    lone surrogates (Cs: a file name's undecodable bytes, which no terminal encoding can write).
    So a message or a name quoting a hostile file or argument is one line, reads as it is stored
    and cannot drive the terminal. The one home of this escaping: every line the command line
    prints goes through it (sim.cli)."""
    if text.isprintable():  # (the common case, in C: none of those is printable)
        return text
    return "".join(repr(c)[1:-1] if _is_control(c) else c for c in text)


_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _is_control(c: str) -> bool:
    return not c.isprintable() and unicodedata.category(c) in _ESCAPED_CATEGORIES


class ScriptError(Exception):
    """A scripted command or decision the rules refuse (reported like a scenario error;
    sim.players.runner)."""


class LogError(Exception):
    """The log cannot be replayed at all: bad file, unknown format, changed scenario
    (sim.replay.log)."""
