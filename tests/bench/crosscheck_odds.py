"""The exact odds against `sim stats` at the issue's full size: every shipped free-play
scenario's first activation, 20,000 seeded runs each (the test suite runs the same check with
600, tests/odds/test_odds_crosscheck.py, to stay within its time budget). Each Monte Carlo mean
(models destroyed and wounds lost per target, the attacker's hazard losses) must lie within
its 99% interval around the exact expectation. Prints one line per scenario and the worst
|deviation| / tolerance; exit status 1 if any falls outside.
Run: .venv/bin/python tests/bench/crosscheck_odds.py [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "odds"))

import test_odds_crosscheck as X  # noqa: E402  (the suite's own check, its run count raised)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20_000)
    args = ap.parse_args()
    X.RUNS = args.runs
    worst, bad = 0.0, 0
    close = X._close

    def measured(mc, measure, runs, what):
        nonlocal worst
        tol = X.Z99 * measure.sd / runs ** 0.5
        if tol > 0:
            worst = max(worst, abs(mc - measure.mean) / tol)
        close(mc, measure, runs, what)

    X._close = measured
    for path in X._free_play():
        t0 = time.perf_counter()
        try:
            X.test_exact_odds_against_sim_stats(path)
            verdict = "within the 99% interval"
        except AssertionError as e:
            bad += 1
            verdict = f"OUTSIDE: {e}"
        print(f"{path.stem}: {args.runs} runs, {time.perf_counter() - t0:.1f} s, {verdict}")
    print(f"worst |mean - exact| / 99% tolerance: {worst:.2f}; scenarios outside: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
