"""Benchmark: the search player's decisions (sim.players.search), one core.

Whole battles on the default table (scenarios/battle_default.toml), the search player (red, at
``--budget`` seconds a decision on the reference machine) against the tactician (blue). Prints,
for the decisions it searched: the time a decision took (median, 90th percentile, largest), also
as the reference machine's seconds (scaled by the same-run baseline loop against its ~55 ms
there), the rollouts and rollout commands a decision played, and what a rollout command and a
fork cost here in baseline loops, a rollout command by the phase searched (the constants
sim.players.search.COMMAND_COST and FORK_COST turn a budget into work: the figures to fix them
by), and how many decisions went over the budget. Beside them: the same-run baseline,
before and after (tests/bench/_baseline.py).
With ``--scenario`` another battle (the work a budget buys is sized on the default table).
Run: .venv/bin/python tests/bench/bench_search.py [--battles N] [--budget SECONDS] [--seed S] [--scenario PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players import search as S  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402
from sim.names import counted  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/battle_default.toml"


class Timed(S.SearchPlayer):
    """The search player, its decisions and forks timed (the timing reads the clock; the
    decisions do not)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.decisions: list[float] = []  # seconds of each searched decision
        self.fork_s = 0.0
        self.forks = 0
        self.rollout_s = 0.0
        self.by_phase: list = []  # (phase, rollout seconds, rollout commands) of each searched decision
        self.slowest: tuple = (0.0, None, 0, 0)  # (seconds, phase, battle round, rollout commands)

    def choose(self, battle):
        n = len(self.searches)
        phase, r0 = battle.turn_state.phase, self.rollout_s
        t0 = time.perf_counter()
        c = super().choose(battle)
        if len(self.searches) > n:
            self.decisions.append(time.perf_counter() - t0)
            _options, rollouts, spent = self.searches[-1]
            # (the phase; the seconds its rollouts took, forks included; the commands they played)
            self.by_phase.append((phase, self.rollout_s - r0, spent - S.FORK_COST * rollouts))
            self.slowest = max(self.slowest, (self.decisions[-1], phase, battle.turn_state.round, spent),
                               key=lambda s: s[0])
        return c

    def rollout(self, battle, command, seed, saved):
        t0 = time.perf_counter()
        r = super().rollout(battle, command, seed, saved)
        self.rollout_s += time.perf_counter() - t0
        return r


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=1)
    ap.add_argument("--budget", type=float, default=S.DEFAULT_BUDGET)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--scenario", default=str(SCENARIO), help="another battle (say scenarios/ladder/full_size.toml)")
    args = ap.parse_args()
    before = _baseline.measure()
    spec = load_scenario(args.scenario)
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("search", "tactician")))
    real_fork = S.fork
    players: list[Timed] = []

    def timed_fork(battle, seed):
        t0 = time.perf_counter()
        f = real_fork(battle, seed)
        players[-1].fork_s += time.perf_counter() - t0
        players[-1].forks += 1
        return f

    S.fork = timed_fork
    results = []
    t0 = time.perf_counter()
    for k in range(args.battles):
        with Battle(spec, seed=args.seed + k) as b, frozen_heap():
            p = Timed(0, b, spec, budget=args.budget)
            players.append(p)
            play_battle(b, spec, players=[p, TacticianPlayer(1, b, spec)])
            results.append(b.turn_state.result)
    wall = time.perf_counter() - t0
    S.fork = real_fork
    after = _baseline.measure()
    base = _baseline.mean(before, after).python_s
    to_ref = S.REFERENCE_BASELINE / base
    times = sorted(t for p in players for t in p.decisions)
    searches = [s for p in players for s in p.searches]
    commands = sum(s[2] for s in searches) - S.FORK_COST * sum(s[1] for s in searches)
    rollouts = sum(s[1] for s in searches)
    fork_s = sum(p.fork_s for p in players)
    command_s = sum(p.rollout_s for p in players) - fork_s

    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))]
    print(f"{counted(args.battles, 'battle')} of {Path(args.scenario).name}, search (budget {args.budget:g} s: "
          f"{', '.join(f'{ph.name.lower()} {S.work_for(args.budget, ph)}' for ph in S.SEARCHED)} rollout commands) v tactician: results {results}, {wall:.1f} s in all")
    print(f"decisions searched: {len(times)}; time a decision: median {statistics.median(times) * 1e3:.0f} ms, "
          f"90% {pct(0.9) * 1e3:.0f} ms, largest {times[-1] * 1e3:.0f} ms here = median "
          f"{statistics.median(times) * to_ref:.2f} s, 90% {pct(0.9) * to_ref:.2f} s, largest {times[-1] * to_ref:.2f} s "
          f"on the reference machine")
    print(f"options a decision: median {statistics.median(s[0] for s in searches):.0f}; rollouts a decision: median "
          f"{statistics.median(s[1] for s in searches):.0f}, largest {max(s[1] for s in searches)}; rollout commands "
          f"a decision: median {statistics.median(s[2] for s in searches):.0f}, largest {max(s[2] for s in searches)}")
    print(f"a rollout command: {command_s / max(1, commands) * 1e3:.2f} ms = "
          f"{command_s / max(1, commands) / base:.4f} baseline loops; a fork: "
          f"{fork_s / max(1, rollouts) * 1e3:.2f} ms = {fork_s / max(1, rollouts) / max(1e-9, command_s / max(1, commands)):.2f} "
          f"rollout commands (FORK_COST = {S.FORK_COST})")
    slow = max((p.slowest for p in players), key=lambda s: s[0])
    print(f"the slowest decision: {slow[1].name.lower()} phase of round {slow[2]}, {slow[3]} rollout commands")
    over = sum(t * to_ref > args.budget for t in times)
    print(f"decisions over the budget ({args.budget:g} s on the reference machine): {over} of {len(times)}")
    print("a rollout command by the phase searched, in baseline loops (a decision's mean; "
          "sim.players.search.COMMAND_COST is set a little above the mean):")
    for ph in S.SEARCHED:
        per = sorted(r / base / max(1, c) for p in players for phase, r, c in p.by_phase if phase == ph)
        if per:
            print(f"  {ph.name.lower():9} {len(per):4} decisions: median {statistics.median(per):.4f}, 90% "
                  f"{per[min(len(per) - 1, int(0.9 * len(per)))]:.4f}, mean {statistics.mean(per):.4f} "
                  f"(COMMAND_COST {S.COMMAND_COST[ph]})")
    print(_baseline.line(before, after, [f"a decision's median = {statistics.median(times) / base:.2f} baseline loops"]))


if __name__ == "__main__":
    main()
