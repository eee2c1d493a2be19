"""Benchmark: batches on two cores (issue 29 item 4): `sim stats`'s machinery (sim.analysis.stats
iter_runs and Tally) on one process, on two (sim.analysis.workers) and on a 2-worker local Ray.

Two batches:

* small: 4,000 runs of a one-activation scenario's script (scenarios/anti_vehicle.toml, about
  1.5-2 ms a run);
* battles: 40 whole battles of the default table (scenarios/battle_default.toml, both sides the
  default player, five rounds: a few tenths of a second each);
* 2,000-point battles: 40 whole battles of the default table copied twice (40 units, 148
  models: tests/bench/_scaled_table.py, random v random, as the growth benchmark's x2 battle,
  written to a temporary scenario file for the run), and how many of them the machine plays a
  second on one process and on two (issue 29 asks ten a second of such battles).

For each: the wall time, the CPU time (this process and its workers: os.times, the workers
reaped before it is read) and the CPU time per run, and the speed-up of two processes (and of
Ray) over one; the tallies are checked identical (the summary is the same for any backend).
A short batch on two processes (and on Ray) is timed too, so the fixed cost of each backend and
its break-even (from how many runs it is faster than one process: fixed cost / time saved per
run) come out of the same run. Ray: its start-up (ray.init, a local instance) and shutdown are
timed apart, and its batches run on the instance once started, as `sim stats --backend ray`
does when it finds a Ray running.

Every figure is printed beside a baseline measured in the same run, before and after
(tests/bench/_baseline.py). On a machine shared with other work the speed-ups are depressed
(two workers do not get two cores); the CPU time per run says what the work itself cost.

Run (under 3 minutes on the idle 2-core reference machine, Ray included):
    PYTHONPATH=. .venv/bin/python tests/bench/bench_batches.py            [--no-ray] [--quick]
(--quick: a tenth of each batch, for a check that it runs.)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import _baseline  # noqa: E402  (beside this script)
from sim.analysis.stats import Tally, iter_runs, iter_runs_ray  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

X2 = "<the default table copied x2>"   # (written to a temporary file by main)
BATCHES = (  # name, scenario, runs, short runs (the fixed cost)
    ("small: 4,000 runs of anti_vehicle.toml", "scenarios/anti_vehicle.toml", 4000, 40),
    ("battles: 40 whole battles of battle_default.toml", "scenarios/battle_default.toml", 40, 4),
    ("2,000-point battles: 40 of the default table copied x2, random v random", X2, 40, 4),
)


def x2_scenario(folder: str) -> str:
    """The default table copied twice, random v random (tests/bench/_scaled_table.py), as a
    scenario file in ``folder``: its path."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _scaled_table
    path = Path(folder) / "battle_x2.toml"
    path.write_text(_scaled_table.scaled_text(2), encoding="utf-8")
    return str(path)


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(source) -> tuple[float, float, Tally | None]:
    """(wall s, CPU s, the tally) of draining ``source`` (a callable giving the iterator)."""
    c0, t0 = _cpu(), time.perf_counter()
    out = source()
    return time.perf_counter() - t0, _cpu() - c0, out


def tally(spec, it) -> Tally:
    return Tally(spec).add_all(it)


def summary(t: Tally):
    return (t.summary(), t.stopped_early(), t.outcomes())


def fingerprint(t: Tally) -> str:
    import hashlib
    return hashlib.sha256(repr(summary(t)).encode()).hexdigest()[:16]


def one_batch(path: str, runs: int, jobs: int) -> dict:
    """A batch in this process, as `sim stats` runs it after loading the scenario (the first
    battle built cold, as in the command): wall, CPU (with the workers'), the workers' CPU in
    their runs, and the summary's fingerprint."""
    spec = load_scenario(ROOT / path)
    busy: list = []
    wall, cpu, t = timed(lambda: tally(spec, iter_runs(spec, spec.seed, runs, jobs, busy=busy)))
    return {"wall": wall, "cpu": cpu, "busy": busy, "sum": fingerprint(t)}


def fresh(path: str, runs: int, jobs: int) -> dict:
    """one_batch in a fresh interpreter (no cache warmed by an earlier batch of this script)."""
    import json
    import subprocess
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, __file__, "--one", path, str(runs), str(jobs)], env=env,
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout.splitlines()[-1])


def row(label: str, runs: int, wall: float, cpu: float, one_wall: float | None, one_cpu: float | None,
        loop: float) -> str:
    speed = f", {one_wall / wall:.2f}x" if one_wall else ""
    extra = f" ({cpu / one_cpu:.2f}x the CPU of one process)" if one_cpu else ""
    return (f"  {label:<22} {wall:7.2f} s wall{speed}; CPU {cpu:7.2f} s{extra}, "
            f"{cpu / runs * 1e3:8.2f} ms a run = {cpu / runs / loop:.4f} loops a run")


def break_even(fixed: float, per_one: float, per_many: float) -> str:
    if per_many >= per_one:
        return "never (not faster per run)"
    return f"from ~{max(1, round(fixed / (per_one - per_many))):,} runs"


def main() -> None:
    if "--one" in sys.argv:
        import json
        k = sys.argv.index("--one")
        print(json.dumps(one_batch(sys.argv[k + 1], int(sys.argv[k + 2]), int(sys.argv[k + 3]))))
        return
    quick = "--quick" in sys.argv
    use_ray = "--no-ray" not in sys.argv
    if use_ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            use_ray = False
            print("(ray not installed: its rows are left out)")
    before = _baseline.measure()
    loop = before.python_s
    print(f"baseline before: pure-Python loop {before.python_s * 1e3:.1f} ms; load average "
          f"{os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    import tempfile
    folder = tempfile.TemporaryDirectory()
    x2 = x2_scenario(folder.name)
    results = []
    for name, path, runs, short in BATCHES:
        path = x2 if path == X2 else path
        if quick:
            runs, short = max(4, runs // 10), max(2, short // 2)
        one, two = fresh(path, runs, 1), fresh(path, runs, 2)
        s1, s2 = fresh(path, short, 1), fresh(path, short, 2)
        assert two["sum"] == one["sum"], "two processes gave another summary"
        w1, c1, w2, c2 = one["wall"], one["cpu"], two["wall"], two["cpu"]
        print(f"{name} ({runs} runs; each batch in a fresh process, as the command):")
        print(row("1 process", runs, w1, c1, None, None, loop))
        print(row("2 processes", runs, w2, c2, w1, c1, loop))
        b = two["busy"]
        serial = c2 - sum(b) + max(b)  # (all CPU but the workers' runs counted as if serial)
        print(f"  the workers' CPU in their runs: {' / '.join(f'{x:.2f}' for x in b)} s of {c2:.2f} s; one "
              f"process's CPU over (the busier worker's + everything else, as if serial): {c1 / serial:.2f}x "
              f"(the speed-up to expect when each process has a core of its own, round-trip waits aside: an estimate, not a measure)")
        per1, per2 = w1 / runs, (w2 - s2["wall"]) / (runs - short)
        fixed2 = max(0.0, s2["wall"] - short * per2)
        print(f"  2 processes' fixed cost ~{fixed2 * 1e3:.0f} ms ({short} runs: {s2['wall']:.2f} s against "
              f"{s1['wall']:.2f} s in one process): pays {break_even(fixed2, per1, per2)}")
        if path == x2:
            print(f"  the machine plays {runs / w1:.1f} of these battles a second on one process, "
                  f"{runs / w2:.1f} on two ({runs / w2 * loop:.2f} in the pure-Python loop's time; "
                  f"issue 29's mark: 10 a second on the reference machine, whose loop takes 53-63 ms)")
        sys.stdout.flush()
        spec = load_scenario(ROOT / path)
        results.append((name, path, runs, short, spec, (w1, c1, one["sum"])))
    if use_ray:
        ray_rows(results, loop)
    after = _baseline.measure()
    print(_baseline.line(before, after))


def ray_rows(results, loop: float) -> None:
    import contextlib

    from sim.analysis import ray_session
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    c0 = _cpu()
    costs = ray_session.Costs()
    stack = contextlib.ExitStack()
    # (as `sim stats --backend ray` finds or starts one: a local 2-CPU instance of its own here,
    # unless a `ray start` one is running; then kept for every batch, as the command keeps one)
    ray_session.connect(stack, None, 2, costs, contextlib.nullcontext)
    print(costs.line())
    evens = []
    try:
        for name, path, runs, short, spec, (w1, c1, sum1) in results:
            first = spec.seed
            run_costs = ray_session.Costs()
            wr, cr, tr = timed(lambda: tally(spec, iter_runs_ray(spec, first, runs, costs=run_costs)))
            assert fingerprint(tr) == sum1, "Ray gave another summary"
            wrs, _, _ = timed(lambda: tally(spec, iter_runs_ray(spec, first, short)))
            print(f"{name} on Ray ({runs} runs; the first result after {run_costs.first_s:.2f} s):")
            print(row("Ray, 2 workers", runs, wr, cr, w1, None, loop).replace("CPU", "CPU of this process"))
            per1, perr = w1 / runs, (wr - wrs) / (runs - short)
            fixed = max(0.0, wrs - short * perr)
            print(f"  Ray running already: fixed cost ~{fixed * 1e3:.0f} ms a batch, pays "
                  f"{break_even(fixed, per1, perr)}")
            evens.append((name, fixed, per1, perr))
            sys.stdout.flush()
    finally:
        stack.close()
        print(costs.line() + f"; CPU of this process and its reaped children from start-up to "
              f"shutdown {_cpu() - c0:.1f} s (Ray's workers' own CPU is not counted)")
    if costs.how == "started":
        for name, fixed, per1, perr in evens:
            print(f"  {name.split(':')[0]}: a Ray started for the batch (start-up and shutdown too) pays "
                  f"{break_even(fixed + costs.start_s + (costs.stop_s or 0.0), per1, perr)}")


if __name__ == "__main__":
    main()
