"""Running hostile command lines through the real CLI under limits, for the hostile corpora
(tests/replay/test_hostile_corpus.py: scenarios and logs; tests/importers/test_hostile_cli.py:
importers, odds, matrix and options).

Each process runs under an address-space limit (RLIMIT_AS) instead of a timer, with a CPU-time
limit as a backstop against a loop. So that a few hundred cases do not each pay for starting
Python, the cases are run in chunks by hostile_driver.py, which calls sim.cli.main in-process
for each as `python -m sim` would (fresh stdout and stderr per case, the exit status that
SystemExit gives); ``real`` runs one as its own `python -m sim` process to show both agree.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests/support/hostile_driver.py"

# Address space per process. The baseline, measured (VmPeak, one BLAS thread): `sim check`,
# `sim run` and `sim replay` of the default scenario peak at 180-215 MB (numpy and esper
# imported; resident 35-50 MB), and one driver process running the whole corpus at about 220 MB.
# The worst logs within the replay limits peak below 500 MB. 1 GiB leaves room for another numpy
# build and is far below what an unbounded input takes (before the value count, a 40 MB log of
# empty lists died here with a MemoryError).
MEMORY_CAP = 1 << 30
CPU_CAP = 120  # seconds of CPU time per process: a backstop, not a timer (a chunk needs ~1 s)


def limits(cpu_cap: int = CPU_CAP) -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 5))


def env(**extra: str) -> dict[str, str]:
    # no LANG: the C locale, as a bare shell or a cron job has it. One BLAS thread: the address
    # space numpy reserves does not then grow with the machine's cores.
    return {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "OPENBLAS_NUM_THREADS": "1", **extra}


def _decoded(out: dict) -> dict:
    for x in out["results"]:
        x["stdout"], x["stderr"] = x["stdout"].encode("latin-1"), x["stderr"].encode("latin-1")
    return out


def drive(argvs: list[tuple[str, ...]], folder: Path, extra_env: dict[str, str] | None = None) -> dict:
    """Run the command lines in one driver process under the limits."""
    jobs, results = folder / "jobs.json", folder / "results.json"
    jobs.write_text(json.dumps([list(a) for a in argvs]))
    r = subprocess.run([sys.executable, str(DRIVER), str(jobs), str(results)], cwd=ROOT, env=env(**(extra_env or {})),
                       preexec_fn=limits, capture_output=True)
    assert r.returncode == 0, f"the driver failed ({r.returncode}): {r.stderr.decode(errors='replace')[-3000:]}"
    return _decoded(json.loads(results.read_text()))


def drive_all(argvs: list[tuple[str, ...]], folder: Path, case_cpu: float, case_wall: float,
              extra_env: dict[str, str] | None = None, prelude: str = "") -> dict:
    """As ``drive``, each case with its own CPU and wall-clock seconds (hostile_driver.py); a
    driver killed by a case (the process's CPU cap, a signal) gives that case a result saying
    so (status -1, ``"over": "killed ..."``), and the cases after it run in a fresh driver.
    ``prelude``: Python run in the driver first (a test that takes a guard out)."""
    start = ([sys.executable, "-c", f"{prelude}\nimport runpy; runpy.run_path({str(DRIVER)!r}, run_name='__main__')"]
             if prelude else [sys.executable, str(DRIVER)])
    done: list[dict] = []
    peak, cap = 0, None
    while len(done) < len(argvs):
        todo = argvs[len(done):]
        jobs, results = folder / "jobs.json", folder / "results.json"
        jobs.write_text(json.dumps([list(a) for a in todo]))
        results.unlink(missing_ok=True)
        r = subprocess.run([*start, str(jobs), str(results), str(case_cpu), str(case_wall)],
                           cwd=ROOT, env=env(**(extra_env or {})), capture_output=True,
                           preexec_fn=lambda n=len(todo): limits(int((case_cpu + 15) * n) + 30))
        out = json.loads(results.read_text()) if results.exists() else {"results": []}
        peak, cap = max(peak, out.get("vm_peak_kb", 0)), out.get("rlimit_as", cap)
        done += out["results"]
        if r.returncode != 0 and len(done) < len(argvs):
            why = f"the driver died ({r.returncode}): {r.stderr.decode(errors='replace')[-300:]}"
            done.append({"rc": -1, "stdout": "", "stderr": why, "secs": 0, "over": f"killed ({r.returncode})"})
        elif r.returncode != 0:
            raise AssertionError(f"the driver failed ({r.returncode}): {r.stderr.decode(errors='replace')[-3000:]}")
    return _decoded({"results": done, "rlimit_as": cap, "vm_peak_kb": peak})


def real(argv: tuple[str, ...], extra_env: dict[str, str] | None = None, timeout: float | None = None) -> dict:
    """One command line as its own `python -m sim` process under the limits (killed after
    ``timeout`` seconds: status -1)."""
    try:
        r = subprocess.run([sys.executable, "-m", "sim", *argv], cwd=ROOT, env=env(**(extra_env or {})),
                           preexec_fn=limits, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return {"rc": -1, "stdout": e.stdout or b"", "stderr": (e.stderr or b"") + b"\n(timed out)"}
    return {"rc": r.returncode, "stdout": r.stdout, "stderr": r.stderr}


def is_control(c: str) -> bool:
    return ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F
