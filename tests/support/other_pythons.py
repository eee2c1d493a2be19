"""The other CPython 3.11+ interpreters on this machine (pyenv's), each with esper and numpy, for
the tests that compare this checkout's output across Python versions
(tests/replay/test_golden_replays.py, tests/analysis/test_stats_interpreters.py).

An interpreter without esper and numpy gets a venv of its own with them, made once per test
session and shared by every test and every xdist worker of that session (the first to need it
makes it under a file lock; the others wait and reuse it): making one is most of what a
cross-interpreter test costs. The venv is made without pip and filled by this interpreter's pip
(``pip --python``), which saves bootstrapping pip into it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NEEDS = ("esper>=3.9,<4", "numpy")


def other_interpreters() -> list[str]:
    """CPython 3.11+ interpreters on this machine other than the running one (pyenv's)."""
    found = []
    root = Path.home() / ".pyenv/versions"
    if root.is_dir():
        for v in sorted(root.iterdir()):
            exe = v / "bin/python3"
            parts = v.name.split(".")
            if not exe.exists() or len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
                continue
            version = (int(parts[0]), int(parts[1]))
            if version < (3, 11) or version == sys.version_info[:2]:
                continue
            found.append(str(exe))
    return found


def _has_deps(exe: str) -> bool:
    return subprocess.run([exe, "-c", "import esper, numpy"], capture_output=True).returncode == 0


def _make_venv(exe: str, venv: Path) -> str | None:
    """A venv of ``exe`` at ``venv`` with NEEDS installed: None, or why it cannot be made. First
    without pip, filled by this interpreter's pip; failing that, the plain way (its own pip)."""
    py = str(venv / "bin/python")
    if subprocess.run([exe, "-m", "venv", "--without-pip", str(venv)], capture_output=True).returncode == 0:
        try:
            pip = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", *NEEDS],
                                 capture_output=True, timeout=300)
            if pip.returncode == 0 and _has_deps(py):
                return None
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(venv, ignore_errors=True)
    if subprocess.run([exe, "-m", "venv", str(venv)], capture_output=True).returncode != 0:
        return f"{exe}: cannot make a venv"
    try:
        pip = subprocess.run([py, "-m", "pip", "install", "-q", *NEEDS], capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return f"{exe}: installing esper and numpy took too long"
    if pip.returncode != 0 or not _has_deps(py):
        return f"{exe}: cannot install esper and numpy"
    return None


def with_deps(exe: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``exe`` if it has esper and numpy, else the session's venv of it with them (the test is
    skipped when that cannot be made)."""
    if _has_deps(exe):
        return exe
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # (the folder every worker's own base folder is in: one per session)
    name = "venv-" + exe.strip("/").replace("/", "_")
    venv, failed = root / name, root / f"{name}.failed"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not failed.exists() and not (venv / ".complete").exists():
            why = _make_venv(exe, venv)
            if why:
                failed.write_text(why)
            else:
                (venv / ".complete").touch()
    if failed.exists():
        pytest.skip(failed.read_text())
    return str(venv / "bin/python")
