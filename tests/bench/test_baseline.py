"""The benchmarks' same-run baseline (tests/bench/_baseline.py): fixed work, positive times and
the printed line's shape. Nothing here is timed against a threshold."""

from __future__ import annotations

import re

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


def test_line_shape():
    before, after = Baseline(0.0612, 0.0123), Baseline(0.0630, 0.0125)
    assert _baseline.line(before, after) == (
        "baseline (same run, before/after): pure-Python loop 61.2/63.0 ms, numpy kernel 12.3/12.5 ms")
    text = _baseline.line(before, after, ["attack dice per pure-Python loop: one process 12,850",
                                          "other 2"])
    assert re.fullmatch(r"baseline \(same run, before/after\): pure-Python loop [\d.]+/[\d.]+ ms, "
                        r"numpy kernel [\d.]+/[\d.]+ ms; attack dice per pure-Python loop: "
                        r"one process 12,850; other 2", text)
