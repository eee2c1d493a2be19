"""`sim stats --json` is byte-identical on every CPython 3.11+ on this machine: its figures are
divisions of integers (sim.analysis.stats.Tally), never float sums, which differ in the last digits
between 3.11 and 3.12+ (float sum() is compensated from 3.12 on)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _other_interpreters() -> list[str]:
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


def _with_deps(exe: str, where: Path) -> str:
    """``exe`` if it has esper and numpy, else a venv of it with them installed (skipped when
    that cannot be made)."""
    if subprocess.run([exe, "-c", "import esper, numpy"], capture_output=True).returncode == 0:
        return exe
    venv = where / "venv"
    if subprocess.run([exe, "-m", "venv", str(venv)], capture_output=True).returncode != 0:
        pytest.skip(f"{exe}: cannot make a venv")
    try:
        pip = subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "esper>=3.9,<4", "numpy"],
                             capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip(f"{exe}: installing esper and numpy took too long")
    if pip.returncode != 0:
        pytest.skip(f"{exe}: cannot install esper and numpy")
    return str(venv / "bin/python")


def _stats_json(exe: str) -> str:
    # anti_vehicle: every unit's standard deviation is a sum of many unequal squares, the
    # figures float sum() rounded differently on 3.11 and 3.12+
    r = subprocess.run([exe, "-m", "sim", "stats", "scenarios/anti_vehicle.toml", "--runs", "300",
                        "--jobs", "1", "--json"],
                       cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # (less the elapsed time, the one line that changes from run to run)
    return "".join(line for line in r.stdout.splitlines(keepends=True) if '"elapsed_s"' not in line)


@pytest.mark.parametrize("exe", _other_interpreters() or [None])
def test_stats_json_is_byte_identical_across_python_versions(exe, tmp_path):
    if exe is None:
        pytest.skip("no other CPython 3.11+ interpreter found")
    assert _stats_json(_with_deps(exe, tmp_path)) == _stats_json(sys.executable)
