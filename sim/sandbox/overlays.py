"""Overlays drawn over the table: move range rings, lines of sight, tooltips, help.

Visibility comes from ``battle.visibility`` (the battle's own index) for models where they
stand; while a unit is being dragged, the lines from its ghost positions are computed with the
pure line-of-sight rules (sim.rules.visibility.sight) on the scenario's terrain. Nothing is written."""

from __future__ import annotations

import time

import pygame

from sim.rules.visibility import sight as VR
from sim.sandbox import style as S
from sim.sandbox.draw_table import _dashed_line
from sim.sandbox.fonts import text


def draw_move_rings(surf, cam, scene, look) -> None:
    """The M (or advance) range: where each dragged model's base can reach, and its path."""
    for mid, (x, y, limit) in look.drag_origin.items():
        m = scene.models.get(mid)
        if m is None:
            continue
        cx, cy = cam.to_screen(x, y)
        R = cam.length(limit + m.fp.length / 2)
        if R > 2 and (mid == look.grab or look.grab not in look.drag_origin):
            iR = round(R)  # (whole pixels: a float size, centre and blit each truncate, ~3 px short)
            ring = pygame.Surface((2 * iR + 5, 2 * iR + 5), pygame.SRCALPHA)
            c = (iR + 2, iR + 2)
            pygame.draw.circle(ring, (*S.RING, 22), c, iR)
            pygame.draw.circle(ring, (*S.RING, 150), c, iR, 1)
            surf.blit(ring, (round(cx) - iR - 2, round(cy) - iR - 2))
            lab = text(look.ring_label or f'{limit:g}"', 12, S.RING)
            top = (surf.get_clip() or surf.get_rect()).top + 2  # (kept on the table when the ring is not)
            surf.blit(lab, (cx - lab.get_width() / 2, max(top, cy - R - lab.get_height() - 1)))
        g = look.ghosts.get(mid)
        if g is not None:
            gx, gy = cam.to_screen(*g)
            if mid == look.grab:
                _dashed_line(surf, S.RING, (cx, cy), (gx, gy), 4)
            pygame.draw.circle(surf, S.shade(S.RING, 0.7), (cx, cy), max(2, cam.length(m.fp.length / 2)), 1)


# The progressive sight work of the two overlays while a drag moves (the sight mask, up to half
# of it, then the lines of sight: SightMask.draw, LosCache) takes what the rest of a frame's draw
# leaves of DRAW_AIM seconds, measured on the frame before: the frame stays under the 16 ms of
# issue 29 (a 60 Hz frame is 16.7 ms; the update before the draw takes ~1 ms), each overlay
# catching up with the drag within a few frames, sooner on a faster machine; never less than
# LEAST (the work always moves on) nor more than MOST (what the overlays kept before: 4 ms each).
DRAW_AIM = 0.0135
LEAST, MOST = 0.001, 0.008


def progressive_budget(rest: float | None) -> float:
    """Seconds this frame gives the overlays' progressive sight work: DRAW_AIM less ``rest``
    (the last frame's draw without that work; None: no frame drawn yet, MOST), within LEAST and
    MOST."""
    if rest is None:
        return MOST
    return min(MOST, max(LEAST, DRAW_AIM - rest))


class LosCache:
    """Lines of sight for the overlay. Where models stand, the battle's own visibility answers.
    For a dragged (ghost) observer the pure rules are evaluated progressively: each frame
    spends at most ``budget`` seconds on new pairs (one pair at least), keeping the previous
    answer for the rest, so the overlay follows the drag live while the frame time stays flat.
    The pairs go stalest first (those answered longest ago, for an earlier position), so that
    when a frame's budget does not reach every pair (many enemy models), every line is still
    brought up to date within a few frames instead of the same ones every frame."""

    def __init__(self, battle, budget: float = 0.004):
        self.battle = battle
        self.budget = budget
        self.key = None
        self.lines: list[tuple] = []
        self._blk = None
        self._within: dict[str, object] = {}
        self._within_version = None
        self._states: dict[tuple[str, str], str] = {}
        self._base = None  # (scene version, observers): what _states belong to
        self._job: list[tuple[str, str]] = []
        self._asked = 0  # (pairs answered so far: each pair's answer is stamped with the count)
        self._answered: dict[tuple[str, str], int] = {}
        self._origin: dict[str, tuple[float, float]] = {}
        self._pairs: list[tuple[str, str]] = []

    @property
    def blockers(self):
        if self._blk is None:
            self._blk = VR.TerrainBlockers.build(self.battle.scenario.terrain)
        return self._blk

    def _within_of(self, scene, m):
        if self._within_version != scene.version:
            self._within, self._within_version = {}, scene.version
        w = self._within.get(m.id)
        if w is None:
            w = self._within[m.id] = self.blockers.within(m.fp)
        return w

    def compute(self, scene, observers, ghosts):
        """observers: model ids. Returns [(observer id, target id, state, origin)] with state in
        'full', 'visible', 'blocked' or 'pending' (not yet evaluated for this ghost position)."""
        observers = tuple(observers)
        gkey = tuple((k, round(v[0], 3), round(v[1], 3)) for k, v in sorted(ghosts.items()) if k in observers)
        key = (scene.version, observers, gkey)
        base = (scene.version, observers)
        if key != self.key:
            self.key = key
            if base != self._base:
                self._states, self._base, self._answered = {}, base, {}
            self._pairs, self._origin = [], {}
            for oid in observers:
                o = scene.models[oid]
                self._origin[oid] = ghosts.get(oid, o.fp.centre)
                for t in scene.models.values():
                    if t.alive and t.owner != o.owner:
                        self._pairs.append((oid, t.id))
            ghosted = [p for p in self._pairs if p[0] in ghosts]
            plain = [p for p in self._pairs if p[0] not in ghosts]
            # (stalest first: work pops from the end)
            self._job = sorted(ghosted, key=lambda p: -self._answered.get(p, -1))
            vis = self.battle.visibility
            for oid, tid in plain:
                state = "blocked"
                if vis.model_visible(oid, tid):
                    state = "full" if vis.fully_visible(oid, tid) else "visible"
                self._states[(oid, tid)] = state
        if self._job:
            self._work(scene, ghosts)
        self.lines = [(oid, tid, self._states.get((oid, tid), "pending"), self._origin[oid])
                      for oid, tid in self._pairs]
        return self.lines

    def _work(self, scene, ghosts) -> None:
        t_end = time.perf_counter() + self.budget
        blk = self.blockers
        cache: dict[str, tuple] = {}
        first = True
        while self._job and (first or time.perf_counter() < t_end):
            first = False
            oid, tid = self._job.pop()
            self._asked += 1
            self._answered[(oid, tid)] = self._asked
            if oid not in cache:
                ofp = scene.models[oid].fp.moved(*ghosts[oid])
                cache[oid] = (ofp, blk.within(ofp))
            ofp, wa = cache[oid]
            t = scene.models[tid]
            wb = self._within_of(scene, t)
            state = "blocked"
            if VR.model_visible(ofp, t.fp, blk, wa, wb):
                state = "full" if VR.model_fully_visible(ofp, t.fp, blk, wa, wb) else "visible"
            self._states[(oid, tid)] = state


def draw_los(surf, cam, scene, lines) -> None:
    col = {"full": S.LOS_FULL, "visible": S.LOS_VISIBLE, "blocked": S.LOS_BLOCKED, "pending": S.TEXT_DIM}
    if not lines:
        return
    pts = []
    for _oid, tid, _state, (ox, oy) in lines:
        t = scene.models[tid]
        pts.append(cam.to_screen(ox, oy))
        pts.append(cam.to_screen(t.x, t.y))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    box = pygame.Rect(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs) - min(xs)) + 5,
                      int(max(ys) - min(ys)) + 5).clip(surf.get_clip() or surf.get_rect())
    if box.w <= 0 or box.h <= 0:
        return
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    seen_targets: dict[str, str] = {}
    for _oid, tid, state, (ox, oy) in lines:
        t = scene.models[tid]
        a = cam.to_screen(ox, oy)
        b = cam.to_screen(t.x, t.y)
        a = (a[0] - box.x, a[1] - box.y)
        b = (b[0] - box.x, b[1] - box.y)
        alpha = 70 if state == "blocked" else 40 if state == "pending" else 120
        pygame.draw.line(layer, (*col[state], alpha), a, b, 1)
        prev = seen_targets.get(tid)
        if state == "pending":
            continue
        if prev is None or prev == "blocked" or (prev == "visible" and state == "full"):
            seen_targets[tid] = state
    surf.blit(layer, box.topleft)
    for tid, state in seen_targets.items():
        t = scene.models[tid]
        c = cam.to_screen(t.x, t.y)
        r = cam.length(t.fp.bounding_radius) + 3
        if state == "blocked":
            pygame.draw.circle(surf, S.LOS_BLOCKED, c, r, 1)  # hidden from the observer
        else:
            pygame.draw.circle(surf, col[state], c, r, 2 if state == "full" else 1)


def draw_cover_marks(surf, cam, scene, covered: set) -> None:
    """Units that would have the benefit of cover: a small shield by the unit."""
    for uid in covered:
        uv = scene.units.get(uid)
        if uv is None or uv.destroyed:
            continue
        ms = scene.living(uid)
        x = max(m.x + m.radius for m in ms)
        y = min(m.y - m.radius for m in ms)
        sx, sy = cam.to_screen(x, y)
        pts = [(sx + 2, sy - 8), (sx + 12, sy - 8), (sx + 12, sy - 2), (sx + 7, sy + 4), (sx + 2, sy - 2)]
        pygame.draw.polygon(surf, S.COVER, pts)
        pygame.draw.polygon(surf, (20, 30, 40), pts, 1)


def draw_hidden_marks(surf, cam, scene, hidden: list[str]) -> None:
    """13.09 Hidden models: a dashed lavender ring round the base (such a model is visible to
    enemies only within their detection range, 15")."""
    for mid in hidden:
        m = scene.models.get(mid)
        if m is None or not m.alive:
            continue
        x, y = cam.to_screen(m.x, m.y)
        r = max(4, cam.length(m.radius)) + 4
        box = (x - r, y - r, 2 * r, 2 * r)
        for k in range(10):  # ten dashes
            a = k * 0.6283
            pygame.draw.arc(surf, S.HIDDEN, box, a, a + 0.38, 2)


def tip_rect(pos, size, window, avoid=None, ui: float = 1.0, others=()) -> pygame.Rect:
    """Where a tooltip of ``size`` goes: beside the cursor (below right, then above right, below
    left, above left), inside ``window``, the first place that does not cover ``avoid`` (the
    screen box of what it describes; or a list: that box and its name's label) nor any of ``others`` (the models near the pointer: the
    targets a player may click next); else the place covering fewest of them (never ``avoid``
    where a place clear of it exists)."""
    w, h = size
    dx, dy = round(16 * ui), round(14 * ui)
    x, y = pos
    keep = [] if avoid is None else [avoid] if isinstance(avoid, pygame.Rect) else [a for a in avoid if a is not None]
    avoid = keep[0] if keep else None  # (the thing itself; the rest: its name on the table)
    tries = [(x + dx, y + dy), (x + dx, y - dy - h), (x - dx - w, y + dy), (x - dx - w, y - dy - h)]
    if avoid is not None:  # (then clear of the whole box: right of it, left of it, under, over)
        tries += [(avoid.right + 4, y - h // 2), (avoid.left - 4 - w, y - h // 2), (x - w // 2, avoid.bottom + 4),
                  (x - w // 2, avoid.top - 4 - h)]
    if others:  # (further out: past the pointer's neighbourhood)
        far = round(90 * ui)
        tries += [(x + far, y + dy), (x - far - w, y + dy), (x - w // 2, y + far), (x - w // 2, y - far - h),
                  (x + far, y - far - h), (x - far - w, y - far - h), (x + far, y + far), (x - far - w, y + far)]
    best, best_cost = None, None
    for tx, ty in tries:
        r = pygame.Rect(tx, ty, w, h)
        r.x = min(max(r.x, window.x + 4), window.right - w - 4)
        r.y = min(max(r.y, window.y + 4), window.bottom - h - 4)
        cost = 1000 * len(r.collidelistall(keep)) + len(r.collidelistall(list(others)))
        if cost == 0:
            return r
        if best_cost is None or cost < best_cost:
            best, best_cost = r, cost
    return best


def draw_tip(surf, pos, lines, colour=S.TEXT, ui: float = 1.0, avoid=None, others=()) -> pygame.Rect | None:
    """A small tooltip box near the cursor (for table hover info); ``ui``: the UI scale;
    ``avoid``: the screen box of what it describes (the tip does not cover it where it fits);
    ``others``: boxes it keeps clear of where it can (the models near the pointer)."""
    if not lines:
        return None
    ts = [text(l, S.font_px(12, ui), colour) for l in lines]
    w = max(t.get_width() for t in ts) + 12
    h = sum(t.get_height() for t in ts) + 8
    r = tip_rect(pos, (w, h), surf.get_rect(), avoid, ui, others)
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((28, 30, 26, 225))
    pygame.draw.rect(box, (138, 132, 96), box.get_rect(), 1)
    surf.blit(box, r.topleft)
    yy = r.y + 4
    for t in ts:
        surf.blit(t, (r.x + 6, yy))
        yy += t.get_height()
    return r


HELP = [
    ("Mouse", ""),
    ("left click", "select a unit / pick a target / pick a highlighted CHARACTER"),
    ("left drag", "move the selected unit; red: why it would be refused"),
    ("Shift + drag", "one model at a time; Enter confirms the unit's move, Esc drops it"),
    ("R  or  wheel", "turn a dragged or carried unit, or a charge's ghost (Shift+R back)"),
    ("hover a weapon", "on the unit card: its range ring (and half range)"),
    ("right / middle drag", "pan the table"),
    ("wheel  or  +  /  -", "zoom about the cursor / in / out"),
    ("Keys", ""),
    ("S", "shoot with the selected unit"),
    ("F", "fight with the selected unit"),
    ("M", "this unit's move type: normal / advance / fall back (reset after its move)"),
    ("C  /  I  /  O", "charge / pile in / consolidate: drag the ghosts, Enter confirms"),
    ("hold T, drag", "measuring tape (from or to a model: edge to edge)"),
    ("Enter", "resolve the declared attacks"),
    ("Space  or  N", "step the attack sequence one tick"),
    ("P", "auto-play on / off"),
    ("Esc", "cancel the current order / clear selection"),
    ("V", "sight: shade what the selected model cannot see, lines of sight"),
    ("Tab", "next unit"),
    ("E", "start the battle / end the phase (free play: the turn)"),
    ("K", "skip empty phases after End phase: on / off"),
    ("A   .   [   ]", "the computer: pause / resume, one command, slower, faster"),
    ("Ctrl+Z", "undo the phase's last command;  Ctrl+R  restart"),
    ("Home  or  0", "fit the table to the window"),
    ("Ctrl+S", "save the replay log;  Ctrl+T  save the table"),
    ("Ctrl+O", "open a replay: Left / Right (Backspace) a step, Shift a command, P plays"),
    ("F2", "set up the table: R rotates, D duplicates, H sets a dense height"),
    ("Del  or  Backspace", "in set-up: remove the selected piece"),
    ("F1  or  ?", "this help"),
]


def draw_help(surf, ui: float = 1.0) -> None:
    sw, sh = surf.get_size()
    # rows of 24 at the UI scale, closer when the window is too short for them all
    lh = max(15, min(round(24 * ui), (sh - round(80 * ui)) // len(HELP)))
    fs, k = S.font_px(13, ui), lh / 24
    w, h = min(sw - 20, round(660 * ui)), lh * len(HELP) + round(60 * ui)
    x, y = (sw - w) // 2, max(10, (sh - h) // 2)
    veil = pygame.Surface((sw, sh), pygame.SRCALPHA)
    veil.fill((10, 12, 10, 150))
    surf.blit(veil, (0, 0))
    box = pygame.Rect(x, y, w, h)
    pygame.draw.rect(surf, (36, 40, 37), box, border_radius=6)
    pygame.draw.rect(surf, (120, 128, 110), box, 1, border_radius=6)
    t = text("Keyboard and mouse", S.font_px(18, ui), S.TEXT, True)
    surf.blit(t, (x + round(20 * ui), y + round(14 * ui)))
    yy = y + round(48 * ui)
    fs = S.font_px(13, ui) if k > 0.8 else S.font_px(12, min(ui, 1.0))
    for key, v in HELP:
        if not v:
            surf.blit(text(key, fs, S.CHARACTER, True), (x + round(20 * ui), yy))
        else:
            surf.blit(text(key, fs, S.SELECT), (x + round(36 * ui), yy))
            surf.blit(text(v, fs, S.TEXT), (x + round(210 * ui), yy))
        yy += lh
