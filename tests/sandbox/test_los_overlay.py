"""The sandbox's line-of-sight overlay for a dragged model (sim.sandbox.overlays.LosCache): its
pairs are answered a frame's budget at a time (one pair at least), stalest first, so that while
the ghost keeps moving every line is brought up to date within as many frames as a frame's
budget takes to cover the pairs, never the same pairs every frame; its answers are the pure
rules' for the ghost's position. A budget below zero answers one pair a frame (no clock read
for the answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.battle import Battle
from sim.rules.visibility import sight as VR
from sim.sandbox.overlays import LosCache
from sim.sandbox.scene import Scene
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def battle():
    with Battle(load_scenario(ROOT / "scenarios" / "battle_default.toml"), seed=1) as b:
        yield b


def test_every_line_is_refreshed_while_the_ghost_moves(battle):
    scene = Scene(battle)
    oid = "w-squad1/1"
    o = scene.models[oid]
    cache = LosCache(battle, budget=-1.0)   # (one pair a frame)
    pairs = None
    answered_at: dict = {}
    frames = 0
    for k in range(200):
        ghost = (o.fp.x + 0.03 * (k + 1), o.fp.y + 0.5)
        before = dict(cache._answered)
        lines = cache.compute(scene, [oid], {oid: ghost})
        frames += 1
        pairs = [(a, b) for a, b, _s, _o in lines]
        new = [p for p in pairs if cache._answered.get(p) != before.get(p)]
        assert len(new) == 1  # (one pair a frame, at least one)
        answered_at[new[0]] = k
    n = len(pairs)
    assert n > 10
    # (stalest first: within any n consecutive frames, each pair was answered once)
    assert set(answered_at) == set(pairs) and min(answered_at.values()) >= 200 - n
    # the answers are the pure rules' for the ghost where it was when each pair was answered
    blk = cache.blockers
    for (a, b), k in list(answered_at.items())[:8]:
        ofp = o.fp.moved(o.fp.x + 0.03 * (k + 1), o.fp.y + 0.5)
        t = scene.models[b]
        want = "blocked"
        wa, wb = blk.within(ofp), blk.within(t.fp)
        if VR.model_visible(ofp, t.fp, blk, wa, wb):
            want = "full" if VR.model_fully_visible(ofp, t.fp, blk, wa, wb) else "visible"
        assert cache._states[(a, b)] == want


def test_the_overlays_progressive_work_takes_what_the_rest_of_the_draw_leaves():
    """overlays.progressive_budget: a frame's progressive sight work (both overlays) is what the
    rest of the last frame's draw left of DRAW_AIM, never less than LEAST (the work moves on
    on any machine) nor more than MOST; before any frame, MOST."""
    from sim.sandbox import overlays as O
    assert O.progressive_budget(None) == O.MOST
    assert O.progressive_budget(0.0) == O.MOST                      # (a fast machine: what it was)
    assert O.progressive_budget(O.DRAW_AIM - 0.004) == pytest.approx(0.004)
    assert O.progressive_budget(O.DRAW_AIM) == O.LEAST              # (the draw takes the whole aim)
    assert O.progressive_budget(1.0) == O.LEAST
    assert O.LEAST < O.MOST and O.DRAW_AIM < 0.016                   # (issue 29: a frame under 16 ms)
