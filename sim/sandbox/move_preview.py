"""Movement you can trust before you release (issue 15): while a unit's models are dragged, the
ghosts say whether the move would be accepted (green) or why not (red, with the rule and the
distance, as ``Battle.check`` words it); the unit's coherency links are drawn (and broken ones
flagged) while dragging and for the selected unit; in a battle with a mission an advance is
selected first, so its D6 is rolled and shown before any model moves, and the ring shows M plus
the roll.

A mixin of :class:`sim.sandbox.app.Sandbox`. Nothing here decides a rule: the verdict is
``Battle.check`` on the very Move the release would submit, the links are read off
``sim.rules.coherency`` (its 2" link groups and its problems). The check runs in ``update``,
at most once a frame, and only when the ghosts are in another ``CELL`` than it was last asked
for, and then either once the pointer rests (the ghosts in the same cell two frames running) or
``RECHECK`` seconds after the last check while they keep moving: a check on a crowded table
costs a few milliseconds, so a moving drag shows the verdict of a moment ago, a still one the
exact verdict (drawing never asks the battle anything; the release is always checked anew)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pygame

from sim.commands import Move, ScoutMove, SelectToMove
from sim.rules import coherency as CO
from sim.rules import geometry
from sim.sandbox import style as S
from sim.sandbox.draw_table import _dashed_line
from sim.sandbox.fonts import text
from sim.sandbox.table_notes import draw_note, ghost_ring, wrap  # noqa: F401 (re-exported)
from sim.sandbox.unit_move import UnitMoveMixin
from sim.rules.movement.moves import mode_of_selection
from sim.world import queries as W

CELL = 0.05  # inches: the ghosts move this far (a grid cell) before the preview asks again
RECHECK = 0.1  # seconds (sandbox clock) between checks while the ghosts keep moving
FREE_PLAY_ADVANCE = 6  # free play rolls the advance D6 as the models move: the check allows M + 6
LINK_OK = (206, 214, 176)  # a coherency link (03.03: within 2" of another model of the unit)
SCOUT = "scout"  # a drag's mode before the battle: a Scouts unit's scout move (24.31, deploy_flow.py)
_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./\-]*")


def named_models(reason: str | None, models) -> tuple[str, ...]:
    """The model ids a refusal names, in the order it names them (to mark them on the table)."""
    if not reason:
        return ()
    out = []
    for tok in _ID.findall(reason):
        tok = tok.rstrip(".")
        if tok in models and tok not in out:
            out.append(tok)
    return tuple(out)


@dataclass
class Verdict:
    """What ``Battle.check`` said of the move the ghosts show: ``key`` the ghosts' cells it was
    asked for, ``reason`` None (legal) or the refusal, ``named`` the model ids it names."""

    key: tuple | None = None
    reason: str | None = None
    named: tuple[str, ...] = ()
    checks: int = 0  # how many times the battle was asked (tests, benchmarks)
    at: float = -1e9  # the sandbox clock when it was last asked
    seen: tuple | None = None  # the key of the previous frame (the pointer rests when it repeats)

    def ask(self, battle, models, key, command, clock: float) -> bool:
        """Ask ``battle`` about ``command()`` for the ghosts' cells ``key`` if it is due (once a
        frame at most: the caller calls once a frame). True if it asked."""
        rested, self.seen = key == self.seen, key
        if key == self.key or not (self.key is None or rested or clock - self.at >= RECHECK):
            return False
        self.key, self.at = key, clock
        self.reason = battle.check(command())
        self.named = named_models(self.reason, models)
        self.checks += 1
        return True

    @property
    def known(self) -> bool:
        return self.key is not None

    def clear(self) -> None:
        self.key, self.reason, self.named, self.seen = None, None, (), None


def ghost_key(ghosts: dict) -> tuple:
    """The ghosts' grid cells (CELL inches), in model-id order: the check is asked once a cell."""
    return tuple((mid, round(x / CELL), round(y / CELL)) for mid, (x, y) in sorted(ghosts.items()))


# --- 03.03 coherency links -------------------------------------------------------------------

@dataclass
class Links:
    """A unit's coherency as drawn: ``links`` (a, b, edge distance, ok) join the models in one
    spanning tree of shortest gaps; a link is ok when both ends are in one 2" link group
    (``sim.rules.coherency.link_groups``), so the broken ones are the gaps between groups;
    ``flagged`` the models ``coherency_problems`` names, with the first problem's text."""

    links: list = field(default_factory=list)
    flagged: dict = field(default_factory=dict)


def coherency_links(fps: dict) -> Links:
    ids = sorted(fps)
    out = Links()
    if len(ids) < 2:
        return out
    dist = geometry.distance_matrix([fps[i] for i in ids], [fps[i] for i in ids])
    group_of = {}
    for g, rows in enumerate(CO.link_groups(dist)):
        for r in rows:
            group_of[r] = g
    # Prim's spanning tree over the edge distances (lowest row first on ties): n is a unit's size
    n = len(ids)
    inside = [False] * n
    best = [math.inf] * n
    parent = [-1] * n
    best[0] = 0.0
    for _ in range(n):
        i = min((k for k in range(n) if not inside[k]), key=lambda k: (best[k], k))
        inside[i] = True
        if parent[i] >= 0:
            j = parent[i]
            out.links.append((ids[j], ids[i], float(dist[i, j]), group_of[i] == group_of[j]))
        for k in range(n):
            if not inside[k] and dist[i, k] < best[k]:
                best[k], parent[k] = float(dist[i, k]), i
    for p in CO.coherency_problems_from_matrix(ids, dist):
        if p.model is not None and p.model not in out.flagged:
            out.flagged[p.model] = str(p)
    return out


def _edge_points(a: geometry.Footprint, b: geometry.Footprint):
    """Where the line between two bases' centres leaves each base (round bases: exactly)."""
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy) or 1e-9
    ux, uy = dx / d, dy / d
    ra = 0.5 * min(a.length, a.width)
    rb = 0.5 * min(b.length, b.width)
    return (a.x + ux * ra, a.y + uy * ra), (b.x - ux * rb, b.y - uy * rb)


def draw_links(surf, cam, fps: dict, links: Links) -> None:
    for a, b, d, ok in links.links:
        pa, pb = _edge_points(fps[a], fps[b])
        sa, sb = cam.to_screen(*pa), cam.to_screen(*pb)
        if ok:
            pygame.draw.line(surf, LINK_OK, sa, sb, 2 if cam.scale >= 12 else 1)
            continue
        _dashed_line(surf, S.ILLEGAL, sa, sb, 5, 2)
        lab = text(f'{d:.1f}"', 11, S.ILLEGAL, True)
        mx, my = (sa[0] + sb[0]) / 2, (sa[1] + sb[1]) / 2
        _label(surf, lab, (mx - lab.get_width() / 2, my - lab.get_height() - 3))
    for mid in links.flagged:
        fp = fps[mid]
        x, y = cam.to_screen(fp.x, fp.y)
        r = max(4, cam.length(fp.bounding_radius)) + 5
        box = (x - r, y - r, 2 * r, 2 * r)
        for k in range(8):
            a = k * 0.785
            pygame.draw.arc(surf, S.ILLEGAL, box, a, a + 0.45, 2)


def _label(surf, t, pos) -> None:
    bg = pygame.Surface((t.get_width() + 6, t.get_height()), pygame.SRCALPHA)
    bg.fill((24, 28, 26, 190))
    surf.blit(bg, (pos[0] - 3, pos[1]))
    surf.blit(t, pos)


def centroid(points):
    """The mean of screen points (None for none)."""
    points = list(points)
    if not points:
        return None
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


class MovesMixin(UnitMoveMixin):
    """The drag that makes a Move: how it starts (an advance is selected and rolled first in a
    battle with a mission), the live verdict, the release, and what is drawn for them."""

    # ------------------------------------------------------------------ state
    def _moves_state(self):
        st = getattr(self, "_moves", None)
        if st is None or st["battle"] is not self.battle:
            st = self._moves = {"battle": self.battle, "verdict": Verdict(), "links": (None, None),
                                "drag_links": (None, None), "awaiting": None}
        return st

    @property
    def verdict(self) -> Verdict:
        return self._moves_state()["verdict"]

    def drag_mode(self, uid: str) -> str:
        """The move the drag makes: the one the unit was selected for (09.02), else the type
        chosen with M for that unit (each unit its own, normal until chosen)."""
        st = W.unit_state(self.battle.units[uid])
        s = self.staged
        if s is not None and s["unit"] == uid:
            return s["mode"]
        return mode_of_selection(st.move_selected) or self.unit_mode(uid)

    def move_limit(self, uid: str, mode: str, M: int) -> tuple[float, str]:
        """The longest move a model may make (what the check allows) and the ring's label."""
        st = W.unit_state(self.battle.units[uid])
        if mode != "advance":
            return float(M), f'M {M}"' + (" (fall back)" if mode == "fall back" else "")
        if st.advance_roll is not None:
            return float(M + st.advance_roll), f'M {M}" + advance {st.advance_roll}" = {M + st.advance_roll}"'
        return float(M + FREE_PLAY_ADVANCE), f'{M + FREE_PLAY_ADVANCE}" (M {M}" + up to 6": the D6 is rolled as it moves)'

    # ------------------------------------------------------------------ the drag
    def begin_move_drag(self, m, ids: list[str], start) -> dict | None:
        """The drag of ``ids`` (models of m's unit), or None when it cannot start now. In a
        battle with a mission an advance is selected first (09.06: the roll is made before any
        model moves); the roll is shown and the drag goes on with M + the roll, unless a
        decision (a Command Re-roll) waits, then the drag stops until it is answered."""
        b = self.battle
        b._enter()
        uid = m.unit
        reach = self.scout_reach(uid)  # (24.31 before the battle: a scout move, deploy_flow.py)
        if reach is not None:
            origin = {i: (self.scene.models[i].x, self.scene.models[i].y, reach) for i in ids}
            self.verdict.clear()
            return {"unit": uid, "models": ids, "grab": m.id, "origin": origin, "mode": SCOUT,
                    "ring_label": f'Scouts {reach:g}"', "limit": reach,
                    "start": self.camera.to_table(*start), "ghosts": {}}
        mode = self.drag_mode(uid)
        st = W.unit_state(b.units[uid])
        if mode == "advance" and b.turn_state is not None and st.move_selected is None:
            if not self.submit(SelectToMove(uid, "advance")):
                self.press = None
                return None
            self.finish()
            if b.pending is not None:
                self._moves_state()["awaiting"] = uid
                self.press = None
                self.status = (f"{uid}: advance roll {W.unit_state(b.units[uid]).advance_roll} - answer the "
                               f"decision, then drag again")
                return None
            self.status = self._advance_text(uid)
        ring_limit, label = self.move_limit(uid, mode, m.M)
        origin = {}
        for i in ids:
            mv = self.scene.models[i]
            origin[i] = (mv.x, mv.y, self.move_limit(uid, mode, mv.M)[0])
        self.verdict.clear()
        s = self.staged  # (a staged move of this unit: its ghosts start where they were placed)
        base = {i: (s["ghosts"].get(i) or origin[i][:2]) for i in ids} if s is not None and s["unit"] == uid else None
        return {"unit": uid, "models": ids, "grab": m.id, "origin": origin, "mode": mode,
                "ring_label": label, "limit": ring_limit, "base": base,
                "start": self.camera.to_table(*start), "ghosts": {}}

    def _advance_text(self, uid: str) -> str:
        b = self.battle
        st = W.unit_state(b.units[uid])
        M = min(self.scene.models[x].M for x in self.scene.units[uid].models)
        return (f"{uid} advances: the advance roll is {st.advance_roll}, so each model may move up to "
                f"{M + st.advance_roll}\" (09.06) - drag it")

    def drag_command(self, drag) -> Move | None:
        """The Move the release would submit (None: nothing moved), with the models already
        placed in the unit's staged move (unit_move.py)."""
        origin = dict(drag["origin"])
        ghosts = dict(drag["ghosts"])
        s = self.staged
        if s is not None and s["unit"] == drag["unit"] and drag["mode"] != SCOUT:
            for i, g in s["ghosts"].items():
                if i not in ghosts:
                    ghosts[i], origin[i] = g, s["origin"][i]
        faces = self.ghost_faces(drag)  # (03.01 the facings turned with R or the wheel)
        to = tuple((i, *self._on_table(i, x, y, origin[i])) for i, (x, y) in sorted(ghosts.items())
                   if (x, y) != origin[i][:2] or self._turned(i, faces))
        if to and drag["mode"] == SCOUT:
            return ScoutMove(drag["unit"], to, face=self.faces_turned(faces, ghosts))
        return Move(drag["unit"], to, drag["mode"], face=self.faces_turned(faces, ghosts)) if to else None

    def release_move(self, drag) -> None:
        """09.05-09.07 The move is made only if the battle accepts it where the ghosts are. One
        model of a unit of several dragged (Shift, or its ghost), or any drag of a unit with a
        staged move: the ghosts join the unit's staged move, made as one move on Enter
        (unit_move.py). A refused move is offered the nearest legal spot when one is near."""
        s = self.staged
        several = len(self.scene.living(drag["unit"])) > 1
        if drag["mode"] != SCOUT and ((s is not None and s["unit"] == drag["unit"])
                                      or (len(drag["models"]) == 1 and several)):
            if s is not None and s["unit"] != drag["unit"]:
                self.status = (f"{self.unit_label(s['unit'])} has a move being placed: confirm it (Enter) "
                               f"or drop it (Esc) first")
                return
            self.verdict.clear()
            self.stage(drag)
            return
        cmd = self.drag_command(drag)
        if cmd is None:
            return
        reason = self.battle.check(cmd)
        if reason is not None:
            self.verdict.clear()
            if not (drag["mode"] != SCOUT and self.offer_snap(drag, reason)):
                self.status = f"refused: {reason}"
            return
        if self.submit(cmd):
            self.moved_unit(drag["unit"])

    # ------------------------------------------------------------------ each frame
    def moves_update(self) -> None:
        """Once a frame: finish a selection whose decision was answered; ask the battle about
        the dragged ghosts when they moved into another cell."""
        st = self._moves_state()
        b = self.battle
        b._enter()
        if st["awaiting"] is not None and b.pending is None:
            uid, st["awaiting"] = st["awaiting"], None
            if self.resolving:
                self.finish()
            if uid in b.units and W.unit_state(b.units[uid]).advance_roll is not None:
                self.status = self._advance_text(uid)
        d = self.drag
        if d is not None and d.get("ghosts") and not b.busy:
            cmd = self.drag_command(d)
            v = self.verdict
            if cmd is not None:
                key = (d["unit"], d["mode"], ghost_key(d["ghosts"]), d.get("turn", 0.0))
                if v.ask(b, self.scene.models, key, lambda: cmd, self.clock):
                    g, o = d["ghosts"].get(d["grab"]), d["origin"].get(d["grab"])
                    far = ""
                    if g and o:
                        gone = math.hypot(g[0] - o[0], g[1] - o[1])
                        far = f' {gone:.1f}" of {o[2]:g}" ({max(0.0, o[2] - gone):.1f}" left)'
                    staging = len(d["models"]) == 1 and len(self.scene.living(d["unit"])) > 1 \
                        or (self.staged is not None and self.staged["unit"] == d["unit"])
                    self.status = f"{self.unit_label(d['unit'])}, {d['mode']} move{far}: " + (
                        ("legal - release to place it (Enter makes the unit's move)" if staging
                         else "legal - release to make it") if v.reason is None else f"would be refused: {v.reason}")
            else:
                v.clear()

    # ------------------------------------------------------------------ drawing
    def unit_fps(self, uid: str, ghosts: dict) -> dict:
        out = {}
        for m in self.scene.living(uid):
            g = ghosts.get(m.id)
            out[m.id] = m.fp if g is None else m.fp.moved(*g)
        return out

    def _links_for(self, uid: str, ghosts: dict) -> tuple[dict, Links]:
        st = self._moves_state()
        slot = "drag_links" if ghosts else "links"
        key = (uid, self.scene.version, ghost_key(ghosts) if ghosts else None)
        cached_key, cached = st[slot]
        if cached_key != key:
            fps = self.unit_fps(uid, ghosts)
            cached = (fps, coherency_links(fps))
            st[slot] = (key, cached)
        return cached

    def draw_moves(self, surf, look) -> None:
        """Coherency links (the dragged unit's, else the selected unit's) and the dragged move's
        verdict: ghosts ringed green or red, the refusal beside the grabbed model."""
        d = self.drag
        p = getattr(self, "placement", None)
        if d is not None and d.get("ghosts"):
            s = self.staged
            ghosts = {**s["ghosts"], **d["ghosts"]} if s is not None and s["unit"] == d["unit"] else d["ghosts"]
            fps, links = self._links_for(d["unit"], ghosts)
            draw_links(surf, self.camera, fps, links)
            self.draw_staged(surf)
            self._draw_verdict(surf, d)
            self.draw_drag_distance(surf, d)
        elif self.staged is not None and self.mode == "battle":
            fps, links = self._links_for(self.staged["unit"], self.staged["ghosts"])
            draw_links(surf, self.camera, fps, links)
            self.draw_staged(surf)
        elif p is not None and p.stage == "placing":
            fps, links = self._links_for(p.unit, p.ghosts)
            draw_links(surf, self.camera, fps, links)
        elif self.selected_unit in self.scene.units and not self.scene.units[self.selected_unit].destroyed \
                and self.mode == "battle":
            fps, links = self._links_for(self.selected_unit, {})
            draw_links(surf, self.camera, fps, links)

    def _draw_verdict(self, surf, d) -> None:
        v = self.verdict
        cam = self.camera
        if not v.known:
            colour = S.TEXT_DIM  # not asked yet (the last verdict stays shown while the ghosts move)
        else:
            colour = S.LEGAL if v.reason is None else S.ILLEGAL
        for mid, g in d["ghosts"].items():
            m = self.scene.models[mid]
            ghost_ring(surf, cam, m.fp.moved(*g), colour, 3 if mid in v.named else 2)
        if v.reason is None or colour is not S.ILLEGAL:
            return
        for mid in v.named:
            m = self.scene.models.get(mid)
            if m is not None and mid not in d["ghosts"] and m.alive:
                ghost_ring(surf, cam, m.fp, S.ILLEGAL, 2)
        g = d["ghosts"].get(d["grab"])
        enemy = centroid(cam.to_screen(self.scene.models[n].x, self.scene.models[n].y) for n in v.named
                         if n in self.scene.models and self.scene.models[n].unit != d["unit"])
        if g is not None:
            draw_note(surf, cam.to_screen(*g), wrap(self.said(v.reason)), S.ILLEGAL, "this move would be refused", enemy)
