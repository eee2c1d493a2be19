"""07 The battle round's vocabulary: the phases of a player's turn, in order, and the steps of
the Fight phase that take choices. Plain names (their values are what events and logs print)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """07.02 The parts of a player's turn, in order."""

    COMMAND = "command"
    MOVEMENT = "movement"
    SHOOTING = "shooting"
    CHARGE = "charge"
    FIGHT = "fight"
    END = "end of turn"


class FightStep(StrEnum):
    """12.01-12.09 The Fight phase's steps that take choices."""

    PILE_IN = "pile in"
    FIGHT = "fight"
    CONSOLIDATE = "consolidate"


PHASE_NAMES = {Phase.COMMAND: "Command phase", Phase.MOVEMENT: "Movement phase",
               Phase.SHOOTING: "Shooting phase", Phase.CHARGE: "Charge phase",
               Phase.FIGHT: "Fight phase", Phase.END: "End of Turn step"}
"""How a phase is named in a sentence ("only in the Movement phase")."""
