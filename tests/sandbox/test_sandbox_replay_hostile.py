"""The replay viewer on hostile logs (issue 13): a message in the status line, never a crash."""

from __future__ import annotations

import json
import shutil

import pygame

from sandbox_support import ROOT

GOLDEN = ROOT / "scenarios" / "replays" / "default.jsonl"


def _copy(tmp_path, mutate=None):
    (tmp_path / "scenarios/replays").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "scenarios/default.toml", tmp_path / "scenarios/default.toml")
    recs = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    if mutate:
        mutate(recs)
    log = tmp_path / "scenarios/replays/default.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    return log


def test_a_hostile_header_is_a_message(make, tmp_path):
    d = make(ROOT / "scenarios" / "default.toml")
    log = _copy(tmp_path, lambda recs: recs[0].update(scenario="/etc/passwd"))
    assert not d.sb.open_replay(log)
    assert "cannot open the replay" in d.sb.status and "line 1" in d.sb.status and d.sb.mode == "battle"


def test_an_answer_of_the_wrong_type_stops_the_replay(make, tmp_path):
    """A logged decision answer the rules cannot take (an unhashable standing answer) stops the
    replay at its command with a message."""
    def mutate(recs):
        e = next(r["event"] for r in recs if r["t"] == "event" and r["event"]["type"] == "decision")
        e["scripted"] = [[1]]
    d = make(ROOT / "scenarios" / "default.toml")
    log = _copy(tmp_path, mutate)
    assert d.sb.open_replay(log), d.sb.status
    for _ in range(len(d.sb.replay_view)):
        d.key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT)  # (a whole command a key)
    rv = d.sb.replay_view
    assert rv.pos == 5 < len(rv)  # command 5 is the one whose answer was changed
    assert "5/10 commands applied" in d.sb.status
    # step by step into that command: its decision stops the replay with a message
    for _ in range(30):
        d.key(pygame.K_RIGHT)
    assert rv.pos == 5 and "replay stopped at command 6" in d.sb.status


def test_a_log_whose_scenario_is_not_found_opens_with_the_scenario_given(make, tmp_path, monkeypatch):
    """`sim play --replay LOG --scenario PATH` (issue 13): as `sim replay --scenario`."""
    d = make(ROOT / "scenarios" / "default.toml")
    monkeypatch.chdir(tmp_path)  # (so the header's relative path is not found from the project)
    log = tmp_path / "far" / "away.jsonl"
    log.parent.mkdir()
    shutil.copy(GOLDEN, log)  # (its header names scenarios/default.toml, not beside it)
    assert not d.sb.open_replay(log)
    assert d.sb.open_replay(log, ROOT / "scenarios" / "default.toml"), d.sb.status
    assert d.sb.mode == "replay"


def test_play_scenario_option_needs_replay(capsys):
    from sim.cli import main
    assert main(["play", "scenarios/default.toml", "--scenario", "scenarios/default.toml"]) == 2
    assert "goes with --replay" in capsys.readouterr().err
