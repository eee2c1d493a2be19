"""`sim stats --json` is byte-identical on every CPython 3.11+ on this machine: its figures are
divisions of integers (sim.analysis.stats.Tally), never float sums, which differ in the last digits
between 3.11 and 3.12+ (float sum() is compensated from 3.12 on)."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

from other_pythons import other_interpreters, with_deps

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
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


@pytest.mark.parametrize("exe", other_interpreters() or [None])
def test_stats_json_is_byte_identical_across_python_versions(exe, tmp_path_factory):
    if exe is None:
        pytest.skip("no other CPython 3.11+ interpreter found")
    # (this interpreter's output, made once per worker, is the same for every other one)
    assert _stats_json(with_deps(exe, tmp_path_factory)) == _stats_json(sys.executable)
