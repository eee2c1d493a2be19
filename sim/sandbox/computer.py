"""Playing against the computer (issue 27): a headless player (sim.players: default, random,
tactician) plays one side of a battle with a mission, the person at the screen the other.

Between frames, one command per tick of the pacing (``ai_speed`` commands a second; paused, one
per press of "."): the side's player chooses (``player.thinking(battle)``, a step at a time:
a slow player, the search, thinks for up to THINK_SLICE seconds a frame, the window drawn and
answering between, the status line counting its rollouts; the frame before says "thinking"),
the command goes through the sandbox's one door (``submit``) and is
resolved to its end. A decision of the computer's side is answered by its player's ``answer``
(never shown as a question); a decision of the person's side (a save's allocation order, Fire
Overwatch, a Command Re-roll of their saves...) waits in the orders panel as always. The person's
turn waits for the person. Each of the computer's commands is explained in the log in words with
unit names (the player's ``Choice.why``, else :func:`command_words`), its unit highlighted and
its move drawn as a fading trail (:func:`draw_trail`, a drawing only).

A mixin of :class:`sim.sandbox.app.Sandbox`; nothing here writes the world."""

from __future__ import annotations

import math
import re
import time

import pygame

from sim.commands import describe, to_dict
from sim.errors import Refusal
from sim.phases.gates import where
from sim.sandbox.tracker import army_names
from sim.rules.turn import PLAYER
from sim.sandbox.computer_options import (DEFAULT_KIND, DEFAULT_SPEED, SPEEDS, ai_kinds, parse_ai,  # noqa: F401
                                         parse_speed, speed_text)

TRAIL = 2.5  # seconds a command's trail (moved models, a shot's line) stays on the table
TRAIL_COLOUR = (250, 236, 120)
SLIDE = 0.45  # seconds the computer's moved models take to slide from where they stood (a drawing)
# seconds of a player's thinking a frame (Player.thinking: the search's rollouts, each ~10-40 ms):
# the window draws and answers between slices, so a decision of up to a second never freezes it
THINK_SLICE = 0.03


# ============================================================================ words
def _name(sb, uid) -> str:
    from sim.sandbox.decision_panel import option_text
    return option_text(sb, uid)


def _moved(sb, to) -> str:
    """' (4.5")': how far the farthest model goes, read before the move (from where it stands)."""
    d = 0.0
    for mid, x, y in to or ():
        m = sb.scene.models.get(mid)
        if m is not None and m.alive:
            d = max(d, math.hypot(x - m.x, y - m.y))
    return f" ({d:.1f}\")" if d >= 0.05 else ""


def command_words(sb, cmd) -> str:
    """A command in words with unit names, for a command its player did not explain: the battle
    report's own line for it (its record's ``describe``, sim.commands), each unit id in it read
    as the unit's name, and how far a move goes. Read before the command is submitted."""
    line = describe(to_dict(cmd))
    if line is None:  # (a command its record leaves to its events: its kind, and its unit)
        u = getattr(cmd, "unit", None)
        line = cmd.record.kind if u is None else f"{u}: {cmd.record.kind}"
    line = line.lstrip("=").strip()
    ids = sorted(sb.battle.units, key=len, reverse=True)
    if ids:
        line = re.sub(r"(?<![\w-])(" + "|".join(re.escape(u) for u in ids) + r")(?![\w-])",
                      lambda m: _name(sb, m.group(1)), line)
    return line + _moved(sb, getattr(cmd, "to", None))


def computer_words(sb, side: int, choice) -> str:
    """The computer's choice in the log: its player's kind, then, for a choice the player
    weighed by its odds (``Choice.expected``: the odds it already computed, never solved
    again), the command's own words with unit names and the expectation ("Tactician: Warden
    Squad is selected to shoot at Raider Mob (2): 3.2 models, 45 pts expected"); else the
    player's words for it (``Choice.why``), else the command's."""
    kind = str(sb.ai.get(side, "computer")).split(":")[0].capitalize()
    if choice.expected:
        return f"{kind}: {command_words(sb, choice.command)}: {choice.expected}"
    return f"{kind}: {choice.why or command_words(sb, choice.command)}"


# ============================================================================ the mixin
class ComputerMixin:
    def init_computer(self, ai: dict | None = None, speed: float = DEFAULT_SPEED) -> None:
        """The computer's settings (kept across restarts and undo) and its per-battle state."""
        self.ai: dict[int, str] = dict(ai or {})  # side -> player kind
        self.ai_speed = speed
        self.ai_paused = speed <= 0
        if speed <= 0:
            self.ai_speed = DEFAULT_SPEED
        self.ai_dialog_open = False
        self._ai_players = None  # (battle, [player or None per side])
        self._ai_acc = 0.0
        self._ai_thinking = False
        self._ai_think = None  # [battle, player, where it began, its thinking, steps] while it thinks
        self._ai_once = False  # "." pressed: one command now
        self._ai_cmd = None  # (side, Choice, its words) of the command being resolved
        self._ai_submitting = False  # (the computer's command at the door: not refused as the person's)
        self._ai_turn_key = None
        self.ai_notes_of: dict = {}  # battle -> {event index: [log lines]}
        self.ai_trail = None  # (clock, unit id, side, {model id: (x, y) before}, target unit ids)
        self.ai_last: list[str] = []  # the computer's last few lines (the orders panel)

    @property
    def ai_notes(self) -> dict:
        return self.ai_notes_of.setdefault(self.battle, {})

    def set_ai(self, side: int, kind: str | None) -> None:
        if kind is None:
            self.ai.pop(side, None)
        else:
            self.ai[side] = kind
        self._ai_players = None
        self.dirty |= {"orders", "action"}

    def ai_player(self, side: int):
        """The player playing ``side`` for the battle shown (made afresh for a new battle:
        a restart, an undo)."""
        if self._ai_players is None or self._ai_players[0] is not self.battle:
            from sim.players.loop import make_player
            self.battle._enter()
            self._ai_players = (self.battle, [make_player(self.ai[s], s, self.battle, self.spec) if s in self.ai
                                              else None for s in range(len(PLAYER))])
        return self._ai_players[1][side]

    def ai_refusal(self, cmd) -> str | None:
        """Why the person may not give ``cmd`` now: the side that has the choice is the
        computer's (None: they may; the computer's own commands, and starting the battle)."""
        ts = self.battle.turn_state
        if not self.ai or self._ai_submitting or ts is None or cmd.record.opens_battle or ts.over:
            return None
        if ts.chooser in self.ai:
            return (f"the computer plays {self.spec.armies[ts.chooser].name}: wait for your turn "
                    f"(A pauses it, '.' plays one command)")
        return None

    def ai_who(self, side: int) -> str:
        return f"{self.spec.armies[side].name} (computer, {self.ai.get(side, '?')})"

    # ------------------------------------------------------------------ controls
    def ai_toggle_pause(self) -> None:
        if not self.ai:
            self.status = "the computer plays no side (choose one: the Computer button before the battle)"
            return
        self.ai_paused = not self.ai_paused
        self._ai_acc = 0.0
        self.status = ("the computer is paused: '.' plays one command, A resumes" if self.ai_paused
                       else f"the computer plays at {speed_text(self.ai_speed)} (A pauses)")
        self.dirty |= {"orders", "action"}

    def ai_step_once(self) -> None:
        if not self.ai:
            self.status = "the computer plays no side"
            return
        self.ai_paused = True
        self._ai_once = True
        self.dirty |= {"orders", "action"}

    def ai_faster(self, d: int = 1) -> None:
        i = min(range(len(SPEEDS)), key=lambda k: abs(SPEEDS[k] - self.ai_speed))
        self.ai_speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + d))]
        self.status = f"the computer's speed: {speed_text(self.ai_speed)}" + (" (paused: A resumes)"
                                                                              if self.ai_paused else "")
        self.dirty |= {"orders", "action"}

    def ai_set_speed(self, v: float) -> None:
        self.ai_speed = v
        self.dirty |= {"orders", "action"}

    # ------------------------------------------------------------------ the frame
    def computer_update(self, dt: float) -> None:
        """Once per frame: answer the computer's decisions; when the computer has the choice,
        one command per tick of the pacing."""
        if not self.ai or self.mode != "battle" or self.ai_dialog_open or self.confirm_open():
            return
        b = self.battle
        ts = b.turn_state
        if ts is None:
            return
        if not self.resolving and self._ai_cmd is not None:
            self._ai_cmd = None  # (a command of the computer's was undone)
        if b.pending is not None or self.resolving:
            self._ai_resolve()  # (a decision of the person's waits: the orders panel asks it)
            return
        if b.busy or ts.over:
            return
        if ts.round == 0 and ts.pre_battle is None and not all(s in self.ai for s in range(len(PLAYER))):
            return  # (the person starts the battle: E)
        side = ts.chooser
        if side not in self.ai:
            self._human_turn(side)
            return
        self._ai_turn_key = None
        if self.ai_paused and not self._ai_once:
            return
        if not self._ai_once:
            self._ai_acc += dt
            if self._ai_acc < 1.0 / self.ai_speed:
                return
        if not self._ai_thinking:  # (this frame says so; the next ones choose)
            self._ai_thinking = True
            self.status = f"{self.ai_who(side)} is thinking..."  # (the status line: drawn before it chooses)
            return
        choice = self._ai_think_on(side)
        if choice is None:
            return  # (still thinking: the next frame goes on)
        self._ai_thinking = False
        self._ai_once = False
        self._ai_acc = 0.0
        self._ai_play(side, choice)

    def _ai_think_on(self, side: int):
        """The player's thinking (Player.thinking) for up to THINK_SLICE seconds: its Choice once
        it has chosen, else None (it goes on next frame, from where it stopped). A thinking
        begun in another battle (an undo, a restart) or another moment of it is thrown away and
        begun again: it only ever chooses for the position it began in. A player that fails
        pauses the computer (a player's bug must not take the window down)."""
        b = self.battle
        ts = b.turn_state
        at = (ts.round, ts.active, str(ts.phase), str(ts.step), str(ts.pre_battle), len(b.events))
        player = self.ai_player(side)
        th = self._ai_think
        if th is None or th[0] is not b or th[1] is not player or th[2] != at:
            if th is not None:
                th[3].close()  # (a thinking thrown away ends now: what it holds is let go)
            b._enter()
            th = self._ai_think = [b, player, at, player.thinking(b), 0]
        end = time.perf_counter() + THINK_SLICE  # (pacing the window only: the Choice is the same)
        try:
            while True:
                next(th[3])
                th[4] += 1
                if time.perf_counter() >= end:
                    break
        except StopIteration as done:
            self._ai_think = None
            b._enter()
            return done.value
        except Exception as e:
            self._ai_think = None
            self._ai_thinking = False
            self.ai_paused = True
            b._enter()
            self.status = f"the computer ({self.ai[side]}) failed to choose: {type(e).__name__}: {e} - paused"
            return None
        b._enter()
        self.status = f"{self.ai_who(side)} is thinking... ({th[4]} {player.step_words})"
        return None

    def _human_turn(self, side: int) -> None:
        """The person's choice: the computer waits (said once, when it comes to them)."""
        ts = self.battle.turn_state
        key = (ts.round, ts.active, str(ts.phase), str(ts.step), str(ts.pre_battle), side)
        self._ai_once = False  # (a "." pressed on the person's turn is not kept for the computer's)
        if key != self._ai_turn_key and self.ai_turn_changed(key):
            self.status = f"your turn, {self.spec.armies[side].name}: {where(ts, army_names(self.battle))} - the computer waits"
            self.dirty |= {"orders"}
            self.highlighted = set()  # (the computer's last unit, ringed while it acted: not the person's)
            uv = self.scene.units.get(self.selected_unit) if self.selected_unit else None
            if uv is not None and uv.owner in self.ai and self.order is None:  # (nor selected into their turn)
                self.selected_unit = self.selected_model = None
                self.dirty |= {"card", "action"}
            # (an empty phase or Fight-phase step handed over by the computer: ended for the person,
            # as after their own End phase, the setting on: phase_skip.py)
            if ts.round > 0 and self.skip_empty():
                ts = self.battle.turn_state
                key = (ts.round, ts.active, str(ts.phase), str(ts.step), str(ts.pre_battle), ts.chooser)
                self.dirty |= {"orders", "action", "tracker"}
        self._ai_turn_key = key

    def ai_turn_changed(self, key) -> bool:
        return self._ai_turn_key is None or key[:5] != self._ai_turn_key[:5]

    def _ai_play(self, side: int, choice) -> None:
        b = self.battle
        cmd = choice.command
        words = computer_words(self, side, choice)
        line = f"> {self.spec.armies[side].name} (computer): {words}"
        uid = getattr(cmd, "unit", None)
        before = {}
        if uid is not None and uid in self.scene.units:
            before = {m: (self.scene.models[m].x, self.scene.models[m].y) for m in self.scene.units[uid].models
                      if m in self.scene.models and self.scene.models[m].alive}
        targets = tuple(dict.fromkeys(s.target for s in getattr(cmd, "selections", ()) if s.target))
        targets += tuple(getattr(cmd, "targets", ()) or ())
        self.order = None  # (nothing of the person's is open on the computer's turn)
        self.drag = self.press = None
        start = len(b.events)
        self._ai_submitting = True
        try:
            ok = self.submit(cmd)
        finally:
            self._ai_submitting = False
        if not ok:
            self.ai_paused = True
            self.status = f"the computer's command was refused ({self.status}) - paused"
            self._ai_log(start, f"{line} - refused")
            return
        self._ai_log(start, line)
        self._ai_cmd = (side, choice, words)
        if uid is not None and uid in self.scene.units:
            self.selected_unit, self.selected_model = uid, None
            self.highlighted = set(before)
            self.ai_trail = (self.clock, uid, side, before, targets)
            self.dirty |= {"card"}
        self._ai_resolve()

    def _ai_log(self, at: int, line: str) -> None:
        self.ai_notes.setdefault(at, []).append(line)
        self.ai_last = (self.ai_last + [line])[-8:]  # (runs of equal lines shown once: computer_panel)
        self.dirty |= {"log", "orders"}

    def _ai_resolve(self) -> None:
        """The computer's decisions answered, and its command resolved to its end, within this
        frame; it stops at a decision of the person's. The person's own attacks are theirs to
        step; their other commands go on once their decisions are answered."""
        b = self.battle
        for _ in range(1000):
            req = b.pending
            if req is not None:
                if req.player not in self.ai or not self._ai_answer(req):
                    break
            elif self.resolving and (self._ai_cmd is not None or self._resolves_at_once()):
                self.finish()
            else:
                break
        if not self.resolving and self._ai_cmd is not None:
            side, _choice, words = self._ai_cmd
            self.status = f"{self.spec.armies[side].name} (computer): {words}"  # (names, not the outcome's ids)
            self._ai_cmd = None

    def _resolves_at_once(self) -> bool:
        """The person's command being resolved is one the sandbox resolves at once but for its
        decisions (not an attack stepped through): once answered, it goes on by itself."""
        return self._cmd is not None and not self._cmd[0].attacks

    def _ai_answer(self, req) -> bool:
        """The computer's own decision: its player's answer (the Choice's, for its command),
        its default when the rules refuse that."""
        side = req.player
        b = self.battle
        b._enter()
        choice = self._ai_cmd[1] if self._ai_cmd is not None and self._ai_cmd[0] == side else None
        try:
            value = choice.answer(req) if choice is not None and choice.answer else \
                self.ai_player(side).answer(b, req)
        except Exception:  # (a player's bug: the rules' default)
            value = req.default
        try:
            b.answer(value)
        except Refusal:
            try:
                b.answer(req.default)
            except Refusal as e:
                self.ai_paused = True
                self.status = f"the computer's answer was refused: {e} - paused"
                return False
        self.decision_state.clear()
        self.decision_error = None
        self.dirty |= {"orders", "log"}
        return True


# ============================================================================ drawing
def slide(sb, look) -> None:
    """The computer's moved models drawn sliding from where they stood to where they are, for
    the first SLIDE seconds after its command (as ghosts of the Look: nothing moves in the
    world, which has them where the command put them already)."""
    t = sb.ai_trail
    if t is None or look.ghosts or sb.drag is not None:
        return
    age = sb.clock - t[0]
    if not 0 <= age < SLIDE:
        return
    k = age / SLIDE
    k = k * k * (3 - 2 * k)  # (eased)
    for mid, (x0, y0) in t[3].items():
        m = sb.scene.models.get(mid)
        if m is not None and m.alive and math.hypot(m.x - x0, m.y - y0) > 0.05:
            look.ghosts[mid] = (x0 + (m.x - x0) * k, y0 + (m.y - y0) * k)


def trail_aim(sb, tid: str) -> tuple[float, float] | None:
    """Where the trail's line to a target unit ends: the middle of its living models (its
    removed ones, left where they fell, would put the mark on empty table), else of all."""
    tv = sb.scene.units.get(tid)
    pts = [sb.scene.models[mm] for mm in tv.models if mm in sb.scene.models] if tv else []
    pts = [p for p in pts if p.alive] or pts
    if not pts:
        return None
    return sum(p.x for p in pts) / len(pts), sum(p.y for p in pts) / len(pts)


def draw_trail(surf, sb) -> None:
    """The computer's last command on the table, fading: where its models stood (small rings)
    and a line to where they are; a line from it to each unit it targets."""
    t = sb.ai_trail
    if t is None:
        return
    age = sb.clock - t[0]
    if age < 0 or age > TRAIL:
        return
    alpha = max(0.0, 1 - age / TRAIL)
    cam = sb.camera
    uid, before, targets = t[1], t[3], t[4]
    layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    col = (*TRAIL_COLOUR, int(220 * alpha))
    now = []
    for mid, (x0, y0) in before.items():
        m = sb.scene.models.get(mid)
        a = cam.to_screen(x0, y0)
        if m is None:
            continue
        b = cam.to_screen(m.x, m.y)
        if math.dist(a, b) > 3:
            pygame.draw.line(layer, col, a, b, 2)
            pygame.draw.circle(layer, col, (int(a[0]), int(a[1])), max(3, int(cam.scale * m.radius * 0.6)), 1)
        if m.alive:
            now.append(b)
    if now:
        cx = sum(p[0] for p in now) / len(now)
        cy = sum(p[1] for p in now) / len(now)
        for tid in targets:
            aim = trail_aim(sb, tid)
            if aim is None:
                continue
            end = cam.to_screen(*aim)
            pygame.draw.line(layer, (*(240, 120, 90), int(230 * alpha)), (cx, cy), end, 3)
            pygame.draw.circle(layer, (*(240, 120, 90), int(230 * alpha)), (int(end[0]), int(end[1])), 6, 2)
    surf.blit(layer, (0, 0))


class ComputerDialogMixin:
    """The dialog that asks who the computer plays (sim.sandbox.computer_panel.build_dialog)."""

    ai_dialog_flow = None

    def open_ai_dialog(self) -> None:
        if self.mode != "battle":
            self.status = "leave set-up (F2) or the replay (Esc) to choose the computer's side"
            return
        self.ai_dialog_open = True
        self.status = "who plays each army? Choose, then Play (Enter)"
        self.dirty |= {"orders"}

    def close_ai_dialog(self) -> None:
        self.ai_dialog_open = False
        self.refresh_ai_dialog()
        self._ai_acc = 0.0
        if self.ai:
            who = " and ".join(self.ai_who(s) for s in sorted(self.ai))
            self.status = f"the computer plays {who} at {speed_text(self.ai_speed)}" + \
                (" (paused: A resumes, '.' one command)" if self.ai_paused else "") + \
                ("; start the battle: E" if self.battle.turn_state and self.battle.turn_state.round == 0 else "")
        else:
            self.status = "hot-seat: you play both armies"
        self.dirty |= {"orders", "action"}

    def refresh_ai_dialog(self) -> None:
        """(Re)make the dialog's panel over the table while it is open (after a layout, a choice)."""
        from sim.sandbox.computer_panel import build_dialog, dialog_rect
        from sim.sandbox.widgets import Flow
        old = self.ai_dialog_flow
        if old is not None:
            old.kill()
            self._forget_dead()
            self.ai_dialog_flow = None
        if not self.ai_dialog_open:
            return
        f = Flow(self.manager, dialog_rect(self), self.actions, self.names, scale=self.scale)
        build_dialog(f, self)
        f.finish()
        self.ai_dialog_flow = f

    def ai_dialog_key(self, k) -> bool:
        """Keys while the dialog is open: Enter plays, Esc closes it (hot-seat unless chosen);
        the others do nothing (True: the key was the dialog's)."""
        if not self.ai_dialog_open or k == pygame.K_F1:  # (the help still opens)
            return False
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            self.close_ai_dialog()
        return True
