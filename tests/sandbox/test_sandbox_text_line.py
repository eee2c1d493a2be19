"""The panels' lines of text (sim.sandbox.widgets.TextLine): drawn in the look the theme gives a
label of their object id, where a label draws its text, and drawn again only when their text
changes."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from pygame_gui.elements import UILabel

from sandbox_support import ROOT
from sim.sandbox import style
from sim.sandbox.ui_manager import UIManager
from sim.sandbox.widgets import Flow, TextLine

THEME = ROOT / "assets" / "theme.json"


@pytest.fixture
def manager():
    pygame.init()
    pygame.display.set_mode((640, 200))
    return UIManager((640, 200), style.scaled_theme(THEME, 1.0))


def _ink(manager, element) -> tuple:
    """The box of the pixels ``element`` draws over the background, relative to its rect, and
    its brightest pixel's colour."""
    screen = pygame.Surface((640, 200))
    screen.fill((40, 44, 42))
    manager.update(0.01)
    manager.draw_ui(screen)
    a = pygame.surfarray.array3d(screen).astype(int)[element.rect.x:element.rect.right, element.rect.y:element.rect.bottom]
    ink = np.abs(a - np.array([40, 44, 42])).sum(axis=2) > 60
    xs, ys = np.nonzero(ink)
    brightest = a.reshape(-1, 3)[np.argmax(a.sum(axis=2))]
    return (xs.min(), ys.min(), xs.max(), ys.max()), tuple(brightest)


@pytest.mark.parametrize("object_id", [None, "#heading", "#subheading", "#muted", "#warning"])
def test_text_line_draws_a_label_s_text_in_its_place_and_colour(manager, object_id):
    rect = pygame.Rect(10, 10, 400, 24)
    text = "Movement phase: 3 units not yet moved"
    lab = UILabel(rect, text, manager, object_id=object_id)
    box_l, col_l = _ink(manager, lab)
    lab.kill()
    line = TextLine(rect, text, manager, None, manager.text_looks.get(object_id, manager.text_looks[None]))
    box_t, col_t = _ink(manager, line)
    assert all(abs(a - b) <= 1 for a, b in zip(box_l, box_t)), (box_l, box_t)
    assert all(abs(a - b) <= 24 for a, b in zip(col_l, col_t)), (col_l, col_t)


def test_text_looks_read_the_theme_s_labels():
    looks = style.text_looks(style.scaled_theme(THEME, 1.5))
    assert looks[None][:2] == (21, False)  # (the label block's 14 px, at scale 1.5)
    assert looks["#heading"][:2] == (24, True) and looks["#heading"][2] == (0xEF, 0xE9, 0xCF, 255)
    assert looks["#muted"][2] == (0x9E, 0xA3, 0x96, 255)


def test_text_line_is_drawn_again_only_when_its_text_changes(manager, monkeypatch):
    line = TextLine(pygame.Rect(0, 0, 200, 20), "one", manager, None, manager.text_looks[None])
    drawn = []
    real = TextLine.set_image

    def counting(self, *a, **k):
        drawn.append(self.text)
        return real(self, *a, **k)

    monkeypatch.setattr(TextLine, "set_image", counting)
    line.set_text("one")
    line.set_text("two")
    assert drawn == ["two"] and line.text == "two"


def test_flow_labels_are_text_lines_with_the_sandbox_s_manager_and_labels_without(manager):
    import pygame_gui
    panel = pygame.Rect(0, 0, 300, 180)
    f = Flow(manager, panel, {}, {})
    assert isinstance(f.label("Keywords", "#subheading"), TextLine)
    plain = pygame_gui.UIManager((640, 200))
    g = Flow(plain, panel, {}, {})
    assert type(g.label("Keywords", "#subheading")) is UILabel
