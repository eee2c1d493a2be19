"""Table <-> screen transform: the board scaled to fit a viewport, zoom about a point, pan."""

from __future__ import annotations

import pygame

MARGIN = 1.5  # inches of dark surround shown around the board when fitted


class Camera:
    def __init__(self, board: tuple[float, float], viewport: pygame.Rect):
        self.board = (float(board[0]), float(board[1]))
        self.viewport = pygame.Rect(viewport)
        self.scale = 1.0
        self.ox = 0.0  # screen x of table x=0
        self.oy = 0.0
        self.fit()

    def fit_scale(self) -> float:
        bw, bh = self.board
        vw, vh = max(1, self.viewport.w), max(1, self.viewport.h)
        return max(0.5, min(vw / (bw + 2 * MARGIN), vh / (bh + 2 * MARGIN)))

    def fit(self) -> None:
        self.scale = self.fit_scale()
        bw, bh = self.board
        self.ox = self.viewport.x + (self.viewport.w - bw * self.scale) / 2
        self.oy = self.viewport.y + (self.viewport.h - bh * self.scale) / 2

    def set_viewport(self, rect: pygame.Rect) -> None:
        self.viewport = pygame.Rect(rect)
        self.fit()

    @property
    def key(self) -> tuple:
        """Changes whenever the mapping changes (for cached layers)."""
        return (round(self.scale, 4), round(self.ox, 2), round(self.oy, 2), tuple(self.viewport))

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.scale, self.oy + y * self.scale)

    def to_table(self, sx: float, sy: float) -> tuple[float, float]:
        return ((sx - self.ox) / self.scale, (sy - self.oy) / self.scale)

    def length(self, inches: float) -> float:
        return inches * self.scale

    def zoom_at(self, screen_pos, factor: float) -> None:
        """Zoom by ``factor`` keeping the table point under ``screen_pos`` fixed."""
        fit = self.fit_scale()
        new = min(max(self.scale * factor, fit * 0.6), fit * 10.0)
        tx, ty = self.to_table(*screen_pos)
        self.scale = new
        self.ox = screen_pos[0] - tx * new
        self.oy = screen_pos[1] - ty * new
        self._clamp()

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy
        self._clamp()

    def _clamp(self) -> None:
        """Keep at least a quarter of the viewport showing the board."""
        bw, bh = self.board
        vp = self.viewport
        w, h = bw * self.scale, bh * self.scale
        self.ox = min(max(self.ox, vp.x + vp.w * 0.25 - w), vp.right - vp.w * 0.25)
        self.oy = min(max(self.oy, vp.y + vp.h * 0.25 - h), vp.bottom - vp.h * 0.25)
