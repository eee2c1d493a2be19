"""Instructions, not seconds: a workload's machine instructions in this tree and in another
checkout, counted by valgrind (cachegrind, ``I refs``), for a change too small for the clock.

On a shared or virtual machine the same battle's time moves by 5-15% from one run to the next,
so a change worth 1-2% cannot be read off timed runs (bench_attacks' --lockstep narrows it to
about 1% for the attack path alone). An instruction count is the same from run to run for the
same code and inputs (string hashing fixed: PYTHONHASHSEED=0), whatever else the machine is
doing. It is not time: an instruction in numpy's inner loop costs less than one in the
interpreter, a cache miss more; read it beside a timed benchmark, never instead of one.

Each tree's modules are compiled first (compileall, outside valgrind: a module compiled inside
one run and read from its cache in the other would count thousands of millions of
instructions), then its workload runs twice under valgrind: once with one battle (the imports,
the set-up and a first battle's cold caches) and once with N more; the difference, per battle,
is the figure. The two trees run side by side, one process each. valgrind slows Python down
about 35 times: an x2 battle takes ~6 s, a tactician battle ~20 s.

Workloads (each tree's own engine and bench helpers):
  x2         random v random on the default table copied x2 (tests/bench/_scaled_table), seeds 1..N
  tactician  tactician v tactician on scenarios/battle_default.toml, seeds 1..N
  attacks    bench_attacks' battle of 40 activations, N times
  full       default v default on scenarios/ladder/full_size.toml (20 units a side, deployed by the
             rules: the placement solver's set-ups, reserves arriving), seeds 1..N
  full-random  the same battles, random v random (the README's full-size row)

Run: .venv/bin/python tests/bench/instructions.py OTHER_TREE [--workload x2|tactician|attacks|full|full-random]
     [--battles N]   (OTHER_TREE: another checkout's root, e.g. a worktree of the commit before)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SETUP = """
import sys
sys.path.insert(0, {tree!r}); sys.path.insert(0, {tree!r} + "/tests/bench")
n = {n}
"""

WORKLOADS = {
    "x2": """
import _scaled_table
from sim.battle import Battle
from sim.players import play_battle
from sim.players.runner import frozen_heap
spec = _scaled_table.scaled_spec(2)
for seed in range(1, n + 1):
    with Battle(spec, seed=seed) as b, frozen_heap():
        play_battle(b, spec)
""",
    "tactician": """
from sim.analysis.stats import with_players
from sim.battle import Battle
from sim.players import play_battle
from sim.players.runner import frozen_heap
from sim.scenario.load import load_scenario
spec = with_players(load_scenario({tree!r} + "/scenarios/battle_default.toml"), ("tactician", "tactician"))
for seed in range(1, n + 1):
    with Battle(spec, seed=seed) as b, frozen_heap():
        play_battle(b, spec)
""",
    "full": """
from sim.analysis.stats import with_players
from sim.battle import Battle
from sim.players import play_battle
from sim.players.runner import frozen_heap
from sim.scenario.load import load_scenario
spec = with_players(load_scenario({tree!r} + "/scenarios/ladder/full_size.toml"), ("default", "default"))
for seed in range(1, n + 1):
    with Battle(spec, seed=seed) as b, frozen_heap():
        play_battle(b, spec)
""",
    "full-random": """
from sim.analysis.stats import with_players
from sim.battle import Battle
from sim.players import play_battle
from sim.players.runner import frozen_heap
from sim.scenario.load import load_scenario
spec = with_players(load_scenario({tree!r} + "/scenarios/ladder/full_size.toml"), ("random", "random"))
for seed in range(1, n + 1):
    with Battle(spec, seed=seed) as b, frozen_heap():
        play_battle(b, spec)
""",
    "attacks": """
import bench_attacks
from sim.scenario.load import parse_scenario
spec = parse_scenario(bench_attacks.scenario(), "bench")
for _ in range(n):
    bench_attacks.run_once(spec)
""",
}


def _env() -> dict:
    """The processes' environment: string hashing fixed, bytecode read from the caches that
    ``compiled`` wrote (never compiled again inside a counted run)."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compiled(tree: str) -> None:
    """Every module the workloads import from ``tree`` compiled to its bytecode cache now, so
    that no counted run compiles one (the first would, and the other would not)."""
    out = subprocess.run([sys.executable, "-m", "compileall", "-q", "sim", "tests/bench"], cwd=tree,
                         env=_env(), capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"instructions: compiling {tree}'s modules failed:\n"
                 f"{out.stdout[-2000:]}{out.stderr[-2000:]}")


def count(tree: str, workload: str, n: int) -> int:
    """The instructions (cachegrind's I refs) of one process running ``workload`` ``n`` times
    with ``tree``'s engine."""
    code = _SETUP.format(tree=tree, n=n) + WORKLOADS[workload].format(tree=tree)
    env = _env()
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-c", code]
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"instructions: the {workload} workload failed in {tree}:\n{out.stderr[-2000:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if m is None:
        sys.exit(f"instructions: no instruction count in valgrind's output for {tree}")
    return int(m.group(1).replace(",", ""))


def per_battle(tree: str, workload: str, n: int) -> float:
    """Instructions a battle: N battles after a first one, less the first one alone."""
    compiled(tree)
    return (count(tree, workload, n + 1) - count(tree, workload, 1)) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", help="another checkout's root")
    ap.add_argument("--workload", choices=sorted(WORKLOADS), default="x2")
    ap.add_argument("--battles", type=int, default=3)
    args = ap.parse_args()
    if args.battles < 1:
        ap.error(f"--battles: expected 1 or more, found {args.battles}")
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    other = str(Path(args.other).resolve())
    if not (Path(other) / "sim").is_dir():
        sys.exit(f"instructions: {other} is not a checkout of this project (no sim/ there)")
    trees = [other, str(ROOT)]
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda t: per_battle(t, args.workload, args.battles), trees)
    print(f"{args.workload}, {args.battles} battles after a first one, instructions a battle (valgrind "
          f"cachegrind; the imports, the set-up and the first battle taken off):")
    print(f"  {other}: {a / 1e6:,.1f} million")
    print(f"  {ROOT}: {b / 1e6:,.1f} million ({b / a - 1:+.2%})")


if __name__ == "__main__":
    main()
