"""The panels of playing against the computer (sim.sandbox.computer): the dialog that opens with
a battle with a mission (who plays each army: a person, or the computer with which player; how
fast it plays), and the computer's part of the orders panel (its last commands, pause, one
command, slower, faster). Builders for a :class:`sim.sandbox.widgets.Flow`; every button calls
a sandbox method, nothing here touches the battle."""

from __future__ import annotations

import pygame

from sim.rules.turn import PLAYER
from sim.sandbox.computer_options import SPEEDS, ai_kinds, speed_text

KEYS = "Keys: A pauses / resumes the computer, '.' plays one command, '[' slower, ']' faster."


def dialog_rect(sb) -> pygame.Rect:
    """Centred on the table (the panels around it stay readable)."""
    t = sb.rects["table"]
    s = sb.scale
    w, h = min(round(660 * s), t.w - 20), min(round(340 * s), t.h - 20)
    return pygame.Rect(t.x + (t.w - w) // 2, t.y + (t.h - h) // 2, max(40, w), max(40, h))


def build_dialog(flow, sb) -> None:
    flow.label("Play against the computer", "#heading")
    flow.para("Who plays each army? A person at this screen, or the computer with one of the "
              "players (the search, the strongest, plays its best options forward on dice futures, "
              "about half a second a choice; the tactician weighs them by their exact odds; the "
              "default follows simple rules; the random one picks at random). Two persons: "
              "hot-seat.", "#muted")
    flow.space(2)
    kinds = ai_kinds()
    for side, army in enumerate(sb.spec.armies[:len(PLAYER)]):
        flow.inline_label(flow.fit(f"{army.name} ({PLAYER[side]})", 150), width=150, height=26)
        now = sb.ai.get(side)
        flow.button("Person", lambda s=side: sb.set_ai(s, None), name=f"ai:{PLAYER[side]}:none", width=78,
                    object_id="#toggle_on" if now is None else "#toggle")
        for k in kinds:
            flow.button(k, lambda s=side, k=k: sb.set_ai(s, k), name=f"ai:{PLAYER[side]}:{k}", width=86,
                        object_id="#toggle_on" if now == k else "#toggle",
                        tip=f"the computer plays {army.name} with the {k} player")
        flow.newline(4)
    flow.space(4)
    flow.inline_label("Speed", width=150, height=24)
    for v in SPEEDS:
        flow.button(speed_text(v), lambda v=v: sb.ai_set_speed(v), name=f"ai:speed:{v:g}", width=56, height=24,
                    size=12, object_id="#toggle_on" if abs(sb.ai_speed - v) < 1e-9 else "#toggle",
                    tip=f"{v:g} of the computer's commands a second")
    flow.newline()
    flow.para("commands a second (each resolved to its end; your decisions on its turn are asked "
              "in the orders panel)", "#muted")
    flow.para(KEYS, "#muted")
    flow.space(4)
    names = [sb.spec.armies[s].name for s in sorted(sb.ai)]
    go = "Play: computer plays " + " and ".join(names) if names else "Play hot-seat"
    flow.button(go + "  (Enter)", sb.close_ai_dialog, name="ai:play", object_id="#primary", height=28)


def build_section(flow, sb) -> None:
    """The orders panel's part while the computer plays a side."""
    if not sb.ai:
        return
    who = ", ".join(f"{sb.spec.armies[s].name} ({k})" for s, k in sorted(sb.ai.items()))
    flow.label(f"Computer: {who}", "#subheading")
    ts = sb.battle.turn_state
    if ts is not None and not ts.over and ts.round and ts.chooser in sb.ai:
        state = "paused" if sb.ai_paused else f"playing, {speed_text(sb.ai_speed)}"
        flow.para(f"its turn: {state}", "#warning" if sb.ai_paused else "#muted")
    elif ts is not None and not ts.over:
        # (the person's turn: one line. At 800x600 the computer's buttons and its last commands
        # filled the panel and pushed the person's own phase and orders out of sight; its
        # commands are in the log, A pauses it)
        flow.para("waits for your turn; its commands are in the log (A pauses it)", "#muted")
        flow.space(4)
        return
    flow.newline()
    flow.button("Resume (A)" if sb.ai_paused else "Pause (A)", sb.ai_toggle_pause, name="ai:pause",
                object_id="#toggle_on" if sb.ai_paused else "#toggle", height=24, size=12)
    flow.button("One command (.)", sb.ai_step_once, name="ai:step", height=24, size=12)
    flow.button("Slower ([)", lambda: sb.ai_faster(-1), name="ai:slower", height=24, size=12)
    flow.button("Faster (])", lambda: sb.ai_faster(1), name="ai:faster", height=24, size=12)
    flow.newline()
    for line, n in repeats(sb.ai_last)[-3:]:  # (three "end phase" in a row: one line, counted)
        flow.para(line.lstrip("> ") + (f" ({n} times)" if n > 1 else ""), "#muted")
    flow.space(4)


def repeats(lines) -> list[tuple[str, int]]:
    """``lines`` with each run of equal lines as one (line, how many)."""
    out: list[list] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return [(line, n) for line, n in out]


def build_pre_battle_choice(flow, sb) -> None:
    """Before the battle starts: who the computer plays, and the button that opens the dialog."""
    who = ", ".join(f"{sb.spec.armies[s].name} ({k})" for s, k in sorted(sb.ai.items())) or "no army (hot-seat)"
    flow.para(f"The computer plays: {who}", "#muted")
    flow.button("Computer opponent...", sb.open_ai_dialog, name="ai:open", height=24, size=12)
    flow.newline()
