"""Scenario errors: one clear message naming the file, the path inside it, what was expected
and what was found."""

from __future__ import annotations


class ScenarioError(Exception):
    def __init__(self, file: str, path: str, expected: str, found: str):
        self.file, self.path, self.expected, self.found = file, path, expected, found
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: expected {self.expected}, found {self.found}"


def show(value) -> str:
    """A short, readable rendering of a found value."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return repr(value)
