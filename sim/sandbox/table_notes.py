"""Small notes drawn on the table: a boxed note beside a point (why a move is refused), a ring
about a ghost base, and text wrapped for them (shared by the move preview, the staged unit move
and the charge flow)."""

from __future__ import annotations

import pygame

from sim.sandbox import style as S
from sim.sandbox.fonts import text


def wrap(s: str, width: int = 58) -> list[str]:
    words, lines, line = s.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    return lines


def draw_note(surf, anchor, lines, colour, title: str | None = None, away_from=None) -> pygame.Rect:
    """A small boxed note beside a table point (the reason a move is refused), kept inside the
    clip rectangle (the table viewport): below the point, or above it when ``away_from`` (a
    screen point the note should not hide, such as the enemy it names) is below."""
    ts = ([text(title, 12, colour, True)] if title else []) + [text(s, 12, S.TEXT) for s in lines]
    w = max(t.get_width() for t in ts) + 14
    h = sum(t.get_height() for t in ts) + 10
    area = surf.get_clip() or surf.get_rect()
    x = min(max(anchor[0] + 18, area.x + 4), area.right - w - 4)
    above = away_from is not None and away_from[1] > anchor[1]
    y = anchor[1] - h - 18 if above else anchor[1] + 14
    y = min(max(y, area.y + 4), area.bottom - h - 4)
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((30, 30, 28, 232))
    pygame.draw.rect(box, (*colour, 255), box.get_rect(), 1)
    surf.blit(box, (x, y))
    yy = y + 5
    for t in ts:
        surf.blit(t, (x + 7, yy))
        yy += t.get_height()
    return pygame.Rect(x, y, w, h)


def ghost_ring(surf, cam, fp, colour, width: int = 2) -> None:
    x, y = cam.to_screen(fp.x, fp.y)
    r = max(3, cam.length(0.5 * max(fp.length, fp.width))) + 2 + width
    pygame.draw.circle(surf, colour, (x, y), r, width)
