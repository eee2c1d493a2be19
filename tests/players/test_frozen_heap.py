"""Headless runs set the heap alive at the start of a battle aside from the cyclic collector
and switch the collector off while it runs (sim.players.runner.frozen_heap), and always hand both
back; playing a battle makes no reference cycles, so nothing waits for the collector meanwhile
(and Battle.close() breaks the few an open battle has). That every scenario's battle makes no
cycles while it is played, and is freed by reference counting once closed, is tested on one
played battle each in tests/players/test_no_leaks.py."""

from __future__ import annotations

import gc

import pytest

from sim.players.runner import frozen_heap


def test_frozen_and_off_while_the_block_runs_and_handed_back_after():
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with frozen_heap():
        assert gc.get_freeze_count() > 0
        assert not gc.isenabled()
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_handed_back_when_the_run_fails():
    with pytest.raises(RuntimeError):
        with frozen_heap():
            raise RuntimeError("a failing run")
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        with frozen_heap():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_the_run_made_and_still_holds_is_handed_back_old():
    """What the block made and still holds (a battle's events) goes to the oldest generation
    with the rest: the first young collection after it does not scan it all once more."""
    with frozen_heap():
        kept = [[i] for i in range(1000)]
    young = {id(o) for o in gc.get_objects(generation=0)}
    old = {id(o) for o in gc.get_objects(generation=2)}
    assert not any(id(x) in young for x in kept) and all(id(x) in old for x in kept)
