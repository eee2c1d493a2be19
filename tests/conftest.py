"""System tests: every Battle must be closed, so no esper world (and no entity) leaks between
tests (issue 2: 'tests never leak entities')."""

from __future__ import annotations

import esper
import pytest


@pytest.fixture(autouse=True)
def no_leaked_worlds():
    before = set(esper.list_worlds())
    yield
    leaked = set(esper.list_worlds()) - before - {"default"}
    assert not leaked, f"battle worlds left open: {sorted(leaked)}"
