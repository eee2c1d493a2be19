"""Benchmark: how long a ladder takes (`sim ladder`, README "Ladder"), one core.

Plays the first ``--battles`` seeds of a ladder's schedule (every pair of ``--players``, each
seed both ways) on each scenario (default: scenarios/battle_default.toml, ten units a side, and
scenarios/ladder/full_size.toml, twenty), timing each battle as `sim ladder --jobs 1` plays it
(sim.analysis.ladder.Ladder.play). Prints per scenario and pair of players the median seconds a
battle (and its range), and what a ladder of those players takes at that rate: seconds per seed
(both ways, every pair) and for the README's ladder (``--seeds``, default 20 seeds a pair).
Beside the figures: a baseline measured in the same run, before and after
(tests/bench/_baseline.py), and each median in loops of the pure-Python baseline, which reads
the same on any machine.
Run: .venv/bin/python tests/bench/bench_ladder.py [--battles N] [--players default,random] [SCENARIO...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import _baseline  # noqa: E402  (beside this script)
from sim.analysis.ladder import Ladder, pairs, parse_players  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402
from sim.names import counted  # noqa: E402

SCENARIOS = ("scenarios/battle_default.toml", "scenarios/ladder/full_size.toml")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="*", default=list(SCENARIOS))
    ap.add_argument("--players", default="default,random")
    ap.add_argument("--battles", type=int, default=2, help="seeds timed per pair and scenario (each both ways)")
    ap.add_argument("--seeds", type=int, default=20, help="the ladder the estimate is for: seeds per pair")
    args = ap.parse_args()
    players = parse_players(args.players)
    before = _baseline.measure()
    rows = []
    for path in args.scenario:
        spec = load_scenario(str(ROOT / path) if not Path(path).is_absolute() else path)
        lad = Ladder((spec,), (path,), players, args.battles, (spec.seed,))
        times: dict[tuple[int, int], list[float]] = {}
        for k in range(lad.total):
            t0 = time.perf_counter()
            r = lad.play(k)
            times.setdefault(r.game.pair, []).append(time.perf_counter() - t0)
        rows.append((path, times))
    after = _baseline.measure()
    loop = _baseline.mean(before, after).python_s
    print(f"ladder battles, one core, {counted(args.battles, 'seed')} a pair each played both ways:")
    for path, times in rows:
        per_seed = 0.0
        for (i, j), ts in times.items():
            med = statistics.median(ts)
            per_seed += 2 * med
            print(f"  {path}, {players[i]} v {players[j]}: median {med:.2f} s a battle ({med / loop:.0f} loops;"
                  f" range {min(ts):.2f}-{max(ts):.2f} s)")
        print(f"  {path}: a seed of every pair both ways {per_seed:.1f} s ({per_seed / loop:.0f} loops); "
              f"a ladder of {args.seeds} seeds ({2 * args.seeds * len(pairs(len(players)))} battles) "
              f"~{args.seeds * per_seed / 60:.1f} min on one core, about half that with --jobs 2")
    print(_baseline.line(before, after))


if __name__ == "__main__":
    main()
