"""Headless runs set the heap alive at the start of a battle aside from the cyclic collector
and switch the collector off while it runs (sim.players.runner.frozen_heap), and always hand both
back; playing a battle makes no reference cycles, so nothing waits for the collector meanwhile
(and Battle.close() breaks the few an open battle has: tests/players/test_no_leaks.py)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.errors import ScriptError
from sim.players.runner import frozen_heap, play
from sim.scenario.load import load_scenario
from young_garbage import young_garbage

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


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


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_battle_makes_no_reference_cycles(path):
    """Every scenario played to the end (shooting, fighting, moves, decisions, casualties,
    hazard rolls) with the collector off leaves no cyclic garbage behind: what frozen_heap
    relies on to switch the collector off. The scenario is played once first, so what a first
    run does once per process (lazy imports: numpy.ma, which np.unique imports on its first
    call, leaves cycles of inspect's) is not counted against a battle."""
    sc = load_scenario(path)
    with Battle(sc) as warm:
        try:
            play(warm, sc)
        except ScriptError:
            pass
    open_battle = []

    def run():  # (the battle made and played after the heap before it is set aside)
        b = Battle(sc)
        open_battle.append(b)
        try:
            play(b, sc)
        except ScriptError:
            pass  # (a scripted command the dice made illegal: the battle stops there)

    found, kinds = young_garbage(run)  # (collected while the battle is still open)
    open_battle[0].close()
    assert found == 0, f"cyclic garbage: {kinds}"
