"""The measuring tape (issue 15): hold T and drag on the table. The readout is the project's
own distance (``sim.rules.geometry.distance``, 01.04): edge to edge between bases when the tape
starts or ends on a model, point to point otherwise (a point is a base of no size). The last
tape stays drawn until the next press on the table or Esc.

A mixin of :class:`sim.sandbox.app.Sandbox`; the tape is the sandbox's own state, drawn from
the scene (it never asks the battle anything)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pygame

from sim.rules import geometry
from sim.sandbox import style as S
from sim.sandbox.fonts import text

TAPE = (242, 214, 120)  # a measuring tape's yellow, muted


@dataclass
class Tape:
    held: bool = False  # T is down
    dragging: bool = False
    a: tuple | None = None  # table points
    b: tuple | None = None
    a_model: str | None = None  # the model the tape starts / ends on
    b_model: str | None = None
    shown: str = ""  # the readout last drawn (tests)


def point_fp(x: float, y: float) -> geometry.Footprint:
    """A table point as a base of no size (geometry.distance then measures to the point)."""
    return geometry.Footprint("round", float(x), float(y), 0.0, 0.0)


def ends(scene, tape: Tape) -> tuple[geometry.Footprint, geometry.Footprint] | None:
    if tape.a is None or tape.b is None:
        return None
    fa = scene.models[tape.a_model].fp if tape.a_model in scene.models else point_fp(*tape.a)
    fb = scene.models[tape.b_model].fp if tape.b_model in scene.models else point_fp(*tape.b)
    return fa, fb


def reading(scene, tape: Tape) -> float | None:
    """01.04 The distance the tape reads, in inches."""
    e = ends(scene, tape)
    return None if e is None else geometry.distance(*e)


def _closest_points(fa, fb):
    """The two ends of the tape on the bases' edges (round bases exactly; others from their
    drawn outlines): for drawing only, the readout is geometry.distance."""
    def pts(fp):
        if fp.length == 0:
            return np.array([[fp.x, fp.y]])
        return geometry.outline(fp, 72)
    if fa.shape == "round" and fb.shape == "round":
        dx, dy = fb.x - fa.x, fb.y - fa.y
        d = math.hypot(dx, dy) or 1e-9
        ux, uy = dx / d, dy / d
        ra, rb = fa.length / 2, fb.length / 2
        if d <= ra + rb:
            return (fa.x, fa.y), (fa.x, fa.y)
        return (fa.x + ux * ra, fa.y + uy * ra), (fb.x - ux * rb, fb.y - uy * rb)
    pa, pb = pts(fa), pts(fb)
    dd = ((pa[:, None, :] - pb[None, :, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(int(np.argmin(dd)), dd.shape)
    return tuple(pa[i]), tuple(pb[j])


class TapeMixin:
    @property
    def tape(self) -> Tape:
        t = getattr(self, "_tape", None)
        if t is None:
            t = self._tape = Tape()
        return t

    def tape_key(self, down: bool) -> None:
        t = self.tape
        t.held = down
        if down:
            self.status = "tape: drag on the table while T is held (from a model: edge to edge)"

    def tape_press(self, pos) -> None:
        t = self.tape
        pt = self.camera.to_table(*pos)
        m = self.scene.model_at(*pt)
        t.dragging = True
        t.a = t.b = pt
        t.a_model = m.id if m is not None else None
        t.b_model = None

    def tape_motion(self, pos) -> None:
        t = self.tape
        pt = self.camera.to_table(*pos)
        m = self.scene.model_at(*pt)
        t.b = pt
        t.b_model = m.id if m is not None and m.id != t.a_model else None

    def tape_release(self, pos) -> None:
        self.tape_motion(pos)
        t = self.tape
        t.dragging = False
        d = reading(self.scene, t)
        if d is not None:
            self.status = f'tape: {d:.2f}" ' + ("edge to edge" if (t.a_model or t.b_model) else "point to point")

    def clear_tape(self) -> bool:
        t = self.tape
        had = t.a is not None
        t.a = t.b = t.a_model = t.b_model = None
        t.dragging = False
        t.shown = ""
        return had

    def draw_tape(self, surf) -> None:
        t = self.tape
        e = ends(self.scene, t)
        if e is None:
            return
        fa, fb = e
        cam = self.camera
        d = geometry.distance(fa, fb)
        pa, pb = _closest_points(fa, fb)
        sa, sb = cam.to_screen(*pa), cam.to_screen(*pb)
        for fp, mid in ((fa, t.a_model), (fb, t.b_model)):
            if mid is not None:
                c = cam.to_screen(fp.x, fp.y)
                pygame.draw.circle(surf, TAPE, c, max(3, cam.length(fp.bounding_radius)) + 3, 1)
        pygame.draw.line(surf, S.shade(TAPE, 0.35), (sa[0] + 1, sa[1] + 1), (sb[0] + 1, sb[1] + 1), 3)
        pygame.draw.line(surf, TAPE, sa, sb, 2)
        # inch ticks along the tape
        L = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
        if L > 0 and cam.scale >= 6:
            ux, uy = (pb[0] - pa[0]) / L, (pb[1] - pa[1]) / L
            k = 1
            while k < L and k < 200:
                px, py = cam.to_screen(pa[0] + ux * k, pa[1] + uy * k)
                h = 4 if k % 6 else 7
                pygame.draw.line(surf, TAPE, (px - uy * h, py + ux * h), (px + uy * h, py - ux * h), 1)
                k += 1
        for p in (sa, sb):
            pygame.draw.circle(surf, TAPE, p, 3)
        t.shown = f'{d:.2f}"'
        how = "edge to edge" if (t.a_model or t.b_model) else "point to point"
        big = text(t.shown, 15, TAPE, True)
        small = text(how, 11, S.TEXT_DIM)
        w = max(big.get_width(), small.get_width()) + 12
        h = big.get_height() + small.get_height() + 6
        mx, my = (sa[0] + sb[0]) / 2, (sa[1] + sb[1]) / 2
        area = surf.get_clip() or surf.get_rect()
        x = min(max(mx + 12, area.x + 2), area.right - w - 2)
        y = min(max(my - h - 8, area.y + 2), area.bottom - h - 2)
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((28, 30, 26, 228))
        pygame.draw.rect(box, (*TAPE, 255), box.get_rect(), 1)
        surf.blit(box, (x, y))
        surf.blit(big, (x + 6, y + 3))
        surf.blit(small, (x + 6, y + 3 + big.get_height()))
