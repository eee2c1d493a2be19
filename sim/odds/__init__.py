"""Exact odds of one declared attack (issue 16): the distribution of what it does, worked out
from the same rules the battle rolls with (sim.odds.exact; a seeded Monte Carlo of the same
rule functions where that is intractable, sim.odds.montecarlo).

A front end calls ``for_plan(battle, plan)`` (a Preview per target: expected models destroyed,
P(destroyed), the distribution); the command line ``for_command``, ``sim odds`` and ``sim
matrix`` (sim.analysis.locate, sim.analysis.matrix, sim.odds.report)."""

from sim.odds.engine import Preview, for_command, for_plan, solve

__all__ = ["Preview", "for_command", "for_plan", "solve"]
