"""The string constants of a module's code, for the tests that check a name has one home
(an ability's name only in its registry record, a command kind only in its record's files)."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from source_trees import parsed_source


def code_strings(path: Path):
    """The string constants of a module's code (docstrings left out: they cite rules for the
    reader), with their line numbers."""
    return iter(_code_strings(str(path), path.read_bytes()))


@lru_cache(maxsize=None)
def _code_strings(name: str, source: bytes) -> tuple[tuple[int, str], ...]:
    tree = parsed_source(name, source)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return tuple((node.lineno, node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs)
