"""`sim stats` forks each run from one start battle per scenario (sim.analysis.stats.ready_start)
instead of building the battle again: the run must be the battle built from scratch with that
seed, event for event (every die included) and state for state, on every shipped scenario."""

import dataclasses
from pathlib import Path

import pytest

from sim.analysis import stats
from sim.analysis.stats import Tally, iter_runs, ready_start, run_seed, started
from sim.battle import Battle
from sim.errors import ScriptError
from sim.players.runner import play
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(ROOT.glob("scenarios/*.toml")) + sorted(ROOT.glob("scenarios/ladder/*.toml"))


def _played(battle, spec):
    """The battle played by its script or players: its events, state hash and how it stopped."""
    with battle:
        battle._enter()
        try:
            play(battle, spec)
            stopped = None
        except ScriptError as e:
            stopped = str(e)
        return battle.events, battle.state_hash(), stopped


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_ready_start_forks_are_the_battle_built_from_scratch(path):
    spec = load_scenario(path)
    if spec.mission is not None and path.name != "battle_default.toml":
        # (whole battles by their own players take seconds each: the fork copies the same state
        # whoever plays, and the deployment and first round read all of it; battle_default keeps
        # its players and five rounds, tests/world/test_fork.py forks the tactician's battles)
        mission = dataclasses.replace(spec.mission, rounds=1, players=("random", "random"))
        spec = dataclasses.replace(spec, mission=mission)
    seeds = (3,) if spec.mission is not None else (3, 11)
    with started(spec) as start:
        assert start is not None  # (no shipped scenario rolls or emits before its first command)
        for seed in seeds:
            fresh = _played(Battle(spec, seed=seed, record_dice=True), spec)
            forked = _played(start.fork(seed=seed, record_dice=True), spec)
            assert forked[0] == fresh[0]  # every event, every die
            assert forked[1:] == fresh[1:]
            if spec.mission is None:
                assert run_seed(spec, seed, start) == run_seed(spec, seed)
        start._enter()
        assert not start.events and start.dice.count == 0  # (the runs left it as it was)


def test_a_start_that_rolled_or_emitted_is_not_used(monkeypatch):
    """A scenario whose first tick rolled a die or emitted an event would start every run
    alike: ready_start refuses it, and each run is built from scratch."""
    spec = load_scenario(ROOT / "scenarios" / "default.toml")
    real_tick = Battle.tick

    def rolling_tick(self):
        real_tick(self)
        self.dice.d6(1, "a die rolled before the first command")

    monkeypatch.setattr(Battle, "tick", rolling_tick)
    assert ready_start(spec) is None
    monkeypatch.setattr(Battle, "tick", lambda self: (real_tick(self), self.emit("note", text="x")))
    assert ready_start(spec) is None
    monkeypatch.setattr(Battle, "tick", real_tick)
    with_start = list(iter_runs(spec, 1, 6, jobs=1))
    monkeypatch.setattr(stats, "ready_start", lambda spec: None)
    assert list(iter_runs(spec, 1, 6, jobs=1)) == with_start
    assert Tally(spec).add_all(with_start).n == 6
