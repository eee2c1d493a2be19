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
traceback). This module imports nothing heavy, so a worker sets that before it imports the
simulator.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import sys
import threading
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


def _worker(conn, parent: int, module: str, initargs: tuple) -> None:
    """A worker's life: ``module``'s ``_init(*initargs)``, then for each (lo, n) received the
    list of ``module._run(seed)`` for those seeds sent back (or ("error", exception)); None, or
    the pipe closed, ends it. Ctrl-C is the parent's to answer (it ends the workers): SIGINT is
    ignored, from the very start (the parent ignores it while it starts them, and they inherit
    that). SIGTERM (the parent ending them) ends a worker at once, as by default: it may have
    been inherited blocked (the parent blocks it while starting them), so it is unblocked here
    (one sent meanwhile ends the worker now)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if os.getppid() != parent:  # (the parent died before prctl took effect)
        os._exit(0)
    try:
        failed = None
        try:
            mod = importlib.import_module(module)
            mod._init(*initargs)
        except Exception as e:  # noqa: BLE001 - reported to the parent with the first chunk
            failed = e
        while (task := conn.recv()) is not None:
            if failed is not None:
                _send(conn, ("error", failed))
                continue
            lo, n = task
            try:
                out = ("ok", [mod._run(s) for s in range(lo, lo + n)])
            except Exception as e:  # noqa: BLE001 - a defect: raised again in the parent
                out = ("error", e)
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
        conn.send(("error", RuntimeError(f"{type(msg[1]).__name__}: {msg[1]}")))


def _how(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


AHEAD = 2  # chunks in flight per worker: each has its next one while the parent reads a result


def ordered_runs(module: str, initargs: tuple, first: int, runs: int, jobs: int,
                 chunk: int) -> Iterator:
    """``module._run(seed)`` for the seeds ``first`` .. ``first + runs - 1``, in seed order, from
    ``jobs`` worker processes (spawned: nothing copied in from this process; each runs
    ``module._init(*initargs)`` first), ``chunk`` seeds a task. At most ``AHEAD`` chunks per
    worker are out ahead of the next one to yield, so memory does not grow with the runs.
    Closing the iterator, or an exception through it (a signal), ends the workers (SIGTERM,
    then SIGKILL if one lingers). A worker that dies raises WorkerDied."""
    ctx = multiprocessing.get_context("spawn")
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
            p = ctx.Process(target=_worker, args=(there, os.getpid(), module, initargs), daemon=True)
            p.start()
            there.close()
            procs.append(p)
            conns.append(here)
    finally:
        if main:
            signal.signal(signal.SIGINT, old_int)
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    try:
        total = -(-runs // chunk)  # chunks
        given = 0  # chunks handed out
        done = 0  # chunks yielded
        results: dict[int, list] = {}
        out: list[deque] = [deque() for _ in procs]  # per worker: its chunks in flight, in order

        def hand(w: int) -> None:
            nonlocal given
            while len(out[w]) < AHEAD and given < total and given < done + jobs * AHEAD:
                lo = first + given * chunk
                try:
                    conns[w].send((lo, min(chunk, first + runs - lo)))
                except OSError:  # (it died: its sentinel says so below)
                    return
                out[w].append(given)
                given += 1

        def receive(w: int) -> None:
            """Every result worker w has sent; WorkerDied if it has ended."""
            try:
                while conns[w].poll():
                    kind, val = conns[w].recv()
                    if kind == "error":
                        raise val
                    results[out[w].popleft()] = val
            except (EOFError, OSError):
                procs[w].join()  # (its pipe closed, or reset: it is ending)
            if procs[w].exitcode is not None or not procs[w].is_alive():
                raise WorkerDied(_how(procs[w].exitcode), runs - done * chunk)

        for w in range(jobs):
            hand(w)
        while done < total:
            while done in results:
                yield from results.pop(done)
                done += 1
                for w in range(jobs):
                    hand(w)
            if done >= total:
                break
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
