"""Who plays a side of a whole battle headless (DESIGN.md "players/"): each Player answers
every command opportunity and every decision of its side. ``scripted`` plays the scenario's
script (per phase), ``default`` the project's headless policies (Part A rulings 16-29),
``random`` uniformly random legal choices (to fuzz the rules), seeded from the battle's seed.
"""

from __future__ import annotations

from sim.players.base import Choice, Player
from sim.players.default import DefaultPlayer
from sim.players.loop import KINDS, make_player, play_battle
from sim.players.random_player import RandomPlayer
from sim.players.scripted import ScriptedPlayer

__all__ = ["KINDS", "Choice", "Player", "DefaultPlayer", "RandomPlayer", "ScriptedPlayer", "play_battle",
           "make_player"]
