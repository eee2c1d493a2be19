"""Headless runs: play a scenario's script to the end, answering decisions from the script or
with the default policies, optionally recording a replay log."""

from __future__ import annotations

import gc
from contextlib import contextmanager

from sim.battle import Battle
from sim.blas import one_thread
from sim.players.resolve import run_step


@contextmanager
def frozen_heap():
    """For a headless run, once its battle is built: everything alive now (the interpreter's
    modules, the scenario, the battle's world) is set aside from Python's cyclic garbage
    collector (gc.freeze), and the collector itself is off, until the block ends; then both
    are handed back (gc.unfreeze, and the collector on again if it was on).

    None of what was set aside becomes garbage while the battle runs, yet every full
    collection would scan it all again (on the benchmark battle each took ~30 ms, and they
    came every few hundred activations); and the events a battle keeps for its report and log
    only ever grow, so each young collection scanned them once more (~3% of an activation).
    Nothing is lost by switching it off: objects are still freed by reference counting as
    before. A battle does point back at itself while it is open (its systems, visibility,
    resources, listeners and the dice's listener), but playing it makes no other cycles
    (tests/players/test_frozen_heap.py plays every scenario with the collector off and finds
    no cyclic garbage), and Battle.close() breaks those it has, so a closed battle is freed by
    reference counting alone (tests/players/test_no_leaks.py). Cyclic garbage made anyway
    would be frozen with the rest at the next run and never collected: a leak.

    numpy's OpenBLAS is on one thread for the block too (sim.blas.one_thread: its second thread
    spins on the other core after each of the few products a battle makes)."""
    was_on = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        with one_thread():
            yield
    finally:
        # (what the run made and still holds, the battle's events, set aside with the rest,
        # then all of it handed back to the oldest generation: not scanned once more by the
        # first young collection after the run, as it would be left young)
        gc.freeze()
        gc.unfreeze()
        if was_on:
            gc.enable()


def play(battle: Battle, scenario, recorder=None) -> None:
    """Run every script step: submit each of its commands, tick until idle, answering
    decisions. A scenario with a mission is played by its players instead (sim.players)."""
    if battle.turn_state is not None:
        from sim.players import play_battle
        play_battle(battle, scenario, recorder)
        return
    for step in scenario.script:
        run_step(battle, scenario, step, recorder)
