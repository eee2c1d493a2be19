"""The exact odds against the battle at the issue's full size: every shipped scenario's first
activation, 20,000 seeded runs each (the test suite runs the same checks with 600 runs for free
play and 60 for missions, tests/odds/test_odds_crosscheck.py, to stay within its time budget).

* **Free play**: `sim stats`'s own machinery plays the script cut after its first step with
  seeds 1..N (the suite's check, its run count raised).
* **Battles with a mission**: the battle is played with the scenario's seed up to its first
  attack once; then each run resolves that activation alone with a fresh dice stream (seeds
  1..N) and stops (the odds concern that one activation; whole battles would take hours). Each
  run starts from the same state: it is a fork of this process at the attack (POSIX only),
  which resolves the command (submit_and_resolve, as the suite's check does) and reports the
  losses through a pipe.
* **Fire Overwatch's snap shooting** (scenarios/shooting_stratagems.toml, step 2; the first
  activation of that battle, which the first attack *command* above is not): no die is rolled
  before it, so the battle played with seeds 1..N to the end of that step is the state the
  odds describe (tests/odds/test_odds_snap_step.py's check, its run count raised).

Each Monte Carlo mean (models destroyed and wounds lost per target, the attacker's hazard
losses) must lie within its 99% interval around the exact expectation. Prints one line per
scenario and the worst |deviation| / tolerance; exit status 1 if any falls outside.
Run: .venv/bin/python tests/bench/crosscheck_odds.py [--runs N] [--only free|missions|snap] [--jobs J]
     [--scenario STEM ...]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "odds"))

import test_odds_crosscheck as X  # noqa: E402  (the suite's own checks, their run counts raised)
import test_odds_snap_step as SN  # noqa: E402
from sim.odds.engine import solve  # noqa: E402
from sim.analysis.locate import first_attack, problem_at  # noqa: E402
from sim.players.resolve import answer_from, submit_and_resolve  # noqa: E402
from sim.rules.dice import Dice  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402


def _forked_run(b, spec, loc, answer, uids, before, seed: int) -> dict:
    """One run of the located activation with Dice(seed), in a child process (the parent's
    battle untouched): {unit id: [models destroyed, wounds lost]}."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: resolve, report, exit without running the parent's clean-up
        code = 1
        try:
            os.close(r)
            b.dice = Dice(seed)
            submit_and_resolve(b, spec, loc.where, loc.command, answer)
            after = X._losses(b, uids)
            out = {u: [sum(1 for x, y in zip(before[u], after[u]) if x > 0 and y == 0),
                       sum(before[u]) - sum(after[u])] for u in uids}
            os.write(w, json.dumps(out).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    return _child_answer(pid, r, f"{spec.path}: the run with seed {seed}")


def _child_answer(pid: int, r: int, what: str):
    """What a forked child wrote to its pipe (JSON), once it has exited; RuntimeError naming
    ``what`` if it failed."""
    chunks = []
    while True:
        data = os.read(r, 65536)
        if not data:
            break
        chunks.append(data)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        raise RuntimeError(f"{what} failed in its process")
    return json.loads(b"".join(chunks))


def _in_workers(jobs: int, work):
    """``work(j)`` (JSON-safe) for j in 0..jobs-1, each in a forked worker, gathered in order
    (one job: here)."""
    if jobs == 1:
        return [work(0)]
    pipes = []
    for j in range(jobs):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(r)
                os.write(w, json.dumps(work(j)).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        pipes.append((pid, r))
    return [_child_answer(pid, r, f"worker {pid}") for pid, r in pipes]


def mission_check(path: Path, runs: int, jobs: int = 1) -> None:
    """The suite's mission check (test_exact_odds_against_the_battle_with_a_mission) with
    ``runs`` runs, each a fork at the attack (``jobs`` workers forking them, seeds dealt out
    in turn; the sums do not depend on it)."""
    spec = load_scenario(path)
    loc = first_attack(spec)
    with loc.battle as b:
        odds = solve(problem_at(loc))
        uids = [t.uid for t in odds.targets] + [odds.attacker]
        before = X._losses(b, uids)
        # (the attack alone: a stratagem its step answers, such as the Explosives used after
        # the unit has shot, 15.05, is declined; its mortal wounds are not the attack's)
        answer = answer_from({k: v for k, v in loc.decisions.items() if k != "stratagem"})

        def work(j):
            part = {u: [0, 0] for u in uids}
            for s in range(1 + j, runs + 1, jobs):
                for u, (d, lost) in _forked_run(b, spec, loc, answer, uids, before, s).items():
                    part[u][0] += d
                    part[u][1] += lost
            return part

        gc.collect()
        gc.freeze()  # (the children then copy fewer pages)
        try:
            parts = _in_workers(jobs, work)
        finally:
            gc.unfreeze()
        sums = {u: [sum(p[u][0] for p in parts), sum(p[u][1] for p in parts)] for u in uids}
    for t in odds.targets:
        X._close(sums[t.uid][0] / runs, t.destroyed, runs, f"{t.uid} models destroyed")
        X._close(sums[t.uid][1] / runs, t.damage, runs, f"{t.uid} wounds lost")
    X._close(sums[odds.attacker][1] / runs, odds.hazard_lost, runs, "hazard wounds lost")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20_000)
    ap.add_argument("--only", choices=("free", "missions", "snap"),
                    help="only the free-play scenarios, the missions (the snap shooting included) or the snap shooting")
    ap.add_argument("--jobs", type=int, default=1, help="mission runs: forked workers (default 1)")
    ap.add_argument("--scenario", action="append", help="only this scenario (its file's stem; repeatable)")
    args = ap.parse_args()
    X.RUNS = SN.RUNS = args.runs
    worst, bad = 0.0, 0
    close = X._close

    def measured(mc, measure, runs, what):
        nonlocal worst
        tol = X.Z99 * measure.sd / runs ** 0.5
        if tol > 0:
            worst = max(worst, abs(mc - measure.mean) / tol)
        close(mc, measure, runs, what)

    X._close = SN._close = measured
    checks = []
    if args.only in (None, "free"):
        checks += [(p, "free play", X.test_exact_odds_against_sim_stats) for p in X._free_play()]
    if args.only in (None, "missions"):
        checks += [(p, "mission", lambda p: mission_check(p, args.runs, args.jobs)) for p in X._missions()]
    if args.only in (None, "missions", "snap"):
        checks.append((SN.PATH, "mission, step 2: Fire Overwatch's snap shooting",
                       lambda p: SN.test_15_09_snap_shooting_odds_against_the_battle_itself()))
    if args.scenario:
        checks = [c for c in checks if c[0].stem in args.scenario]
    for path, kind, check in checks:
        t0 = time.perf_counter()
        try:
            check(path)
            verdict = "within the 99% interval"
        except AssertionError as e:
            bad += 1
            verdict = f"OUTSIDE: {e}"
        print(f"{path.stem} ({kind}): {args.runs} runs, {time.perf_counter() - t0:.1f} s, {verdict}", flush=True)
    print(f"worst |mean - exact| / 99% tolerance: {worst:.2f}; scenarios outside: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
