"""Fonts for text drawn on the table: pygame-gui's bundled Noto Sans (OFL), cached by size."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame


def _data_dir() -> Path | None:
    try:
        import pygame_gui
        return Path(pygame_gui.__file__).parent / "data"
    except ImportError:  # pragma: no cover
        return None


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    d = _data_dir()
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    if d is not None and (d / name).is_file():
        return pygame.font.Font(str(d / name), size)
    return pygame.font.Font(None, size + 4)


@lru_cache(maxsize=512)
def text(s: str, size: int, colour: tuple, bold: bool = False) -> pygame.Surface:
    return font(size, bold).render(s, True, colour)
