"""07 The battle's vocabulary, read by every layer: the two players (their names, as scenario
files, scripts, logs and reports spell them, and their armies' default colours) and the parts
of a player's turn (07.02 the phases; 12.01-12.09 the Fight phase's steps that take choices;
12.05/12.06 the fight types).

A player is an army index everywhere inside the simulator (the scenario's ``armies`` order,
``Unit.owner``, the TurnState's lists): 0 is red, 1 is blue. Only what people read or write
spells the name, always through ``PLAYER``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["PLAYER", "PLAYER_COLOURS", "Phase", "FightStep", "PHASE_NAMES", "FightType", "PreBattleStep",
           "ROLES"]

PLAYER = ("red", "blue")  # the players' names, by army index
PLAYER_COLOURS = ((178, 58, 52), (52, 96, 158))  # their armies' colours when a scenario gives none (RGB)


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


class PreBattleStep(StrEnum):
    """26 The mission's steps before battle round 1 that take the players' commands (steps 5, 6,
    9 and 10 take none here: roll-offs and a choice, or nothing this simulator models)."""

    FORMATIONS = "battle formations"  # 26 step 7: reserves and embarked units, declared
    DEPLOY = "deployment"  # 26 step 8: alternate, one unit at a time, Defender first
    RULES = "pre-battle rules"  # 26 step 11: Scouts and the like, alternate, first player first


ROLES = ("defender", "attacker")  # 26 step 5: the roles the roll-off's winner chooses between


class FightType(StrEnum):
    """12.05 / 12.06 The fight type a unit selected to fight makes."""

    NORMAL = "normal"
    OVERRUN = "overrun"
