"""Every test: the shared helpers of tests/support (scen, phased, hostile_driver) import by
their bare names from any folder, and every Battle must be closed, so no esper world (and no
entity) leaks between tests (issue 2: 'tests never leak entities').

tests/ mirrors sim/: a test lives in the folder of the package whose code it is about. A helper
only one folder uses stays beside its tests (that folder is on sys.path when its tests run); a
helper several folders use lives in tests/support."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import esper
import pytest
from hypothesis import HealthCheck, settings

SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

# A shell without job control (a script, `sh -c`) starts a background job (`make test &`) with
# SIGINT ignored, and an ignored signal stays ignored across exec: the programs the tests start
# could then not be interrupted, and the tests of Ctrl-C (tests/analysis/test_stats_signals.py,
# test_ladder.py) would wait out their timeouts and fail. The tests' processes take Python's
# own handler back, so that what they start sees SIGINT as a terminal's user would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# No test is timed: hypothesis's deadline (200 ms an example) and its too-slow health check read
# the clock, and on a busy machine (CI's two cores, shared by both workers and the processes the
# tests start) a property test failed that way (an example of 15.02's re-roll faces took 296 ms
# under load, 0.02 ms on its rerun). The suite's profile turns both off for every test; the
# number of examples stays each test's own (or hypothesis's default). A test's own
# suppress_health_check replaces the profile's list: keep too_slow in it.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def no_leaked_worlds():
    """Every battle a test opens is closed by its end (the pristine battles sim.world.templates
    keeps to copy are not leaks: it lets them go itself)."""
    from sim.world import templates
    before = set(esper.list_worlds())
    yield
    leaked = set(esper.list_worlds()) - before - {"default"} - templates.kept_worlds()
    assert not leaked, f"battle worlds left open: {sorted(leaked)}"
