"""The battle round as a small state machine (07): which player acts, in which phase and step,
which commands each phase accepts, and what happens when a phase ends. A battle without a
mission (free play) has no turn state: every command is accepted at any time, as before."""

from sim.phases.state import FightStep, MissionSpec, Phase, TurnState

__all__ = ["FightStep", "MissionSpec", "Phase", "TurnState"]
