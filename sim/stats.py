"""`sim stats`: play a scenario's script with many seeds and summarise what happened to each
unit: the expected outcome of a plan for a list-builder, a check on the dice for a tester.

Every run is an independent battle (its own world and dice stream, seed after seed), so runs
can go side by side, one process per core (``jobs``). Results are gathered in seed order and
summarised from integers, so the summary is the same for any number of jobs.
"""

from __future__ import annotations

import math
import multiprocessing
from dataclasses import dataclass

import esper

from sim.battle import Battle
from sim.components import Roster
from sim.errors import ScriptError
from sim.runner import frozen_heap, play


@dataclass(frozen=True, slots=True)
class RunResult:
    """One seed's outcome: per unit (scenario order) models destroyed and wounds lost; and the
    reason the script stopped early, if the rules refused one of its steps in this run."""

    seed: int
    destroyed: tuple[int, ...]
    wounds_lost: tuple[int, ...]
    stopped: str | None = None


def run_seed(spec, seed: int) -> RunResult:
    """Play the scenario's script with this seed. A step the rules refuse in this run (say, a
    target already destroyed by luckier dice) ends the run there; what happened until then
    counts."""
    with Battle(spec, seed=seed, record_dice=False) as battle, frozen_heap():
        stopped = None
        try:
            play(battle, spec)
        except ScriptError as e:
            stopped = str(e)
        destroyed, lost = [], []
        for us in spec.units:
            r = esper.component_for_entity(battle.units[us.id], Roster)
            destroyed.append(sum(1 for w in r.wounds if w.remaining <= 0))
            lost.append(sum(t.W - max(w.remaining, 0) for t, w in zip(r.full, r.wounds)))
        return RunResult(seed, tuple(destroyed), tuple(lost), stopped)


_SPEC = None  # the scenario, in a worker process


def _init(path: str) -> None:
    global _SPEC
    from sim.scenario.load import load_scenario
    _SPEC = load_scenario(path)


def _run(seed: int) -> RunResult:
    return run_seed(_SPEC, seed)


def run_many(spec, seeds: list[int], jobs: int = 1) -> list[RunResult]:
    """Every seed's RunResult, in the order of ``seeds``. With ``jobs`` > 1 the runs are shared
    among that many processes, which load the scenario from its file (``spec.path``)."""
    if jobs <= 1 or len(seeds) < 2:
        return [run_seed(spec, s) for s in seeds]
    ctx = multiprocessing.get_context("spawn")  # (no state copied in from this process)
    chunk = max(1, len(seeds) // (jobs * 8))
    with ctx.Pool(jobs, initializer=_init, initargs=(spec.path,)) as pool:
        return pool.map(_run, seeds, chunksize=chunk)


@dataclass(frozen=True, slots=True)
class UnitSummary:
    id: str
    name: str
    models: int
    destroyed_mean: float
    destroyed_sd: float
    wiped_out: float  # share of runs in which every model was destroyed
    destroyed_p10: int
    destroyed_p50: int
    destroyed_p90: int
    wounds_lost_mean: float


def _percentile(sorted_values: list[int], q: float) -> int:
    """The nearest-rank percentile (an actual outcome, no interpolation)."""
    k = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[k - 1]


def summarise(spec, results: list[RunResult]) -> list[UnitSummary]:
    """Per unit (scenario order): mean and standard deviation of models destroyed, the share
    of runs that wiped it out, the 10th/50th/90th percentile of models destroyed and the mean
    wounds lost."""
    n = len(results)
    out = []
    for k, us in enumerate(spec.units):
        d = sorted(r.destroyed[k] for r in results)
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
        out.append(UnitSummary(
            us.id, us.name, len(us.models), mean, sd,
            sum(1 for x in d if x == len(us.models)) / n,
            _percentile(d, 0.1), _percentile(d, 0.5), _percentile(d, 0.9),
            sum(r.wounds_lost[k] for r in results) / n))
    return out


def stopped_early(results: list[RunResult]) -> list[tuple[str, int]]:
    """The reasons runs stopped early, most frequent first (ties in first-seen order)."""
    counts: dict[str, int] = {}
    for r in results:
        if r.stopped:
            counts[r.stopped] = counts.get(r.stopped, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])


def format_summary(summary: list[UnitSummary]) -> str:
    head = ("unit", "models", "destroyed: mean +- sd", "p10/p50/p90", "wiped out", "wounds lost")
    rows = [(f"{u.name} ({u.id})", str(u.models), f"{u.destroyed_mean:.2f} +- {u.destroyed_sd:.2f}",
             f"{u.destroyed_p10}/{u.destroyed_p50}/{u.destroyed_p90}", f"{100 * u.wiped_out:.1f}%",
             f"{u.wounds_lost_mean:.2f}") for u in summary]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines)
