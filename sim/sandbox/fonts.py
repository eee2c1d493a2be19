"""Fonts for text drawn on the table: pygame-gui's bundled Noto Sans (OFL), cached by size.

A pygame font dies with the font module that made it (``pygame.quit()`` or
``pygame.font.quit()``; using it afterwards raises "font module quit since font created"), and
a process may open the sandbox more than once. So every cached font is checked before it is
handed out, and when the font module has been quit since the cache was filled, the whole
cache (all of one init generation) is dropped and fonts are made again. Rendered text
surfaces do not depend on the font module and are kept."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}  # (size, bold) -> font, one generation


def _data_dir() -> Path | None:
    try:
        import pygame_gui
        return Path(pygame_gui.__file__).parent / "data"
    except ImportError:  # pragma: no cover
        return None


def _load(size: int, bold: bool) -> pygame.font.Font:
    d = _data_dir()
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    if d is not None and (d / name).is_file():
        return pygame.font.Font(str(d / name), size)
    return pygame.font.Font(None, size + 4)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    f = _fonts.get((size, bold))
    if f is not None:
        try:
            f.get_height()  # raises if the font module was quit since f was made
            return f
        except pygame.error:
            _fonts.clear()  # every cached font is of that generation or older
    f = _fonts[(size, bold)] = _load(size, bold)
    return f


@lru_cache(maxsize=512)
def text(s: str, size: int, colour: tuple, bold: bool = False) -> pygame.Surface:
    return font(size, bold).render(s, True, colour)
