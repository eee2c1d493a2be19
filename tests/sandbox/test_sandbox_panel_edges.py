"""Every button of the right column's panels and of the phase tracker's strip is inside its
panel's visible area, clear of the scroll bar, at 800x600 (issue 28 leftovers): the Movement
phase's "fall back" selection sat under the orders panel's scroll bar (a row filled up to PAD +
width, width being the room up to the scroll bar), and the tracker's End phase button sat where
a scroll bar would be. A click at each button's centre presses it."""

from __future__ import annotations

import pygame
import pytest

from sandbox_support import ROOT
from sim.sandbox.widgets import SCROLL_BAR_W

SIZE = (800, 600)


def _flows(sb):
    return {"card": sb.card_flow, "orders": sb.orders_flow, "tracker": sb.tracker_flow}


def misplaced(sb) -> list[str]:
    """The buttons of the card, orders and tracker panels that a row lays (partly) outside the
    panel's area left of the scroll bar's room (whether the bar shows or not), with the visible
    ones also checked top to bottom."""
    bad = []
    for panel, flow in _flows(sb).items():
        if flow is None:
            continue
        outer = flow.outer.rect
        room = pygame.Rect(outer.x + 1, outer.y + 1, outer.w - 2 - SCROLL_BAR_W, outer.h - 2)
        inner = flow.scroll.get_container()
        bar = flow.scroll.vert_scroll_bar
        for name, b in sb.names.items():
            if not b.alive() or b.ui_container is not inner:
                continue
            r = b.rect
            if r.bottom <= room.top or r.top >= room.bottom:
                continue  # (scrolled out of sight)
            if r.left < room.left or r.right > room.right:
                bad.append(f"{panel} {name!r} at x {r.left}..{r.right}: the panel's room is {room.left}..{room.right}")
            elif bar is not None and bar.visible and r.colliderect(bar.rect):
                bad.append(f"{panel} {name!r} at {r} is under the scroll bar at {bar.rect}")
            elif r.top >= room.top and r.bottom <= room.bottom and not room.contains(r):
                bad.append(f"{panel} {name!r} at {r} is outside {room}")
    return bad


def _pressed_at_centre(d, name: str) -> bool:
    sb = d.sb
    b = d.button(name)
    pressed = []
    real = sb.actions[b]
    sb.actions[b] = lambda: pressed.append(name)
    try:
        d.click(b.rect.center)
    finally:
        if b in sb.actions:
            sb.actions[b] = real
    return pressed == [name]


def test_every_button_clear_of_the_scroll_bar_at_800x600(screen, make):
    pygame.display.set_mode(SIZE)
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=SIZE, w=SIZE[0], h=SIZE[1])
    d.pump(2)
    assert sb.size == SIZE
    assert misplaced(sb) == []
    d.click_button("phase:start")
    active = sb.battle.turn_state.active
    mid = next(m for m, v in sorted(sb.scene.models.items()) if v.alive and not v.removed and v.owner == active)
    d.click_model(mid)
    assert sb.selected_unit == sb.scene.models[mid].unit
    assert sb.orders_flow.scroll.vert_scroll_bar is not None  # (the panel scrolls: the bar takes room)
    assert misplaced(sb) == []
    for name in ("select:fall back", "select:advance", "phase:end", "phase:undo"):
        assert _pressed_at_centre(d, name), name


def test_the_tracker_keeps_the_round_at_800x600(screen, make):
    """At 800x600 the strip dropped the round ('R1/5') to fit CP and VP; the army whose turn it
    is gives way to its dot first, so the round, the phase, CP and VP all show."""
    pygame.display.set_mode(SIZE)
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=SIZE, w=SIZE[0], h=SIZE[1])
    d.pump(2)
    d.click_button("phase:start")
    sb.update(1 / 60)
    sb.draw()
    shown = sb.tracker_shown
    assert len(shown) == 4 and shown[0] == "R1/5", shown
    assert "Movement" in shown[1] and shown[2].startswith("CP") and shown[3].startswith("VP"), shown


@pytest.mark.parametrize("phase, step, vp, cp", [
    ("movement", None, (0, 10), (1, 3)),  # (what Xvfb showed: the round gone at 10 VP)
    ("fight", "pile in", (25, 30), (3, 2)),
])
def test_the_tracker_keeps_the_round_with_two_digit_scores_at_800x600(screen, make, phase, step, vp, cp):
    """Under Xvfb at 800x600, round 2 of battle_default against the computer: with 10 VP the
    strip dropped the round ("Movement | CP 1 3 | VP 0 10"). The phase's words give way first."""
    from sim.sandbox import tracker
    pygame.display.set_mode(SIZE)
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=SIZE, w=SIZE[0], h=SIZE[1])
    d.pump(2)
    info = tracker.TrackerInfo(2, 5, 1, 0 if phase == "fight" else 1, phase, step, cp, vp, False, None,
                               ("Wardens", "Raiders"))
    surf = pygame.Surface(SIZE)
    shown = tracker.draw_tracker(surf, sb.rects["tracker_text"], info, sb.colours, ui=sb.scale)
    assert shown[0] == "R2/5", shown
    assert shown[-2] == f"CP [0] {cp[0]} [1] {cp[1]}" and shown[-1] == f"VP [0] {vp[0]} [1] {vp[1]}", shown
    assert len(shown) == 4 and phase.title()[:4] in shown[1], shown
