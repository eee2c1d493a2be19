"""07 The battle's vocabulary (sim.rules.turn): the players' names and default colours are spelled
once; every other module reads them from there (a name written anywhere else could drift from
what scenario files, scripts, logs and reports use)."""

from __future__ import annotations

import ast
from pathlib import Path

from sim.rules.turn import PLAYER, PLAYER_COLOURS, FightStep, Phase
from source_trees import parsed

SIM = Path(__file__).resolve().parents[2] / "sim"
HOME = SIM / "rules" / "turn.py"


def _spellings(path: Path) -> list[tuple[int, str]]:
    """The string constants in ``path`` that are a player's name (any case) or a player colour."""
    names = {p.lower() for p in PLAYER}
    out = []
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names:
            out.append((node.lineno, node.value))
        if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
            if tuple(e.value for e in node.elts) in PLAYER_COLOURS:
                out.append((node.lineno, repr(tuple(e.value for e in node.elts))))
    return out


def test_07_the_players_are_red_then_blue_with_their_default_colours():
    assert PLAYER == ("red", "blue") and len(PLAYER_COLOURS) == 2
    assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in PLAYER_COLOURS)
    assert [str(p) for p in Phase] == ["command", "movement", "shooting", "charge", "fight", "end of turn"]
    assert [str(s) for s in FightStep] == ["pile in", "fight", "consolidate"]


def test_07_no_other_module_spells_a_players_name_or_colour():
    found = {str(p.relative_to(SIM.parent)): hits for p in sorted(SIM.rglob("*.py"))
             if p != HOME and (hits := _spellings(p))}
    assert found == {}
    assert _spellings(HOME)  # (the check reads what it should)
