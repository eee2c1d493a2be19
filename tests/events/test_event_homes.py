"""Event types are declared in one home (sim/events/): every other module of sim/ reads an event's
type through the declared names (``ev.POOL``, a table keyed by them, a ``match`` on them), never
by a string written out, and never parses a dice event's purpose (words for people) to learn
what a roll was for. README, "Events".

What counts as reading an event's type: ``x["type"]``, ``x.get("type")``, and a name given one
of those in the same function. What is flagged: comparing such a read with a string (or a
tuple, list or set of strings, written out or named), looking it up in a dict whose keys are
strings written out, a ``match`` on it with a string case, calling a method on it with a string
(``startswith``); and any ``x["purpose"]`` or ``x.get("purpose")``."""

from __future__ import annotations

import ast
from pathlib import Path

from source_trees import parsed

SIM = Path(__file__).resolve().parents[2] / "sim"
HOME = SIM / "events"

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _str(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _key_read(node, key: str) -> bool:
    """``x[key]`` or ``x.get(key, ...)``."""
    if isinstance(node, ast.Subscript):
        return _str(node.slice) and node.slice.value == key
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and _str(node.args[0]) and node.args[0].value == key)


def _strings_display(node) -> bool:
    """A tuple, list, set or dict written out with a string among its items (a dict: its keys),
    or frozenset/set/tuple/dict of one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_str(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(k is not None and _str(k) for k in node.keys)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("frozenset", "set", "tuple", "dict") and node.args):
        return _strings_display(node.args[0])
    return False


def _own(scope):
    """The nodes of a scope's body, not descending into the scopes nested in it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))


def _bindings(scope) -> tuple[set[str], set[str]]:
    """The names a scope gives an event's type, and those it gives a display of strings."""
    typed, strings = set(), set()
    for node in _own(scope):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if node.value is not None and _key_read(node.value, "type"):
                typed.update(names)
            elif node.value is not None and _strings_display(node.value):
                strings.update(names)
    return typed, strings


def reading_sites(path: Path, rel: str) -> list[str]:
    """Where a module reads an event's type against a string, or a dice event's purpose."""
    tree = parsed(path)
    _typed, module_strings = _bindings(tree)
    found = []

    def visit(scope, outer_typed: set[str]):
        typed, strings = _bindings(scope)
        typed |= outer_typed if not isinstance(scope, ast.ClassDef) else set()
        strings |= module_strings

        def is_type(node) -> bool:
            return _key_read(node, "type") or (isinstance(node, ast.Name) and node.id in typed)

        def is_strings(node) -> bool:
            return _str(node) or _strings_display(node) or (isinstance(node, ast.Name) and node.id in strings)

        for node in _own(scope):
            line = getattr(node, "lineno", 0)
            if isinstance(node, _SCOPES):
                visit(node, typed)
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(is_type(s) for s in sides) and any(is_strings(s) for s in sides if not is_type(s)):
                    found.append(f"{rel}:{line}: an event type compared with a string")
            elif isinstance(node, ast.Subscript) and is_type(node.slice) and is_strings(node.value):
                found.append(f"{rel}:{line}: an event type looked up in a table keyed by strings")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "get" and node.args and is_type(node.args[0]) and is_strings(node.func.value):
                    found.append(f"{rel}:{line}: an event type looked up in a table keyed by strings")
                elif is_type(node.func.value) and any(_str(a) for a in node.args):
                    found.append(f"{rel}:{line}: an event type's text read ({node.func.attr})")
            elif isinstance(node, ast.Match) and is_type(node.subject):
                if any(isinstance(p, ast.MatchValue) and _str(p.value)
                       for c in node.cases for p in ast.walk(c.pattern)):
                    found.append(f"{rel}:{line}: a match on an event type with a string case")
            if _key_read(node, "purpose"):
                found.append(f"{rel}:{line}: a dice event's purpose read")

    visit(tree, set())
    return sorted(set(found), key=lambda s: (s.split(":")[0], int(s.split(":")[1]), s))


def type_reading_sites(root: Path = SIM, home: Path = HOME) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if home == path.parent or home in path.parents:
            continue
        found += reading_sites(path, path.relative_to(root).as_posix())
    return found


def test_no_module_outside_the_events_home_reads_a_type_or_purpose_by_its_text():
    assert type_reading_sites() == []


def test_the_check_would_see_a_string_read(tmp_path):
    """(The check can fail: each way of reading a type by its text is found, in a module and in
    a function; reading through the declared names, and strings that are not types, are not.)"""
    pkg = tmp_path / "sim"
    (pkg / "events").mkdir(parents=True)
    (pkg / "events" / "__init__.py").write_text('POOL = "pool"\nif {}.get("type") == "pool":\n    pass\n')
    (pkg / "m.py").write_text(
        '"""e["type"] == "pool" in a docstring is words."""\n'
        'from sim import events as ev\n'
        'QUIET = ("dice", "command")\n'
        'LINES = {"pool": len}\n'
        'def f(e, events):\n'
        '    if e["type"] == "pool":\n'                                     # 6
        '        return 1\n'
        '    t = e.get("type")\n'
        '    if t in ("dice", ev.COMMAND) or t in QUIET:\n'                 # 9
        '        return LINES[t], LINES.get(e["type"])\n'                   # 10
        '    match e["type"]:\n'                                            # 11
        '        case ev.POOL | "dice":\n'
        '            pass\n'
        '    if e["purpose"].startswith("charge roll") or t.endswith("rolls"):\n'  # 14
        '        return 2\n'
        '    if e["type"] == ev.POOL or t in {ev.DICE} or e["kind"] == "shoot":\n'
        '        return 3\n'
        '    return [x for x in events if (lambda y: y["type"] != "dice")(x)]\n'  # 18
        'def g(e, t="pool"):\n'
        '    return t == "pool" and e["result"] == "made"\n')
    assert type_reading_sites(pkg, pkg / "events") == [
        "m.py:6: an event type compared with a string",
        "m.py:9: an event type compared with a string",
        "m.py:10: an event type looked up in a table keyed by strings",
        "m.py:11: a match on an event type with a string case",
        "m.py:14: a dice event's purpose read",
        "m.py:14: an event type's text read (endswith)",
        "m.py:18: an event type compared with a string",
    ]
