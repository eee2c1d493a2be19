"""What `sim stats --backend ray` leaves behind when it starts Ray itself: nothing, however it
ends.

A local Ray is a dozen processes (the GCS server, the raylet, its agents, the workers) and a
session folder of several MB. ray.shutdown ends them when the driver ends normally, or by a
signal it can answer; after SIGKILL of the driver nothing of its own runs, and two of Ray's
agents were found alive and the folder left in /tmp/ray. So the Ray session goes in a folder of
ours (``ray.init(_temp_dir=...)``) and a watchdog process, started first, stands by: it is
this module run as a script (the standard library only, started with ``-I -S``: no import of
the simulator), in a session of its own (a Ctrl-C to the terminal's group does not reach it).
Every fifth of a second it notes the driver's descendants (Linux: /proc); when its pipe from
the driver closes without the word "done" (the driver died), it kills the descendants it saw
appear (SIGKILL: they are Ray's; never the ones there before it started, never a reused pid)
and removes the folder. With "done" (the driver shut Ray down and removed the folder itself),
it only kills a descendant it saw that is still alive.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile


class Reaper:
    """A context: a fresh folder (``.folder``, short: Ray's socket paths must fit in 107
    characters) and the watchdog over this process's new descendants. Leaving the block removes
    the folder and dismisses the watchdog, which kills what of Ray is still alive."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="sim-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
        self.proc = None

    def __enter__(self) -> Reaper:
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid()), self.folder],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
        except OSError:  # (no watchdog: the folder is still removed on a normal end)
            self.proc = None
        return self

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.proc is not None:
            try:
                self.proc.stdin.write(b"done\n")
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, start time) of every process (/proc)."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        # pid (comm) state ppid ... starttime (the 22nd field): comm may hold spaces and ")"
        rest = stat[stat.rindex(")") + 2:].split()
        out[int(name)] = (int(rest[1]), rest[19])
    return out


def _descendants(root: int, table: dict[int, tuple[int, str]]) -> dict[int, str]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    out, todo = {}, [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in out:
                out[c] = table[c][1]
                todo.append(c)
    return out


def _kill(seen: dict[int, str]) -> None:
    """SIGKILL every process seen that is still the same process (same start time), and the
    ones they started since (after the driver's death they are no longer its descendants)."""
    for _ in range(3):
        table = _table()
        alive = {p for p, start in seen.items() if p in table and table[p][1] == start}
        for p in list(alive):
            for c, start in _descendants(p, table).items():
                seen.setdefault(c, start)
                alive.add(c)
        if not alive:
            return
        for p in alive:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        select.select([], [], [], 0.2)


def watch(parent: int, folder: str) -> None:
    """The watchdog's loop (see the module's docstring)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)
    me = os.getpid()
    before = set(_descendants(parent, _table())) | {me}
    seen: dict[int, str] = {}
    said = b""
    while True:
        ready, _, _ = select.select([0], [], [], 0.2)
        if ready:
            data = os.read(0, 64)
            said += data
            if not data:
                break
        seen.update({p: s for p, s in _descendants(parent, _table()).items() if p not in before})
    _kill(seen)
    if b"done" not in said:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
