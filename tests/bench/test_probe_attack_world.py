"""tests/bench/probe_attack_world.py's lean activation does what the engine does: the same events
(JSON with sorted keys), the same state hash and commands counted after every Shoot and End Turn
of bench_attacks' battle, and the same notices to the indexes (sim.world.changes: the units
touched and shot, the models moved or removed, and when each is taken), in the same order, so
its time is a floor for the same work. Nothing is timed."""

from __future__ import annotations

import json

import bench_attacks
import probe_attack_world as PW
from sim.scenario.load import parse_scenario
from sim.world.changes import Changes


def _noted(monkeypatch) -> list:
    """Every notice given to and taken from a battle's Changes from now on, with its argument
    or answer, in order."""
    notes: list = []
    for name in ("moved", "shot", "touched", "take_moved", "take_shot_units", "take_touched"):
        def noting(self, *args, _orig=getattr(Changes, name), _name=name):
            got = _orig(self, *args)
            notes.append((_name, [list(a) if isinstance(a, list) else a for a in args],
                          None if got is None else list(got)))
            return got
        monkeypatch.setattr(Changes, name, noting)
    return notes


def test_the_lean_activation_logs_and_writes_what_the_engine_does(monkeypatch):
    spec = parse_scenario(bench_attacks.scenario(), "bench")
    cmds = bench_attacks.commands()[:12]
    notes = _noted(monkeypatch)
    want_logs, want_hashes = PW.engine_battle(spec, cmds)
    want_notes = list(notes)
    notes.clear()
    _times, logs, hashes = PW.lean_battle(spec, cmds, hashed=True)
    assert [[json.dumps(e, sort_keys=True) for e in log] for log in logs] == \
        [[json.dumps(e, sort_keys=True) for e in log] for log in want_logs]
    assert hashes == want_hashes and len(set(hashes)) == 2 * len(cmds)
    assert any(e["type"] == "model destroyed" for log in logs for e in log)
    assert notes == want_notes and {n[0] for n in notes} >= {"moved", "shot", "touched", "take_moved"}
