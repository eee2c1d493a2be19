"""Benchmark: the exact odds engine (sim/odds) and `sim stats` batches (issue 16).

* exact distribution of one activation: 10 models A2 BS3+ S4 AP-1 D1 at 10 models T4 Sv3+ W2
  (target under 5 ms); 60 attacks with D6 damage at 10 models W3 with Feel No Pain 5+ in two
  allocation groups (Sv3+ and Sv4+, so the saves are taken lowest first across two save
  profiles; target under 50 ms). Each is sim.odds.engine.solve of a Problem read off the battle
  (reading it is timed apart), the cache cleared before each of 15 repeats: the median, with the
  unsaved-attack and mortal-wound counters (what `sim odds` prints) and without them (what
  sim.odds.engine.for_plan gives a front end);
* many pools (issue 29): the same 60 attacks split into 1, 3 and 6 pools (the shooters' weapons
  differ in S and AP), and 120 attacks in 6 pools with [SUSTAINED HITS 1], [LETHAL HITS],
  [DEVASTATING WOUNDS], [TWIN-LINKED] and [ANTI-INFANTRY 4+] among them, at the same target:
  solve without counters (what the sandbox's preview, `sim matrix` and the players ask; the
  preview's whole half in its worker, sim.odds.engine.solve_preview, timed too) and with them
  (`sim odds`), median of 5, beside the reference path the engine took before
  (sim.odds.engine.solve_reference: a chain per start state, the counters joint; once each, and
  with counters only up to three pools unless --reference-all: it takes seconds there);
* `sim stats` of a one-activation scenario (scenarios/hazard_shooting.toml), peak RSS of the
  whole process at 1,000 and 20,000 runs (--jobs 1; a fresh interpreter each);
* runs/s of the same scenario on 1 and 2 local processes and on a 2-worker local Ray instance
  (started before the clock: its start-up, printed apart, is paid once per batch), and the
  scaling ratios.

* ``--large``: many pools at a large target (issue 29): 100 pools (D6 shots, each weapon its own S
  and AP) at 200 W2 models Sv4+, the hostile case of tests/importers/hostile_cli_args.py
  (`sim odds` of it took ~13 s of CPU and left the counters out), solved once with counters and
  once without, the cache cleared; and the tactician's odds (``--tactician``): every attack the
  tactician weighs in one tactician-v-tactician battle of scenarios/ladder/full_size.toml
  (recorded first, cache hits included as the battle asks them), solved again in order with
  the engine's caches cleared (its kept rolls too), the whole corpus timed.

Every figure is printed beside a baseline measured in the same run, before and after
(tests/bench/_baseline.py), and relative to its pure-Python loop. With ``--cpu`` every time is
the process's CPU time, the baseline's loop too (a shared machine's other work inflates it less).
Run: .venv/bin/python tests/bench/bench_odds.py  [--runs N]  [--no-ray]  [--pools-only]  [--reference-all]
     [--large] [--tactician] [--cpu]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.commands import Selection, Shoot  # noqa: E402
from sim.odds import engine as E  # noqa: E402
from sim.odds.problem import problem_for_command  # noqa: E402
from sim.scenario.load import load_scenario, parse_scenario  # noqa: E402
from sim.analysis.stats import Tally, iter_runs, iter_runs_ray  # noqa: E402
from sim.names import counted  # noqa: E402

REPEATS = 15
STATS_SCENARIO = str(ROOT / "scenarios/hazard_shooting.toml")


def _scenario(case: int) -> dict:
    if case == 1:
        weapon = {"range": 24, "A": 2, "BS": 3, "S": 4, "AP": -1, "D": 1}
        target = {"id": "t", "name": "t", "keywords": ["INFANTRY"], "models": [
            {"count": 10, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1,
             "at": [[5 + 1.5 * i, 20] for i in range(10)]}]}
    else:
        weapon = {"range": 24, "A": 6, "BS": 3, "S": 5, "AP": -1, "D": "D6"}
        target = {"id": "t", "name": "t", "keywords": ["INFANTRY"], "abilities": "Feel No Pain 5+", "models": [
            {"count": 5, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 3, "Ld": 6, "OC": 1,
             "at": [[5 + 1.5 * i, 20] for i in range(5)]},
            {"count": 5, "base_mm": 32, "M": 6, "T": 4, "Sv": 4, "W": 3, "Ld": 6, "OC": 1,
             "at": [[5 + 1.5 * i, 22] for i in range(5)]}]}
    return {"battle": {"name": "bench", "seed": 1, "board": [60, 44]}, "weapons": {"gun": weapon},
            "armies": [{"name": "A", "units": [{"id": "sh", "name": "sh", "keywords": ["INFANTRY"], "models": [
                {"count": 10, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "weapons": ["gun"],
                 "at": [[5 + 1.5 * i, 8] for i in range(10)]}]}]},
                       {"name": "B", "units": [target]}]}


def cold() -> None:
    """The engine's caches emptied: solve's kept answers and, where the engine has them, its kept
    hit and wound rolls (sim.odds.exact._KEPT), so that each repeat works the attack out anew."""
    E.solve.cache_clear()
    kept = getattr(E.EX, "_KEPT", None)
    if kept is not None:
        kept.clear()
        E.EX._KEPT_BYTES[0] = 0


def odds_case(case: int) -> tuple[float, float, float, float]:
    """(seconds to read the Problem, solve with counters, solve without, expected models destroyed)."""
    spec = parse_scenario(_scenario(case), "bench.toml")
    with Battle(spec) as b:
        cmd = Shoot("sh", tuple(Selection(f"sh/{i + 1}", "gun", "t") for i in range(10)))
        reads = []
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            problem = problem_for_command(b, cmd)
            reads.append(time.perf_counter() - t0)
    out = []
    for counters in (True, False):
        times = []
        for _ in range(REPEATS):
            cold()
            t0 = time.perf_counter()
            odds = E.solve(problem, counters)
            times.append(time.perf_counter() - t0)
        assert odds.method == "exact"
        out.append(statistics.median(times))
    return statistics.median(reads), out[0], out[1], odds.targets[0].destroyed.mean


POOL_REPEATS = 5
MIXED = ["", "[SUSTAINED HITS 1]", "[LETHAL HITS]", "[DEVASTATING WOUNDS]", "[TWIN-LINKED]", "[ANTI-INFANTRY 4+]"]


def _pools_scenario(pools: int, per_model: int, mixed: bool) -> dict:
    """Case 2's target; ten shooters, model i carrying weapon i % pools (each weapon its own S and
    AP, and with ``mixed`` its own ability), ``per_model`` attacks each."""
    spec = _scenario(2)
    spec["weapons"] = {f"gun{i}": {"range": 24, "A": per_model, "BS": 3, "S": 5 + i % 3, "AP": -1 - i % 2, "D": "D6",
                                   **({"abilities": MIXED[i % len(MIXED)]} if mixed and MIXED[i % len(MIXED)] else {})}
                       for i in range(pools)}
    shooters = spec["armies"][0]["units"][0]
    row = shooters["models"][0]
    shooters["models"] = [{**row, "count": 1, "weapons": [f"gun{i % pools}"], "at": [row["at"][i]]} for i in range(10)]
    return spec


def pools_case(pools: int, per_model: int, mixed: bool, reference: bool, reference_counters: bool) -> dict:
    """Seconds (median of POOL_REPEATS) of solve without and with counters, of solve_preview, and
    of the reference path (once; None when not run); expected models destroyed; the method."""
    spec = parse_scenario(_pools_scenario(pools, per_model, mixed), "bench.toml")
    with Battle(spec) as b:
        cmd = Shoot("sh", tuple(Selection(f"sh/{i + 1}", f"gun{i % pools}", "t") for i in range(10)))
        problem = problem_for_command(b, cmd)
    assert len(problem.pools) == pools, len(problem.pools)
    out = {}
    for name, fn in (("plain", lambda: E.solve(problem, False)), ("counters", lambda: E.solve(problem, True)),
                     ("preview", lambda: E.solve_preview(problem))):
        times = []
        for _ in range(POOL_REPEATS):
            cold()
            t0 = time.perf_counter()
            got = fn()
            times.append(time.perf_counter() - t0)
        out[name] = statistics.median(times)
        if name == "plain":
            out["method"], out["mean"] = got.method, got.targets[0].destroyed.mean
        elif name == "counters":
            out["counted"] = got.method
    for name, counters, wanted in (("ref plain", False, reference), ("ref counters", True, reference_counters)):
        out[name] = None
        if wanted:
            t0 = time.perf_counter()
            try:
                E.solve_reference(problem, counters)
                out[name] = time.perf_counter() - t0
            except Exception:  # (beyond the budget there: the engine gave the Monte Carlo)
                out[name] = float("nan")
    return out


def _ms(x) -> str:
    return "-" if x is None else "intractable" if x != x else f"{x * 1e3:.1f} ms"


def pools_lines(reference_all: bool) -> tuple[list[str], list[tuple[str, dict]]]:
    cases = [(f"60 attacks D6 in {counted(k, 'pool')}", k, 6, False) for k in (1, 3, 6)]
    cases.append(("120 attacks D6 in 6 pools, mixed abilities", 6, 12, True))
    lines, got = [], []
    for label, k, per, mixed in cases:
        r = pools_case(k, per, mixed, True, reference_all or k <= 3)
        got.append((label, r))
        lines.append(f"{label} at 10 x W3 FNP 5+ (Sv3+, Sv4+): without counters {_ms(r['plain'])} "
                     f"({r['method']}), the preview's solve {_ms(r['preview'])}, with counters {_ms(r['counters'])} "
                     f"({r['counted']}); the reference path before: {_ms(r['ref plain'])} without, "
                     f"{_ms(r['ref counters'])} with; expected models destroyed {r['mean']:.4f}")
    return lines, got


def peak_rss_mb(runs: int) -> float:
    """Peak RSS (MB) of a fresh `sim stats --jobs 1 --quiet` of ``runs`` runs (its own process)."""
    code = ("import resource, sys; from sim.cli import main; "
            f"main(['stats', {STATS_SCENARIO!r}, '--runs', '{runs}', '--jobs', '1', '--quiet']); "
            "print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    kb = int(next(line for line in p.stderr.splitlines() if line.startswith("RSS")).split()[1])
    return kb / 1024


def runs_per_second(runs: int, jobs: int) -> float:
    spec = load_scenario(STATS_SCENARIO)
    t0 = time.perf_counter()
    Tally(spec).add_all(iter_runs(spec, spec.seed, runs, jobs))
    return runs / (time.perf_counter() - t0)


def ray_runs_per_second(runs: int) -> tuple[float, float]:
    """(runs/s on a 2-worker local Ray instance started beforehand, its start-up seconds)."""
    import ray

    import sim
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"py_modules": [os.path.dirname(sim.__file__)]})
    startup = time.perf_counter() - t0
    try:
        spec = load_scenario(STATS_SCENARIO)
        Tally(spec).add_all(iter_runs_ray(spec, 0, 50))  # (the workers warm up: imports, the scenario)
        t0 = time.perf_counter()
        Tally(spec).add_all(iter_runs_ray(spec, spec.seed, runs))
        return runs / (time.perf_counter() - t0), startup
    finally:
        ray.shutdown()


def large_lines() -> list[str]:
    """100 pools at 200 W2 models (the hostile case): with and without counters."""
    sys.path[:0] = [str(ROOT / "tests/importers"), str(ROOT / "tests/support")]
    import hostile_cli_args as HA
    from sim.analysis.locate import problem_at, unit_against
    guns, defenders = HA.BIG["100 pools at 200 W2 models"]
    spec = parse_scenario(__import__("tomllib").loads(HA.scenario(guns, defenders)), "hostile.toml")
    loc = unit_against(spec, "guns", "horde", None, False)
    with loc.battle:
        problem = problem_at(loc)
    out = []
    for counters in (True, False):
        cold()
        t0 = time.perf_counter()
        odds = E.solve(problem, counters)
        took = time.perf_counter() - t0
        note = f"; {odds.notes[0][:60]}..." if odds.notes and "not counted" in odds.notes[0] else ""
        out.append(f"100 pools at 200 W2 models Sv4+ {'with' if counters else 'without'} counters: "
                   f"{took * 1e3:,.0f} ms ({odds.method}{note}); expected models destroyed "
                   f"{odds.targets[0].destroyed.mean:.6f}")
    return out


def tactician_lines() -> list[str]:
    """Every attack the tactician weighs in one full-size battle, solved again from cold caches."""
    import dataclasses
    from sim.players import play_battle
    from sim.players.tactician import TacticianPlayer
    from sim.players.tactician import judge as J
    asked = []
    summary = J.summary  # (what the tactician asks: solve(problem, counters=False)'s means)
    J.summary = lambda problem: asked.append((problem, False)) or summary(problem)
    try:
        spec = load_scenario(str(ROOT / "scenarios/ladder/full_size.toml"))
        spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("default", "default")))
        with Battle(spec, seed=1) as b:
            play_battle(b, spec, players=[TacticianPlayer(s, b, spec) for s in (0, 1)])
    finally:
        J.summary = summary
    cold()
    t0 = time.perf_counter()
    for problem, counters in asked:
        E.solve(problem, counters)
    took = time.perf_counter() - t0
    return [f"the tactician's odds in one tactician-v-tactician battle of full_size.toml (seed 1): {len(asked)} "
            f"asked ({E.solve.cache_info().misses} solved), {took * 1e3:,.0f} ms from cold caches, "
            f"{took / max(1, E.solve.cache_info().misses) * 1e3:.2f} ms a problem solved"]


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 4000
    if "--cpu" in sys.argv:
        time.perf_counter = time.process_time  # (every figure below, this script's own clock)
    if "--large" in sys.argv or "--tactician" in sys.argv:
        loop_before = _baseline.python_loop_cpu_seconds() if "--cpu" in sys.argv else None
        before = _baseline.measure()
        lines = large_lines() if "--large" in sys.argv else []
        lines += tactician_lines() if "--tactician" in sys.argv else []
        for line in lines:
            print(line, flush=True)
        after = _baseline.measure()
        extra = []
        if loop_before is not None:
            loop_after = _baseline.python_loop_cpu_seconds()
            extra.append(f"the baseline's loop in CPU time before/after: {loop_before * 1e3:.1f}/"
                         f"{loop_after * 1e3:.1f} ms")
        print(_baseline.line(before, after, extra))
        return
    loop_before = _baseline.python_loop_cpu_seconds() if "--cpu" in sys.argv else None
    before = _baseline.measure()
    lines, pooled = pools_lines("--reference-all" in sys.argv)
    for line in lines:
        print(line, flush=True)
    if "--pools-only" in sys.argv:
        after = _baseline.measure()
        loop_ms = _baseline.mean(before, after).python_s * 1e3
        extra = []
        if loop_before is not None:  # (the ratios then in the loop's CPU time, as the figures are)
            loop_after = _baseline.python_loop_cpu_seconds()
            loop_ms = (loop_before + loop_after) / 2 * 1e3
            extra.append(f"the baseline's loop in CPU time before/after: {loop_before * 1e3:.1f}/"
                         f"{loop_after * 1e3:.1f} ms (the ratios use their mean)")
        print(_baseline.line(before, after, extra + [_pool_ratios(pooled, loop_ms)]))
        return
    r1, c1, n1, m1 = odds_case(1)
    print(f"exact odds, 10 x A2 BS3+ S4 AP-1 D1 at 10 x T4 Sv3+ W2 (median of {REPEATS}): "
          f"{c1 * 1e3:.2f} ms with counters, {n1 * 1e3:.2f} ms without (target < 5 ms); reading the "
          f"problem off the battle {r1 * 1e3:.2f} ms; expected models destroyed {m1:.4f}")
    r2, c2, n2, m2 = odds_case(2)
    print(f"exact odds, 60 attacks D6 at 10 x W3 FNP 5+ in two groups (Sv3+, Sv4+): {c2 * 1e3:.2f} ms with "
          f"counters, {n2 * 1e3:.2f} ms without (target < 50 ms); reading {r2 * 1e3:.2f} ms; expected models "
          f"destroyed {m2:.4f}")
    small, large = peak_rss_mb(1000), peak_rss_mb(20000)
    print(f"sim stats {Path(STATS_SCENARIO).name} --jobs 1 peak RSS: {small:.1f} MB at 1,000 runs, "
          f"{large:.1f} MB at 20,000 ({large / small:.3f}x; target within 1.2x)")
    one, two = runs_per_second(runs, 1), runs_per_second(runs, 2)
    line = f"runs/s ({runs:,} runs): 1 process {one:,.0f}, 2 processes {two:,.0f} ({two / one:.2f}x)"
    ray_rate = None
    if "--no-ray" not in sys.argv:
        try:
            ray_rate, startup = ray_runs_per_second(runs)
            line += f", 2-worker local Ray {ray_rate:,.0f} ({ray_rate / one:.2f}x; its start-up {startup:.1f} s)"
        except ImportError:
            line += ", Ray not installed (pip install -e .[cluster])"
    print(line)
    after = _baseline.measure()
    loop_ms = _baseline.mean(before, after).python_s * 1e3
    ratios = [f"odds ms per pure-Python-loop ms: case 1 {c1 * 1e3 / loop_ms:.3f}, case 2 {c2 * 1e3 / loop_ms:.3f} "
              f"(without counters {n2 * 1e3 / loop_ms:.3f})", _pool_ratios(pooled, loop_ms),
              f"runs per pure-Python loop: 1 process {one * loop_ms / 1e3:.1f}, 2 processes {two * loop_ms / 1e3:.1f}"
              + (f", Ray {ray_rate * loop_ms / 1e3:.1f}" if ray_rate else "")]
    print(_baseline.line(before, after, ratios))


def _pool_ratios(pooled, loop_ms: float) -> str:
    """The pools' figures in pure-Python loops (the issue's 50 ms on the reference machine is
    about 0.9 of its ~55 ms loop)."""
    def loops(x):
        return "-" if x is None else "intractable" if x != x else f"{x * 1e3 / loop_ms:.3f}"
    return "pools in loops (target < 0.9 without counters): " + ", ".join(
        f"{label}: {loops(r['plain'])} / preview {loops(r['preview'])} / counters {loops(r['counters'])} "
        f"(before {loops(r['ref plain'])} / {loops(r['ref counters'])})" for label, r in pooled)


if __name__ == "__main__":
    main()
