"""Moving models, not blocks (issue 28 item 4): a unit's move built one model at a time and
confirmed as one move, a "nearest legal" suggestion when a drag is refused by a small margin,
the move type chosen per unit (reset after its move), rotating a dragged formation, and the
distance each model has moved and has left.

A *staged move* holds ghost positions for some models of one unit: a Shift-drag of a model
(or a drag of a model's ghost) puts that model's ghost there; a plain drag of the unit moves
all its ghosts together; Enter (or the action bar's Confirm) submits ONE Move with every
staged model, which the battle checks as a whole (``Battle.check``, the same rule functions as
any move); Esc drops it. Meanwhile each staged model's ghost shows its own verdict: the
problems ``sim.plan.moves.unit_move_problems`` (the rule function ``Battle.check`` runs) names
for that model, asked once each time the staged positions change.

A mixin of :class:`sim.sandbox.app.Sandbox` (through ``MovesMixin``). Nothing here decides a
rule or writes the world."""

from __future__ import annotations

import math

import pygame

from sim.commands import Move
from sim.errors import PlanError
from sim.names import counted
from sim.plan import moves as MOVES
from sim.rules.movement.turning import turnable
from sim.sandbox import style as S
from sim.sandbox.fonts import text
from sim.sandbox.table_notes import draw_note, ghost_ring, wrap
from sim.world import queries as W

SNAP_RADII = (0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.75, 1.0)  # inches: "a small margin"
SNAP_ANGLES = 16
TURN_STEP = 15.0  # degrees a formation turns per R (or wheel notch) while dragging
MODES = ("normal", "advance", "fall back")
FACING_MODES = MODES + ("scout",)  # the drags whose command turns bases (24.32 a scout move too)


def rotate_about(points: dict, pivot, degrees: float) -> dict:
    """``points`` (id -> (x, y)) turned ``degrees`` counter-clockwise about ``pivot``."""
    if not degrees:
        return dict(points)
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    px, py = pivot
    return {k: (px + (x - px) * c - (y - py) * s, py + (x - px) * s + (y - py) * c) for k, (x, y) in points.items()}


def clamp_to(origin, limit: float, x: float, y: float) -> tuple[float, float]:
    """(x, y) pulled back towards ``origin`` to at most ``limit`` from it."""
    ox, oy = origin
    d = math.hypot(x - ox, y - oy)
    if d > limit > 0:
        f = limit / d
        return ox + (x - ox) * f, oy + (y - oy) * f
    return x, y


def snap_candidates(delta, radii=SNAP_RADII, angles: int = SNAP_ANGLES):
    """Offsets of a refused drag's displacement, nearest first: rings of ``radii`` about it,
    each ring starting with the point pulled back along the drag (the move made shorter)."""
    dx, dy = delta
    back = math.atan2(-dy, -dx) if (dx or dy) else 0.0
    order = [0] + [j * sign for j in range(1, angles // 2 + 1) for sign in (1, -1)][:angles - 1]
    for r in radii:
        for j in order:
            a = back + 2 * math.pi * j / angles
            yield dx + r * math.cos(a), dy + r * math.sin(a)


class UnitMoveMixin:
    """The staged move, per-unit move types and the snap, for the sandbox."""

    # ------------------------------------------------------------------ per-unit move type
    @property
    def move_mode(self) -> str:
        """The move type chosen for the selected unit (normal until chosen; reset after its
        move): no longer one sticky mode for every unit."""
        uid = getattr(self, "selected_unit", None)
        return self._unit_modes().get(uid, "normal") if uid else "normal"

    @move_mode.setter
    def move_mode(self, mode: str) -> None:
        uid = getattr(self, "selected_unit", None)
        if uid and getattr(self, "battle", None) is not None:
            modes = self._unit_modes()
            if mode == "normal":
                modes.pop(uid, None)
            else:
                modes[uid] = mode

    def move_choice(self) -> str:
        """What the selected unit's move is, as one truth for the panel and the bar: the type
        it was selected for this phase (09.02), else the type chosen for its drag."""
        return self.selected_for() or self.move_mode

    def selected_for(self) -> str | None:
        """The move type the selected unit was selected for this phase (09.02), or None."""
        uid = getattr(self, "selected_unit", None)
        b = getattr(self, "battle", None)
        if uid and b is not None and uid in b.units and b.turn_state is not None:
            b._enter()
            chosen = W.unit_state(b.units[uid]).move_selected
            return None if chosen is None else str(chosen)
        return None

    def _unit_modes(self) -> dict:
        if getattr(self, "battle", None) is None:
            return {}
        return self._moves_state().setdefault("modes", {})

    def unit_mode(self, uid: str) -> str:
        return self._unit_modes().get(uid, "normal")

    def moved_unit(self, uid: str) -> None:
        """A move of ``uid`` was made: its chosen type goes back to normal; its staged move ends."""
        self._unit_modes().pop(uid, None)
        st = self._moves_state()
        if st.get("staged") is not None and st["staged"]["unit"] == uid:
            st["staged"] = None
        self.dirty |= {"orders", "action"}

    # ------------------------------------------------------------------ the staged move
    @property
    def staged(self) -> dict | None:
        """{"unit", "mode", "ghosts": {model id: (x, y)}, "origin": {id: (x, y, limit)},
        "faces": {id: the facing its ghost is turned to}, "verdicts": {id: reason}, "reason":
        the whole move's refusal or None, "key"}."""
        if getattr(self, "battle", None) is None:
            return None
        return self._moves_state().get("staged")

    def stage(self, drag) -> None:
        """Keep ``drag``'s ghosts as (part of) its unit's staged move."""
        st = self._moves_state()
        s = st.get("staged")
        if s is None or s["unit"] != drag["unit"]:
            s = st["staged"] = {"unit": drag["unit"], "mode": drag["mode"], "ghosts": {}, "origin": {},
                                "faces": {}, "verdicts": {}, "reason": None, "key": None}
        s["faces"].update(self.drag_faces(drag))
        for mid, g in drag["ghosts"].items():
            o = drag["origin"][mid]
            if math.hypot(g[0] - o[0], g[1] - o[1]) < 1e-4 and not self._turned(mid, s["faces"]):
                s["ghosts"].pop(mid, None)  # (put back where it stands, as it faced: not moved)
                s["origin"].pop(mid, None)
                s["faces"].pop(mid, None)
            else:
                s["ghosts"][mid], s["origin"][mid] = g, o
        if not s["ghosts"]:
            st["staged"] = None
            self.status = f"{self.unit_label(drag['unit'])}: nothing moved"
        else:
            self._judge_staged()
        self.dirty |= {"orders", "action"}

    def staged_command(self) -> Move | None:
        s = self.staged
        if s is None:
            return None
        to = tuple((i, *self._on_table(i, x, y, s["origin"][i])) for i, (x, y) in sorted(s["ghosts"].items()))
        return Move(s["unit"], to, s["mode"], face=self.faces_turned(s["faces"], s["ghosts"])) if to else None

    # ------------------------------------------------------------------ facings (03.01)
    def _turned(self, mid: str, faces: dict) -> bool:
        """Whether ``faces`` turns ``mid`` from the facing it has."""
        return mid in faces and faces[mid] != self.scene.models[mid].fp.angle

    def faces_turned(self, faces: dict, placed) -> tuple:
        """A Move's ``face``: the facings of ``faces`` that turn a model ``placed`` names, by id."""
        return tuple((i, a) for i, a in sorted(faces.items()) if i in placed and self._turned(i, faces))

    def _start_facing(self, mid: str) -> float:
        """Where a dragged model's facing starts: its staged ghost's, else the model's own."""
        s = self.staged
        faces = s.get("faces", {}) if s is not None else {}
        return faces.get(mid, self.scene.models[mid].fp.angle)

    def drag_faces(self, d) -> dict:
        """03.01 The facings of a move's dragged models that are not round: each turned by the
        drag's turn (R, the wheel: the formation's turn, which turns each base with it) from
        where it starts. Empty when the drag has not turned (or is no move)."""
        t = d.get("turn", 0.0)
        if not t or d.get("mode") not in FACING_MODES:
            return {}
        return {i: (self._start_facing(i) + t) % 360.0 for i in d.get("models", ())
                if turnable(self.scene.models[i].fp)}

    def ghost_faces(self, d) -> dict:
        """Every ghost's facing drawn with the drag ``d``: its unit's staged facings, then the
        dragged models' own."""
        s = self.staged
        out = dict(s.get("faces", {})) if s is not None and s["unit"] == d.get("unit") else {}
        out.update(self.drag_faces(d))
        return out

    def _judge_staged(self) -> None:
        """Each staged model's own verdict (the problems naming it), and the whole move's."""
        s = self.staged
        cmd = self.staged_command()
        if s is None or cmd is None:
            return
        b = self.battle
        s["reason"] = b.check(cmd)
        s["verdicts"] = {}
        b._enter()
        try:
            problems = MOVES.unit_move_problems(b, b.units[s["unit"]], cmd,
                                                W.unit_state(b.units[s["unit"]]).move_selected)
        except PlanError as e:
            problems = []
            s["reason"] = s["reason"] or str(e)
        for p in problems:
            if p.model is not None and p.model not in s["verdicts"]:
                s["verdicts"][p.model] = str(p)
        n = len(s["ghosts"])
        name = self.unit_label(s["unit"])
        self.status = (f"{name}: {counted(n, 'model')} placed - " +
                       ("legal: Enter (Confirm move) makes the move, Esc drops it" if s["reason"] is None
                        else f"as it stands it would be refused: {s['reason']} - move more models, or Esc"))

    def confirm_staged(self) -> bool:
        """Enter: the staged move as ONE Move, checked as a whole by the battle."""
        s = self.staged
        cmd = self.staged_command()
        if s is None or cmd is None:
            return False
        reason = self.battle.check(cmd)
        if reason is not None:
            self._judge_staged()
            self.status = f"refused: {reason} (move the models ringed as refused, or Esc to drop the move)"
            return True
        uid = s["unit"]
        if self.submit(cmd):
            self.moved_unit(uid)
        return True

    def drop_staged(self) -> bool:
        st = self._moves_state()
        if st.get("staged") is None:
            return False
        uid = st["staged"]["unit"]
        st["staged"] = None
        self.status = f"{self.unit_label(uid)}: the move was dropped (nothing moved)"
        self.dirty |= {"orders", "action"}
        return True

    def rotate_formation(self, step: int) -> bool:
        """R (or the wheel) while dragging: the dragged models turn about the grabbed one; with
        a staged move and no drag, its ghosts turn about their centre."""
        d = self.drag
        hulls = d is not None and any(turnable(self.scene.models[i].fp) for i in d.get("models", ()))
        if d is not None and (len(d["models"]) > 1 or hulls):
            d["turn"] = (d.get("turn", 0.0) + step * TURN_STEP) % 360
            if d.get("pos") is not None:
                self._drag_motion(d["pos"])
            what = "formation" if len(d["models"]) > 1 else self.scene.models[d["models"][0]].name
            self.status = f"{what} turned {d['turn']:g} degrees (R, wheel)"
            return True
        s = self.staged
        if d is None and s is not None and (len(s["ghosts"]) > 1 or any(
                turnable(self.scene.models[i].fp) for i in s["ghosts"])):
            gs = s["ghosts"]
            c = (sum(x for x, _ in gs.values()) / len(gs), sum(y for _, y in gs.values()) / len(gs))
            turned = rotate_about(gs, c, step * TURN_STEP)
            s["ghosts"] = {i: self._clamped(i, *p, s["origin"][i]) for i, p in turned.items()}
            for i in gs:  # (each base turns with its formation)
                if turnable(self.scene.models[i].fp):
                    s["faces"][i] = (self._start_facing(i) + step * TURN_STEP) % 360.0
            self._judge_staged()
            return True
        return False

    def staged_ghost_at(self, x: float, y: float) -> str | None:
        """The staged model whose ghost is under table (x, y), if any."""
        s = self.staged
        if s is None or self.mode != "battle":
            return None
        for mid, (gx, gy) in s["ghosts"].items():
            m = self.scene.models.get(mid)
            if m is not None and math.hypot(x - gx, y - gy) <= m.radius:
                return mid
        return None

    def _clamped(self, mid: str, x: float, y: float, origin) -> tuple[float, float]:
        x, y = clamp_to(origin[:2], origin[2], x, y)
        r = self.scene.models[mid].radius
        bw, bh = self.spec.board
        return min(max(x, r), bw - r), min(max(y, r), bh - r)

    # ------------------------------------------------------------------ the drag's ghosts
    def drag_ghosts(self, d, tx: float, ty: float) -> dict:
        """Where the dragged models' ghosts go for the pointer at table (tx, ty): each from where
        it starts (its staged ghost, else the model), turned about the grabbed model by the
        formation's turn, displaced by the pointer's travel (at most the move's limit), and
        each kept within its own limit of the model and on the board."""
        dx, dy = tx - d["start"][0], ty - d["start"][1]
        dist = math.hypot(dx, dy)
        limit = min(o[2] for o in d["origin"].values())
        if dist > limit > 0:
            dx, dy = dx * limit / dist, dy * limit / dist
        base = d.get("base") or {i: o[:2] for i, o in d["origin"].items()}
        turned = rotate_about(base, base[d["grab"]] if d["grab"] in base else next(iter(base.values())),
                              d.get("turn", 0.0))
        return {i: self._clamped(i, x + dx, y + dy, d["origin"][i]) for i, (x, y) in turned.items()}

    # ------------------------------------------------------------------ nearest legal
    def nearest_legal(self, drag) -> tuple[dict, float] | None:
        """A refused drag's nearest legal placement: the same formation displaced by the
        nearest offset (rings of SNAP_RADII about where it was dropped) that the battle accepts,
        as (ghosts, how far from the dropped spot); None when none is within the margin."""
        g0 = drag["ghosts"]
        grab = drag["grab"] if drag["grab"] in g0 else next(iter(g0))
        o = drag["origin"][grab]
        delta = (g0[grab][0] - o[0], g0[grab][1] - o[1])
        seen = set()
        for ox, oy in snap_candidates(delta):
            ghosts = {i: self._clamped(i, x + ox - delta[0], y + oy - delta[1], drag["origin"][i])
                      for i, (x, y) in g0.items()}
            key = tuple(sorted((i, round(x, 3), round(y, 3)) for i, (x, y) in ghosts.items()))
            if key in seen:
                continue
            seen.add(key)
            cmd = self.drag_command({**drag, "ghosts": ghosts})
            if cmd is not None and self.battle.check(cmd) is None:
                return ghosts, math.hypot(ox - delta[0], oy - delta[1])
        return None

    def offer_snap(self, drag, reason: str) -> bool:
        """After a refused release: stage the nearest legal placement (Enter takes it)."""
        found = self.nearest_legal(drag)
        if found is None:
            return False
        ghosts, far = found
        st = self._moves_state()
        st["staged"] = None
        self.stage({**drag, "ghosts": ghosts})
        s = self.staged
        if s is not None:
            s["snapped"] = far
            self.status = (f"refused: {reason} - the nearest legal spot, {far:.2f}\" away, is shown: "
                           f"Enter makes the move, Esc drops it")
        return True

    # ------------------------------------------------------------------ drawing
    def staged_look(self, look) -> None:
        s = self.staged
        if s is None:
            return
        ghosts = dict(s["ghosts"])
        if self.drag is not None and self.drag["unit"] == s["unit"]:
            ghosts.update(self.drag["ghosts"])
            look.ghosts = ghosts
            look.ghost_faces = self.ghost_faces(self.drag)
        elif self.drag is None:
            look.ghosts = ghosts
            look.ghost_faces = dict(s.get("faces", {}))

    def draw_staged(self, surf) -> None:
        """Each staged model: its ghost ringed in its own verdict's colour, the distance it has
        moved of its limit, and (for the first refused one) why."""
        s = self.staged
        if s is None:
            return
        cam = self.camera
        dragged = set(self.drag["ghosts"]) if self.drag is not None else set()
        first_bad = None
        labels = []  # (rank, model id, surface, rect): the distance under each ghost
        for mid, g in s["ghosts"].items():
            if mid in dragged or mid not in self.scene.models:
                continue
            m = self.scene.models[mid]
            bad = s["verdicts"].get(mid)
            colour = S.ILLEGAL if bad else (S.LEGAL if s["reason"] is None else S.ENGAGED)
            ghost_ring(surf, cam, m.fp.moved(*g), colour, 2)
            o = s["origin"][mid]
            a, b = cam.to_screen(o[0], o[1]), cam.to_screen(*g)
            pygame.draw.line(surf, S.shade(colour, 0.8), a, b, 1)
            moved = math.hypot(g[0] - o[0], g[1] - o[1])
            lab = text(f'{moved:.1f}"/{o[2]:g}"', 11, colour, True)
            rad = cam.length(m.radius)
            box = pygame.Rect(round(b[0] - rad), round(b[1] - rad), max(1, round(2 * rad)), max(1, round(2 * rad)))
            labels.append(((moved <= o[2] + 1e-6, not bad, -moved, mid), mid, lab, box))
            if bad and first_bad is None:
                first_bad = (b, bad)
        self.staged_labels = []  # (the ones drawn: over the limit or refused first, then the furthest moved)
        self._place_staged_labels(surf, sorted(labels, key=lambda t: t[0]))
        if first_bad is not None and self.drag is None:
            draw_note(surf, first_bad[0], wrap(self.said(first_bad[1])), S.ILLEGAL,  # (names: sim.names)
                      "this model's move would be refused")

    def _place_staged_labels(self, surf, labels) -> None:
        """The staged ghosts' distances, each beside its ghost (under it first, then the other
        sides: sim.sandbox.labels' spots) where it covers no name on the table (terrain, zone,
        unit, objective: a snapped move's "2.4\"/6\"" sat on a terrain name), no model or ghost and
        no other distance; one with no such spot is left out (the further moved kept first)."""
        from sim.sandbox import labels as L
        cam = self.camera
        blockers = [p.rect for p in getattr(self.table_labels, "placed", ())]
        blockers += [box for _r, _m, _l, box in labels]
        bases = self.hulls.bases[1] if getattr(self, "hulls", None) is not None else {}
        ghosted = set(self.staged["ghosts"]) if self.staged is not None else set()
        blockers += [r for mid, r in bases.items() if mid not in ghosted]
        area = L.table_area(cam)
        for _rank, mid, lab, box in labels:
            w, h = lab.get_width() + 8, lab.get_height()
            spots = [p for k, p in L.spots_around(box, w, h, 3, "below") if k == 0]
            got = L.place([L.Request(L.DISTANCE, mid, lab, box, must=False, spots=spots)], blockers, cam.viewport, 3, area)
            if got:
                r = got[0].rect
                surf.blit(lab, (r.x + 4, r.y))
                blockers.append(r)
                self.staged_labels.append((mid, r))

    def draw_drag_distance(self, surf, d) -> None:
        """Beside the grabbed ghost: how far it has moved and how far it may still go."""
        g, o = d["ghosts"].get(d["grab"]), d["origin"].get(d["grab"])
        if g is None or o is None:
            return
        moved = math.hypot(g[0] - o[0], g[1] - o[1])
        left = max(0.0, o[2] - moved)
        lab = text(f'{moved:.1f}" moved, {left:.1f}" left', S.font_px(12, self.scale), S.RING, True)
        x, y = self.camera.to_screen(*g)
        r = self.camera.length(self.scene.models[d["grab"]].radius)
        bg = pygame.Surface((lab.get_width() + 8, lab.get_height() + 2), pygame.SRCALPHA)
        bg.fill((24, 28, 26, 200))
        self.drag_readout = readout_rect(lab.get_size(), (x, y), r, self.label_rects.get(d.get("unit")))
        surf.blit(bg, self.drag_readout.topleft)
        surf.blit(lab, (self.drag_readout.x + 4, self.drag_readout.y + 1))


def readout_rect(size, centre, radius: float, label) -> pygame.Rect:
    """Where the drag's distance readout goes: over the grabbed model, else under it where the
    unit's name (``label``: its rect on the table) sits over it (under Xvfb it hid "Raider Mob
    (2)" while the unit was dragged)."""
    w, h = size[0] + 8, size[1] + 2
    x, y = centre
    above = pygame.Rect(round(x - w / 2), round(y - radius - h - 7), w, h)
    if label is None or not above.colliderect(label):
        return above
    below = pygame.Rect(above.x, round(y + radius + 7), w, h)
    return below if not below.colliderect(label) else above.move(0, label.top - above.bottom - 2)
