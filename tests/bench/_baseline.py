"""A baseline measured in the same run as a benchmark, so its figures read as ratios on any
machine (machines differ by about 3x in raw speed).

Two fixed, deterministic workloads, each timed as the median of ``REPEATS`` runs after one
warm-up run, with the cyclic garbage collector paused so the caller's heap does not matter:

* the pure-Python loop (``python_loop``): 150,000 iterations of the kind of work the
  engine's Python does: small objects made and their attributes read, function calls, tuple
  keys, dict get and set, list appends, a generator summed;
* the numpy kernel (``numpy_kernel``): crossing tests of 2,000 segments against 500 edges,
  20 segments at a time so no temporary reaches 128 KiB and malloc's tuning does not matter
  (broadcast float64 arrays, as the visibility index's batch stages),
  and 1,000 rounds of small-array calls (where per-call overhead dominates, as in its
  incremental updates).

When written they took about 50 ms and 10 ms on a busy, shared 2-core machine. Their checksums
never change (the tests check them), so a baseline is the same work on every machine.

A script measures the baseline before and after its own measurement and prints both, so drift
during the run (a shared machine getting busier) shows; its ratios use their mean.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

REPEATS = 5
LOOP_ITERATIONS = 150_000


@dataclass(frozen=True)
class Baseline:
    """Seconds of one pure-Python loop and of one numpy kernel (the median of their repeats)."""

    python_s: float
    numpy_s: float


class _Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y


def _weigh(p: _Point, k: int) -> int:
    return p.x * k + p.y


def python_loop(n: int = LOOP_ITERATIONS) -> int:
    """The fixed pure-Python workload; returns a checksum (the same for the same ``n``)."""
    table: dict[tuple[int, int], int] = {}
    items: list[tuple[int, int]] = []
    total = 0
    for i in range(n):
        p = _Point(i % 97, i % 89)
        key = (p.x, p.y & 7)
        table[key] = table.get(key, 0) + _weigh(p, 3)
        items.append(key)
        if len(items) == 50:
            total += sum(k[0] for k in items)
            items.clear()
    return total + sum(table.values())


SEGMENTS, EDGES, BLOCK, ROUNDS = 2000, 500, 20, 1000


def _kernel_inputs() -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(SEGMENTS, dtype=np.float64)
    j = np.arange(EDGES, dtype=np.float64)
    segments = np.stack([i % 60, (i * 7) % 44, (i * 13) % 60, (i * 3) % 44], axis=1)
    edges = np.stack([(j * 11) % 60, (j * 5) % 44, (j * 11) % 60 + 2.5, (j * 5) % 44 + 1.5], axis=1)
    return segments, edges


_SEGMENTS, _EDGES = _kernel_inputs()


def numpy_kernel() -> int:
    """The fixed numpy workload; returns a checksum (the number of crossings and hits).

    Segments are tested in blocks of BLOCK so that no temporary reaches 128 KiB: the time must
    not depend on how the process's malloc is tuned (sim.rules.visibility.index raises glibc's
    mmap and trim thresholds at import, which makes larger temporaries two to three times
    as fast)."""
    a, b = _SEGMENTS, _EDGES
    qx, qy = b[None, :, 0], b[None, :, 1]
    sx, sy = b[None, :, 2] - qx, b[None, :, 3] - qy
    crossings = 0
    for start in range(0, SEGMENTS, BLOCK):
        seg = a[start:start + BLOCK]
        px, py = seg[:, None, 0], seg[:, None, 1]
        rx, ry = seg[:, None, 2] - px, seg[:, None, 3] - py
        denom = rx * sy - ry * sx
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((qx - px) * sy - (qy - py) * sx) / denom
            u = ((qx - px) * ry - (qy - py) * rx) / denom
        crossings += int(np.count_nonzero((denom != 0) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)))
    hits = 0
    for k in range(ROUNDS):
        row = a[k % SEGMENTS]
        d = np.hypot(b[:8, 0] - row[0], b[:8, 1] - row[1])
        hits += int(np.nonzero(d < 20.5)[0].size)
    return crossings + hits


def _median_seconds(fn: Callable[[], object], repeats: int, clock: Callable[[], float] = time.perf_counter) -> float:
    fn()  # warm-up
    collecting = gc.isenabled()
    gc.disable()
    try:
        times = []
        for _ in range(repeats):
            t0 = clock()
            fn()
            times.append(clock() - t0)
    finally:
        if collecting:
            gc.enable()
    return statistics.median(times)


def python_loop_cpu_seconds(repeats: int = REPEATS) -> float:
    """The pure-Python loop timed as this process's CPU time (time.process_time), the same
    median of ``repeats`` after a warm-up, the collector paused: the baseline of a benchmark
    that times CPU rather than the wall clock, on a machine shared with other work."""
    return _median_seconds(python_loop, repeats, time.process_time)


def measure(repeats: int = REPEATS) -> Baseline:
    """Time both workloads now: the median of ``repeats`` runs each, in seconds."""
    return Baseline(_median_seconds(python_loop, repeats), _median_seconds(numpy_kernel, repeats))


def mean(before: Baseline, after: Baseline) -> Baseline:
    """The baseline a script's ratios use: the mean of the ones measured before and after."""
    return Baseline((before.python_s + after.python_s) / 2, (before.numpy_s + after.numpy_s) / 2)


def line(before: Baseline, after: Baseline, ratios: Iterable[str] = ()) -> str:
    """'baseline (same run, before/after): pure-Python loop 61.2/63.0 ms, numpy kernel
    12.3/12.5 ms' and, after '; ', the script's figures relative to it (already worded)."""
    text = (f"baseline (same run, before/after): pure-Python loop "
            f"{before.python_s * 1e3:.1f}/{after.python_s * 1e3:.1f} ms, numpy kernel "
            f"{before.numpy_s * 1e3:.1f}/{after.numpy_s * 1e3:.1f} ms")
    ratios = list(ratios)
    kernels = sys.modules.get("sim.rules.compiled")  # (which path the figures ran: sim.rules.compiled)
    tail = f"\n{kernels.status()}" if kernels is not None and kernels.KERNELS else ""
    return text + ("; " + "; ".join(ratios) if ratios else "") + tail
