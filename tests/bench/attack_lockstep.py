"""bench_attacks' activations in two trees taking turns (before/after a change on a shared machine).

Two worker processes, one importing the engine (``sim``) of each tree, play the benchmark's
battle (bench_attacks: its scenario and commands) one whole battle at a time, in turn (ABBA:
the first tree leads on even rounds, the second on odd ones), so both meet the same load from
the other work on the machine; each activation (its Shoot command submitted and resolved, and
the EndTurn after it) is timed as the worker's CPU time, the first two of each battle left out
(they set up what the shooters keep). Separate runs of the benchmark minutes apart differ by
10-40% on a busy machine; runs in lockstep differ by about 1% when both trees are the same.

Run: .venv/bin/python tests/bench/bench_attacks.py --lockstep OTHER_TREE [--battles N]
     (OTHER_TREE: the root of another checkout, e.g. a worktree of the commit before; its own
     bench script is not used, so it may predate this one)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DICE = 20  # attack dice an activation (bench_attacks.DICE)


def worker(tree: str) -> None:
    """Read a line per battle from stdin; play one battle and print each activation's CPU
    seconds (submit, resolution, end of turn) as a JSON line."""
    sys.path.insert(0, tree)
    # (the engine of ``tree`` first, so bench_attacks' own imports find it already loaded)
    import sim.battle  # noqa: F401
    import sim.commands  # noqa: F401
    import sim.players.runner  # noqa: F401
    import sim.scenario.load  # noqa: F401
    sys.path.insert(0, str(HERE))
    import bench_attacks as ba
    from sim.battle import Battle
    from sim.commands import EndTurn
    from sim.players.runner import frozen_heap
    from sim.scenario.load import parse_scenario

    assert Path(sim.battle.__file__).resolve().is_relative_to(Path(tree).resolve()), "wrong engine"
    clock = time.process_time
    spec = parse_scenario(ba.scenario(), "bench")

    def battle() -> list:
        cmds, end, out = ba.commands(), EndTurn(), []
        with Battle(spec, record_dice=True) as b, frozen_heap():
            for t, cmd in enumerate(cmds):
                t0 = clock()
                b.submit(cmd)
                t1 = clock()
                b.resolve()
                t2 = clock()
                b.run_command(end)
                t3 = clock()
                if t >= 2:
                    out.append((t1 - t0, t2 - t1, t3 - t2))
        return out

    battle()  # (warm-up: imports, first allocations)
    for _line in sys.stdin:
        print(json.dumps(battle()), flush=True)


def lockstep(trees: list[str], battles: int) -> tuple[list[str], list[float]]:
    """Each tree's median activation and its parts (CPU microseconds), played in turn: the
    lines to print, and each tree's rate (attack dice a second of its median activation)."""
    procs = []
    for tree in trees:
        env = dict(os.environ, PYTHONPATH=tree)
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", tree], cwd=tree, env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    got: list[list] = [[] for _ in trees]
    try:
        for r in range(battles):
            for i in (range(len(trees)) if r % 2 == 0 else reversed(range(len(trees)))):
                procs[i].stdin.write("go\n")
                procs[i].stdin.flush()
                line = procs[i].stdout.readline()
                if not line:
                    raise SystemExit(f"the worker for {trees[i]} stopped (see its error above)")
                got[i] += json.loads(line)
    finally:
        for p in procs:
            p.stdin.close()
            p.wait()
    lines = [f"in lockstep ({battles} battles each, in turn; CPU time; the median of "
             f"{len(got[0])} activations):"]
    rates = []
    for tree, acts in zip(trees, got):
        sub, res, end = (statistics.median(a[k] for a in acts) * 1e6 for k in range(3))
        whole = statistics.median(sum(a) for a in acts) * 1e6
        rates.append(DICE / whole * 1e6)
        lines.append(f"  {tree}: {whole:,.1f} us an activation ({rates[-1]:,.0f} attack dice per "
                     f"second): submit {sub:,.1f}, resolution {res:,.1f}, end of turn {end:,.1f}")
    return lines, rates


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        print("\n".join(lockstep(sys.argv[1:3], int(sys.argv[3]) if len(sys.argv) > 3 else 20)[0]))
