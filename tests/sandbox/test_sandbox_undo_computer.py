"""Undo against the computer (issue 28 leftovers): while the computer has the choice (its turn,
its Fight phase selections), the Undo button is greyed with the reason and Ctrl+Z says it and
takes nothing back (the computer's commands are not the person's to take back); on the person's
turn Undo takes back the person's last command, and the computer is left playing as it was."""

from __future__ import annotations

import pygame

from sim.commands.move import SelectToMove
from sim.rules.movement.moves import MoveType

from sandbox_support import FAST
from test_play_vs_computer import TABLE, play_computer_turn, start


def _computer_acting(d, limit: int = 400) -> None:
    """Frames until the computer has given a command of its turn and still has the choice."""
    sb = d.sb
    n0 = sb.recorder.n
    for _ in range(limit):
        d.pump(1, draw=False)
        if sb.recorder.n > n0 and sb.battle.turn_state.chooser in sb.ai and sb.battle.pending is None:
            return
    raise AssertionError(f"the computer gave no command: {sb.status}")


def test_undo_is_greyed_with_its_reason_while_the_computer_acts(make):
    d = make(TABLE, ai={1: "default"}, ai_speed=FAST, ask_ai=False)
    sb = d.sb
    start(d)
    _computer_acting(d)
    d.pump(1)  # (the panels rebuilt)
    undo = d.button("phase:undo")
    assert undo.object_ids[-1] == "#unavailable", undo.object_ids
    assert "the computer" in undo.tool_tip_text and "Raiders" in undo.tool_tip_text, undo.tool_tip_text
    sb.ai_paused = True  # (paused, it is still the computer's choice: still not the person's to undo)
    n, h = sb.recorder.n, sb.battle.state_hash()
    d.key(pygame.K_z, "z", pygame.KMOD_CTRL)
    assert sb.recorder.n == n and sb.battle.state_hash() == h
    assert "the computer" in sb.status and "undone" not in sb.status, sb.status
    d.click_button("phase:undo")
    assert sb.recorder.n == n and sb.battle.state_hash() == h


def test_undo_on_the_persons_turn_takes_back_their_command_and_the_computer_plays_on(make):
    d = make(TABLE, ai={1: "default"}, ai_speed=FAST, ask_ai=False)
    sb = d.sb
    start(d)
    play_computer_turn(d)  # (now the person's Movement phase)
    d.pump(1)
    assert d.button("phase:undo").object_ids[-1] != "#unavailable"
    n, h = sb.recorder.n, sb.battle.state_hash()
    uid = next(u for u, v in sorted(sb.scene.units.items()) if v.owner == 0)
    assert sb.submit(SelectToMove(uid, MoveType.STATIONARY))
    d.pump(2)
    assert sb.recorder.n == n + 1
    d.click_button("phase:undo")
    assert sb.recorder.n == n and sb.battle.state_hash() == h, sb.status
    assert sb.status.startswith("took back: "), sb.status
    assert not sb.ai_paused  # (the person's command taken back: the computer's next turn is played as ever)
