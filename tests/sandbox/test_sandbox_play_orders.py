"""Orders a real-window play found offered when the rules would refuse them (issue 28 leftovers):
a unit that already shot this phase kept a live Shoot button (the order was built, its targets
drawn as legal, and only Resolve said "already selected to shoot"); now Shoot is greyed with the
reason and S says it. The odds block says a refusal in full, wrapped, with names."""

from __future__ import annotations

import re

import pygame

from sandbox_support import FAST

from sim.sandbox.odds_panel import BG
from sim.phases.state import Phase
from test_sandbox_battle import _labels, settle
from test_sandbox_moves import mission
from test_sandbox_odds import TABLE, _declare, _settle


def test_a_unit_that_shot_cannot_start_another_shoot_order(make):
    d = mission(make, seed=5, phase=Phase.SHOOTING)
    sb = d.sb
    d.click_model(sb.scene.living("squad")[0].id)
    assert d.button("shoot").object_ids[-1] != "#unavailable"
    d.key(pygame.K_s, "s")
    if sb.order.type is None:
        d.click_button("type:normal")
    d.click_model(sb.scene.living("mob")[0].id)
    d.key(pygame.K_RETURN, "\r")
    settle(d)
    assert sb.order is None and sb.status.startswith("done: shoot"), sb.status
    d.click_model(sb.scene.living("squad")[0].id)
    b = d.button("shoot")
    assert b.object_ids[-1] == "#unavailable", b.object_ids
    assert "already selected to shoot this phase (10.02)" in b.tool_tip_text, b.tool_tip_text
    assert d.button("bar:shoot").object_ids[-1] == "#unavailable"
    d.key(pygame.K_s, "s")
    assert sb.order is None
    name = sb.scene.units["squad"].name
    assert f"{name} was already selected to shoot this phase (10.02)" in sb.status, sb.status


def test_the_odds_refusal_is_said_in_full_with_names(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    _settle(d)
    s = next(s for s in sb.order.slots if s.selected)
    s.target = "pickets"  # (a target the rules refuse: test_sandbox_odds)
    d.pump(2)
    odds = sb.odds
    assert odds.state == "refused"
    why = sb.battle.check(sb.order.command())
    assert odds.lines() == [f"no odds: {sb.said(why)}"]
    assert not re.search(r"(?<![\w/-])(snipers|guards|pickets)(?![\w-])", odds.lines()[0]), odds.lines()
    odds.size = (200, odds.height())  # (a narrow panel: the reason wraps onto more rows)
    surf = odds.render()
    inked = [y for y in range(surf.get_height())
             if any(surf.get_at((x, y))[:3] != BG[:3] for x in range(surf.get_width()))]
    assert inked and max(inked) - min(inked) > 2 * 16, (min(inked), max(inked))  # (three rows or more)


def test_finish_goes_past_a_command_reroll_the_setting_does_not_ask(make):
    """With 'never' chosen for both armies, one Finish resolves the whole attack (was: it stopped
    at each Command Re-roll question, declined a frame later, and Finish had to be pressed again
    for every roll)."""
    from sim.rules import command_reroll as RR
    from sim.sandbox.decision_panel import set_reroll_setting
    d = mission(make, seed=5, phase=Phase.SHOOTING)
    sb = d.sb
    for player in (0, 1):
        set_reroll_setting(sb, player, RR.NEVER)
    start = len(sb.battle.events)
    d.click_model(sb.scene.living("squad")[0].id)
    d.key(pygame.K_s, "s")
    if sb.order.type is None:
        d.click_button("type:normal")
    d.click_model(sb.scene.living("mob")[0].id)
    d.key(pygame.K_RETURN, "\r")
    assert sb.resolving
    sb.finish()  # (the Finish button's call, without the frames after it)
    assert not sb.resolving and sb.battle.pending is None, sb.status
    declined = [e for e in sb.battle.events[start:] if e["type"] == "decision" and "Re-roll" in str(e)]
    assert declined, "no Command Re-roll was offered: the test would not see the defect"


def test_a_unit_whose_charge_failed_has_a_greyed_charge_button(make):
    """After its charge failed the unit's Charge button is greyed with the reason (was live: a
    second press was refused only in the status line)."""
    from test_sandbox_moves import _settle as answer_defaults
    d = mission(make, seed=4, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    b = d.button("charge")
    assert b.object_ids[-1] != "#unavailable", b.tool_tip_text
    d.key(pygame.K_c)
    answer_defaults(d)
    assert sb.placement is not None and sb.placement.stage == "failed", sb.status
    d.key(pygame.K_ESCAPE)
    d.click_model("chargers/3")
    b = d.button("charge")
    assert b.object_ids[-1] == "#unavailable", b.object_ids
    name = sb.scene.units["chargers"].name
    assert f"{name}'s charge has already been resolved this phase (11.02)" in b.tool_tip_text, b.tool_tip_text


def test_end_phase_is_greyed_while_the_computer_has_the_turn(make):
    """The tracker's End phase was green during the computer's turn (E was refused, the reason
    overwritten at once by "is thinking..."): now greyed, its tip says why."""
    from test_play_vs_computer import TABLE as CROSSING, start
    d = make(CROSSING, ai={1: "default"}, ai_speed=0, ask_ai=False)  # (0: paused; blue moves first)
    sb = d.sb
    start(d)
    d.pump(2)
    assert sb.battle.turn_state.chooser == 1
    b = d.button("phase:end")
    assert b.object_ids[-1] == "#unavailable", b.object_ids
    assert "the computer plays Raiders" in b.tool_tip_text, b.tool_tip_text


def test_an_empty_fight_phase_handed_over_by_the_computer_is_skipped(make):
    """The computer's Fight phase with nothing engaged: its steps came to the person one by one
    (pile in, fight, consolidate: three End phase presses for nothing); with empty phases skipped
    (the setting `sim play` starts with) they end by themselves and the person's turn begins."""
    from test_play_vs_computer import TABLE as CROSSING, start
    d = make(CROSSING, ai={1: "default"}, ai_speed=FAST, ask_ai=False)
    sb = d.sb
    sb.skip_empty_phases = True
    start(d)
    for _ in range(3000):
        d.pump(1, draw=False)
        if sb.battle.pending is not None:
            d.click_button("confirm" if sb.battle.pending.kind in ("allocation_order", "coherency_removal")
                           else "default")
            continue
        ts = sb.battle.turn_state
        if ts.active == 0 and ts.phase == Phase.MOVEMENT and not sb.resolving:
            break
    else:
        raise AssertionError(f"the person's turn did not come: {sb.status}")
    fights = [e for e in sb.battle.events if e["type"] == "step" and "fight" in str(e).lower()]
    assert fights, "the computer's Fight phase was not reached"
    d.pump(2)
    assert not sb.highlighted, sb.highlighted  # (the computer's last unit is not ringed on the person's turn)


def test_the_computers_repeated_lines_show_once_counted(make):
    """The computer's part of the orders panel showed 'Tactician: end phase' three times in a
    row (its Fight phase steps); a run of equal lines is one line with its count."""
    from test_play_vs_computer import TABLE as CROSSING, start
    from sim.sandbox.computer_panel import repeats
    assert repeats(["a", "b", "b", "b", "a"]) == [("a", 1), ("b", 3), ("a", 1)]
    d = make(CROSSING, ai={1: "default"}, ai_speed=0, ask_ai=False)
    sb = d.sb
    start(d)
    line = "> Raiders (computer): Tactician: end phase"
    sb.ai_last = ["> Raiders (computer): Tactician: Raider Mob (1) moves", line, line, line]
    sb.dirty.add("orders")
    d.pump(2)
    shown = [lab.text for lab in _labels(sb.orders_flow) if "Tactician" in lab.text]
    assert shown == ["Raiders (computer): Tactician: Raider Mob (1) moves",
                     "Raiders (computer): Tactician: end phase (3 times)"], shown


def test_an_engaged_unit_is_not_told_to_drag_a_normal_move(make):
    """The Movement phase's panel told an engaged unit 'A normal move needs no selection: drag
    the unit.' (the drag is then refused: 09.05); it says to fall back or remain stationary."""
    from test_sandbox_battle import TABLE as TURN
    d = make(TURN)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_model("brawlers/1")
    assert sb.scene.units["brawlers"].engaged
    shown = " ".join(lab.text for lab in _labels(sb.orders_flow))
    assert "Engaged: no normal move (09.05)" in shown and "needs no selection" not in shown, shown
    d.click_model("squad/1")  # (a unit not engaged: as before)
    shown = " ".join(lab.text for lab in _labels(sb.orders_flow))
    assert "Drag a model to move the unit" in shown and "Engaged" not in shown, shown


def test_on_the_persons_turn_the_computers_part_is_one_line(make):
    """Under Xvfb at 800x600, on the person's turn the computer's buttons and its last three
    commands filled the orders panel and pushed the person's Movement phase below it: on the
    person's turn the computer's part is its name and one line (its commands are in the log)."""
    from test_play_vs_computer import TABLE as CROSSING, start
    d = make(CROSSING, ai={0: "default"}, ai_speed=0, ask_ai=False)
    sb = d.sb
    start(d)
    assert sb.battle.turn_state.chooser not in sb.ai  # (blue, the person, has the first turn)
    sb.ai_last = ["> Wardens (computer): Default: Warden Squad (1) moves", "> Wardens (computer): Default: end phase"]
    sb.dirty.add("orders")
    d.pump(2)
    texts = [lab.text for lab in _labels(sb.orders_flow)]
    assert not [t for t in texts if "Default:" in t], texts
    assert "ai:pause" not in sb.names or not sb.names["ai:pause"].alive()
    assert any("waits for your turn" in t for t in texts), texts
