"""Charges, pile-in and consolidation moves in the sandbox (issue 15): the solver proposes, the
player adjusts, the battle decides.

* **Charge (C)**: the unit declares a charge (``DeclareCharge``: 11.02, the 2D6 roll, and a
  Command Re-roll offered when the rules allow); the roll is shown with every enemy unit within
  12" (nearest first, as 11.04 measures them), those within the roll selectable as targets
  (the closest chosen, as ruling 17 does); the solver's placement for the targets is drawn as
  ghosts (``sim.plan.moves.charge_command``); each model can be dragged to adjust it; Confirm
  (Enter) submits the ``ChargeMove`` if ``Battle.check`` accepts it, else the refusal is shown
  where the models are. A roll that reaches no enemy unit: the charge is not made (an empty
  ``ChargeMove``), the roll is shown and nothing moves.
* **Pile in (I)** / **Consolidate (O)**: the same with ``pile_in_command`` /
  ``consolidate_command`` (12.03 / 12.08, 3").

A mixin of :class:`sim.sandbox.app.Sandbox`. Nothing here decides a rule: targets and their
distances come from ``sim.rules.movement.solvers`` on ``sim.plan.moves.bodies()``, placements from the
solvers' world adapters, every verdict from ``Battle.check``; checks run in ``update``, at most
once a frame and only when a ghost moved into another cell."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from sim import commands as C
from sim.names import counted
from sim.commands import ChargeMove, Consolidate, DeclareCharge, PileIn
from sim.events.moves import charge_dice
from sim.plan import moves as MV
from sim.rules import charge as CHG
from sim.rules.movement.solvers import charge as CH
from sim.rules.movement.moves import ConsolidationMode
from sim.rules.movement.solvers import pile_in as PI
from sim.rules.movement.turning import turnable
from sim.sandbox import style as S
from sim.sandbox.draw_table import _dashed_line
from sim.sandbox.fonts import text
from sim.sandbox.move_preview import Verdict, centroid, draw_note, ghost_key, ghost_ring, wrap
from sim.sandbox.unit_move import TURN_STEP
from sim.world import queries as W
from sim.commands import charge_command, consolidate_command, pile_in_command
from sim.commands.charge import default_targets as default_charge_targets

LIMIT = {C.PILE_IN: MV.PILE_IN, C.CONSOLIDATE: MV.CONSOLIDATION}  # 12.03, 12.08: 3"
RULE = {C.CHARGE_MOVE: "11.04", C.PILE_IN: "12.03", C.CONSOLIDATE: "12.08"}
TITLE = {C.CHARGE_MOVE: "Charge", C.PILE_IN: "Pile in", C.CONSOLIDATE: "Consolidate"}
VERB = {C.CHARGE_MOVE: "charge", C.PILE_IN: C.PILE_IN.kind, C.CONSOLIDATE: C.CONSOLIDATE.kind}  # (in words)


@dataclass
class Placement:
    """A charge, pile-in or consolidation being placed: the sandbox's own state, never the
    battle's. ``stage``: "rolling" (the declared charge's roll is being resolved, perhaps
    waiting for a decision), "placing", or "failed" (the charge roll reached no target; shown
    until closed)."""

    record: object  # the command it makes: the charge move, the pile-in or the consolidation's record
    unit: str
    stage: str = "placing"
    roll: int | None = None
    dice: tuple = ()
    distances: dict = field(default_factory=dict)  # enemy unit -> inches (charge: within 12")
    legal: list = field(default_factory=list)  # the units that may be picked as targets
    targets: list = field(default_factory=list)  # the move's targets, as picked (the legal ones, by default)
    fixed: bool = False  # the rule selects the targets itself (an engaged unit's, 12.03; ongoing, 12.08)
    mode: str = ""  # consolidation: ongoing / engaging / objective (12.08)
    objectives: list = field(default_factory=list)  # an objective consolidation's choices (names), nearest first
    objective: str | None = None  # the one picked
    origin: dict = field(default_factory=dict)  # model id -> (x, y, limit)
    ghosts: dict = field(default_factory=dict)  # model id -> (x, y) where it would end
    via: dict = field(default_factory=dict)  # model id -> the solver's turning points
    adjusted: set = field(default_factory=set)  # models the player dragged (the others: the solver's)
    faces: dict = field(default_factory=dict)  # model id -> the facing the player turned it to (R, 03.01)
    proposed: bool = False  # the solver found a placement
    adjusting: str | None = None  # the model being dragged
    grip: tuple = (0.0, 0.0)  # pointer offset from the dragged ghost's centre (inches)
    verdict: Verdict = field(default_factory=Verdict)
    note: str = ""

    @property
    def limit(self) -> float:
        return CHG.max_distance(self.roll or 0) if self.record is C.CHARGE_MOVE else LIMIT[self.record]


class PlacementMixin:
    # ------------------------------------------------------------------ starting
    def _placement_ok(self) -> bool:
        if self.order is not None:
            self.status = "finish or cancel the current order first (Esc)"
            return False
        return self._can_order()

    def begin_charge(self) -> None:
        """11.02 Declare a charge with the selected unit (or take up its declared charge)."""
        if not self._placement_ok():
            return
        b, uid = self.battle, self.selected_unit
        reason = self.charge_problem()
        if reason is not None:
            self.status = f"cannot charge: {reason}"
            return
        if W.unit_state(b.units[uid]).charge_roll is None:
            if not self.submit(DeclareCharge(uid)):
                return
            self.finish()
        self.placement = Placement(C.CHARGE_MOVE, uid, stage="rolling")
        self.dirty |= {"orders", "action"}
        self.placement_update()

    def charge_problem(self) -> str | None:
        """Why the selected unit cannot declare a charge (11.02) now, or take up the one it
        declared: the rules' reason (the Charge button greyed with it), or None."""
        b, uid = self.battle, self.selected_unit
        b._enter()
        st = W.unit_state(b.units[uid])
        if st.charge_roll is None:
            return b.check(DeclareCharge(uid))
        if st.charge_resolved:
            return f"{uid}'s charge has already been resolved this phase (11.02)"
        return None

    def begin_pile_in(self) -> None:
        self._begin_placed(C.PILE_IN)

    def begin_consolidate(self) -> None:
        self._begin_placed(C.CONSOLIDATE)

    def _begin_placed(self, record) -> None:
        if not self._placement_ok():
            return
        p = Placement(record, self.selected_unit)
        kind = VERB[record]
        self._choices(p)
        if not self._propose(p):
            empty = record.cls(p.unit, ())
            reason = self.battle.check(empty)
            self.status = (f"cannot {kind}: {reason}" if reason else
                           f"{p.unit}: the solver finds no {kind} move (every model stays put); "
                           f"nothing to place ({RULE[record]})")
            return
        self.placement = p
        self.status = f"{kind}: the solver's placement - drag a model to adjust it, Enter to confirm"
        self.dirty |= {"orders", "action"}

    # ------------------------------------------------------------------ the proposal
    def _choices(self, p: Placement) -> None:
        """What the player may select for a pile-in or consolidation move (12.03, 12.08), and
        the automatic player's selection picked to begin with (Part A ruling 18)."""
        self.battle._enter()
        b = MV.bodies()
        ent = self.battle.units[p.unit]
        if p.record is C.PILE_IN:
            p.legal = PI.pile_in_targets(p.unit, b)
            p.targets = list(p.legal)
            p.fixed = W.unit_engaged(ent)
            return
        objs = MV.objectives(self.battle)
        choices = PI.consolidation_choices(p.unit, b, objs)
        if choices is None:
            return
        p.mode, units, picks = choices
        default = PI.consolidation_mode(p.unit, b, objs)
        p.legal = list(units)
        p.targets = list(default[1])
        p.fixed = p.mode == ConsolidationMode.ONGOING
        p.objectives = [objs[k].name for k in picks]
        p.objective = objs[default[2]].name if default[2] is not None else None

    def _origin(self, p: Placement) -> None:
        p.origin = {m.id: (m.x, m.y, p.limit) for m in self.scene.living(p.unit)}

    def _propose(self, p: Placement) -> bool:
        """The solver's placement (sim.plan.moves) as ghosts; False when it has none."""
        b = self.battle
        b._enter()
        self._origin(p)
        p.ghosts = {mid: (x, y) for mid, (x, y, _l) in p.origin.items()}
        p.via = {}
        p.adjusted = set()
        if p.record is C.CHARGE_MOVE:
            cmd = charge_command(b, p.unit, list(p.targets), None) if p.targets else None
            found = cmd is not None and bool(cmd.targets)
        elif p.record is C.PILE_IN:
            cmd = pile_in_command(b, p.unit, None, p.targets) if p.targets else None
            found = cmd is not None
        else:
            cmd = (consolidate_command(b, p.unit, None, p.targets or None, p.objective)
                   if p.targets or p.objective else None)
            found = cmd is not None
        if found:
            for mid, x, y in cmd.to:
                p.ghosts[mid] = (x, y)
            p.via = {mid: pts for mid, pts in cmd.via}
        p.proposed = found
        p.adjusting = None
        p.verdict.clear()
        return found

    def _roll_in(self, p: Placement) -> None:
        """The charge roll is made: the targets on offer, the closest picked, or the charge
        fails (no enemy unit within the roll: an empty ChargeMove, nothing moves)."""
        b = self.battle
        st = W.unit_state(b.units[p.unit])
        p.roll = st.charge_roll
        p.dice = charge_dice(b.events, p.unit)
        body = MV.bodies()
        dist = CH.charge_target_distances(p.unit, body)
        p.distances = {u: d for u, d in sorted(dist.items(), key=lambda kv: (kv[1], kv[0]))
                       if CHG.in_reach(d, CHG.CHARGE_RANGE)}
        p.legal = CH.charge_targets(p.unit, p.roll, body)
        dice = " + ".join(map(str, p.dice))
        if not p.legal:
            near = min(dist.items(), key=lambda kv: (kv[1], kv[0]), default=None)
            p.stage = "failed"
            p.near = near  # (drawn on the table: draw_failed_charge)
            p.note = ("No enemy unit within reach" + (f" (nearest: {near[0]}, {near[1]:.2f}\")" if near else "")
                      + ": the charge fails and nothing moves (11.02).")
            if self.submit(ChargeMove(p.unit, (), ())):
                self.finish()
            self.status = f"charge roll {p.roll}\" ({dice}): " + p.note[0].lower() + p.note[1:]
            self.dirty |= {"orders", "action"}
            return
        p.stage = "placing"
        p.targets = default_charge_targets(b, b.units[p.unit], p.roll, body)  # (ruling 17: an eligible one)
        self._propose(p)
        self.status = (f"charge roll {p.roll}\" ({dice}): {counted(len(p.legal), 'unit')} within reach; "
                       + ("drag a model to adjust the solver's placement, Enter to confirm" if p.proposed
                          else "the solver found no placement: drag the models, or give up"))
        self.dirty |= {"orders", "action"}

    def placement_command(self, p: Placement | None = None):
        """The command Confirm would submit: each model that moved, the solver's exact ends and
        turning points, an adjusted model's end rounded as a drag's is (``_on_table``)."""
        p = p or self.placement
        to, via = [], []
        face = self.faces_turned(p.faces, p.ghosts)  # (unit_move.py)
        turned = {mid for mid, _a in face}
        for mid, (x, y) in sorted(p.ghosts.items()):
            ox, oy, lim = p.origin[mid]
            if (x, y) == (ox, oy) and mid not in turned:
                continue
            if mid not in p.adjusted:  # (the solver's end as it is: rounding could make touching overlap)
                to.append((mid, x, y))
                if mid in p.via:
                    via.append((mid, p.via[mid]))
            else:
                to.append((mid, *self._on_table(mid, x, y, p.origin[mid])))
        if p.record is C.CHARGE_MOVE:
            return ChargeMove(p.unit, tuple(sorted(p.targets)) if p.targets else (), tuple(to), tuple(via), face=face)
        if p.record is C.PILE_IN:
            return PileIn(p.unit, tuple(to), tuple(via), tuple(sorted(p.targets)), face=face)
        return Consolidate(p.unit, tuple(to), tuple(via), tuple(sorted(p.targets)), p.objective, face=face)

    def turn_placed(self, step: int) -> bool:
        """R (or the wheel) while placing: the ghost being dragged, else the one under the
        pointer, turns about its centre (03.01; a base that looks the same turned does not),
        ``TURN_STEP`` degrees a step. True if one turned."""
        p = getattr(self, "placement", None)
        if p is None or p.stage != "placing":
            return False
        mid = p.adjusting or self._ghost_at(p, self.camera.to_table(*self.mouse))
        if mid is None or not turnable(self.scene.models[mid].fp):
            return False
        p.faces[mid] = (p.faces.get(mid, self.scene.models[mid].fp.angle) + step * TURN_STEP) % 360.0
        self.status = f"{self.scene.models[mid].name} turned to {p.faces[mid]:g} degrees (R, wheel)"
        return True

    # ------------------------------------------------------------------ each frame
    def placement_update(self) -> None:
        p = getattr(self, "placement", None)
        if p is None:
            return
        b = self.battle
        b._enter()
        if p.stage == "rolling":
            if b.pending is not None:
                return
            if self.resolving:
                self.finish()  # (the roll's decision was answered: carry on)
            if b.busy:
                return
            st = W.unit_state(b.units[p.unit])
            if st.charge_roll is None or st.charge_resolved:
                self.placement = None
                self.dirty |= {"orders", "action"}
                return
            self._roll_in(p)
            return
        if p.stage != "placing" or b.busy:
            return
        if self._stale(p):
            self.placement = None
            self.status = f"{p.unit}'s {VERB[p.record]} is no longer open"
            self.dirty |= {"orders", "action"}
            return
        key = (p.record.kind, tuple(p.targets), ghost_key(p.ghosts), tuple(sorted(p.faces.items())))
        p.verdict.ask(b, self.scene.models, key, lambda: self.placement_command(p), self.clock)
        if p.verdict.reason != getattr(self, "_placement_shown", None):
            self._placement_shown = p.verdict.reason
            self.dirty.add("orders")

    def _stale(self, p: Placement) -> bool:
        ent = self.battle.units.get(p.unit)
        if ent is None or W.unit_destroyed(ent):
            return True
        st = W.unit_state(ent)
        if p.record is C.CHARGE_MOVE:
            return st.charge_roll is None or st.charge_resolved
        if p.record is C.PILE_IN:
            return st.piled_in
        return st.consolidated

    # ------------------------------------------------------------------ the player's choices
    def toggle_target(self, uid: str) -> None:
        """An enemy unit clicked while placing: added to the move's targets, or dropped, when the
        rule lets the player select it (11.04 a charge's, 12.03 an unengaged unit's pile-in,
        12.08 an engaging consolidation's); the solver places the models again."""
        p = self.placement
        if p is None or p.stage != "placing":
            return
        if p.record is C.CHARGE_MOVE:
            self.toggle_charge_target(uid)
            return
        if p.fixed or p.mode == ConsolidationMode.OBJECTIVE:
            why = ("it is engaged: it piles in toward every enemy unit it is engaged with (12.03)"
                   if p.record is C.PILE_IN else
                   "an ongoing consolidation heads for every engaged enemy unit (12.08)" if p.fixed else
                   "an objective consolidation selects an objective, not an enemy unit (12.08)")
            self.status = f"{p.unit}: {why}"
            return
        if uid not in p.legal:
            reach = "5\" (12.03)" if p.record is C.PILE_IN else "3\" (12.08)"
            self.status = f"{uid} is not an enemy unit within {reach} of {p.unit}"
            return
        if uid in p.targets:
            p.targets.remove(uid)
        else:
            p.targets.append(uid)
        p.targets.sort(key=p.legal.index)
        self._propose(p)
        self.status = (f"{VERB[p.record]} targets: {', '.join(p.targets) or 'none - pick one'}"
                       + ("" if p.proposed or not p.targets else " - the solver found no placement: drag the models"))
        self.dirty.add("orders")

    def pick_objective(self, name: str) -> None:
        """12.08 The objective an objective consolidation heads for."""
        p = self.placement
        if p is None or p.stage != "placing" or name not in p.objectives:
            return
        p.objective = name
        self._propose(p)
        self.status = f"consolidate toward {name}" + ("" if p.proposed else " - the solver found no placement")
        self.dirty.add("orders")

    def toggle_charge_target(self, uid: str) -> None:
        p = self.placement
        if p is None or p.record is not C.CHARGE_MOVE or p.stage != "placing":
            return
        if uid not in p.legal:
            d = p.distances.get(uid)
            self.status = (f"{uid} is not an enemy unit within 12\" of {p.unit}" if d is None else
                           f"{uid} is {d:.2f}\" away: beyond the charge roll of {p.roll}\" (11.04)")
            return
        if uid in p.targets:
            p.targets.remove(uid)
        else:
            p.targets.append(uid)
        p.targets.sort(key=lambda u: (p.distances.get(u, math.inf), u))
        self._propose(p)
        self.status = (f"charge targets: {', '.join(p.targets) or 'none'}"
                       + ("" if p.proposed or not p.targets else " - the solver found no placement: drag the models"))
        self.dirty.add("orders")

    def confirm_placement(self) -> None:
        p = self.placement
        if p is None or p.stage != "placing":
            return
        if p.record is C.CHARGE_MOVE and not p.targets:
            self.status = "pick a target first, or give up the charge"
            return
        cmd = self.placement_command(p)
        reason = self.battle.check(cmd)
        if reason is not None:
            self.status = f"refused: {reason}"
            return
        if self.submit(cmd):
            self.finish()
            self.placement = None
            self.status = f"{VERB[p.record]} made: {counted(len(cmd.to), 'model')} moved"
            self.dirty |= {"orders", "action", "card"}

    def give_up_charge(self) -> None:
        """11.02 A declared charge the player does not make: nothing moves."""
        p = self.placement
        if p is None or p.record is not C.CHARGE_MOVE or p.stage != "placing":
            return
        if self.submit(ChargeMove(p.unit, (), ())):
            self.finish()
            self.placement = None
            self.status = f"{p.unit}'s charge is not made (roll {p.roll}\"): nothing moves"
            self.dirty |= {"orders", "action"}

    def close_placement(self) -> None:
        p = self.placement
        self.placement = None
        if p is not None and p.record is C.CHARGE_MOVE and p.stage == "placing":
            self.status = f"{p.unit}'s charge stays declared (roll {p.roll}\"): C takes it up again"
        self.dirty |= {"orders", "action"}

    def reset_placement(self) -> None:
        p = self.placement
        if p is not None and p.stage == "placing":
            self._propose(p)
            self.dirty.add("orders")

    # ------------------------------------------------------------------ the mouse
    def _ghost_at(self, p: Placement, pt) -> str | None:
        best, bd = None, math.inf
        for mid, (x, y) in p.ghosts.items():
            m = self.scene.models[mid]
            d = math.hypot(pt[0] - x, pt[1] - y)
            if d <= m.radius + 0.15 and d < bd:
                best, bd = mid, d
        return best

    def placement_press(self, pos) -> bool:
        """A press on the table while placing: a ghost of the unit starts adjusting it; an enemy
        model (charge) picks or drops its unit as a target; anything else closes the placement
        and is handled as usual (False)."""
        p = self.placement
        if p is None or p.stage != "placing":
            if p is not None:
                self.close_placement()
            return False
        pt = self.camera.to_table(*pos)
        mid = self._ghost_at(p, pt)
        if mid is not None:
            g = p.ghosts[mid]
            p.adjusting, p.grip = mid, (pt[0] - g[0], pt[1] - g[1])
            return True
        m = self.scene.model_at(*pt)
        if m is not None and m.owner != self.scene.units[p.unit].owner:
            self.toggle_target(m.unit)
            return True
        if m is not None and m.unit == p.unit:
            return True  # (its real place, under a ghost elsewhere: nothing to do)
        self.close_placement()
        return False

    def placement_motion(self, pos) -> None:
        p = self.placement
        mid = p.adjusting
        tx, ty = self.camera.to_table(*pos)
        x, y = tx - p.grip[0], ty - p.grip[1]
        ox, oy, lim = p.origin[mid]
        d = math.hypot(x - ox, y - oy)
        if d > lim > 0:
            x, y = ox + (x - ox) * lim / d, oy + (y - oy) * lim / d
        r = self.scene.models[mid].radius
        bw, bh = self.spec.board
        p.ghosts[mid] = (min(max(x, r), bw - r), min(max(y, r), bh - r))
        p.via.pop(mid, None)  # (a straight path from where it stands)
        p.adjusted.add(mid)

    def placement_release(self, pos) -> None:
        p = self.placement
        if p.adjusting is not None:
            self.placement_motion(pos)
            p.adjusting = None
            self.dirty.add("orders")

    # ------------------------------------------------------------------ the look
    def placement_look(self, look) -> None:
        p = getattr(self, "placement", None)
        if p is None or p.stage != "placing":
            return
        look.ghosts = dict(p.ghosts)
        look.ghost_faces = dict(p.faces)
        if p.record is C.CHARGE_MOVE:
            look.targets = {u: None if u in p.targets else
                            (f"{u}: within reach - click to add it as a target" if u in p.legal else
                             f"{u}: {p.distances[u]:.2f}\" away, beyond the roll of {p.roll}\" (11.04)")
                            for u in p.distances}
        else:
            look.targets = {u: None if u in p.targets else f"{u}: click to add it as a target"
                            for u in (p.legal if not p.fixed else p.targets)}

    def draw_placement(self, surf) -> None:
        """Where each model stands (a faint outline), its path to the ghost, the ghost ringed
        green or red by the battle's verdict, the dragged model's reach, the refusal."""
        p = getattr(self, "placement", None)
        if p is not None and p.stage == "failed":
            draw_failed_charge(surf, self, p)
        if p is None or p.stage != "placing":
            return
        cam = self.camera
        v = p.verdict
        fresh = v.known  # (the last verdict stays shown while a ghost moves: move_preview.RECHECK)
        colour = S.TEXT_DIM if not fresh else S.LEGAL if v.reason is None else S.ILLEGAL
        for mid, (x, y) in p.ghosts.items():
            m = self.scene.models[mid]
            ox, oy, lim = p.origin[mid]
            c = cam.to_screen(ox, oy)
            pygame.draw.circle(surf, S.shade(S.RING, 0.75), c, max(2, cam.length(m.fp.length / 2)), 1)
            if (x, y) != (ox, oy):
                _path(surf, cam, [(ox, oy), *p.via.get(mid, ()), (x, y)], m.fp.length / 2)
            ghost_ring(surf, cam, m.fp.moved(x, y, p.faces.get(mid)), colour,
                       3 if mid in v.named or mid == p.adjusting else 2)
        if p.adjusting is not None:
            mid = p.adjusting
            m = self.scene.models[mid]
            ox, oy, lim = p.origin[mid]
            R = cam.length(lim + m.fp.length / 2)
            c = cam.to_screen(ox, oy)
            pygame.draw.circle(surf, S.RING, c, R, 1)
            lab = text(f'{lim:g}" ({RULE[p.record]})', 12, S.RING)
            surf.blit(lab, (c[0] - lab.get_width() / 2, c[1] - R - lab.get_height() - 1))
        if fresh and v.reason is not None:
            named = [n for n in v.named if n in p.ghosts] or sorted(p.ghosts)
            g = p.ghosts[named[0]]
            foes = [m for u in p.targets for m in self.scene.living(u)] or \
                [self.scene.models[n] for n in v.named if n not in p.ghosts and n in self.scene.models]
            draw_note(surf, cam.to_screen(*g), wrap(self.said(v.reason)), S.ILLEGAL, f"{VERB[p.record]}: would be refused",
                      centroid(cam.to_screen(m.x, m.y) for m in foes))


def draw_failed_charge(surf, sb, p) -> None:
    """A charge that failed, on the table: the charging unit ringed red, a dashed line from its
    model nearest the nearest enemy unit to that unit's nearest model, and beside it the roll
    and the distance it needed (until the panel is closed)."""
    from sim.rules import geometry
    cam = sb.camera
    mine = sb.scene.living(p.unit)
    for m in mine:
        ghost_ring(surf, cam, m.fp, S.ILLEGAL, 2)
    near = getattr(p, "near", None)
    if not mine or near is None or near[0] not in sb.scene.units:
        return
    foes = sb.scene.living(near[0])
    if not foes:
        return
    a, b = min(((m, f) for m in mine for f in foes), key=lambda mf: (geometry.distance(mf[0].fp, mf[1].fp),
                                                                     mf[0].id, mf[1].id))
    sa, sb_ = cam.to_screen(a.x, a.y), cam.to_screen(b.x, b.y)
    _dashed_line(surf, S.ILLEGAL, sa, sb_, 6, 2)
    dice = " + ".join(map(str, p.dice)) if p.dice else ""
    lines = [f'rolled {p.roll}"' + (f" ({dice})" if dice else ""),
             f'needed {near[1]:.2f}" to reach {sb.unit_label(near[0])}']
    top = min(cam.to_screen(m.x, m.y)[1] for m in mine) - cam.length(max(m.radius for m in mine)) - 4
    bottom = max(cam.to_screen(m.x, m.y)[1] for m in mine) + cam.length(max(m.radius for m in mine)) + 4
    above = sb_[1] > sa[1]  # (the note on the side of the unit away from the enemy, clear of both)
    draw_note(surf, (sa[0], top if above else bottom), lines, S.ILLEGAL, "charge failed",
              away_from=(sa[0], bottom + 1) if above else None)


def _path(surf, cam, pts, r: float) -> None:
    """A model's path, dashed, from the edge of its base where it stands to the edge of its
    base where it would end (the bases themselves stay clear)."""
    if len(pts) < 2:
        return
    (x0, y0), (x1, y1) = pts[0], pts[1]
    L = math.hypot(x1 - x0, y1 - y0)
    if L > r:
        pts = [(x0 + (x1 - x0) * r / L, y0 + (y1 - y0) * r / L), *pts[1:]]
    (xa, ya), (xb, yb) = pts[-2], pts[-1]
    L = math.hypot(xb - xa, yb - ya)
    if L > r:
        pts = [*pts[:-1], (xb - (xb - xa) * r / L, yb - (yb - ya) * r / L)]
    elif len(pts) == 2:
        return
    for a, b in zip(pts, pts[1:]):
        _dashed_line(surf, S.shade(S.RING, 0.85), cam.to_screen(*a), cam.to_screen(*b), 4)


# ---------------------------------------------------------------------- panels

def placement_buttons(flow, sb) -> None:
    """The idle orders panel's row of move commands (beside Shoot and Fight), and the selected
    unit's move so far (an advance roll made before its drag)."""
    from sim.sandbox.orders import order_refusal
    flow.newline()
    for label, fn, name, record, tip, problem in (
            ("Charge  (C)", sb.begin_charge, "charge", C.DECLARE_CHARGE,
             "declare a charge (11.02): the 2D6 roll, then targets and the solver's placement", sb.charge_problem),
            ("Pile in  (I)", sb.begin_pile_in, VERB[C.PILE_IN], C.PILE_IN, "12.03: up to 3\" closer to the enemy", None),
            ("Consolidate  (O)", sb.begin_consolidate, VERB[C.CONSOLIDATE], C.CONSOLIDATE, "12.08: up to 3\"", None)):
        why = order_refusal(sb, record)  # (greyed with the reason when the phase does not accept it)
        if why is None and problem is not None:
            why = problem()  # (the unit's own: a charge already made, none within 12", ...)
            why = why and sb.said(why)
        flow.button(label, fn, name=name, tip=f"Not now: {why}" if why else tip,
                    object_id="#unavailable" if why else None)
    flow.newline()
    sb.battle._enter()
    st = W.unit_state(sb.battle.units[sb.selected_unit])
    if st.move_selected == "advance" and st.advance_roll is not None and st.move_type is None:
        M = min(sb.scene.models[m].M for m in sb.scene.units[sb.selected_unit].models)
        flow.label(f'Advance roll {st.advance_roll}: each model up to {M + st.advance_roll}" (09.06)', "#warning")


def build_placement_panel(flow, sb) -> None:
    p = sb.placement
    name = sb.scene.units[p.unit].name
    flow.label(f"{TITLE[p.record]}: {name}", "#heading")
    if p.record is C.CHARGE_MOVE:
        if p.stage == "rolling":
            flow.para("The charge roll is being made (answer the decision, if one is asked).", "#muted")
            return
        dice = " + ".join(map(str, p.dice))
        flow.label(f'Charge roll: {p.roll}"   (2D6: {dice})', "#subheading")
        if p.stage == "failed":
            flow.para(sb.said(p.note), "#warning")  # (units by their names: sim.names)
            return
        flow.para("Targets (11.04): enemy units within 12\", nearest first; those within the roll "
                  "can be picked (click them here or on the table).", "#muted")
        flow.newline()
        for u, d in p.distances.items():
            label = f'{sb.scene.units[u].name}  {d:.2f}"'
            if u in p.legal:
                flow.button(label, lambda u=u: sb.toggle_charge_target(u), name=f"target:{u}",
                            object_id="#toggle_on" if u in p.targets else "#toggle",
                            tip=sb.scene.units[u].name)
            else:
                flow.button(label, lambda u=u: sb.toggle_charge_target(u), name=f"target:{u}",
                            object_id="#unavailable", tip=f"beyond the charge roll of {p.roll}\"")
        flow.newline()
    else:
        what = {ConsolidationMode.ONGOING: "ongoing: towards every engaged enemy unit",
                ConsolidationMode.ENGAGING: "engaging: towards the enemy units you pick within 3\"",
                ConsolidationMode.OBJECTIVE: "objective: towards the objective you pick within 3\""}.get(p.mode, "")
        flow.label(f'Up to {p.limit:g}" ({RULE[p.record]})' + (f" - {what}" if what else ""), "#muted")
        if p.objectives:
            flow.para("Objective (12.08): one within 3\", nearest first.", "#muted")
            flow.newline()
            for o in p.objectives:
                flow.button(o, lambda o=o: sb.pick_objective(o), name=f"objective:{o}",
                            object_id="#toggle_on" if o == p.objective else "#toggle")
            flow.newline()
        elif p.fixed:
            flow.label("towards (the rule's): " + ", ".join(sb.scene.units[u].name for u in p.targets), "#muted")
        elif p.legal:
            flow.para(("Pile-in targets (12.03): enemy units within 5\", nearest first"
                       if p.record is C.PILE_IN else "Targets (12.08): enemy units within 3\", nearest first")
                      + "; pick one or more (here or on the table).", "#muted")
            flow.newline()
            for u in p.legal:
                flow.button(sb.scene.units[u].name, lambda u=u: sb.toggle_target(u), name=f"target:{u}",
                            object_id="#toggle_on" if u in p.targets else "#toggle", tip=sb.scene.units[u].name)
            flow.newline()
    flow.space(4)
    flow.label("Placement", "#subheading")
    flow.para(("The solver's placement is drawn as ghosts. " if p.proposed else
               "The solver found no placement: drag the models yourself. ")
              + "Drag a model to adjust it; each change is checked.", "#muted")
    flow.newline()
    flow.button("Reset", sb.reset_placement, name="reset placement", height=24, size=12,
                tip="back to the solver's placement")
    if p.record is C.CHARGE_MOVE:
        flow.button("Give up the charge", sb.give_up_charge, name="give up", object_id="#danger", height=24,
                    size=12, tip="the charge is not made: nothing moves (11.02)")
    flow.newline()
    v = p.verdict
    if v.key is None:
        return
    if v.reason is None:
        flow.para("Legal: Confirm (Enter) makes the move.", "#muted")
    else:
        flow.para(f"Would be refused: {sb.said(v.reason)}", "#warning")


def build_placement_footer(flow, sb) -> None:
    p = sb.placement
    flow.y = 6
    if p.stage == "placing":
        flow.button("Confirm  (Enter)", sb.confirm_placement, name="confirm placement", object_id="#primary",
                    height=28)
    flow.button("Close  (Esc)", sb.close_placement, name="close placement", height=28)
    flow.finish()
