"""Every name written on the table placed in one pass so that none overlaps another or a model
(issue 28 item 9): objective names first (beside their marker), then the units' names (beside
their outline, a leader line back to it when the nearest free spot is farther out), then the
terrain areas' names (on or touching their own area and on no other: never pushed away from it;
shortened, then left out, where no such spot is free, the hover tip naming the area) and the
deployment zones' names (inside the zone; shortened, then left out, for want of room).

A label is a request: its text surface, the screen box of what it names, and whether it must be
shown. Spots are tried nearest first; a spot is free when it lies inside the table's viewport
and overlaps no label placed before, no model's base and no objective marker. A must-show label
with no free spot takes the spot that covers no other label and fewest bases; where every spot
covers another label, only a pinned one (an objective's, the selected unit's, a unit with a note)
is written over it, the least covered spot beside it; a unit's name is left out (a crowded
4,000-point table: its name is in the hover tip of each of its models, and a hint under the
table says how many names were left out and how to read them). A label whose thing is off the
viewport is not shown (zoomed in, the names of units out of sight do not pile up at its edge).

Read-only, like draw_table: the placement is kept while nothing it depends on changes."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from sim.sandbox import style as S
from sim.sandbox.fonts import text

UNIT, OBJECTIVE, TERRAIN, ZONE = "unit", "objective", "terrain", "zone"
DISTANCE = "distance"  # a staged ghost's distance (sim.sandbox.unit_move: placed after the names)
HINT = "hint"  # how many units' names were left out for want of room, and where to read them
MIN_SCALE = 4.5  # px per inch below which no name is written on the table
RINGS = 5  # rows of spots tried farther out (with a leader line) before a label gives up
PRIORITY = {OBJECTIVE: 0, UNIT: 1, TERRAIN: 2, ZONE: 3, DISTANCE: 4}


@dataclass
class Request:
    kind: str
    key: str  # unit id, objective name, terrain index, zone index
    surf: pygame.Surface
    box: pygame.Rect  # the screen box of what it names
    must: bool = True
    first: str = "above"  # the preferred side: "above", "below" (an objective: under its marker)
    alpha: int = 150
    spots: list | None = None  # its own spots (top-left corners), instead of those around ``box``
    short: pygame.Surface | None = None  # a shorter text tried at the same spots when none is free
    touch: tuple | None = None  # a polygon (screen points): a spot must lie on or within a few px of it
    avoid: tuple = ()  # (box, polygon) of the other areas: a ``touch`` label lies on none of them
    pinned: bool = True  # a must-show label written over another label where no spot is clear of
                         # them (a unit's is pinned when selected or noted, else left out then)


@dataclass
class Placed:
    kind: str
    key: str
    rect: pygame.Rect
    surf: pygame.Surface
    leader: tuple | None = None  # ((x, y), (x, y)) a line from the label to what it names
    alpha: int = 150
    short: bool = False  # the shorter text was written (the full name is in the hover tip)


def font_px(cam_scale: float, ui: float, size: float = 12) -> int:
    """A label's font size: the UI's, a little smaller on a small table (never below MIN_FONT)."""
    shrink = 1.0 if cam_scale >= 9 else 0.9
    return S.font_px(size * shrink, ui)


def _spots(box: pygame.Rect, w: int, h: int, gap: int, first: str):
    """Top-left corners beside ``box``, nearest first: above, below, right, left, the corners;
    then rows farther out (ring k >= 1), which need a leader line."""
    cx, cy = box.centerx, box.centery
    near = [(cx - w / 2, box.top - h - gap), (cx - w / 2, box.bottom + gap), (box.right + gap, cy - h / 2),
            (box.left - w - gap, cy - h / 2), (box.right + gap, box.top - h - gap),
            (box.left - w - gap, box.top - h - gap), (box.right + gap, box.bottom + gap),
            (box.left - w - gap, box.bottom + gap)]
    if first == "below":
        near[0], near[1] = near[1], near[0]
    for p in near:
        yield 0, p
    for k in range(1, RINGS + 1):
        dy, dx = k * (h + gap), k * (w // 3 + gap)
        for p in ((cx - w / 2, box.top - h - gap - dy), (cx - w / 2, box.bottom + gap + dy),
                  (box.right + gap + dx, cy - h / 2), (box.left - w - gap - dx, cy - h / 2),
                  (cx - w / 2 + dx, box.top - h - gap - dy), (cx - w / 2 - dx, box.top - h - gap - dy),
                  (cx - w / 2 + dx, box.bottom + gap + dy), (cx - w / 2 - dx, box.bottom + gap + dy)):
            yield k, p


spots_around = _spots  # (for the other labels drawn on the table: the staged ghosts' distances)


def _covered(r: pygame.Rect, rects) -> int:
    total = 0
    for i in r.collidelistall(rects):
        c = r.clip(rects[i])
        total += c.w * c.h
    return total


def _leader(r: pygame.Rect, box: pygame.Rect):
    """From the label's edge nearest ``box`` to the nearest point of ``box``."""
    bx = min(max(r.centerx, box.left), box.right)
    by = min(max(r.centery, box.top), box.bottom)
    lx = min(max(bx, r.left), r.right - 1)
    ly = min(max(by, r.top), r.bottom - 1)
    return (lx, ly), (bx, by)


def place(requests: list[Request], blockers: list[pygame.Rect], viewport: pygame.Rect,
          gap: int = 3, inside: pygame.Rect | None = None, taken: tuple = (), marks: tuple = ()) -> list[Placed]:
    """The labels placed, in ``requests``' priority order (objectives, units, terrain, zones;
    within a kind top to bottom): none overlapping another or a blocker where a free spot
    exists within RINGS rows; an optional label without one is left out, and so is a must-show
    one that is not pinned where every spot covers another label. Every label is kept within
    ``inside`` (the table's part of the viewport), a required one pushed in. ``taken``: the
    rects of labels placed before (by another call); ``marks``: what is written on the bases
    (a large model's wounds left), which a name that must cover bases covers last. Where a
    pinned label could only be written over another, the labels are placed again with the
    pinned ones of each kind first (selecting a unit moves no other name where its own has
    room)."""
    return place_ordered(requests, blockers, viewport, gap, inside, taken, marks)[0]


def place_ordered(requests: list[Request], blockers: list[pygame.Rect], viewport: pygame.Rect, gap: int = 3,
                  inside: pygame.Rect | None = None, taken: tuple = (), marks: tuple = (),
                  pinned_first: bool | None = None) -> tuple[list[Placed], bool]:
    """``place``, and whether the pinned labels went first. ``pinned_first``: None, decided as
    ``place`` decides (placed again where a pinned one had to go over another label); True or
    False, placed once in that order (a drag's frames, in the order its last placement took)."""
    order = sorted(requests, key=lambda q: (PRIORITY[q.kind], q.box.top, q.box.left, q.key))
    if not pinned_first:
        out, over = _place_in(order, blockers, viewport, gap, inside, taken, marks)
        if pinned_first is False or not over:
            return out, False
    first = sorted(order, key=lambda q: (PRIORITY[q.kind], not q.pinned))   # (stable: the rest as they were)
    return _place_in(first, blockers, viewport, gap, inside, taken, marks)[0], True


def _place_in(order: list[Request], blockers, viewport, gap, inside, taken, marks) -> tuple[list[Placed], bool]:
    """``place`` in this order: the labels placed, and whether a pinned one had to be written
    over another label."""
    area = viewport if inside is None else inside
    taken = list(taken)
    out: list[Placed] = []
    over = False
    for q in order:
        if not q.box.colliderect(viewport):
            continue  # (out of sight: no name at the edge)
        for surf in (q.surf, q.short):
            if surf is None:
                continue
            got = _best_spot(q, surf, taken, blockers, area, gap, marks)
            if got is not None:
                best, best_k = got
                over = over or (q.pinned and best.collidelist(taken) >= 0)
                lead = _leader(best, q.box) if best_k else None
                taken.append(best)
                out.append(Placed(q.kind, q.key, best, surf, lead, q.alpha, surf is q.short))
                break
    return out, over


def _best_spot(q: Request, surf, taken, blockers, area, gap, marks=()):
    """(rect, ring) of ``surf``'s label for ``q``: the first free spot; else (a must-show
    label) the spot covering no other label, the least of the ``marks`` and then of the bases
    (a ring farther out counting as a label's area of bases more), else (a pinned one) the
    least covered spot beside it; None when an optional label has no free spot, or a label
    that is not pinned has none clear of the other labels."""
    w, h = surf.get_width() + 8, surf.get_height()
    best = best_cost = best_k = None
    if q.touch is not None:
        spots = ((0, p) for p in _touching(q.touch, w, h, gap, q.avoid))
    elif q.spots is not None:
        spots = ((0, p) for p in q.spots)
    else:
        spots = _spots(q.box, w, h, gap, q.first)
    tries = []
    for k, (sx, sy) in spots:
        r = pygame.Rect(round(sx), round(sy), w, h)
        if not area.contains(r):
            if not q.must or k:
                continue
            r.clamp_ip(area)
        tries.append((k, r))
    if not tries:
        return None
    # (only the labels and bases that could cover one of its spots are measured against each:
    # at full size a label tried at a few dozen spots among ~400 bases)
    reach = tries[0][1].unionall([r for _k, r in tries])
    taken = [taken[i] for i in reach.collidelistall(taken)]
    blockers = [blockers[i] for i in reach.collidelistall(blockers)]
    marks = [marks[i] for i in reach.collidelistall(marks)] if marks else ()
    clear = None  # (marks and bases covered, ring, rect) of the best spot clear of the other labels
    for k, r in tries:
        on_labels, on_bases = _covered(r, taken), _covered(r, blockers)
        if on_labels + on_bases == 0:
            return r, k
        if not q.must:
            continue
        if not on_labels:   # (a ring farther out counts as a whole label's area of bases more)
            cover = (_covered(r, marks) if marks else 0, on_bases + k * w * h)
            if clear is None or (cover, k) < clear[:2]:
                clear = (cover, k, r)
        cost = on_labels * 4 + on_bases
        if k == 0 and (best is None or cost < best_cost):
            best, best_cost, best_k = r, cost, k
    if clear is not None:
        return clear[2], clear[1]
    if best is None or not q.pinned:
        return None   # (no spot clear of the names placed before: text over text reads as neither)
    return best, best_k


_SPOTS: dict[tuple, list] = {}


def _touching(poly, w: int, h: int, gap: int, avoid) -> list:
    """touching_spots, kept per polygon, size and the other areas (they move only with the
    camera: a drag re-places the labels every frame and must not search them again)."""
    key = (tuple(poly), w, h, gap, tuple(tuple(p) for _b, p in avoid))
    got = _SPOTS.get(key)
    if got is None:
        if len(_SPOTS) > 4000:
            _SPOTS.clear()
        got = _SPOTS[key] = list(touching_spots(poly, w, h, gap, avoid))
    return got


def touching_spots(poly, w: int, h: int, gap: int, avoid=()):
    """Top-left corners of a w x h label on or touching the polygon ``poly`` (screen points),
    nearest the middle first: under it, over it, on its middle, beside it, then beside each of
    its corners and edges' midpoints. Every spot lies within ``gap`` + 2 px of the polygon and
    on none of the ``avoid`` polygons ((box, points) of the other areas): a feature's name never
    floats away from it or sits on another feature (issue 28: a terrain name pushed elsewhere by
    the labels placed before it read as another feature's)."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    first = [(cx - w / 2, max(ys) + gap), (cx - w / 2, min(ys) - h - gap), (cx - w / 2, cy - h / 2),
             (max(xs) + gap, cy - h / 2), (min(xs) - w - gap, cy - h / 2)]
    points = list(poly) + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(poly, poly[1:] + poly[:1])]
    more = []
    for x, y in points:
        more += [(x - w / 2, y + gap), (x - w / 2, y - h - gap), (x + gap, y - h / 2), (x - w - gap, y - h / 2),
                 (x - w / 2, y - h / 2)]
    more.sort(key=lambda p: ((p[0] + w / 2 - cx) ** 2 + (p[1] + h / 2 - cy) ** 2, p))
    reach = gap + 2
    for sx, sy in first + more:
        if rect_polygon_distance((sx, sy, w, h), poly) <= reach:
            r = pygame.Rect(round(sx), round(sy), w, h)
            if not any(r.colliderect(b) and rect_polygon_distance((sx, sy, w, h), q) == 0 for b, q in avoid):
                yield sx, sy


def rect_polygon_distance(rect, poly) -> float:
    """The distance in px between a rect (x, y, w, h) and a polygon: 0 where they overlap."""
    x, y, w, h = rect
    x1, y1 = x + w, y + h
    if any(x <= px <= x1 and y <= py <= y1 for px, py in poly):
        return 0.0
    corners = [(x, y), (x1, y), (x1, y1), (x, y1)]
    if any(_inside(c, poly) for c in corners):
        return 0.0
    best = math.inf
    for a, b in zip(poly, poly[1:] + poly[:1]):
        for c, d in zip(corners, corners[1:] + corners[:1]):
            best = min(best, _segment_distance(a, b, c, d))
    return best


def _inside(pt, poly) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x0 + (y - y0) * (x1 - x0) / (y1 - y0) > x:
            inside = not inside
    return inside


def _point_segment(p, a, b) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _segment_distance(a, b, c, d) -> float:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    if (side(a, b, c) > 0) != (side(a, b, d) > 0) and (side(c, d, a) > 0) != (side(c, d, b) > 0):
        return 0.0
    return min(_point_segment(a, c, d), _point_segment(b, c, d), _point_segment(c, a, b), _point_segment(d, a, b))


_BG: dict[tuple, pygame.Surface] = {}


def draw(surf, placed: list[Placed]) -> None:
    for p in placed:
        if p.leader is not None:
            (ax, ay), (bx, by) = p.leader
            pygame.draw.line(surf, S.TEXT_DIM, (ax, ay), (bx, by), 1)
            pygame.draw.circle(surf, S.TEXT_DIM, (bx, by), 2)
        key = (p.rect.size, p.alpha)
        bg = _BG.get(key)
        if bg is None:
            if len(_BG) > 500:
                _BG.clear()
            bg = _BG[key] = pygame.Surface(p.rect.size, pygame.SRCALPHA)
            bg.fill((24, 28, 26, p.alpha))
        surf.blit(bg, p.rect.topleft)
        surf.blit(p.surf, (p.rect.x + 4, p.rect.y))


# --- the requests of each kind --------------------------------------------------------------

def terrain_requests(cam, terrain, ui: float) -> list[Request]:
    """Each terrain area's name on or touching the area (optional): the full name where a spot
    is free, else its first word ("armoured..."), else none (the hover tip names the area)."""
    if cam.scale < 7:
        return []
    fs = font_px(cam.scale, ui, 11)
    colour = S.shade(S.AREA_EDGE, 0.9)
    shapes = []
    for area in terrain:
        pts = [tuple(cam.to_screen(x, y)) for x, y in area.polygon]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs) - min(xs)) + 1,
                          math.ceil(max(ys) - min(ys)) + 1)
        shapes.append((box, pts))
    out = []
    for i, (area, (box, pts)) in enumerate(zip(terrain, shapes)):
        short = abbreviation(area.name)
        others = tuple(s for j, s in enumerate(shapes) if j != i)
        out.append(Request(TERRAIN, str(i), text(area.name, fs, colour), box, must=False, first="below", alpha=90,
                           short=None if short is None else text(short, fs, colour), touch=pts, avoid=others))
    return out


def abbreviation(name: str) -> str | None:
    """A terrain name's short form where there is no room for it in full: its first word and an
    ellipsis ("armoured container" -> "armoured…"); None for a name of one short word."""
    words = name.split()
    if len(words) > 1:
        return words[0] + "…"
    return name[:4] + "…" if len(name) > 6 else None


def zone_requests(cam, zones, colours, names, ui: float) -> list[Request]:
    """Each deployment zone's name, inside the zone along its edge nearest the middle of the
    board, at the first free spot from the left (optional)."""
    if cam.scale < 7:
        return []
    out = []
    mid_y = cam.to_screen(0, cam.board[1] / 2)[1]
    fs = font_px(cam.scale, ui, 11)
    for p, zone in enumerate(zones):
        if p >= len(colours) or len(zone) < 3:
            continue
        c = S.mix(colours[p], S.MAT, 0.25)
        pts = [cam.to_screen(x, y) for x, y in zone]
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        name = names[p]
        owner = f"{name}{chr(39) if name.endswith('s') else chr(39) + 's'}"
        t = text(f"{owner} deployment zone", fs, S.mix(c, S.TEXT, 0.55))
        short = text(f"{owner} zone", fs, S.mix(c, S.TEXT, 0.55))  # (where the full name has no room)
        w, h = t.get_width() + 8, t.get_height()
        near_bottom = abs(max(ys) - mid_y) < abs(min(ys) - mid_y)
        rows = [max(ys) - h - 3, max(ys) - 2 * h - 5] if near_bottom else [min(ys) + 3, min(ys) + h + 5]
        box = pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
        step = max(8, w // 3)
        spots = [(x, y) for y in rows for x in range(round(min(xs)) + 4, round(max(xs)) - w - 3, step)]
        out.append(Request(ZONE, str(p), t, box, must=False, alpha=60, spots=spots, short=short))
    return out


def objective_requests(cam, ts, colours, names, ui: float, colour_of) -> list[Request]:
    """Each objective's name, under its marker."""
    from sim.rules import objectives as OBJ
    if cam.scale < MIN_SCALE:
        return []
    fs = font_px(cam.scale, ui, 11)
    r = max(4.0, cam.length(OBJ.MARKER_DIAMETER / 2))
    out = []
    for o in ts.objectives:
        colour, _ = colour_of(ts, o.name, colours)
        cx, cy = cam.to_screen(o.x, o.y)
        label = o.name if o.kind != "home" or o.owner is None else f"{names[o.owner]} home"
        box = pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r))
        out.append(Request(OBJECTIVE, o.name, text(label, fs, S.mix(colour, S.TEXT, 0.6)), box, first="below",
                           alpha=140))
    return out


def objective_blockers(cam, ts) -> list[pygame.Rect]:
    from sim.rules import objectives as OBJ
    r = max(4.0, cam.length(OBJ.MARKER_DIAMETER / 2))
    out = []
    for o in ts.objectives:
        cx, cy = cam.to_screen(o.x, o.y)
        out.append(pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r)))
    return out


def unit_requests(cam, scene, look, hulls, ui: float) -> list[Request]:
    """Each unit's name (and "engaged") beside its outline, the selected one highlighted."""
    if cam.scale < MIN_SCALE:
        return []
    fs = font_px(cam.scale, ui, 12)
    out = []
    k = cam.scale
    for uid, uv in scene.units.items():
        hull = hulls.get(uid)
        if uv.destroyed or hull is None or not len(hull):
            continue
        (lx, ly), (hx, hy) = hull.min(axis=0).tolist(), hull.max(axis=0).tolist()
        box = pygame.Rect(math.floor(cam.ox + lx * k), math.floor(cam.oy + ly * k),
                          max(1, math.ceil((hx - lx) * k)), max(1, math.ceil((hy - ly) * k)))
        colour = S.SELECT if uid == look.selected_unit else S.TEXT_DIM
        note = look.notes.get(uid)
        t = text(uv.name + ("  - engaged" if uv.engaged else "") + (f"  - {note}" if note else ""), fs,
                 S.HIGHLIGHT if note else colour)
        out.append(Request(UNIT, uid, t, box, pinned=uid == look.selected_unit or bool(note)))
    return out


def wound_marks(cam, scene, moved: dict | None = None) -> tuple:
    """The screen boxes of the wounds counts written on large models (sim.sandbox.draw_table
    ._pips: more than COUNTED W), as wide as the widest count. ``moved``: model id -> the
    footprint a model is drawn at instead of its own (a staged move's ghost)."""
    from sim.sandbox.draw_table import COUNTED, count_text, count_topleft, pips_radius
    out = []
    k = cam.scale
    for m in scene.models.values():
        if not (m.alive and m.W > COUNTED):
            continue
        fp = m.fp if moved is None else moved.get(m.id, m.fp)
        r = pips_radius(fp, k)
        if r is None:
            continue   # (too small a base for any pip: none is written)
        t = count_text(m.W, m.W, r)
        x, y = count_topleft(cam.ox + fp.x * k, cam.oy + fp.y * k, r, t)
        out.append(pygame.Rect(round(x), round(y), t.get_width(), t.get_height()))
    return tuple(out)


def hint_text(hidden: int, cam, ui: float, width: int | None = None) -> pygame.Surface:
    """The words saying that ``hidden`` units' names were left out for want of room, and where
    to read them (shorter where the full words are wider than ``width`` px)."""
    fs = font_px(cam.scale, ui, 11)
    plural = "s" if hidden != 1 else ""
    t = text(f"{hidden} unit name{plural} left out for room: hover a model for its unit, or zoom in", fs, S.TEXT_DIM)
    if width is not None and t.get_width() + 8 > width:
        t = text(f"{hidden} name{plural} left out: hover a model", fs, S.TEXT_DIM)
    return t


def hint_rect(cam, area: pygame.Rect, surf: pygame.Surface) -> pygame.Rect:
    """Where the hint goes: under the table's ``area``, kept within the viewport (over the
    table's bottom edge where the window leaves no room under it)."""
    return pygame.Rect(area.left, area.bottom + 2, surf.get_width() + 8, surf.get_height()).clamp(cam.viewport)


class TableLabels:
    """The names on the table, placed again only when what they depend on changes (the scene,
    the camera, the selection, the UI scale, who controls each objective; every frame while a
    unit is dragged)."""

    def __init__(self):
        self.key = None
        self.placed: list[Placed] = []
        self.hidden = 0  # units in sight whose names were left out for want of room (the hint's count)
        self.pinned_first = False  # whether the last placement put the pinned names first (place_ordered)

    def draw(self, surf, cam, scene, look, hulls, drawn, terrain, ts, colours, names) -> dict[str, pygame.Rect]:
        """Places (or reuses) and draws every label; returns the units' label rects by unit id.
        ``hulls``: draw_table's UnitHulls (its cache of base rects); ``drawn``: the outlines
        draw_units drew this frame."""
        from sim.sandbox.markers import objective_colour
        control = () if ts is None else tuple(sorted((n, getattr(c, "controller", None))
                                                     for n, c in ts.control.items()))
        key = (scene.version, cam.key, look.selected_unit, look.ui, control, len(terrain), tuple(colours),
               tuple(sorted(look.notes.items())))
        if look.ghosts or key != self.key:
            self.placed = self._place(cam, scene, look, hulls, drawn, terrain, ts, colours, names,
                                      objective_colour)
            self.key = None if look.ghosts else key
        draw(surf, self.placed)
        return {p.key: p.rect for p in self.placed if p.kind == UNIT}

    def _place(self, cam, scene, look, hulls, drawn, terrain, ts, colours, names, colour_of) -> list[Placed]:
        from sim.sandbox.draw_table import COUNTED, _base_rect, _ghost_fp
        bkey = (scene.version, cam.key)
        if hulls.bases[0] == bkey:
            bases = hulls.bases[1]
        else:
            bases = {m.id: _base_rect(cam, m.fp) for m in scene.models.values() if m.alive}
            hulls.bases = (bkey, bases)
        if look.ghosts:
            bases = dict(bases)
            for mid in look.ghosts:
                m = scene.models.get(mid)
                if m is not None and m.alive:
                    bases[mid] = _base_rect(cam, _ghost_fp(m, look))
        blockers = list(bases.values())
        big = [mid for mid in look.ghosts if getattr(scene.models.get(mid), "W", 0) > COUNTED] if look.ghosts else ()
        if big:   # (a large model dragged: its count's box goes with it)
            marks = wound_marks(cam, scene, {mid: _ghost_fp(scene.models[mid], look) for mid in big})
        else:
            marks = getattr(hulls, "marks", (None, ()))
            if marks[0] != bkey:   # (the wounds counts' boxes: kept beside the bases' while nothing moves)
                marks = hulls.marks = (bkey, wound_marks(cam, scene))
            marks = marks[1]
        units = unit_requests(cam, scene, look, drawn, look.ui)
        reqs = units + terrain_requests(cam, terrain, look.ui)
        if ts is not None:
            blockers += objective_blockers(cam, ts)
            reqs += objective_requests(cam, ts, colours, names, look.ui, colour_of)
            if ts.zones():
                reqs += zone_requests(cam, ts.zones(), colours, names, look.ui)
        gap, area = max(2, round(3 * look.ui)), table_area(cam)

        def left_out(placed) -> int:
            named = {p.key for p in placed if p.kind == UNIT}
            return sum(1 for q in units if q.key not in named and q.box.colliderect(cam.viewport))

        # (the hint's room under the table kept first, for the widest count; while a unit is
        # dragged, from the last placement's count: one pass a frame)
        vw = cam.viewport.w

        def room() -> pygame.Rect:
            return hint_rect(cam, area, hint_text(len(units), cam, look.ui, vw))

        at = room() if self.hidden and look.ghosts else None
        order = self.pinned_first if look.ghosts else None   # (a drag's frames: the last placement's order)
        placed, self.pinned_first = place_ordered(reqs, blockers, cam.viewport, gap, area,
                                                  () if at is None else (at,), marks, order)
        self.hidden = left_out(placed)
        if self.hidden and at is None:   # (placed again with the hint's room kept)
            at = room()
            placed, self.pinned_first = place_ordered(reqs, blockers, cam.viewport, gap, area, (at,), marks, order)
            self.hidden = left_out(placed)
        if self.hidden:
            t = hint_text(self.hidden, cam, look.ui, vw)
            placed.append(Placed(HINT, "hint", pygame.Rect(at.topleft, (t.get_width() + 8, t.get_height())),
                                 t, alpha=170))
        return placed


def terrain_tip(sb) -> list[str]:
    """The hover tip's line naming the terrain area under the pointer when the table does not
    write its name in full (left out or shortened for want of room)."""
    shown = {p.key for p in sb.table_labels.placed if p.kind == TERRAIN and not p.short}
    x, y = sb.camera.to_table(*sb.mouse)
    for i, area in enumerate(sb.spec.terrain):
        if str(i) not in shown and _inside((x, y), list(area.polygon)):
            return [f"{area.name} (terrain area)"]
    return []


def hovered_box(sb) -> pygame.Rect | None:
    """The screen box of the unit (or the model) under the cursor: what a hover tip describes,
    which it must not cover (sim.sandbox.overlays.tip_rect)."""
    cam = sb.camera
    uid = sb.hover_unit
    if uid is None and sb.hover_model in sb.scene.models:
        uid = sb.scene.models[sb.hover_model].unit
    hull = sb.hulls.get(sb.scene).get(uid) if uid is not None else None
    if hull is None or not len(hull):
        return None
    (lx, ly), (hx, hy) = hull.min(axis=0).tolist(), hull.max(axis=0).tolist()
    k = cam.scale
    return pygame.Rect(math.floor(cam.ox + lx * k), math.floor(cam.oy + ly * k),
                       max(1, math.ceil((hx - lx) * k)), max(1, math.ceil((hy - ly) * k)))


def hovered_boxes(sb) -> list[pygame.Rect]:
    """hovered_box and the label naming that unit on the table: a hover tip covers neither (it
    covered "Raider Sharpshooters" while describing one of its models)."""
    box = hovered_box(sb)
    if box is None:
        return []
    uid = sb.hover_unit
    if uid is None and sb.hover_model in sb.scene.models:
        uid = sb.scene.models[sb.hover_model].unit
    label = (getattr(sb, "label_rects", None) or {}).get(uid)
    return [box] if label is None else [box, label]


def near_model_boxes(sb, reach_px: float = 160) -> list[pygame.Rect]:
    """The screen boxes of the models on the table within ``reach_px`` of the pointer (a fight's
    or a shot's targets sit there): a hover tip keeps clear of them where it can."""
    cam = sb.camera
    mx, my = sb.mouse
    k = cam.scale
    out = []
    for m in sb.scene.models.values():
        if not m.alive or m.removed:
            continue
        x, y = cam.to_screen(m.x, m.y)
        if abs(x - mx) > reach_px or abs(y - my) > reach_px:
            continue
        r = max(2, math.ceil(m.radius * k))
        out.append(pygame.Rect(math.floor(x) - r, math.floor(y) - r, 2 * r, 2 * r))
    return out


def table_area(cam) -> pygame.Rect:
    """The board's part of the viewport on screen (labels stay on the table, not over its edge);
    the viewport when the board shows too little of itself to hold them."""
    (x0, y0), (x1, y1) = cam.to_screen(0, 0), cam.to_screen(*cam.board)
    board = pygame.Rect(math.ceil(x0), math.ceil(y0), math.floor(x1 - x0) - 1, math.floor(y1 - y0) - 1)
    area = cam.viewport.clip(board)
    return area if area.w >= 120 and area.h >= 60 else cam.viewport
