"""Shared constants of the sandbox tests (a module with a unique name: several test folders
have a conftest.py, so tests must not import from "conftest")."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SIZE = (1440, 900)


def all_scenarios() -> list[Path]:
    return sorted((ROOT / "scenarios").glob("*.toml")) + sorted(DATA.glob("*.toml"))
