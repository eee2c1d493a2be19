"""The exact odds of every shipped scenario's first activation (and of each script step's attack
where the scenario is free play) by the engine's path (sim.odds.fast) against the reference path
(sim.odds.exact.solve_target, the path before issue 29), with and without the counters: the
largest difference over every distribution either gives must stay within 1e-12. Prints one line
per scenario, its figures and the two paths' seconds; exit status 1 if any differs.
Run: .venv/bin/python tests/bench/crosscheck_paths.py [STEM ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "odds")]

from test_odds_fast import gap  # noqa: E402  (the tests' own comparison)
from sim.analysis.locate import first_attack, problem_at  # noqa: E402
from sim.odds import engine as E  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402
from sim.names import counted  # noqa: E402


def main() -> int:
    stems = set(sys.argv[1:])
    worst, bad = 0.0, 0
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        if stems and path.stem not in stems:
            continue
        try:
            loc = first_attack(load_scenario(str(path)))
            pr = problem_at(loc) if loc is not None else None
        except Exception as e:  # (a scenario without an attack, or one the odds refuse)
            print(f"{path.name}: no attack to compare ({type(e).__name__})")
            continue
        if pr is None:
            print(f"{path.name}: no attack to compare")
            continue
        for counters in (False, True):
            E.solve.cache_clear()
            t0 = time.perf_counter()
            fast = E.solve(pr, counters)
            t1 = time.perf_counter()
            if fast.method != "exact" or (counters and fast.targets[0].unsaved is None):
                print(f"{path.name} counters={counters}: {fast.method}, not compared ({fast.notes[:1]})")
                continue
            try:
                ref = E.solve_reference(pr, counters)
            except Exception as e:
                print(f"{path.name} counters={counters}: the reference path gives no answer ({e})")
                continue
            t2 = time.perf_counter()
            g = gap(fast, ref)
            worst = max(worst, g)
            bad += g > 1e-12
            print(f"{path.name} counters={counters}: {counted(len(pr.pools), 'pool')}, largest difference {g:.1e}; "
                  f"{(t1 - t0) * 1e3:.1f} ms against {(t2 - t1) * 1e3:.1f} ms")
    print(f"worst difference {worst:.1e} (tolerance 1e-12); {bad} beyond")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
