"""A tiny flow layout over pygame-gui: rows of labels, buttons and ability chips inside a
scrolling container, each button bound to a callback. Panels rebuild their contents with it."""

from __future__ import annotations

from typing import Callable

import pygame
from pygame_gui.elements import UIButton, UILabel, UIPanel, UIScrollingContainer

from sim.sandbox.fonts import font


class Flow:
    """Lays widgets top to bottom (and left to right within a row) in a scrolling container."""

    PAD = 8

    def __init__(self, manager, rect: pygame.Rect, actions: dict, names: dict, container=None):
        self.manager = manager
        self.actions = actions  # button -> callback (owned by the sandbox)
        self.names = names  # name -> button (for tests and shortcuts)
        self.outer = UIPanel(rect, manager=manager, container=container)
        inner = pygame.Rect(0, 0, rect.w - 2, rect.h - 2)
        self.scroll = UIScrollingContainer(inner, manager=manager, container=self.outer,
                                           allow_scroll_x=False)
        self.width = rect.w - 2 - 20  # room for the scroll bar
        self.y = self.PAD
        self.x = self.PAD
        self.row_h = 0

    def kill(self) -> None:
        self.outer.kill()

    # --- rows ---------------------------------------------------------------------------------
    def newline(self, gap: int = 2) -> None:
        if self.row_h:
            self.y += self.row_h + gap
        self.x = self.PAD
        self.row_h = 0

    def space(self, h: int = 6) -> None:
        self.newline()
        self.y += h

    def label(self, text: str, object_id: str | None = None, size: int = 13, indent: int = 0,
              width: int | None = None) -> UILabel:
        self.newline()
        bold = object_id in ("#heading", "#subheading")
        f = font(16 if object_id == "#heading" else size, bold=bold)
        w = width or (self.width - indent)
        h = f.get_linesize() + 4
        text = self.fit(text, max(10, w), 16 if object_id == "#heading" else size, bold)
        lab = UILabel(pygame.Rect(self.PAD + indent, self.y, max(10, w), h), text, self.manager,
                      container=self.scroll, object_id=object_id)
        self.row_h = h
        self.newline(0)
        return lab

    def para(self, text: str, object_id: str | None = None) -> None:
        """Word-wrapped text as a stack of labels (cheaper and calmer than a text box)."""
        f = font(13)
        words = text.split()
        line = ""
        for w in words:
            t = (line + " " + w).strip()
            if f.size(t)[0] * 1.12 > self.width - 16 and line:
                self.label(line, object_id)
                line = w
            else:
                line = t
        if line:
            self.label(line, object_id)

    def button(self, text: str, callback: Callable | None, name: str | None = None,
               tip: str | None = None, object_id: str | None = None, width: int | None = None,
               height: int = 26, size: int = 13) -> UIButton:
        w = width or int(font(size).size(text)[0] * 1.12) + 22
        if self.x + w > self.PAD + self.width and self.x > self.PAD:
            self.newline()
        b = UIButton(pygame.Rect(self.x, self.y, w, height), text, self.manager, container=self.scroll,
                     tool_tip_text=tip, object_id=object_id)
        if callback is not None:
            self.actions[b] = callback
        if name:
            self.names[name] = b
        self.x += w + 4
        self.row_h = max(self.row_h, height)
        return b

    def chip(self, text: str, tip: str | None, callback: Callable | None = None, name: str | None = None):
        return self.button(text, callback, name=name, tip=tip, object_id="#chip",
                           width=int(font(11).size(text)[0] * 1.12) + 16, height=20, size=11)

    def inline_label(self, text: str, object_id: str | None = None, width: int | None = None,
                     height: int = 26) -> UILabel:
        w = width or int(font(13).size(text)[0] * 1.15) + 12
        if self.x + w > self.PAD + self.width and self.x > self.PAD:
            self.newline()
        if width:
            text = self.fit(text, w)
        lab = UILabel(pygame.Rect(self.x, self.y, w, height), text, self.manager, container=self.scroll,
                      object_id=object_id)
        self.x += w + 4
        self.row_h = max(self.row_h, height)
        return lab

    def fit(self, text: str, width: int, size: int = 13, bold: bool = False) -> str:
        """``text`` cut with an ellipsis so that it fits a label ``width`` pixels wide."""
        f = font(size, bold)
        room = width - 12
        if f.size(text)[0] * 1.12 <= room:
            return text
        while text and f.size(text + "...")[0] * 1.12 > room:
            text = text[:-1]
        return text + "..."

    def finish(self) -> None:
        self.newline()
        h = self.y + self.PAD
        if h <= self.outer.rect.h + 8:
            h = self.outer.rect.h - 2  # fits: no scroll bar
        self.scroll.set_scrollable_area_dimensions((self.width + 4, h))
