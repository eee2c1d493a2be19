"""tests/bench/probe_attack_world.py's lean activation does what the engine does: the same events
(JSON with sorted keys) and the same state hash after every Shoot and End Turn of bench_attacks' battle,
so its time is a floor for the same work. Nothing is timed."""

from __future__ import annotations

import json

import bench_attacks
import probe_attack_world as PW
from sim.scenario.load import parse_scenario


def test_the_lean_activation_logs_and_writes_what_the_engine_does():
    spec = parse_scenario(bench_attacks.scenario(), "bench")
    cmds = bench_attacks.commands()[:12]
    want_logs, want_hashes = PW.engine_battle(spec, cmds)
    _times, logs, hashes = PW.lean_battle(spec, cmds, hashed=True)
    assert [[json.dumps(e, sort_keys=True) for e in log] for log in logs] == \
        [[json.dumps(e, sort_keys=True) for e in log] for log in want_logs]
    assert hashes == want_hashes and len(set(hashes)) == 2 * len(cmds)
    assert any(e["type"] == "model destroyed" for log in logs for e in log)
