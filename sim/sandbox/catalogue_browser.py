"""Set-up mode's "Catalogue..." (issue 17): a catalogue (.cat, .catz, its JSON form) picked in a
file dialog is browsed in the set-up panel, and any of its datasheets is added as one unit to
the red or blue army.

The importer does it all (sim.importers): ``list_datasheets`` gives each datasheet's name,
points and statlines (names and numbers only: no rules prose is shown); a search box filters
them by name as you type (case-insensitive substring, as ``list_datasheets(path, search)``
does). A datasheet clicked asks which army; ``load_datasheet`` builds its unit (default
wargear, minimum models) and ``into_scenario(..., add=True)`` puts it in that army of the
current table (written out as a scenario first), placed by the importer's placement in the
army's deployment zone clear of every base already on the table. The text is parsed back by
the scenario loader and a fresh battle starts from it, as every set-up edit does. A file the
importer refuses leaves the table as it was and puts its one-line error in the status bar.
A mixin of :class:`Sandbox`."""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path

import pygame

from sim.names import counted
from sim.errors import ScenarioError, escape_controls
from sim.rules.turn import PLAYER
from sim.sandbox.widgets import SCROLL_BAR_W

SUFFIXES = {".cat", ".catz", ".json"}
MAX_SHOWN = 150  # datasheet buttons at most (the rest counted: refine the search)
STATS = (("m", "M"), ("t", "T"), ("sv", "Sv"), ("w", "W"), ("ld", "Ld"), ("oc", "OC"))


def statline(stats: dict) -> str:
    """'M6" T4 Sv3+ W2 Ld6+ OC2' from one printed statline (its invulnerable save too)."""
    low = {str(k).casefold(): str(v).strip() for k, v in stats.items()}
    out = [f"{name}{low[k]}" for k, name in STATS if low.get(k)]
    if low.get("insv"):
        out.append(f"InSv{low['insv']}")
    return " ".join(out)


def sheet_line(sheet: dict) -> str:
    """A datasheet's button text: name, its first statline, points."""
    head, pts = sheet_parts(sheet)
    return "  ".join(x for x in (head, pts) if x)


def sheet_parts(sheet: dict) -> tuple[str, str]:
    """(name and first statline, points): a narrow button cuts the first, never the points."""
    stats = sheet.get("stats") or {}
    first = statline(next(iter(stats.values()))) if stats else ""
    pts = sheet.get("points")
    pts = f"{pts:g} pts" if isinstance(pts, (int, float)) and pts else ""
    return escape_controls("  ".join(x for x in (str(sheet.get("name", "")), first) if x)), pts


def sorted_sheets(sheets: list[dict]) -> list[dict]:
    """The datasheets by name (case-insensitive), as a list a player scans."""
    return sorted(sheets, key=lambda s: (str(s.get("name", "")).casefold(), str(s.get("name", ""))))


def matches(sheets: list[dict], search: str) -> list[dict]:
    want = search.casefold().strip()
    return [s for s in sheets if not want or want in str(s.get("name", "")).casefold()]


class CatalogueMixin:
    catalogue = None  # {"path", "sheets", "search", "adding"} while a catalogue is browsed
    _catalogue_entry = None
    _catalogue_dialog = None

    def open_catalogue_dialog(self) -> None:
        from pygame_gui.windows import UIFileDialog
        if self.mode != "setup":
            self.status = "Catalogue... is in set-up mode (F2)"
            return
        from sim.sandbox.dialogs import start_folder
        start = Path(getattr(self, "catalogue_start", None) or start_folder(self, "catalogue", Path.cwd()))
        self._catalogue_dialog = UIFileDialog(pygame.Rect(160, 80, 560, 460), self.manager, "Browse a catalogue",
                                              initial_file_path=str(start), allow_picking_directories=False,
                                              allowed_suffixes=SUFFIXES)

    def catalogue_picked(self, event) -> bool:
        """A file dialog's pick: True if it was the catalogue dialog's (the catalogue is then
        read and listed in the set-up panel)."""
        dlg = self._catalogue_dialog
        if dlg is None or event.ui_element is not dlg:
            return False
        self._catalogue_dialog = None
        self.catalogue_open(event.text)
        return True

    def catalogue_open(self, path) -> bool:
        from sim.importers import list_datasheets
        path = str(path)
        name = Path(path).name
        self.catalogue_start = str(Path(path).parent)
        from sim.sandbox.dialogs import remember
        remember(self, "catalogue", path)
        try:
            sheets = list_datasheets(path)
        except ScenarioError as e:  # (ImportFileError is one)
            self.status = escape_controls(f"catalogue failed: {e}")
            return False
        except (OSError, ValueError) as e:
            self.status = escape_controls(f"catalogue failed: {name}: {e}")
            return False
        self.catalogue = {"path": path, "sheets": sorted_sheets(sheets), "search": "", "adding": None,
                          "focus": False}
        self.status = f"catalogue {name}: {counted(len(sheets), 'datasheet')}; click one to add it to an army"
        self.dirty.add("orders")
        return True

    def catalogue_close(self) -> None:
        self.catalogue = None
        self._catalogue_entry = None
        self.dirty.add("orders")

    def catalogue_search(self, event) -> bool:
        """The search box's text changed: the datasheet buttons are filtered in place (shown,
        hidden and moved up; the panel and the box itself are not rebuilt, so no key typed
        meanwhile is lost, at any typing speed)."""
        entry = self._catalogue_entry
        if self.catalogue is None or entry is None or event.ui_element is not entry:
            return False
        self.catalogue["search"] = entry.get_text()
        if not catalogue_filter(self):
            self.catalogue["focus"] = True
            self.dirty.add("orders")
        return True

    def catalogue_typing(self) -> bool:
        """True while the search box has the keyboard (the set-up hotkeys are then text)."""
        entry = self._catalogue_entry
        return entry is not None and entry.alive() and entry.is_focused

    def catalogue_choose(self, name: str) -> None:
        sheet = next((s for s in self.catalogue["sheets"] if s.get("name") == name), {})
        if sheet.get("refused"):  # (Part A ruling 28: the import would refuse it)
            self.status = escape_controls(f"{name} cannot be added: {sheet['refused']}")
            return
        self.catalogue["adding"] = name
        self.status = f"add {name}: choose the army (set-up panel)"
        self.dirty.add("orders")

    def catalogue_cancel(self) -> None:
        if self.catalogue is not None:
            self.catalogue["adding"] = None
        self.status = "add cancelled"
        self.dirty.add("orders")

    def catalogue_add(self, name: str, side: str) -> bool:
        """Add datasheet ``name``'s unit to the ``side`` army, in its zone clear of every base.
        On a refusal the table is unchanged and the status bar has the importer's one line."""
        from sim.importers import into_scenario, load_datasheet
        from sim.sandbox.save_table import spec_toml
        from sim.scenario.load import parse_scenario
        cat = self.catalogue
        cat["adding"] = None
        self.dirty.add("orders")
        path = cat["path"]
        try:
            army, report = load_datasheet(path, name)
            with tempfile.TemporaryDirectory(prefix="sandbox-catalogue-") as tmp:
                table = Path(tmp) / "table.toml"
                table.write_text(spec_toml(self.spec), encoding="utf-8")
                text = into_scenario(army, side, table, path, self.spec.name, report, add=True)
            spec = parse_scenario(tomllib.loads(text), self.scenario_path)
        except ScenarioError as e:
            if CROWDED in str(e) and self._place_by_hand(name, side):
                return False
            self.status = escape_controls(f"catalogue failed: {e}")
            return False
        except (OSError, ValueError) as e:
            self.status = escape_controls(f"catalogue failed: {Path(path).name}: {e}")
            return False
        owner = PLAYER.index(side)
        before = {u.id for u in self.spec.units}
        self.edited = True
        self.start_battle(spec, self.battle.seed, scenario_path=self._table_name(spec))
        new = [u.id for u in spec.units if u.owner == owner and u.id not in before]
        self.status = escape_controls(f"added {name} ({', '.join(new)}) to the {side} army ({spec.armies[owner].name})")
        self.dirty |= {"orders", "card", "action", "log"}
        return True


    def _place_by_hand(self, name: str, side: str) -> bool:
        """The army's zone has no room for datasheet ``name``'s unit: it is built on an empty
        table of the same size and handed to set-up's placing, so that the player clicks where
        it goes (set-up's own placement then sets it up nearest the click, clear of every base)."""
        from sim.importers import into_scenario, load_datasheet
        from sim.importers.scenario import dump, new_scenario
        from sim.scenario.load import parse_scenario
        path = self.catalogue["path"]
        owner = PLAYER.index(side)
        try:
            army, report = load_datasheet(path, name)
            with tempfile.TemporaryDirectory(prefix="sandbox-catalogue-") as tmp:
                table = Path(tmp) / "table.toml"
                doc = new_scenario(self.spec.name)
                doc["battle"]["board"] = list(self.spec.board)
                table.write_text(dump(doc), encoding="utf-8")
                text = into_scenario(army, side, table, path, self.spec.name, report, add=True)
            alone = parse_scenario(tomllib.loads(text), self.scenario_path)
        except (ScenarioError, OSError, ValueError):
            return False
        tpl = next((u for u in alone.units if u.owner == owner), None)
        if tpl is None:
            return False
        self.setup.placing = {"kind": "unit", "template": tpl, "owner": owner}
        army_name = self.spec.armies[owner].name if owner < len(self.spec.armies) else side
        self.status = escape_controls(f"the {side} zone has no room for {name}: click the table to place it "
                                      f"by hand for {army_name} (Esc stops)")
        self.dirty |= {"orders"}
        return True


CROWDED = "an army that fits in its deployment zone"  # (the importer's words when the zone is full)


def build_catalogue_button(flow, sb) -> None:
    """The set-up panel's "Catalogue..." button (beside "Import army...")."""
    flow.button("Catalogue...", sb.open_catalogue_dialog, name="catalogue:open",
                tip="browse a catalogue (.cat, .catz, .json) and add its datasheets as units")


def build_catalogue_panel(flow, sb) -> bool:
    """The set-up panel while a catalogue is browsed: the search box and the datasheets (True),
    else nothing (False)."""
    from pygame_gui.elements import UITextEntryLine
    cat = getattr(sb, "catalogue", None)
    if cat is None:
        sb._catalogue_entry = None
        return False
    flow.label(escape_controls(f"Catalogue: {Path(cat['path']).name}"), "#heading")
    flow.newline()
    flow.button("Close catalogue", sb.catalogue_close, name="catalogue:close", height=24, size=12)
    flow.newline()
    flow.space(2)
    w = flow.width - 2 * flow.PAD
    entry = UITextEntryLine(flow._rect(flow.x, flow.y, w, 30), flow.manager, container=flow.scroll,
                            placeholder_text="search by name")
    if cat["search"]:
        entry.set_text(cat["search"])
    if cat.get("focus"):
        flow.manager.set_focus_set(entry)
        cat["focus"] = False
    sb._catalogue_entry = entry
    flow.row_h = 30
    flow.newline(4)
    shown = matches(cat["sheets"], cat["search"])
    sb._catalogue_count = flow.label(f"{len(shown)} of {counted(len(cat['sheets']), 'datasheet')}", "#muted", size=12)
    adding = cat.get("adding")
    if adding is not None:
        flow.space(2)
        flow.label(escape_controls(f"Add {adding} to:"), "#subheading")
        flow.newline()
        for owner, side in enumerate(PLAYER):
            army = sb.spec.armies[owner].name if owner < len(sb.spec.armies) else side
            flow.button(f"{army} ({side})", lambda s=side: sb.catalogue_add(adding, s), name=f"catalogue:{side}",
                        tip=f"one unit (default wargear, minimum models) in the {side} deployment zone",
                        object_id="#primary")
        flow.button("Cancel", sb.catalogue_cancel, name="catalogue:cancel")
        flow.newline()
    flow.space(2)
    flow.newline()
    every = len(cat["sheets"]) <= MAX_BUILT  # (all built once: the search then only shows and hides)
    top = flow.y
    rows = []
    for sheet in (cat["sheets"] if every else shown[:MAX_SHOWN]):
        name = str(sheet.get("name", ""))
        tip = "; ".join(escape_controls(f"{m}: {statline(s)}") for m, s in (sheet.get("stats") or {}).items())
        if sheet.get("refused"):
            tip = f"refused: {sheet['refused']}" + (f"; {tip}" if tip else "")
        on = name == adding
        head, pts = sheet_parts(sheet)
        label = flow.fit(head, w - (flow.text_w("  " + pts, 12) * 1.05 if pts else 0), 12) + (f"  {pts}" if pts else "")
        b = flow.button(label, lambda n=name: sb.catalogue_choose(n),
                        name=f"catalogue:sheet:{name}", tip=tip or None, width=w, height=26, size=12,
                        object_id="#toggle_on" if on else "#toggle")
        rows.append((sheet, b))
        flow.newline()
    sb._catalogue_more = flow.label(" ", "#muted", size=12)
    flow.finish()
    sb._catalogue_rows = (flow, top, rows, every)
    catalogue_filter(sb)
    return True


MAX_BUILT = 600  # datasheets with a button built once (a bigger catalogue is rebuilt per search)


def catalogue_filter(sb) -> bool:
    """Show the datasheet buttons the search matches (at most MAX_SHOWN), one under another,
    hide the rest, and say how many: in place, without rebuilding the panel. False when the
    buttons cannot do it (a catalogue too big to build them all: the panel is rebuilt)."""
    cat = sb.catalogue
    built = getattr(sb, "_catalogue_rows", None)
    if cat is None or built is None:
        return False
    flow, top, rows, every = built
    if not every or not rows or not rows[0][1].alive():
        return False
    want = cat["search"].casefold().strip()
    k = 0
    for sheet, b in rows:
        if (not want or want in str(sheet.get("name", "")).casefold()) and k < MAX_SHOWN:
            b.set_relative_position((flow.px(flow.PAD), flow.px(top + k * 28)))
            b.show()
            k += 1
        else:
            b.hide()
    n = len(matches(cat["sheets"], cat["search"]))
    sb._catalogue_count.set_text(f"{n} of {counted(len(cat['sheets']), 'datasheet')}")
    more = sb._catalogue_more
    more.set_relative_position((flow.px(flow.PAD), flow.px(top + k * 28 + 2)))
    more.set_text(f"... {n - MAX_SHOWN} more: refine the search" if n > MAX_SHOWN else " ")
    h = flow.px(top + k * 28 + 30 + flow.PAD)
    outer = flow.outer.rect.h
    flow.scroll.set_scrollable_area_dimensions((flow.outer.rect.w - 2 - SCROLL_BAR_W + 4,
                                                h if h > outer + 8 else outer - 2))
    return True
