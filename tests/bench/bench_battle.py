"""Benchmark: whole five-round battles played headless by two random players, one core.

The default table with ten units a side (scenarios/battle_default.toml), both sides played by
the ``random`` player (sim.players.RandomPlayer: uniformly random legal commands, each tried
with Battle.check before it is chosen), every die and event logged as in any run. Prints the
battles per second (the median battle, and the whole run), the median time spent in each
phase (from one phase event to the next), the commands per battle, and where the time goes
(cProfile, one battle, the top functions by own time). Beside the figures: a baseline measured
in the same run, before and after (tests/bench/_baseline.py), and the rate relative to the
pure-Python loop (battles in the time the loop takes), which reads the same on any machine.
Run: .venv/bin/python tests/bench/bench_battle.py [--battles N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/battle_default.toml"


def one_battle(spec, seed: int, phases: dict) -> tuple[float, int]:
    marks = []

    def on_event(e):
        if e["type"] in ("phase", "result"):
            marks.append((time.perf_counter(), e.get("phase", "end")))

    t0 = time.perf_counter()
    with Battle(spec, seed=seed) as b, frozen_heap():
        b.listeners.append(on_event)
        play_battle(b, spec)
        n = b.commands_done
    t1 = time.perf_counter()
    for (ta, name), (tb, _) in zip(marks, marks[1:]):
        phases.setdefault(name, []).append(tb - ta)
    return t1 - t0, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--profile", action="store_true", help="also profile one battle")
    args = ap.parse_args()
    spec = load_scenario(SCENARIO)
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    before = _baseline.measure()
    one_battle(spec, 0, {})  # warm-up (imports, caches)
    phases: dict[str, list[float]] = {}
    times, commands = [], []
    start = time.perf_counter()
    for seed in range(1, args.battles + 1):
        t, n = one_battle(spec, seed, phases)
        times.append(t)
        commands.append(n)
    wall = time.perf_counter() - start
    after = _baseline.measure()
    loop_s = _baseline.mean(before, after).python_s
    med = statistics.median(times)
    print(f"{args.battles} whole battles (5 rounds, 20 units, random v random), one core: "
          f"median {med * 1e3:.0f} ms a battle = {1 / med:.1f} battles/s "
          f"(run: {args.battles / wall:.1f} battles/s; range {min(times) * 1e3:.0f}-{max(times) * 1e3:.0f} ms); "
          f"median {statistics.median(commands):.0f} commands a battle")
    print("median time per phase: " + ", ".join(
        f"{name} {statistics.median(v) * 1e3:.2f} ms" for name, v in sorted(phases.items())))
    print(_baseline.line(before, after, [f"{loop_s / med:.2f} battles in the time of one pure-Python loop"]))
    if args.profile:
        pr = cProfile.Profile()
        pr.enable()
        one_battle(spec, 999, {})
        pr.disable()
        out = io.StringIO()
        pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())


if __name__ == "__main__":
    main()
