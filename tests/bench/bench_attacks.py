"""Benchmark: attack dice resolved per second through the whole ECS path.

10 models, each with a weapon A2 BS3+ S4 AP-1 D1, shoot a unit of 10 models T4 Sv3+ W2
(20 dice per activation), repeated with fresh targets. Prints the median over several runs.
Run: .venv/bin/python tests/bench/bench_attacks.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.battle import Battle  # noqa: E402
from sim.commands import EndTurn, Selection, Shoot  # noqa: E402
from sim.scenario.load import parse_scenario  # noqa: E402

TARGETS = 40  # fresh target units per battle


def scenario() -> dict:
    shooters = [[2.0 + 1.5 * i, 2.0] for i in range(10)]
    units = []
    for t in range(TARGETS):
        row, col = divmod(t, 2)
        y = 6.0 + row * 1.9
        x0 = 2.0 + col * 30
        units.append({"id": f"t{t}", "name": "Target", "keywords": ["INFANTRY"], "models": [
            {"count": 10, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1,
             "at": [[x0 + 1.5 * i, y] for i in range(10)]}]})
    return {
        "battle": {"name": "bench", "seed": 1, "board": [60, 90]},
        "weapons": {"gun": {"range": 120, "A": 2, "BS": 3, "S": 4, "AP": -1, "D": 1}},
        "armies": [
            {"name": "A", "units": [{"id": "shooters", "keywords": ["INFANTRY"], "models": [
                {"count": 10, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1,
                 "weapons": ["gun"], "at": shooters}]}]},
            {"name": "B", "units": units},
        ],
    }


def run_once(spec) -> tuple[int, float]:
    with Battle(spec, record_dice=True) as b:
        sels_for = {}
        start = time.perf_counter()
        dice = 0
        for t in range(TARGETS):
            cmd = Shoot("shooters", tuple(Selection(f"shooters/{i + 1}", "gun", f"t{t}") for i in range(10)))
            b.run_command(cmd)
            b.run_command(EndTurn())
            dice += 20
        return dice, time.perf_counter() - start


def main() -> None:
    spec = parse_scenario(scenario(), "bench")
    rates = []
    for _ in range(7):
        dice, secs = run_once(spec)
        rates.append(dice / secs)
    med = statistics.median(rates)
    print(f"attack dice per second (median of 7 runs, {TARGETS} activations of 20 dice each, "
          f"events and dice logged): {med:,.0f}")
    print(f"per activation: {20 / med * 1e6:,.0f} us")


if __name__ == "__main__":
    main()
