"""Rendering never changes the world; screenshots of every scenario for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from sandbox_support import all_scenarios, shot

SHOTS = Path(__file__).resolve().parent / "screenshots"


def _modes(d):
    """Yield after putting the sandbox in each overlay mode (no command is submitted)."""
    sb = d.sb
    yield "plain"
    sb.show_los = True
    yield "los, nothing selected"
    units = [u for u, v in sb.scene.units.items() if not v.destroyed]
    kinds = set()
    for uid in units:
        v = sb.scene.units[uid]
        fp = sb.scene.models[v.models[0]].fp
        kind = (v.owner, len(v.models) > 1, v.engaged, v.embarked_in is None, v.carried > 0,
                fp.shape)
        if kind in kinds:  # (a unit drawn as one already drawn, elsewhere: the same drawing code)
            continue
        kinds.add(kind)
        first = sb.scene.living(uid)[0].id
        sb.select(uid, first)
        yield f"los from {first}"
        sb.begin_shoot()
        if sb.order is not None and sb.order.default_type:
            sb.choose_type(sb.order.default_type)
            for enemy in sb.order.targets():
                sb.assign_target(enemy)
        yield f"shoot order {uid}"
        sb.cancel()
        sb.begin_fight()
        yield f"fight order {uid}"
        sb.cancel()
        # a drag in progress (ghosts, rings, live lines of sight), released off-table by cancel
        pos = d.model_pos(first)
        sb.press = (pos, first, False)
        sb._drag_motion((pos[0] + 40, pos[1] + 25))
        yield f"dragging {uid}"
        sb.press = sb.drag = None
    sb.show_help = True
    yield "help"
    sb.show_help = False
    sb.highlighted = set(sb.scene.models)
    yield "highlight all"
    sb.camera.zoom_at(sb.camera.viewport.center, 3.0)
    yield "zoomed"
    sb.camera.fit()
    sb.toggle_setup()
    sb.pick_unit(sb.setup.library[0].id, 1)
    sb.mouse = sb.camera.viewport.center
    yield "set-up, placing a unit"
    sb.pick_terrain("ruins")
    yield "set-up, placing terrain"
    sb.toggle_setup()


@pytest.mark.parametrize("path", all_scenarios(), ids=lambda p: p.stem)
def test_drawing_never_changes_the_world(make, path):
    d = make(path)
    sb = d.sb
    before = sb.battle.state_hash()
    n_events = len(sb.battle.events)
    for mode in _modes(d):
        sb.update(1 / 60)
        sb.draw()
        assert sb.battle.state_hash() == before, f"drawing in mode {mode!r} changed the world"
    assert len(sb.battle.events) == n_events  # no command was even submitted


def _shot_scenarios():
    """The default scenario (its set-up shading and a replay being watched too); every scenario
    with SANDBOX_SHOTS=all (`make shots`): the pictures are for a person to look at, and the
    drawing of every scenario is the test above's."""
    every = all_scenarios()
    return every if os.environ.get("SANDBOX_SHOTS") == "all" else [p for p in every if p.stem == "default"]


@pytest.mark.parametrize("path", _shot_scenarios(), ids=lambda p: p.stem)
def test_screenshots(make, path):
    """Draws what tests/sandbox/screenshots/<scenario>*.png show a person (written by `make shots`)."""
    SHOTS.mkdir(exist_ok=True)
    d = make(path)
    sb = d.sb
    sb.update(1 / 60)
    shot(sb.draw(), SHOTS / f"{path.stem}.png")
    units = [u for u, v in sb.scene.units.items() if not v.destroyed]
    if units:
        first = sb.scene.living(units[0])[0].id
        d.click_model(first)
        sb.show_los = True
        sb.begin_shoot()
        if sb.order is not None and sb.order.default_type:
            sb.choose_type(sb.order.default_type)
        d.move((d.model_pos(sb.scene.living(units[-1])[0].id)))
        d.pump(2)
        shot(sb.draw(), SHOTS / f"{path.stem}-shoot.png")
    if path.stem == "default":  # set-up mode with the sight shading, and a replay being watched
        sb.cancel()
        sb.toggle_setup()
        sb.pick_terrain("woods")
        d.move(sb.camera.to_screen(30, 22))
        sb.select(units[0], sb.scene.living(units[0])[0].id)
        o = sb.scene.models[sb.selected_model]
        sb.sight.visible(o.fp)  # the whole mask now (it is otherwise spread over frames)
        d.pump(2)
        shot(sb.draw(), SHOTS / "default-setup.png")
        sb.toggle_setup()
        sb.open_replay(path.parent / "replays" / "default.jsonl")
        sb.replay_step(2)
        d.pump(2)
        shot(sb.draw(), SHOTS / "default-replay.png")


def test_a_frame_gives_the_overlays_the_progressive_budget(make, monkeypatch):
    """The draw hands the overlays' progressive sight work overlays.progressive_budget of the
    last frame's draw without that work (issue 29: the frame under 16 ms): the sight mask half
    of it, the lines of sight what the mask left; and it notes this frame's rest for the next."""
    from sim.sandbox import overlays
    d = make(Path(__file__).resolve().parents[2] / "scenarios" / "default.toml")
    sb = d.sb
    units = [u for u, v in sb.scene.units.items() if not v.destroyed]
    d.click_model(sb.scene.living(units[0])[0].id)
    sb.show_los = True
    asked, given = [], []
    monkeypatch.setattr(overlays, "progressive_budget", lambda rest: (asked.append(rest), 0.5)[1])
    was = sb.sight.draw
    monkeypatch.setattr(sb.sight, "draw", lambda surf, cam, fp, budget: (given.append(budget), was(surf, cam, fp, budget))[1])
    sb.update(1 / 60)
    sb.draw()
    first_rest = sb._draw_rest
    sb.draw()
    assert given == [0.25, 0.25] and asked[1] == first_rest and first_rest > 0
    assert 0.0 < sb.los.budget <= 0.5
