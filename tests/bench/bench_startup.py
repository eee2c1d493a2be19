"""Benchmark: start-up (issue 29): `sim --help`, `sim check scenarios/default.toml` and `sim odds
scenarios/default.toml --step 3` as whole processes (`python -m sim ...`), beside a bare
`python -c pass` of the same interpreter (what any command pays before sim's first line: the
interpreter, site, the environment's .pth files), each the median of ``REPEATS`` runs after one
warm-up (so the bytecode caches are written where they may be), and the baseline of
tests/bench/_baseline.py measured in the same run. The issue's mark: `--help` under 60 ms on
the reference machine, about 1.1 of its ~55 ms pure-Python loops.

    python tests/bench/bench_startup.py [--repeats N]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

import _baseline  # noqa: E402

COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "sim --help": ["-m", "sim", "--help"],
    "sim check": ["-m", "sim", "check", "scenarios/default.toml"],
    "sim odds --step 3": ["-m", "sim", "odds", "scenarios/default.toml", "--step", "3"],
}


def run_seconds(args: list[str], repeats: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (an installed sim has its bytecode cached)
    times = []
    for i in range(repeats + 1):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        if i:
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    repeats = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 7
    before = _baseline.measure()
    got = {name: run_seconds(args, repeats) for name, args in COMMANDS.items()}
    after = _baseline.measure()
    loop_ms = _baseline.mean(before, after).python_s * 1e3
    bare = got["python -c pass"]
    for name, s in got.items():
        extra = "" if name == "python -c pass" else f", {(s - bare) * 1e3:.0f} ms beyond it"
        print(f"{name}: {s * 1e3:.0f} ms (median of {repeats}){extra}; {s * 1e3 / loop_ms:.2f} loops")
    print(_baseline.line(before, after, [f"sim --help in loops: {got['sim --help'] * 1e3 / loop_ms:.2f} "
                                         f"(target < 1.1: 60 ms at the reference's ~55 ms loop)"]))


if __name__ == "__main__":
    main()
