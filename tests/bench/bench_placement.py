"""Placement benchmark (issue 24): the automatic deployment of a 2,000-point army of the
project's own invention (20 units, 98 models: 32 mm infantry in tens and twenties, 40, 50 and
60 mm bases, 90x52 and 105x70 mm ovals, 150x90 mm rectangles, a 170x105 mm oval) into a
60" x 12" deployment zone holding two terrain areas, by the placement solver's army packer
(sim.rules.movement.solvers.placement.place_army). Target: under 1 s on the reference machine,
about 20 of the baseline's pure-Python loops. Medians (and the range) of 7 runs, with the
baseline of _baseline.py measured in the same run.

    python tests/bench/bench_placement.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests/rules/movement"), str(Path(__file__).parent)]

import _baseline  # noqa: E402
from test_03_02_placement_solver import BOARD, SOUTH, army, ruin  # noqa: E402

from sim.rules.movement.solvers import placement as P  # noqa: E402
from sim.rules.movement.solvers import regions as R  # noqa: E402

RUNS = 7


def deploy():
    terrain = (ruin("ruin-w", 14.0, 1.0, 18.0, 5.0), ruin("ruin-e", 42.0, 6.0, 46.0, 10.0, "light"))
    got = P.place_army(army(), R.deployment(SOUTH, BOARD), terrain=terrain, prefer=P.Prefer.back(SOUTH, BOARD))
    assert got, got
    return got


def main() -> None:
    before = _baseline.measure()
    units = army()
    deploy()                                   # (warm-up: caches of the bases' rules)
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        deploy()
        times.append(time.perf_counter() - t)
    after = _baseline.measure()
    med = statistics.median(times)
    loop = _baseline.mean(before, after).python_s
    print(f"army deployment: {len(units)} units, {sum(len(m) for _u, m in units)} models, 60\" x 12\" zone with "
          f"terrain: median {med * 1e3:.0f} ms (range {min(times) * 1e3:.0f}-{max(times) * 1e3:.0f} ms)")
    print(_baseline.line(before, after, [f"deployment = {med / loop:.1f} loops "
                                         f"(range {min(times) / loop:.1f}-{max(times) / loop:.1f}; target ~20)"]))


if __name__ == "__main__":
    main()
