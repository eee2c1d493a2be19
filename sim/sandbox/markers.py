"""The mission on the table: deployment zones (subtle tints in each army's colour), objective
markers with their 3" control range (coloured by who controls them, 14.02), a hover tip with
each player's level of control, and the ghost of a unit being set up from strategic reserves.

Read-only: everything comes from the battle's TurnState and world queries (the same rules the
scoring reads: sim.rules.objectives.control_levels over sim.phases.scoring's models)."""

from __future__ import annotations

import math

import pygame

from sim.rules import geometry
from sim.rules import objectives as OBJ
from sim.sandbox import style as S
from sim.sandbox.draw_table import _dashed_line, _dashed_polygon
from sim.sandbox.fonts import text

NEUTRAL = (214, 208, 178)  # an objective nobody controls
EDGE_BAND = 6.0  # 20.04 "wholly within 6 inches of a battlefield edge"


def _pts(cam, poly):
    return [cam.to_screen(x, y) for x, y in poly]


class ZoneLayer:
    """The deployment zones, rendered once per camera mapping (a translucent overlay)."""

    def __init__(self):
        self.key = None
        self.surface: pygame.Surface | None = None

    def get(self, size, cam, zones, colours, names, ui: float = 1.0) -> pygame.Surface:
        key = (tuple(size), cam.key, zones, tuple(colours), ui)
        if key != self.key or self.surface is None:
            self.surface = pygame.Surface(size, pygame.SRCALPHA)
            self._render(self.surface, cam, zones, colours, names, ui)
            self.key = key
        return self.surface

    def _render(self, surf, cam, zones, colours, names, ui: float = 1.0) -> None:
        for p, zone in enumerate(zones):
            if p >= len(colours) or len(zone) < 3:
                continue
            c = S.mix(colours[p], S.MAT, 0.25)
            pts = _pts(cam, zone)
            pygame.draw.polygon(surf, (*c, 24), pts)
            _dashed_polygon(surf, (*c, 150), pts, max(4, round(cam.length(0.6))))


def objective_colour(ts, name: str, colours):
    c = ts.control.get(name)
    who = None if c is None else c.controller
    return NEUTRAL if who is None or who >= len(colours) else colours[who], who


def draw_objectives(surf, cam, ts, colours, names, hover: str | None = None, ui: float = 1.0) -> None:
    """Each objective: its control range (3" from the 40 mm marker's edge, 14.01.01) as a thin
    ring, the marker disc in its controller's colour (neutral when nobody controls it), a
    terrain objective's area outlined (its name: sim.sandbox.labels)."""
    r_mark = OBJ.MARKER_DIAMETER / 2
    for o in ts.objectives:
        colour, who = objective_colour(ts, o.name, colours)
        cx, cy = cam.to_screen(o.x, o.y)
        if o.area is not None:  # 14.01: the whole terrain area is the objective
            pts = _pts(cam, o.area.polygon)
            _dashed_polygon(surf, colour, pts, max(4, round(cam.length(0.7))))
        else:
            R = cam.length(r_mark + OBJ.CONTROL_RANGE)
            if R > 3:
                ring = pygame.Surface((int(2 * R + 4), int(2 * R + 4)), pygame.SRCALPHA)
                c = (R + 2, R + 2)
                pygame.draw.circle(ring, (*colour, 26 if who is None else 40), c, R)
                pygame.draw.circle(ring, (*colour, 200 if o.name == hover else 120), c, R, 2 if o.name == hover else 1)
                surf.blit(ring, (cx - R - 2, cy - R - 2))
        r = max(4.0, cam.length(r_mark))
        pygame.draw.circle(surf, colour, (cx, cy), r)
        pygame.draw.circle(surf, S.shade(colour, 0.45), (cx, cy), r, max(1, round(r * 0.18)))
        if o.kind == "home" and r >= 5:  # a home objective: its owner's colour at the centre
            own = colours[o.owner] if o.owner is not None and o.owner < len(colours) else NEUTRAL
            pygame.draw.circle(surf, own, (cx, cy), r * 0.42)
            pygame.draw.circle(surf, S.shade(own, 0.45), (cx, cy), r * 0.42, 1)


def objective_at(ts, x: float, y: float, slack: float = 0.6):
    """The objective whose marker (or terrain area) is under the table point (x, y)."""
    from sim.rules.polygons import point_in_polygon
    best, bd = None, 1e9
    for o in ts.objectives:
        d = math.hypot(x - o.x, y - o.y)
        if d <= OBJ.MARKER_DIAMETER / 2 + slack and d < bd:
            best, bd = o, d
        elif o.area is not None and best is None and point_in_polygon((x, y), o.area.polygon) >= 0:
            best = o
    return best


def objective_tip(battle, o, names, models) -> list[str]:
    """The hover tip: the objective, who controls it (settled at phase ends, 14.02.01) and
    each player's level of control now (14.02: the OC of their models in range)."""
    ts = battle.turn_state
    c = ts.control.get(o.name)
    who = "nobody" if c is None or c.controller is None else names[c.controller]
    levels = OBJ.control_levels(o, models)
    kind = o.kind + (" (terrain area)" if o.area is not None else "")
    oc = ", ".join(f"{names[p]} {levels.get(p, 0)}" for p in range(len(names)))
    return [f"objective {o.name}: {kind}",
            f"controlled by {who} (settled at each phase's end, 14.02.01)",
            f"OC in range now: {oc}"]


def draw_edge_band(surf, cam, board, colour=S.RING) -> None:
    """20.04 where an ingress move may set a unit up: the band within 6" of each edge."""
    bw, bh = board
    d = EDGE_BAND
    inner = [(d, d), (bw - d, d), (bw - d, bh - d), (d, bh - d)]
    pts = _pts(cam, inner)
    band = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    outer = _pts(cam, [(0, 0), (bw, 0), (bw, bh), (0, bh)])
    pygame.draw.polygon(band, (*colour, 34), outer)
    pygame.draw.polygon(band, (0, 0, 0, 0), pts)
    surf.blit(band, (0, 0))
    for a, b in zip(pts, pts[1:] + pts[:1]):
        _dashed_line(surf, colour, a, b, max(4, round(cam.length(0.5))))


def draw_ghosts(surf, cam, scene, to, colour, ok: bool, face=()) -> None:
    """A unit's models at the positions ``to`` ((model id, x, y), ...): translucent bases, each
    of its own shape, turned as ``face`` ((model id, degrees), ...; 03.01) says."""
    turned = dict(face)
    rim = (*(S.LEGAL if ok else S.ILLEGAL), 230)
    for mid, x, y in to:
        m = scene.models.get(mid)
        if m is None:
            continue
        fp = m.fp.moved(x, y, turned.get(mid))
        cx, cy = cam.to_screen(fp.x, fp.y)
        r = max(2.0, cam.length(fp.bounding_radius))
        g = pygame.Surface((int(2 * r + 4), int(2 * r + 4)), pygame.SRCALPHA)
        c = (r + 2, r + 2)
        if fp.shape == "round":
            pygame.draw.circle(g, (*colour, 120), c, r)
            pygame.draw.circle(g, rim, c, r, 2)
        else:
            pts = [(px - cx + c[0], py - cy + c[1]) for px, py in
                   (cam.to_screen(qx, qy) for qx, qy in geometry.outline(fp, 24))]
            pygame.draw.polygon(g, (*colour, 120), pts)
            pygame.draw.polygon(g, rim, pts, 2)
        surf.blit(g, (cx - r - 2, cy - r - 2))
