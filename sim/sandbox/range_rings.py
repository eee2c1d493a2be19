"""Weapon range rings (issue 15): hovering a weapon on the unit card draws its range around
each living model of the unit that carries it, measured from the edge of the base (01.04: a
ring is the base grown by the range), and half the range as well for [RAPID FIRE] and [MELTA].
The rings of a unit are drawn as one outline (their union), so ten models make one calm shape.

Read-only: the models and their weapons come from the scene and the world queries; the layer
is cached per table state, camera and weapon."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pygame

from sim.rules import geometry
from sim.rules.abilities import Hook
from sim.sandbox import style as S
from sim.sandbox.fonts import text
from sim.world import queries as W

RANGE = (150, 196, 226)  # full range
HALF = (226, 190, 120)  # half range ([RAPID FIRE], [MELTA])
STEPS = 72  # directions sampled for a ring round a base that is not round


@dataclass(frozen=True)
class Ring:
    """One model's ring: its base grown by ``inches``; ``centre``/``radius`` in screen pixels for
    a round base (``poly`` None), else the outline's screen points."""

    model: str
    inches: float
    centre: tuple
    radius: float
    poly: tuple | None = None


def weapon_row(flow, sb, w, count: int):
    """The card's line for a weapon: hovering it draws its range on the table (ranged ones)."""
    label = f"{w.name}  x{count}"
    if w.is_melee:
        return flow.label(label, indent=4)
    flow.newline()
    flow.x += 4
    b = flow.button(label, None, name=f"weapon:{w.name}", object_id="#weapon", height=22,
                    tip=f'hover: its range ({w.range}") on the table')
    flow.newline()
    return b


def hovered_weapon(sb) -> str | None:
    """The weapon whose card line is under the mouse (it must show in the card panel)."""
    flow = sb.card_flow
    if flow is None or not flow.outer.rect.collidepoint(sb.mouse):
        return None
    for name, b in sb.names.items():
        if name.startswith("weapon:") and b.alive() and b.visible and b.rect.collidepoint(sb.mouse):
            return name[len("weapon:"):]
    return None


def carriers(battle, scene, uid: str, weapon: str) -> list:
    """(model view, weapon profile) for each living model of the unit carrying ``weapon``."""
    battle._enter()
    out = []
    for m in scene.living(uid):
        for w in W.weapons_of(m.ent):
            if w.name == weapon and not w.is_melee:
                out.append((m, w))
                break
    return out


def grown(cam, fp: geometry.Footprint, inches: float) -> Ring:
    """The base ``fp`` grown by ``inches`` (every point within that distance of it), on screen."""
    cx, cy = cam.to_screen(fp.x, fp.y)
    if fp.shape == "round":
        return Ring("", inches, (cx, cy), cam.length(inches + fp.length / 2))
    pts, r = geometry.core(fp)
    t = np.linspace(0.0, 2 * math.pi, STEPS, endpoint=False)
    u = np.stack([np.cos(t), np.sin(t)], axis=1)
    support = pts[np.argmax(pts @ u.T, axis=0)]  # the core's farthest vertex in each direction
    edge = support + u * (r + inches)
    poly = tuple(cam.to_screen(x, y) for x, y in edge)
    return Ring("", inches, (cx, cy), cam.length(inches + fp.bounding_radius), poly)


def rings(battle, scene, cam, uid: str, weapon: str) -> tuple[list[Ring], list[Ring], str]:
    """The full-range rings and the half-range ones (empty unless [RAPID FIRE]/[MELTA]) of the
    unit's models carrying ``weapon``, with the label."""
    full, half, label = [], [], ""
    for m, w in carriers(battle, scene, uid, weapon):
        r = grown(cam, m.fp, float(w.range))
        full.append(Ring(m.id, r.inches, r.centre, r.radius, r.poly))
        label = f'{w.name}: {w.range}"'
        if w.has(Hook.HALF_RANGE):  # ([RAPID FIRE], [MELTA]: 24.30, 24.25)
            h = grown(cam, m.fp, w.range / 2)
            half.append(Ring(m.id, h.inches, h.centre, h.radius, h.poly))
            which = [a.label() for a in w.abilities if Hook.HALF_RANGE in a.spec.effects]
            label += f'  (half: {w.range / 2:g}", {", ".join(which)})'
    return full, half, label


def _paint(layer, rs, colour, grow: float) -> None:
    for r in rs:
        if r.poly is None:
            pygame.draw.circle(layer, colour, r.centre, max(1.0, r.radius + grow))
        else:
            c = r.centre
            pts = [(c[0] + (x - c[0]) * (1 + grow / max(r.radius, 1)), c[1] + (y - c[1]) * (1 + grow / max(r.radius, 1)))
                   for x, y in r.poly]
            pygame.draw.polygon(layer, colour, pts)


def union_layer(size, offset, rs, colour, fill_alpha: int, edge_alpha: int, width: float = 2.0):
    """The union of the rings as one shape: a band ``width`` px wide along its outline and a
    faint fill inside (pygame.draw writes RGBA as given on an alpha surface, so overlapping
    rings do not darken each other)."""
    layer = pygame.Surface(size, pygame.SRCALPHA)
    moved = [Ring(r.model, r.inches, (r.centre[0] - offset[0], r.centre[1] - offset[1]), r.radius,
                  None if r.poly is None else tuple((x - offset[0], y - offset[1]) for x, y in r.poly))
             for r in rs]
    _paint(layer, moved, (*colour, edge_alpha), 0.0)
    _paint(layer, moved, (*colour, fill_alpha) if fill_alpha else (0, 0, 0, 0), -width)
    return layer


class RangeRings:
    """The hovered weapon's rings for the selected unit, rendered once per (table state, camera,
    unit, weapon)."""

    def __init__(self):
        self.key = None
        self.full: list[Ring] = []
        self.half: list[Ring] = []
        self.label = ""
        self._layers = ()

    def draw(self, surf, sb, weapon: str | None) -> None:
        uid = sb.selected_unit
        if weapon is None or uid is None or uid not in sb.scene.units:
            self.key = None
            return
        cam = sb.camera
        vp = cam.viewport
        key = (sb.scene.version, cam.key, uid, weapon, surf.get_size())
        if key != self.key:
            self.key = key
            self.full, self.half, self.label = rings(sb.battle, sb.scene, cam, uid, weapon)
            self._layers = (union_layer(vp.size, vp.topleft, self.full, RANGE, 26, 210),
                            union_layer(vp.size, vp.topleft, self.half, HALF, 0, 190, 1.5))
        if not self.full:
            return
        for layer in self._layers:
            surf.blit(layer, vp.topleft)
        top = min(self.full, key=lambda r: (r.centre[1] - r.radius, r.centre[0]))
        lab = text(self.label, 12, S.TEXT)
        x = top.centre[0] - lab.get_width() / 2
        y = top.centre[1] - top.radius - lab.get_height() - 3
        area = surf.get_clip() or surf.get_rect()
        x = min(max(x, area.x + 4), area.right - lab.get_width() - 4)
        y = min(max(y, area.y + 4), area.bottom - lab.get_height() - 4)
        bg = pygame.Surface((lab.get_width() + 8, lab.get_height() + 2), pygame.SRCALPHA)
        bg.fill((24, 28, 26, 200))
        surf.blit(bg, (x - 4, y - 1))
        surf.blit(lab, (x, y))
