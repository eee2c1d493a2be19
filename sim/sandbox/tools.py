"""The table tools of issue 15 wired into the sandbox: the move preview and coherency links
(``move_preview``), charges, pile-in and consolidation (``charge_flow``), the measuring tape
(``tape``) and weapon range rings (``range_rings``). The sandbox's input, update, look and draw
each call one method here; the tools get the mouse and the keys first when they are in use.

A mixin of :class:`sim.sandbox.app.Sandbox`."""

from __future__ import annotations

import pygame

from sim.sandbox.charge_flow import PlacementMixin
from sim.sandbox.move_preview import MovesMixin
from sim.sandbox.phase_skip import PhaseSkipMixin
from sim.sandbox.range_rings import RangeRings, hovered_weapon
from sim.sandbox.rules_card import AuraRings, hovered_rule
from sim.sandbox.tape import TapeMixin


class ToolsMixin(MovesMixin, PlacementMixin, TapeMixin, PhaseSkipMixin):
    placement = None  # a charge_flow.Placement while one is being placed

    # ------------------------------------------------------------------ input
    def tool_key(self, e) -> bool:
        """A key down in battle mode: True if a tool took it."""
        k, ctrl = e.key, e.mod & pygame.KMOD_CTRL
        if self.show_help or ctrl:
            return False
        p = self.placement
        if k == pygame.K_t:
            self.tape_key(True)
        elif k == pygame.K_c:
            self.begin_charge()
        elif k == pygame.K_i:
            self.begin_pile_in()
        elif k == pygame.K_o:
            self.begin_consolidate()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and p is not None and p.stage == "placing":
            self.confirm_placement()
        elif k == pygame.K_ESCAPE and self.tape.a is not None:
            self.clear_tape()
        elif k == pygame.K_ESCAPE and p is not None:
            self.close_placement()
        elif k == pygame.K_k:
            self.toggle_skip_empty()  # (phase_skip.py)
        elif k == pygame.K_r and getattr(self, "placement", None) is not None and self.turn_placed(
                -1 if e.mod & pygame.KMOD_SHIFT else 1):
            pass  # (a charge's, pile-in's or consolidation's ghost turned: charge_flow.py)
        elif k == pygame.K_r and self.carry is not None and self.mode == "battle":
            self.rotate_carried(-1 if e.mod & pygame.KMOD_SHIFT else 1)  # (deploy_flow.py)
        elif k == pygame.K_r and (self.drag is not None or self.staged is not None):
            self.rotate_formation(-1 if e.mod & pygame.KMOD_SHIFT else 1)  # (unit_move.py)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.staged is not None and self.order is None:
            self.confirm_staged()
        elif k == pygame.K_ESCAPE and self.staged is not None and self.drag is None:
            self.drop_staged()
        else:
            return False
        return True

    def tool_keyup(self, e) -> None:
        if e.key == pygame.K_t:
            self.tape_key(False)

    def tool_mouse(self, e, consumed: bool) -> bool:
        """A mouse event: True if a tool took it (the tape while T is held or it is being
        drawn; a placement's ghosts and targets)."""
        if self.mode != "battle" or self.show_help:
            return False
        t, p = self.tape, self.placement
        if e.type == pygame.MOUSEMOTION:
            if t.dragging:
                self.tape_motion(e.pos)
            elif p is not None and p.adjusting is not None:
                self.placement_motion(e.pos)
            else:
                return False
            self.mouse = e.pos
            self._hover(e.pos)
            return True
        if getattr(e, "button", None) != 1:
            return False
        if e.type == pygame.MOUSEBUTTONDOWN:
            if consumed or not self.camera.viewport.collidepoint(e.pos):
                return False
            self.mouse = e.pos
            if t.held:
                self.tape_press(e.pos)
                return True
            self.clear_tape()
            if p is not None:
                return self.placement_press(e.pos)
            return False
        if e.type == pygame.MOUSEBUTTONUP:
            self.mouse = e.pos
            if t.dragging:
                self.tape_release(e.pos)
                return True
            if p is not None and p.adjusting is not None:
                self.placement_release(e.pos)
                return True
        return False

    # ------------------------------------------------------------------ each frame
    def tools_update(self) -> None:
        if self.mode != "battle":
            return
        self.moves_update()
        self.placement_update()

    def tools_look(self, look) -> None:
        if self.mode == "battle":
            self.staged_look(look)  # (a staged move's ghosts: unit_move.py)
        if self.drag is not None:
            look.ring_label = self.drag.get("ring_label")
        if self.mode == "battle":
            self.placement_look(look)

    def draw_tools(self, surf, look) -> None:
        if self.mode != "battle":
            return
        rr = getattr(self, "_range_rings", None)
        if rr is None:
            rr = self._range_rings = RangeRings()
        rr.draw(surf, self, hovered_weapon(self))
        ar = getattr(self, "_aura_rings", None)
        if ar is None:
            ar = self._aura_rings = AuraRings()
        ar.draw(surf, self, hovered_rule(self))  # (issue 26: a rule's aura, hovered on the card)
        self.draw_moves(surf, look)
        self.draw_placement(surf)
        self.draw_tape(surf)
