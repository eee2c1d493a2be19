"""Defects a real-window play of battle_default.toml found (issue 28, second pass): one
move-type control, status lines never losing their instruction, the tip kept off the targets,
chosen weapons shown as chosen, the tray's pool, distance labels that do not overlap, the
Fight phase's panel, and the words a person reads."""

from __future__ import annotations

import pygame
import pytest

from sandbox_support import DATA, FAST
from test_sandbox_battle import settle
from sim.phases.state import Phase

TABLE = DATA / "extra" / "battle_turn.toml"


def _toggled(d, prefix: str) -> list[str]:
    return sorted(n for n, b in d.sb.names.items() if n.startswith(prefix) and b.alive()
                  and b.object_ids[-1] == "#toggle_on")


def test_the_movement_panel_has_one_move_type_control_that_agrees_with_the_bar(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_model("runners/1")
    assert not [n for n in sb.names if n.startswith("mode:") and sb.names[n].alive()], "two move-type rows"
    assert _toggled(d, "select:") == ["select:normal"]
    d.key(pygame.K_m, "m")  # M and the row are the same control
    assert _toggled(d, "select:") == ["select:advance"] and "advance" in d.button("bar:move").text
    d.click_button("select:normal")
    assert _toggled(d, "select:") == ["select:normal"] and sb.move_mode == "normal"
    d.click_model("holders/1")
    d.click_button("select:stationary")
    settle(d)
    assert _toggled(d, "select:") == ["select:stationary"], sb.status
    assert "stationary" in d.button("bar:move").text, d.button("bar:move").text
    d.key(pygame.K_m, "m")  # (fixed by the selection: the row and the bar still agree)
    assert _toggled(d, "select:") == ["select:stationary"] and "stationary" in d.button("bar:move").text



LONG_REFUSAL = ("refused: Runner 2 of Runners would end within 1\" of Raider Mob's models (09.05, 1.00\" apart; "
                "the move may not end in Engagement Range) - the nearest legal spot, 0.12\" away, is shown: "
                "Enter makes the move, Esc drops it")


def test_a_long_status_keeps_its_instruction_and_its_tooltip_holds_it_whole(screen, make):
    pygame.display.set_mode((800, 600))
    d = make(TABLE)
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    d.pump(2)
    sb.status = LONG_REFUSAL
    d.pump(2)
    shown = sb.status_label.text
    assert shown != LONG_REFUSAL, "the line fits: the test shows nothing"
    assert shown.startswith("refused: Runner") and shown.endswith("Enter makes the move, Esc drops it"), shown
    assert sb.status_label.tool_tip_text and "0.12\" away" in sb.status_label.tool_tip_text
    assert "Raider Mob" in sb.status_label.tool_tip_text
    d.move(sb.status_label.rect.center)  # (hovered: its tip shows, over the tracker's buttons)
    for _ in range(60):
        d.pump(1)
        if sb.status_label.tool_tip is not None:
            break
    assert sb.status_label.tool_tip is not None
    sb.status = "short"
    d.pump(2)
    assert sb.status_label.text == "short" and sb.status_label.tool_tip_text is None
    assert sb.status_label.tool_tip is None, "the old line's tip stayed over the Undo button"


def test_the_hover_tip_keeps_clear_of_the_enemy_models_next_to_the_pointer(make):
    """Hovering a Brawler (in a fight with Raider Mob, just below it): the tip covered the
    Raider Mob models a player clicks to pick the fight's target."""
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_model("brawlers/1")
    d.move(d.model_pos("brawlers/2"))
    for _ in range(40):  # (the tip comes after a short hover)
        d.pump(1)
        if sb.tip_box is not None:
            break
    tip = sb.tip_box
    assert tip is not None, "no hover tip"
    k = sb.camera.scale
    for mid in ("mob/1", "mob/2", "mob/3", "brawlers/1", "brawlers/3"):
        x, y = d.model_pos(mid)
        r = sb.scene.models[mid].radius * k
        assert not tip.colliderect(pygame.Rect(x - r, y - r, 2 * r, 2 * r)), (mid, tip)


def _ask_weapons(d):
    from sim.decisions import DecisionRequest
    sb = d.sb
    sb.battle.pending = DecisionRequest(
        "weapons", "Fire Overwatch: runners -> mob", 0, ["rifle", "pistol"], ["rifle", "pistol"],
        prompt="runners shoots at mob with snap shooting: with which weapons? (04.01)",
        context={"stratagem": "Fire Overwatch"})
    sb.dirty.add("orders")
    d.pump(2)


def test_overwatch_weapons_say_which_are_chosen_not_only_by_colour(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    _ask_weapons(d)
    try:
        assert d.button("pick:0").text == "[x] rifle" and d.button("pick:1").text == "[x] pistol"
        assert d.button("confirm").text == "Confirm: 2 of 2 chosen"
        d.click_button("pick:1")
        assert d.button("pick:1").text == "[  ] pistol" and d.button("pick:1").object_ids[-1] == "#toggle"
        assert "not chosen" in d.button("pick:1").tool_tip_text
        assert d.button("confirm").text == "Confirm: 1 of 2 chosen"
    finally:
        sb.battle.pending = None


def test_the_computers_last_unit_is_not_selected_into_the_persons_turn(make):
    from test_play_vs_computer import TABLE as DEFAULT, play_computer_turn
    d = make(DEFAULT, ai={1: "default"}, ai_speed=FAST, ask_ai=False)
    sb = d.sb
    d.key(pygame.K_e, "e")
    play_computer_turn(d)
    assert sb.battle.turn_state.active == 0 and sb.battle.turn_state.phase == Phase.MOVEMENT
    d.pump(2)
    assert sb.selected_unit is None or sb.scene.units[sb.selected_unit].owner == 0, sb.selected_unit


def test_the_fight_phase_panel_has_no_move_type_row(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    for _ in range(10):
        if sb.battle.turn_state.phase == Phase.FIGHT:
            break
        d.key(pygame.K_e, "e")
        settle(d)
    assert sb.battle.turn_state.phase == Phase.FIGHT
    d.click_model("brawlers/1")
    d.pump(2)
    assert not [n for n in sb.names if n.startswith(("mode:", "select:")) and sb.names[n].alive()]
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    texts = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
    assert "Fight" in texts and "Shift-drag" not in texts and "Drag a model" not in texts, texts


def test_the_calculators_range_shows_its_inch_mark_whole_at_800x600(screen, make):
    from sandbox_support import ROOT
    pygame.display.set_mode((800, 600))
    d = make(ROOT / "scenarios" / "battle_default.toml")
    d.post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    d.pump(2)
    d.click_button("bar:calculator")
    b = d.button("calc:range")
    assert b.text == '12"'
    need = b.font.size(b.text)[0] if hasattr(b.font, "size") else b.font.get_rect(b.text).w
    assert b.rect.w >= need + 8, (b.rect.w, need)


def _board_box(sb) -> pygame.Rect:
    cam = sb.camera
    (x0, y0), (x1, y1) = cam.to_screen(0, 0), cam.to_screen(*cam.board)
    return pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))


@pytest.mark.parametrize("size", [(1440, 900), (1024, 700), (800, 600)])
def test_unit_labels_stay_inside_the_table(screen, make, size):
    from sandbox_support import ROOT
    pygame.display.set_mode(size)
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
    d.pump(3)
    board = _board_box(sb).inflate(2, 2)
    placed = sb.table_labels.placed
    riders = [p for p in placed if p.kind == "unit" and sb.scene.units[p.key].name == "Raider Riders"]
    assert riders or size == (800, 600), [p.key for p in placed]
    out = [(sb.scene.units[p.key].name, p.rect) for p in placed if p.kind == "unit" and not board.contains(p.rect)]
    assert not out, (board, out)


def test_the_odds_and_the_order_read_as_words_not_modules(make):
    """No module name ("(sim.odds)") and no "weapon(s)" where a person reads them."""
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    from test_sandbox_odds import TABLE as ODDS, _declare, _settle as settle_odds
    d = make(ODDS)
    sb = d.sb
    _declare(d)
    settle_odds(d)
    texts = [e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine))]
    texts += sb.odds.note_lines() + [sb.status, sb.order.message or ""]
    assert any(t == "Odds" for t in texts), texts
    assert not [t for t in texts if "sim." in t or "(s)" in t], texts


def test_the_distances_under_a_staged_line_of_models_do_not_overlap(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_model("squad/1")
    ms = [sb.scene.models[f"squad/{i}"] for i in range(1, 6)]
    far = {"squad/4": 2.6}  # (the one moved furthest: its label is kept)
    sb.stage({"unit": "squad", "mode": "normal",
              "ghosts": {m.id: (m.x, m.y + far.get(m.id, 2.0)) for m in ms},
              "origin": {m.id: (m.x, m.y, 6.0) for m in ms}})
    sb.draw()
    shown = sb.staged_labels
    rects = [r for _m, r in shown]
    assert all(a.collidelist([b for b in rects if b is not a]) < 0 for a in rects), rects
    assert "squad/4" in [m for m, _r in shown] and 0 < len(shown) < 5, shown
    assert sb.status.startswith("Centre Squad: 5 models placed"), sb.status  # (not "model(s)")


def test_after_a_reroll_answer_the_tray_shows_the_rolled_dice(make):
    from test_sandbox_tray import _ask_hit_reroll
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    assert b.pending is not None
    d.click_button("die:1")
    d.pump(3)
    rows = sb.tray.info["rows"] if sb.tray.info else []
    hits = [r for r in rows if r[0] == "Hit"]
    assert hits and len(hits[-1][1]) == 3, (rows, sb.status)
    assert "next: hit" not in sb.status, sb.status


def test_a_new_order_clears_the_last_activations_pool_from_the_tray(make):
    from test_sandbox_tray import _battle
    from sim.commands import Selection, Shoot
    d, b = _battle(make, [4] * 60, cp=(0, 0))
    sb = d.sb
    sb.submit(Shoot("r1", (Selection("r1/1", "guns", "b1"),)))
    d.pump(2)
    sb.finish()
    d.pump(3)
    assert sb.tray.info is not None  # (the pool just resolved stays in view)
    d.click_model("r2/1")
    d.key(pygame.K_s, "s")
    assert sb.order is not None, sb.status
    d.pump(2)
    assert sb.tray.info is None, sb.tray.info


def test_a_staged_distance_keeps_off_the_names_on_the_table(make):
    """Under Xvfb a snapped move's per-model distance ("2.4\\"/6\\"") sat on a terrain area's
    name: the distances are placed with the table's labels (sim.sandbox.labels), clear of every
    name, model and ghost, beside their ghost."""
    from sandbox_support import ROOT
    from sim.sandbox.labels import TERRAIN
    d = make(ROOT / "scenarios" / "battle_default.toml", seed=1)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    names = [p for p in sb.table_labels.placed if p.kind == TERRAIN]
    assert names
    mine = [m for m in sb.scene.models.values() if m.alive and m.owner == sb.battle.turn_state.active]
    cam = sb.camera
    tried = 0
    for p in names:  # (a model set down just over a terrain name: its distance would go under it, on the name)
        m = min(mine, key=lambda m: (m.x - cam.to_table(*p.rect.center)[0]) ** 2 + (m.y - cam.to_table(*p.rect.center)[1]) ** 2)
        rad = cam.length(m.radius)
        gx, gy = cam.to_table(p.rect.centerx, p.rect.top - rad - 1)
        sb.stage({"unit": m.unit, "mode": "normal", "ghosts": {m.id: (gx, gy)}, "origin": {m.id: (m.x, m.y, 6.0)}})
        sb.draw()
        if sb.staged is None:
            continue
        tried += 1
        table = [q.rect for q in sb.table_labels.placed]
        for mid, r in sb.staged_labels:
            assert r.collidelist(table) < 0, (mid, r, [q.key for q in sb.table_labels.placed if q.rect.colliderect(r)])
        assert [mid for mid, _r in sb.staged_labels] == [m.id]  # (still shown, beside its ghost)
        sb.cancel_staged() if hasattr(sb, "cancel_staged") else d.key(pygame.K_ESCAPE)
    assert tried


def test_the_shoot_panel_cuts_no_text_at_800x600(screen, make):
    """Under Xvfb at 800x600 the Shoot panel's heading read "Weapons (click to select per m...":
    no label or button of the orders panel is cut (its text ends in "..." or is wider than it)
    once a unit's shooting is declared at a target."""
    from sandbox_support import ROOT
    pygame.display.set_mode((800, 600))
    d = make(ROOT / "scenarios" / "battle_default.toml", seed=2)  # (Wardens have the first turn)
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    d.pump(2)
    d.key(pygame.K_e, "e")
    assert sb.battle.turn_state.active == 0
    while sb.battle.turn_state.phase != Phase.SHOOTING:
        d.key(pygame.K_e, "e")
    d.click_model("w-squad3/1")
    d.key(pygame.K_s, "s")
    d.click_model("r-squad3/1")
    assert sb.order is not None and sb.order.type is not None, sb.status
    cut = [w.text for w in sb.orders_flow.scroll.get_container().elements
           if hasattr(w, "font") and isinstance(getattr(w, "text", None), str)
           and (w.text.endswith("...") or w.font.size(w.text)[0] > w.rect.w)]
    assert cut == [], cut
