"""File dialogs that remember where the player was, and a keyboard that belongs to the widget
that has it (issue 28 item 7).

Each kind of dialog (a replay, a roster, a catalogue) opens in the folder its last file was
picked from, or the folder it was last closed in; a kind never used yet opens where any other
last was, else its own default. The dialogs list only their kind's files (their suffixes).
While a text field or a file dialog has the keyboard, no key reaches the sandbox's
shortcuts (typing "d" in a file name does not duplicate a unit)."""

from __future__ import annotations

from pathlib import Path

from pygame_gui.elements import UITextEntryBox, UITextEntryLine

DIALOGS = ("_file_dialog", "_import_dialog", "_catalogue_dialog")


def start_folder(sb, kind: str, default) -> str:
    """Where a ``kind`` dialog opens: its last folder, else the last of any kind, else ``default``."""
    seen = getattr(sb, "_folders", {})
    for f in (seen.get(kind), seen.get("*"), default):
        if f and Path(f).exists():
            return str(f)
    return str(Path.cwd())


def remember(sb, kind: str, path) -> None:
    """A file picked (or a dialog closed) in ``path``'s folder: ``kind`` dialogs open there next."""
    if not path:
        return
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    seen = sb.__dict__.setdefault("_folders", {})
    seen[kind] = seen["*"] = str(folder)


def closed(sb, element) -> None:
    """A dialog window closed (cancelled or picked): its folder is remembered for its kind."""
    for attr, kind in (("_file_dialog", "replay"), ("_import_dialog", "import"), ("_catalogue_dialog", "catalogue")):
        if getattr(sb, attr, None) is element:
            remember(sb, kind, getattr(element, "current_directory_path", None))


def keyboard_taken(sb) -> bool:
    """True while a text field or a file dialog has the keyboard (the confirmation and the
    computer's dialogs take their own keys: confirm.py, computer.py)."""
    for attr in DIALOGS:
        dlg = getattr(sb, attr, None)
        if dlg is not None and dlg.alive():
            return True
    try:
        focus = sb.manager.get_focus_set() or ()
    except AttributeError:
        focus = ()
    return any(isinstance(e, (UITextEntryLine, UITextEntryBox)) and e.alive() for e in focus)
