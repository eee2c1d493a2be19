"""The deployment as a phase of the sandbox (26 steps 5-11, a battle deployed by the rules):
the roles roll-off and its decision, each player's battle formations (units marked for
strategic reserves within the cap, then confirmed), the alternating deployment (a unit picked
from the list BY NAME and dragged, or clicked, onto the table in its compact formation, with
the same green/red verdict as a move and the Deploy command's refusal in words), automatic
set-ups by the default player's policy, and the pre-battle rules (a Scouts unit's scout move
dragged like a move, or a pass). Both players are deployed by the person at the screen.

A mixin of :class:`sim.sandbox.app.Sandbox`. Nothing here decides a rule: every verdict is
``Battle.check`` on the very command the drop would submit, and every change is a command
through ``submit`` (logged, replayed and undoable like the others). The Infiltrators hint is
a drawing only (where a model of the unit could stand), never the check."""

from __future__ import annotations

import esper
import numpy as np
import pygame

from sim.commands import DeclareFormations, Deploy, EndPhase, ScoutMove
from sim.commands.deploy import default_deploy, default_scout
from sim.components import Unit
from sim.errors import ScriptError
from sim.names import possessive
from sim.events.pre_battle import roll_off
from sim.plan import deployment as PD
from sim.players import deployment as policy
from sim.rules import geometry
from sim.rules.abilities import Hook
from sim.rules.movement.turning import turnable
from sim.rules.pre_battle import INFILTRATE_DISTANCE
from sim.rules.turn import PLAYER, PreBattleStep
from sim.sandbox import style as S
from sim.sandbox.move_preview import draw_note, ghost_ring, wrap
from sim.sandbox.unit_move import TURN_STEP, rotate_about
from sim.world import queries as W

PLACE, SCOUTS = "place", "scouts"  # the list buttons' names: "place:<unit id>", "scouts:<unit id>"
HINT_CELL = 1.0  # inches: the Infiltrators hint's grid
HINT_OK = (120, 170, 120, 60)  # where an Infiltrators model could stand (a calm, light tint)


def role_name(ts, player: int) -> str:
    """'Defender' or 'Attacker' (26 step 5)."""
    return "Defender" if ts.the_defender() == player else "Attacker"


def pre_battle_headline(battle) -> tuple[int, str, str] | None:
    """Who acts in the pre-battle step and the tracker's words for it ('Deployment: Raiders
    (Defender) deploys, 2 units left'), and in a narrow strip ('Deploy: Raiders, 2 left'); None
    outside the pre-battle steps."""
    ts = battle.turn_state
    if ts is None or ts.round != 0:
        return None
    names = [a.name for a in battle.scenario.armies]
    req = battle.pending
    if ts.pre_battle is None:
        if req is not None and req.kind == "role":
            return req.player, f"Roles: {possessive(names[req.player])} choice (won the roll-off)", \
                f"Roles: {possessive(names[req.player])} choice"  # (no verb after an army's name)
        if req is not None and req.kind in ("oath", "oath_target"):  # (sim.phases.oaths)
            return req.player, f"Oath: {possessive(names[req.player])} oath to swear", f"Oath: {names[req.player]}"
        return None
    who, short = f"{names[ts.chooser]} ({role_name(ts, ts.chooser)})", names[ts.chooser]
    battle._enter()
    if ts.pre_battle == PreBattleStep.FORMATIONS:
        return ts.chooser, f"Battle formations: {who} declares reserves", f"Formations: {short}"
    if ts.pre_battle == PreBattleStep.DEPLOY:
        n = len(PD.to_deploy(ts.chooser))
        return ts.chooser, f"Deployment: {who} deploys, {n} unit{'s' if n != 1 else ''} left", \
            f"Deploy: {short}, {n} left"
    n = len(PD.scouts(battle, ts.chooser))
    return ts.chooser, f"Pre-battle rules: {who} may scout, {n} unit{'s' if n != 1 else ''}", f"Scouts: {short}"


def roll_off_line(e: dict, names) -> str | None:
    """A roll-off's dice event in the log's words ('roll-off for the first turn: Wardens 2,
    Raiders 4'): the report has no line for dice; the sandbox shows these two."""
    got = roll_off(e)
    if got is None:
        return None
    what, (a, b) = got
    return f"roll-off for {'the ' if what == 'first turn' else ''}{what}: {names[0]} {a}, {names[1]} {b}"


def _uid_of(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


class DeployMixin:
    def init_deploy_flow(self) -> None:
        """The sandbox's own state for the pre-battle steps (per battle)."""
        self.reserve_marks: dict[int, list[str]] = {0: [], 1: []}  # 26 step 7 marked, per player
        self.formation_error: str | None = None
        self.carry = None  # a unit being set up: {"unit", "scouts" (24.31 from reserves), "from_list", "ghost"}
        self._hint = None  # (unit id, scene version, surface rect key, the hint's points)

    @property
    def pre_battle_step(self):
        ts = self.battle.turn_state
        return None if ts is None or ts.round != 0 else ts.pre_battle

    def unit_label(self, uid: str) -> str:
        uv = self.scene.units.get(uid)
        return uv.name if uv is not None else uid

    # ------------------------------------------------------------------ 26 step 7
    def toggle_reserve(self, uid: str) -> None:
        """Mark (or unmark) a unit of the declaring player for strategic reserves; a mark the
        cap refuses is not made, and the refusal is shown with its rule."""
        ts = self.battle.turn_state
        marks = self.reserve_marks[ts.chooser]
        if uid in marks:
            marks.remove(uid)
            self.formation_error = None
        else:
            trial = tuple(marks + [uid])
            why = self.battle.check(DeclareFormations(PLAYER[ts.chooser], trial))
            if why is not None:
                self.formation_error = f"{self.unit_label(uid)} cannot wait in reserves: {why}"
                self.status = self.formation_error
            else:
                marks.append(uid)
                self.formation_error = None
        self.dirty |= {"orders"}

    def confirm_formations(self) -> None:
        if not self._idle_for_command():
            return
        ts = self.battle.turn_state
        player = ts.chooser
        marks = self.reserve_marks[player]
        if self.submit(DeclareFormations(PLAYER[player], tuple(marks))):
            self.formation_error = None

    # ------------------------------------------------------------------ 26 step 8 / 24.31
    def carry_unit(self, uid: str, scouts: bool = False, from_list: bool = False) -> None:
        """Take a unit waiting to be set up: the ghost follows the pointer over the table; a
        release (after a drag from the list) or a click drops it."""
        if not self._idle_for_command():
            return
        self.carry = {"unit": uid, "scouts": scouts, "from_list": from_list, "ghost": None}
        self.select(uid)  # (its datasheet on the card)
        self._hint = None
        infil = self._infiltrates(uid) and not scouts
        self.status = (f"set up {self.unit_label(uid)}: drop it on the table wholly within your deployment zone"
                       + (" or, as Infiltrators, in the lit area more than 8\" from the enemy (24.20)" if infil
                          else " (26 step 8)") + "; Esc puts it back")
        self.dirty |= {"orders", "card"}

    def list_press(self, button) -> None:
        """A button of the deployment list pressed (not yet released): the drag of that unit
        onto the table begins (a release over the table drops it there)."""
        name = next((n for n, b in self.names.items() if b is button), "")
        prefix, _, uid = name.partition(":")
        if uid not in self.scene.units or prefix not in (PLACE, SCOUTS):
            return
        self.battle._enter()
        if prefix == SCOUTS and not W.in_reserves(self.battle.units[uid]):
            return  # (a Scouts unit on the table moves by a drag of its models)
        self.carry_unit(uid, prefix == SCOUTS, from_list=True)

    def drop_carried(self) -> None:
        self.carry = None
        self._hint = None
        self.status = "put back: the unit still waits to be set up"
        self.dirty |= {"orders"}

    def _infiltrates(self, uid: str) -> bool:
        self.battle._enter()
        return W.every_model_has(self.battle.units[uid], Hook.DEPLOYS_FORWARD)

    def rotate_carried(self, step: int) -> None:
        """R (or the wheel) while a unit is carried: its formation turns, and each base that is
        not round turns with it (03.01), ``TURN_STEP`` degrees a step."""
        c = self.carry
        c["turn"] = (c.get("turn", 0.0) + step * TURN_STEP) % 360
        c["ghost"] = None
        turned = f"{self.unit_label(c['unit'])} turned {c['turn']:g} degrees (R, wheel)"
        self.status = turned
        self.carry_hover(self.mouse)  # (its verdict where the pointer is, if it is over the table)
        if c["ghost"] is not None:
            self.status = f"{turned}: {self.status}"

    def set_up_command(self, uid: str, x: float, y: float, scouts: bool = False, turn: float = 0.0):
        """The unit's compact formation (its models' places as they wait, about their centre),
        turned ``turn`` degrees with each base that is not round, centred on the table point
        (x, y), kept on the board. Where it may go is the rules' to say (the Deploy or
        ScoutMove check)."""
        b = self.battle
        b._enter()
        ent = b.units[uid]
        form = PD.formation(ent)
        face = ()
        if turn:
            turned = rotate_about({m: (dx, dy) for m, dx, dy in form}, (0.0, 0.0), turn)
            form = [(m, *turned[m]) for m, _dx, _dy in form]
            face = tuple((m, (self.scene.models[m].fp.angle + turn) % 360.0) for m, _dx, _dy in form
                         if turnable(self.scene.models[m].fp))
        bw, bh = b.scenario.board
        r = {mid: self.scene.models[mid].radius for mid, _dx, _dy in form}
        x = min(max(x, -min(dx - r[m] for m, dx, _dy in form)), bw - max(dx + r[m] for m, dx, _dy in form))
        y = min(max(y, -min(dy - r[m] for m, _dx, dy in form)), bh - max(dy + r[m] for m, _dx, dy in form))
        return (ScoutMove if scouts else Deploy)(uid, tuple((m, round(x + dx, 4), round(y + dy, 4))
                                                                    for m, dx, dy in form), face=face)

    def carry_hover(self, pos) -> None:
        """While a unit is carried: its set-up under the pointer and whether the rules take it."""
        c = self.carry
        if c is None:
            return
        if not self.camera.viewport.collidepoint(pos):
            c["ghost"] = None
            return
        tx, ty = self.camera.to_table(*pos)
        key = (round(tx, 1), round(ty, 1))
        if c["ghost"] is not None and c["ghost"][0] == key:
            return
        cmd = self.set_up_command(c["unit"], tx, ty, c["scouts"], c.get("turn", 0.0))
        why = self.battle.check(cmd)
        if c["ghost"] is None or c["ghost"][2] != why:
            self.status = f"{self.unit_label(c['unit'])} here: " + (
                "legal - release (or click) to set it up" if why is None else f"would be refused: {why}")
        c["ghost"] = (key, cmd, why)

    def carry_drop(self, pos) -> bool:
        """Drop the carried unit at ``pos``: the command there if the rules take it, else the
        refusal in the status line (the unit stays carried). True if it was set up."""
        c = self.carry
        if c is None or not self.camera.viewport.collidepoint(pos):
            return False
        c["from_list"] = False  # (a refused drop: the next click tries again)
        tx, ty = self.camera.to_table(*pos)
        cmd = self.set_up_command(c["unit"], tx, ty, c["scouts"], c.get("turn", 0.0))
        why = self.battle.check(cmd)
        if why is not None:
            self.status = f"{self.unit_label(c['unit'])} cannot be set up there: {why}"
            c["ghost"] = (None, cmd, why)
            return False
        if self.submit(cmd):
            self.carry = None
            self._hint = None
            return True
        return False

    def auto_deploy(self, uid: str) -> None:
        """The default player's set-up of this unit (sim.commands.deploy.default_deploy)."""
        self._auto(uid, default_deploy, "set-up found for {} in its zone: place it by hand")

    def _auto(self, uid: str, default, none: str) -> None:
        """Submit the default player's command for the unit (``default(battle, unit)``), or say
        that it found none (``none``, with the unit's name)."""
        if not self._idle_for_command():
            return
        self.carry = None
        b = self.battle
        b._enter()
        cmd = default(b, b.units[uid])
        if cmd is None:
            self.status = "no legal " + none.format(self.unit_label(uid))
            return
        self.submit(cmd)

    def auto_deploy_rest(self) -> None:
        """The default player's deployment for every unit left, both players, one Deploy
        command each (each logged and undoable)."""
        if not self._idle_for_command():
            return
        self.carry = None
        b = self.battle
        n = 0
        while self.pre_battle_step == PreBattleStep.DEPLOY and not self.resolving and b.pending is None:
            b._enter()
            try:
                cmd = policy.deploy(b, b.turn_state.chooser)
            except ScriptError as e:  # (26 step 8: the army does not fit its zone; the solver says why)
                self.status = str(e).split(": ", 1)[-1]
                return
            if not self.submit(cmd):
                return  # (the refusal is in the status line)
            n += 1
        if not self.resolving:
            self.status = f"auto-deployed {n} unit{'s' if n != 1 else ''}; " + self.status

    def auto_scout(self, uid: str) -> None:
        """The default player's scout move for this unit (sim.commands.deploy.default_scout)."""
        self._auto(uid, default_scout, "scout move found for {}: drag it, or pass")

    def pass_pre_battle(self) -> None:
        """26 step 11 The player with the choice resolves no more pre-battle rules."""
        if self._idle_for_command():
            self.carry = None
            self.submit(EndPhase())

    def scout_reach(self, uid: str) -> float | None:
        """24.31 The unit's Scouts distance while it may still scout (a drag's limit)."""
        if self.pre_battle_step != PreBattleStep.RULES:
            return None
        b = self.battle
        b._enter()
        ent = b.units[uid]
        if not PD.may_scout(b, ent):
            return None
        return float(PD.scouts_distance(ent))

    # ------------------------------------------------------------------ drawing
    def draw_deploy(self, surf) -> None:
        c = self.carry
        if c is None or self.mode != "battle":
            return
        if not c["scouts"] and self._infiltrates(c["unit"]):
            self._draw_hint(surf, c["unit"])
        g = c["ghost"]
        if g is None:
            return
        _key, cmd, why = g
        colour = S.LEGAL if why is None else S.ILLEGAL
        cam = self.camera
        owner = self.scene.units[c["unit"]].owner
        fill = self.colours[owner] if owner < len(self.colours) else S.TEXT
        faces = dict(cmd.face)
        for mid, x, y in cmd.to:
            fp = self.scene.models[mid].fp.moved(x, y, faces.get(mid))
            sx, sy = cam.to_screen(x, y)
            rad = max(3, cam.length(0.5 * max(fp.length, fp.width)))
            disc = pygame.Surface((2 * rad + 2, 2 * rad + 2), pygame.SRCALPHA)
            if fp.shape == "round":
                pygame.draw.circle(disc, (*fill, 120), (rad + 1, rad + 1), rad)
            else:  # (the base as it would be set up, turned)
                pts = [cam.to_screen(px, py) for px, py in geometry.outline(fp, 24)]
                pygame.draw.polygon(disc, (*fill, 120), [(px - sx + rad + 1, py - sy + rad + 1) for px, py in pts])
            surf.blit(disc, (sx - rad - 1, sy - rad - 1))
            ghost_ring(surf, cam, fp, colour, 2)
        if why is not None:
            x, y = cmd.to[0][1], cmd.to[0][2]
            draw_note(surf, cam.to_screen(x, y), wrap(self.said(why)), S.ILLEGAL, "this set-up would be refused")

    def _draw_hint(self, surf, uid: str) -> None:
        """24.20 Where a model of the unit could stand as Infiltrators: the cells more than 8"
        (plus its base) from the enemy zone and every enemy model, tinted (a hint)."""
        cam = self.camera
        key = (uid, self.scene.version, cam.scale, cam.to_screen(0, 0), surf.get_size())
        if self._hint is None or self._hint[0] != key:  # (drawn once into a layer, blitted each frame)
            layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            side = max(1, int(round(cam.length(HINT_CELL))))
            for x, y in self._hint_cells(uid):
                sx, sy = cam.to_screen(x - HINT_CELL / 2, y - HINT_CELL / 2)
                layer.fill(HINT_OK, (int(sx), int(sy), side, side))
            self._hint = (key, layer)
        surf.blit(self._hint[1], (0, 0))

    def _hint_cells(self, uid: str) -> np.ndarray:
        b = self.battle
        ts = b.turn_state
        owner = self.scene.units[uid].owner
        bw, bh = b.scenario.board
        xs = np.arange(HINT_CELL / 2, bw, HINT_CELL)
        ys = np.arange(HINT_CELL / 2, bh, HINT_CELL)
        px, py = np.meshgrid(xs, ys)
        pts = np.stack([px.ravel(), py.ravel()], axis=1)
        reach = INFILTRATE_DISTANCE + max(self.scene.models[m].radius for m in self.scene.units[uid].models)
        ok = _polygon_distance(pts, ts.zones()[1 - owner]) > reach
        for m in self.scene.models.values():
            if m.owner != owner and m.alive:
                ok &= np.hypot(pts[:, 0] - m.x, pts[:, 1] - m.y) > reach + m.radius
        return pts[ok]


def _polygon_distance(pts: np.ndarray, poly) -> np.ndarray:
    """Each point's distance to the polygon (0 inside): for the hint only."""
    P = np.asarray(poly, dtype=float)
    A, B = P, np.roll(P, -1, axis=0)
    d = np.full(len(pts), np.inf)
    inside = np.zeros(len(pts), dtype=bool)
    for (ax, ay), (bx, by) in zip(A, B):
        ex, ey = bx - ax, by - ay
        L = ex * ex + ey * ey or 1e-12
        t = np.clip(((pts[:, 0] - ax) * ex + (pts[:, 1] - ay) * ey) / L, 0, 1)
        d = np.minimum(d, np.hypot(pts[:, 0] - (ax + t * ex), pts[:, 1] - (ay + t * ey)))
        cross = ((ay > pts[:, 1]) != (by > pts[:, 1])) & \
            (pts[:, 0] < ax + (pts[:, 1] - ay) * ex / ((by - ay) or 1e-12))
        inside ^= cross
    d[inside] = 0.0
    return d


# ============================================================================ the orders panel
ROLE_TEXT = {"defender": "Defender: deploy first", "attacker": "Attacker: deploy second"}


def build_role(flow, sb, req) -> None:
    """26 step 5 The roll-off's winner chooses the roles: a button each (the default marked)."""
    roll = next((e for e in reversed(sb.battle.events) if roll_off(e) is not None), None)
    if roll is not None:
        flow.para(roll_off_line(roll, [a.name for a in sb.battle.scenario.armies]), "#muted")
    flow.para("The Defender sets up first and chooses nothing else; the Attacker sets up second "
              "(26 steps 5, 8).", "#muted")
    for opt in req.options:
        flow.button(ROLE_TEXT.get(opt, str(opt)), lambda o=opt: sb.answer(o), name=f"answer:{opt}",
                    tip="the default policy's choice" if opt == req.default else None,
                    object_id="#primary" if opt == req.default else None)
        flow.newline()


def build_pre_battle_panel(flow, sb) -> None:
    """The orders panel before battle round 1 in a battle deployed by the rules: the step's
    heading and who acts, then the step's controls."""
    b = sb.battle
    ts = b.turn_state
    names = [a.name for a in b.scenario.armies]
    step = ts.pre_battle
    who = names[ts.chooser]
    flow.label(f"Before the battle: {step}", "#heading")
    flow.label(f"{who}, the {role_name(ts, ts.chooser)}, acts (26)", "#subheading")
    flow.newline()
    b._enter()
    if step == PreBattleStep.FORMATIONS:
        _formations(flow, sb, ts, who)
    elif step == PreBattleStep.DEPLOY:
        _deployment(flow, sb, ts, who)
    else:
        _scouts(flow, sb, ts, who)
    flow.space(4)


def _formations(flow, sb, ts, who) -> None:
    marks = sb.reserve_marks[ts.chooser]
    flow.para(f"Mark the units of {who} that start in strategic reserves (20.01: at most half), then "
              f"Confirm below. Each choice stays secret until both are made.", "#muted")
    for ent in PD.units_of(ts.chooser):
        uid = _uid_of(ent)
        on = uid in marks
        label = f"{'in reserves' if on else 'deploys'}: {sb.unit_label(uid)}"
        flow.button(flow.fit(label, flow.width - 8), lambda u=uid: sb.toggle_reserve(u), name=f"reserve-mark:{uid}",
                    object_id="#toggle_on" if on else "#toggle",
                    tip="click to keep it in strategic reserves (20.01)" if not on else "click to deploy it")
        flow.newline()
    if sb.formation_error:
        flow.para(sb.formation_error, "#warning")
    held = ", ".join(sb.unit_label(u) for u in marks) or "none"
    flow.para(f"In reserves: {held}", "#muted")


def _deployment(flow, sb, ts, who) -> None:
    waiting = [_uid_of(e) for e in PD.to_deploy(ts.chooser)]
    flow.para(f"Drag a unit of {who} onto the table, wholly within the zone of its colour (or click it, "
              f"then the table). Green: legal; red: the reason.", "#muted")
    for uid in waiting:
        carrying = sb.carry is not None and sb.carry["unit"] == uid
        infil = sb._infiltrates(uid)
        n = len(sb.scene.units[uid].models)
        label = f"{sb.unit_label(uid)} ({n} model{'s' if n != 1 else ''}{', Infiltrators' if infil else ''})"
        w = flow.width - 60
        flow.button(flow.fit(("placing: " if carrying else "") + label, w), lambda u=uid: sb.carry_unit(u),
                    name=f"{PLACE}:{uid}", width=w, object_id="#toggle_on" if carrying else "#primary",
                    tip="drag onto the table, or click then click the table (26 step 8)"
                        + ("<br>Infiltrators: anywhere more than 8\" from the enemy zone and models (24.20)"
                           if infil else ""))
        flow.button("Auto", lambda u=uid: sb.auto_deploy(u), name=f"auto-deploy:{uid}", width=50,
                    tip="Auto-deploy this unit: the default player's set-up")
        flow.newline()
    other = [_uid_of(e) for e in PD.to_deploy(1 - ts.chooser)]
    if other:
        flow.para(f"{sb.battle.scenario.armies[1 - ts.chooser].name} still to set up: "
                  + ", ".join(sb.unit_label(u) for u in other), "#muted")
    held = [sb.unit_label(_uid_of(e)) for e in W.all_units() if W.in_reserves(e)]
    if held:
        flow.para("In strategic reserves: " + ", ".join(held), "#muted")


def _scouts(flow, sb, ts, who) -> None:
    units = PD.scouts(sb.battle, ts.chooser)
    flow.para(f"{who} may make a scout move with each Scouts unit (24.31): drag one of its models (up to its "
              f"Scouts distance, ending more than 8\" from every enemy), or pass.", "#muted")
    for ent in units:
        uid = _uid_of(ent)
        d = PD.scouts_distance(ent)
        w = flow.width - 60
        if W.in_reserves(ent):
            flow.button(flow.fit(f"{sb.unit_label(uid)}: set up from reserves", w),
                        lambda u=uid: sb.carry_unit(u, True), name=f"{SCOUTS}:{uid}", width=w, object_id="#primary",
                        tip="Scouts from strategic reserves: set it up wholly within your zone (24.31)")
        else:
            flow.button(flow.fit(f'{sb.unit_label(uid)}: scout up to {d}"', w),
                        lambda u=uid: sb.select(u), name=f"{SCOUTS}:{uid}", width=w,
                        tip="select it, then drag one of its models on the table")
        flow.button("Auto", lambda u=uid: sb.auto_scout(u), name=f"auto-scout:{uid}", width=50,
                    tip="the default player's scout move")
        flow.newline()


def build_pre_battle_footer(flow, sb) -> None:
    """The fixed row under the orders panel: the button that finishes the step's part."""
    ts = sb.battle.turn_state
    who = sb.battle.scenario.armies[ts.chooser].name
    if ts.pre_battle == PreBattleStep.FORMATIONS:
        flow.button(f"Confirm {possessive(who)} formations", sb.confirm_formations, name="formations:confirm",
                    object_id="#primary", height=28, tip="declare them (26 step 7)")
    elif ts.pre_battle == PreBattleStep.DEPLOY:
        flow.button("Auto-deploy the rest", sb.auto_deploy_rest, name="place:auto-rest", height=28,
                    tip="every unit left, both players, by the default player's policy (one command each)")
    else:
        flow.button(f"Pass: {who} is done  (E)", sb.pass_pre_battle, name="scouts:pass", object_id="#primary",
                    height=28, tip="end this player's pre-battle rules (26 step 11)")
