"""Fixtures of the odds tests."""

from __future__ import annotations

import pytest

from sim.odds import engine as E


@pytest.fixture
def fresh_odds_caches():
    """The odds engine's kept answers (solve's, summary's) cleared before and after a test: an
    answer is then worked out by the test, not read from another's."""
    E.solve.cache_clear()
    E._summary.cache_clear()
    yield
    E.solve.cache_clear()
    E._summary.cache_clear()
