"""No "(s)" plural hack in text a person reads (issue 28: "model(s)", "unit(s)", "datasheet(s)"
in the sandbox, the import report and the CLI's lines): counts use sim.names.counted. The
engine's own texts that a log keeps unchanged (a replay reads them) are read through
sim.names.in_words, which shows them in words (plural_words)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sim.names import in_words, plural_words

SIM = Path(__file__).resolve().parents[1] / "sim"
HACK = re.compile(r"[A-Za-z]\((?:e?s)\)")
# (engine text kept in the battle log as it is; shown through in_words)
ENGINE = {"rules/effects/oaths.py", "rules/allocation.py"}


def _hacks(path: Path) -> list[str]:
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # (docstrings, bare strings)
    for node in ast.walk(tree):
        if id(node) not in docs and isinstance(node, ast.Constant) and isinstance(node.value, str) and HACK.search(node.value):
            out.append(f"{path.relative_to(SIM)}:{node.lineno}: {node.value.strip()[:70]!r}")
    return out


def test_no_text_a_person_reads_counts_with_a_plural_hack():
    bad = []
    for path in sorted(SIM.rglob("*.py")):
        if str(path.relative_to(SIM)) not in ENGINE:
            bad += _hacks(path)
    assert bad == []


def test_the_engine_texts_are_shown_in_words():
    assert plural_words("1 enemy unit(s) destroyed this battle round") == "1 enemy unit destroyed this battle round"
    assert plural_words("0 objective marker(s) controlled against 0") == "0 objective markers controlled against 0"
    assert plural_words("A (3 model(s), W1 Sv4+)") == "A (3 models, W1 Sv4+)"
    assert in_words("r-mob: 1 model(s)", {"r-mob": "Raider Mob"}) == "Raider Mob: 1 model"
    assert in_words("2 process(es)", {}) == "2 processes"
