"""Benchmark: sandbox frame time (update + draw) with a unit being dragged and the visibility
overlay on, on two tables: 200 models among 12 terrain pieces (generated), and the default
whole-battle table (scenarios/battle_default.toml: two armies of ten units, objectives, its
terrain). Median and 95th percentile over 600 frames each, headless (SDL dummy driver), as
wall time and as the process's CPU time (time.process_time: what the frame cost this process,
whatever else the machine is running). Target: median under 16 ms on a 2-core machine.
Beside them it prints a baseline measured in the same run, before and after the frames
(tests/bench/_baseline.py: a fixed pure-Python loop and numpy kernel), and the median and p95
frame divided by the pure-Python loop's time (the mean of before and after): the fraction of a
loop a frame takes, which reads the same on a faster or slower machine.
Run: .venv/bin/python tests/bench/bench_frame.py
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
import pygame  # noqa: E402

from sim.rules.terrain import default_table  # noqa: E402
from sim.scenario.load import parse_scenario  # noqa: E402

FRAMES = int(os.environ.get("BENCH_FRAMES", "600"))
WARMUP = 30
SIZE = (1440, 900)


def scenario():
    terrain = [{"name": a.name, "area": [list(p) for p in a.polygon],
                "features": [{"category": f.category, "polygon": [list(p) for p in f.polygon]}
                             for f in a.features]} for a in default_table()]
    weapons = {"rifle": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1},
               "blade": {"range": "melee", "A": 2, "WS": 3, "S": 4, "AP": 0, "D": 1}}
    armies = []
    for side in range(2):
        units = []
        for u in range(10):
            x0 = 2.0 + (u % 5) * 11.5
            y0 = 2.0 + (u // 5) * 4.0
            at = []
            for j in range(2):
                for i in range(5):
                    y = y0 + 1.5 * j
                    at.append([x0 + 1.5 * i, y if side == 0 else 44.0 - y])
            units.append({"id": f"u{side}{u}", "name": f"Squad {side}-{u}", "keywords": ["INFANTRY"],
                          "models": [{"name": "Trooper", "count": 10, "base_mm": 32, "M": 6, "T": 4,
                                      "Sv": 3, "W": 2, "Ld": 6, "OC": 1, "weapons": ["rifle", "blade"],
                                      "at": at}]})
        armies.append({"name": ["Wardens", "Raiders"][side], "units": units})
    data = {"battle": {"name": "bench: 200 models", "seed": 1, "board": [60, 44]},
            "terrain": terrain, "weapons": weapons, "armies": armies}
    return parse_scenario(data, "<bench>")


def frames(spec, grab: str, label: str) -> tuple[list[float], list[float], str]:
    """Drag the unit of model ``grab`` about for WARMUP + FRAMES frames with the overlay on.
    Returns the wall and CPU times (ms) of the measured frames and a description."""
    screen = pygame.display.set_mode(SIZE)
    from sim.sandbox.app import Sandbox
    sb = Sandbox(spec, screen, save_dir="/tmp")
    n_models = sum(1 for m in sb.scene.models.values() if m.alive)
    n_terrain = len(spec.terrain)
    sb.show_los = True
    uid = sb.scene.models[grab].unit
    sb.select(uid, grab)
    sb.update(1 / 60)
    sb.draw()
    start = tuple(int(v) for v in sb.camera.to_screen(*(sb.scene.models[grab].x, sb.scene.models[grab].y)))
    sb.press = (start, grab, False)
    before = sb.battle.state_hash()
    wall, cpu = [], []
    for f in range(FRAMES + WARMUP):
        a = f / 40.0
        pos = (start[0] + 60 * math.sin(a) + 10, start[1] + 50 + 40 * math.cos(a * 0.7))
        t0, c0 = time.perf_counter(), time.process_time()
        pygame.event.pump()
        sb._drag_motion(pos)  # what a MOUSEMOTION with the button held does
        sb.mouse = pos
        sb.update(1 / 60)
        sb.draw()
        t1, c1 = time.perf_counter(), time.process_time()
        if f >= WARMUP:
            wall.append((t1 - t0) * 1000)
            cpu.append((c1 - c0) * 1000)
    assert sb.drag is not None and sb.drag["ghosts"], "the unit was not being dragged"
    assert sb.battle.state_hash() == before
    what = (f"{label}: {n_models} models, {n_terrain} terrain pieces, visibility overlay on, unit of "
            f"{len(sb.drag['models'])} dragged, {FRAMES} frames at {SIZE[0]}x{SIZE[1]}")
    pygame.image.save(screen, f"/tmp/bench_frame_{label.split()[0]}.png")
    sb.battle.close()
    return wall, cpu, what


def _stats(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.95 * len(times)) - 1], times[-1]


def main() -> int:
    from sim.scenario.load import load_scenario
    baseline_before = _baseline.measure()
    pygame.init()
    runs = [frames(scenario(), "u02/1", "generated table"),
            frames(load_scenario(Path(__file__).resolve().parents[2] / "scenarios" / "battle_default.toml"),
                   "w-squad1/1", "battle_default.toml")]
    baseline_after = _baseline.measure()
    loop_ms = _baseline.mean(baseline_before, baseline_after).python_s * 1e3
    ratios = []
    for wall, cpu, what in runs:
        wm, wp, wx = _stats(wall)
        cm, cp, cx = _stats(cpu)
        print(f"frame time, {what}: wall median {wm:.2f} ms, p95 {wp:.2f} ms, max {wx:.2f} ms; "
              f"process CPU median {cm:.2f} ms, p95 {cp:.2f} ms (cpus: {os.cpu_count()}, "
              f"load average {os.getloadavg()[0]:.2f})")
        ratios.append(f"{what.split(':')[0]} frame in pure-Python loops (a time divided by the loop's): "
                      f"wall median {wm / loop_ms:.3f}, p95 {wp / loop_ms:.3f}; CPU median {cm / loop_ms:.3f}, "
                      f"p95 {cp / loop_ms:.3f}")
    print(_baseline.line(baseline_before, baseline_after, ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
