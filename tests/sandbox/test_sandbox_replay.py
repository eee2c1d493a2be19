"""Watching a replay: stepping to the end reaches the log's last state hash; stepping back and
forward again gives identical hashes."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT
from sim.replay.log import read_log

LOG = ROOT / "scenarios" / "replays" / "worked_example_pools.jsonl"


def test_step_through_a_replay(make):
    d = make(ROOT / "scenarios" / "default.toml")
    sb = d.sb
    assert sb.open_replay(LOG), sb.status
    assert sb.mode == "replay"
    hashes = [r["hash"] for r in read_log(LOG) if r["t"] == "hash"]
    rv = sb.replay_view
    assert len(rv) == len(hashes) and rv.pos == 0
    start = sb.battle.state_hash()
    seen = []
    for _ in range(len(rv)):
        d.key(pygame.K_RIGHT)
        seen.append(sb.battle.state_hash())
    assert rv.pos == len(rv)
    assert seen == hashes  # every step lands on the log's hash, the last one included
    d.click_button("replay:back")
    assert rv.pos == len(rv) - 1
    assert sb.battle.state_hash() == (hashes[-2] if len(hashes) > 1 else start)
    d.click_button("replay:forward")
    assert sb.battle.state_hash() == hashes[-1]
    for _ in range(len(rv)):
        d.key(pygame.K_LEFT)
    assert rv.pos == 0 and sb.battle.state_hash() == start
    # play: the auto-step advances on its own
    d.key(pygame.K_p, "p")
    for _ in range(3):
        sb.update(1.0)
    assert rv.pos >= 1
    # commands are not taken while watching; Esc leaves
    d.key(pygame.K_ESCAPE)
    assert sb.mode == "battle" and sb.spec.name == sb.origin[0].name


def test_bad_replay_is_a_message(make, tmp_path):
    d = make(ROOT / "scenarios" / "default.toml")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert not d.sb.open_replay(bad)
    assert "cannot open the replay" in d.sb.status and d.sb.mode == "battle"
