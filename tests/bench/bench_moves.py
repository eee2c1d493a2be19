"""Benchmark: the movement rules' two hot calls on a crowded table, one core.

* a 10-model normal move checked against 200 other bodies and a wall
  (sim.rules.movement.legality.check_move, every check of 03.01/03.03/09.05);
* the charge solver placing a 10-model charge (sim.rules.movement.solvers.charge.solve_charge, Part A
  ruling 17).

Prints each call's median time over repeated runs and, beside it, the baseline measured in the
same run (tests/bench/_baseline.py), and each figure as a fraction of the pure-Python loop, which
reads the same on any machine. (These were timed assertions in the test suite; the suite has no
timed tests, so the figures live here.)
Run: .venv/bin/python tests/bench/bench_moves.py
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[0] / "rules" / "movement"))

import _baseline  # noqa: E402  (beside this script)
from sim.rules.movement.legality import BodyIndex, check_move  # noqa: E402
from sim.rules.movement.solvers.charge import solve_charge  # noqa: E402
from test_03_01_move_legality import BOARD, WALL, b  # noqa: E402  (the tests' own table pieces)
from test_11_04_charge_solver import D32, squad  # noqa: E402


def crowded_move():
    rng = np.random.default_rng(5)
    bodies = [b(f"a/{k}", 20 + 1.5 * (k % 5), 20 + 1.5 * (k // 5)) for k in range(10)]
    while len(bodies) < 210:
        x, y = rng.uniform(1, 59), rng.uniform(1, 43)
        if all(math.hypot(o.fp.x - x, o.fp.y - y) > 1.4 for o in bodies) and \
                abs(x - 23) + abs(y - 21) > 9:
            k = len(bodies)
            bodies.append(b(f"u{k // 10}/{k}", x, y, 1 + (k // 10) % 2))
    idx = BodyIndex(bodies)
    paths = {f"a/{k}": [(20 + 1.5 * (k % 5), 20 + 1.5 * (k // 5)),
                        (18 + 1.5 * (k % 5), 20 + 1.5 * (k // 5))] for k in range(10)}
    return lambda: check_move("a", paths, idx, [WALL], BOARD, max_distance=6, rule="09.05",
                              end_unengaged=True)


def ten_model_charge():
    bodies = squad("a", 20, 10, 10, 1) + squad("b", 20, 10 + 3 * D32 + 6.0, 5, 2) \
        + squad("c", 40, 25, 5, 2) + squad("d", 5, 30, 10, 2) + squad("f", 45, 5, 10, 1)
    idx = BodyIndex(bodies)

    def run():
        assert solve_charge("a", ["b"], 8, idx, [], BOARD)
    return run


def timed(fn, runs: int, repeats: int = 7) -> float:
    fn()  # warm-up
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(runs):
            fn()
        out.append((time.perf_counter() - t0) / runs)
    return statistics.median(out)


def main() -> None:
    before = _baseline.measure()
    move = timed(crowded_move(), 50)
    charge = timed(ten_model_charge(), 5)
    after = _baseline.measure()
    loop = _baseline.mean(before, after).python_s
    print(f"check_move, 10 models against 200 bodies and a wall: {move * 1e3:.2f} ms "
          f"({move / loop:.4f} loops)")
    print(f"solve_charge, a 10-model charge: {charge * 1e3:.1f} ms ({charge / loop:.3f} loops)")
    print(_baseline.line(before, after))


if __name__ == "__main__":
    main()
