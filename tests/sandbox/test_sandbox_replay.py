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
        d.key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT)  # (Shift: a whole command)
        seen.append(sb.battle.state_hash())
    assert rv.pos == len(rv)
    assert seen == hashes  # every step lands on the log's hash, the last one included
    d.click_button("replay:back")
    assert rv.pos == len(rv) - 1
    assert sb.battle.state_hash() == (hashes[-2] if len(hashes) > 1 else start)
    d.click_button("replay:forward")
    assert sb.battle.state_hash() == hashes[-1]
    for _ in range(len(rv)):
        d.key(pygame.K_LEFT, mod=pygame.KMOD_SHIFT)
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


ROLLS = ("hit rolls", "wound rolls", "allocation order", "save rolls", "damage", "hazard rolls")


def test_replay_steps_one_event_at_a_time(make):
    """Right steps within a command: the command line, then each roll, the allocation order and
    the damage one key press at a time (in the order the log has them); Left goes back one step
    to the state before it; Shift+Right takes the rest of the command at once."""
    d = make(ROOT / "scenarios" / "default.toml")
    sb = d.sb
    log = ROOT / "scenarios" / "replays" / "default.jsonl"
    assert sb.open_replay(log), sb.status
    rv = sb.replay_view
    want = [e["event"]["type"] for e in read_log(log) if e["t"] == "event" and e["n"] == 0
            and e["event"]["type"] in ROLLS]
    assert len(want) >= 4
    seen, hashes, presses = [], [sb.battle.state_hash()], 0
    while rv.pos == 0:
        n = len(sb.battle.events)
        d.key(pygame.K_RIGHT)
        presses += 1
        new = [e["type"] for e in sb.battle.events[n:] if e["type"] in ROLLS]
        assert len(new) <= 1, f"one step showed {new}"
        seen += new
        hashes.append(sb.battle.state_hash())
        assert sb.tray.info is None or sb.tray.info["pool"]["pool"] == 0
    assert seen == want and presses > len(want)
    assert rv.pos == 1 and rv.sub == 0 and rv.sub_total[0] == presses
    assert sb.battle.state_hash() == [r["hash"] for r in read_log(log) if r["t"] == "hash"][0]
    # back, one step at a time, through the same states
    for k in range(presses - 1, -1, -1):
        d.key(pygame.K_LEFT)
        assert sb.battle.state_hash() == hashes[k]
        assert (rv.pos, rv.sub) == (0, k)
    # into the second command by two steps, then the rest of it at once
    d.key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT)
    d.key(pygame.K_RIGHT)
    d.key(pygame.K_RIGHT)
    assert (rv.pos, rv.sub) == (1, 2) and "step 2" in sb.status
    d.key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT)
    assert (rv.pos, rv.sub) == (2, 0)
    assert sb.battle.state_hash() == [r["hash"] for r in read_log(log) if r["t"] == "hash"][1]
