"""Input: pygame events (keys, clicks, drags, the wheel) turned into sandbox actions.

A mixin of :class:`sim.sandbox.app.Sandbox`; nothing here touches the world: table clicks become
selections, targets, decisions and moves, which go through the sandbox's one door (``submit``)."""

from __future__ import annotations

import math

import pygame
import pygame_gui

from sim.sandbox import dialogs


class InputMixin:
    # ======================================================================= input
    def handle(self, event) -> None:
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
            return
        consumed = self.manager.process_events(event)
        if self.confirm_event(event):  # (a confirmation dialog open: it has the input)
            return
        if event.type == pygame_gui.UI_BUTTON_START_PRESS:  # (a unit dragged from the deployment list)
            self.list_press(event.ui_element)
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            fn = self.actions.get(event.ui_element)
            if fn is not None:
                fn()
            return
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            if not self.import_picked(event) and not self.catalogue_picked(event) \
                    and not self.calculator.picked(self, event):  # (import_dialog.py, catalogue_browser.py, calculator_panel.py)
                self.open_replay(event.text)
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            self.catalogue_search(event)  # (the catalogue's search box)
            return
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            dialogs.closed(self, event.ui_element)  # (its folder remembered: dialogs.py)
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and (self.catalogue_typing() or dialogs.keyboard_taken(self)):
            return  # (typed into a text field or a dialog, not hotkeys)
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.log_list:
            self._log_clicked()
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type == pygame.KEYUP:
            self.tool_keyup(event)
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            if not self.tool_mouse(event, consumed):  # the tape, a placement (sim.sandbox.tools)
                self._mouse(event, consumed)

    def _key(self, e) -> None:
        k, mods = e.key, e.mod
        ctrl = mods & pygame.KMOD_CTRL
        uni = getattr(e, "unicode", "")
        if self.show_help and k in (pygame.K_ESCAPE, pygame.K_F1):
            self.show_help = False
            return
        if self.ai_dialog_key(k):  # (the dialog asking who the computer plays: Enter, Esc)
            return
        if k == pygame.K_F1 or uni == "?":
            self.toggle_help()
        elif ctrl and k == pygame.K_s:
            self.save_replay()
        elif ctrl and k == pygame.K_t:
            self.save_table()
        elif ctrl and k == pygame.K_o:
            self.open_replay_dialog()
        elif ctrl and k == pygame.K_z and self.mode == "battle":
            self.undo()
        elif ctrl and k == pygame.K_r and self.mode == "battle":
            self.restart()
        elif k == pygame.K_F2:
            self.toggle_setup()
        elif self.mode == "setup":
            self._setup_key(k)
        elif self.mode == "replay":
            self._replay_key(k, bool(mods & pygame.KMOD_SHIFT))
        elif self.tool_key(e):  # T tape, C charge, I pile in, O consolidate (sim.sandbox.tools)
            pass
        elif k == pygame.K_a:  # the computer: pause / resume, one command, slower, faster (computer.py)
            self.ai_toggle_pause()
        elif k == pygame.K_PERIOD or uni == ".":
            self.ai_step_once()
        elif k == pygame.K_LEFTBRACKET or uni == "[":
            self.ai_faster(-1)
        elif k == pygame.K_RIGHTBRACKET or uni == "]":
            self.ai_faster(1)
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
            self.phase_key()
        else:
            self._view_key(k)

    def _setup_key(self, k) -> None:
        if k == pygame.K_r:
            self.rotate_placing(1)
        elif k in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.remove_selected()
        elif k == pygame.K_d:
            self.duplicate_selected()
        elif k == pygame.K_h:
            self.cycle_height()
        elif k == pygame.K_ESCAPE:
            if self.setup.placing is not None:
                self.setup.placing = None
                self.status = "placing stopped"
            else:
                self.select(None)
                self.setup.terrain = None
            self.dirty |= {"orders", "card"}
        elif k == pygame.K_v:
            self.toggle_los()
        else:
            self._view_key(k)

    def _replay_key(self, k, shift: bool = False) -> None:
        """Right / Left (Space, N / Backspace): a step within the commands (a roll, an
        allocation, a decision); with Shift, a whole command."""
        if k in (pygame.K_RIGHT, pygame.K_SPACE, pygame.K_n):
            self.replay_step(1) if shift else self.replay_event(1)
        elif k in (pygame.K_LEFT, pygame.K_BACKSPACE):
            self.replay_step(-1) if shift else self.replay_event(-1)
        elif k == pygame.K_p:
            self.replay_play()
        elif k == pygame.K_ESCAPE:
            self.leave_replay()
        elif k == pygame.K_v:
            self.toggle_los()
        elif k == pygame.K_TAB:
            self.next_unit()
        else:
            self._view_key(k)

    def _view_key(self, k) -> None:
        if k in (pygame.K_HOME, pygame.K_0):
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
            elif self.mode == "setup":
                self.setup_motion(pos)
            elif self.press is not None:
                self._drag_motion(pos)
            elif self.ingress_unit is not None:
                self.ingress_hover(pos)
            elif self.carry is not None:
                self.carry_hover(pos)
            self.mouse = pos
            self._hover(pos)
            return
        if e.type == pygame.MOUSEWHEEL:
            placing = self.setup.placing if self.mode == "setup" else None
            if self.drag is not None and self.mode == "battle":  # (the dragged formation turns)
                self.rotate_formation(1 if e.y > 0 else -1)
            elif self.carry is not None and self.mode == "battle":  # (the unit being set up turns)
                self.rotate_carried(1 if e.y > 0 else -1)
            elif getattr(self, "placement", None) is not None and self.turn_placed(1 if e.y > 0 else -1):
                pass  # (a charge's, pile-in's or consolidation's ghost turned)
            elif placing is not None and placing["kind"] == "terrain" and vp.collidepoint(self.mouse):
                self.rotate_placing(1 if e.y > 0 else -1)
            elif vp.collidepoint(self.mouse) and not self.show_help:
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
            if self.carry is not None and e.button == 1 and self.mode == "battle" and not self.carry["from_list"]:
                self.carry_drop(pos)  # (a unit picked from the deployment list, then a click: deploy_flow.py)
                return
            if e.button in (2, 3):
                self.panning = pos
            elif e.button == 1:
                shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT) or getattr(e, "shift", False)
                if self.mode == "setup":
                    self.setup_press(pos)
                else:
                    self._press(pos, shift)
        elif e.type == pygame.MOUSEBUTTONUP:
            if e.button in (2, 3):
                self.panning = None
            elif e.button == 1:
                if self.carry is not None and self.carry["from_list"] and self.mode == "battle":
                    if vp.collidepoint(pos):  # (dragged from the list onto the table: dropped here)
                        self.carry_drop(pos)
                    else:  # (released elsewhere: it stays picked; a click on the table drops it)
                        self.carry["from_list"] = False
                elif self.mode == "setup":
                    self.setup_release(pos)
                else:
                    self._release(pos)

    def _hover(self, pos) -> None:
        m = None
        if self.camera.viewport.collidepoint(pos):
            m = self.scene.model_at(*self.camera.to_table(*pos))
        self.hover_model = m.id if m else None
        self.hover_unit = m.unit if m else None

    def _press(self, pos, shift: bool) -> None:
        if self.ingress_unit is not None:  # placing a unit from strategic reserves
            self.ingress_click(pos)
            return
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
        g = self.staged_ghost_at(*self.camera.to_table(*pos))  # (a model placed in a staged move)
        if g is not None:
            self.select(self.scene.models[g].unit, g)
            self.press = (pos, g, True)
            return
        if m is None:
            self.press = (pos, None, shift)
            return
        self.select(m.unit, m.id)
        self.press = (pos, m.id, shift)

    def _drag_motion(self, pos) -> None:
        start, mid, shift = self.press
        if mid is None or self.battle.busy or self.resolving or self.order is not None or self.mode != "battle":
            return
        if self.drag is None:
            if abs(pos[0] - start[0]) + abs(pos[1] - start[1]) < 5:
                return
            m = self.scene.models.get(mid)
            if m is None or not m.alive:
                return
            ids = [mid] if shift else [x.id for x in self.scene.living(m.unit)]
            self.drag = self.begin_move_drag(m, ids, start)  # (sim.sandbox.move_preview)
            if self.drag is None:
                return
        d = self.drag
        d["pos"] = pos
        d["ghosts"] = self.drag_ghosts(d, *self.camera.to_table(*pos))  # (unit_move.py)

    def _release(self, pos) -> None:
        press, self.press = self.press, None
        drag, self.drag = self.drag, None
        if drag is not None and drag["ghosts"]:
            self.release_move(drag)  # only if Battle.check accepts it (sim.sandbox.move_preview)
            return
        if press is not None and press[1] is None and self.order is None:
            self.select(None)

    def _on_table(self, mid: str, x: float, y: float, origin) -> tuple[float, float]:
        """A ghost position rounded to the Move command's 1e-4", staying as far inside the board
        as the ghost was clamped and within the move the ghost was limited to (plain rounding
        could push a base at the edge off the board, or a full move 0.00007" over its M)."""
        ox, oy, limit = origin
        d = math.hypot(x - ox, y - oy)
        if d > limit - 1e-4 > 0:  # (rounding moves the point by at most 0.71e-4")
            f = (limit - 1e-4) / d
            x, y = ox + (x - ox) * f, oy + (y - oy) * f
        r = self.scene.models[mid].radius
        bw, bh = self.spec.board
        return _round_within(x, r, bw - r), _round_within(y, r, bh - r)


def _round_within(v: float, lo: float, hi: float) -> float:
    q = round(v, 4)
    if q < lo:
        q = math.ceil(lo * 1e4) / 1e4
    elif q > hi:
        q = math.floor(hi * 1e4) / 1e4
    return q
