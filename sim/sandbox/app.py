"""The battle sandbox: a window on the table, panels around it, input turned into commands
and decisions. ``Sandbox`` is testable without a window (give it a Surface and post events);
``run_sandbox`` opens a real one.

The sandbox never writes the world: every change goes through ``Battle.submit`` (commands),
``Battle.answer`` (decisions) and ``Battle.tick`` (letting the systems run)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import esper
import pygame
import pygame_gui
from pygame_gui.elements import UIImage, UILabel, UISelectionList

from sim.battle import Battle, Refusal
from sim.commands import EndTurn, Move
from sim import world as W
from sim.components import Activation, ModelId, Unit
from sim.replay.log import Recorder, write_atomic
from sim.report import describe
from sim.sandbox import dice_tray, overlays, panels
from sim.sandbox import style as S
from sim.sandbox.camera import Camera
from sim.sandbox.draw_table import Look, TableLayer, UnitHulls, draw_units
from sim.sandbox.orders import FightOrder, ShootOrder
from sim.sandbox.scene import Scene
from sim.sandbox.widgets import Flow
from sim.scenario.load import load_scenario

THEME = Path(__file__).resolve().parents[2] / "assets" / "theme.json"
FADE = 0.9  # seconds for a destroyed model to fade out
LOG_ITEMS = 220  # most recent log lines kept in the list widget


class Sandbox:
    STATUS_H = 30
    RIGHT_W = 400
    BOTTOM_H = 196
    ACTION_H = 44

    def __init__(self, scenario_path, surface: pygame.Surface | None = None, size=(1440, 900),
                 seed: int | None = None, save_dir: str | Path = "sandbox-saves"):
        if not pygame.get_init():
            pygame.init()
        self.surface = surface if surface is not None else pygame.Surface(size)
        self.size = self.surface.get_size()
        if isinstance(scenario_path, (str, os.PathLike)):
            self.scenario_path = str(scenario_path)
            self.spec = load_scenario(scenario_path)
        else:  # an already loaded ScenarioSpec (benchmarks, generated tables)
            self.spec = scenario_path
            self.scenario_path = self.spec.path or "generated.toml"
        self.battle = Battle(self.spec, seed=seed)
        self.recorder = Recorder(self.battle, self.scenario_path)
        self.saved_upto = len(self.recorder.lines)
        self.save_dir = Path(save_dir)
        self.scene = Scene(self.battle)
        self.colours = [tuple(a.colour) for a in self.spec.armies]
        self.layer = TableLayer(self.spec.board, self.spec.terrain)
        self.hulls = UnitHulls()
        self.los = overlays.LosCache(self.battle)
        self.camera = Camera(self.spec.board, pygame.Rect(0, 0, *self.size))
        self.manager = pygame_gui.UIManager(self.size, str(THEME) if THEME.is_file() else None)
        # interaction state (the sandbox's own, never the battle's)
        self.selected_unit: str | None = None
        self.selected_model: str | None = None
        self.hover_unit: str | None = None
        self.hover_model: str | None = None
        self.order: ShootOrder | FightOrder | None = None
        self.resolving = False
        self.auto = False
        self.speed = 3
        self._acc = 0.0
        self.move_mode = "normal"
        self.show_los = False
        self.show_help = False
        self.highlighted: set[str] = set()
        self.decision_state: dict = {}
        self.decision_error: str | None = None
        self.status = f"{self.spec.name} - click a unit to select it (F1 for help)"
        self.mouse = (0, 0)
        self.press = None  # (screen pos, model id or None, shift)
        self.drag: dict | None = None  # {"models": [...], "origin": {mid: (x, y, limit)}, "start": (tx, ty)}
        self.panning = None
        self.clock = 0.0
        self.dead_at: dict[str, float] = {m.id: -1e9 for m in self.scene.models.values() if not m.alive}
        self.actions: dict = {}
        self.names: dict = {}
        self._seen_events = 0
        self._log_items: list[tuple[str, str]] = []
        self._pending_key = None
        self._busy_seen = False
        self.dirty = {"card", "orders", "log", "dice", "action"}
        self._build()

    # ======================================================================= layout
    def _rects(self):
        w, h = self.size
        rw = min(self.RIGHT_W, max(260, w // 3))
        bh = min(self.BOTTOM_H, max(120, h // 4))
        table = pygame.Rect(0, self.STATUS_H, w - rw, h - self.STATUS_H - bh - self.ACTION_H)
        return {
            "status": pygame.Rect(0, 0, w - rw, self.STATUS_H),
            "table": table,
            "action": pygame.Rect(0, table.bottom, w - rw, self.ACTION_H),
            "log": pygame.Rect(0, h - bh, int((w - rw) * 0.58), bh),
            "dice": pygame.Rect(int((w - rw) * 0.58), h - bh, (w - rw) - int((w - rw) * 0.58), bh),
            "card": pygame.Rect(w - rw, 0, rw, int(h * 0.42)),
            "orders": pygame.Rect(w - rw, int(h * 0.42), rw, h - int(h * 0.42) - 44),
            "footer": pygame.Rect(w - rw, h - 44, rw, 44),
        }

    def _build(self) -> None:
        self.manager.clear_and_reset()
        self.actions.clear()
        self.names.clear()
        self.rects = r = self._rects()
        self.camera.set_viewport(r["table"])
        self.status_label = UILabel(r["status"], self.status, self.manager, object_id="#status")
        self._status_shown = self.status
        self.log_list = UISelectionList(r["log"], [], self.manager)
        self._log_shown = 0
        self.dice_image = UIImage(r["dice"], dice_tray.render(r["dice"].size, None), self.manager)
        self.card_flow = None
        self.orders_flow = None
        self.footer_flow = None
        self.action_flow = None
        self.dirty = {"card", "orders", "log", "dice", "action"}
        self._refresh_panels(force_log=True)

    def resize(self, size) -> None:
        self.size = tuple(size)
        if self.surface.get_size() != self.size:
            self.surface = pygame.Surface(self.size) if pygame.display.get_surface() is None \
                else pygame.display.get_surface()
        self.manager.set_window_resolution(self.size)
        self._build()

    def _action_bar(self) -> None:
        if self.action_flow is not None:
            self._forget(self.action_flow)
            self.action_flow.kill()
        f = Flow(self.manager, self.rects["action"], self.actions, self.names)
        f.y = 6
        idle = not (self.battle.busy or self.resolving)
        f.button("Shoot (S)", self.begin_shoot, name="bar:shoot",
                 object_id="#toggle_on" if isinstance(self.order, ShootOrder) else None, height=28)
        f.button("Fight (F)", self.begin_fight, name="bar:fight",
                 object_id="#toggle_on" if isinstance(self.order, FightOrder) else None, height=28)
        f.button(f"Move: {self.move_mode} (M)", self.cycle_move_mode, name="bar:move", height=28)
        f.button("Step (Space)", self.step, name="bar:step", height=28,
                 object_id=None if not idle else "#unavailable", tip=None if not idle else "nothing to resolve")
        f.button("Auto (P)", self.toggle_auto, name="bar:auto", height=28,
                 object_id="#toggle_on" if self.auto else None)
        f.button("End turn (E)", self.end_turn, name="bar:end", height=28)
        f.button("Sight (V)", self.toggle_los, name="bar:los", height=28,
                 object_id="#toggle_on" if self.show_los else None,
                 tip="lines of sight from the selected model to enemy models")
        f.button("Save replay", self.save_replay, name="bar:save", height=28, tip="Ctrl+S")
        f.button("Save table", self.save_table, name="bar:table", height=28, tip="Ctrl+T")
        f.button("?", self.toggle_help, name="bar:help", height=28, width=30, tip="keys (F1)")
        f.finish()
        self.action_flow = f

    def _forget(self, flow) -> None:
        dead = [b for b in self.actions if b.ui_container is flow.scroll.get_container()
                or not b.alive()]
        for b in dead:
            self.actions.pop(b, None)
        for k in [k for k, b in self.names.items() if not b.alive() or b in dead]:
            self.names.pop(k, None)

    def _rebuild_flow(self, attr: str, rect_name: str, builder) -> None:
        old = getattr(self, attr)
        if old is not None:
            old.kill()
            self._forget(old)
        f = Flow(self.manager, self.rects[rect_name], self.actions, self.names)
        builder(f, self)
        setattr(self, attr, f)

    def _refresh_panels(self, force_log: bool = False) -> None:
        if "card" in self.dirty:
            self._rebuild_flow("card_flow", "card", panels.build_unit_card)
        if "orders" in self.dirty:
            self._rebuild_flow("orders_flow", "orders", panels.build_orders)
            self._rebuild_flow("footer_flow", "footer", panels.build_footer)
        if "action" in self.dirty:
            self._action_bar()
        if "log" in self.dirty or force_log:
            self._update_log()
        if "dice" in self.dirty:
            r = self.rects["dice"]
            self.dice_image.set_image(dice_tray.render(r.size, dice_tray.latest_pool(self.battle.events)))
        self.dirty.clear()
        if self.status != self._status_shown:
            self.status_label.set_text(self.status)
            self._status_shown = self.status

    def _update_log(self) -> None:
        ev = self.battle.events
        for i in range(self._seen_events, len(ev)):
            line = describe(ev[i])
            if line:
                for sub in line.split("\n"):
                    self._log_items.append((sub.strip() or " ", f"#ev{i}"))
        self._seen_events = len(ev)
        if self._log_shown != len(self._log_items):
            self.log_list.set_item_list(self._log_items[-LOG_ITEMS:])
            self._log_shown = len(self._log_items)
            bar = getattr(self.log_list, "scroll_bar", None)
            if bar is not None:
                bar.set_scroll_from_start_percentage(1.0)

    # ======================================================================= input
    def handle(self, event) -> None:
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
            return
        consumed = self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            fn = self.actions.get(event.ui_element)
            if fn is not None:
                fn()
            return
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.log_list:
            self._log_clicked()
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            self._mouse(event, consumed)

    def _key(self, e) -> None:
        k, mods = e.key, e.mod
        ctrl = mods & pygame.KMOD_CTRL
        uni = getattr(e, "unicode", "")
        if self.show_help and k in (pygame.K_ESCAPE, pygame.K_F1):
            self.show_help = False
            return
        if k == pygame.K_F1 or uni == "?":
            self.toggle_help()
        elif ctrl and k == pygame.K_s:
            self.save_replay()
        elif ctrl and k == pygame.K_t:
            self.save_table()
        elif k == pygame.K_s:
            self.begin_shoot()
        elif k == pygame.K_f:
            self.begin_fight()
        elif k == pygame.K_m:
            self.cycle_move_mode()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.resolve()
        elif k in (pygame.K_SPACE, pygame.K_n):
            self.step()
        elif k == pygame.K_p:
            self.toggle_auto()
        elif k == pygame.K_ESCAPE:
            self.cancel()
        elif k == pygame.K_v:
            self.toggle_los()
        elif k == pygame.K_TAB:
            self.next_unit()
        elif k == pygame.K_e:
            self.end_turn()
        elif k in (pygame.K_HOME, pygame.K_0):
            self.camera.fit()
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom_at(self.camera.viewport.center, 1.2)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom_at(self.camera.viewport.center, 1 / 1.2)

    def _mouse(self, e, consumed: bool) -> None:
        vp = self.camera.viewport
        if e.type == pygame.MOUSEMOTION:
            pos = e.pos
            if self.panning is not None:
                self.camera.pan(pos[0] - self.panning[0], pos[1] - self.panning[1])
                self.panning = pos
            elif self.press is not None:
                self._drag_motion(pos)
            self.mouse = pos
            self._hover(pos)
            return
        if e.type == pygame.MOUSEWHEEL:
            if vp.collidepoint(self.mouse) and not self.show_help:
                self.camera.zoom_at(self.mouse, 1.15 ** max(-3, min(3, e.y)))
            return
        pos = e.pos
        self.mouse = pos
        if e.type == pygame.MOUSEBUTTONDOWN:
            if self.show_help:
                self.show_help = False
                return
            if consumed or not vp.collidepoint(pos):
                return
            if e.button in (2, 3):
                self.panning = pos
            elif e.button == 1:
                shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT) or getattr(e, "shift", False)
                self._press(pos, shift)
        elif e.type == pygame.MOUSEBUTTONUP:
            if e.button in (2, 3):
                self.panning = None
            elif e.button == 1:
                self._release(pos)

    def _hover(self, pos) -> None:
        m = None
        if self.camera.viewport.collidepoint(pos):
            m = self.scene.model_at(*self.camera.to_table(*pos))
        self.hover_model = m.id if m else None
        self.hover_unit = m.unit if m else None

    def _press(self, pos, shift: bool) -> None:
        m = self.scene.model_at(*self.camera.to_table(*pos))
        req = self.battle.pending
        if req is not None and req.kind == "precision":
            if m is not None and m.id in req.options:
                self.answer(m.id)
            elif m is not None:
                self.status = f"{m.id} is not one of the visible CHARACTERs: {', '.join(map(str, req.options[:-1]))}"
            return
        if self.order is not None:
            if m is not None and m.owner != self.order.owner:
                self.assign_target(m.unit)
            elif m is not None:
                self.status = "click an enemy unit to target it (Esc cancels the order)"
            return
        if m is None:
            self.press = (pos, None, shift)
            return
        self.select(m.unit, m.id)
        self.press = (pos, m.id, shift)

    def _drag_motion(self, pos) -> None:
        start, mid, shift = self.press
        if mid is None or self.battle.busy or self.resolving or self.order is not None:
            return
        if self.drag is None:
            if abs(pos[0] - start[0]) + abs(pos[1] - start[1]) < 5:
                return
            m = self.scene.models.get(mid)
            if m is None or not m.alive:
                return
            ids = [mid] if shift else [x.id for x in self.scene.living(m.unit)]
            extra = 6 if self.move_mode == "advance" else 0
            self.drag = {"unit": m.unit, "models": ids, "grab": mid,
                         "origin": {i: (self.scene.models[i].x, self.scene.models[i].y,
                                        self.scene.models[i].M + extra) for i in ids},
                         "start": self.camera.to_table(*start), "ghosts": {}}
        d = self.drag
        tx, ty = self.camera.to_table(*pos)
        dx, dy = tx - d["start"][0], ty - d["start"][1]
        dist = (dx * dx + dy * dy) ** 0.5
        limit = min(o[2] for o in d["origin"].values())
        if dist > limit > 0:
            dx, dy = dx * limit / dist, dy * limit / dist
        bw, bh = self.spec.board
        ghosts = {}
        for i, (x, y, _l) in d["origin"].items():
            r = self.scene.models[i].radius
            ghosts[i] = (min(max(x + dx, r), bw - r), min(max(y + dy, r), bh - r))
        d["ghosts"] = ghosts

    def _release(self, pos) -> None:
        press, self.press = self.press, None
        drag, self.drag = self.drag, None
        if drag is not None and drag["ghosts"]:
            to = tuple((i, round(x, 4), round(y, 4)) for i, (x, y) in drag["ghosts"].items()
                       if (x, y) != drag["origin"][i][:2])
            if to:
                self.submit(Move(drag["unit"], to, self.move_mode))
            return
        if press is not None and press[1] is None and self.order is None:
            self.select(None)

    # ======================================================================= actions
    def select(self, unit_id: str | None, model_id: str | None = None) -> None:
        if unit_id != self.selected_unit:
            self.dirty |= {"card", "orders"}
        self.selected_unit, self.selected_model = unit_id, model_id
        if unit_id:
            self.status = f"selected {self.scene.units[unit_id].name} ({unit_id})"

    def next_unit(self) -> None:
        ids = [u for u, v in self.scene.units.items() if not v.destroyed]
        if not ids or self.order is not None:
            return
        i = (ids.index(self.selected_unit) + 1) % len(ids) if self.selected_unit in ids else 0
        first = self.scene.living(ids[i])[0].id
        self.select(ids[i], first)

    def _can_order(self) -> bool:
        if self.battle.busy or self.resolving:
            self.status = "an activation is being resolved: step it to the end first"
            return False
        if self.selected_unit is None or self.scene.units[self.selected_unit].destroyed:
            self.status = "select a unit first"
            return False
        return True

    def begin_shoot(self) -> None:
        if not self._can_order():
            return
        self.order = ShootOrder(self.battle, self.selected_unit)
        elig = [t for t, r in self.order.eligibility.items() if r is None]
        self.status = ("choose a shooting type" if elig else
                       "this unit qualifies for no shooting type (hover the types for why)")
        self.dirty |= {"orders", "action"}

    def begin_fight(self) -> None:
        if not self._can_order():
            return
        self.order = FightOrder(self.battle, self.selected_unit)
        self.status = self.order.eligible and f"not eligible to fight: {self.order.eligible}" or \
            "choose melee weapons, then click an engaged enemy unit"
        self.dirty |= {"orders", "action"}

    def choose_type(self, t: str) -> None:
        if isinstance(self.order, ShootOrder):
            self.order.choose_type(t)
            self.status = self.order.message
            self.dirty.add("orders")

    def toggle_slot(self, i: int) -> None:
        if self.order is not None and 0 <= i < len(self.order.slots):
            self.order.toggle(i)
            self.status = self.order.message
            self.dirty.add("orders")

    def assign_target(self, uid: str) -> None:
        if isinstance(self.order, ShootOrder) and self.order.type is None:
            self.status = "choose a shooting type first"
            return
        self.status = self.order.assign(uid)
        self.dirty.add("orders")

    def clear_targets(self) -> None:
        if self.order is not None:
            self.order.clear_targets()
            self.status = self.order.message
            self.dirty.add("orders")

    def cancel(self) -> None:
        if self.show_help:
            self.show_help = False
        elif self.order is not None:
            self.order = None
            self.status = "order cancelled"
        elif self.drag is not None:
            self.drag = self.press = None
        elif not (self.battle.busy or self.resolving):
            self.select(None)
            self.highlighted = set()
        self.dirty |= {"orders", "action"}

    def resolve(self) -> None:
        if self.order is None:
            return
        if isinstance(self.order, ShootOrder) and self.order.type is None:
            self.status = "choose a shooting type first"
            return
        sels = self.order.selections()
        if not sels:
            self.status = "no weapon has a target yet: click an enemy unit"
            return
        if self.submit(self.order.command()):
            self.order = None

    def submit(self, cmd) -> bool:
        """The only door to the battle for commands."""
        try:
            self.battle.submit(cmd)
        except Refusal as e:
            self.status = f"refused: {e}"
            self.dirty |= {"log", "orders"}
            return False
        self.recorder.command(cmd)
        self.resolving = True
        self.status = f"accepted: {cmd.kind} {getattr(cmd, 'unit', '')}".strip()
        if cmd.kind in ("move", "end turn"):
            self.finish()
        else:
            self.status += " - Step (Space) through the attack sequence, or Auto (P)"
        self.dirty |= {"orders", "action", "log"}
        return True

    def step(self) -> None:
        if not self.resolving:
            return
        if self.battle.pending is not None:
            self.status = "a decision is needed (see the orders panel)"
            return
        self.battle.tick()
        self._check_done()

    def finish(self) -> None:
        if not self.resolving:
            return
        self.battle.step_until_blocked()
        self._check_done()

    def _check_done(self) -> None:
        if self.resolving and not self.battle.busy:
            self.recorder.end_command(self.battle)
            self.battle.commands_done += 1
            self.saved_upto = len(self.recorder.lines)
            self.resolving = False
            self.auto = False
            self.status = "resolved"
            self.dirty |= {"orders", "action", "card"}

    def answer(self, value) -> None:
        if self.battle.pending is None:
            return
        try:
            self.battle.answer(value)
        except Refusal as e:
            self.decision_error = str(e)
            self.status = f"refused: {e}"
            self.dirty.add("orders")
            return
        self.decision_state.clear()
        self.decision_error = None
        self.status = f"answered: {value}"
        self.dirty |= {"orders", "log"}

    def toggle_psychic(self, opt) -> None:
        chosen = self.decision_state.setdefault("psychic", [])
        if opt in chosen:
            chosen.remove(opt)
        else:
            chosen.append(opt)
        self.dirty.add("orders")

    def move_group(self, k: int, d: int) -> None:
        order = self.decision_state.get("order")
        if order and 0 <= k + d < len(order):
            order[k], order[k + d] = order[k + d], order[k]
            self.dirty.add("orders")

    def toggle_auto(self) -> None:
        self.auto = not self.auto and self.resolving
        self._acc = 0.0
        self.dirty |= {"orders", "action"}

    def set_speed(self, sp: int) -> None:
        self.speed = sp
        self.dirty.add("orders")

    def set_move_mode(self, mode: str) -> None:
        self.move_mode = mode
        self.dirty |= {"orders", "action"}

    def cycle_move_mode(self) -> None:
        modes = ("normal", "advance", "fall back")
        self.set_move_mode(modes[(modes.index(self.move_mode) + 1) % 3])
        self.status = f"move mode: {self.move_mode}"

    def end_turn(self) -> None:
        if self.battle.busy or self.resolving or self.order is not None:
            self.status = "finish or cancel the current order first"
            return
        self.submit(EndTurn())

    def toggle_los(self) -> None:
        self.show_los = not self.show_los
        self.status = "visibility overlay " + ("on" if self.show_los else "off")
        self.dirty.add("action")

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def save_replay(self) -> Path | None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.save_dir / f"{Path(self.scenario_path).stem}-{stamp}.jsonl"
        lines = self.recorder.lines[:self.saved_upto]
        write_atomic(path, "\n".join(lines) + "\n")
        self.status = f"replay saved: {path} (check it with: sim replay {path})"
        return path

    def save_table(self) -> Path | None:
        from sim.sandbox.save_table import table_toml
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.save_dir / f"{Path(self.scenario_path).stem}-table-{stamp}.toml"
        write_atomic(path, table_toml(self.battle, self.scene))
        self.status = f"table saved: {path}"
        return path

    def _log_clicked(self) -> None:
        sel = self.log_list.get_single_selection(include_object_id=True)
        if not sel:
            return
        _text, oid = sel
        try:
            i = int(str(oid).split("#ev")[-1])
        except ValueError:
            return
        if 0 <= i < len(self.battle.events):
            self.highlighted = concerned_models(self.battle, self.battle.events[i])
            self.status = f"highlighted {len(self.highlighted)} model(s) for: {_text.strip()[:80]}"

    def stage_text(self) -> str:
        b = self.battle
        ent = b.activation_unit
        if ent is None:
            return "starting..." if b.busy else "done"
        b._enter()
        act = esper.try_component(ent, Activation)
        if act is None:
            return "..."
        uid = esper.component_for_entity(ent, Unit).id
        s = f"{uid} {act.kind}: stage {act.stage}"
        if act.stage == "attacks" and act.pools and act.pool_index < len(act.pools):
            p = act.pools[act.pool_index]
            s += f", pool {p.index + 1}/{len(act.pools)}, next step: {p.step}"
        return s

    # ======================================================================= frame
    def update(self, dt: float) -> None:
        self.clock += dt
        if self.auto and self.resolving and self.battle.pending is None:
            self._acc += dt
            while self._acc >= 1.0 / self.speed and self.resolving and self.battle.pending is None:
                self._acc -= 1.0 / self.speed
                self.step()
        if self.scene.refresh():
            for m in self.scene.models.values():
                if not m.alive and m.id not in self.dead_at:
                    self.dead_at[m.id] = self.clock
            self.dirty |= {"card", "log", "dice"}
            if self.order is not None:
                self.order._dirty()
        pk = None if self.battle.pending is None else (self.battle.pending.kind, self.battle.pending.key)
        if pk != self._pending_key:
            self._pending_key = pk
            self.dirty |= {"orders"}
        if self.battle.busy != self._busy_seen:
            self._busy_seen = self.battle.busy
            self.dirty |= {"orders", "action"}
        if self.resolving and "log" in self.dirty:
            self.dirty.add("orders")  # the stage text
        self._refresh_panels()
        self.manager.update(dt)

    def look(self) -> Look:
        look = Look(self.selected_unit, self.selected_model, self.hover_unit, set(self.highlighted))
        if self.drag is not None:
            look.ghosts = self.drag["ghosts"]
            look.drag_origin = self.drag["origin"]
            look.grab = self.drag["grab"]
        if self.order is not None and (not isinstance(self.order, ShootOrder) or self.order.type):
            look.targets = self.order.targets()
        req = self.battle.pending
        if req is not None and req.kind == "precision":
            look.pickable = {o for o in req.options if o in self.scene.models}
        look.fading = {m: 1 - (self.clock - t) / FADE for m, t in self.dead_at.items()
                       if 0 <= self.clock - t < FADE}
        self._pool_marks(look)
        return look

    def _pool_marks(self, look: Look) -> None:
        b = self.battle
        if b.activation_unit is None:
            return
        b._enter()
        act = esper.try_component(b.activation_unit, Activation)
        if act is None or act.stage != "attacks" or act.pool_index >= len(act.pools):
            return
        pool = act.pools[act.pool_index]
        look.pool_target = esper.component_for_entity(pool.spec.target, Unit).id
        if pool.groups and pool.order:
            from sim.rules.allocation import current_group
            alive = {m.id: m.alive for m in self.scene.living(look.pool_target)}
            alive.update({mid: False for mid in self.scene.units[look.pool_target].models if mid not in alive})
            key = current_group(pool.order, alive, pool.groups, pool.precision)
            members = next((g.members for g in pool.groups if g.key == key), ())
            look.current_group = set(members)
        look.highlighted |= set(pool.attackers)

    def observers(self) -> list[str]:
        if self.drag is not None:
            return [self.drag["grab"]]
        if self.selected_model and self.selected_model in self.scene.models and \
                self.scene.models[self.selected_model].alive:
            return [self.selected_model]
        return []

    def draw(self, surface: pygame.Surface | None = None) -> pygame.Surface:
        surf = surface if surface is not None else self.surface
        cam = self.camera
        surf.blit(self.layer.get(surf.get_size(), cam), (0, 0))
        look = self.look()
        surf.set_clip(cam.viewport)
        draw_units(surf, cam, self.scene, look, self.colours, self.hulls)
        if look.drag_origin:
            overlays.draw_move_rings(surf, cam, self.scene, look)
        if self.show_los:
            obs = self.observers()
            if obs:
                lines = self.los.compute(self.scene, obs, look.ghosts)
                overlays.draw_los(surf, cam, self.scene, lines)
                if self.drag is None:
                    overlays.draw_cover_marks(surf, cam, self.scene, self._cover(obs[0]))
        surf.set_clip(None)
        self.manager.draw_ui(surf)
        tip = self._tip_lines(look)
        if tip:
            overlays.draw_tip(surf, self.mouse, tip)
        if self.show_help:
            overlays.draw_help(surf)
        return surf

    def _cover(self, observer: str) -> set:
        key = (self.scene.version, observer)
        if getattr(self, "_cover_key", None) == key:
            return self._cover_set
        out = set()
        b = self.battle
        b._enter()
        m = self.scene.models[observer]
        ranged = [w for w in W.weapons_of(m.ent) if not w.is_melee]
        if ranged:
            for uid, uv in self.scene.units.items():
                if uv.owner != m.owner and not uv.destroyed:
                    if b.visibility.benefit_of_cover(observer, uv.ent, ranged[0], "normal"):
                        out.add(uid)
        self._cover_key, self._cover_set = key, out
        return out

    def _tip_lines(self, look: Look) -> list[str]:
        if not self.camera.viewport.collidepoint(self.mouse) or self.drag is not None or self.show_help:
            return []
        if self.hover_unit and self.hover_unit in look.targets:
            r = look.targets[self.hover_unit]
            return [f"{self.hover_unit}: " + ("legal target - click to target it" if r is None else r)]
        if self.hover_model and self.hover_model in self.scene.models:
            m = self.scene.models[self.hover_model]
            s = f"{m.name} ({m.id})  W {m.remaining}/{m.W}"
            if m.character:
                s += "  CHARACTER"
            return [s]
        return []


def concerned_models(battle, event: dict) -> set[str]:
    """The model ids an event names, directly or through its units."""
    out: set[str] = set()
    units = battle.units
    models = battle.models

    def walk(v):
        if isinstance(v, str):
            if v in models:
                out.add(v)
            elif v in units:
                battle._enter()
                for m in esper.component_for_entity(units[v], Unit).models:
                    out.add(esper.component_for_entity(m, ModelId).id)
        elif isinstance(v, dict):
            for k, x in v.items():
                if k != "type":
                    walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(event)
    return out


def run_sandbox(scenario_path, seed: int | None = None) -> int:
    """Open the sandbox window on a scenario. Returns a process exit status."""
    from sim.scenario.errors import ScenarioError
    headless = os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen")
    if not headless and os.name != "nt" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print(f"sim: no display available; run it without a window: sim play --headless {scenario_path}")
        return 2
    try:
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode((1440, 900), pygame.RESIZABLE)
    except pygame.error:
        print(f"sim: no display available; run it without a window: sim play --headless {scenario_path}")
        return 2
    try:
        sb = Sandbox(scenario_path, screen, seed=seed)
    except ScenarioError as e:
        pygame.quit()
        print(f"sim: {e}")
        return 2
    pygame.display.set_caption(f"sim - {sb.spec.name}")
    clock = pygame.time.Clock()
    running = True
    while running:
        dt = clock.tick(60) / 1000.0
        for e in pygame.event.get():
            if e.type == pygame.QUIT:
                running = False
                continue
            if e.type == pygame.VIDEORESIZE:
                sb.surface = pygame.display.get_surface()
            sb.handle(e)
        sb.update(dt)
        sb.draw(pygame.display.get_surface())
        pygame.display.flip()
    sb.battle.close()
    pygame.quit()
    return 0
