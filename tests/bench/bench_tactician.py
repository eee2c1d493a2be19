"""Benchmark: the tactician's decisions, in whole battles on the default table against the
default player, one core (issue 27: each decision under ~50 ms on the reference machine); with
``--opponent tactician``, tactician v tactician battles (issue 27: at least 2 a second on the
reference machine, about 9 pure-Python loops a battle).

Plays ``--battles`` battles of scenarios/battle_default.toml, the tactician on one side (red
on odd seeds, blue on even ones) and the default player on the other, timing each of the
tactician's ``choose`` calls (the phase it was made in), then the default v default battles of
the same seeds. Prints the distribution of the decision times per phase (median, p90, max),
the battles per second of each pairing, the tactician's results, and beside them a baseline
measured in the same run, before and after (tests/bench/_baseline.py), with the median and p90
decision in units of the pure-Python loop (which reads the same on any machine).
With ``--scenario`` another battle (say scenarios/ladder/full_size.toml, 20 units a side, where
the first Shooting choice of a phase weighs every unit's targets: the slowest choices).
With ``--cpu`` every time is the process's CPU time, the baseline's loop timed the same way
(a shared machine's other work then inflates the figures far less than the wall clock's).
Run: .venv/bin/python tests/bench/bench_tactician.py [--battles N] [--opponent tactician] [--scenario PATH] [--cpu] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.phases.state import Phase  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.default import DefaultPlayer  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLOCK = [time.perf_counter]  # (time.process_time with --cpu)
SCENARIO = ROOT / "scenarios/battle_default.toml"


class Timed(TacticianPlayer):
    """The tactician, its ``choose`` calls timed (per phase)."""

    times: dict = {}

    def choose(self, battle):
        ts = battle.turn_state
        what = "pre-battle" if ts.pre_battle is not None else Phase(ts.phase).name.lower()
        t0 = CLOCK[0]()
        c = super().choose(battle)
        Timed.times.setdefault(what, []).append(CLOCK[0]() - t0)
        return c


def one_battle(spec, seed: int, tactician: bool, opponent: str = "default") -> tuple[float, str | None]:
    t0 = CLOCK[0]()
    with Battle(spec, seed=seed) as b, frozen_heap():
        side = seed % 2  # (red on odd seeds... as PLAYER's order: 0 red, 1 blue)
        players = [DefaultPlayer(s, b, spec) for s in (0, 1)]
        if tactician:
            players[side] = Timed(side, b, spec)
            if opponent == "tactician":
                players[1 - side] = Timed(1 - side, b, spec)
        play_battle(b, spec, players=players)
        result = b.turn_state.result
    won = None
    if tactician:
        won = "win" if result == ("red", "blue")[side] else ("draw" if result == "draw" else "loss")
    return CLOCK[0]() - t0, won


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=6)
    ap.add_argument("--opponent", choices=("default", "tactician"), default="default",
                    help="the tactician's opponent (default: the default player)")
    ap.add_argument("--profile", action="store_true", help="also profile one battle")
    ap.add_argument("--scenario", default=str(SCENARIO), help="the battle (default: scenarios/battle_default.toml)")
    ap.add_argument("--cpu", action="store_true", help="CPU time (the process's), the baseline's loop too")
    args = ap.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    spec = load_scenario(args.scenario)
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("default", "default")))
    before = _baseline.measure()
    cpu_before = _baseline.python_loop_cpu_seconds() if args.cpu else None
    one_battle(spec, 0, True, args.opponent)  # warm-up (imports, caches)
    Timed.times.clear()
    seeds = range(1, args.battles + 1)
    t0 = CLOCK[0]()
    results = [one_battle(spec, s, True, args.opponent) for s in seeds]
    tac_wall = CLOCK[0]() - t0
    t0 = CLOCK[0]()
    for s in seeds:
        one_battle(spec, s, False)
    def_wall = CLOCK[0]() - t0
    cpu_after = _baseline.python_loop_cpu_seconds() if args.cpu else None
    after = _baseline.measure()
    loop_s = _baseline.mean(before, after).python_s
    if args.cpu:
        loop_s = (cpu_before + cpu_after) / 2
        print(f"CPU time throughout; the baseline's loop in CPU time, before/after: {cpu_before * 1e3:.1f}/"
              f"{cpu_after * 1e3:.1f} ms (the ratios below use their mean)")
    every = [t for v in Timed.times.values() for t in v]
    print(f"{args.battles} battles, tactician v {args.opponent} (sides alternating), one core: "
          f"{args.battles / tac_wall:.2f} battles/s; default v default, same seeds: {args.battles / def_wall:.2f} "
          f"battles/s; tactician: {sum(r == 'win' for _t, r in results)} wins, "
          f"{sum(r == 'draw' for _t, r in results)} draws, {sum(r == 'loss' for _t, r in results)} losses")
    print(f"tactician decisions: {len(every)}, median {statistics.median(every) * 1e3:.1f} ms, "
          f"p90 {pct(every, 0.9) * 1e3:.1f} ms, p99 {pct(every, 0.99) * 1e3:.1f} ms, max {max(every) * 1e3:.1f} ms")
    for what, v in sorted(Timed.times.items()):
        print(f"  {what:<10} {len(v):5d} decisions: median {statistics.median(v) * 1e3:6.1f} ms, "
              f"p90 {pct(v, 0.9) * 1e3:6.1f} ms, max {max(v) * 1e3:6.1f} ms, total {sum(v):6.2f} s")
    battle = statistics.median(t for t, _r in results)
    print(_baseline.line(before, after, [
        f"median decision {statistics.median(every) / loop_s:.2f} loops, p90 {pct(every, 0.9) / loop_s:.2f} loops, "
        f"p99 {pct(every, 0.99) / loop_s:.2f} loops, max {max(every) / loop_s:.2f} loops (target: 50 ms on the "
        f"reference machine, about 0.9 loops)",
        f"median battle {battle:.2f} s = {battle / loop_s:.1f} loops (tactician v {args.opponent}; the target for "
        f"tactician v tactician: 2 a second on the reference machine, about 9 loops)"]))
    if args.profile:
        pr = cProfile.Profile()
        pr.enable()
        one_battle(spec, 999, True, args.opponent)
        pr.disable()
        out = io.StringIO()
        pstats.Stats(pr, stream=out).sort_stats("cumtime").print_stats(30)
        print(out.getvalue())


if __name__ == "__main__":
    main()
