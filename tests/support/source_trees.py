"""The parsed source of a module, parsed once per test process: the tests that read the
package's shape from its code (import graph, one home per name, no player spelled out) each walk
every module, and parsing them all costs seconds. Keyed by the file's path and bytes, so a file a
test writes anew is parsed anew. The trees are shared: read them, never change them."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def parsed_source(path: str, source: bytes) -> ast.Module:
    """``source`` (the bytes of the file at ``path``), parsed (shared: do not change it)."""
    return ast.parse(source, path)


def parsed(path: Path) -> ast.Module:
    """The module at ``path``, parsed (shared: do not change it)."""
    return parsed_source(str(path), path.read_bytes())
