"""A finished battle is freed by reference counting alone: Battle.close() lets go of everything
that points back at it (systems, visibility, resources, listeners, the world), and no system
keeps bound methods of itself. So `sim stats`, which plays one battle after another with the
cyclic collector off and freezes the heap at each run (sim.players.runner.frozen_heap), does not grow
with the number of runs."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.errors import ScriptError
from sim.replay.log import Recorder
from sim.players.runner import play
from sim.scenario.load import load_scenario
from sim.analysis.stats import run_seed
from young_garbage import young_garbage

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def _live_battles() -> int:
    """Battles alive, besides the pristine ones sim.world.templates keeps to copy."""
    from sim.world import templates
    kept = templates.kept_worlds()
    return sum(1 for o in gc.get_objects() if isinstance(o, Battle) and getattr(o, "world", None) not in kept)


def test_many_runs_leave_no_battle_and_no_growth():
    """200 runs the way `sim stats` plays them, with the collector off throughout: no Battle
    is left alive, and the heap after 200 runs holds no more tracked objects than after 50."""
    spec = load_scenario(ROOT / "scenarios/anti_vehicle.toml")
    run_seed(spec, 0)  # (caches and imports warmed up)
    gc.collect()
    was_on = gc.isenabled()
    gc.disable()
    try:
        for seed in range(1, 51):
            run_seed(spec, seed)
        after_50 = len(gc.get_objects())
        battles_50 = _live_battles()
        for seed in range(51, 201):
            run_seed(spec, seed)
        after_200 = len(gc.get_objects())
        battles_200 = _live_battles()
        found = gc.collect()
    finally:
        if was_on:
            gc.enable()
    assert battles_50 == battles_200 == 0
    assert after_200 - after_50 < 200, (after_50, after_200)  # (was ~330 objects a run)
    assert found == 0


def _play(sc, path, measured: list | None = None) -> list:
    """Play ``sc`` to the end with a replay recorder listening, as `sim run --log` does; with
    ``measured``, the cyclic garbage found while the battle is still open (count, kinds) is put
    in it; close and drop the battle; weak references to it, its visibility and its systems."""
    with Battle(sc) as b:
        rec = Recorder(b, str(path))
        try:
            play(b, sc, rec)
        except ScriptError:
            pass  # (a scripted command the dice made illegal: the battle stops there)
        if measured is not None:
            measured.append((gc.collect(), sorted({type(o).__name__ for o in gc.garbage})))
            gc.garbage.clear()
        gone = [weakref.ref(b), weakref.ref(b.visibility)]
        gone += [weakref.ref(proc.__self__) for proc in b.systems]
    return gone


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_battle_makes_no_cycles_and_a_closed_one_is_freed_by_reference_counting(path):
    """Every scenario played to the end with dice recorded and a replay recorder listening, as
    `sim run --log` does, with the collector off (as frozen_heap has it):
    - while the battle is still open, playing it has made no cyclic garbage (shooting, fighting,
      moves, decisions, casualties, hazard rolls): what frozen_heap relies on to switch the
      collector off (tests/players/test_frozen_heap.py tests frozen_heap itself);
    - once closed and dropped, the battle, its systems and its visibility are gone, and no
      cyclic garbage is left.
    What was alive before the battle is set aside, not scanned (young_garbage). The scenario is
    played once first, so what a first run does once per process (lazy imports: numpy.ma,
    which np.unique imports on its first call, leaves cycles of inspect's) is not counted."""
    sc = load_scenario(path)
    _play(sc, path)
    alive: list = []
    open_garbage: list = []

    def run():
        gone = _play(sc, path, open_garbage)
        alive.extend(o for o in (r() for r in gone) if o is not None)

    found, kinds = young_garbage(run)
    assert open_garbage[0][0] == 0, f"cyclic garbage while the battle was open: {open_garbage[0][1]}"
    assert not alive, [type(o).__name__ for o in alive]
    assert found == 0, kinds
