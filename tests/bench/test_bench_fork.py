"""tests/bench/bench_fork.py's comparisons run on a battle in round 2 (`make bench` stopped there
once: a cache of the battle's state held an answer no deepcopy can copy). Nothing is timed."""

from __future__ import annotations

import bench_fork
from sim.scenario.load import load_scenario


def test_the_deepcopy_it_compares_a_fork_with_copies_the_state():
    spec = load_scenario(bench_fork.ROOT / "scenarios/battle_default.toml")
    b, script = bench_fork.to_round_2(spec)
    try:
        assert script and b.turn_state.round == 2
        before = b.state_hash()
        ctx, resources, turn_state, *_ = bench_fork.deep_copied(b)
        assert turn_state == b.turn_state and turn_state is not b.turn_state
        assert resources is not b.resources and resources.spatial.living == {}
        assert b.state_hash() == before
    finally:
        b.close()
