"""The Player interface: what a side does when it has the choice, and its answers."""

from __future__ import annotations

from typing import Callable, NamedTuple

from sim.commands import EndPhase
from sim.rules.turn import PLAYER


class Choice(NamedTuple):
    """A player's next command; where it comes from (for messages: a script step or the
    player); how its decisions are answered (None: by the player's ``answer``); the script
    step it expands (for the left-out note) and what its shorthand left out."""

    command: object
    where: str
    answer: Callable | None = None
    step: object = None
    left_out: list = []


class Player:
    """One side's choices: ``choose`` when it is this side's choice (TurnState.chooser),
    ``answer`` for a decision of this side (DecisionRequest.player)."""

    kind = "player"

    def __init__(self, side: int, battle, scenario):
        self.side = side
        self.scenario = scenario

    @property
    def name(self) -> str:
        return f"{PLAYER[self.side]} {self.kind} player"

    def choose(self, battle) -> Choice:
        return Choice(EndPhase(), self.name)

    def answer(self, battle, request):
        return request.default

    def unplayed(self) -> list:
        """What this player was asked to do and never could (a script's steps)."""
        return []
