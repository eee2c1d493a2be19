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
        # started: both workers (and multiprocessing's resource tracker) are there, the workers
        # have loaded the scenario (their initializer imported sim.scenario.load), and the
        # parent answers signals again (sim.analysis.workers ignores SIGINT and blocks SIGTERM
        # while it forks them: a forked worker has numpy mapped from its first instant, so the
        # workers can look loaded while the parent still ignores a Ctrl-C)
        def started():
            ws = _workers(p.pid)
            return len(ws) == 2 and all(_has_loaded(w) for w in ws) and _answers_signals(p.pid)

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


# --- start-up: a signal while the modules load (issue 25) -----------------------------------

def _stderr_lines(p, n: int, limit: float = 120.0) -> list[str]:
    """The first ``n`` lines ``p`` writes to standard error (a bound on waiting for them)."""
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(p.stderr, selectors.EVENT_READ)
    lines = []
    end = time.monotonic() + limit
    while len(lines) < n:
        if time.monotonic() > end or not sel.select(timeout=max(0.0, end - time.monotonic())):
            pytest.fail(f"gave up waiting for {n} lines of stderr, found {lines}")
        line = p.stderr.readline()
        if not line:
            pytest.fail(f"stderr ended after {lines}")
        lines.append(line.rstrip("\n"))
    return lines


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("module", ["argparse", "esper"])
@pytest.mark.parametrize("signum, code, word", [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "terminated"),
])
def test_a_signal_while_the_modules_load_gives_one_line(tmp_path, module, signum, code, word):
    """A stand-in for a module `sim` imports says "ready" and waits inside its import: argparse
    is imported before sim.cli.main runs (sim/__main__.py's handlers answer), esper inside it
    (main's handlers answer, at once: inside an import an exception can come out as another).
    Before, SIGINT printed the traceback of the import it cut, and SIGTERM ended the process
    without a word (status -15).

    The stand-in waits in short sleeps, as an import runs code: Python answers a signal at its
    next check between instructions, and one whose C handler ran after the last check before a
    single long ``time.sleep`` began (the child descheduled there on a loaded machine) waited
    for the sleep's end. That was the one failure this test had (once in a whole suite, 6
    December: no end 60 s after the signal). Shown without a race: a SIGALRM due during a list
    repeat (no check) just before ``time.sleep(3)`` was answered after the sleep, at 4.3 s."""
    (tmp_path / f"{module}.py").write_text(
        "import sys, time\nsys.stderr.write('ready\\n')\nsys.stderr.flush()\n"
        "while True:\n    time.sleep(0.05)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    p = subprocess.Popen([sys.executable, "-m", "sim", "run", "scenarios/anti_vehicle.toml"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        assert _stderr_lines(p, 1) == ["ready"]
        if signum == signal.SIGINT:
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            # (what the process and its group held, for whoever meets a hang here next)
            pytest.fail(f"no end 60 s after the signal: {_signal_state(p.pid)}")
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == code, err
    assert out == "" and err == f"sim: {word}\n"


def _signal_state(pid: int) -> str:
    """The state and signal masks (blocked, ignored, caught) of every process of ``pid``'s
    process group, from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) != pid:
                continue
            status = (entry / "status").read_text().splitlines()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, ProcessLookupError):
            continue
        keep = [line for line in status if line.split(":")[0] in ("State", "SigBlk", "SigIgn", "SigCgt")]
        out.append(f"{entry.name} ({cmd[:80]}): " + ", ".join(" ".join(x.split()) for x in keep))
    return "; ".join(out) or "no process left in its group"


# --- a worker that dies; a parent that dies (issue 25) ---------------------------------------

def _start_stats(*extra: str, env_extra: dict | None = None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env_extra or {})}
    return subprocess.Popen([sys.executable, "-m", "sim", "stats", "scenarios/anti_vehicle.toml",
                             "--runs", "1000000", "--quiet", *extra],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def _workers(pid: int) -> list[int]:
    """The children of ``pid`` but multiprocessing's resource tracker (one that ends while this
    reads is left out: it is no worker any more)."""
    out = []
    for c in _children(pid):
        try:
            if "resource_tracker" not in Path(f"/proc/{c}/cmdline").read_text(errors="replace"):
                out.append(c)
        except OSError:
            pass
    return out


def _answers_signals(pid: int) -> bool:
    """The process neither ignores SIGINT nor blocks SIGTERM (/proc/PID/status, its main
    thread's masks): past the window in which sim.analysis.workers starts its workers."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    masks = dict(line.split(":", 1) for line in status.splitlines() if line.startswith(("SigIgn:", "SigBlk:")))
    if len(masks) != 2:
        return False
    return not (int(masks["SigIgn"], 16) >> (signal.SIGINT - 1)) & 1 and \
        not (int(masks["SigBlk"], 16) >> (signal.SIGTERM - 1)) & 1


def _started(p) -> list[int]:
    """The two workers of ``p``, once both have loaded the scenario and the parent answers
    signals again (``_answers_signals``)."""
    def ready():
        ws = _workers(p.pid)
        return len(ws) == 2 and all(_has_loaded(w) for w in ws) and _answers_signals(p.pid)

    _wait_for(ready, "the workers to start")
    return _workers(p.pid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_that_dies_is_reported_and_the_run_ends(signum):
    """multiprocessing.Pool started a new worker in the dead one's place and waited forever for
    the seeds it had taken; now the run ends with one line naming the runs lost."""
    p = _start_stats("--jobs", "2")
    try:
        ws = _started(p)
        seen = _children(p.pid)
        os.kill(ws[0], signum)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 1, err
    assert out == ""
    lines = err.splitlines()
    name = signal.Signals(signum).name
    assert len(lines) == 1 and re.fullmatch(
        rf"sim: a worker died \(killed by {name}\): [\d,]+ runs lost \([\d,]+ done\)", lines[0]), err
    lost, done = (int(x.replace(",", "")) for x in re.findall(r"[\d,]+(?= runs| done)", lines[0]))
    assert lost + done == 1_000_000
    _wait_for(lambda: not any(_alive(c) for c in seen), "the other worker to end", limit=30)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_end_quietly_when_the_parent_is_killed():
    """SIGKILL to the parent: the workers end (the kernel kills them, PR_SET_PDEATHSIG; else
    their closed pipe ends them) without a word on the standard error they share with it."""
    p = _start_stats("--jobs", "2")
    kill_parent_quietly(p, lambda: _started(p))


def kill_parent_quietly(p, started) -> None:
    """SIGKILL to ``p`` once ``started()`` gives its workers: it dies with nothing written, and
    the workers end too (tests/analysis/test_workers.py asks the same of `sim ladder`)."""
    try:
        ws = started()
        os.kill(p.pid, signal.SIGKILL)
        # (the workers hold the pipes too: the streams end when they have ended)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == -signal.SIGKILL
    assert out == "" and err == ""
    _wait_for(lambda: not any(_alive(w) for w in ws), "the workers to end", limit=30)


# --- the Ray backend (issue 25) --------------------------------------------------------------

def _session(sid: int) -> list[int]:
    """The live processes of the session ``sid`` (the test started it: start_new_session)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.getsid(int(d.name)) == sid and _alive(int(d.name)):
                    out.append(int(d.name))
            except OSError:
                pass
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def _watchdogs(pid: int) -> list[int]:
    """sim.analysis.reaper's watchdog over the driver ``pid`` (in a session of its own)."""
    return [int(d.name) for d in Path("/proc").iterdir()
            if d.name.isdigit() and _alive(int(d.name))
            and re.search(rf"reaper\.py {pid} ", _cmdline(int(d.name)))]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
# (each case starts Ray, 10-30 s here: SIGINT while running takes the same path as SIGTERM
# while running, from the same note between short ray.wait calls, and is left out; SIGINT is
# tried while Ray starts, where the crash after our line was seen)
@pytest.mark.parametrize("signum, code, word, when", [
    (signal.SIGTERM, 143, "terminated", "running"),
    (signal.SIGKILL, -9, None, "running"),
    (signal.SIGINT, 130, "interrupted", "starting"),
    (signal.SIGTERM, 143, "terminated", "starting"),
])
def test_ray_backend_answers_a_signal_and_leaves_nothing_behind(signum, code, word, when):
    """Before: SIGTERM exited 15 with Ray's dump and no line of ours; one SIGINT out of two in
    Ray's start-up crashed with SIGSEGV after our line; after SIGKILL two of Ray's agents stayed
    alive; every run left a session folder in /tmp/ray. Now: our line and status, no process of
    Ray's left (the watchdog kills them after SIGKILL), and the session folder, one of ours,
    removed. "running": a Ray worker runs a chunk of seeds (its process title says so);
    "starting": the raylet is up, ray.init has not returned."""
    pytest.importorskip("ray", reason="ray is not installed (pip install -e .[cluster])")
    p = _start_stats("--jobs", "2", "--backend", "ray", env_extra={"RAY_AUTH_MODE": "disabled"})
    mark = "ray::_ray_chunk" if when == "running" else "/raylet "
    try:
        def ready():
            if p.poll() is not None:
                pytest.fail(f"sim stats ended before Ray was {when}: {p.communicate()[1]}")
            return any(mark in _cmdline(c) for c in _session(p.pid))

        _wait_for(ready, f"Ray to be {when}", limit=600)
        dogs = _watchdogs(p.pid)
        assert len(dogs) == 1
        folder = Path(_cmdline(dogs[0]).split()[-1])
        assert folder.is_dir() and any(folder.glob("session_*"))
        if signum == signal.SIGINT:
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, signum)
        out, err = p.communicate(timeout=180)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == code, err
    if word is not None:
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1 and re.fullmatch(rf"sim: {word} after \d+ runs", lines[0]), err
    _wait_for(lambda: not _session(p.pid) and not _watchdogs(p.pid), "Ray's processes to end", limit=60)
    assert not folder.exists()
    assert not list(Path("/tmp/ray").glob(f"session_*_{p.pid}"))
