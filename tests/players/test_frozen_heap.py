"""Headless runs set the heap alive at the start of a battle aside from the cyclic collector
and switch the collector off while it runs (sim.players.runner.frozen_heap), and always hand both
back; playing a battle makes no reference cycles, so nothing waits for the collector meanwhile
(and Battle.close() breaks the few an open battle has). That every scenario's battle makes no
cycles while it is played, and is freed by reference counting once closed, is tested on one
played battle each in tests/players/test_no_leaks.py. numpy's OpenBLAS is on one thread in the
block (sim.blas.one_thread), its count handed back after, a failing run's too."""

from __future__ import annotations

import contextlib
import gc

import pytest

from sim import blas
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


def test_openblas_on_one_thread_in_the_block_and_its_count_handed_back():
    fns = blas._openblas()
    if fns is None:
        pytest.skip("no bundled OpenBLAS found in this numpy")
    get, put = fns
    before = get()
    put(2)
    try:
        for fails in (False, True):
            with pytest.raises(RuntimeError) if fails else contextlib.nullcontext():
                with frozen_heap():
                    assert get() == 1
                    if fails:
                        raise RuntimeError("a failing run")
            assert get() == 2
    finally:
        put(before)
