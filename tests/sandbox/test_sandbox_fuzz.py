"""A sandbox fuzz that reaches the game (issue 13).

A seeded, weighted, state-aware random policy drives the Sandbox through the pygame event
queue only (mouse motion, button down/up, drags, the wheel, key down/up with Shift and Ctrl
held): it selects units, shoots and fights (types, weapons, targets, Resolve), steps, finishes
or auto-plays the attack sequence, answers decisions (choice buttons, the [PRECISION] model on
the table, the allocation order, "Use default"), ends turns, edits the table in set-up mode
(terrain, units, Del, D, R, arrows, drags), opens the replay file dialog and the replay viewer
and leaves them, and mixes in pure noise. After every pumped event batch it checks the world:

* every model's remaining wounds within 0..W, every base wholly on the board;
* no two living models' bases overlap (sim.rules.geometry.overlaps), the free-play advance
  included (its D6 is rolled as the move is made and where a short roll stops it is checked
  again: an illegal stop is not made, and those are counted and printed);
* models move only by an accepted Move, to where it said (an advance: on its line), and the
  engine never refuses a sandbox drag for its length or the board (the sandbox limits those);
* the sandbox's scene (what it draws and hit-tests) agrees with the world;
* drawing changes nothing: the state hash, the event count and the pending decision are the
  same before and after ``draw()`` (every DRAW_EVERY-th pump).

Every battle the session plays (set-up edits and the replay viewer start fresh ones) is saved
as a replay log when it ends and at the end of the run, and ``sim.replay.log.replay`` must give
no divergence and the same number of commands. The resolved commands are counted by kind, and
the decision answers by kind, and printed (pytest -s). Each table has what its run must reach
(between them: a shoot, a fight and a decision); a run goes on past its usual length until it
has (at most MAX_ACTIONS), and fails if it never does.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import esper
import numpy as np
import pygame
import pytest

from sandbox_support import DATA, ROOT, SIZE
from sim.components import Position, Stats, Wounds
from sim.replay.log import replay, write_atomic, write_log
from sim.rules import geometry
from sim.sandbox.orders import ShootOrder
from sim.world import queries as W

DRAW_EVERY = 3  # draw (and check that drawing changes nothing) every this many pumps
DT = 1 / 60

NOISE = 0.12  # share of actions that are pure noise
# seed -> (table, actions, what the run must reach: "shoot"/"fight", a command of that kind
# resolved; "decision", a decision answered through the panel or the table). Each table reaches
# its "must" within its actions on most seeds (about 9 in 10 for the rarest); a run that has not
# goes on until it has, up to MAX_ACTIONS.
SCENES = {
    1: (DATA / "extra/fuzz_skirmish.toml", 100, {"shoot", "fight", "decision"}),  # every decision kind
    2: (DATA / "precision_hazard.toml", 100, {"shoot", "fight"}),  # [PRECISION] by a click on the table
    3: (ROOT / "scenarios/vehicle_engaged.toml", 90, {"shoot", "fight"}),  # a rectangular base
    # a battle with a mission: End phase through the phases, selecting units to move, a
    # stratagem and a coherency removal answered by their buttons, undo (issue 15)
    4: (DATA / "extra/battle_turn.toml", 80, {"fight"}),
}
assert set().union(*(must for _t, _n, must in SCENES.values())) == {"shoot", "fight", "decision"}
MAX_ACTIONS = 400

MOVEMENT = ("moved", "charge", "piled in", "consolidated")  # the events that place models
# refusals of a dragged move that the sandbox's own limits (the M ring, the board) should prevent
OWN_LIMITS = ("may move at most", "off the battlefield", "over the battlefield edge")
SHIFT, CTRL = pygame.KMOD_LSHIFT, pygame.KMOD_LCTRL
MOD_KEY = {SHIFT: pygame.K_LSHIFT, CTRL: pygame.K_LCTRL, pygame.KMOD_LALT: pygame.K_LALT}
NOISE_KEYS = [pygame.K_a, pygame.K_d, pygame.K_e, pygame.K_f, pygame.K_m, pygame.K_n, pygame.K_o,
              pygame.K_p, pygame.K_r, pygame.K_s, pygame.K_t, pygame.K_v, pygame.K_x, pygame.K_0,
              pygame.K_1, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE,
              pygame.K_TAB, pygame.K_BACKSPACE, pygame.K_DELETE, pygame.K_HOME, pygame.K_PLUS,
              pygame.K_MINUS, pygame.K_EQUALS, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP,
              pygame.K_DOWN, pygame.K_F1, pygame.K_F2, pygame.K_F5, pygame.K_LSHIFT]


class Rng(random.Random):
    """The policy's random stream, built on ``random()`` alone: its stream for an integer seed
    is stable across Python versions, where ``choice`` and ``randint`` are not promised to be
    (the README says as much of the dice)."""

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b - a + 1))

    def randrange(self, a: int, b: int | None = None) -> int:
        if b is None:
            a, b = 0, a
        return a + int(self.random() * (b - a))


def _uni(key: int, mod: int) -> str:
    name = pygame.key.name(key)
    if len(name) == 1:
        return name.upper() if mod & pygame.KMOD_SHIFT else name
    return {pygame.K_RETURN: "\r", pygame.K_SPACE: " ", pygame.K_TAB: "\t"}.get(key, "")


class Fuzz:
    def __init__(self, d, rng: Rng, out: Path):
        self.sb, self.rng, self.out = d.sb, rng, out
        self.pumps = 0
        self.draws = 0
        self.actions = Counter()  # what the policy did
        self.pressed = Counter()  # the buttons it clicked, by name prefix
        self.replays = 0  # battles saved and replayed without a divergence
        self.not_made = 0  # free-play advances whose short roll left them illegal: not made (03.01)
        self._verified: set = set()
        self._counted: list = []  # the recorders of the battles replayed
        self.missing: set = set()  # what the run must still reach, once past its usual length
        self._seg = None
        self._new_segment()

    # ---------------------------------------------------------------- events
    def post(self, type_, **kw) -> None:
        pygame.event.post(pygame.event.Event(type_, **kw))

    def pump(self, n: int = 1, dt: float = DT) -> None:
        sb = self.sb
        for _ in range(n):
            for e in pygame.event.get():
                sb.handle(e)
            sb.update(dt)
            self.pumps += 1
            if self.pumps % DRAW_EVERY == 0:
                self.checked_draw()
            self.check()

    def move_mouse(self, pos, buttons=(0, 0, 0)) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)

    def click(self, pos, button: int = 1) -> None:
        pos = (int(pos[0]), int(pos[1]))
        self.move_mouse(pos)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.pump(1)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
        self.pump(3)  # up; the button's press event; what its callback posts (a file dialog's pick)

    def drag(self, a, b, button: int = 1, mod: int = 0, steps: int = 4) -> None:
        a, b = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
        held = (1, 0, 0) if button == 1 else (0, 0, 1)
        with self.holding(mod):
            self.move_mouse(a)
            self.post(pygame.MOUSEBUTTONDOWN, pos=a, button=button)
            self.pump(1)
            for i in range(1, steps + 1):
                self.move_mouse((a[0] + (b[0] - a[0]) * i // steps, a[1] + (b[1] - a[1]) * i // steps), held)
                self.pump(1)
            self.post(pygame.MOUSEBUTTONUP, pos=b, button=button)
            self.pump(2)

    def key(self, key: int, mod: int = 0) -> None:
        """A key pressed and released, with the modifier ``mod`` held down around it."""
        with self.holding(mod):
            u = _uni(key, mod)
            self.post(pygame.KEYDOWN, key=key, unicode=u, mod=mod, scancode=0)
            self.pump(1)
            self.post(pygame.KEYUP, key=key, unicode=u, mod=mod, scancode=0)
            self.pump(1)

    @contextmanager
    def holding(self, mod: int):
        """Hold a modifier key down: its key events, and the state pygame.key.get_mods reads."""
        if not mod:
            yield
            return
        self.post(pygame.KEYDOWN, key=MOD_KEY[mod], unicode="", mod=mod, scancode=0)
        pygame.key.set_mods(mod)
        try:
            yield
        finally:
            pygame.key.set_mods(0)
            self.post(pygame.KEYUP, key=MOD_KEY[mod], unicode="", mod=0, scancode=0)
        self.pump(1)

    # ---------------------------------------------------------------- what is on screen
    def visible(self, name: str):
        """The point to click for button ``name`` if it exists and shows (panels scroll)."""
        b = self.sb.names.get(name)
        if b is None or not b.alive() or not b.visible:
            return None
        for flow in (self.sb.card_flow, self.sb.orders_flow, self.sb.footer_flow, self.sb.action_flow,
                     self.sb.tracker_flow):
            if flow is not None and b.ui_container is flow.scroll.get_container():
                r = b.rect.clip(flow.outer.rect.inflate(-4, -4))
                return r.center if r.w > 2 and r.h > 2 else None
        return None

    def press(self, name: str) -> bool:
        p = self.visible(name)
        if p is None:
            return False
        self.pressed[name.split(":")[0]] += 1
        self.click(p)
        return True

    def buttons(self, prefix: str) -> list[str]:
        return sorted(n for n in self.sb.names if n.startswith(prefix) and self.visible(n) is not None)

    def model_point(self, mid: str):
        m = self.sb.scene.models[mid]
        p = self.sb.camera.to_screen(m.x, m.y)
        p = (int(round(p[0])), int(round(p[1])))
        return p if self.sb.camera.viewport.collidepoint(p) and self._over_table(p) else None

    def _over_table(self, p) -> bool:
        for dlg in (getattr(self.sb, "_file_dialog", None), self.sb.confirm_dialog()):
            if dlg is not None and dlg.alive() and dlg.rect.collidepoint(p):
                return False
        return True

    def click_model(self, mid: str) -> bool:
        p = self.model_point(mid)
        if p is None:
            self.key(pygame.K_HOME)  # zoomed or panned away: fit the table
            p = self.model_point(mid)
            if p is None:
                return False
        r = max(1, int(self.sb.scene.models[mid].radius * self.sb.camera.scale * 0.5))
        self.click((p[0] + self.rng.randint(-r, r) // 2, p[1] + self.rng.randint(-r, r) // 2))
        return True

    def living(self, owner=None) -> list[str]:
        return [m.id for m in self.sb.scene.models.values() if m.alive and (owner is None or m.owner == owner)]

    def dialog(self):
        dlg = getattr(self.sb, "_file_dialog", None)
        return dlg if dlg is not None and dlg.alive() else None

    # ---------------------------------------------------------------- the policy
    def act(self) -> None:
        sb, rng = self.sb, self.rng
        if rng.random() < NOISE:
            return self.noise()
        if sb.show_help and rng.random() < 0.7:
            self.actions["close help"] += 1
            return self.key(rng.choice((pygame.K_ESCAPE, pygame.K_F1)))
        if self.dialog() is not None:
            return self.in_dialog()
        if sb.confirm_dialog() is not None:
            return self.in_confirm()
        if rng.random() < 0.06:
            return self.view()
        if sb.mode == "replay":
            return self.in_replay()
        if sb.mode == "setup":
            return self.in_setup()
        if sb.battle.pending is not None:
            return self.decide()
        if sb.resolving:
            return self.resolving()
        r = rng.random()
        if self.missing and r < 0.1 and self.stuck():
            self.actions["back to the table as opened"] += 1
            return self.restore()
        if r < 0.035 and not self.missing:
            return self.enter_setup()
        if r < 0.06:
            return self.open_dialog()
        if r < 0.07:
            self.actions["ctrl+s"] += 1
            return self.key(pygame.K_s, CTRL)
        if sb.order is not None:
            return self.ordering()
        if sb.selected_unit is None or sb.scene.units[sb.selected_unit].destroyed:
            return self.select()
        return self.selected()

    def pick(self, options) -> None:
        """Run one of ``options``: (weight, name, thunk) triples with weight > 0."""
        options = [o for o in options if o[0] > 0]
        total = sum(w for w, _n, _f in options)
        x = self.rng.random() * total
        for w, name, fn in options:
            x -= w
            if x <= 0:
                break
        self.actions[name] += 1
        fn()

    def can_act(self, uid: str) -> set:
        """What the unit may still be selected for this turn: "shoot" (it has a ranged weapon
        and has not shot), "fight" (it has a melee weapon, is engaged or charged, and has not
        fought); in a battle with a mission, only in their phase (and "move" in the Movement
        phase, for a unit not yet selected to move)."""
        b = self.sb.battle
        b._enter()
        ent = b.units[uid]
        st = W.unit_state(ent)
        weapons = [w for m in W.unit_models(ent) for w in W.weapons_of(m)]
        out = set()
        if not st.selected_to_shoot and any(not w.is_melee for w in weapons):
            out.add("shoot")
        if not st.selected_to_fight and any(w.is_melee for w in weapons) and (
                self.sb.scene.units[uid].engaged or st.charged):
            out.add("fight")
        ts = b.turn_state
        if ts is not None:
            now = {"shooting": {"shoot"}, "fight": {"fight"} if ts.step == "fight" else set()}.get(str(ts.phase), set())
            out &= now
            if ts.round and not ts.over and ts.phase == "movement" and st.move_selected is None \
                    and st.move_type is None and self.sb.scene.units[uid].owner == ts.active:
                out.add("move")
        return out

    def either(self, button: str, key: int, mod: int = 0) -> None:
        """The same thing by its button or by its key (the key when the button does not show)."""
        if self.rng.random() < 0.5 or not self.press(button):
            self.key(key, mod)

    def select(self) -> None:
        sc, rng = self.sb.scene, self.rng
        units = [u for u, v in sc.units.items() if not v.destroyed]
        ready = [u for u in units if self.can_act(u)]
        fight = [u for u in ready if "fight" in self.can_act(u)]
        if not ready:
            return self.pick([(3, "end turn", lambda: self.either("bar:end", pygame.K_e)),
                              (1 if units else 0, "click any unit", lambda: self.click_unit(rng.choice(units)))])
        uid = rng.choice(fight if fight and rng.random() < 0.6 else ready)
        self.pick([(8, "click a unit", lambda: self.click_unit(uid)),
                   (0.5, "click any unit", lambda: self.click_unit(rng.choice(units))),
                   (0.5, "tab", lambda: self.key(pygame.K_TAB))])

    def click_unit(self, uid: str) -> bool:
        return self.click_model(self.rng.choice([m.id for m in self.sb.scene.living(uid)]))

    def selected(self) -> None:
        sb, rng = self.sb, self.rng
        can = self.can_act(sb.selected_unit)
        shoot, fight = rng.choice(("shoot", "bar:shoot")), rng.choice(("fight", "bar:fight"))
        self.pick([
            (4 if "shoot" in can else 0.3, "shoot", lambda: self.either(shoot, pygame.K_s)),
            (5 if "fight" in can else 0.3, "fight", lambda: self.either(fight, pygame.K_f)),
            (2, "drag a move", self.move),
            (0.4, "move mode", lambda: self.either(rng.choice(self.buttons("mode:") or ["bar:move"]), pygame.K_m)),
            (0.3 if can else 1.5, "end turn", lambda: self.either("bar:end", pygame.K_e)),
            (0.5 if can else 3, "another unit", self.select),
            *self.phase_actions(can),
            (0.3, "escape", lambda: self.key(pygame.K_ESCAPE)),
            (0.3, "sight", lambda: self.either("bar:los", pygame.K_v)),
        ])

    def phase_actions(self, can: set) -> list:
        """In a battle with a mission: End phase (or Start battle) by the tracker's button,
        selecting the unit to move by the panel's buttons, undo (Ctrl+Z or the button)."""
        sb, rng = self.sb, self.rng
        if sb.battle.turn_state is None:
            return [(0.1, "undo (free play)", lambda: self.key(pygame.K_z, CTRL))]
        selects = self.buttons("select:")
        return [
            (1.5 if can else 3, "end phase", lambda: self.either(rng.choice(("phase:end", "phase:start")), pygame.K_e)),
            (1.5 if selects and "move" in can else 0, "select to move", lambda: self.press(rng.choice(selects))),
            (0.25, "undo", lambda: self.either("phase:undo", pygame.K_z, CTRL)),
        ]

    def move(self) -> None:
        """Drag a model of the selected unit (the whole unit; with Shift, that model alone), in
        the move mode its state allows most of the time (an engaged unit can only fall back)."""
        sb, rng = self.sb, self.rng
        engaged = sb.scene.units[sb.selected_unit].engaged
        if (sb.move_mode == "fall back") != engaged and rng.random() < 0.8:
            mode = "fall back" if engaged else rng.choice(("normal", "advance"))
            self.either(f"mode:{mode}", pygame.K_m)
        mid = rng.choice([m.id for m in sb.scene.living(sb.selected_unit)])
        a = self.model_point(mid)
        if a is None:
            return self.key(pygame.K_HOME)
        single = rng.random() < 0.3  # Shift: that model alone
        self.drag(a, self.drop_point(a, mid, single), mod=SHIFT if single else 0)

    def drop_point(self, a, mid: str, single: bool = False, reach: float | None = None):
        """Where to drag model ``mid`` from screen point ``a``: sometimes onto another model's
        base, which the rules must refuse (moving one model: onto one of its unit, half the
        time; else onto any model, one time in four), else a random direction and length."""
        sb, rng = self.sb, self.rng
        m = sb.scene.models[mid]
        mates = [o for o in self.living() if o != mid and sb.scene.models[o].unit == m.unit]
        others = [o for o in self.living() if o != mid]
        if single and mates and rng.random() < 0.5:
            b = self.model_point(rng.choice(mates))
        else:
            b = self.model_point(rng.choice(others)) if others and rng.random() < 0.25 else None
        if b is not None:
            return b
        if reach is None:
            reach = (m.M + (6 if sb.move_mode == "advance" else 0)) * rng.uniform(0.2, 1.3)
        ang = rng.uniform(0, 2 * np.pi)
        return (a[0] + reach * sb.camera.scale * np.cos(ang), a[1] + reach * sb.camera.scale * np.sin(ang))

    def ordering(self) -> None:
        """A shoot or fight order is open: type, weapons, targets (legal or not), Resolve."""
        sb, rng = self.sb, self.rng
        o = sb.order
        if isinstance(o, ShootOrder) and o.type is None:
            ok = [t for t, r in o.eligibility.items() if r is None]
            return self.pick([
                (5 if ok else 0, "shooting type", lambda: self.press(f"type:{rng.choice(ok)}")),
                (0.4, "ineligible type", lambda: self.press(rng.choice(self.buttons("type:") or ["cancel"]))),
                (0.5, "cancel", lambda: self.either("cancel", pygame.K_ESCAPE)),
            ])
        targets = o.targets()
        legal = [u for u, r in targets.items() if r is None]
        illegal = [u for u, r in targets.items() if r is not None]
        ready = bool(o.selections())
        untargeted = any(sl.selected and sl.target is None for sl in o.slots)
        refused = sb.status.startswith("refused")  # (e.g. the unit already shot this turn)
        splits = self.buttons("split:")
        enter = rng.choice((pygame.K_RETURN, pygame.K_KP_ENTER))
        self.pick([
            ((5 if untargeted else 0.5) if legal else 0, "legal target", lambda: self.click_unit(rng.choice(legal))),
            (0.6 if illegal else 0, "illegal target", lambda: self.click_unit(rng.choice(illegal))),
            (0.2, "own model", lambda: self.click_model(rng.choice(self.living(owner=o.owner)))),
            (0.8, "weapon toggle", lambda: self.press(rng.choice(self.buttons("slot:") or ["clear"]))),
            (1.5 if splits else 0, "split -/+", lambda: self.press(rng.choice(splits))),
            (0.5 if refused else 5 if ready else 0.4, "resolve", lambda: self.either("resolve", enter)),
            (0.3, "clear targets", lambda: self.press("clear")),
            (4 if refused else 0.4, "cancel", lambda: self.either("cancel", pygame.K_ESCAPE)),
            (0.2, "end turn (refused)", lambda: self.key(pygame.K_e)),
        ])

    def resolving(self) -> None:
        """An activation is being resolved: step it, finish it, auto-play it, or press what is refused."""
        rng = self.rng
        refused = (pygame.K_s, pygame.K_f, pygame.K_e, pygame.K_F2)
        step, key = rng.choice(("step", "bar:step")), rng.choice((pygame.K_SPACE, pygame.K_n))
        self.pick([
            (3, "step", lambda: self.either(step, key)),
            (2, "finish", lambda: self.press("finish")),
            (1, "auto-play", self.auto),
            (0.3, "speed", lambda: self.press(rng.choice(self.buttons("speed:") or ["step"]))),
            (0.4, "orders while resolving", lambda: self.key(rng.choice(refused))),
        ])

    def auto(self) -> None:
        self.either("auto", pygame.K_p)
        for _ in range(self.rng.randint(1, 6)):
            if not self.sb.resolving or self.sb.battle.pending is not None:
                break
            self.pump(1, dt=0.35)

    def decide(self) -> None:
        """A decision is pending: its choice buttons, the CHARACTER on the table, reordering,
        toggles, Confirm, Use default (and Space, refused while it waits)."""
        sb, rng = self.sb, self.rng
        req = sb.battle.pending
        opts = self.buttons("answer:")
        choices = [
            (1, "decision: use default", lambda: self.press("default")),
            (0.3, "decision: step (refused)", lambda: self.key(pygame.K_SPACE)),
            (4 if opts else 0, "decision: choice button", lambda: self.press(rng.choice(opts))),
        ]
        if req.kind == "precision":
            pick = [o for o in req.options if o in sb.scene.models]
            others = [m for m in self.living() if m not in req.options]
            choices += [(4 if pick else 0, "decision: click the CHARACTER",
                         lambda: self.click_model(rng.choice(pick))),
                        (0.4 if others else 0, "decision: click another model",
                         lambda: self.click_model(rng.choice(others)))]
        if req.kind in ("psychic", "allocation_order", "coherency_removal"):
            toggles = self.buttons("psychic:") + self.buttons("up:") + self.buttons("down:") + self.buttons("coh:")
            choices += [(2 if toggles else 0, "decision: toggle or reorder", lambda: self.press(rng.choice(toggles))),
                        (3, "decision: confirm", lambda: self.press("confirm"))]
        self.pick(choices)

    def enter_setup(self) -> None:
        self.actions["set-up mode"] += 1
        self.checkpoint()
        self.either("bar:setup", pygame.K_F2)

    def open_dialog(self) -> None:
        self.actions["open the replay dialog"] += 1
        self.checkpoint()
        self.either("bar:open", pygame.K_o, CTRL)

    def in_dialog(self) -> None:
        """The replay file dialog: open the replay saved last, or cancel, or close the window.
        (Only these: its other buttons browse the file system and delete files.)"""
        dlg = self.dialog()
        close = dlg.close_window_button or dlg.cancel_button
        self.pick([
            (3 if self.last_log(dlg) else 0, "dialog: open a replay", lambda: self.open_last(dlg)),
            (1, "dialog: cancel", lambda: self.click(dlg.cancel_button.rect.center)),
            (1, "dialog: close", lambda: self.click(close.rect.center)),
        ])

    def in_confirm(self) -> None:
        """The question before losing unsaved commands: cancel it (its button, the window's close
        button, Esc) or confirm it."""
        dlg = self.sb.confirm_dialog()
        self.pick([
            (2, "confirm: cancel", lambda: self.click(dlg.cancel_button.rect.center)),
            (0.5, "confirm: close", lambda: self.click((dlg.close_window_button or dlg.cancel_button).rect.center)),
            (1, "confirm: esc", lambda: self.key(pygame.K_ESCAPE)),
            (1, "confirm: go on", lambda: self.click(dlg.confirm_button.rect.center)),
        ])

    def last_log(self, dlg):
        """The dialog's entry for the replay saved last (the logs are named by the time they were
        saved: choosing among them by name or place would make the run depend on the clock)."""
        logs = sorted(self.sb.save_dir.glob("*.jsonl"), key=lambda p: (p.stat().st_mtime_ns, p.name))
        return next((it["button_element"] for it in dlg.file_selection_list.item_list
                     if logs and it["text"] == logs[-1].name and it.get("button_element") is not None), None)

    def open_last(self, dlg) -> None:
        self.click(self.last_log(dlg).rect.center)
        if dlg.ok_button.is_enabled:
            self.click(dlg.ok_button.rect.center)

    def stuck(self) -> bool:
        """Past its usual length and short of what it must reach: is this battle a dead end? (The
        table was edited in set-up, or a fight is missing and no two units are engaged.)"""
        sc = self.sb.scene
        return self.sb.edited or ("fight" in self.missing and not any(
            v.engaged for v in sc.units.values() if not v.destroyed))

    def restore(self) -> None:
        """Back to the table as opened, in a fresh battle, the way a player gets there: save the
        replay (Ctrl+S) and restart (Ctrl+R), confirming the question if it is asked."""
        self.key(pygame.K_s, CTRL)
        self.key(pygame.K_r, CTRL)
        dlg = self.sb.confirm_dialog()
        if dlg is not None:
            self.click(dlg.confirm_button.rect.center)

    def in_replay(self) -> None:
        rng = self.rng
        steps = (pygame.K_RIGHT, pygame.K_LEFT, pygame.K_SPACE, pygame.K_n, pygame.K_BACKSPACE)
        self.pick([
            (4, "replay: step keys", lambda: self.key(rng.choice(steps))),
            (2, "replay: buttons", lambda: self.press(rng.choice(self.buttons("replay:") + self.buttons("bar:")))),
            (1, "replay: play", lambda: (self.key(pygame.K_p), self.pump(rng.randint(1, 4), dt=0.5))),
            (0.3, "replay: tab", lambda: self.key(pygame.K_TAB)),
            (1, "replay: leave", lambda: self.either("replay:leave", pygame.K_ESCAPE)),
        ])

    def in_setup(self) -> None:
        """Set-up mode: pick and place terrain and units, select, drag, the keys (Del, D, R,
        arrows, Esc, V) with Shift or Ctrl held or not, its buttons, and leave it."""
        sb, rng = self.sb, self.rng
        vp = sb.camera.viewport
        mods = (0, 0, SHIFT, CTRL)
        keys = (pygame.K_DELETE, pygame.K_BACKSPACE, pygame.K_d, pygame.K_r, pygame.K_LEFT, pygame.K_RIGHT,
                pygame.K_UP, pygame.K_DOWN, pygame.K_ESCAPE, pygame.K_v)
        placing = sb.setup.placing is not None

        def table_point():
            bw, bh = sb.spec.board
            x, y = sb.camera.to_screen(rng.uniform(2, bw - 2), rng.uniform(2, bh - 2))
            return (min(max(int(x), vp.left + 1), vp.right - 2), min(max(int(y), vp.top + 1), vp.bottom - 2))

        def wheel():
            self.move_mouse(table_point())
            self.post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False)
            self.pump(1)

        def drag():  # a unit (perhaps onto another: set-up must refuse it), or a terrain piece
            mids = self.living()
            mid = rng.choice(mids) if mids and rng.random() < 0.7 else None
            a = self.model_point(mid) if mid else table_point()
            if a is None:
                return self.key(pygame.K_HOME)
            b = self.drop_point(a, mid, reach=rng.uniform(1, 8)) if mid else \
                (a[0] + rng.uniform(-8, 8) * sb.camera.scale, a[1] + rng.uniform(-8, 8) * sb.camera.scale)
            self.drag(a, b, mod=rng.choice(mods))

        self.pick([
            (2 if self.living() else 0, "setup: select a unit", lambda: self.click_model(rng.choice(self.living()))),
            (1, "setup: click the table", lambda: self.click(table_point())),
            (1, "setup: pick terrain", lambda: self.press(rng.choice(self.buttons("terrain:") or ["bar:rotate"]))),
            (0.6, "setup: pick a unit", lambda: self.press(rng.choice(self.buttons("unit:") or ["bar:rotate"]))),
            (1.5 if placing else 0, "setup: place", lambda: self.click(table_point())),
            (0.6 if placing else 0, "setup: wheel", wheel),
            (1.2, "setup: drag", drag),
            (1.5, "setup: keys", lambda: self.key(rng.choice(keys), rng.choice(mods))),
            (0.6, "setup: buttons", lambda: self.press(rng.choice(self.buttons("setup:") + self.buttons("bar:")))),
            (0.1, "setup: ctrl+t", lambda: self.key(pygame.K_t, CTRL)),
            (1.5, "setup: leave", lambda: self.either(rng.choice(("bar:setup", "setup:done")), pygame.K_F2)),
        ])

    def view(self) -> None:
        """The camera and the overlays: wheel, zoom keys, right- or middle-drag pan, help, sight,
        a click on a log line."""
        rng, vp = self.rng, self.sb.camera.viewport
        p = (rng.randrange(vp.left, vp.right), rng.randrange(vp.top, vp.bottom))
        zoom = (pygame.K_HOME, pygame.K_0, pygame.K_PLUS, pygame.K_MINUS, pygame.K_EQUALS, pygame.K_KP_PLUS,
                pygame.K_KP_MINUS)

        def wheel():
            self.move_mouse(p)
            self.post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-2, -1, 1, 2)), flipped=False)
            self.pump(1)

        self.pick([
            (1, "wheel", wheel),
            (1, "zoom keys", lambda: self.key(rng.choice(zoom))),
            (0.7, "pan", lambda: self.drag(p, (p[0] + rng.randint(-150, 150), p[1] + rng.randint(-150, 150)),
                                           button=rng.choice((2, 3)))),
            (0.4, "help", lambda: self.either("bar:help", pygame.K_F1)),
            (0.4, "sight", lambda: self.key(pygame.K_v)),
            (0.4, "log line", self.log_line),
        ])

    def log_line(self) -> None:
        lst = self.sb.log_list
        items = [it for it in lst.item_list if it.get("button_element") is not None]
        if items:
            self.click(self.rng.choice(items)["button_element"].rect.center)

    def noise(self) -> None:
        """Pure noise: clicks anywhere (but on an open file dialog: it can delete files), drags,
        the wheel, any key with any modifier."""
        rng = self.rng
        w, h = SIZE

        def anywhere():
            for _ in range(10):
                p = (rng.randrange(w), rng.randrange(h))
                if self._over_table(p):
                    return p
            return (5, 5)

        def wheel():
            self.move_mouse(anywhere())
            self.post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-3, -1, 1, 3)), flipped=False)
            self.pump(1)

        mods = (0, 0, 0, SHIFT, CTRL, pygame.KMOD_LALT)
        self.pick([
            (3, "noise: click", lambda: self.click(anywhere(), button=rng.choice((1, 1, 1, 2, 3)))),
            (1.5, "noise: drag", lambda: self.drag(anywhere(), anywhere(), button=rng.choice((1, 1, 3)),
                                                   mod=rng.choice((0, 0, SHIFT)))),
            (1, "noise: wheel", wheel),
            (3, "noise: key", lambda: self.key(rng.choice(NOISE_KEYS), rng.choice(mods))),
            (0.5, "noise: motion", lambda: (self.move_mouse(anywhere()), self.pump(1))),
        ])

    # ---------------------------------------------------------------- invariants
    def check(self) -> None:
        """The world's invariants, after every pumped event batch."""
        sb = self.sb
        b = sb.battle
        if sb.recorder is not self._seg["recorder"]:
            self._end_segment()
            self._new_segment()
        b._enter()
        bw, bh = b.scenario.board
        now, live = {}, []
        for mid, ent in b.models.items():
            pos = esper.component_for_entity(ent, Position)
            rem = esper.component_for_entity(ent, Wounds).remaining
            wmax = esper.component_for_entity(ent, Stats).W
            assert 0 <= rem <= wmax, f"{mid}: {rem} wounds left of W{wmax}"
            now[mid] = (pos.x, pos.y, rem)
            if W.alive(ent):
                fp = W.footprint(ent)
                assert (fp.x, fp.y) == (pos.x, pos.y), f"{mid}: footprint and position differ"
                pts = geometry.outline(fp, 32)  # as the scenario loader checks a base (1e-6")
                assert ((pts >= -1e-6).all() and (pts[:, 0] <= bw + 1e-6).all()
                        and (pts[:, 1] <= bh + 1e-6).all()), \
                    f"{mid} at ({pos.x}, {pos.y}) is not wholly on the {bw:g}x{bh:g} board"
                live.append((mid, fp))
        self._moves(now)
        self._overlaps(live)
        self._last = now
        # the scene the sandbox draws and hit-tests is the world (it is refreshed in update)
        if sb.scene.version == len(b.events):
            for mid, (x, y, rem) in now.items():
                mv = sb.scene.models[mid]
                assert (mv.x, mv.y, mv.remaining) == (x, y, rem), f"the scene's {mid} is not the world's"
        if sb.order is not None:
            assert sb.mode == "battle" and not b.busy and not sb.resolving, "an order is open during resolution"
        # (a replay watched step by step stands within a command: the viewer drives it)
        within_replay = sb.mode == "replay" and sb.replay_view is not None and sb.replay_view.sub > 0
        assert sb.resolving or not b.busy or within_replay, "the battle is busy but the sandbox is not resolving it"

    def _moves(self, now: dict) -> None:
        """Models change place only by an accepted Move, and end where it said (an advance: on
        the line to where it said, no further); wounds are only ever lost."""
        ev = self.sb.battle.events
        start = self._seen
        new, self._seen = ev[self._seen:], len(ev)
        # (the command of a move may have come before this look: a replay stepped one event at
        # a time, or a decision between the command and its move: the last one before it)
        cmd = next((e["command"] for e in reversed(ev[:start]) if e["type"] == "command"), None)
        moved = {}
        for e in new:
            if e["type"] == "command":
                cmd = e["command"]
            elif e["type"] == "move not made":
                self.not_made += 1
            elif e["type"] == "refused" and e["command"]["kind"] == "move":
                # the sandbox limits a drag to the move's length and the board: the engine agrees
                assert not any(w in e["reason"] for w in OWN_LIMITS), e["reason"]
            elif e["type"] in MOVEMENT and e.get("to"):
                if e["type"] == "moved":  # (charges, pile-ins and consolidations: not from the sandbox)
                    assert cmd is not None and cmd["kind"] == "move" and cmd["unit"] == e["unit"], (cmd, e)
                    asked = {t[0]: (t[1], t[2]) for t in cmd["to"]}
                for mid, x, y in e["to"]:
                    moved[mid] = (x, y)
                    if e["type"] != "moved":
                        continue
                    x0, y0, _r = self._last[mid]
                    ax, ay = asked[mid]
                    if e["mode"] == "advance":  # on the segment from where it stood to where asked
                        cross = (ax - x0) * (y - y0) - (ay - y0) * (x - x0)
                        assert abs(cross) < 1e-4 and min(x0, ax) - 1e-6 <= x <= max(x0, ax) + 1e-6 \
                            and min(y0, ay) - 1e-6 <= y <= max(y0, ay) + 1e-6, (mid, (x0, y0), (ax, ay), (x, y))
                    else:
                        assert (x, y) == (ax, ay), (mid, (ax, ay), (x, y))
        for mid, (x, y, rem) in now.items():
            x0, y0, r0 = self._last[mid]
            assert rem <= r0, f"{mid} went from {r0} to {rem} wounds"
            if mid in moved:
                assert (x, y) == moved[mid], f"{mid} is at ({x}, {y}), not where it moved to {moved[mid]}"
            else:
                assert (x, y) == (x0, y0), f"{mid} went from ({x0}, {y0}) to ({x}, {y}) without a move"

    def _overlaps(self, live) -> None:
        """No two living bases overlap (sim.rules.geometry.overlaps: sharing area, touching is
        fine): the loader and set-up refuse them, and every move's end is checked (03.01), the
        stop of a free-play advance whose D6 fell short included."""
        if len(live) < 2:
            return
        d = geometry.distance_matrix([fp for _m, fp in live], [fp for _m, fp in live])
        for i, j in zip(*np.nonzero(d <= 1e-9)):
            if i < j:
                assert not geometry.overlaps(live[i][1], live[j][1]), \
                    f"the bases of {live[i][0]} and {live[j][0]} overlap"

    def checked_draw(self) -> None:
        b = self.sb.battle
        before = (b.state_hash(), len(b.events), b.pending, b.busy)
        self.sb.draw()
        self.draws += 1
        assert (b.state_hash(), len(b.events), b.pending, b.busy) == before, "drawing changed the world"

    # ---------------------------------------------------------------- battles and replays
    def _new_segment(self) -> None:
        sb = self.sb
        self._seg = {"recorder": sb.recorder, "spec": sb.spec, "path": sb.scenario_path, "edited": sb.edited}
        self._seen = len(sb.battle.events)
        b = sb.battle
        b._enter()
        self._last = {mid: (esper.component_for_entity(e, Position).x, esper.component_for_entity(e, Position).y,
                            esper.component_for_entity(e, Wounds).remaining) for mid, e in b.models.items()}

    def checkpoint(self) -> None:
        """Save the battle with Ctrl+S (a real key press) before leaving it, and replay it."""
        sb = self.sb
        if sb.mode == "battle" and sb.battle.commands_done and not sb.resolving:
            self.key(pygame.K_s, CTRL)
            m = re.match(r"replay saved: (.+?) \(check it", sb.status)
            assert m and Path(m[1]).is_file(), sb.status
            self._verify(Path(m[1]), sb.recorder)

    def _end_segment(self) -> None:
        """A battle was left (set-up, the replay viewer): write and replay its log as it was."""
        seg = self._seg
        rec = seg["recorder"]
        if rec.n == 0:
            return
        upto = max(i for i, line in enumerate(rec.lines) if json.loads(line)["t"] in ("hash", "header")) + 1
        path = self.out / f"battle-{self.replays}.jsonl"
        if seg["edited"]:
            from sim.sandbox.save_table import spec_toml
            write_atomic(self.out / seg["path"], spec_toml(seg["spec"]))
        write_log(path, rec, upto)
        self._verify(path, rec)

    def _verify(self, path: Path, rec) -> None:
        n, div = replay(path)
        assert div is None, f"{path}: {div}"
        assert n == rec.n
        if id(rec) in self._verified:
            return
        self._verified.add(id(rec))
        self._counted.append(rec)
        self.replays += 1

    def finish(self) -> Path:
        """Close whatever is open (through input), finish the activation, save, replay."""
        sb = self.sb
        for _ in range(400):
            if sb.show_help:
                self.key(pygame.K_ESCAPE)
            elif self.dialog() is not None:
                self.click(self.dialog().cancel_button.rect.center)
            elif sb.confirm_dialog() is not None:
                self.key(pygame.K_ESCAPE)
            elif sb.mode == "replay":
                self.key(pygame.K_ESCAPE)
            elif sb.mode == "setup":
                self.key(pygame.K_F2)
            elif sb.battle.pending is not None:
                self.press("default")
            elif sb.resolving:
                self.press("finish")
            elif sb.order is not None:
                self.key(pygame.K_ESCAPE)
            else:
                break
        else:
            raise AssertionError(f"could not finish: {sb.status}")
        path = sb.save_replay()
        self._verify(path, sb.recorder)
        return path

    def tally(self, recorders) -> tuple[Counter, Counter]:
        """Resolved commands and decision answers by kind, in the given battles' logs."""
        commands, decisions = Counter(), Counter()
        for rec in recorders:
            for line in rec.lines:
                r = json.loads(line)
                if r.get("n", rec.n) >= rec.n:  # (the header; a command not resolved yet)
                    continue
                if r["t"] == "command":
                    commands[r["command"]["kind"]] += 1
                elif r["t"] == "event" and r["event"]["type"] == "decision":
                    decisions[r["event"]["kind"]] += 1
        return commands, decisions

    def reached(self) -> set:
        """What the session has reached so far: its past battles and the one going on."""
        recs = self._counted + [r for r in [self._seg["recorder"]] if id(r) not in self._verified]
        commands, decisions = self.tally(recs)
        return {k for k in ("shoot", "fight", "move") if commands[k]} | ({"decision"} if decisions else set())


@pytest.mark.parametrize("seed", sorted(SCENES))
def test_sandbox_fuzz(make, tmp_path, seed):
    table, n, must = SCENES[seed]
    d = make(table, seed=seed)
    out = tmp_path / "battles"
    out.mkdir()
    fz = Fuzz(d, Rng(seed), out)
    t0 = time.perf_counter()
    done = 0
    try:
        fz.pump(2)
        while done < MAX_ACTIONS:
            if done >= n:
                fz.missing = must - fz.reached()
                if not fz.missing:
                    break
            fz.act()
            done += 1
        fz.finish()
    finally:
        pygame.key.set_mods(0)
    commands, decisions = fz.tally(fz._counted)
    print(f"\nseed {seed} {table.name}: {done} actions, {fz.pumps} pumps, {fz.draws} draws checked, "
          f"{time.perf_counter() - t0:.1f} s")
    print(f"  commands resolved: {dict(sorted(commands.items()))}")
    print(f"  decisions answered: {dict(sorted(decisions.items()))}")
    print(f"  battles replayed: {fz.replays}; free-play advances not made (a short roll's stop "
          f"illegal, 03.01): {fz.not_made}")
    print(f"  policy: {dict(sorted(fz.actions.items()))}")
    print(f"  buttons: {dict(sorted(fz.pressed.items()))}")
    reached = {k for k in ("shoot", "fight", "move") if commands[k]} | ({"decision"} if decisions else set())
    assert must <= reached, f"never reached in {done} actions: {sorted(must - reached)}"
