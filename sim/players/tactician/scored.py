"""A candidate command of the tactician, as its phase modules offer it (and the search player reads it)."""

from __future__ import annotations

from typing import NamedTuple


class Scored(NamedTuple):
    """A candidate command, its value in the tactician's measure (higher is better) and the
    choice in words (names, not ids); ``expect``: what it expects of an attack in words ("1.5
    models, 33 pts expected", from the odds it judged the attack by), "" where it says nothing."""

    value: float
    command: object
    label: str
    expect: str = ""
