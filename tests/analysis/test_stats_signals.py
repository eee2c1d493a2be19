"""`sim stats` stopped by a signal: Ctrl-C (SIGINT to the whole process group, as a terminal
sends it) prints one line, "sim: interrupted after N runs", and exits 130; SIGTERM to the
parent alone ends its workers with it, prints "sim: terminated after N runs" and exits 143.
No traceback from the parent or a worker, no "leaked semaphore" warning, no worker left."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _wait_for(cond, what: str, limit: float = 120.0):
    """Poll until cond() is true (a bound on waiting, not a measure of speed)."""
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum, code, word", [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "terminated"),
])
def test_a_signal_stops_stats_with_one_line_and_no_worker_left(signum, code, word):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "sim", "stats", "scenarios/anti_vehicle.toml",
                          "--runs", "1000000", "--jobs", "2"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        # started: both workers (and multiprocessing's resource tracker) are there, and the
        # workers have loaded the scenario (their initializer imported sim.scenario.load)
        def workers():
            return [c for c in _children(p.pid)
                    if "resource_tracker" not in Path(f"/proc/{c}/cmdline").read_text(errors="replace")]

        def started():
            ws = workers()
            return len(ws) == 2 and all(_has_loaded(w) for w in ws)

        _wait_for(started, "the workers to start")
        seen = _children(p.pid)
        if signum == signal.SIGINT:
            os.killpg(p.pid, signal.SIGINT)  # (Ctrl-C: the whole foreground group)
        else:
            os.kill(p.pid, signal.SIGTERM)  # (the parent alone)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == code, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and re.fullmatch(rf"sim: {word} after \d+ runs", lines[0]), err
    _wait_for(lambda: not any(_alive(c) for c in seen), "the workers to end", limit=30)


def _has_loaded(pid: int) -> bool:
    """The worker has mapped numpy's core (its initializer loaded the scenario, which imports
    it), so it is past starting up."""
    try:
        return "numpy" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False
