"""Run many `sim` command lines in one process, each as `python -m sim ARGS` would run it.

    python hostile_driver.py JOBS.json RESULTS.json [CASE_CPU_S CASE_WALL_S]

JOBS.json is a list of argument lists. For each, sim.cli.main(args) runs with stdout and stderr
each replaced by a fresh text stream of the real one's encoding and error handling; the exit
status is what ``raise SystemExit(main())`` (sim/__main__.py) gives, an exception escaping main
is printed as Python prints it (a traceback on stderr, status 1). RESULTS.json gets, per job,
the status, the bytes written to stdout and stderr (as Latin-1 text), the seconds taken and the
job's peak resident size (``rss_peak_kb``), and at the end this process's address-space limit
and peak size. It is written again after each
job, so a driver killed in the middle (the CPU cap, a crash) still tells what it did: the job
after the last result is the one that killed it (hostile_run.drive_all goes on after it).

With CASE_CPU_S and CASE_WALL_S, each job also gets that many seconds of CPU time (the process's,
ITIMER_PROF) and of wall-clock time (ITIMER_REAL: a job blocked opening a FIFO uses no CPU): past
either, the job is stopped where it is and its result says so (``"over": "cpu"`` or ``"wall"``,
status -1), and the next job runs.

The test starts it with its memory limit already set (hostile_run.limits), so one interpreter
start serves a batch of cases: each costs what the CLI does, not an import.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
import traceback


class OverLimit(BaseException):
    """A job past its CPU or wall-clock seconds (a BaseException: no `except Exception` in the
    code under test swallows it)."""


def _stream(real) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=real.encoding, errors=real.errors, write_through=True)


def _over(signum, frame):
    raise OverLimit("cpu" if signum == signal.SIGPROF else "wall")


def run(argv: list[str], cpu: float | None = None, wall: float | None = None) -> dict:
    from sim.cli import main
    out, err = _stream(sys.__stdout__), _stream(sys.__stderr__)
    sys.stdout, sys.stderr = out, err
    over = None
    _reset_peak()
    start = time.perf_counter()
    try:
        if cpu:
            _cpu_backstop(cpu + 10)
            signal.signal(signal.SIGPROF, _over)
            signal.setitimer(signal.ITIMER_PROF, cpu)
        if wall:
            signal.signal(signal.SIGALRM, _over)
            signal.setitimer(signal.ITIMER_REAL, wall)
        try:
            code = main(list(argv))
        except SystemExit as e:
            code = e.code
        if code is None:
            rc = 0
        elif isinstance(code, int):
            rc = code & 0xFF
        else:  # SystemExit("message"): printed, status 1
            print(code, file=sys.stderr)
            rc = 1
    except OverLimit as e:
        over, rc = str(e), -1
    except BaseException:  # noqa: BLE001 - what the interpreter does with an escaping exception
        traceback.print_exc()
        rc = 1
    finally:
        if cpu:
            signal.setitimer(signal.ITIMER_PROF, 0)
        if wall:
            signal.setitimer(signal.ITIMER_REAL, 0)
        secs = time.perf_counter() - start
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    out = {"rc": rc, "stdout": out.buffer.getvalue().decode("latin-1"),
           "stderr": err.buffer.getvalue().decode("latin-1"), "secs": round(secs, 4)}
    if over:
        out["over"] = over
    if (peak := _status_kb("VmHWM:")) >= 0:
        out["rss_peak_kb"] = peak
    return out


def _reset_peak() -> None:
    """The peak resident size (VmHWM) set back to the present one, so each job's own peak is read
    after it (Linux: /proc/self/clear_refs, 5)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _cpu_backstop(secs: float) -> None:
    """The process's soft CPU limit ``secs`` from now (within its hard limit): a job stuck in C
    code that never lets the timer's exception in is killed by SIGXCPU, not left to run."""
    import resource
    use = resource.getrusage(resource.RUSAGE_SELF)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    want = int(use.ru_utime + use.ru_stime + secs)
    resource.setrlimit(resource.RLIMIT_CPU, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))


def _status_kb(field: str) -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def _peak_kb() -> int:
    return _status_kb("VmPeak:")


def _write(results_file: str, results: list[dict]) -> None:
    import resource
    tmp = results_file + ".part"
    with open(tmp, "w") as f:
        json.dump({"results": results, "rlimit_as": resource.getrlimit(resource.RLIMIT_AS)[0],
                   "vm_peak_kb": _peak_kb()}, f)
    os.replace(tmp, results_file)


def drive(jobs_file: str, results_file: str, cpu: float | None = None, wall: float | None = None) -> None:
    sys.path[0] = os.getcwd()  # as `python -m sim` has it (not this script's folder)
    with open(jobs_file) as f:
        jobs = json.load(f)
    results: list[dict] = []
    _write(results_file, results)
    for argv in jobs:
        results.append(run(argv, cpu, wall))
        _write(results_file, results)


if __name__ == "__main__":
    drive(sys.argv[1], sys.argv[2], *(float(x) for x in sys.argv[3:5]))
