"""The odds calculator as a sandbox panel (issue 28 item 11), the same as `sim odds --attacker
--defender`: pick two units (from the table, or from the catalogue browsed in set-up mode),
toggle the range, cover, stationary, charged (or a fight without a charge) and each weapon side
by side, and read the expected attacks, hits, wounds, damage, models destroyed, the chance to
destroy the unit and "at least k models" with percentages. Several attacks side by side:
"Compare" keeps the pair shown (attacker and defender) as a column, so the next pair chosen is
read beside it (several units on one target, one unit on several targets; up to MAX_PINNED
kept, "Clear" drops them); "Each weapon" adds each weapon's own column.

The figures are sim.analysis.calculator's (sim.odds's exact odds of the two units set up on an
empty board), the units at full strength as their datasheets give them. Worked out in the frame
in which a choice changes (a few milliseconds for two units), never in the others: the frame
path compares a key. A floating window of the UI manager; its buttons are the sandbox's actions."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UIButton, UIDropDownMenu, UIImage, UILabel, UIWindow

from sim.names import counted
from sim.sandbox.fonts import font

BG = (30, 33, 40)
TEXT = (222, 226, 232)
MUTED = (150, 156, 168)
BAR = (110, 170, 235)
RANGES = (1, 3, 6, 9, 12, 18, 24, 30, 36, 48)
MAX_PINNED = 3  # pairs kept beside the one chosen (four columns fit the panel)


def _option(o) -> str:
    return o[0] if isinstance(o, tuple) else str(o)


class CalculatorPanel:
    """Owned by the Sandbox (``sb.calculator``): ``toggle(sb)`` opens or closes it, ``update(sb)``
    every frame."""

    def __init__(self):
        self.window: UIWindow | None = None
        self.choices: dict = {}  # option text -> ("table", unit id) or ("catalogue", path, name)
        self.attacker = self.defender = None  # option texts
        self.range = 12
        self.cover = self.stationary = self.charged = self.melee = self.per_weapon = False
        self.key = None
        self.pinned: list[tuple[str, str]] = []  # (attacker, defender) option texts read beside the chosen pair
        self.chosen_at = 0  # the chosen pair's first column (after the kept pairs')
        self.columns: list = []
        self.error = ""
        self._menus = (None, None)
        self._image = None
        self._buttons: dict = {}
        self._picks: dict = {}  # option text -> calculator Pick (built once)
        self.catalogue: tuple | None = None  # (path, datasheets) picked with the panel's Catalogue...
        self._dialog = None

    @property
    def open(self) -> bool:
        return self.window is not None and self.window.alive()

    # --- choices ------------------------------------------------------------------------------
    def _options(self, sb) -> dict:
        out = {}
        from sim.names import unit_names
        names = [a.name for a in sb.spec.armies]
        shown_as = unit_names(sb.spec.units)  # (as the table names them: "Raider Mob (2)")
        for us in sb.spec.units:
            shown = shown_as[us.id]
            out[f"{shown} ({names[us.owner]})"] = ("table", us.id, shown)
        cats = [(c["path"], c["sheets"]) for c in (getattr(sb, "catalogue", None),) if c] + \
            ([self.catalogue] if self.catalogue else [])
        for path, sheets in cats:
            for s in sheets:
                if not s.get("refused"):
                    out.setdefault(f"{s['name']} (catalogue)", ("catalogue", path, s["name"]))
        return out

    def open_dialog(self, sb) -> None:
        """Catalogue...: a file dialog for a catalogue whose datasheets join the choices."""
        from pathlib import Path

        from pygame_gui.windows import UIFileDialog

        from sim.sandbox.catalogue_browser import SUFFIXES
        start = Path(getattr(sb, "catalogue_start", None) or getattr(sb, "import_start", None) or Path.cwd())
        self._dialog = UIFileDialog(pygame.Rect(160, 80, 560, 460), sb.manager, "A catalogue for the calculator",
                                    initial_file_path=str(start), allow_picking_directories=False,
                                    allowed_suffixes=SUFFIXES)

    def picked(self, sb, event) -> bool:
        """A file dialog's pick: True if it was this panel's (its catalogue is then read)."""
        if self._dialog is None or event.ui_element is not self._dialog:
            return False
        self._dialog = None
        self.open_catalogue(sb, event.text)
        return True

    def open_catalogue(self, sb, path) -> bool:
        """Read a catalogue's datasheets into the choices (a refusal: the error in the panel)."""
        from sim.errors import ScenarioError, escape_controls
        from sim.importers import list_datasheets
        try:
            sheets = list_datasheets(str(path))
        except (ScenarioError, OSError, ValueError) as e:
            sb.status = escape_controls(f"calculator: catalogue failed: {e}")
            return False
        self.catalogue = (str(path), sheets)
        self._read_menus()
        self.choices = self._options(sb)
        if self.open:
            self.window.kill()
            self._build(sb)
        sb.status = escape_controls(f"calculator: {counted(len(sheets), 'datasheet')} of {path} to choose from")
        return True

    def pick(self, sb, option: str):
        """The calculator's Pick for a choice (a table unit as its scenario gives it, or a
        catalogue's datasheet), built once."""
        from sim.analysis import calculator as C
        if option in self._picks:
            return self._picks[option]
        src = self.choices[option]
        if src[0] == "table":
            us = next(u for u in sb.spec.units if u.id == src[1])
            p = C.Pick(us, dict(sb.spec.weapons), tuple(sb.spec.armies[us.owner].rules), "the table", src[2])
        else:
            p = C.load_unit(src[1], src[2])
        self._picks[option] = p
        return p

    def toggle(self, sb) -> None:
        if self.open:
            self.window.kill()
            self.window = None
            return
        self.choices = self._options(sb)
        self._picks = {}
        opts = list(self.choices)
        if not opts:
            sb.status = "the calculator needs units: the table has none"
            return
        sel = sb.selected_unit
        own = next((o for o, c in self.choices.items() if c[0] == "table" and c[1] == sel), None)
        self.attacker = self.attacker if self.attacker in self.choices else own or opts[0]
        owner = {u.id: u.owner for u in sb.spec.units}
        a = self.choices[self.attacker]
        enemy = next((o for o, c in self.choices.items() if c[0] == "table" and a[0] == "table"
                      and owner[c[1]] != owner[a[1]]), None)
        self.defender = self.defender if self.defender in self.choices else enemy or opts[-1]
        self._build(sb)

    def choose(self, sb, attacker: str | None = None, defender: str | None = None) -> None:
        """Set the attacker and/or the defender (choice texts) in the open panel."""
        self._read_menus()
        self.attacker = attacker if attacker in self.choices else self.attacker
        self.defender = defender if defender in self.choices else self.defender
        if self.open:
            self.window.kill()
            self._build(sb)

    # --- the window ---------------------------------------------------------------------------
    def _build(self, sb) -> None:
        s = sb.scale
        vp = sb.camera.viewport
        w = min(vp.w - 8, round(560 * s))
        h = min(vp.h - 8, round(430 * s))
        self.window = UIWindow(pygame.Rect(vp.x + 4, vp.y + 4, w, h), sb.manager, "Odds calculator",
                               object_id="#calculator")
        inner = self.window.get_container().get_rect()
        pad, row = round(6 * s), round(28 * s)
        lw = round(70 * s)
        y = pad
        opts = list(self.choices)
        menus = []
        for label, cur in (("Attacker", self.attacker), ("Defender", self.defender)):
            UILabel(pygame.Rect(pad, y, lw, row), label, sb.manager, container=self.window)
            menus.append(UIDropDownMenu(opts, cur, pygame.Rect(pad + lw, y, inner.w - lw - 3 * pad, row), sb.manager,
                                        container=self.window, expansion_height_limit=round(260 * s)))
            y += row + pad
        self._menus = tuple(menus)
        self._buttons = {}
        x = pad
        for name, text in (("range-", "-"), ("range", f'{self.range}"'), ("range+", "+"), ("cover", "Cover"),
                           ("stationary", "Stationary"), ("charged", "Charged"), ("melee", "Fight"),
                           ("weapons", "Each weapon"), ("catalogue", "Catalogue...")):
            if name == "catalogue":  # (a row of its own: comparing and the catalogue)
                x, y = pad, y + row + pad
            bw = round((26 if len(text) <= 1 else 14 + 7.5 * len(text)) * s)  # ('12"': the inch mark shown whole)
            b = UIButton(pygame.Rect(x, y, bw, row), text, sb.manager, container=self.window,
                         object_id="#toggle_on" if getattr(self, self._attr(name), False) is True else None)
            sb.actions[b] = lambda n=name, sb=sb: self._press(sb, n)
            sb.names[f"calc:{name}"] = b
            self._buttons[name] = b
            x += bw + 3
        for name, text in (("compare", "Compare"), ("clear", "Clear")):
            bw = round((14 + 7.5 * len(text)) * s)
            b = UIButton(pygame.Rect(x, y, bw, row), text, sb.manager, container=self.window,
                         tool_tip_text="keep this pair's column and choose another beside it" if name == "compare"
                         else "drop the kept columns")
            sb.actions[b] = lambda n=name, sb=sb: self._press(sb, n)
            sb.names[f"calc:{name}"] = b
            self._buttons[name] = b
            x += bw + 3
        if self.pinned:
            kept = ", ".join(f"{a.rsplit(' (', 1)[0]} v {d.rsplit(' (', 1)[0]}" for a, d in self.pinned)
            UILabel(pygame.Rect(x + 4, y, max(10, inner.w - x - pad - 4), row), f"beside: {kept}", sb.manager,
                    container=self.window)
        y += row + pad
        self._image = UIImage(pygame.Rect(pad, y, inner.w - 2 * pad, inner.h - y - pad),
                              pygame.Surface((max(1, inner.w - 2 * pad), max(1, inner.h - y - pad))), sb.manager,
                              container=self.window)
        self.key = None

    @staticmethod
    def _attr(name: str) -> str:
        """The panel's attribute a toggle button flips (Fight: ``melee``, Each weapon: ``per_weapon``)."""
        return {"weapons": "per_weapon"}.get(name, name)

    def _press(self, sb, name: str) -> None:
        if name == "catalogue":
            self.open_dialog(sb)
            return
        self._read_menus()
        if name == "compare":
            pair = (self.attacker, self.defender)
            if pair not in self.pinned:
                self.pinned = (self.pinned + [pair])[-MAX_PINNED:]
        elif name == "clear":
            self.pinned = []
        if name in ("range-", "range+"):
            i = min(range(len(RANGES)), key=lambda k: abs(RANGES[k] - self.range))
            self.range = RANGES[max(0, min(len(RANGES) - 1, i + (1 if name == "range+" else -1)))]
        elif name not in ("range", "compare", "clear"):
            attr = self._attr(name)
            setattr(self, attr, not getattr(self, attr))
            if name == "charged" and self.charged:
                self.melee = False
            if name == "melee" and self.melee:
                self.charged = False
        self._read_menus()
        self.window.kill()
        self._build(sb)

    def _read_menus(self) -> None:
        a, d = self._menus
        if a is not None and a.alive():
            self.attacker = _option(a.selected_option)
        if d is not None and d.alive():
            self.defender = _option(d.selected_option)

    def conditions(self):
        from sim.analysis import calculator as C
        return C.Conditions(range=float(self.range), cover=self.cover, stationary=self.stationary,
                            charged=self.charged, fight=self.melee)

    # --- the frame ----------------------------------------------------------------------------
    def update(self, sb) -> None:
        if self.window is None:
            return
        if not self.window.alive():  # (closed with its title bar's button, or the UI rebuilt)
            self.window = None
            return
        self._read_menus()
        key = (self.attacker, self.defender, tuple(self.pinned), self.conditions(), self.per_weapon,
               self._image.rect.size)
        if key == self.key:
            return
        self.key = key
        self.solve(sb)
        self._image.set_image(self.render(self._image.rect.size))

    def solve(self, sb) -> None:
        from sim.analysis import calculator as C
        from sim.errors import ScenarioError
        self.columns, self.error = [], ""
        try:
            pairs = [p for p in self.pinned if p != (self.attacker, self.defender)]
            for a, d in pairs + [(self.attacker, self.defender)]:  # (the kept pairs, then the chosen one)
                self.chosen_at = len(self.columns)
                if a in self.choices and d in self.choices:
                    self.columns += C.columns(self.pick(sb, a), self.pick(sb, d), self.conditions(),
                                              per_weapon=self.per_weapon)
        except (ScenarioError, OSError) as e:
            self.error = str(e)

    def lines(self) -> list[str]:
        """The answer as text (the command line's table: tests read it)."""
        from sim.analysis import calculator as C
        if self.error:
            return [f"no odds: {self.error}"]
        if not self.columns:
            return []
        return C.text(self.columns, self.conditions()).split("\n")

    def render(self, size) -> pygame.Surface:
        """The table of sim.analysis.calculator.rows in a grid (names left, a column per
        attack, values right-aligned), the notes, then the bars of the first column's models
        destroyed with their percentages where room is left."""
        from sim.analysis import calculator as C
        w, h = max(1, size[0]), max(1, size[1])
        surf = pygame.Surface((w, h))
        surf.fill(BG)
        f = font(12)
        lh = f.get_linesize()
        y = 2
        surf.blit(f.render(self.lines()[0] if self.lines() else "", True, MUTED), (4, y))
        y += lh
        if self.error or not self.columns:
            return surf
        table = C.rows(self.columns)
        name_w = max(f.size(n)[0] for n, _ in table) + 12
        col_w = max(70, (w - name_w - 8) // max(1, len(self.columns)))
        for i, (name, values) in enumerate(table):
            surf.blit(f.render(name, True, MUTED), (4, y))
            for j, v in enumerate(values):
                t = f.render(v, True, TEXT if i > 1 else MUTED)
                right = name_w + (j + 1) * col_w
                surf.blit(t, (right - t.get_width(), y))
            y += lh
            if y > h - lh:
                return surf
        for n in C.notes(self.columns):
            surf.blit(font(10).render(n[:160], True, MUTED), (4, y))
            y += 13
        cols = [c for c in self.columns[self.chosen_at:] + self.columns if c.answered]
        if cols and y < h - 40:  # (the chosen pair's models destroyed, with percentages)
            _bars(surf, pygame.Rect(4, y + 4, w - 8, h - y - 8), cols[0].destroyed.p, font(10))
        return surf


def _bars(surf, r: pygame.Rect, p, small) -> None:
    n = len(p)
    if n == 0 or r.h < 20:
        return
    bw = max(2, min(40, (r.w - 2 * n) // n))
    top = max(p) or 1.0
    hh = r.h - 24
    for k, v in enumerate(p):
        x = r.x + k * (bw + 2)
        bh = int(round(hh * v / top))
        pygame.draw.rect(surf, BAR, (x, r.y + 11 + hh - bh, bw, bh))
        if bw >= 20 and v >= 0.005:
            t = small.render(f"{100 * v:.0f}%", True, TEXT)
            surf.blit(t, (x + (bw - t.get_width()) // 2, r.y + hh - bh))
        t = small.render(str(k), True, MUTED)
        surf.blit(t, (x + (bw - t.get_width()) // 2, r.bottom - 12))
