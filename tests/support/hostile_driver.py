"""Run many `sim` command lines in one process, each as `python -m sim ARGS` would run it.

    python hostile_driver.py JOBS.json RESULTS.json

JOBS.json is a list of argument lists. For each, sim.cli.main(args) runs with stdout and stderr
each replaced by a fresh text stream of the real one's encoding and error handling; the exit
status is what ``raise SystemExit(main())`` (sim/__main__.py) gives, an exception escaping main
is printed as Python prints it (a traceback on stderr, status 1). RESULTS.json gets, per job,
the status, the bytes written to stdout and stderr (as Latin-1 text) and the seconds taken,
and at the end this process's address-space limit and peak size.

The test starts it with its memory limit already set (test_hostile_corpus.py), so one
interpreter start serves a batch of cases: each costs what the CLI does, not an import.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
import traceback


def _stream(real) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=real.encoding, errors=real.errors, write_through=True)


def run(argv: list[str]) -> dict:
    from sim.cli import main
    out, err = _stream(sys.__stdout__), _stream(sys.__stderr__)
    sys.stdout, sys.stderr = out, err
    start = time.perf_counter()
    try:
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
    except BaseException:  # noqa: BLE001 - what the interpreter does with an escaping exception
        traceback.print_exc()
        rc = 1
    finally:
        secs = time.perf_counter() - start
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return {"rc": rc, "stdout": out.buffer.getvalue().decode("latin-1"),
            "stderr": err.buffer.getvalue().decode("latin-1"), "secs": round(secs, 4)}


def _peak_kb() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def drive(jobs_file: str, results_file: str) -> None:
    import resource
    sys.path[0] = os.getcwd()  # as `python -m sim` has it (not this script's folder)
    with open(jobs_file) as f:
        jobs = json.load(f)
    results = [run(argv) for argv in jobs]
    with open(results_file, "w") as f:
        json.dump({"results": results, "rlimit_as": resource.getrlimit(resource.RLIMIT_AS)[0],
                   "vm_peak_kb": _peak_kb()}, f)


if __name__ == "__main__":
    drive(sys.argv[1], sys.argv[2])
