"""Benchmark: attack dice resolved per second through the whole ECS path.

10 models, each with a weapon A2 BS3+ S4 AP-1 D1, shoot a unit of 10 models T4 Sv3+ W2
(20 dice per activation), repeated with fresh targets, run as every headless run is (sim.players.runner:
the heap alive when the battle starts is set aside from the cyclic collector). Each activation
(its Shoot command and the EndTurn after it, submitted and resolved) is timed; prints the
median activation's rate for one process (and, for reference, whole battles' rate: a battle's
first activation also sets up what its shooting unit keeps for the next plans, its first shot
changes who can be hidden (13.09), and every cache is cold) beside the raw Python d6 rate
measured in the same run (raw_d6_rates: issue 29 asks the attack path for at least 1/10 of it), then the machine's
throughput with one battle process per core (independent battles run side by side, as a batch
of seeded replays or statistics runs would). The commands are made before the clock starts.
Every mode also prints a baseline measured in the same run, before and after its measurement
(tests/bench/_baseline.py: a fixed pure-Python loop and numpy kernel), and its figures relative
to the pure-Python loop, which reads the same on a faster or slower machine: a rate times the
loop's time (attack dice resolved in the time the loop takes), --split's times divided by it
(microseconds for each millisecond the loop takes).
Run: .venv/bin/python tests/bench/bench_attacks.py  [--jobs N]  (--split: time submit, ticks
and end turn in one process; --stages: where an activation goes, stage by stage, from
tests/bench/attack_stages.py, in wall time (its timers are read a few dozen times an activation:
the CPU clock's own cost would swamp the smaller stages); --lockstep OTHER_TREE [--battles N]: this
tree's activations and another checkout's, battle by battle in turn, from
tests/bench/attack_lockstep.py (before/after a change on a busy machine); --cpu: every figure, the baseline's and the raw d6 rates' too, timed
as the process's CPU time (time.process_time), which a shared machine's waiting for a core does
not inflate; --shapes: the activation of 1 and 10 shooting models of A2, A20 (and one of A40),
and what they say it costs once, per die and per shooting model, in CPU time; --stages --shape
MxA: the stages of M shooting models of A each, 10x2 by default)
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.commands import EndTurn, Selection, Shoot  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.scenario.load import parse_scenario  # noqa: E402

TARGETS = 40  # fresh target units per battle
# what the figures are timed with: wall time; ``--cpu``: the process's CPU time (the baseline's,
# the raw d6 rates' and the activations' alike)
CLOCK = time.perf_counter


def scenario(models: int = 10, attacks: int = 2) -> dict:
    """The benchmark's battle: ``models`` shooting models with a gun of A``attacks`` (10 of A2:
    the 20 dice of an activation; --shapes varies both)."""
    shooters = [[2.0 + 1.5 * i, 2.0] for i in range(models)]
    units = []
    for t in range(TARGETS):
        row, col = divmod(t, 2)
        y = 6.0 + row * 1.9
        x0 = 2.0 + col * 30
        units.append({"id": f"t{t}", "name": "Target", "keywords": ["INFANTRY"], "models": [
            {"count": 10, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1,
             "at": [[x0 + 1.5 * i, y] for i in range(10)]}]})
    return {
        "battle": {"name": "bench", "seed": 1, "board": [60, 90]},
        "weapons": {"gun": {"range": 120, "A": attacks, "BS": 3, "S": 4, "AP": -1, "D": 1}},
        "armies": [
            {"name": "A", "units": [{"id": "shooters", "keywords": ["INFANTRY"], "models": [
                {"count": models, "base_mm": 32, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1,
                 "weapons": ["gun"], "at": shooters}]}]},
            {"name": "B", "units": units},
        ],
    }


def commands(models: int = 10) -> list[Shoot]:
    """One Shoot command per target unit, made before the clock starts: the benchmark times the
    battle resolving its input, not the harness building it (~6 us per command)."""
    return [Shoot("shooters", tuple(Selection(f"shooters/{i + 1}", "gun", f"t{t}") for i in range(models)))
            for t in range(TARGETS)]


def run_once(spec, models: int = 10) -> tuple[list[float], float]:
    """One battle: the seconds each activation took (its Shoot command and the EndTurn after
    it, submitted and resolved), and the whole run's seconds."""
    cmds = commands(models)
    end = EndTurn()
    clock = CLOCK
    times = []
    with Battle(spec, record_dice=True) as b, frozen_heap():  # (as every headless run: sim.players.runner)
        start = clock()
        for cmd in cmds:
            t0 = clock()
            b.run_command(cmd)
            b.run_command(end)
            times.append(clock() - t0)
        return times, clock() - start


def split_once(spec) -> tuple[float, float, float]:
    """Seconds per activation in Battle.submit (validation), in the ticks that resolve it and in
    the EndTurn command, after the first two activations (whose set-up work is one-off)."""
    totals = [0.0, 0.0, 0.0]
    cmds = commands()
    clock = CLOCK
    with Battle(spec, record_dice=True) as b, frozen_heap():
        for t, cmd in enumerate(cmds):
            t0 = clock()
            b.submit(cmd)
            t1 = clock()
            b.step_until_blocked()
            t2 = clock()
            b.run_command(EndTurn())
            t3 = clock()
            if t >= 2:
                for i, dt in enumerate((t1 - t0, t2 - t1, t3 - t2)):
                    totals[i] += dt
    return tuple(x / (TARGETS - 2) for x in totals)


def baseline() -> _baseline.Baseline:
    """The same-run baseline (tests/bench/_baseline.py), timed with CLOCK."""
    if CLOCK is time.perf_counter:
        return _baseline.measure()
    return _baseline.Baseline(_baseline._median_seconds(_baseline.python_loop, _baseline.REPEATS, CLOCK),
                              _baseline._median_seconds(_baseline.numpy_kernel, _baseline.REPEATS, CLOCK))


def main() -> None:
    global CLOCK
    if "--lockstep" in sys.argv:  # this tree and another in turn (tests/bench/attack_lockstep.py)
        import attack_lockstep
        other = sys.argv[sys.argv.index("--lockstep") + 1]
        battles = int(sys.argv[sys.argv.index("--battles") + 1]) if "--battles" in sys.argv else 20
        CLOCK = time.process_time
        before, raw_before = _baseline.measure(), raw_d6_rates()[0]
        lines, rates = attack_lockstep.lockstep([other, str(Path(__file__).resolve().parents[2])], battles)
        raw = (raw_before + raw_d6_rates()[0]) / 2
        print("\n".join(lines))
        print(f"  the raw Python d6 rate (randint(1, 6), CPU time, before and after): {raw:,.0f} a second; "
              f"the attack path {rates[0] / raw:.1%} of it in {other}, {rates[1] / raw:.1%} in this tree "
              f"(issue 29's mark: 10%)")
        print(_baseline.line(before, _baseline.measure()))
        return
    if "--stages" in sys.argv:  # where an activation goes, stage by stage (tests/bench/attack_stages.py)
        import attack_stages
        before = _baseline.measure()
        shape = sys.argv[sys.argv.index("--shape") + 1] if "--shape" in sys.argv else "10x2"
        models, attacks = (int(x) for x in shape.split("x"))
        for text in attack_stages.measure(models=models, attacks=attacks):
            print(text)
        print(_baseline.line(before, _baseline.measure()))
        return
    if "--shapes" in sys.argv:  # what an activation costs once, per shooting model and per die
        CLOCK = time.process_time
        before = baseline()
        lines, once = shapes()
        after = baseline()
        loop_ms = _baseline.mean(before, after).python_s * 1e3
        print("\n".join(lines))
        print(_baseline.line(before, after, [f"the baseline in CPU time, as the activations; once an activation "
                                             f"{once / loop_ms:.2f} us per pure-Python-loop ms"]))
        return
    if "--cpu" in sys.argv:
        CLOCK = time.process_time
        print("every figure below is the process's CPU time (time.process_time), the baseline's too")
    baseline_before = baseline()
    spec = parse_scenario(scenario(), "bench")
    if "--split" in sys.argv:
        runs = [split_once(spec) for _ in range(7)]
        sub, ticks, end = (statistics.median(r[i] for r in runs) * 1e6 for i in range(3))
        print(f"per activation (median of 7 runs): submit {sub:,.0f} us, ticks {ticks:,.0f} us, "
              f"end turn {end:,.0f} us")
        baseline_after = baseline()
        loop_ms = _baseline.mean(baseline_before, baseline_after).python_s * 1e3
        print(_baseline.line(baseline_before, baseline_after, [
            f"per activation, us per pure-Python-loop ms: submit {sub / loop_ms:.2f}, ticks "
            f"{ticks / loop_ms:.2f}, end turn {end / loop_ms:.2f}"]))
        return
    raw_before = raw_d6_rates()
    per_activation, whole = measure(spec, RUNS)
    raw_after = raw_d6_rates()
    raw, engine = ((a + b) / 2 for a, b in zip(raw_before, raw_after))
    rate = DICE / per_activation
    print(f"one process: {rate:,.0f} attack dice per second, the median over "
          f"{RUNS} battles x {TARGETS} activations of 20 dice (events and dice logged): "
          f"{per_activation * 1e6:,.0f} us an activation")
    print(f"  the raw Python d6 rate in the same run (one die at a time in a plain loop, before and "
          f"after): randint(1, 6) {raw:,.0f} dice per second, the attack path {rate / raw:.1%} of it "
          f"(issue 29's mark: 10%); int(random() * 6) + 1, as sim.rules.dice derives a die, "
          f"{engine:,.0f} (the attack path {rate / engine:.1%} of it)")
    print(f"  whole battles, first activations included (a battle's first activation sets up what "
          f"the shooting unit keeps and meets cold caches: ~0.2 ms once): {DICE / whole:,.0f} "
          f"attack dice per second")
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else os.cpu_count() or 1
    per_job = []
    if jobs > 1:
        per_job = parallel_rates(jobs)
        print(f"{jobs} processes side by side: {sum(per_job):,.0f} attack dice per second in all "
              f"({', '.join(f'{r:,.0f}' for r in per_job)}: each process's median)")
    baseline_after = baseline()
    loop_s = _baseline.mean(baseline_before, baseline_after).python_s
    parallel = f", {jobs} processes {sum(per_job) * loop_s:,.0f}" if per_job else ""
    print(_baseline.line(baseline_before, baseline_after, [
        f"attack dice per pure-Python loop (a rate times the loop's time): one process "
        f"{DICE / per_activation * loop_s:,.0f}, whole battles {DICE / whole * loop_s:,.0f}{parallel}"]))


RUNS = 7
DICE = 20  # attack dice per activation
RAW_DICE = 500_000


SHAPES = ((1, 2), (1, 20), (1, 40), (10, 2), (10, 20))  # (shooting models, A of each)
SHAPE_ROUNDS = 9


def shapes() -> tuple[list[str], float]:
    """--shapes: the median activation (CPU time) of each of SHAPES, and what they say an
    activation costs per attack die (one model, 20 -> 40 dice: each die with the wound and save
    rolls and the damage it leads to; both shapes reach every step of the sequence, a pool of 20
    dice failing to wound once in ~3,000), once (one model's 20 dice, less that per die) and per
    shooting model more (1 -> 10 models, the same 20 dice). The 2 dice of one model are the least
    an activation takes (4 in 9 of them wound nothing and stop after the wound roll); the 200
    dice of ten a large pool's rate (every die rolled, a step's dice at once, but the damage of
    the unsaved wounds past the target unit's last model is lost: 05.04). Returns the lines to
    print and the once-an-activation microseconds."""
    specs = {shape: parse_scenario(scenario(*shape), "bench") for shape in SHAPES}
    times: dict[tuple, list[float]] = {shape: [] for shape in SHAPES}
    for _ in range(SHAPE_ROUNDS):  # (the shapes in turn, a battle each a round: a busy minute meets all)
        for shape in SHAPES:
            times[shape] += run_once(specs[shape], shape[0])[0][2:]
    us = {shape: statistics.median(t) * 1e6 for shape, t in times.items()}
    per_die = (us[1, 40] - us[1, 20]) / 20
    once = us[1, 20] - 20 * per_die
    per_model = (us[10, 2] - us[1, 20]) / 9
    raw = raw_d6_rates()[0]
    mark = 20 / (raw / 10) * 1e6  # (issue 29: 20 dice at a tenth of randint's rate)
    lines = [f"an activation by its shape (CPU time, the median of {SHAPE_ROUNDS} battles' activations after their "
             f"first two, the shapes in turn); randint(1, 6) {raw:,.0f} a second:"]
    for (models, attacks), t in us.items():
        rate = models * attacks / t * 1e6
        lines.append(f"  {models:2d} model(s) of A{attacks:<3d} {models * attacks:4d} dice: {t:6.1f} us, "
                     f"{rate:,.0f} dice/s, {rate / raw:.1%} of randint")
    lines.append(f"  each die {per_die:.2f} us (one model, 20 -> 40 dice: its wound and save rolls and damage too); "
                 f"once an activation {once:.1f} us (one model's 20 dice, less those); each shooting model more "
                 f"{per_model:.2f} us (1 -> 10, the same 20 dice)")
    lines.append(f"  The mark, 20 dice at 10% of randint, is an activation of {mark:.1f} us: the once-an-activation "
                 f"cost alone is {once / mark:.1f} times that. (2 dice: 4 in 9 activations wound nothing and stop "
                 f"at the wound roll; 200 dice: the damage past the target unit's last model is lost, 05.04)")
    return lines, once


def raw_d6_rates(n: int = RAW_DICE) -> tuple[float, float]:
    """D6 per second rolled one at a time in a plain loop inside a function, nothing kept, from
    one seeded random.Random: (with ``randint(1, 6)``, the everyday Python die, which issue 29's
    "raw Python d6 rate" reads: its 3.8% at 164,000 dice/s was ~4.3 million/s; the way
    sim.rules.dice.Dice derives a die, ``int(random() * 6) + 1``, three times as fast)."""
    rng = random.Random(1)
    randint, rand = rng.randint, rng.random
    clock = CLOCK
    t0 = clock()
    for _ in range(n):
        randint(1, 6)
    t1 = clock()
    for _ in range(n):
        int(rand() * 6.0) + 1
    t2 = clock()
    return n / (t1 - t0), n / (t2 - t1)


def measure(spec, runs: int, models: int = 10) -> tuple[float, float]:
    """(the median activation's seconds, the median whole battle's seconds per activation)."""
    every, whole = [], []
    for _ in range(runs):
        times, secs = run_once(spec, models)
        every += times
        whole.append(secs / len(times))
    return statistics.median(every), statistics.median(whole)


def _job(args) -> float:
    global CLOCK
    barrier, clock = args
    CLOCK = clock  # (a spawned process: the parent's --cpu)
    spec = parse_scenario(scenario(), "bench")
    run_once(spec)  # warm up (imports, first allocations) before the shared start
    barrier.wait()
    return DICE / measure(spec, RUNS)[0]


def parallel_rates(jobs: int) -> list[float]:
    """Each of ``jobs`` processes runs the same measurement at the same time (started together
    at a barrier); returns each one's rate (its median activation). Their sum is the machine's
    throughput."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(jobs)
        with ctx.Pool(jobs) as pool:
            return pool.map(_job, [(barrier, CLOCK)] * jobs)


if __name__ == "__main__":
    main()
