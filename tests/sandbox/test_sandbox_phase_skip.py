"""Skipping empty phases (issue 28 item 10) skips an empty Shooting phase too: one in which no
unit of the player whose turn it is could shoot (sim.players.options.may_shoot_now, the players'
own question), under the same setting (K)."""

from __future__ import annotations

import pygame

from test_sandbox_moves import MISSION, _settle
from test_sandbox_unit_moves import _at_phase, _far_apart


def _at_movement(make, path, skip: bool):
    return _at_phase(make, path, skip, "movement")


def test_an_empty_shooting_phase_is_skipped_when_the_setting_is_on(make, tmp_path):
    d = _at_movement(make, _far_apart(tmp_path), skip=True)  # (the Raiders 30" away: out of the 24" guns' reach)
    sb = d.sb
    turn = sb.battle.turn_state.chooser
    d.key(pygame.K_e, "e")
    _settle(d)
    ts = sb.battle.turn_state
    assert (str(ts.phase), ts.chooser) != ("shooting", turn), (ts.phase, sb.status)
    assert "skipped the empty shooting, charge, fight" in sb.status, sb.status


def test_a_shooting_phase_is_not_skipped_with_a_target_in_reach_or_the_setting_off(make, tmp_path):
    d = _at_movement(make, MISSION, skip=True)  # (the Warden Squad's guns reach the Raider Mob)
    d.key(pygame.K_e, "e")
    assert str(d.sb.battle.turn_state.phase) == "shooting", d.sb.status
    d = _at_movement(make, _far_apart(tmp_path), skip=False)
    d.key(pygame.K_e, "e")
    assert str(d.sb.battle.turn_state.phase) == "shooting", d.sb.status
