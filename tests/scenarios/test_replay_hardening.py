"""Hostile and damaged replay logs (issue 13): every mutation of a golden log is either a named
divergence (exit 1) or one line `LOG: line N: expected ..., found ...` (exit 2), never a
traceback, a hang or a silent "verified"."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.errors import LogError, ScenarioError
from sim.replay.log import replay

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "scenarios/replays/default.jsonl"


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def golden() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines()]


def lines_of(recs) -> list[str]:
    return [dumps(r) for r in recs]


def block_end(recs, n) -> int:
    """Index after command n's hash record."""
    return next(i for i, r in enumerate(recs) if r["t"] == "hash" and r["n"] == n) + 1


def header(**change):
    def mutate(recs):
        recs[0].update(change)
        return lines_of(recs)
    return mutate


def drop_header_key(key):
    def mutate(recs):
        del recs[0][key]
        return lines_of(recs)
    return mutate


def cut_after(n):
    return lambda recs: lines_of(recs[:block_end(recs, n)])


def delete_block(n):
    def mutate(recs):
        start = block_end(recs, n - 1) if n else 1
        return lines_of(recs[:start] + recs[block_end(recs, n):])
    return mutate


def last_command():
    return max(r["n"] for r in golden() if r["t"] == "command")


def trailer(**change):
    def mutate(recs):
        recs[-1].update(change)
        return lines_of(recs)
    return mutate


def record(t, change=None, drop=None):
    """Change (or drop a field of) the first record of type ``t``."""
    def mutate(recs):
        r = next(r for r in recs if r["t"] == t)
        if change:
            r.update(change)
        if drop:
            del r[drop]
        return lines_of(recs)
    return mutate


# (id, mutation, "diverge" (exit 1) or "error" (exit 2), what the message must say)
CASES = [
    ("header only", lambda recs: lines_of(recs[:1]), "diverge", r"no trailer|end of log"),
    ("cut after command 4 of 10", cut_after(4), "diverge", r"no trailer"),
    ("last command block deleted", lambda recs: delete_block(last_command())(recs), "diverge", r"trailer"),
    ("trailer removed", lambda recs: lines_of(recs[:-1]), "diverge", r"no trailer"),
    ("trailer count changed", trailer(commands=11), "diverge", r"trailer"),
    ("trailer hash changed", trailer(hash="0" * 16), "diverge", r"trailer"),
    ("header name changed", header(name="Something else"), "diverge", r"header"),
]


@pytest.fixture
def project(tmp_path):
    """A copy of the default scenario and a place for its log, as in the repository."""
    (tmp_path / "scenarios/replays").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios/default.toml", tmp_path / "scenarios/default.toml")
    return tmp_path


def write(project, lines, raw: bytes | None = None) -> Path:
    log = project / "scenarios/replays/default.jsonl"
    log.write_bytes(raw if raw is not None else ("\n".join(lines) + "\n").encode())
    return log


def test_the_unchanged_copy_verifies(project):
    assert replay(write(project, lines_of(golden()))) == (10, None)


@pytest.mark.parametrize("mutate, outcome, says", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_mutated_log(project, mutate, outcome, says):
    log = write(project, mutate(golden()))
    if outcome == "diverge":
        n, div = replay(log)
        assert div is not None
        assert __import__("re").search(says, str(div)), str(div)
    else:
        with pytest.raises((LogError, ScenarioError), match=says) as e:
            replay(log)
        assert "\n" not in str(e.value)
