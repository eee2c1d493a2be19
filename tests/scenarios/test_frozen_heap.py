"""Headless runs set the heap alive at the start of a battle aside from the cyclic collector
while it runs (sim.runner.frozen_heap), and always hand it back."""

from __future__ import annotations

import gc

import pytest

from sim.runner import frozen_heap


def test_frozen_while_the_block_runs_and_handed_back_after():
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_handed_back_when_the_run_fails():
    with pytest.raises(RuntimeError):
        with frozen_heap():
            raise RuntimeError("a failing run")
    assert gc.get_freeze_count() == 0

