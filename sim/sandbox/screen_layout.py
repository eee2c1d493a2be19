"""Giving the table the room a window has (issue 28 item 9). The sandbox lays its left column out
as status line, table, action bar, then the log beside the dice tray (Sandbox._rects); this
adjusts that for the window's shape:

* a wide window (2560x1440): the board fitted to the table's height would leave most of the width
  empty, so the log and the dice tray stand in a column at the table's right and the table
  takes the whole height down to the action bar;
* a short window (800x600, 1024x700): the log and the dice tray are kept to a fifth of the
  height, so the table and its models are larger.

Pure arithmetic on pygame Rects: no drawing, no state."""

from __future__ import annotations

import pygame

from sim.sandbox.camera import MARGIN

SIDE_MIN = 260  # px at UI scale 1: the log and the dice tray's column, at the least
SHORT = 800  # px: a window lower than this keeps the log and the tray to a fifth of its height
# px: the smallest window the sandbox lays itself out in (every control still reached, through the
# action bar's "More..." and the panels' scroll bars); a real window is kept at least this size,
# and a smaller one is laid out at this size, what does not fit cut off (below ~350x260 the
# widget library's layout recursed without end)
MIN_WINDOW = (640, 480)


def at_least_min(size) -> tuple[int, int]:
    """The size the sandbox is laid out at for a window of ``size``: MIN_WINDOW's where smaller."""
    return max(int(size[0]), MIN_WINDOW[0]), max(int(size[1]), MIN_WINDOW[1])


def arrange(r: dict, size, scale: float, board) -> dict:
    """``r``: the rects of Sandbox._rects (table, action, log, dice among them), changed in
    place and returned."""
    w, h = size
    table, action, log, dice = r["table"], r["action"], r["log"], r["dice"]
    lw = action.w
    top = table.y
    free_h = h - top - action.h  # (the table's height when nothing is under the action bar)
    ratio = (board[0] + 2 * MARGIN) / (board[1] + 2 * MARGIN)
    side = max(round(SIDE_MIN * scale), lw - round(free_h * ratio))
    fitted_now = min(table.w / (board[0] + 2 * MARGIN), table.h / (board[1] + 2 * MARGIN))
    fitted_side = min((lw - side) / (board[0] + 2 * MARGIN), free_h / (board[1] + 2 * MARGIN))
    if fitted_side > fitted_now * 1.12:  # (a wide window: the side column wins room)
        r["table"] = pygame.Rect(0, top, lw - side, free_h)
        r["action"] = pygame.Rect(0, top + free_h, lw, action.h)
        half = free_h * 55 // 100
        r["log"] = pygame.Rect(lw - side, top, side, half)
        r["dice"] = pygame.Rect(lw - side, top + half, side, free_h - half)
        return r
    if h < SHORT:
        bottom = max(round(100 * scale), h // 5)
        grow = log.h - bottom
        if grow > 0:
            r["table"] = pygame.Rect(table.x, table.y, table.w, table.h + grow)
            r["action"] = action.move(0, grow)
            r["log"] = pygame.Rect(log.x, log.y + grow, log.w, bottom)
            r["dice"] = pygame.Rect(dice.x, dice.y + grow, dice.w, bottom)
    return r
