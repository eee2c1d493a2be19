"""Commands are records (sim.commands): a command's kind and class are named in its record and
the registry, and nowhere else to dispatch on them. The battle, the replay log, validation, the
phase gate, the report, the players and the sandbox ask the record (``cmd.record``, its flags,
its check, apply and words), so adding a command is one record (README, "Adding a command").

Building a command (``Move(...)``) is using it, not dispatching on it: allowed anywhere. What is
not: a string equal to a command kind in code (docstrings aside), or an ``isinstance`` test or a
``match`` case on a command class, outside sim/commands/."""

from __future__ import annotations

import ast
from pathlib import Path

from sim import commands as C
from code_strings import code_strings
from source_trees import parsed

SIM = Path(__file__).resolve().parents[2] / "sim"
HOME = SIM / "commands"

# Strings of code outside sim/commands/ that happen to equal a command kind but name something
# else, each with what it names (a phase, a move type, an event type...). A new entry needs a
# reason as good as these.
HOMONYMS = {
    ("rules/turn.py", "fight"): "the Fight phase and the Fight step (07.02, 12.04): Phase.FIGHT, FightStep.FIGHT",
    ("rules/turn.py", "pile in"): "the Pile In step (12.02): FightStep.PILE_IN",
    ("rules/turn.py", "consolidate"): "the Consolidate step (12.07): FightStep.CONSOLIDATE",
    ("rules/turn.py", "overrun"): "the overrun fight type (12.06): FightType.OVERRUN",
    ("rules/movement/moves.py", "ingress"): "the move type of a unit set up from reserves (20.04): MoveType.INGRESS",
    ("rules/attack.py", "shoot"): "ranged attacks, what an activation makes (04): AttackKind.SHOOTING",
    ("rules/attack.py", "fight"): "melee attacks, what an activation makes (04): AttackKind.FIGHTING",
    ("rules/movement/index.py", "charge move"): "a refusal's name for the move 11.04 checks",
    ("rules/movement/legality.py", "move"): "a refusal's name for a move of no named rule",
    ("events/__init__.py", "ingress"): "the event of a unit set up from reserves: INGRESS",
}




def _names(node) -> list[str]:
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in _names(e)]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    return []


def _class_tests(path: Path):
    """Class names an ``isinstance`` call or a ``match`` case of the module tests, with lines."""
    for node in ast.walk(parsed(path)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                and len(node.args) == 2):
            for n in _names(node.args[1]):
                yield node.lineno, n
        elif isinstance(node, ast.MatchClass):
            for n in _names(node.cls):
                yield node.cls.lineno, n


def dispatch_sites(root: Path = SIM) -> list[str]:
    kinds = set(C.KINDS)
    classes = {r.cls.__name__ for r in C.RECORDS}
    found = []
    for path in sorted(root.rglob("*.py")):
        if HOME in path.parents:
            continue
        rel = path.relative_to(root).as_posix()
        for line, text in code_strings(path):
            if text in kinds and (rel, text) not in HOMONYMS:
                found.append(f"{rel}:{line}: the kind {text!r}")
        for line, name in _class_tests(path):
            if name in classes:
                found.append(f"{rel}:{line}: a test of the class {name}")
    return found


def test_no_module_outside_the_records_dispatches_on_a_command():
    assert dispatch_sites() == []


def test_the_homonyms_are_still_there():
    """(Each allowed homonym still stands where it is said to: a stale entry would hide a
    real dispatch later.)"""
    for rel, text in HOMONYMS:
        assert any(t == text for _l, t in code_strings(SIM / rel)), (rel, text)


def test_the_check_would_see_a_dispatch(tmp_path):
    """(The check can fail: a kind string and an isinstance test are found, a docstring citing a
    kind and a command built are not.)"""
    pkg = tmp_path / "sim"
    pkg.mkdir()
    (pkg / "m.py").write_text('"""A "pile in" cited."""\n'
                              'from sim.commands import PileIn\n'
                              'def f(c):\n'
                              '    if c.kind == "pile in":\n'
                              '        return PileIn("u", ())\n'
                              '    return isinstance(c, PileIn)\n')
    assert dispatch_sites(pkg) == ["m.py:4: the kind 'pile in'", "m.py:6: a test of the class PileIn"]


def test_every_record_is_complete():
    """Each record: a unique kind, a dataclass whose fields its JSON fields cover (every field a
    command has is written and read), a section, a summary, a check and an apply."""
    assert len(set(C.KINDS)) == len(C.RECORDS)
    for r in C.RECORDS:
        assert r.cls.record is r and r.cls.kind == r.kind
        assert sorted(f.name for f in r.fields) == sorted(r.cls.__dataclass_fields__), r.kind
        assert r.section and r.summary and callable(r.check) and callable(r.apply), r.kind
