"""The worker processes of `sim stats --jobs N`: seeds handed out in chunks, results back in seed
order, and every way a process can end answered.

multiprocessing.Pool was used before; it could not say when a worker died: a worker killed
(SIGKILL, SIGTERM, the kernel's out-of-memory killer) took its chunk of seeds with it and the
pool, which starts a new worker in its place, waited forever for that chunk. Here each worker
has its own pipe and the parent waits on the pipes and on the processes themselves
(multiprocessing.connection.wait on their sentinels), so a death is seen at once: it ends the
iteration with WorkerDied, naming the runs lost (the tally, in seed order, cannot go past the
missing chunk).

The other way round, a worker whose parent dies (SIGKILL, nothing of the parent's cleans up)
ends at once and quietly: on Linux the kernel sends it SIGKILL (prctl PR_SET_PDEATHSIG, set
first thing); elsewhere it finds its pipe closed and exits without a word (no BrokenPipe
traceback). This module imports nothing heavy, so a spawned worker sets that before it
imports the simulator.

What two cores gain (issue 29): a spawned worker was a fresh interpreter importing the
simulator and building its first battle, ~0.3-0.65 s of CPU each before its first run, and the
seeds went out in fixed chunks of at most 64 (tens of round trips a second for short runs, the
last chunks unbalanced for long ones): two processes ran 0.86x-1.61x one, with ~19% more CPU.
Now, on Linux, the parent builds the first battle (the module's ``_warm``), then forks the
workers once (a few milliseconds; they share its imports and tables); chunks are sized by the
run time measured (Chunker: one seed first, then ~0.3 s of work, shrinking at the end so the
workers finish together; battles one at a time, one per worker); results come back a chunk at a
time in a compact form (the module's ``_pack`` / ``_unpack``) and are yielded in seed order.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import wait


class WorkerDied(Exception):
    """A worker process ended before its work was done (killed, or crashed)."""

    def __init__(self, how: str, lost: int):
        self.how, self.lost = how, lost
        super().__init__(f"a worker died ({how}): {lost:,} runs lost")


def _die_with_parent() -> None:
    """Linux: the kernel sends this process SIGKILL when its parent ends (prctl(2)
    PR_SET_PDEATHSIG; the parent is the thread that started it, which waits for it)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # (1: PR_SET_PDEATHSIG)
    except (OSError, AttributeError):  # (no libc to load: the closed pipe answers instead)
        pass


def _worker(conn, parent: int, module: str, initargs: tuple, others=()) -> None:
    """A worker's life: ``module``'s ``_init(*initargs)``, then for each (lo, n) received
    ("ok", the results of ``module._run(seed)`` for those seeds (``module._pack``ed where it
    has one), the seconds they took) sent back, or ("error", exception, 0); None, or the pipe
    closed, ends it. Ctrl-C is the parent's to answer (it ends the workers): SIGINT is ignored,
    from the very start (the parent ignores it while it starts them, and they inherit that).
    SIGTERM (the parent ending them) ends a worker at once, as by default: it may have been
    inherited blocked (the parent blocks it while starting them), so it is unblocked here (one
    sent meanwhile ends the worker now). A forked worker closes ``others`` (the parent's ends of
    the other workers' pipes) and freezes the heap it was given (the collector never walks it)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if os.getppid() != parent:  # (the parent died before prctl took effect)
        os._exit(0)
    for c in others:
        c.close()
    import gc
    gc.freeze()
    try:
        failed = None
        try:
            mod = importlib.import_module(module)
            mod._init(*initargs)
            pack = getattr(mod, "_pack", None)
        except Exception as e:  # noqa: BLE001 - reported to the parent with the first chunk
            failed = e
        while (task := conn.recv()) is not None:
            if failed is not None:
                _send(conn, ("error", failed, 0.0, 0.0))
                continue
            lo, n = task
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                done = [mod._run(s) for s in range(lo, lo + n)]
                out = ("ok", pack(done) if pack is not None else done, time.perf_counter() - t0,
                       time.process_time() - c0)
            except Exception as e:  # noqa: BLE001 - a defect: raised again in the parent
                out = ("error", e, 0.0, 0.0)
            _send(conn, out)
    except (EOFError, OSError):  # (the parent is gone, or ended the pipe: nothing to say)
        pass


def _send(conn, msg) -> None:
    """``msg`` to the parent; an exception that cannot be pickled goes as its text (a closed
    pipe, OSError, goes up: the worker ends)."""
    try:
        conn.send(msg)
    except OSError:
        raise
    except Exception:  # noqa: BLE001 - pickling failed
        conn.send(("error", RuntimeError(f"{type(msg[1]).__name__}: {msg[1]}"), 0.0, 0.0))


def _how(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


FIRST_CHUNK = 1  # seeds in a worker's first chunk (nothing is measured yet)
TARGET_S = 0.3  # seconds of work a chunk is sized to, once runs are measured (0.2-0.5 s)
GROWTH = 8  # a chunk is at most this many times the largest one measured so far
MAX_CHUNK = 4096  # seeds a chunk, at most (its results are held until their turn)
WINDOW = 8  # chunks handed out and not yet yielded, per worker, at most (memory)
QUICK_S = 0.05  # runs shorter than this: each worker holds a second chunk (no idle round trip)


class Chunker:
    """The size of each next chunk, from the run time measured so far (``measured``: the
    seconds and runs of every chunk that came back): ``FIRST_CHUNK`` seeds until one came back,
    then about ``TARGET_S`` seconds of work (mean time of a run so far), at most ``GROWTH``
    times the largest chunk measured (one lucky fast run does not size a huge chunk) and
    ``MAX_CHUNK``; towards the end, at most half a worker's share of the runs left (the last
    chunks shrink, so the workers finish together). Pure arithmetic: tested without a clock."""

    def __init__(self, jobs: int, target_s: float = TARGET_S, fixed: int | None = None):
        self.jobs, self.target_s, self.fixed = jobs, target_s, fixed
        self.secs = 0.0
        self.runs = 0
        self.largest = 0

    def measured(self, runs: int, secs: float) -> None:
        self.runs += runs
        self.secs += max(secs, 0.0)
        self.largest = max(self.largest, runs)

    @property
    def per_run(self) -> float | None:
        """Mean seconds a run, or None before any came back."""
        return self.secs / self.runs if self.runs else None

    def depth(self) -> int:
        """Chunks a worker holds at once: two while runs are quick (the next is there when one
        ends), one when a run is long (a second would only stretch the end)."""
        if self.fixed is not None:
            return 2
        per = self.per_run
        return 2 if per is not None and per < QUICK_S else 1

    def size(self, left: int) -> int:
        """The next chunk's seeds, ``left`` seeds not yet handed out (at least 1)."""
        if self.fixed is not None:
            return max(1, min(self.fixed, left))
        per = self.per_run
        if per is None:
            n = FIRST_CHUNK
        else:
            n = int(self.target_s / per) if per > 0 else MAX_CHUNK
            n = min(n, GROWTH * self.largest, MAX_CHUNK)
        n = min(n, -(-left // (2 * self.jobs)))
        return max(1, min(n, left))


def _context():
    """How workers start: forked on Linux (a copy of this process, the simulator already
    imported and the work already loaded: a few milliseconds, where a fresh interpreter
    importing it took ~0.3 s of CPU per worker, more on a busy machine); spawned elsewhere
    (fork is unsafe on macOS), and where this process has Ray running (its gRPC threads do not
    survive a fork)."""
    ray = sys.modules.get("ray")
    ray_on = ray is not None and getattr(ray, "is_initialized", lambda: False)()
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods() and not ray_on:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def ordered_runs(module: str, initargs: tuple, first: int, runs: int, jobs: int,
                 chunk: int | None = None, method: str | None = None, busy: list | None = None) -> Iterator:
    """``module._run(seed)`` for the seeds ``first`` .. ``first + runs - 1``, in seed order, from
    ``jobs`` worker processes, started once (forked on Linux, _context; ``method`` names
    another start method) and each running ``module._init(*initargs)`` first. The seeds go out
    as ranges (lo, n), sized by the run time measured (Chunker; ``chunk``: a fixed size
    instead), and the results come back a chunk at a time (``module._pack`` / ``_unpack``
    where the module has them: a compact form), held until their turn, at most ``WINDOW``
    chunks per worker out ahead of the next one to yield (memory does not grow with the runs).
    Closing the iterator, or an exception through it (a signal), ends the workers (SIGTERM,
    then SIGKILL if one lingers). A worker that dies raises WorkerDied. ``busy`` (a list): given
    each worker's CPU seconds in its runs, one entry a worker (how evenly the work was shared;
    tests/bench/bench_batches.py)."""
    if busy is not None:
        busy[:] = [0.0] * jobs
    ctx = multiprocessing.get_context(method) if method else _context()
    mod = importlib.import_module(module)
    unpack = getattr(mod, "_unpack", None)
    warmed = ctx.get_start_method() == "fork" and hasattr(mod, "_warm")
    if warmed:
        # what a process does once (the imports a battle makes, the tables every seed starts
        # from a copy of: building the first Battle took ~50 times a small scenario's run) is
        # done here, before the workers are forked, once for all of them
        mod._init(*initargs)
        mod._warm()
    import ctypes  # noqa: F401 - (loaded once here, for the workers' _die_with_parent)
    for stream in (sys.stdout, sys.stderr):  # (a forked child would print their buffers again)
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    # while the workers start, SIGINT is ignored (they inherit that: a Ctrl-C now cannot
    # interrupt their start-up with a traceback; one in these few milliseconds is lost) and
    # SIGTERM waits (blocked: so it cannot cut a start short half-built; it arrives below,
    # inside the try that ends the workers; they inherit the mask and unblock it in _worker)
    # (only the main thread handles signals, and may set a handler)
    main = threading.current_thread() is threading.main_thread()
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    old_int = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    procs, conns = [], []
    try:
        for _ in range(jobs):
            here, there = ctx.Pipe()
            # (a forked worker closes the parent's ends of the pipes made before its own)
            others = list(conns) if ctx.get_start_method() == "fork" else []
            p = ctx.Process(target=_worker, args=(there, os.getpid(), module, initargs, others), daemon=True)
            p.start()
            there.close()
            procs.append(p)
            conns.append(here)
    finally:
        if main:
            signal.signal(signal.SIGINT, old_int)
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    try:
        sizes = Chunker(jobs, fixed=chunk)
        order: deque = deque()  # (lo, n) of every chunk handed out and not yet yielded, in seed order
        results: dict[int, list] = {}  # lo -> that chunk's results, come back before their turn
        out: list[deque] = [deque() for _ in procs]  # per worker: its chunks in flight, in order
        nxt = first  # the next seed to hand out
        end = first + runs
        yielded = 0

        def hand(w: int) -> None:
            nonlocal nxt
            while len(out[w]) < sizes.depth() and nxt < end and len(order) < jobs * WINDOW:
                n = sizes.size(end - nxt)
                try:
                    conns[w].send((nxt, n))
                except OSError:  # (it died: its sentinel says so below)
                    return
                out[w].append((nxt, n))
                order.append((nxt, n))
                nxt += n

        def receive(w: int) -> None:
            """Every result worker w has sent; WorkerDied if it has ended."""
            try:
                while conns[w].poll():
                    kind, val, secs, cpu = conns[w].recv()
                    if kind == "error":
                        raise val
                    lo, n = out[w].popleft()
                    sizes.measured(n, secs)
                    if busy is not None:
                        busy[w] += cpu
                    results[lo] = val
            except (EOFError, OSError):
                procs[w].join()  # (its pipe closed, or reset: it is ending)
            if procs[w].exitcode is not None or not procs[w].is_alive():
                raise WorkerDied(_how(procs[w].exitcode), runs - yielded)

        for w in range(jobs):
            hand(w)
        while yielded < runs:
            while order and order[0][0] in results:
                lo, n = order.popleft()
                val = results.pop(lo)
                yield from (unpack(lo, val) if unpack is not None else val)
                yielded += n
            if yielded >= runs:
                break
            for w in range(jobs):
                hand(w)
            waiting = {c: w for w, c in enumerate(conns)}
            waiting.update({p.sentinel: w for w, p in enumerate(procs)})
            for w in sorted({waiting[r] for r in wait(list(waiting))}):
                receive(w)
                hand(w)
        for c in conns:
            try:
                c.send(None)
            except OSError:  # (it ended after its last result: nothing is lost)
                pass
        for p in procs:
            p.join(5)
    finally:
        _end(procs, conns)
        if warmed and hasattr(mod, "_done"):  # (what _warm built here, let go)
            mod._done()


def _end(procs, conns) -> None:
    """The workers ended (SIGTERM; SIGKILL after a while) and their pipes closed."""
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join()
    for c in conns:
        c.close()
