"""Ask before losing work: restarting, opening set-up (which restarts the battle) or opening a
replay while the battle has commands not saved in a replay log asks first, in a pygame-gui
confirmation dialog. Cancelling (the Cancel button, the window's close button or Esc) keeps the
battle as it is. A mixin of :class:`sim.sandbox.app.Sandbox`."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog


class ConfirmMixin:
    unsaved = False  # commands given since the battle began or was last saved (Ctrl+S)

    def has_unsaved(self) -> bool:
        """Would leaving this battle lose commands? (a command being resolved counts)"""
        if self.mode != "battle" or self.battle is None:
            return False
        return self.resolving or (self.unsaved and self.recorder.n > 0)

    def ask_first(self, what: str, action: str, fn, edits: bool = False, after: str = "") -> None:
        """Run ``fn`` now if nothing would be lost, else once the player confirms. ``edits``:
        ``fn`` also drops the table's set-up edits (they count as work too). ``after``: what
        becomes of them (default: lost)."""
        commands = self.has_unsaved()
        edited = edits and self.edited
        if not (commands or edited):
            fn()
            return
        if self.confirm_open():
            return
        lost = []
        if commands:
            since = self.recorder.n - getattr(self, "saved_commands", 0)  # (since the last save)
            n = max(1, since + (1 if self.resolving else 0))
            lost.append(f"{n} command{'s' if n != 1 else ''} not saved in a replay (Ctrl+S saves them)")
        if edited:
            lost.append("the table's set-up edits (Ctrl+T saves the table)")
        w, h = 460, 230
        sw, sh = self.size
        rect = pygame.Rect(max(0, (sw - w) // 2), max(0, (sh - h) // 3), min(w, sw), min(h, sh))
        text = (f"{what} {'sets aside' if after else 'loses'} {' and '.join(lost)}{after}."
                f"<br><br>Cancel keeps the battle as it is.")
        dlg = UIConfirmationDialog(rect, text, self.manager, window_title="Unsaved commands",
                                   action_short_name=action, blocking=True)
        self._confirm = (dlg, fn)
        self.status = f"{what}? Confirm or cancel in the dialog"

    def confirm_open(self) -> bool:
        c = getattr(self, "_confirm", None)
        return c is not None and c[0].alive()

    def confirm_dialog(self):
        """The open confirmation dialog (None when there is none)."""
        return self._confirm[0] if self.confirm_open() else None

    def confirm_event(self, event) -> bool:
        """Handle the dialog's events; True when ``event`` belonged to it (or the dialog is
        open and the event must not reach the table: keys but Esc, clicks)."""
        c = getattr(self, "_confirm", None)
        if c is None:
            return False
        dlg, fn = c[:2]
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is dlg:
            self._confirm = None
            fn()
            return True
        if not dlg.alive():  # closed: confirmed (its event is on its way) or cancelled (confirm_update)
            return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                dlg.kill()
                self._confirm = None
                self.status = "cancelled: the battle is as it was"
            return True  # (keys do nothing else while the dialog asks)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL):
            return True
        return False

    def confirm_update(self) -> None:
        """Once per frame: a dialog closed without its confirmation (which pygame-gui posts as
        it closes, so it is handled in the next frame's events) was cancelled."""
        c = getattr(self, "_confirm", None)
        if c is None or c[0].alive():
            return
        if len(c) == 2:
            self._confirm = (*c, "closed")  # (give its confirmation one batch of events to arrive)
            return
        self._confirm = None
        self.status = "cancelled: the battle is as it was"
