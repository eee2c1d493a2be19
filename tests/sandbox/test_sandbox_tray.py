"""Issue 28 items 1, 2, 3, 5, 6 in the sandbox: names a person reads (numbered when two units
share one); a Command Re-roll asked with its dice in the tray (a click re-rolls one, counted from
1) and not asked when the person's setting says so; the decision's default always in view; orders
the phase does not accept greyed with the reason (S, F too), S choosing the one shooting type
allowed; End phase saying what is pending; the tray true to snap shooting, cleared by the next
command, drawing no die that was not used."""

from __future__ import annotations

import pygame

from sandbox_support import DATA
from sim import events as ev
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.replay.log import Recorder
from sim.rules.attack import FAIL, SUCCESS
from sim.rules.dice import ForcedDice
from sim.sandbox import dice_tray

TABLE = DATA / "reroll_tray.toml"


def _battle(make, dice, phase="shooting", cp=(2, 0)):
    """A sandbox on a battle with forced dice, in red's ``phase`` of round 1 with ``cp``."""
    d = make(TABLE)
    sb = d.sb
    spec = sb.spec
    b = Battle(spec, dice=ForcedDice(list(dice)))
    sb.adopt_battle(b, Recorder(b, "test.toml"))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    while str(b.turn_state.phase) != phase:
        b.run_command(EndPhase())
    b.turn_state.cp = list(cp)
    d.pump(2)
    return d, b


def _ask_hit_reroll(make, dice=(1, 4, 6)):
    d, b = _battle(make, list(dice) + [4] * 40)
    sb = d.sb
    sb.submit(Shoot("r1", (Selection("r1/1", "guns", "b1"),)))
    d.pump(2)
    sb.finish()
    d.pump(3)
    return d, b


def test_units_sharing_a_name_are_numbered_everywhere(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    assert sb.scene.units["r1"].name == "Raider Mob (1)" and sb.scene.units["r2"].name == "Raider Mob (2)"
    assert "Raider Mob (1)" in sb.status_label.text and "r1" not in sb.status_label.text.split()
    logged = " ".join(t for t, _ in sb._log_items)
    assert "Raider Mob (1) is selected to shoot" in logged and "at Warden Squad" in logged
    assert " r1 " not in f" {logged} " and "b1" not in logged.replace("(", " ").split()
    assert sb.tray.layout.head.endswith("at Warden Squad")


def test_a_reroll_question_shows_the_dice_and_a_click_on_one_rerolls_it(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    req = b.pending
    assert req is not None and req.context["stratagem"] == "Command Re-roll" and req.context["values"] == [1, 4, 6]
    label, dice, _note = sb.tray.info["rows"][-1]
    assert label == "Hit?" and [v for v, _r in dice] == [1, 4, 6] and dice[0][1] == FAIL
    # counted from 1 where a person reads it: the die offered is the first
    assert "pool 1, hit die 1 (rolled 1)" in d.button("answer:pool 0 hit 0: 1").text
    assert sorted(k for k in sb.names if k.startswith("die:")) == ["die:1"]  # (only the die that can do better)
    d.click_button("die:1")
    sb.finish()
    d.pump(2)
    used = [e for e in b.events if e["type"] == ev.STRATAGEM]
    assert used and used[-1]["stratagem"] == "Command Re-roll" and b.turn_state.cp[0] == 1


def test_the_persons_setting_never_declines_without_asking(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    assert b.pending is not None
    d.click_button("ask:never")  # (the setting, in the question itself)
    d.pump(2)
    assert b.pending is None and sb.reroll_asks[0] == "never"
    decided = [e for e in b.events if e["type"] == ev.DECISION and e["key"].startswith("Command Re-roll")]
    assert decided[-1]["answer"] == "decline"  # (the log keeps the decline: a replay is the same)


def test_only_failed_rolls_keeps_the_failed_dice(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    sb.reroll_asks = ["failed", "always"]
    sb.dirty |= {"orders", "dice"}
    d.pump(2)
    assert b.pending is not None and "die:1" in sb.names  # (the 1 failed: still asked)


def test_the_default_answer_stays_in_view_in_the_footer(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    btn = d.button("default")
    assert "decline" in btn.text and sb.rects["footer"].contains(btn.rect)


def test_end_phase_says_what_is_pending_in_words(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    sb.end_phase()
    assert "A has a decision to answer first" in sb.status and "Command Re-roll" in sb.status


def test_orders_the_phase_does_not_accept_are_greyed_with_the_reason(make):
    d, b = _battle(make, [4] * 10, phase="movement")
    sb = d.sb
    d.click_model("r1/1")
    assert sb.selected_unit == "r1"
    d.pump(2)
    shoot = d.button("shoot")
    assert shoot.object_ids[-1] == "#unavailable" and "Shooting phase" in shoot.tool_tip_text
    assert d.button("bar:shoot").object_ids[-1] == "#unavailable"
    d.key(pygame.K_s, "s")
    assert sb.order is None and "Shoot:" in sb.status and "Shooting phase" in sb.status


def test_s_chooses_the_one_shooting_type_allowed(make):
    d, b = _battle(make, [4] * 10)
    sb = d.sb
    d.click_model("r1/1")
    d.key(pygame.K_s, "s")
    elig = [t for t, r in sb.order.eligibility.items() if r is None]
    assert elig == ["normal"] and sb.order.type == "normal"


def _pool(i=0):
    return {"type": ev.POOL, "pool": i, "dice": 3, "weapons": ["guns"], "target": "b1"}


def test_the_tray_shows_snap_shootings_own_target_number():
    events = [_pool(), {"type": ev.HITS, "rolls": [3, 5, 6], "skill": 3, "hits": 1, "criticals": 0, "snap": True}]
    (label, dice, note), = dice_tray.latest_pool(events)["rows"]
    assert dice == [(3, FAIL), (5, FAIL), (6, SUCCESS)] and "unmodified 6" in note


def test_a_pool_is_cleared_by_the_next_command():
    events = [{"type": ev.COMMAND}, _pool(), {"type": ev.HITS, "rolls": [4], "skill": 3, "hits": 1, "criticals": 0}]
    assert dice_tray.latest_pool(events) is not None
    assert dice_tray.latest_pool(events + [{"type": ev.COMMAND}]) is None


def test_save_dice_no_model_needed_are_not_drawn():
    events = [_pool(), {"type": ev.SAVES, "rolls": [2, 5, 1], "AP": 0},
              {"type": ev.DAMAGE, "steps": [{"save": 2, "saved": False, "lost": 1}]}]
    rows = dict((r[0], r) for r in dice_tray.latest_pool(events)["rows"])
    assert rows["Save"][1] == [(2, FAIL)] and "2 not needed" in rows["Save"][2]


def test_hovering_an_option_highlights_the_units_it_names(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    btn = d.button("answer:pool 0 hit 0: 1")
    d.move(btn.rect.center)
    d.pump(3)
    assert "r1/1" in sb.look().highlighted  # (the unit whose roll it re-rolls)
    from sim.sandbox.decision_panel import hovered_marks
    assert hovered_marks(sb) == {"r1/1"}
    d.move((5, 5))
    d.pump(3)
    assert hovered_marks(sb) == set()


def test_hovering_a_log_line_highlights_the_models_its_event_names(make):
    d, b = _ask_hit_reroll(make)
    sb = d.sb
    from sim.sandbox.decision_panel import hovered_marks
    item = next(i for i in sb.log_list.item_list
                if "selected to shoot" in i["text"] and i.get("button_element") is not None)
    d.move(item["button_element"].rect.center)
    d.pump(2)
    assert "r1/1" in hovered_marks(sb)


def test_charge_pile_in_consolidate_and_move_types_are_greyed_outside_their_phase(make):
    """The orders panel's other orders too (issue 28 item 5): in the Movement phase Charge, Pile
    in and Consolidate are greyed with the reason; in the Shooting phase the move types are."""
    d, b = _battle(make, [4] * 10, phase="movement")
    sb = d.sb
    d.click_model("r1/1")
    d.pump(2)
    for name, where in (("charge", "Charge phase"), ("pile in", "pile in step"), ("consolidate", "consolidate step")):
        btn = d.button(name)
        assert btn.object_ids[-1] == "#unavailable" and where in btn.tool_tip_text, (name, btn.tool_tip_text)
    assert all(d.button(f"select:{m}").object_ids[-1] != "#unavailable" for m in ("normal", "advance"))
    d, b = _battle(make, [4] * 10)  # (the Shooting phase)
    sb = d.sb
    d.click_model("r1/1")
    d.pump(2)
    assert not any(n.startswith(("mode:", "select:")) for n in sb.names if sb.names[n].alive()), \
        "move types offered outside the Movement phase"
