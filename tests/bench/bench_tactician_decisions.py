"""Benchmark: the tactician's answers to decisions (issue 27 item 1). Plays battles of a scenario
with a mission, the tactician on the sides asked for, and prints the results, how often each
side used each stratagem (the ``stratagem`` events) against how often it was offered (the
``decision`` events of kind stratagem), and the time the tactician's answers took by kind, with a
same-run baseline (tests/bench/_baseline.py) so the times read as ratios on any machine.

Run: .venv/bin/python tests/bench/bench_tactician_decisions.py [scenario] [--red K] [--blue K] [--runs N]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _baseline  # noqa: E402  (beside this script)
from sim.analysis.stats import with_players  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.rules.turn import PLAYER  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios/battle_default.toml"))
    ap.add_argument("--red", default="tactician")
    ap.add_argument("--blue", default="default")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    spec = with_players(load_scenario(args.scenario), (args.red, args.blue))
    if spec.mission is None:
        print(f"{args.scenario}: no mission: nothing for a player to decide", file=sys.stderr)
        sys.exit(2)

    timed = collections.defaultdict(lambda: [0, 0.0, 0.0])  # kind -> calls, seconds, max
    answer = TacticianPlayer.answer

    def timed_answer(self, battle, req):
        t = time.perf_counter()
        out = answer(self, battle, req)
        dt = time.perf_counter() - t
        k = req.kind if req.kind != "stratagem" else f"stratagem: {req.context.get('stratagem')}"
        row = timed[k]
        row[0] += 1
        row[1] += dt
        row[2] = max(row[2], dt)
        return out

    TacticianPlayer.answer = timed_answer
    before = _baseline.measure()
    used, offered, results = collections.Counter(), collections.Counter(), collections.Counter()
    t0 = time.perf_counter()
    for seed in range(spec.seed, spec.seed + args.runs):
        with Battle(spec, seed=seed, record_dice=False) as b:
            play_battle(b, spec)
            results[b.turn_state.result] += 1
            for e in b.events:
                if e["type"] == "stratagem":
                    used[(e["player"], e["stratagem"])] += 1
                elif e["type"] == "decision" and e["kind"] == "stratagem":
                    offered[(PLAYER[e["player"]], e["key"].split(":")[0])] += 1
    took = time.perf_counter() - t0
    after = _baseline.measure()
    TacticianPlayer.answer = answer
    print(f"{args.runs} battles of {spec.name} (red {args.red}, blue {args.blue}) in {took:.1f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(results.items())))
    print("stratagems used (offered):")
    for (side, name), n in sorted(used.items()):
        print(f"  {side:5} {name:22} {n:4}  {n / args.runs:5.2f} a battle  ({offered[(side, name)]} offers)")
    print("the tactician's answers:")
    for k, (n, s, mx) in sorted(timed.items(), key=lambda x: -x[1][1]):
        print(f"  {k:36} {n:5} calls  mean {1000 * s / n:6.2f} ms  max {1000 * mx:6.2f} ms")
    base = _baseline.mean(before, after).python_s
    slowest = max((row[2] for row in timed.values()), default=0.0)
    total = sum(row[1] for row in timed.values())
    print(_baseline.line(before, after, [f"slowest answer {slowest / base:.3f}x the loop",
                                         f"all answers {total / took:.1%} of the battles' time"]))


if __name__ == "__main__":
    main()
