"""The tactician plays whole battles by the rules (issue 27 item 1): a battle it plays is the same
for the same seed, byte for byte, and its log replays with no player (its commands are in the log
like any player's); it plays either side, against any player."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.players import play_battle
from sim.replay.log import Recorder, replay, write_log
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _played(tmp_path, players, seed, name):
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
    with Battle(s, seed=seed) as b:
        rec = Recorder(b, str(ROOT / "scenarios/battle_default.toml"))
        play_battle(b, s, rec)
        assert b.turn_state.over and b.turn_state.result in ("red", "blue", "draw")
        log = write_log(tmp_path / f"{name}.jsonl", rec)
        return log, b.commands_done


@pytest.mark.parametrize("players", [("tactician", "default"), ("random", "tactician")])
def test_tactician_battle_is_deterministic_and_replays_without_a_player(tmp_path, players):
    log1, n = _played(tmp_path, players, 5, "one")
    log2, _ = _played(tmp_path, players, 5, "two")
    assert Path(log1).read_bytes() == Path(log2).read_bytes()
    done, div = replay(log1)
    assert div is None and done == n
