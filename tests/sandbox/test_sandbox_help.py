"""The F1 help lists every key the sandbox answers (issue 28): each ``pygame.K_*`` a sandbox
module handles is named in the help overlay's table (sim.sandbox.overlays.HELP), and the
orders panel's note on moving says what the moves do now (the move type is the unit's own,
reset after its move; Shift places one model at a time; R or the wheel turns a formation)."""

from __future__ import annotations

import re
from pathlib import Path

from sim.sandbox.overlays import HELP

SANDBOX = Path(__file__).resolve().parents[2] / "sim" / "sandbox"

# how the help writes a key pygame calls K_<name>
SHOWN = {"ESCAPE": "Esc", "RETURN": "Enter", "KP_ENTER": "Enter", "SPACE": "Space", "TAB": "Tab",
         "HOME": "Home", "LEFT": "Left", "RIGHT": "Right", "LEFTBRACKET": "[", "RIGHTBRACKET": "]",
         "PERIOD": ".", "PLUS": "+", "EQUALS": "+", "KP_PLUS": "+", "MINUS": "-", "KP_MINUS": "-",
         "DELETE": "Del", "BACKSPACE": "Backspace"}


def _help_words() -> set[str]:
    words = set()
    for key, what in HELP:
        for tok in re.split(r"[\s/,;:()]+", f"{key} {what}"):
            if tok:
                words.add(tok)
                if tok.startswith(("Ctrl+", "Shift+")):  # (a combination names its key)
                    words.add(tok.split("+", 1)[1])
    return words


def test_every_key_the_sandbox_handles_is_in_the_help():
    words = _help_words()
    missing = {}
    for path in sorted(SANDBOX.glob("*.py")):
        for name in re.findall(r"pygame\.K_([A-Za-z0-9_]+)", path.read_text()):
            shown = SHOWN.get(name, name.upper())
            if shown not in words:
                missing.setdefault(shown, path.name)
    assert not missing, f"keys handled but not in the F1 help: {missing}"


def test_the_help_names_turning_a_dragged_formation_and_skipping_empty_phases():
    rows = [(k, v) for k, v in HELP if v]
    assert any("R" in k.split() and "wheel" in k and "turn" in v for k, v in rows), rows
    assert any(k.strip() == "K" and "empty phases" in v for k, v in rows), rows


def test_the_move_note_says_the_type_is_per_unit_and_reset_after_each_move(make):
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    from test_sandbox_moves import mission
    d = mission(make, seed=5)
    d.click_model("squad/1")
    d.pump(2)
    shown = " ".join(e.text for e in d.sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
    assert "reset after" in shown.lower() and "Move type of Warden Squad" in shown, shown  # (the unit's own)
    assert "Shift" in shown and "Enter" in shown, shown
