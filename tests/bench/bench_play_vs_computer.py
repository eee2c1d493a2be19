"""Benchmark: the computer playing a side in the sandbox (sim.sandbox.computer). On the default
whole-battle table (scenarios/battle_default.toml, seed 11: blue has the first turn), the
computer plays blue's first turn with each player kind (default, tactician), as fast as it
goes (each frame's update given a whole second, so the pacing never waits), the person's
decisions answered with their defaults. Per frame that plays a command (update + draw: the
choice, the command resolved, its trail drawn) it prints the median, p95 and max, as wall time
and process CPU time; the UI is blocked for the longest of them. Beside them, a baseline
measured in the same run (tests/bench/_baseline.py) and the figures as ratios to its
pure-Python loop. ``--full-size``: the computer plays both sides of
scenarios/ladder/full_size.toml (20 units a side, deployed by the rules) from the start, its
first 600 commands (the deployment and the first two battle rounds): what a player watching a
2,000-point battle waits for after each command (the panels, the log and the table's outlines
and names made again). Run: .venv/bin/python tests/bench/bench_play_vs_computer.py [--full-size]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import _baseline  # noqa: E402  (beside this script)
import pygame  # noqa: E402

SIZE = (1440, 900)


FULL_SIZE_COMMANDS = 600


def first_turn(kind: str, full_size: bool = False):
    from sim.sandbox.app import Sandbox
    screen = pygame.display.set_mode(SIZE)
    table = ROOT / "scenarios" / ("ladder/full_size.toml" if full_size else "battle_default.toml")
    sb = Sandbox(str(table), screen, ai={0: kind, 1: kind} if full_size else {1: kind}, ai_speed=60,
                 save_dir="/tmp/bench-sandbox-saves")
    sb.update(1 / 60)
    sb.draw()
    sb.start_mission()
    wall, cpu = [], []
    for _ in range(5000):
        n = sum(len(v) for v in sb.ai_notes.values())
        t0, c0 = time.perf_counter(), time.process_time()
        sb.update(1.0)
        sb.draw()
        t1, c1 = time.perf_counter(), time.process_time()
        if sum(len(v) for v in sb.ai_notes.values()) > n:
            wall.append((t1 - t0) * 1000)
            cpu.append((c1 - c0) * 1000)
        req = sb.battle.pending
        ts = sb.battle.turn_state
        if full_size:
            if len(wall) >= FULL_SIZE_COMMANDS or ts.over:
                break
            continue
        if req is not None and req.player not in sb.ai:
            sb.answer(req.default)
        elif ts.active == 0 and ts.chooser == 0 and not sb.resolving:
            break
        elif ts.chooser == 0 and not sb.resolving:
            sb.end_phase()  # (the person passes in the Fight phase's steps)
    sb.battle.close()
    return wall, cpu


def _stats(times):
    times = sorted(times)
    return statistics.median(times), times[max(0, int(0.95 * len(times)) - 1)], times[-1]


def main() -> int:
    before = _baseline.measure()
    pygame.init()
    full = "--full-size" in sys.argv[1:]
    runs = [(kind, *first_turn(kind, full)) for kind in ("default", "tactician")]
    after = _baseline.measure()
    loop_ms = _baseline.mean(before, after).python_s * 1e3
    ratios = []
    for kind, wall, cpu in runs:
        wm, wp, wx = _stats(wall)
        cm, cp, cx = _stats(cpu)
        what = "of both sides at full size" if full else "in blue's first turn"
        print(f"{kind}: {len(wall)} commands {what}; a frame that plays one: wall median "
              f"{wm:.1f} ms, p95 {wp:.1f} ms, max {wx:.1f} ms; CPU median {cm:.1f} ms, p95 {cp:.1f} ms, "
              f"max {cx:.1f} ms (load average {os.getloadavg()[0]:.2f})")
        ratios.append(f"{kind} command frame in pure-Python loops: CPU median {cm / loop_ms:.2f}, "
                      f"p95 {cp / loop_ms:.2f}, max {cx / loop_ms:.2f}")
    print(_baseline.line(before, after, ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
