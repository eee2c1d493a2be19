"""The suite's hypothesis profile (tests/conftest.py): no property test is timed, so a busy
machine cannot fail one that would pass on an idle one."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings, strategies as st


def test_the_suite_profile_reads_no_clock():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


_slow_calls = []


@settings(max_examples=1)
@given(st.integers(0, 1))
def _slow_example(i):
    _slow_calls.append(i)
    time.sleep(0.3)  # (past hypothesis's deadline, 200 ms, and the quarter it allows over it)


def test_a_slow_example_with_its_own_settings_still_passes():
    _slow_example()
    assert _slow_calls
