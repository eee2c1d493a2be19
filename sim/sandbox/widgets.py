"""A tiny flow layout over pygame-gui: rows of labels, buttons and ability chips inside a
scrolling container, each button bound to a callback. Panels rebuild their contents with it.

Sizes, positions and widths given to a Flow or a Bar (and read from ``flow.x``, ``flow.y``,
``flow.width``) are at UI scale 1 (a 1440x900 window, sim.sandbox.style.ui_scale); they are
multiplied by the window's scale when a widget is made, as the theme's fonts are."""

from __future__ import annotations

from typing import Callable

import pygame
from pygame_gui.elements import UIButton, UIImage, UILabel, UIPanel, UIScrollingContainer

from sim.sandbox.fonts import font
from sim.sandbox.style import font_px

SCROLL_BAR_W = 20  # pygame-gui's scroll bar, px (it does not scale)


class TextLine(UIImage):
    """A line of a panel's text: pygame-gui's image, the text drawn into it by pygame's font in
    the look the theme gives a label of its object id (sim.sandbox.style.text_looks: its font
    size, weight and colour; left-aligned, centred in its height). It draws what a UILabel
    draws, for a fraction of the cost: making one ~0.34 ms against a label's ~0.72, its text
    set ~0.05 ms against ~0.34, so a unit card of a community army's unit (30-50 lines, made
    again after each command) is made in a few milliseconds. ``text`` and ``set_text`` are a
    label's."""

    def __init__(self, rect: pygame.Rect, text: str, manager, container, look: tuple):
        self.text, self._look = text, look
        super().__init__(rect, self._drawn(rect.size, text), manager, container=container)

    @property
    def font(self) -> pygame.font.Font:
        """The font the line is drawn in (as a label's ``font``: what its text measures)."""
        return font(self._look[0], self._look[1])

    def _drawn(self, size, text: str) -> pygame.Surface:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        line = self.font.render(text, True, self._look[2])
        surf.blit(line, (0, (size[1] - line.get_height()) // 2))  # (where a label draws it)
        return surf

    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.set_image(self._drawn(self.rect.size, text))


def text_line(rect: pygame.Rect, text: str, manager, container, object_id: str | None):
    """A TextLine where the manager knows its theme's label looks (the sandbox's UIManager),
    else the library's UILabel."""
    looks = getattr(manager, "text_looks", None)
    if not looks:
        return UILabel(rect, text, manager, container=container, object_id=object_id)
    return TextLine(rect, text, manager, container, looks.get(object_id, looks[None]))


def _shape(key: tuple) -> tuple:
    """A widget key without its text (its second field), and a button's without its name (its
    last: a name is the sandbox's handle on a button, not how it looks): the widgets one of
    which can be given another's text (a deployment's list of units, the other player's after
    each set-up, is the same buttons with other texts and names)."""
    return ("shape",) + key[:1] + (key[2:-1] if key[0] == "button" else key[2:])


class Flow:
    """Lays widgets top to bottom (and left to right within a row) in a scrolling container."""

    PAD = 8

    def __init__(self, manager, rect: pygame.Rect, actions: dict, names: dict, container=None,
                 scale: float = 1.0, reuse: "Flow | None" = None):
        self.manager = manager
        self.actions = actions  # button -> callback (owned by the sandbox)
        self.names = names  # name -> button (for tests and shortcuts)
        self.s = scale
        self._at = (pygame.Rect(rect), container, manager, scale)
        self._outer = self._scroll = None  # made (or taken from ``reuse``) with the first widget
        self._reuse = reuse if reuse is not None and reuse._at == self._at else None
        self._spare: dict = {}  # key (and shape key) -> the reused build's widgets of that key
        self._taken: set = set()  # ids of the reused build's widgets taken by this build
        self._old: list = []  # every widget of the reused build (those the builder made itself too)
        self._made: list = []  # (key, widget) of this build, in order
        self._named: dict = {}  # name -> the button this build gave it
        self._dims = None  # the scrollable area's size finish() set
        self._finished = False
        self.kept_panel = False  # the last build's panel taken
        # (a row's room after the left PAD: from PAD to PAD + width, clear of the scroll bar)
        self.width = (rect.w - 2 - SCROLL_BAR_W) / scale - self.PAD
        self.y = self.PAD
        self.x = self.PAD
        self.row_h = 0

    # --- the panel: made afresh, or the last build's kept ------------------------------------------
    # A panel is rebuilt whenever what it shows may have changed; most rebuilds show much of
    # what it showed. Made with ``reuse`` (the last build of the same panel, in the same rect), a
    # Flow keeps that build's panel and scrolling container, and each widget made again with the
    # same key (kind, text, rect, tip, style, name); ``settle`` then removes the widgets not made
    # again. The scroll position stays when the first widget is the same (the same contents,
    # changed), else the panel shows its top. Widgets cost milliseconds each in pygame-gui (a
    # scrolling container tens); keeping them keeps a pointer's hover too.
    def _ensure(self, key=None) -> None:
        if self._scroll is not None:
            return
        old, self._reuse = self._reuse, None
        if old is not None and old._outer is not None and old._outer.alive():
            self._outer, self._scroll = old._outer, old._scroll
            self._dims, self.kept_panel = old._dims, True
            for k, w in old._made:
                self._spare.setdefault(k, []).append(w)
                self._spare.setdefault(_shape(k), []).append(w)
            self._old = list(self._scroll.get_container().elements)
            if key is None or not old._made or old._made[0][0] != key:  # (other contents: the top)
                self._scroll.get_container().set_relative_position((0, 0))
                self._dims = None
            return
        rect, container, manager, _s = self._at
        self._outer = UIPanel(rect, manager=manager, container=container)
        inner = pygame.Rect(0, 0, rect.w - 2, rect.h - 2)
        self._scroll = UIScrollingContainer(inner, manager=manager, container=self._outer,
                                            allow_scroll_x=False)

    @property
    def outer(self):
        self._ensure()
        return self._outer

    @property
    def scroll(self):
        self._ensure()
        return self._scroll

    def _make(self, key: tuple, rect: pygame.Rect, make: Callable):
        """A widget of ``key`` (its kind, text, size...) at ``rect``: the reused build's, moved
        there (one of the same kind, size, tip and style with other text given this text: a
        label's or a button's text set costs a third to a half of making it), or ``make()``."""
        self._ensure(key)
        w = self._take(key) or self._take(_shape(key))
        if w is None:
            w = make()
        else:
            if w.relative_rect.topleft != rect.topleft:
                w.set_relative_position(rect.topleft)
            if w.text != key[1]:
                w.set_text(key[1])
        self._made.append((key, w))
        return w

    def _take(self, key: tuple):
        spare = self._spare.get(key)
        while spare:
            w = spare.pop(0)
            if w.alive() and id(w) not in self._taken:
                self._taken.add(id(w))
                return w
        return None

    def settle(self) -> None:
        """The end of a build: the reused build's widgets not made again are removed (and the
        scrollable area fitted, if the builder did not)."""
        self._ensure()
        if not self._finished:
            self.finish()
        made = {id(w) for _k, w in self._made}
        for w in self._old:
            if id(w) not in made and w.alive():
                w.kill()
        # (a button kept under another name answers to that name alone)
        for name in [n for n, b in self.names.items() if id(b) in made and self._named.get(n) is not b]:
            del self.names[name]
        self._old, self._spare, self._taken = [], {}, set()

    def kill(self) -> None:
        if self._outer is not None:
            self._outer.kill()

    # --- units ------------------------------------------------------------------------------
    def px(self, v: float) -> int:
        return round(v * self.s)

    def _rect(self, x, y, w, h) -> pygame.Rect:
        return pygame.Rect(self.px(x), self.px(y), max(1, self.px(w)), max(1, self.px(h)))

    def text_w(self, text: str, size: int = 13, bold: bool = False) -> float:
        """The width of ``text`` at font size ``size`` (scale 1 units)."""
        return font(font_px(size, self.s), bold).size(text)[0] / self.s

    def line_h(self, size: int = 13, bold: bool = False) -> float:
        return font(font_px(size, self.s), bold).get_linesize() / self.s

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
              width: int | None = None) -> UILabel | TextLine:
        self.newline()
        bold = object_id in ("#heading", "#subheading")
        size = 16 if object_id == "#heading" else max(size, 13)  # (the theme's size for labels)
        w = width or (self.width - indent)
        h = self.line_h(size, bold) + 4
        text = self.fit(text, max(10, w), size, bold)
        r = self._rect(self.PAD + indent, self.y, max(10, w), h)
        lab = self._make(("label", text, r.size, object_id), r,
                         lambda: text_line(r, text, self.manager, self.scroll, object_id))
        self.row_h = h
        self.newline(0)
        return lab

    def para(self, text: str, object_id: str | None = None, indent: int = 0) -> None:
        """Word-wrapped text as a stack of labels (cheaper and calmer than a text box)."""
        for line in self.wrap(text, self.width - 16 - indent):
            self.label(line, object_id, indent=indent)

    def wrap(self, text: str, width: float, size: int = 13) -> list[str]:
        out, line = [], ""
        for w in text.split():
            t = (line + " " + w).strip()
            if self.text_w(t, size) * 1.12 > width and line:
                out.append(line)
                line = w
            else:
                line = t
        if line:
            out.append(line)
        return out

    def button(self, text: str, callback: Callable | None, name: str | None = None,
               tip: str | None = None, object_id: str | None = None, width: int | None = None,
               height: int = 26, size: int = 13) -> UIButton:
        w = width or button_width(text, size, self.s)
        w = min(w, self.width)
        if self.x + w > self.PAD + self.width and self.x > self.PAD:
            self.newline()
        r = self._rect(self.x, self.y, w, height)
        b = self._make(("button", text, r.size, tip, object_id, name), r,
                       lambda: UIButton(r, text, self.manager, container=self.scroll, tool_tip_text=tip,
                                        object_id=object_id))
        if callback is not None:
            self.actions[b] = callback
        else:
            self.actions.pop(b, None)
        if name:
            self.names[name] = self._named[name] = b
        self.x += w + 4
        self.row_h = max(self.row_h, height)
        return b

    def chip(self, text: str, tip: str | None, callback: Callable | None = None, name: str | None = None):
        return self.button(text, callback, name=name, tip=tip, object_id="#chip",
                           width=self.text_w(text, 11) * 1.12 + 16, height=20, size=11)

    def inline_label(self, text: str, object_id: str | None = None, width: int | None = None,
                     height: int = 26, size: int = 13) -> UILabel | TextLine:
        w = width or self.text_w(text, size) * 1.15 + 12
        if self.x + w > self.PAD + self.width and self.x > self.PAD:
            self.newline()
        if width:
            text = self.fit(text, w, size, margin=4)
        r = self._rect(self.x, self.y, w, height)
        lab = self._make(("label", text, r.size, object_id), r,
                         lambda: text_line(r, text, self.manager, self.scroll, object_id))
        self.x += w + 4
        self.row_h = max(self.row_h, height)
        return lab

    def fit(self, text: str, width: float, size: int = 13, bold: bool = False, margin: int = 12) -> str:
        """``text`` cut with an ellipsis so that it fits a label ``width`` wide."""
        room = width - margin
        if self.text_w(text, size, bold) * 1.05 <= room:
            return text
        head, arrow, tail = text.partition(" -> ")
        if arrow and self.text_w("..." + arrow + tail, size, bold) * 1.05 <= room:
            # ("unit -> target": the target kept whole, the unit shortened: at 800x600 "Raider
            # Gunners -> Warden Squad (..." lost which Warden Squad the option shoots at)
            while head and self.text_w(head + "..." + arrow + tail, size, bold) * 1.05 > room:
                head = head[:-1]
            return head.rstrip() + "..." + arrow + tail
        while text and self.text_w(text + "...", size, bold) * 1.05 > room:
            text = text[:-1]
        return text + "..."

    def first_fitting(self, forms, width: float | None = None, size: int = 13, label: bool = False) -> str:
        """The first of ``forms`` (one text in fuller to shorter words, each naming its units
        whole) that a button (or, ``label``, a label) ``width`` wide shows whole; the last one cut
        (``fit``) when none does. At 800x600 "Use Insane Bravery (1 CP) on Raider Mob (2)" was cut
        to "...on Raid...": the unit's name is what the player must read, the stratagem is named
        above the buttons."""
        forms = [f for f in forms if f]
        width = self.width if width is None else width
        for t in forms:
            if label and self.text_w(t, size) * 1.05 <= width - 4:
                return t
            if not label and button_width(t, size, self.s) <= width:
                return t
        return self.fit(forms[-1], width - (0 if label else 8), size, margin=4 if label else 12)

    def finish(self) -> None:
        self.newline()
        h = self.px(self.y + self.PAD)
        if h <= self.outer.rect.h + 8:
            h = self.outer.rect.h - 2  # fits: no scroll bar
        dims = (self.outer.rect.w - 2 - SCROLL_BAR_W + 4, h)
        if self._dims != dims or not self.kept_panel:  # (the kept panel's may be right already)
            self.scroll.set_scrollable_area_dimensions(dims)
        self._dims = dims
        self._finished = True


def button_width(text: str, size: int, scale: float) -> float:
    """A button's width for ``text`` (scale 1 units)."""
    return font(font_px(size, scale)).size(text)[0] / scale * 1.12 + 22


class Bar:
    """A row of buttons that wraps onto more rows instead of scrolling, so that every button
    always shows (the action bar, the footer under the orders panel). Buttons are collected
    first (``button``, with Flow's arguments), measured (``height_for``), then made in a rect of
    that height (``place``). ``y``, ``x`` and ``finish`` are there so that a builder written for
    a Flow works on a Bar.

    A bar that would wrap first tries each button's ``short`` text (its key left to the tip and
    the F1 help), then moves its ``spare`` buttons behind a "More" button (``more``: its
    callback, the owner shows them in the bar's place), so a narrow window keeps one row."""

    PAD = 6
    GAP = 4

    def __init__(self, manager, actions: dict, names: dict, scale: float = 1.0):
        self.manager = manager
        self.actions = actions
        self.names = names
        self.s = scale
        self.specs: list = []  # dict per button, None for a forced row break
        self.more: dict | None = None  # the "More" button's spec (spare buttons hidden behind it)
        self.outer = self.scroll = None
        self._made: list = []  # (key, button) as placed
        self.y = self.x = 0  # (ignored: a Bar lays out its own rows)

    # --- collecting ---------------------------------------------------------------------------
    def button(self, text: str, callback: Callable | None, name: str | None = None,
               tip: str | None = None, object_id: str | None = None, width: int | None = None,
               height: int = 26, size: int = 13, short: str | None = None, spare: bool = False) -> None:
        spec = dict(text=text, callback=callback, name=name, tip=tip, object_id=object_id,
                    width=width or button_width(text, size, self.s), height=height, spare=spare)
        if short is not None:  # (a narrow window's text: the full one becomes the tip's first line)
            spec["short"] = dict(spec, text=short, width=width or button_width(short, size, self.s),
                                 tip=text + (f" - {tip}" if tip else ""))
        self.specs.append(spec)

    def more_button(self, callback: Callable, height: int = 26, size: int = 13) -> None:
        """Where the spare buttons go when the bar is too narrow for them."""
        self.more = dict(text="More...", callback=callback, name="bar:more", object_id=None, height=height,
                         tip="the buttons that do not fit",
                         width=button_width("More...", size, self.s), spare=False)

    def newline(self, gap: int = 0) -> None:
        if self.specs and self.specs[-1] is not None:
            self.specs.append(None)

    def finish(self) -> None:
        pass

    # --- layout -------------------------------------------------------------------------------
    def fitted(self, width_px: int) -> list:
        """The buttons as the bar shows them at ``width_px``: their full texts when one row
        holds them, else their short texts, else without the spare ones, behind "More"."""
        short = [s.get("short", s) if s is not None else None for s in self.specs]
        for specs in (self.specs, short):
            if len({r.y for _s, r in self._rows(specs, width_px)}) <= 1:
                return specs
        spares = [i for i, s in enumerate(short) if s is not None and s["spare"]]
        if self.more is None or not spares:
            return short
        for n in range(1, len(spares) + 1):  # (the last spare buttons first: as few hidden as fit)
            hidden = set(spares[-n:])
            kept = [s for i, s in enumerate(short) if i not in hidden]
            at = len(kept) - 1 if kept and kept[-1] is not None and kept[-1]["width"] <= 40 else len(kept)
            gone = [short[i] for i in sorted(hidden)]
            more = dict(self.more, hidden=gone, tip="the buttons that do not fit: " + ", ".join(h["text"] for h in gone))
            specs = kept[:at] + [more] + kept[at:]
            if len({r.y for _s, r in self._rows(specs, width_px)}) <= 1:
                break
        return specs  # ("More" before a last small "?")

    def hidden(self, width_px: int) -> list[str]:
        """The names of the spare buttons the bar hides behind "More" at ``width_px`` (none
        when every button fits), in the bar's order."""
        return [h["name"] for s in self.fitted(width_px) if s is not None for h in s.get("hidden", ())]

    def layout(self, width_px: int) -> tuple[list[tuple[dict, pygame.Rect]], int]:
        """Each button's rect (relative to the bar) in rows that fit ``width_px``, and the
        bar's height in px."""
        out = self._rows(self.fitted(width_px), width_px)
        s = self.s
        pad, gap = round(self.PAD * s), round(self.GAP * s)
        y_end = max((r.bottom for _s, r in out), default=0)
        return out, (y_end + pad + 2 if out else 0)  # (no buttons: no bar)

    def _rows(self, specs: list, width_px: int) -> list[tuple[dict, pygame.Rect]]:
        s = self.s
        pad, gap = round(self.PAD * s), round(self.GAP * s)
        room = max(1, width_px - 2 * pad - 2)
        out = []
        x, y, row_h = pad, pad, 0
        for spec in specs:
            if spec is None:
                if row_h:
                    x, y, row_h = pad, y + row_h + gap, 0
                continue
            w, h = min(round(spec["width"] * s), room), round(spec["height"] * s)
            if x + w > pad + room and x > pad:
                x, y, row_h = pad, y + row_h + gap, 0
            out.append((spec, pygame.Rect(x, y, w, h)))
            x += w + gap
            row_h = max(row_h, h)
        return out

    def height_for(self, width_px: int) -> int:
        return self.layout(width_px)[1]

    def place(self, rect: pygame.Rect, reuse: "Bar | None" = None) -> None:
        """Make the panel and its buttons in ``rect``. With ``reuse`` (the bar's last build, in
        the same rect) its panel is kept and each of its buttons made again (the same text,
        rect, tip, style and name) is kept (as Flow's widgets are); ``reuse`` is spent either
        way (its other buttons removed, or all of it)."""
        rect = pygame.Rect(rect.x, rect.y, rect.w, max(1, rect.h))
        spare: dict = {}
        if reuse is not None and reuse.outer is not None and reuse.outer.alive() \
                and reuse.outer.rect == rect and reuse.manager is self.manager:
            self.outer = self.scroll = reuse.outer
            for k, b in reuse._made:
                spare[k] = b
        else:
            if reuse is not None:
                reuse.kill()
            self.outer = self.scroll = UIPanel(rect, manager=self.manager)
        self._made = []
        for spec, r in self.layout(rect.w)[0]:
            key = (spec["text"], tuple(r), spec["tip"], spec["object_id"], spec["name"])
            b = spare.pop(key, None)
            if b is None or not b.alive():
                b = UIButton(r, spec["text"], self.manager, container=self.outer,
                             tool_tip_text=spec["tip"], object_id=spec["object_id"])
            self._made.append((key, b))
            if spec["callback"] is not None:
                self.actions[b] = spec["callback"]
            else:
                self.actions.pop(b, None)
            if spec["name"]:
                self.names[spec["name"]] = b
        for b in spare.values():
            b.kill()

    def kill(self) -> None:
        if self.outer is not None:
            self.outer.kill()


def wrap_line(text: str, fnt, width: int) -> list[str]:
    """``text`` in rows no wider than ``width`` px in font ``fnt``, broken between words; the
    rows after the first are indented under the line's own indent, a little further."""
    if fnt.size(text)[0] <= width:
        return [text]
    lead = text[:len(text) - len(text.lstrip())]
    more = lead + "    "
    rows, line = [], ""
    for word in text.split():
        t = (line + " " + word) if line else ((lead if not rows else more) + word)
        if fnt.size(t)[0] > width and line:
            rows.append(line)
            line = more + word
        else:
            line = t
    if line:
        rows.append(line)
    return rows
