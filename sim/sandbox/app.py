"""The battle sandbox: a window on the table, panels around it, input turned into commands
and decisions. ``Sandbox`` is testable without a window (give it a Surface and post events);
``run_sandbox`` opens a real one.

The sandbox never writes the world: every change goes through ``Battle.submit`` (commands),
``Battle.answer`` (decisions) and ``Battle.tick`` (letting the systems run)."""

from __future__ import annotations

import html
import os
import sys
import time
from pathlib import Path

import esper
import pygame
from pygame_gui.elements import UILabel

from sim.battle import Battle
from sim.names import in_words, model_of_unit
from sim.components import Activation, Stage, Unit
from sim.rules.attack import AttackKind
from sim.replay.log import Recorder
from sim.replay.report import MODELS_AWAY, describe
from sim.sandbox import bar_pages, dice_tray, fonts, markers, overlays, panels, style, tracker
from sim.sandbox.actions import ActionsMixin, concerned_models  # noqa: F401 (re-exported)
from sim.sandbox.battle_flow import BattleFlowMixin
from sim.sandbox.catalogue_browser import CatalogueMixin
from sim.sandbox.ui_manager import UIManager
from sim.sandbox.computer import DEFAULT_SPEED, ComputerDialogMixin, ComputerMixin, draw_trail, slide
from sim.sandbox.confirm import ConfirmMixin
from sim.sandbox.decision_panel import auto_answer, hovered_marks
from sim.sandbox.deploy_flow import DeployMixin, roll_off_line
from sim.sandbox.import_dialog import ImportMixin
from sim.sandbox.input import InputMixin
from sim.sandbox.replay_view import ReplayMixin, build_replay_footer, build_replay_panel
from sim.sandbox.setup_mode import SetupMixin, SetupState, build_setup_panel
from sim.sandbox.sight import SightMask
from sim.sandbox.camera import Camera
from sim.sandbox.draw_table import Look, TableLayer, UnitHulls, draw_units
from sim.sandbox.calculator_panel import CalculatorPanel
from sim.sandbox.charge_odds import ChargeOdds, tip as charge_tip
from sim.sandbox.labels import TableLabels, hovered_boxes, near_model_boxes, terrain_tip
from sim.sandbox.log_list import LogList
from sim.sandbox.screen_layout import MIN_WINDOW, arrange, at_least_min
from sim.sandbox.odds_panel import OddsView
from sim.sandbox.orders import FightOrder, ShootOrder, order_refusal
from sim.sandbox.scene import Scene
from sim.sandbox.undo import UndoMixin
from sim.sandbox.tools import ToolsMixin
from sim.sandbox.widgets import SCROLL_BAR_W, Bar, Flow, wrap_line
from sim.scenario.load import load_scenario
from sim.world import queries as W

__all__ = ["Sandbox", "run_sandbox", "concerned_models"]

THEME = Path(__file__).resolve().parents[2] / "assets" / "theme.json"
FADE = 0.9  # seconds for a destroyed model to fade out
LOG_ITEMS = 4000  # log lines kept in the (scrolling) list widget: in practice the whole log


class Sandbox(InputMixin, ActionsMixin, SetupMixin, ReplayMixin, BattleFlowMixin, UndoMixin, ConfirmMixin,
              ToolsMixin, ImportMixin, CatalogueMixin, DeployMixin, ComputerMixin, ComputerDialogMixin):
    # sizes at UI scale 1 (multiplied by self.scale)
    STATUS_H = 30

    RIGHT_W = 400
    BOTTOM_H = 196
    FOOTER_H = 44  # (until the footer's buttons are measured)
    CARD_SHARE = 0.42  # of the window's height, for the unit card

    def __init__(self, scenario_path, surface: pygame.Surface | None = None, size=(1440, 900),
                 seed: int | None = None, save_dir: str | Path = "sandbox-saves", ai: dict | None = None,
                 ai_speed: float = DEFAULT_SPEED, ask_ai: bool = False):
        """``ai``: {side: player kind} the computer plays (sim.sandbox.computer; none: hot-seat),
        ``ai_speed`` its commands a second (0: paused); ``ask_ai``: open the dialog that asks who
        the computer plays (a battle with a mission)."""
        if not pygame.get_init():
            pygame.init()
        self.surface = surface if surface is not None else pygame.Surface(size)
        self.size = at_least_min(self.surface.get_size())   # (screen_layout.MIN_WINDOW)
        if isinstance(scenario_path, (str, os.PathLike)):
            self.scenario_path = str(scenario_path)
            self.spec = load_scenario(scenario_path)
        else:  # an already loaded ScenarioSpec (benchmarks, generated tables)
            self.spec = scenario_path
            self.scenario_path = self.spec.path or "generated.toml"
        self.save_dir = Path(save_dir)
        self.origin = (self.spec, self.scenario_path)  # the table as opened
        self.edited = False  # the table was changed in set-up mode (saved with a replay)
        # interaction state (the sandbox's own, never the battle's)
        self.selected_unit: str | None = None
        self.selected_model: str | None = None
        self.hover_unit: str | None = None
        self.hover_model: str | None = None
        self.speed = 3
        self._acc = 0.0
        self.move_mode = "normal"
        self.show_los = False
        self.show_help = False
        self.mode = "battle"  # battle | setup | replay
        self.setup = SetupState()
        self.replay_view = None  # a ReplayView while watching a replay
        self.mouse = (0, 0)
        self.panning = None
        self.clock = 0.0
        self.actions: dict = {}
        self.names: dict = {}
        self.battle = None
        self._confirm = None  # (dialog, callback): asking before losing work (confirm.py)
        self._stash = None  # the battle set aside while a replay is watched (replay_view.py)
        self.zones = markers.ZoneLayer()
        self.table_labels = TableLabels()  # every name on the table, placed clear of the rest
        self.calculator = CalculatorPanel()  # two units' odds, no table needed (calculator_panel.py)
        self.charge_odds = ChargeOdds()  # a charge's chance before it is declared (charge_odds.py)
        self.odds = OddsView()  # the declared order's odds (odds_panel.py)
        self.init_computer(ai, ai_speed)  # the computer playing a side (computer.py)
        self.start_battle(self.spec, seed)  # also: order, drag, press, resolving, ... (per battle)
        self.status = f"{self.spec.name} - click a unit to select it (F1 for help)"
        self.camera = Camera(self.spec.board, pygame.Rect(0, 0, *self.size))
        self.ai_dialog_open = bool(ask_ai and self.mission and self.battle.turn_state.round == 0)
        if self.ai_dialog_open:
            self.status = "who plays each army? Choose, then Play (Enter)"
        self._new_manager()
        self._build()

    def start_battle(self, spec, seed: int | None = None, scenario_path: str | None = None) -> None:
        """A fresh Battle from ``spec`` (the sandbox never edits a running battle's world: a
        changed table or a replay position is a new battle)."""
        if self.battle is not None and self.battle is not self.stashed_battle():
            self.battle.close()
            self.battle = None
        self.spec = spec
        if scenario_path is not None:
            self.scenario_path = scenario_path
        battle = Battle(spec, seed=seed)
        self.adopt_battle(battle, Recorder(battle, self.scenario_path))
        self.unsaved = False
        self.saved_commands = 0  # (the commands in the last saved replay: confirm.py counts those after)

    def stashed_battle(self):
        return None if self._stash is None else self._stash["battle"]

    def adopt_battle(self, battle, recorder) -> None:
        """Make ``battle`` (with its log so far) the one the sandbox shows and drives: a fresh
        one, one simulated again (undo), or the one set aside while a replay was watched."""
        if self.battle is not None and self.battle is not battle and self.battle is not self.stashed_battle():
            self.battle.close()
        self.battle = battle
        self.spec = battle.scenario
        self.recorder = recorder
        self.saved_upto = len(self.recorder.lines)
        self.scene = Scene(self.battle)
        self.colours = [tuple(a.colour) for a in self.spec.armies]
        self.layer = TableLayer(self.spec.board, self.spec.terrain)
        self.hulls = UnitHulls()
        self.los = overlays.LosCache(self.battle)
        self.sight = SightMask(self.battle)
        self._draw_rest = None  # (the last frame's draw without the overlays' progressive work: draw)
        self.dead_at: dict[str, float] = {m.id: -1e9 for m in self.scene.models.values() if not m.alive}
        self._seen_events = 0
        self._log_items: list[tuple[str, str]] = []
        self._log_shown = -1
        self._log_wrap = None  # (the log's rows are this battle's: rebuilt, not kept from the last one)
        self._pending_key = None
        self._busy_seen = False
        self.resolving = False
        self.auto = False
        self.order = None
        self.drag = self.press = None
        self.placement = None  # a charge, pile-in or consolidation being placed (tools)
        self.decision_state = {}
        self.decision_error = None
        if getattr(self, "selected_unit", None) not in self.scene.units:
            self.selected_unit = self.selected_model = None
        self.highlighted = set()
        self.init_battle_flow()
        self.init_deploy_flow()
        self.label_rects = {}
        self.dirty = {"card", "orders", "log", "dice", "action", "tracker"}
        rects = getattr(self, "rects", None)
        if rects is not None and bool(rects["tracker"].h) != (battle.turn_state is not None):
            self._build()  # (the tracker strip comes or goes)

    # ======================================================================= layout
    # Sizes at UI scale 1 (a 1440x900 window); _rects multiplies them by self.scale, which
    # follows the window (style.ui_scale). The left column holds the status line, the phase
    # tracker strip, the table, the action bar (as many rows as its buttons need) and the log
    # beside the dice tray; the right column the unit card, the orders panel and its footer
    # (as many rows as its buttons need).
    def _rects(self):
        w, h = self.size
        s = self.scale
        rw = min(round(self.RIGHT_W * s), max(round(260 * s), w // 3))
        bh = min(round(self.BOTTOM_H * s), max(round(120 * s), h // 4))
        lw = w - rw
        sh = round(self.STATUS_H * s)
        # (the phase tracker's strip: only in a battle with a mission)
        mission = self.battle is not None and self.battle.turn_state is not None
        th = round(tracker.TRACKER_H * s) if mission else 0
        ah = self._bar_height(lw)
        table = pygame.Rect(0, sh + th, lw, max(40, h - sh - th - bh - ah))
        fh = getattr(self, "_footer_h", None) or round(self.FOOTER_H * s)
        card_h = int(h * self.CARD_SHARE)
        log_w = int(lw * 0.58)
        bw = min(round(tracker.BUTTONS_W * s), lw)
        return arrange({  # (the window's shape: screen_layout.py)
            "status": pygame.Rect(0, 0, lw, sh),
            "tracker": pygame.Rect(0, sh, lw, th),
            "tracker_text": pygame.Rect(0, sh, lw - bw, th),
            "tracker_buttons": pygame.Rect(lw - bw, sh, bw, th),
            "table": table,
            "action": pygame.Rect(0, table.bottom, lw, ah),
            "log": pygame.Rect(0, table.bottom + ah, log_w, h - table.bottom - ah),
            "dice": pygame.Rect(log_w, table.bottom + ah, lw - log_w, h - table.bottom - ah),
            "card": pygame.Rect(lw, 0, rw, card_h),
            "orders": pygame.Rect(lw, card_h, rw, h - card_h - fh),
            "footer": pygame.Rect(lw, h - fh, rw, fh),
        }, self.size, s, self.spec.board)

    def _bar_height(self, width: int) -> int:
        """The action bar's height for the buttons it has now (they wrap onto more rows rather
        than hide behind a scroll bar)."""
        probe = Bar(None, {}, {}, self.scale)
        self._bar_buttons(probe)
        return probe.height_for(width)

    def _build(self) -> None:
        self.manager.clear_and_reset()
        self.actions.clear()
        self.names.clear()
        self.rects = r = self._rects()
        self.camera.set_viewport(r["table"])
        self.status_label = UILabel(r["status"], "", self.manager, object_id="#status")
        self._show_status()
        self.log_list = LogList(r["log"], [], self.manager)
        self._log_shown = -1
        self._log_wrap = None
        self.tray = dice_tray.TrayView(self.manager, r["dice"], self.scale)
        self.card_flow = None
        self.orders_flow = None
        self.footer_flow = None
        self.action_flow = None
        self.tracker_flow = None
        self.ai_dialog_flow = None
        self.dirty = {"card", "orders", "log", "dice", "action", "tracker"}
        self._refresh_panels(force_log=True)

    def _new_manager(self) -> None:
        """A UI manager whose theme is scaled to the window (fonts, list rows, tooltips)."""
        self.scale = style.ui_scale(self.size)
        theme = style.scaled_theme(THEME, self.scale)
        self.manager = UIManager(self.size, theme)  # (its theme ids kept by a cheap key: ui_manager.py)
        self._footer_h = None

    def resize(self, size) -> None:
        self.size = at_least_min(size)   # (a smaller window shows part of it: screen_layout.MIN_WINDOW)
        if self.surface.get_size() != self.size:
            self.surface = pygame.Surface(self.size) if pygame.display.get_surface() is None \
                else pygame.display.get_surface()
        if style.ui_scale(self.size) != self.scale:
            self._new_manager()
        else:
            self.manager.set_window_resolution(self.size)
        self._build()

    def _action_bar(self) -> bool:
        f = Bar(self.manager, self.actions, self.names, self.scale)
        self._bar_buttons(f)
        rect = self.rects["action"]
        if f.height_for(rect.w) != rect.h:  # more or fewer rows: lay the window out again
            self.action_flow = None
            self._build()
            return True
        f.place(rect, reuse=self.action_flow)  # (its buttons made again kept: widgets.Bar)
        self._forget_dead()
        self.action_flow = f
        return False

    def _bar_buttons(self, f) -> None:
        """The action bar's buttons, most used first (a narrow window wraps the rest onto a
        second row)."""
        sight = dict(name="bar:los", height=28, object_id="#toggle_on" if self.show_los else None,
                     tip="what the selected model can see: shading and lines of sight (V)", short="Sight")
        if self.mode == "battle" and bar_pages.more_page(self, f):  # (a narrow window's spare buttons)
            return
        if self.mode == "setup":
            f.button("Done (F2)", self.toggle_setup, name="bar:setup", object_id="#toggle_on", height=28,
                     tip="leave set-up: the battle starts from this table", short="Done")
            f.button("Duplicate (D)", self.duplicate_selected, name="bar:duplicate", height=28, short="Duplicate")
            f.button("Remove (Del)", self.remove_selected, name="bar:remove", height=28, short="Remove")
            f.button("Rotate (R)", lambda: self.rotate_placing(1), name="bar:rotate", height=28, short="Rotate")
            f.button("Sight (V)", self.toggle_los, **sight)
            f.button("Save table", self.save_table, name="bar:table", height=28, tip="Ctrl+T")
        elif self.mode == "replay":  # (stepping and playing: the footer under the replay panel)
            f.button("Leave replay (Esc)", self.leave_replay, name="bar:leave", height=28)
            f.button("Sight (V)", self.toggle_los, **sight)
            f.button("Open replay", self.open_replay_dialog, name="bar:open", height=28, tip="Ctrl+O")
        else:
            idle = not (self.battle.busy or self.resolving)
            for label, fn, name, cls in (("Shoot (S)", self.begin_shoot, "bar:shoot", ShootOrder),
                                         ("Fight (F)", self.begin_fight, "bar:fight", FightOrder)):
                why = order_refusal(self, cls.record)  # (greyed with the reason: orders.py)
                f.button(label, fn, name=name, height=28, tip=f"Not now: {why}" if why else None,
                         object_id="#toggle_on" if isinstance(self.order, cls) else "#unavailable" if why else None,
                         short=label.split(" (")[0])
            if self.staged is not None:  # (a unit's move placed model by model, in the Move button's place)
                f.button("Confirm move (Enter)", self.confirm_staged, name="bar:confirm_move", height=28,
                         tip="make the placed models' move; Esc drops it", short="Confirm move")
            else:
                f.button(f"Move: {self.move_choice()} (M)", self.cycle_move_mode, name="bar:move", height=28,
                         short=f"Move: {self.move_choice()}")
            f.button("Step (Space)", self.step, name="bar:step", height=28, short="Step",
                     object_id=None if not idle else "#unavailable", tip="Auto-play: P" if not idle else "nothing to resolve")
            if not self.mission:  # (a battle with a mission ends phases: the tracker's End phase)
                f.button("End turn (E)", self.end_turn, name="bar:end", height=28, short="End turn")
            f.button("Sight (V)", self.toggle_los, **sight)
            f.button("Odds calculator", lambda: self.calculator.toggle(self), name="bar:calculator", height=28,
                     tip="two units' odds: pick them, toggle range, cover and the conditions", short="Odds")
            bar_pages.spare_buttons(self, f)  # (Set up, Open replay, Save replay: behind "More" when narrow)
        f.button("?", self.toggle_help, name="bar:help", height=28, width=30, tip="keys (F1)")

    def _rebuild_flow(self, attr: str, rect_name: str, builder) -> None:
        """Build a panel again: its last build's widgets that are made again are kept
        (sim.sandbox.widgets.Flow), the rest removed with their callbacks and names."""
        old = getattr(self, attr)
        f = Flow(self.manager, self.rects[rect_name], self.actions, self.names, scale=self.scale, reuse=old)
        builder(f, self)
        f.settle()
        if old is not None and not f.kept_panel:
            old.kill()
        self._forget_dead()
        setattr(self, attr, f)

    def _forget_dead(self) -> None:
        """The callbacks and names of buttons no longer on screen."""
        for b in [b for b in self.actions if not b.alive()]:
            self.actions.pop(b, None)
        for k in [k for k, b in self.names.items() if not b.alive()]:
            self.names.pop(k, None)

    def _rebuild_footer(self, builder) -> None:
        """The footer under the orders panel: as many rows as its buttons need, the orders
        panel taking the rest of the column."""
        old = self.footer_flow
        f = Bar(self.manager, self.actions, self.names, self.scale)
        builder(f, self)
        r = self.rects
        col = r["card"].union(r["orders"]).union(r["footer"])
        fh = f.height_for(col.w)
        self._footer_h = fh
        r["footer"] = pygame.Rect(col.x, col.bottom - fh, col.w, fh)
        r["orders"] = pygame.Rect(col.x, r["card"].bottom, col.w, col.bottom - fh - r["card"].bottom)
        f.place(r["footer"], reuse=old)
        self._forget_dead()
        self.footer_flow = f

    def _refresh_panels(self, force_log: bool = False) -> None:
        if "action" in self.dirty and self._action_bar():
            return  # (the window was laid out again, every panel with it)
        if "card" in self.dirty:
            self._rebuild_flow("card_flow", "card", panels.build_unit_card)
        if "orders" in self.dirty:
            if self.mode == "setup":
                body, foot = build_setup_panel, panels.build_setup_footer
            elif self.mode == "replay":
                body, foot = build_replay_panel, build_replay_footer
            else:
                body, foot = panels.build_orders, panels.build_footer
            self._rebuild_footer(foot)
            self._rebuild_flow("orders_flow", "orders", body)
            self.refresh_ai_dialog()  # (over the table while it asks who the computer plays)
        if "tracker" in self.dirty or "action" in self.dirty:
            if self.rects["tracker"].h:
                self._rebuild_flow("tracker_flow", "tracker_buttons", tracker.build_tracker_buttons)
            elif self.tracker_flow is not None:
                self.tracker_flow.kill()
                self._forget_dead()
                self.tracker_flow = None
        if "log" in self.dirty or force_log:
            self._update_log()
        if "dice" in self.dirty:
            self.tray.show(dice_tray.tray_info(self), self)  # (a Command Re-roll's dice: clickable)
        self.dirty.clear()
        if self.status != self._status_shown:
            self._show_status()

    def _show_status(self) -> None:
        """The status line fitted to its width; when it is cut, its tooltip holds it whole."""
        full = self.said(self.status)
        shown = self._fit_status(full)
        self.status_label.set_text(shown)
        if self.status_label.tool_tip is not None:  # (the old line's tip, shown while hovered: gone with it)
            self.status_label.tool_tip.kill()
            self.status_label.tool_tip = None
        self.status_label.set_tooltip(None if shown == full else html.escape(full, quote=False),
                                      wrap_width=max(200, self.rects["status"].w - 40))
        self._status_shown = self.status

    def said(self, text: str) -> str:
        """Engine text (a refusal, a reason, an event's line, a prompt) in people's words: the
        players by their armies' names, units and models by theirs (sim.names.in_words, the one
        home). Every such text reaches a person through here: the status line, the decision
        panel, the notes on the table, the greyed buttons' reasons."""
        return in_words(text, self.scene.words, self.scene.model_units)

    def _fit_status(self, text: str) -> str:
        """The status line cut with an ellipsis to the width it has (one line, never clipped).
        What follows its last " - " (the instruction after a refusal: "Enter makes the move")
        is kept whole where it fits: the cut falls in the middle."""
        f = fonts.font(style.font_px(14, self.scale))
        room = self.rects["status"].w - round(24 * self.scale)
        if f.size(text)[0] <= room:
            return text
        cut = text.rfind(" - ")
        for at, join in ((cut, "..."), (text.rfind(": "), "... ")):  # (the tail, or its last clause)
            if at <= 0 or at < cut:
                continue
            tail = text[at:] if join == "..." else text[at + 2:]
            keep = room - f.size(join + tail)[0]
            if keep >= f.size(text[:min(at, 16)])[0]:
                head = text[:min(at, cut) if cut > 0 else at]
                while head and f.size(head + join)[0] > keep:
                    head = head[:-1]
                return head + join + tail
        while text and f.size(text + "...")[0] > room:
            text = text[:-1]
        return text + "..."

    def _update_log(self) -> None:
        """New events as log lines, wrapped to the log's width (a long line goes on, indented,
        on the next rows; every row of an event highlights its models when clicked)."""
        ev = self.battle.events
        new = []
        notes = self.ai_notes  # (the computer's commands in words, before their events: computer.py)
        for i in range(self._seen_events, len(ev)):
            for note in notes.get(i, ()):
                new.append((note, f"#ev{i}"))
            line = describe(ev[i]) or roll_off_line(ev[i], [a.name for a in self.spec.armies])
            line = in_words(line, self.scene.words_away if ev[i]["type"] in MODELS_AWAY
                            else self.scene.words, self.scene.model_units)  # (names, not ids: sim.names)
            if line:
                for sub in line.split("\n"):
                    new.append((sub.rstrip() or " ", f"#ev{i}"))
        self._seen_events = len(ev)
        self._log_items += new
        width = self.log_list.rect.w - 2 - SCROLL_BAR_W - round(12 * self.scale)
        if self._log_wrap is None or self._log_wrap[0] != width:
            self._log_wrap = (width, [])
            new = self._log_items
            self._log_shown = -1  # (every row laid out again: the list made again)
        rows = self._log_wrap[1]
        f = fonts.font(style.font_px(12, self.scale))
        for text, oid in new:
            for row in wrap_line(text, f, width):
                rows.append((row, oid))
        if self._log_shown < 0:
            self.log_list.set_item_list(rows[-LOG_ITEMS:])
            bar = getattr(self.log_list, "scroll_bar", None)
            if bar is not None:
                bar.set_scroll_from_start_percentage(1.0)
        elif self._log_shown != len(rows):  # (rows added at the end: only theirs made, log_list.py)
            self.log_list.add_rows(rows[self._log_shown:], LOG_ITEMS)
        self._log_shown = len(rows)

    def _save_preview(self) -> dict | None:
        """What the save dice rolled for the current pool will do before its damage step
        resolves them (read from the world; the damage event stays the authority)."""
        b = self.battle
        if b.activation_unit is None:
            return None
        b._enter()
        act = esper.try_component(b.activation_unit, Activation)
        if act is None or act.stage != Stage.ATTACKS or act.pool_index >= len(act.pools):
            return None
        return dice_tray.save_preview(act.pools[act.pool_index], b.activation_unit, act.kind is AttackKind.FIGHTING)

    # ======================================================================= frame
    def update(self, dt: float) -> None:
        self.clock += dt
        self.confirm_update()
        self.replay_update(dt)
        self.computer_update(dt)  # the computer's side: a command per tick of its pacing (computer.py)
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
            self.dirty |= {"orders", "dice"}
            auto_answer(self)  # (a Command Re-roll the person's setting does not ask about: decision_panel.py)
        if self.battle.busy != self._busy_seen:
            self._busy_seen = self.battle.busy
            self.dirty |= {"orders", "action"}
        if self.resolving and "log" in self.dirty:
            self.dirty.add("orders")  # the stage text
        tk = (tracker.tracker_info(self.battle), self.battle.busy or self.resolving, self.recorder.n, self.mode,
              self.undo_refusal())  # (Undo greyed while the computer has the choice: undo.py)
        if tk != getattr(self, "_tracker_key", None):
            self._tracker_key = tk
            self.dirty |= {"tracker", "orders", "action"}  # (the bar's orders greyed by phase)
        self.resolving_status()
        self.tools_update()  # move preview, placements (sim.sandbox.tools)
        self.odds.update(self)  # the order's odds: worked out off the frame path (odds_panel.py)
        self.calculator.update(self)
        self._refresh_panels()
        self.manager.update(dt)

    def look(self) -> Look:
        look = Look(self.selected_unit, self.selected_model, self.hover_unit,
                    set(self.highlighted) | hovered_marks(self))  # (an option or log line hovered)
        look.ui = self.scale
        if self.mode == "setup":
            look.ghosts = self.setup_ghosts()
        if self.drag is not None:
            look.ghosts = self.drag["ghosts"]
            look.ghost_faces = self.ghost_faces(self.drag)
            look.drag_origin = self.drag["origin"]
            look.grab = self.drag["grab"]
        if self.order is not None and (not isinstance(self.order, ShootOrder) or self.order.type):
            look.targets = self.order.targets()
        req = self.battle.pending
        if req is not None and req.kind == "precision":
            look.pickable = {o for o in req.options if o in self.scene.models}
        elif req is not None and req.kind == "coherency_removal":  # (the models chosen to go)
            look.pickable = set(self.decision_state.get("removal", req.default))
        look.fading = {m: 1 - (self.clock - t) / FADE for m, t in self.dead_at.items()
                       if 0 <= self.clock - t < FADE}
        self._pool_marks(look)
        look.notes = {u: f"charge {100 * p:.0f}%" for u, (_gap, p) in self.charge_odds.of(self).items()}
        self.tools_look(look)
        slide(self, look)  # (the computer's moved models slide into place: computer.py)
        return look

    def _pool_marks(self, look: Look) -> None:
        b = self.battle
        if b.activation_unit is None:
            return
        b._enter()
        act = esper.try_component(b.activation_unit, Activation)
        if act is None or act.stage != Stage.ATTACKS or act.pool_index >= len(act.pools):
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
        t_draw = time.perf_counter()
        surf = surface if surface is not None else self.surface
        cam = self.camera
        surf.blit(self.layer.get(surf.get_size(), cam, self.scale), (0, 0))
        look = self.look()
        surf.set_clip(cam.viewport)
        obs = self.observers() if self.show_los else []
        # (the overlays' progressive sight work: what the rest of the last frame's draw left of
        # overlays.DRAW_AIM; the sight mask up to half of it, the lines of sight the rest)
        budget = overlays.progressive_budget(self._draw_rest)
        spent = 0.0
        if obs:
            o = self.scene.models[obs[0]]
            g = look.ghosts.get(o.id)
            t0 = time.perf_counter()
            self.sight.draw(surf, cam, o.fp if g is None else o.fp.moved(*g), budget / 2)
            spent = time.perf_counter() - t0
        ts = self.battle.turn_state
        if ts is not None:
            names = [a.name for a in self.spec.armies]
            if ts.zones():
                surf.blit(self.zones.get(surf.get_size(), cam, ts.zones(), self.colours, names, self.scale), (0, 0))
            hover = self._hover_objective()
            markers.draw_objectives(surf, cam, ts, self.colours, names, None if hover is None else hover.name,
                                   ui=self.scale)
        placing = self.ingress_unit is not None and self.mode == "battle"
        if placing:  # (20.04 the band within 6" of the edges, under the units)
            markers.draw_edge_band(surf, cam, self.spec.board)
        drawn = draw_units(surf, cam, self.scene, look, self.colours, self.hulls)
        self.label_rects = self.table_labels.draw(surf, cam, self.scene, look, self.hulls, drawn, self.spec.terrain,
                                                  ts, self.colours, [a.name for a in self.spec.armies])
        if placing and self.ingress_ghost is not None:  # (where the click would set it up)
            owner = self.scene.units[self.ingress_unit].owner
            markers.draw_ghosts(surf, cam, self.scene, self.ingress_ghost[1].to, self.colours[owner],
                                self.ingress_ghost[2] is None, self.ingress_ghost[1].face)
        if self.mode == "setup":
            self.draw_setup(surf, look)
        if look.drag_origin:
            overlays.draw_move_rings(surf, cam, self.scene, look)
        if obs:
            self.los.budget = budget - spent
            t0 = time.perf_counter()
            lines = self.los.compute(self.scene, obs, look.ghosts)
            spent += time.perf_counter() - t0
            overlays.draw_los(surf, cam, self.scene, lines)
            if self.drag is None and self.mode != "setup":
                overlays.draw_cover_marks(surf, cam, self.scene, self._cover(obs[0]))
        if self.show_los:
            overlays.draw_hidden_marks(surf, cam, self.scene, self.battle.visibility.hidden_models())
        self.draw_tools(surf, look)  # links, move verdict, placements, range rings, tape
        self.draw_deploy(surf)  # a unit being set up before the battle (deploy_flow.py)
        draw_trail(surf, self)  # the computer's last command, fading (computer.py)
        surf.set_clip(None)
        if self.rects["tracker"].h:
            tracker.draw_strip(surf, self.rects["tracker"])
            self.tracker_shown = tracker.draw_tracker(surf, self.rects["tracker_text"],
                                                      tracker.tracker_info(self.battle), self.colours,
                                                      ui=self.scale)
        if self.ai_dialog_open:  # (the table dimmed under the dialog asking who the computer plays)
            veil = pygame.Surface(cam.viewport.size, pygame.SRCALPHA)
            veil.fill((10, 12, 10, 150))
            surf.blit(veil, cam.viewport.topleft)
        self.manager.draw_ui(surf)
        tip = self._tip_lines(look)
        self.tip_box = None  # (where the hover tip was drawn: tests read it)
        if tip:
            self.tip_box = overlays.draw_tip(surf, self.mouse, tip, ui=self.scale, avoid=hovered_boxes(self),
                              others=near_model_boxes(self))
        if self.show_help:
            overlays.draw_help(surf, ui=self.scale)
        self._draw_rest = time.perf_counter() - t_draw - spent
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
        """The tip beside the pointer, in people's words (a target's refusal, a set-up's reason:
        engine text through said; "r-squad2: legal target" was shown with the id)."""
        return [self.said(s) for s in self._tip_words(look)]

    def _tip_words(self, look: Look) -> list[str]:
        if not self.camera.viewport.collidepoint(self.mouse) or self.drag is not None or self.show_help \
                or self.tape.a is not None:  # (a tape's readout is enough)
            return []
        if self.mode == "setup" and (self.setup.placing is not None or self.setup.drag is not None):
            return []
        req = self.battle.pending
        if req is not None and req.kind == "precision":
            return []  # (the decision asks for a click on a CHARACTER: nothing may cover it)
        if self.hover_unit and self.hover_unit in look.targets:
            r = look.targets[self.hover_unit]
            return [f"{self.hover_unit}: " + ("legal target - click to target it" if r is None else r)]
        out = []
        if self.carry is not None and self.carry["ghost"] is not None and self.carry["ghost"][2] is None:
            out.append(f"set up {self.unit_label(self.carry['unit'])} here: legal - release or click")
        elif self.carry is not None:  # (a refused set-up: its note says why, nothing may cover it)
            return []
        if self.ingress_unit is not None and self.ingress_ghost is not None:
            why = self.ingress_ghost[2]
            out.append(f"set up {self.ingress_unit} here: " + ("legal - click" if why is None else why))
        if self.hover_unit:
            out += charge_tip(self, self.hover_unit)
        if self.hover_model and self.hover_model in self.scene.models:
            m = self.scene.models[self.hover_model]
            s = (model_of_unit(m.name, self.scene.units[m.unit].name) if m.unit in self.scene.units
                 else m.name) + f"  W {m.remaining}/{m.W}"
            if m.character:
                s += "  CHARACTER"
            out.append(s)
        if not out and not look.ghosts:  # (a terrain area whose name the table could not write in
            out += terrain_tip(self)  # full; not over a move waiting for Enter: it covered its unit's name)
        o = self._hover_objective()
        if o is not None:
            out += markers.objective_tip(self.battle, o, [a.name for a in self.spec.armies], self._oc_models())
        return out

    def _hover_objective(self):
        ts = self.battle.turn_state
        if ts is None or not ts.objectives or not self.camera.viewport.collidepoint(self.mouse) or self.drag:
            return None
        return markers.objective_at(ts, *self.camera.to_table(*self.mouse))

    def _oc_models(self) -> list:
        """(player, OC or None, footprint) of every model on the battlefield, as scoring reads
        them (sim.phases.scoring), per scene version."""
        key = (id(self.scene), self.scene.version)
        if getattr(self, "_oc_key", None) != key:
            from sim.phases.scoring import oc_models
            self.battle._enter()
            self._oc_key, self._oc_cache = key, oc_models()
        return self._oc_cache


def _keep_at_least(size) -> None:
    """The window manager keeps the window at least ``size`` (pygame-ce's Window of the display
    module; its reader is deprecated, and where it is gone the layout's own least stands:
    Sandbox.resize)."""
    import warnings
    get = getattr(getattr(pygame, "Window", None), "from_display_module", None)
    if get is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        get().minimum_size = size


def run_sandbox(scenario_path, seed: int | None = None, replay: str | None = None,
                replay_scenario: str | None = None, ai: dict | None = None, ai_speed: float = DEFAULT_SPEED) -> int:
    """Open the sandbox window on a scenario (or, with ``replay``, watching that replay log).
    ``ai``: {side: player kind} the computer plays (None: ask in a dialog when the scenario has
    a mission; {}: hot-seat). Returns a process exit status."""
    from sim.errors import ScenarioError
    headless = os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen")
    if not headless and os.name != "nt" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print(f"sim: no display available; run it without a window: sim play --headless {scenario_path}",
              file=sys.stderr)
        return 2
    try:
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode((1440, 900), pygame.RESIZABLE)
        _keep_at_least(MIN_WINDOW)
    except pygame.error:
        print(f"sim: no display available; run it without a window: sim play --headless {scenario_path}",
              file=sys.stderr)
        return 2
    try:
        sb = Sandbox(scenario_path, screen, seed=seed, ai=ai, ai_speed=ai_speed,
                     ask_ai=ai is None and replay is None)
    except ScenarioError as e:
        pygame.quit()
        print(f"sim: {e}", file=sys.stderr)
        return 2
    if ai and not sb.mission:
        pygame.quit()
        print(f"sim: --ai: {scenario_path} has no [mission]: the computer plays a side of a battle with a "
              f"mission (this scenario is free play)", file=sys.stderr)
        return 2
    if replay is not None and not sb.open_replay(replay, replay_scenario):
        pygame.quit()
        print(f"sim: {sb.status}", file=sys.stderr)
        return 2
    sb.skip_empty_phases = True  # (a player's window skips empty phases; K toggles: phase_skip.py)
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
