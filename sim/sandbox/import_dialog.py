"""Set-up mode's "Import army..." (issue 17): a roster (.ros, .rosz, New Recruit .json) picked
in a file dialog becomes the red or blue army of the table.

The importer does it all (sim.importers): ``load_roster`` reads the file, ``into_scenario``
puts its units in that army of the current table (written out as a scenario first: its other
army, terrain and mission kept), each unit a compact block, units side by side across the
army's deployment zone, nothing overlapping; the text is parsed back by the scenario loader,
and a fresh battle starts from it, as every set-up edit does. The import report (inert labels,
base sizes, notes) is shown in the set-up panel and the log. A file the importer refuses leaves the table
as it was and puts its one-line error in the status bar. A mixin of :class:`Sandbox`."""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path

import pygame

from sim.errors import ScenarioError, escape_controls
from sim.rules.turn import PLAYER
from sim.sandbox.catalogue_browser import build_catalogue_button
from sim.names import counted

SUFFIXES = {".ros", ".rosz", ".json"}
REPORT_LINES = 60  # at most this many report lines in the panel (the rest counted)


class ImportMixin:
    def open_import_dialog(self) -> None:
        from pygame_gui.windows import UIFileDialog
        if self.mode != "setup":
            self.status = "Import army... is in set-up mode (F2)"
            return
        from sim.sandbox.dialogs import start_folder
        start = Path(getattr(self, "import_start", None) or start_folder(self, "import", Path.cwd()))  # (a folder, or a file)
        self._import_dialog = UIFileDialog(pygame.Rect(160, 80, 560, 460), self.manager, "Import an army roster",
                                           initial_file_path=str(start), allow_picking_directories=False,
                                           allowed_suffixes=SUFFIXES)

    def import_picked(self, event) -> bool:
        """A file dialog's pick: True if it was the import dialog's (the file is then kept and
        the set-up panel asks which army it becomes)."""
        dlg = getattr(self, "_import_dialog", None)
        if dlg is None or event.ui_element is not dlg:
            return False
        self._import_dialog = None
        self.import_choose(event.text)
        return True

    def import_choose(self, path) -> None:
        self.importing = str(path)
        self.import_start = str(Path(path).parent)
        from sim.sandbox.dialogs import remember
        remember(self, "import", path)
        self.status = f"import {Path(path).name}: choose the army it becomes (set-up panel)"
        self.dirty.add("orders")

    def import_cancel(self) -> None:
        self.importing = None
        self.status = "import cancelled"
        self.dirty.add("orders")

    def import_army(self, path, side: str) -> bool:
        """Make the roster at ``path`` the ``side`` ("red" or "blue") army of the table. On a
        refusal the table is unchanged and the status bar has the importer's one line."""
        from sim.importers import into_scenario, load_roster
        from sim.sandbox.save_table import spec_toml
        from sim.scenario.load import parse_scenario
        self.importing = None
        self.dirty.add("orders")
        path = str(path)
        name = Path(path).name
        try:
            army, report = load_roster(path)
            with tempfile.TemporaryDirectory(prefix="sandbox-import-") as tmp:
                table = Path(tmp) / "table.toml"
                table.write_text(spec_toml(self.spec), encoding="utf-8")
                text = into_scenario(army, side, table, path, self.spec.name, report)
            spec = parse_scenario(tomllib.loads(text), self.scenario_path)
        except ScenarioError as e:  # (ImportFileError is one)
            if self._catalogue_instead(path):
                return False
            self.status = escape_controls(f"import failed: {e}")
            return False
        except (OSError, ValueError) as e:
            self.status = escape_controls(f"import failed: {name}: {e}")
            return False
        owner = PLAYER.index(side)
        self.edited = True
        self.start_battle(spec, self.battle.seed, scenario_path=self._table_name(spec))
        n = sum(1 for u in spec.units if u.owner == owner)
        self.import_report = [escape_controls(x) for x in report.text().splitlines()]
        self._log_items += [(x, "#import") for x in self.import_report]  # (and in the log)
        self.status = f"imported {name}: {counted(n, 'unit')} as the {side} army ({spec.armies[owner].name}); the report is in the log and the set-up panel"
        self.dirty |= {"orders", "card", "action", "log"}
        return True


    def _catalogue_instead(self, path: str) -> bool:
        """A catalogue given to Import army...: it is opened in Catalogue... (its datasheets are
        added one at a time) instead of failing with the roster reader's words."""
        from sim.importers import list_datasheets
        try:
            list_datasheets(path)
        except (ScenarioError, OSError, ValueError):
            return False
        if not self.catalogue_open(path):
            return False
        self.status = escape_controls(f"{Path(path).name} is a catalogue, not a roster: it is open in "
                                      f"Catalogue... - click a datasheet to add it to an army")
        return True


def build_import_section(flow, sb) -> None:
    """The set-up panel's import block: the button, the army question, the last report."""
    flow.space(4)
    flow.label("Import", "#subheading")
    flow.newline()
    path = getattr(sb, "importing", None)
    if path is None:
        flow.button("Import army...", sb.open_import_dialog, name="import:open",
                    tip="a roster (.ros, .rosz, New Recruit .json) as the red or blue army")
        build_catalogue_button(flow, sb)  # Catalogue... (catalogue_browser.py)
        flow.newline()
    else:
        flow.label(f"{Path(path).name} becomes:", size=12)
        flow.newline()
        for owner, side in enumerate(PLAYER):
            army = sb.spec.armies[owner].name if owner < len(sb.spec.armies) else side
            flow.button(f"{army} ({side})", lambda s=side: sb.import_army(path, s), name=f"import:{side}",
                        tip=f"its units replace the {side} army's, in its deployment zone", object_id="#primary")
        flow.button("Cancel", sb.import_cancel, name="import:cancel")
        flow.newline()
    report = getattr(sb, "import_report", None)
    if report:
        flow.label("Last import report", "#subheading")
        for line in report[:REPORT_LINES]:
            flow.para(line.strip(), None if line.startswith("  ") and not line.startswith("    ") else "#muted")
        if len(report) > REPORT_LINES:
            flow.para(f"... {counted(len(report) - REPORT_LINES, 'more line')}", "#muted")
