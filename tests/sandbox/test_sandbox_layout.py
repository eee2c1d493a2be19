"""The layout at 1024x700, 1440x900 and 2560x1440 (issue 15), driven by posted events: every
button of the action bar and of the footer is inside the window and is the widget a click at
its centre presses (nothing covers it, no scroll hides it); the dice tray draws every die of a
pool and its hazard rolls; unit labels overlap no other label and no model; screenshots of
every mode at every size for a person to look at (tests/sandbox/screenshots/layout-*.png)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from sandbox_support import DATA, ROOT, shot

SIZES = [(1024, 700), (1440, 900), (2560, 1440)]
SHOTS = Path(__file__).resolve().parent / "screenshots"
TRAY = DATA / "tray.toml"
PRECISION = DATA / "precision_hazard.toml"


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def screen(request):
    """The window at each size (the conftest's ``make`` opens its sandbox on this one)."""
    pygame.init()
    surf = pygame.display.set_mode(request.param)
    pygame.event.clear()
    yield surf
    pygame.event.clear()


def _shot(d, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    d.pump(2)
    w, h = d.sb.size
    shot(d.sb.draw(), SHOTS / f"layout-{name}-{w}x{h}.png")


def _unreachable(d, names) -> list[str]:
    """The buttons among ``names`` that are outside the window, overlap another of them, or
    that a click at their centre does not press (their callbacks are swapped for a recorder
    while clicking, so nothing happens to the sandbox)."""
    sb = d.sb
    window = pygame.Rect((0, 0), sb.size)
    pressed = []
    real = dict(sb.actions)
    for b in list(sb.actions):
        sb.actions[b] = lambda b=b: pressed.append(b)
    bad = []
    try:
        buttons = [(n, d.button(n)) for n in names]
        for i, (n, b) in enumerate(buttons):
            if not window.contains(b.rect):
                bad.append(f"{n} at {b.rect} is outside the {sb.size} window")
                continue
            for m, o in buttons[i + 1:]:
                if b.rect.colliderect(o.rect):
                    bad.append(f"{n} at {b.rect} overlaps {m} at {o.rect}")
            pressed.clear()
            d.click(b.rect.center)
            if pressed != [b]:
                bad.append(f"{n}: a click at {b.rect.center} pressed {[x.text for x in pressed]}")
    finally:
        sb.actions.clear()
        sb.actions.update(real)
    return bad


def _bar(sb) -> list[str]:
    return sorted(n for n in sb.names if n.startswith("bar:"))


def _footer(sb) -> list[str]:
    return [s["name"] for s in sb.footer_flow.specs if s is not None and s.get("name")]


def _declare_shot(d, shooter="gunners/1", target="horde/1"):
    sb = d.sb
    d.click_model(shooter)
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model(target)
    assert sb.order.selections(), sb.status


def test_every_button_reachable_in_every_mode(make):
    d = make(TRAY)
    sb = d.sb
    # battle: a unit selected, nothing declared
    d.click_model("gunners/1")
    assert not _unreachable(d, _bar(sb))
    assert {"bar:shoot", "bar:fight", "bar:move", "bar:step", "bar:end"} <= set(_bar(sb))
    # the rows of the action bar fit: it is never a scrolled strip
    assert sb.action_flow.outer.rect.h == sb.action_flow.height_for(sb.action_flow.outer.rect.w)
    _shot(d, "battle")
    # an order declared: the footer finishes it (Resolve reachable)
    _declare_shot(d)
    assert {"resolve", "clear", "cancel"} <= set(_footer(sb))
    assert not _unreachable(d, _bar(sb) + _footer(sb))
    _shot(d, "shoot-order")
    # resolving: Step, Auto, Finish
    d.click_button("resolve")
    d.click_button("step")
    assert sb.resolving
    assert sb.status.startswith("resolving shoot gunners") and "pool 1 of 1" in sb.status, sb.status  # (not "accepted: ...")
    assert not _unreachable(d, _footer(sb))
    _shot(d, "resolving")
    d.click_button("finish")
    assert not sb.resolving
    # set-up (after commands not saved: confirmed in the dialog first)
    d.key(pygame.K_F2)
    if sb.confirm_dialog() is not None:
        d.click(sb.confirm_dialog().confirm_button.rect.center)
    assert sb.mode == "setup"
    assert not _unreachable(d, _bar(sb) + _footer(sb))
    _shot(d, "setup")
    d.key(pygame.K_F2)
    # a replay being watched
    assert sb.open_replay(ROOT / "scenarios" / "replays" / "default.jsonl"), sb.status
    d.pump(2)
    for _ in range(9):
        d.key(pygame.K_RIGHT)
    assert sb.mode == "replay"
    assert not _unreachable(d, _bar(sb) + _footer(sb))
    _shot(d, "replay")


def test_a_decision_is_reachable_and_the_tooltip_hides(make):
    """[PRECISION]: the decision's buttons are reachable, no hover tooltip covers the CHARACTER
    to click, and the defender's allocation dialog after it says precision overrides it."""
    for seed in range(1, 40):
        d = make(PRECISION, seed=seed)
        sb = d.sb
        d.click_model("snipers/2")
        d.key(pygame.K_s, "s")
        d.click_button("type:normal")
        d.click_model("guards/1")
        d.key(pygame.K_RETURN, "\r")
        for _ in range(60):
            req = sb.battle.pending
            if not sb.resolving or (req is not None and req.kind == "precision"):
                break
            d.click_button("default") if req is not None else d.key(pygame.K_SPACE, " ")
        req = sb.battle.pending
        if req is None or req.kind != "precision":
            continue
        assert not sb.status.startswith("accepted"), sb.status
        assert not _unreachable(d, _footer(sb) + [f"answer:{o}" for o in req.options])
        pool = next(t for t, _ in sb._log_items if t.strip().startswith("pool 1:"))
        assert "modifier: [HEAVY] (24.16) +1" in pool and "[[" not in pool, pool
        d.move(d.model_pos("captain"))
        d.pump(2)
        assert sb.hover_model == "captain"
        assert sb._tip_lines(sb.look()) == [], "a tooltip covers the CHARACTER to click"
        _shot(d, "decision")
        d.click_model("captain")
        for _ in range(60):
            req = sb.battle.pending
            if req is not None and req.kind == "allocation_order":
                text = " ".join(lab.text for lab in _labels(sb.orders_flow))
                assert "PRECISION" in text and "captain" in text, text
                _shot(d, "allocation-after-precision")
                return
            if not sb.resolving:
                break
            d.click_button("default") if req is not None else d.key(pygame.K_SPACE, " ")
        # (no allocation order was asked for this seed: the tooltip part held; try another)
    pytest.skip("no seed reached an allocation order after [PRECISION]")


def _labels(flow):
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    return [e for e in flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine))]


def test_the_hover_tooltip_shows_outside_a_decision(make):
    """(The other side of the tooltip test: hovering a CHARACTER shows its line.)"""
    d = make(PRECISION)
    d.move(d.model_pos("captain"))
    d.pump(2)
    assert any("CHARACTER" in t for t in d.sb._tip_lines(d.sb.look()))


def test_dice_tray_shows_every_die_and_the_hazard_rolls(make):
    """Eight hazardous guns: the tray draws all 8 hit dice and the 8 hazard rolls after the
    attacks; save dice show what they need and their outcome as soon as they are rolled."""
    d = make(TRAY)
    sb = d.sb
    _declare_shot(d)
    d.click_button("resolve")
    saw_saves = False
    for _ in range(40):
        if not sb.resolving:
            break
        d.click_button("default") if sb.battle.pending is not None else d.click_button("step")
        last = [e["type"] for e in sb.battle.events if e["type"] != "dice"][-1:]
        if last == ["save rolls"]:
            saw_saves = True
            row = next(r for r in sb.tray.info["rows"] if r[0] == "Save")
            assert row[1] and all(res is not None for _v, res in row[1]), row
            assert "needs 6+" in row[2], row[2]  # Sv 5+ against AP-1
    assert not sb.resolving and saw_saves
    hits = next(e for e in sb.battle.events if e["type"] == "hit rolls")
    hazard = next(e for e in sb.battle.events if e["type"] == "hazard rolls")
    assert len(hits["rolls"]) == 8 and len(hazard["rolls"]) == 8
    rows = dict(sb.tray.layout.rows)
    assert rows["Hit"] == 8 and rows["Hazard"] == 8, sb.tray.layout.rows
    assert sb.tray.layout.head.startswith("Pool 1:")
    assert not any(" pool 0:" in t for t, _ in sb._log_items)
    _shot(d, "dice-tray")


def test_unit_labels_do_not_overlap(make):
    d = make(ROOT / "scenarios" / "default.toml")
    sb = d.sb
    d.pump(2)
    rects = sb.label_rects
    assert len(rects) == sum(1 for u in sb.scene.units.values() if not u.destroyed)
    items = sorted(rects.items())
    for i, (a, ra) in enumerate(items):
        assert sb.camera.viewport.contains(ra), (a, ra)
        for b, rb in items[i + 1:]:
            assert not ra.colliderect(rb), f"the labels of {a} {ra} and {b} {rb} overlap"
        for m in sb.scene.models.values():
            if m.alive:
                x, y = sb.camera.to_screen(m.x, m.y)
                r = m.fp.length * 0.5 * sb.camera.scale
                base = pygame.Rect(round(x - r) + 1, round(y - r) + 1, round(2 * r) - 2, round(2 * r) - 2)
                if m.fp.shape == "round":
                    assert not ra.colliderect(base), f"the label of {a} {ra} covers {m.id}"


def test_a_rectangular_base_is_outlined_as_a_rectangle(make):
    d = make(TRAY)
    sb = d.sb
    d.click_model("tank/1")
    assert sb.selected_model == "tank/1"
    surf = sb.draw()
    m = sb.scene.models["tank/1"]
    cx, cy = (round(v) for v in sb.camera.to_screen(m.x, m.y))
    k = sb.camera.scale
    from sim.sandbox import style as S

    def near(y, colour):
        return any(tuple(surf.get_at((cx, yy)))[:3] == colour for yy in range(y - 1, y + 2))
    # the selection outline 2 px below the base's bottom edge (half its width away), not a
    # circle of half its length (the label is above it)
    assert near(round(cy + m.fp.width * 0.5 * k + 2), S.SELECT)
    assert not near(round(cy + m.fp.length * 0.5 * k + 2), S.SELECT)
    # a highlighted base (a log line's models): the same, 4 px out, above and below
    sb.select(None)
    sb.highlighted = {"tank/1"}
    surf = sb.draw()
    for side in (-1, 1):
        assert near(round(cy + side * (m.fp.width * 0.5 * k + 4)), S.HIGHLIGHT)
        assert not near(round(cy + side * (m.fp.length * 0.5 * k + 4)), S.HIGHLIGHT)


def test_long_log_lines_wrap(make):
    d = make(TRAY)
    sb = d.sb
    _declare_shot(d)
    d.click_button("resolve")
    d.click_button("finish")
    from sim.sandbox import fonts, style
    f = fonts.font(style.font_px(12, sb.scale))
    width = sb._log_wrap[0]
    rows = sb._log_wrap[1]
    assert all(f.size(t)[0] <= width or " " not in t.strip() for t, _ in rows)
    pool = next(t for t, _ in sb._log_items if t.strip().startswith("pool 1:"))
    parts = [t for t, oid in rows if oid == next(o for t2, o in sb._log_items if t2 == pool)]
    assert " ".join(p.strip() for p in parts) == pool.strip()
    if f.size(pool)[0] > width:
        assert len(parts) > 1


def test_the_last_unit_of_an_army_is_not_removed(make):
    d = make(TRAY)
    sb = d.sb
    d.key(pygame.K_F2)
    d.click_model("horde/1")
    assert sb.selected_unit == "horde"
    d.key(pygame.K_DELETE)
    assert "horde" in sb.scene.units
    assert "last unit" in sb.status and "<missing>" not in sb.status, sb.status


def test_move_wording(make):
    """An advance reads "makes an advance move"; one model moved is "1 model"."""
    d = make(TRAY)
    sb = d.sb
    d.click_model("tank/1")
    d.key(pygame.K_m, "m")
    assert sb.move_mode == "advance"
    a = d.model_pos("tank/1")
    d.drag(a, (a[0] + 3 * sb.camera.scale, a[1]))
    text = [t.strip() for t, _ in sb._log_items]
    assert "== Warden Tank makes an advance move" in text, text  # (the log reads names: sim.names)
    assert any(t.startswith("moved 1 model,") for t in text), text
