"""`sim stats --backend ray` on a local Ray instance (two workers): the summary is byte-identical
to `--jobs 1` (chunks of seeds as tasks, results gathered in seed order). Skipped only when ray
cannot be imported (it is in the `cluster` extra, which `make test` installs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _summary(out: str) -> dict:
    doc = json.loads(out)
    doc.pop("elapsed_s")
    return doc


def test_ray_backend_matches_one_process(capsys, monkeypatch):
    pytest.importorskip("ray", reason="ray is not installed (pip install -e .[cluster])")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # (a local instance of this test's own)
    monkeypatch.setattr("sim.analysis.stats.RAY_CHUNK", 4)  # (several tasks even for a small batch)
    path = str(ROOT / "scenarios/anti_vehicle.toml")
    assert main(["stats", path, "--runs", "24", "--jobs", "1", "--json"]) == 0
    one = _summary(capsys.readouterr().out)
    assert main(["stats", path, "--runs", "24", "--backend", "ray", "--jobs", "2", "--json", "--quiet"]) == 0
    assert _summary(capsys.readouterr().out) == one
