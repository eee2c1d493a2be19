"""Drawing the tabletop: mat and grid, terrain, units and models. Read-only: it looks at a
Scene snapshot (and the scenario's terrain) and paints; it never touches the world."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pygame

from sim.rules import geometry
from sim.sandbox import style as S
from sim.sandbox.fonts import text


@dataclass
class Look:
    """What the sandbox wants emphasised this frame (all plain data, owned by the sandbox)."""

    selected_unit: str | None = None
    selected_model: str | None = None
    hover_unit: str | None = None
    highlighted: set = field(default_factory=set)  # model ids (log entry, decisions)
    ghosts: dict = field(default_factory=dict)  # model id -> (x, y) while dragging
    ghost_faces: dict = field(default_factory=dict)  # model id -> the facing a ghost is turned to (03.01)
    drag_origin: dict = field(default_factory=dict)  # model id -> (x, y, limit) rings
    targets: dict = field(default_factory=dict)  # unit id -> None (legal) or reason
    pickable: set = field(default_factory=set)  # model ids clickable for a decision
    fading: dict = field(default_factory=dict)  # model id -> alpha 0..1 while fading out
    pool_target: str | None = None  # unit being attacked by the current pool
    current_group: set = field(default_factory=set)  # model ids of the current allocation group
    grab: str | None = None  # the model under the cursor while dragging
    ring_label: str | None = None  # the dragged move's limit in words (M, + the advance roll)
    ui: float = 1.0  # the UI scale (text on the table follows it)
    notes: dict = field(default_factory=dict)  # unit id -> words after its name (a charge's chance)


class TableLayer:
    """The static layer (backdrop, mat, grid, terrain), re-rendered only when the camera moves."""

    def __init__(self, board, terrain):
        self.board = board
        self.terrain = terrain
        self.key = None
        self.surface: pygame.Surface | None = None
        self.ui = 1.0  # the UI scale, for the text

    def get(self, size, camera, ui: float = 1.0) -> pygame.Surface:
        key = (tuple(size), camera.key, ui)
        if key != self.key or self.surface is None:
            self.ui = ui
            self.surface = pygame.Surface(size).convert()
            self._render(self.surface, camera)
            self.key = key
        return self.surface

    def _render(self, surf, cam) -> None:
        surf.fill(S.BACKDROP)
        bw, bh = self.board
        x0, y0 = cam.to_screen(0, 0)
        x1, y1 = cam.to_screen(bw, bh)
        board = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        pygame.draw.rect(surf, S.shade(S.BACKDROP, 0.7), board.move(3, 4))
        pygame.draw.rect(surf, S.MAT, board)
        # subtle grid: a line every 6", a touch stronger every 12"
        step = S.GRID_STEP
        k = 1
        while k * step < bw - 1e-6:
            sx = round(cam.to_screen(k * step, 0)[0])
            pygame.draw.line(surf, S.GRID_MAJOR if k % 2 == 0 else S.GRID, (sx, board.top), (sx, board.bottom - 1))
            k += 1
        k = 1
        while k * step < bh - 1e-6:
            sy = round(cam.to_screen(0, k * step)[1])
            pygame.draw.line(surf, S.GRID_MAJOR if k % 2 == 0 else S.GRID, (board.left, sy), (board.right - 1, sy))
            k += 1
        # centre mark
        cx, cy = cam.to_screen(bw / 2, bh / 2)
        pygame.draw.circle(surf, S.GRID_MAJOR, (round(cx), round(cy)), max(2, round(cam.length(0.3))), 1)
        pygame.draw.rect(surf, S.MAT_EDGE, board, 2)
        self._terrain(surf, cam)
        # inch ruler labels along the top edge
        if cam.scale >= 8:
            for k in range(0, int(bw) + 1, 12):
                t = text(f'{k}"', S.font_px(11, self.ui), S.TEXT_DIM)
                sx, sy = cam.to_screen(k, 0)
                surf.blit(t, (sx - t.get_width() / 2, sy - t.get_height() - 2))

    def _terrain(self, surf, cam) -> None:
        overlay = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        for area in self.terrain:
            pts = [cam.to_screen(x, y) for x, y in area.polygon]
            pygame.draw.polygon(overlay, S.AREA_FILL, pts)
        for area in self.terrain:
            for f in sorted(area.features, key=lambda f: ("exposed", "light", "dense").index(f.category)):
                fill, edge = S.TERRAIN[f.category]
                pts = [cam.to_screen(x, y) for x, y in f.polygon]
                alpha = {"exposed": 150, "light": 170, "dense": 255}[f.category]
                pygame.draw.polygon(overlay, (*fill, alpha), pts)
                pygame.draw.polygon(overlay, (*edge, 220), pts, 1)
                if f.category == "light" and cam.scale >= 6:
                    _hatch(overlay, pts, (*S.shade(fill, 1.25), 110), max(6, round(cam.length(0.8))))
        surf.blit(overlay, (0, 0))
        for area in self.terrain:
            pts = [cam.to_screen(x, y) for x, y in area.polygon]
            _dashed_polygon(surf, S.AREA_EDGE, pts, max(4, round(cam.length(0.5))))
            if cam.scale >= 9:  # a dense feature's height (Part A ruling 12), where one is given
                for f in area.features:
                    if f.solid and f.height is not None:
                        fx = sum(x for x, _y in f.polygon) / len(f.polygon)
                        fy = sum(y for _x, y in f.polygon) / len(f.polygon)
                        t = text(f'{f.height:g}"', S.font_px(10, self.ui), S.shade(S.AREA_EDGE, 1.1))
                        sx, sy = cam.to_screen(fx, fy)
                        surf.blit(t, (sx - t.get_width() / 2, sy - t.get_height() / 2))


def _hatch(surf, pts, colour, gap) -> None:
    """Diagonal hatching clipped to a polygon: light terrain (woods, barricades)."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    r = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    if r.w < 2 or r.h < 2:
        return
    mask = pygame.Surface(r.size, pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), [(x - r.x, y - r.y) for x, y in pts])
    lines = pygame.Surface(r.size, pygame.SRCALPHA)
    for k in range(-r.h, r.w, gap):
        pygame.draw.line(lines, colour, (k, r.h), (k + r.h, 0))
    lines.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surf.blit(lines, r.topleft)


def _dashed_polygon(surf, colour, pts, dash: int) -> None:
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        _dashed_line(surf, colour, a, b, dash)


def _dashed_line(surf, colour, a, b, dash: int, width: int = 1) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = math.hypot(dx, dy)
    if L < 1:
        return
    ux, uy = dx / L, dy / L
    t = 0.0
    while t < L:
        e = min(t + dash, L)
        pygame.draw.line(surf, colour, (a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e), width)
        t += 2 * dash


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Monotone chain convex hull of (n, 2) points, counter-clockwise."""
    pts = np.unique(np.round(points, 4), axis=0)
    if len(pts) < 3:
        return pts
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0]))].tolist()

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


class UnitHulls:
    """Unit outlines in table inches, cached per scene version (ghost units computed live); a
    unit's outline is worked out again only when its living models' bases changed (a command
    moves or removes a few units of the forty at full size)."""

    def __init__(self):
        self.version = None
        self.hulls: dict[str, np.ndarray] = {}
        self._by_bases: dict[str, tuple] = {}  # unit id -> (its living bases, its outline)
        self.bases: tuple = (None, {})  # (key, model id -> screen rect of its base)
        self.marks: tuple = (None, ())  # (key, the wounds counts' screen boxes: sim.sandbox.labels.wound_marks)

    def get(self, scene) -> dict[str, np.ndarray]:
        if scene.version != self.version:
            kept, hulls = {}, {}
            for uid, uv in scene.units.items():
                if uv.destroyed:
                    continue
                fps = tuple(m.fp for m in scene.living(uid))
                old = self._by_bases.get(uid)
                kept[uid] = old if old is not None and old[0] == fps else (fps, unit_hull(fps))
                hulls[uid] = kept[uid][1]
            self._by_bases, self.hulls = kept, hulls
            self.version = scene.version
        return self.hulls


def unit_hull(fps, pad: float = 0.35) -> np.ndarray:
    pts = [geometry.outline(fp, 12) for fp in fps]
    if not pts:
        return np.zeros((0, 2))
    allp = np.concatenate(pts)
    hull = convex_hull(allp)
    if len(hull) < 3:
        return hull
    c = hull.mean(axis=0)
    v = hull - c
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1
    return hull + v / n * pad


def draw_units(surf, cam, scene, look: Look, colours, hulls: UnitHulls, now: float = 0.0) -> dict:
    """Unit outlines, then the models on top (their names: sim.sandbox.labels, with every
    other name on the table). Returns each unit's outline as drawn (table inches, by id)."""
    hs = hulls.get(scene)
    drawn = {}
    for uid, uv in scene.units.items():
        if uv.destroyed:
            continue
        if look.ghosts and any(m in look.ghosts for m in uv.models):
            hull = _ghost_hull(scene, uid, look, hs.get(uid))
        else:
            hull = hs.get(uid)
        if hull is None or len(hull) < 3:
            continue
        drawn[uid] = hull
        pts = [(cam.ox + x * cam.scale, cam.oy + y * cam.scale) for x, y in hull]
        base = colours[uv.owner]
        if uid in look.targets:
            reason = look.targets[uid]
            tint = S.LEGAL if reason is None else S.ILLEGAL
            _fill_alpha(surf, pts, (*tint, 46 if reason is None else 30))
            pygame.draw.polygon(surf, tint, pts, 2)
        if uv.engaged:
            _dashed_polygon(surf, S.ENGAGED, pts, 5)
        if uid == look.selected_unit:
            pygame.draw.polygon(surf, S.SELECT, pts, 2)
        elif uid == look.hover_unit:
            pygame.draw.polygon(surf, S.HOVER, pts, 1)
        elif uid not in look.targets and not uv.engaged:
            pygame.draw.polygon(surf, S.mix(base, S.MAT, 0.35), pts, 1)
    mark = S.attack_mark(tuple(tuple(c) for c in colours)) if look.current_group else None
    for mid in scene.order:
        m = scene.models[mid]
        if m.alive:
            _draw_model(surf, cam, m, look, colours[m.owner], mark)
        elif mid in look.fading:
            _draw_fading(surf, cam, m, colours[m.owner], look.fading[mid])
    for uv in scene.units.values():
        if uv.carried and not uv.destroyed:
            _carried_badge(surf, cam, scene, uv)
    return drawn


def _ghost_hull(scene, uid, look, static):
    living = scene.living(uid)
    deltas = {(round(look.ghosts[m.id][0] - m.x, 6), round(look.ghosts[m.id][1] - m.y, 6))
              if m.id in look.ghosts else (0.0, 0.0) for m in living}
    if static is not None and len(deltas) == 1 and len(static) and not look.ghost_faces:
        (dx, dy), = deltas
        return static + np.array([dx, dy])
    return unit_hull([_ghost_fp(m, look) for m in living])


def _ghost_fp(m, look):
    if m.id in look.ghosts:
        x, y = look.ghosts[m.id]
        return m.fp.moved(x, y, look.ghost_faces.get(m.id))
    return m.fp


def _fill_alpha(surf, pts, rgba) -> None:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    r = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 2, max(ys) - min(ys) + 2)
    r = r.clip(surf.get_rect())
    if r.w <= 0 or r.h <= 0:
        return
    s = pygame.Surface(r.size, pygame.SRCALPHA)
    pygame.draw.polygon(s, rgba, [(x - r.x, y - r.y) for x, y in pts])
    surf.blit(s, r.topleft)


def _base_points(cam, fp):
    pts = geometry.outline(fp, 24)
    return [(cam.ox + x * cam.scale, cam.oy + y * cam.scale) for x, y in pts]


_SPRITES: dict[tuple, pygame.Surface] = {}


def _model_sprite(colour, r: float, character: bool, W: int, remaining: int) -> pygame.Surface:
    """A round base with its highlight, rim, CHARACTER star and wound pips, cached by look."""
    key = (colour, round(r * 2) / 2, character, W, remaining)
    spr = _SPRITES.get(key)
    if spr is not None:
        return spr
    if len(_SPRITES) > 4000:
        _SPRITES.clear()
    r = key[1]
    size = int(2 * r + 4)
    spr = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (size / 2, size / 2)
    rim = S.shade(colour, 0.55)
    pygame.draw.circle(spr, colour, c, r)
    pygame.draw.circle(spr, S.shade(colour, 1.18), (c[0] - r * 0.18, c[1] - r * 0.18), r * 0.55)
    pygame.draw.circle(spr, rim, c, r, max(1, round(r * 0.14)))
    if character:
        _star(spr, S.CHARACTER, c, max(3.0, r * 0.55), S.shade(S.CHARACTER, 0.4))
    if W > 1 and r >= 4:
        _pips(spr, c[0], c[1], r, remaining, W)
    _SPRITES[key] = spr
    return spr


def _draw_model(surf, cam, m, look: Look, colour, mark=None) -> None:
    fp = _ghost_fp(m, look)
    cx, cy = cam.ox + fp.x * cam.scale, cam.oy + fp.y * cam.scale
    r = max(2.0, fp.length * 0.5 * cam.scale)
    if m.id in look.pickable:
        _ring(surf, cam, fp, S.HIGHLIGHT, max(3, r * 0.35), 2)
    if m.id in look.current_group:  # (the models being attacked: a colour no army uses)
        _ring(surf, cam, fp, S.shade(mark, 0.35), max(2, r * 0.22) + 1, 4)
        _ring(surf, cam, fp, mark, max(2, r * 0.22), 2)
    if fp.shape == "round":
        spr = _model_sprite(colour, r, m.character, m.W, m.remaining)
        surf.blit(spr, (cx - spr.get_width() / 2, cy - spr.get_height() / 2))
    else:
        rim = S.shade(colour, 0.55)
        pts = _base_points(cam, fp)
        pygame.draw.polygon(surf, colour, pts)
        pygame.draw.polygon(surf, rim, pts, max(1, round(r * 0.08)))
        if m.character:
            _star(surf, S.CHARACTER, (cx, cy), max(3.0, min(r, fp.width * 0.5 * cam.scale) * 0.55),
                  S.shade(S.CHARACTER, 0.4))
        pr = pips_radius(fp, cam.scale)
        if m.W > 1 and pr is not None:
            _pips(surf, cx, cy, pr, m.remaining, m.W)
    if m.id == look.selected_model:
        _ring(surf, cam, fp, S.SELECT, 2, 2)
    if m.id in look.highlighted:
        _ring(surf, cam, fp, S.HIGHLIGHT, 4, 2)


def _carried_badge(surf, cam, scene, uv) -> None:
    """18.01 A transport's badge: how many models are embarked in it, on its first living
    model's upper right."""
    m = next((scene.models[x] for x in uv.models if scene.models[x].alive), None)
    if m is None:
        return
    r = max(2.0, m.fp.length * 0.5 * cam.scale)
    cx, cy = cam.ox + m.fp.x * cam.scale + r * 0.7, cam.oy + m.fp.y * cam.scale - r * 0.7
    t = text(str(uv.carried), max(10, min(16, int(r * 0.45))), S.BADGE_TEXT, True)
    br = max(t.get_width(), t.get_height()) * 0.62 + 2
    pygame.draw.circle(surf, S.BADGE, (cx, cy), br)
    pygame.draw.circle(surf, S.BADGE_TEXT, (cx, cy), br, 1)
    surf.blit(t, (cx - t.get_width() / 2, cy - t.get_height() / 2))


def _ring(surf, cam, fp, colour, pad: float, width: int) -> None:
    """An outline ``pad`` px outside a base, of the base's own shape (a circle round a round
    base, a rectangle or an oval round the others)."""
    cx, cy = cam.ox + fp.x * cam.scale, cam.oy + fp.y * cam.scale
    if fp.shape == "round":
        pygame.draw.circle(surf, colour, (cx, cy), fp.length * 0.5 * cam.scale + pad, width)
        return
    grow = 2 * pad / max(cam.scale, 1e-6)
    pts = _base_points(cam, geometry.Footprint(fp.shape, fp.x, fp.y, fp.length + grow, fp.width + grow,
                                               fp.angle))
    pygame.draw.polygon(surf, colour, pts, width)


def _star(surf, colour, c, R, edge) -> None:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = R if i % 2 == 0 else R * 0.45
        pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
    pygame.draw.polygon(surf, colour, pts)
    pygame.draw.polygon(surf, edge, pts, 1)


COUNTED = 10  # more wounds than this are written as a count ("12/14"), not pips


def pips_radius(fp, scale: float) -> float | None:
    """The radius ``_pips`` lays a model's wounds out by, on a base ``fp`` drawn at ``scale``
    px an inch (the base's, or a hull's half width where smaller); None where the base is too
    small for any."""
    r = max(2.0, fp.length * 0.5 * scale)
    if fp.shape == "round":
        return r if r >= 4 else None
    return min(r, fp.width * 0.5 * scale) if r >= 5 else None


def count_text(remaining: int, total: int, r: float) -> pygame.Surface:
    """The wounds count ``_pips`` writes on a base of pips radius ``r``."""
    return text(f"{max(remaining, 0)}/{total}", max(9, min(14, int(r * 0.7))), S.PIP_FULL, True)


def count_topleft(cx: float, cy: float, r: float, t: pygame.Surface) -> tuple[float, float]:
    """Where ``_pips`` writes the count ``t`` on a base centred at (cx, cy): under its middle."""
    return cx - t.get_width() / 2, cy + r * 0.15


def _pips(surf, cx, cy, r, remaining, total) -> None:
    """Wound pips on an arc under the base: filled = remaining, dark = lost."""
    if total > COUNTED:
        t = count_text(remaining, total, r)
        surf.blit(t, count_topleft(cx, cy, r, t))
        return
    pr = max(1.5, min(3.2, r * 0.16))
    span = min(math.pi * 0.9, (total - 1) * pr * 2.6 / max(r * 0.78, 1))
    for i in range(total):
        a = math.pi / 2 + (span / 2 - (span * i / (total - 1) if total > 1 else 0))
        px, py = cx + math.cos(a) * r * 0.72, cy + math.sin(a) * r * 0.72
        if i < remaining:
            pygame.draw.circle(surf, S.PIP_FULL, (px, py), pr)
        else:
            pygame.draw.circle(surf, S.PIP_LOST, (px, py), pr)
        pygame.draw.circle(surf, (30, 30, 28), (px, py), pr, 1)


def _draw_fading(surf, cam, m, colour, alpha: float) -> None:
    r = max(2.0, m.fp.length * 0.5 * cam.scale)
    size = int(r * 2 + 6)
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (size / 2, size / 2)
    a = int(255 * max(0.0, min(1.0, alpha)))
    pygame.draw.circle(s, (*S.mix(colour, (90, 90, 90), 0.5), a), c, r)
    k = r * 0.6
    pygame.draw.line(s, (30, 30, 30, a), (c[0] - k, c[1] - k), (c[0] + k, c[1] + k), 2)
    pygame.draw.line(s, (30, 30, 30, a), (c[0] - k, c[1] + k), (c[0] + k, c[1] - k), 2)
    surf.blit(s, (cam.ox + m.x * cam.scale - size / 2, cam.oy + m.y * cam.scale - size / 2))


def _base_rect(cam, fp) -> pygame.Rect:
    """The screen rect a base covers (its own extent, not its bounding circle)."""
    if fp.shape == "round":
        rx = ry = fp.length * 0.5
    else:
        o = geometry.outline(fp, 16)
        rx, ry = np.abs(o[:, 0] - fp.x).max(), np.abs(o[:, 1] - fp.y).max()
    return pygame.Rect(round(cam.ox + (fp.x - rx) * cam.scale), round(cam.oy + (fp.y - ry) * cam.scale),
                       round(2 * rx * cam.scale), round(2 * ry * cam.scale))
