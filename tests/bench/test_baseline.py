"""The benchmarks' same-run baseline (tests/bench/_baseline.py): fixed work, positive times and
the printed line's shape. Nothing here is timed against a threshold."""

from __future__ import annotations

import re
import sys

import _baseline
from _baseline import Baseline


def test_workloads_are_fixed():
    assert _baseline.python_loop() == _baseline.python_loop() == 35394571
    assert _baseline.numpy_kernel() == _baseline.numpy_kernel() == 24801


def test_measure_returns_positive_seconds():
    b = _baseline.measure(repeats=1)
    assert isinstance(b, Baseline)
    assert b.python_s > 0 and b.numpy_s > 0


def test_mean_of_before_and_after():
    m = _baseline.mean(Baseline(0.060, 0.010), Baseline(0.064, 0.014))
    assert abs(m.python_s - 0.062) < 1e-12 and abs(m.numpy_s - 0.012) < 1e-12


def test_line_shape(monkeypatch):
    monkeypatch.delitem(sys.modules, "sim.rules.compiled", raising=False)  # (a script that loaded no kernel)
    before, after = Baseline(0.0612, 0.0123), Baseline(0.0630, 0.0125)
    assert _baseline.line(before, after) == (
        "baseline (same run, before/after): pure-Python loop 61.2/63.0 ms, numpy kernel 12.3/12.5 ms")
    text = _baseline.line(before, after, ["attack dice per pure-Python loop: one process 12,850",
                                          "other 2"])
    assert re.fullmatch(r"baseline \(same run, before/after\): pure-Python loop [\d.]+/[\d.]+ ms, "
                        r"numpy kernel [\d.]+/[\d.]+ ms; attack dice per pure-Python loop: "
                        r"one process 12,850; other 2", text)


def test_line_says_which_kernels_ran_where_the_script_loaded_them():
    """A script that ran the engine ends its baseline line with sim.rules.compiled's status, so a
    figure says whether the compiled kernels or their numpy references made it."""
    import sim.rules.geometry  # noqa: F401  (registers the kernels)
    from sim.rules import compiled
    text = _baseline.line(Baseline(0.0612, 0.0123), Baseline(0.0630, 0.0125), ["x 1"])
    first, second = text.split("\n")
    assert first.endswith("; x 1")
    assert second == compiled.status() and second.startswith("compiled kernels: ")
