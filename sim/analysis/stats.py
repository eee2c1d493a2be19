"""`sim stats`: play a scenario's script with many seeds and summarise what happened to each
unit: the expected outcome of a plan for a list-builder, a check on the dice for a tester.

Every run is an independent battle (its own world and dice stream, seed after seed), so runs
can go side by side, one process per core (``jobs``). Seeds are handed out lazily (no list of
them is made) and each result is added to a running tally (``Tally``) in seed order as it
comes: memory does not grow with the number of runs. The worker processes are
sim.analysis.workers's (a worker that dies is reported, not waited for). The tally keeps integers only (counts,
sums, sums of squares, a histogram per unit), and the summary divides them once, correctly
rounded: the same for any number of jobs and on every Python version (a float ``sum()`` is
compensated from 3.12 on, so summing floats would differ in the last digits).
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import esper

from sim.battle import Battle
from sim.components import Roster
from sim.errors import ScriptError
from sim.rules.turn import PLAYER
from sim.players.runner import frozen_heap, play
from sim.analysis.workers import WorkerDied, ordered_runs


@dataclass(frozen=True, slots=True)
class RunResult:
    """One seed's outcome: per unit (scenario order) models destroyed and wounds lost; and the
    reason the script stopped early, if the rules refused one of its steps in this run."""

    seed: int
    destroyed: tuple[int, ...]
    wounds_lost: tuple[int, ...]
    stopped: str | None = None
    vp: tuple[int, int] | None = None  # a battle with a mission: each player's VP (26)
    result: str | None = None  # "red", "blue" or "draw"


def ready_start(spec) -> Battle | None:
    """The battle every run of ``spec`` starts from, built once: the scenario's world, ticked once
    so that its systems have caught up with it (the line-of-sight matrix, a third to a half of
    a small scenario's run). run_seed forks it with each seed (Battle.fork: a fresh dice stream
    of that seed; the rest copied or shared) instead of building the battle again: the same
    battle, event for event (tests/analysis/test_stats_start.py plays every shipped scenario
    both ways). None where that first tick did anything a run would see (rolled a die, emitted
    an event, left a command or a decision pending): each run is then built from scratch.
    close() it when done."""
    battle = Battle(spec, seed=spec.seed, record_dice=False)
    try:
        battle.tick()
        if battle.dice.count or battle.events or battle.busy or battle.pending is not None:
            battle.close()
            return None
    except BaseException:
        battle.close()
        raise
    return battle


def run_seed(spec, seed: int, start: Battle | None = None) -> RunResult:
    """Play the scenario's script with this seed. A step the rules refuse in this run (say, a
    target already destroyed by luckier dice) ends the run there; what happened until then
    counts. ``start``: ready_start's battle of this scenario, forked for the run (else the
    battle is built)."""
    battle = Battle(spec, seed=seed, record_dice=False) if start is None else start.fork(seed=seed)
    with battle, frozen_heap():
        battle._enter()
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
        ts = battle.turn_state
        if ts is None or not ts.over:
            return RunResult(seed, tuple(destroyed), tuple(lost), stopped)
        return RunResult(seed, tuple(destroyed), tuple(lost), stopped, (ts.vp[0], ts.vp[1]), ts.result)


@contextlib.contextmanager
def started(spec) -> Iterator[Battle | None]:
    """ready_start's battle for a block of runs, closed at its end."""
    start = ready_start(spec)
    try:
        yield start
    finally:
        if start is not None:
            start.close()


MAX_RUNS = 1_000_000_000  # `sim stats --runs` at most (more would take weeks)

_SPEC = None  # the scenario, in a worker process
_START: Battle | None | bool = False  # its ready_start battle there (False: not built yet)


def _init(spec) -> None:
    """A worker's start (sim.analysis.workers, which sets its signals first): the scenario the
    parent loaded and checked, sent whole (as the Ray backend sends it), never read again from
    its file, which may have changed since."""
    global _SPEC, _START
    if spec is not _SPEC:  # (a forked worker keeps the start battle its parent's _warm built)
        _done()
        _SPEC = spec


def with_players(spec, players):
    """The scenario with its mission played by ``players`` (None: as the scenario says)."""
    import dataclasses
    if players is None or spec.mission is None:
        return spec
    return dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=tuple(players)))


def _run(seed: int) -> RunResult:
    global _START
    if _START is False:  # (a spawned worker: _warm ran in no process it came from)
        _START = ready_start(_SPEC)
    return run_seed(_SPEC, seed, _START)


def _warm() -> None:
    """What a process does once before its first run (sim.analysis.workers forks the workers
    after it): the imports and tables the first Battle of the scenario builds, and the battle
    every run starts from (ready_start), which the workers share."""
    global _START
    _done()
    _START = ready_start(_SPEC)


def _done() -> None:
    """The end of a batch (sim.analysis.workers, in the process that ran _warm): the start
    battle closed."""
    global _START
    if _START:
        _START.close()
    _START = False


def _pack(results: list[RunResult]) -> tuple:
    """A chunk's results as a worker sends them: plain tuples of ints and strings, without the
    seeds (the chunk's range says them), about half the bytes of pickled RunResults and a
    fiftieth of the time to pickle and unpickle."""
    return tuple((r.destroyed, r.wounds_lost, r.stopped, r.vp, r.result) for r in results)


def _unpack(lo: int, rows: tuple) -> Iterator[RunResult]:
    """The RunResults of a chunk sent by _pack, its first seed ``lo``."""
    for k, (destroyed, lost, stopped, vp, result) in enumerate(rows):
        yield RunResult(lo + k, destroyed, lost, stopped, vp, result)


def iter_runs(spec, first: int, runs: int, jobs: int = 1, chunk: int | None = None,
              busy: list | None = None) -> Iterator[RunResult]:
    """Every RunResult of the seeds ``first`` .. ``first + runs - 1``, in seed order, as they
    come. With ``jobs`` > 1 the runs are shared among that many processes, which are sent the
    scenario itself (_init) and take the seeds a few at a time from a range
    (never a list); the workers are ended when the iteration ends, early or not (close it, or
    let an exception through, to stop them); one that dies raises workers.WorkerDied. The
    chunks are sized by the time a run takes (workers.Chunker: a first chunk of one seed, then
    about 0.3 s of work each); ``chunk`` fixes their size instead; ``busy``: workers.ordered_runs's."""
    if jobs <= 1 or runs < 2:
        with started(spec) as start:
            for s in range(first, first + runs):
                yield run_seed(spec, s, start)
        return
    yield from ordered_runs(__name__, (spec,), first, runs, jobs, chunk, busy=busy)


def _ray_chunk(spec, lo: int, n: int) -> tuple:
    """A Ray task: the RunResults of the seeds lo .. lo + n - 1 (the scenario shipped with it),
    as _pack sends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with started(spec) as start:
        return _pack([run_seed(spec, s, start) for s in range(lo, lo + n)])


RAY_CHUNK = 64  # seeds per Ray task, at most
RAY_IN_FLIGHT = 4  # tasks in flight per worker: results come back in order without a backlog


def iter_runs_ray(spec, first: int, runs: int, address: str | None = None, workers: int | None = None,
                  chunk: int | None = None, task=None, costs=None) -> Iterator[RunResult]:
    """iter_runs on Ray: the seeds in chunks, one task each, a few per worker in flight, their
    results yielded in seed order (so the tally, and the summary, are those of ``jobs`` = 1).
    Which Ray (sim.analysis.ray_session): this process's if it has one, else ``address``
    (HOST:PORT, or "auto": an existing cluster, which needs this package only as the shipped
    code, a runtime_env module), else a Ray started on this machine by `ray start`, all left
    running; else a local Ray of our own with ``workers`` CPUs (default: every core), shut down
    at the end. ``costs`` (a ray_session.Costs) is told what its start-up, first result and
    shutdown took. The scenario goes to the workers once, through the object store (their files
    are not read). A local Ray's session folder is one of ours, removed at the end, and a
    watchdog ends its processes and removes the folder if this process is killed
    (sim.analysis.reaper). ``task``: the function a Ray task runs, ``task(spec, lo, n)`` -> the
    results of lo .. lo + n - 1 (default ``_ray_chunk``, its results _pack-ed; `sim ladder`
    sends its own, games for seeds, as they are)."""
    import time

    from sim.analysis import ray_session
    costs = ray_session.Costs() if costs is None else costs
    unpack = _unpack if task is None else None
    with contextlib.ExitStack() as stack:
        ray_session.connect(stack, address, workers, costs, _ray_signals)
        t1 = time.perf_counter()
        with _ray_signals() as check:
            for r in _ray_runs(spec, first, runs, chunk, check, task or _ray_chunk, unpack,
                               cancel=costs.how != "started"):
                if costs.first_s is None:
                    costs.first_s = time.perf_counter() - t1
                yield r


@contextlib.contextmanager
def _ray_signals():
    """SIGINT and SIGTERM answered by the handlers already there (sim.cli's: KeyboardInterrupt,
    Terminated; one line, 130 or 143) while Ray runs in this process, which gets in their way:

    - ray.init sets a SIGTERM handler of its own (sys.exit(15)) and its core worker a C++ one
      that dumps a stack trace and aborts (absl's failure signal handler: kept out by Ray's
      RAY_DISABLE_FAILURE_SIGNAL_HANDLER, for this process and the ones ray.init starts);
    - an exception raised by a handler inside Ray's compiled code (ray.get checks for signals)
      comes out as another (a SystemError) or not at all;
    - an exception raised by a handler wherever the signal lands can leave a lock held: in
      ray.init, while it starts Ray's processes, a KeyboardInterrupt raised inside logging's
      after-fork hook left logging's lock taken, and the run hung at the next log line of
      another thread (the suite's test of Ctrl-C while Ray starts, timed out once).

    So the handlers are relayed: the first signal is noted, and whatever comes out of the block
    after it (Ray's SystemExit(15), a SystemError) is replaced by what the handler raises, from
    here. The handler is not called when the signal comes, only by ``check()`` (yielded), which
    the block calls between Ray's calls (and after ray.init returns); a second signal is
    answered at once, wherever it lands (a Ray that does not start can still be stopped). The
    handlers are put back at the end (unless a signal was answered: sim.cli's then ignores the
    next, while cleaning up)."""
    import os
    sigs = (signal.SIGINT, signal.SIGTERM)
    main = threading.current_thread() is threading.main_thread()
    before = {s: signal.getsignal(s) for s in sigs} if main else {}
    seen: list[int] = []

    def answer():
        for s, h in before.items():
            signal.signal(s, h)
        before[seen[0]](seen[0], None)  # (raises, as the signal's own answer)

    def note(signum, frame):
        if seen:
            answer()   # (a second signal)
        else:
            seen.append(signum)

    def check():
        if seen:
            answer()

    for s, h in before.items():
        if callable(h):
            signal.signal(s, note)
    env = os.environ.get("RAY_DISABLE_FAILURE_SIGNAL_HANDLER")
    os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    try:
        yield check
    except BaseException as e:
        if not seen and isinstance(e, SystemExit) and e.code == signal.SIGTERM and callable(
                before.get(signal.SIGTERM)):  # (Ray's own handler answered a SIGTERM)
            seen.append(signal.SIGTERM)
        if seen and callable(before.get(seen[0])):
            answer()
        raise
    finally:
        if env is None:
            os.environ.pop("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", None)
        else:
            os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = env
        if not seen:
            for s, h in before.items():
                if h is not None:
                    signal.signal(s, h)


def _ray_runs(spec, first: int, runs: int, chunk: int | None, check, fn=_ray_chunk,
             unpack=None, cancel: bool = True) -> Iterator[RunResult]:
    """iter_runs_ray's work on a Ray already running, ``check()`` called every fifth of a second
    while it waits (a signal noted is answered then: _ray_signals). A task whose worker died
    (killed, out of memory) raises workers.WorkerDied: the runs from its chunk on are lost.
    Stopped early, it cancels the tasks in flight (``cancel``) on a Ray it joined; a Ray of its
    own is shut down with them instead: force-cancelling a task whose reply is on its way made
    Ray's core abort the process (its check "Tried to complete task that was not pending"),
    about one SIGTERM in seven while tasks ran."""
    import ray
    from ray.exceptions import ActorDiedError, NodeDiedError, WorkerCrashedError
    pending: list = []  # the tasks in flight, in seed order
    starts: list = []  # their first seeds
    yielded = 0
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = chunk or max(1, min(runs // (cpus * 8), RAY_CHUNK))
        task = ray.remote(fn).options(num_cpus=1, max_retries=0)
        ref = ray.put(spec)
        nxt = iter(range(first, first + runs, size))
        for lo in nxt:
            pending.append(task.remote(ref, lo, min(size, first + runs - lo)))
            starts.append(lo)
            if len(pending) >= cpus * RAY_IN_FLIGHT:
                break
        while pending:
            while not ray.wait(pending[:1], timeout=0.2)[0]:
                check()
            check()
            try:
                done = ray.get(pending.pop(0))
            except (WorkerCrashedError, NodeDiedError, ActorDiedError) as e:
                raise WorkerDied(type(e).__name__, runs - yielded) from None
            here = starts.pop(0)
            lo = next(nxt, None)
            if lo is not None:
                pending.append(task.remote(ref, lo, min(size, first + runs - lo)))
                starts.append(lo)
            yielded += len(done)
            yield from (unpack(here, done) if unpack is not None else done)
    except BaseException:
        if cancel:
            for r in pending:
                ray.cancel(r, force=True)
        raise


def run_many(spec, seeds: list[int], jobs: int = 1) -> list[RunResult]:
    """Every seed's RunResult, in the order of ``seeds`` (consecutive seeds when ``jobs`` > 1,
    as iter_runs takes them)."""
    if jobs <= 1 or len(seeds) < 2:
        return [run_seed(spec, s) for s in seeds]
    assert list(seeds) == list(range(seeds[0], seeds[0] + len(seeds)))
    return list(iter_runs(spec, seeds[0], len(seeds), jobs))


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
    wounds_lost_sd: float = 0.0


class Tally:
    """A running summary of runs, added one at a time (``add``), in integers only: per unit a
    histogram of models destroyed (its percentiles), their sum and sum of squares (mean and
    standard deviation), the runs that wiped it out and the wounds lost; and the reasons runs
    stopped early, counted in first-seen order. Its memory does not depend on the runs."""

    def __init__(self, spec):
        self.spec = spec
        self.n = 0
        self.first_seed: int | None = None
        self.last_seed: int | None = None
        k = len(spec.units)
        self.hist = [[0] * (len(us.models) + 1) for us in spec.units]
        self.destroyed = [0] * k
        self.destroyed_sq = [0] * k
        self.wiped = [0] * k
        self.wounds_lost = [0] * k
        self.wounds_lost_sq = [0] * k
        self.stops: dict[str, int] = {}
        # battles with a mission (26): wins per result and VP sums (and squares) per player
        self.results = {**dict.fromkeys(PLAYER, 0), "draw": 0}
        self.vp = [0, 0]
        self.vp_sq = [0, 0]

    def add(self, r: RunResult) -> None:
        if self.first_seed is None:
            self.first_seed = r.seed
        self.last_seed = r.seed
        self.n += 1
        for k, us in enumerate(self.spec.units):
            d = r.destroyed[k]
            self.hist[k][d] += 1
            self.destroyed[k] += d
            self.destroyed_sq[k] += d * d
            if d == len(us.models):
                self.wiped[k] += 1
            w = r.wounds_lost[k]
            self.wounds_lost[k] += w
            self.wounds_lost_sq[k] += w * w
        if r.stopped:
            self.stops[r.stopped] = self.stops.get(r.stopped, 0) + 1
        if r.result is not None:
            self.results[r.result] += 1
            for p in (0, 1):
                self.vp[p] += r.vp[p]
                self.vp_sq[p] += r.vp[p] * r.vp[p]

    def outcomes(self) -> dict | None:
        """Battles with a mission: the share of runs each side won or drew, and each side's
        VP mean and standard deviation (integers divided once, as summary())."""
        played = sum(self.results.values())
        if not played:
            return None
        n = played
        out = {k: v / n for k, v in self.results.items()}
        for p, side in enumerate(PLAYER):
            s, sq = self.vp[p], self.vp_sq[p]
            out[f"{side}_vp_mean"] = s / n
            out[f"{side}_vp_sd"] = math.sqrt((n * sq - s * s) / (n * (n - 1))) if n > 1 else 0.0
        out["battles"] = n
        return out

    def add_all(self, results: Iterable[RunResult]) -> Tally:
        for r in results:
            self.add(r)
        return self

    def _percentile(self, k: int, q: float) -> int:
        """The nearest-rank percentile of models destroyed (an actual outcome)."""
        rank = max(1, math.ceil(q * self.n))
        seen = 0
        for value, count in enumerate(self.hist[k]):
            seen += count
            if seen >= rank:
                return value
        raise ValueError("no runs")

    def summary(self) -> list[UnitSummary]:
        """Per unit (scenario order): mean and standard deviation of models destroyed, the
        share of runs that wiped it out, the 10th/50th/90th percentile of models destroyed and
        the mean and standard deviation of wounds lost. Each is one division of integers (correctly rounded) and the
        standard deviation the square root of one (IEEE: correctly rounded too)."""
        n = self.n
        out = []
        for k, us in enumerate(self.spec.units):
            s, sq = self.destroyed[k], self.destroyed_sq[k]
            # sum((x - mean)^2) / (n - 1) = (n * sum(x^2) - sum(x)^2) / (n * (n - 1))
            sd = math.sqrt((n * sq - s * s) / (n * (n - 1))) if n > 1 else 0.0
            ws, wsq = self.wounds_lost[k], self.wounds_lost_sq[k]
            wsd = math.sqrt((n * wsq - ws * ws) / (n * (n - 1))) if n > 1 else 0.0
            out.append(UnitSummary(
                us.id, us.name, len(us.models), s / n, sd, self.wiped[k] / n,
                self._percentile(k, 0.1), self._percentile(k, 0.5), self._percentile(k, 0.9),
                self.wounds_lost[k] / n, wsd))
        return out

    def stopped_early(self) -> list[tuple[str, int]]:
        """The reasons runs stopped early, most frequent first (ties in first-seen order)."""
        return sorted(self.stops.items(), key=lambda kv: -kv[1])


def summarise(spec, results: Iterable[RunResult]) -> list[UnitSummary]:
    """Tally.summary of these results."""
    return Tally(spec).add_all(results).summary()


def stopped_early(results: Iterable[RunResult]) -> list[tuple[str, int]]:
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
             f"{u.wounds_lost_mean:.2f} +- {u.wounds_lost_sd:.2f}") for u in summary]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines)
