"""Benchmark: the tactician's Movement phase decisions (sim.players.tactician.movement), one core.

Plays the default battle (scenarios/battle_default.toml) with the tactician against the default
player, on each side, and times every Movement phase choice the tactician makes (its threat
map and plan are worked out at the first choice of a phase, so that one costs the most).
Prints the median and the largest time per choice and, beside them, the baseline measured in the
same run (tests/bench/_baseline.py), each figure as a multiple of the pure-Python loop (the
target of issue 27: about 50 ms a choice on the reference machine, one loop's time there).
Run: .venv/bin/python tests/bench/bench_tactician_movement.py [seed]
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.phases.state import Phase  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.loop import make_player  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402


def timed_battle(kinds: tuple[str, str], seed: int) -> list[float]:
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=kinds))
    times: list[float] = []
    with Battle(s, seed=seed) as b:
        players = [make_player(k, i, b, s) for i, k in enumerate(kinds)]
        for p in players:
            if p.kind != "tactician":
                continue
            choose = p.choose

            def timed(battle, choose=choose):
                t = time.perf_counter()
                c = choose(battle)
                if battle.turn_state.phase == Phase.MOVEMENT and battle.turn_state.pre_battle is None:
                    times.append(time.perf_counter() - t)
                return c
            p.choose = timed
        play_battle(b, s, players=players)
    return times


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    before = _baseline.measure()
    times = timed_battle(("tactician", "default"), seed) + timed_battle(("default", "tactician"), seed)
    after = _baseline.measure()
    base = _baseline.mean(before, after)
    med, top = statistics.median(times), max(times)
    print(f"baseline: python loop {before.python_s * 1e3:.1f} ms before, {after.python_s * 1e3:.1f} ms after")
    print(f"tactician movement choices: {len(times)}; median {med * 1e3:.1f} ms "
          f"({med / base.python_s:.2f} loops), largest {top * 1e3:.1f} ms ({top / base.python_s:.2f} loops)")


if __name__ == "__main__":
    main()
