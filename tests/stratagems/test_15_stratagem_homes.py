"""Stratagems are records (sim.stratagems.registry): outside the module of its record, no code
dispatches on a stratagem's name (a string equal to it: a comparison, a key) or labels words
with it by hand (a string starting "<name>:"), the criterion of ../shared/tools/command_homes.py.
The sandbox asks the module (command_reroll.is_offer; its NAME and COST in the words it shows),
the players and the registry ask the record. Prose that cites a stratagem (a docstring, an
event field's description, an error message explaining what a field accepts) is not dispatch."""

from __future__ import annotations

import sys
from pathlib import Path

from code_strings import code_strings
from sim.stratagems import REGISTRY

SIM = Path(__file__).resolve().parents[2] / "sim"


def _home(record) -> Path:
    """The module that holds the stratagem's record."""
    return Path(sys.modules[record.offer.__module__].__file__).resolve()


def naming_sites(root: Path = SIM, records=REGISTRY) -> list[str]:
    """Each code string (docstrings left out) equal to a stratagem's name or starting with it and
    a colon, outside the module of its record: ``file:line: the name``."""
    homes = {r.name: _home(r) for r in records}
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for line, text in code_strings(path):
            for name, home in homes.items():
                if (text == name or text.startswith(name + ":")) and path.resolve() != home:
                    found.append(f"{rel}:{line}: {name!r}")
    return found


def test_15_each_stratagem_is_named_in_its_own_module_only():
    assert naming_sites() == []


def test_15_the_check_would_see_a_name_written_elsewhere(tmp_path):
    """(The check can fail: a name in a comparison and an f-string's words labelled with one are
    found, one cited in a docstring, a comment or a sentence is not.)"""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "panel.py").write_text('"""Shows a Command Re-roll\'s dice."""\n'
                                  'def f(ctx, who):\n'
                                  '    # (a Fire Overwatch shot)\n'
                                  '    if ctx.get("stratagem") == "Command Re-roll":\n'
                                  '        return f"Fire Overwatch: by {who}"\n'
                                  '    return "a shot (Fire Overwatch, 15.08)"\n')
    assert naming_sites(pkg) == ["panel.py:4: 'Command Re-roll'", "panel.py:5: 'Fire Overwatch'"]


def test_15_every_record_has_a_home_module():
    """(The homes the check compares with are the records' own modules under sim/stratagems/.)"""
    for r in REGISTRY:
        home = _home(r)
        assert home.parent == (SIM / "stratagems").resolve() and home.name != "base.py", (r.name, home)
