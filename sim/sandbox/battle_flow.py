"""Playing a battle with a mission in the sandbox (07): Start battle, End phase, selecting a
unit to move (09.02), strategic reserves arriving by an ingress move (20.04), and the status
line through a command's resolution (what it did, where the battle is now).

A mixin of :class:`sim.sandbox.app.Sandbox`. Like everything in the sandbox it only turns
input into commands (``submit``) and decisions (``answer``); the rules refuse or accept, and a
refusal is shown as it is given, naming its rule."""

from __future__ import annotations

import esper

from sim.names import in_words, sides_of_battle
from sim import events as ev
from sim.commands import Disembark, EndPhase, Ingress, SelectToMove, StartBattle, default_disembark
from sim.commands.disembark import disembark_refusal
from sim.components import Position, Unit
from sim.phases.gates import where
from sim.sandbox.tracker import army_names
from sim.phases.state import Phase
from sim.rules.turn import PreBattleStep
from sim.replay.report import describe
from sim.rules.deployment import half_extents
from sim.rules.movement.turning import turnable
from sim.world import queries as W

# commands whose resolution the sandbox shows step by step (the attack sequence); the others
# resolve at once (but for the decisions they ask)
SELECT_MODES = (("normal", "a normal move (09.05): drag the unit, no selection needed"),
                ("stationary", "remain stationary (09.04)"), ("advance", "advance: the D6 is rolled now (09.06)"),
                ("fall back", "fall back, Ordered Retreat (09.07)"),
                ("desperate escape", "fall back by Desperate Escape: a hazard roll per model now (09.07)"))
MOVE_MODE_OF = {"advance": "advance", "fall back": "fall back", "desperate escape": "fall back"}
# the events a command's outcome line leaves out (outcome_status)
_NOT_OUTCOMES = frozenset({ev.DICE, ev.COMMAND, ev.DECISION, ev.ROUND, ev.PLAYER_TURN, ev.STEP})


class BattleFlowMixin:
    def init_battle_flow(self) -> None:
        """The sandbox's own state for a phased battle (per battle: reset by start_battle)."""
        self.ingress_unit = None  # a unit in strategic reserves being placed (click the table)
        self.ingress_ghost = None  # its Ingress command under the mouse, and why not (or None)
        self._cmd = None  # (record, unit, index of its first event) of the command being resolved
        self._resolving_shown = None
        self.tracker_shown: list[str] = []  # what the tracker wrote last (tracker.draw_tracker)

    @property
    def mission(self) -> bool:
        return self.battle.turn_state is not None

    # ------------------------------------------------------------------------ phases
    def phase_key(self) -> None:
        """E: in a battle with a mission, Start battle or End phase; in free play End turn."""
        if not self.mission:
            self.end_turn()
        elif self.pre_battle_step == PreBattleStep.RULES:  # (26 step 11: a pass, deploy_flow.py)
            self.pass_pre_battle()
        elif self.battle.turn_state.round == 0:
            self.start_mission()
        else:
            self.end_phase()

    def _idle_for_command(self) -> bool:
        if self.mode != "battle":
            self.status = "leave set-up (F2) or the replay (Esc) to give orders"
            return False
        if self.battle.busy or self.resolving or self.battle.pending is not None:
            from sim.sandbox.decision_panel import what_is_pending
            self.status = what_is_pending(self)  # (in words: whose decision, or which step)
            return False
        if self.order is not None:
            self.status = "finish or cancel the current order first (Esc cancels it)"
            return False
        return True

    def start_mission(self) -> None:
        """26 steps 10-12: the roll-off for the first turn, then battle round 1 begins."""
        if self._idle_for_command():
            self.ingress_unit = None
            self.submit(StartBattle())

    def end_phase(self) -> None:
        """07.02 The player with the choice is done: the phase (or their part of a Fight-phase
        step) ends. The rules refuse it with their reason (a pass in the Fight step while an
        eligible unit is within 5" of an enemy, 12.04.01)."""
        if self._idle_for_command():
            self.ingress_unit = None
            if self.submit(EndPhase()):
                self.skip_empty()  # (the setting: phase_skip.py)

    def select_to_move(self, mode: str) -> None:
        """09.02 Select the selected unit to move with ``mode`` before any model moves; the
        drag's move mode follows (an advance is dragged as an advance)."""
        if not self._idle_for_command():
            return
        if self.selected_unit is None:
            self.status = "select a unit first"
            return
        if self.submit(SelectToMove(self.selected_unit, mode)) and mode in MOVE_MODE_OF:
            self.move_mode = MOVE_MODE_OF[mode]

    def choose_move_type(self, mode: str) -> None:
        """The Movement panel's one move-type control: a normal move (or a fall back not yet
        selected) is the drag's type; the others select the unit now (09.02: an advance rolls)."""
        if mode == "normal" and self.selected_for() is None:
            self.set_move_mode(mode)
            self.status = f"{self.unit_label(self.selected_unit)}: normal move: drag it"
        else:
            self.select_to_move(mode)
        self.dirty |= {"orders", "action"}

    def advance_extra(self, uid: str) -> float:
        """What an advance adds to M for the drag's ring: the roll, once the unit was selected
        to advance (09.06: rolled before it moves); else the most a D6 can give."""
        b = self.battle
        b._enter()
        roll = W.unit_state(b.units[uid]).advance_roll
        return 6 if roll is None else roll

    def select_problem(self, mode: str) -> str | None:
        """Why SelectToMove(selected unit, mode) would be refused now (for a greyed button)."""
        if self.selected_unit is None:
            return "select a unit first"
        return self.battle.check(SelectToMove(self.selected_unit, mode))

    def restart(self) -> None:
        """Ctrl+R: a new battle from the scenario as opened (same seed), asking first when
        commands or set-up edits would be lost."""
        if self.mode != "battle":
            self.status = "leave set-up (F2) or the replay (Esc) to restart the battle"
            return
        self.ask_first("Restarting", "Restart", self._restart, edits=True)

    def _restart(self) -> None:
        spec, path = self.origin
        self.edited = False
        self.start_battle(spec, self.battle.seed, scenario_path=path)
        self.status = "restarted: a new battle from the scenario as opened"
        self.dirty |= {"orders", "action", "card"}

    # ------------------------------------------------------------------------ reserves
    def ingress_problem(self, uid: str) -> str | None:
        """Why unit ``uid`` cannot make an ingress move now (None: it may try; where it is set
        up is checked when it is placed)."""
        ts = self.battle.turn_state
        if ts is None:
            return "strategic reserves arrive only in a battle with a mission (20)"
        if ts.round < 2:
            return f"strategic reserves arrive from battle round 2 (20.04); now: round {ts.round}"
        if ts.phase != Phase.MOVEMENT:
            return f"an ingress move is made in the Movement phase (20.04); now: {where(ts, army_names(self.battle))}"
        return self._not_now(uid)

    def _not_now(self, uid: str) -> str | None:
        """Why the player at the screen cannot act with unit ``uid`` now: it is not its turn
        (09.02), or an activation is being resolved (None: it may)."""
        ts = self.battle.turn_state
        self.battle._enter()
        owner = esper.component_for_entity(self.battle.units[uid], Unit).owner
        if owner != ts.active:
            return f"only {self.battle.scenario.armies[ts.active].name}, whose turn it is, acts now (09.02)"
        if self.battle.busy or self.resolving:
            return "an activation is being resolved"
        return None

    def begin_ingress(self, uid: str) -> None:
        if not self._idle_for_command():
            return
        why = self.ingress_problem(uid)
        if why:
            self.status = f"{uid} cannot arrive now: {why}"
            return
        self.ingress_unit = uid
        self.ingress_ghost = None
        self.status = (f"set up {uid}: click the table within 6\" of a battlefield edge, more than 8\" from "
                       f"every enemy model (20.04); Esc cancels")
        self.dirty |= {"orders"}

    def cancel_ingress(self) -> None:
        self.ingress_unit = self.ingress_ghost = None
        self.status = "set-up from reserves cancelled"
        self.dirty |= {"orders"}

    def ingress_command(self, uid: str, x: float, y: float) -> Ingress:
        """The unit's formation (its models' listed places, about their centre, and their bases
        as they face), turned so its long side lies along the battlefield edge nearest (x, y),
        centred on (x, y) and kept on the board; a base that is not round turns with it (03.01).
        Where it may go is the rules' to say (Battle.check / submit)."""
        b = self.battle
        b._enter()
        ent = b.units[uid]
        models = esper.component_for_entity(ent, Unit).models
        pts = [(W.model_id(m), esper.component_for_entity(m, Position)) for m in models]
        cx = sum(p.x for _m, p in pts) / len(pts)
        cy = sum(p.y for _m, p in pts) / len(pts)
        offs = [(mid, p.x - cx, p.y - cy) for mid, p in pts]
        bw, bh = b.scenario.board
        ex = min(x, bw - x)  # distance to the nearer short edge (left / right)
        ey = min(y, bh - y)  # to the nearer long edge (top / bottom)
        ext = {mid: half_extents(self.scene.models[mid].fp) for mid, _dx, _dy in offs}
        span_x = max(dx + ext[m][0] for m, dx, _dy in offs) - min(dx - ext[m][0] for m, dx, _dy in offs)
        span_y = max(dy + ext[m][1] for m, _dx, dy in offs) - min(dy - ext[m][1] for m, _dx, dy in offs)
        along_x = ey <= ex  # the nearest edge runs along x
        face = ()
        if along_x != (span_x >= span_y):
            offs = [(mid, dy, dx) for mid, dx, dy in offs]  # (mirrored about the diagonal: each base too)
            face = tuple((mid, (90.0 - self.scene.models[mid].fp.angle) % 360.0) for mid, _dx, _dy in offs
                         if turnable(self.scene.models[mid].fp))
        # keep every base on the board: shift the centre inwards as far as the widest model needs
        lo_x = min(dx - self.scene.models[mid].radius for mid, dx, _dy in offs)
        hi_x = max(dx + self.scene.models[mid].radius for mid, dx, _dy in offs)
        lo_y = min(dy - self.scene.models[mid].radius for mid, _dx, dy in offs)
        hi_y = max(dy + self.scene.models[mid].radius for mid, _dx, dy in offs)
        x = min(max(x, -lo_x), bw - hi_x)
        y = min(max(y, -lo_y), bh - hi_y)
        return Ingress(uid, tuple((mid, round(x + dx, 4), round(y + dy, 4)) for mid, dx, dy in offs),
                       face=self.faces_turned(dict(face), dict(face)))  # (unit_move.py)

    def ingress_hover(self, pos) -> None:
        """While placing: the formation under the mouse and whether the rules would take it."""
        if self.ingress_unit is None or not self.camera.viewport.collidepoint(pos):
            self.ingress_ghost = None
            return
        tx, ty = self.camera.to_table(*pos)
        key = (round(tx, 1), round(ty, 1))
        if self.ingress_ghost is not None and self.ingress_ghost[0] == key:
            return
        cmd = self.ingress_command(self.ingress_unit, tx, ty)
        self.ingress_ghost = (key, cmd, self.battle.check(cmd))

    def ingress_click(self, pos) -> None:
        """A click on the table while placing a unit from reserves: the Ingress command there."""
        if self.ingress_unit is None:
            return
        tx, ty = self.camera.to_table(*pos)
        cmd = self.ingress_command(self.ingress_unit, tx, ty)
        if self.submit(cmd):
            self.ingress_unit = self.ingress_ghost = None

    # ------------------------------------------------------------------------ transports
    def disembark_gate(self, uid: str) -> str | None:
        """Why unit ``uid`` cannot disembark now, as far as the phase, the turn and its
        transport's move tell (None: it may try; the layout is searched when it does,
        ``disembark_problem``): the orders panel's Disembark buttons, made again after each
        command, ask this (a layout search per embarked unit took seconds a command with a
        community army's dozen passengers)."""
        ts = self.battle.turn_state
        if ts is None or ts.phase != Phase.MOVEMENT:
            return "units disembark in their own Movement phase (18.04)"
        return self._not_now(uid) or disembark_refusal(self.battle, self.battle.units[uid])

    def disembark_problem(self, uid: str) -> str | None:
        """Why unit ``uid`` cannot disembark now (None: the rules' default layout is legal)."""
        gate = self.disembark_gate(uid)
        if gate:
            return gate
        cmd = default_disembark(self.battle, self.battle.units[uid], None)
        if cmd is None:
            return self.battle.check(Disembark(uid, ())) or "no layout round its transport is legal (18.04)"
        return None

    def disembark(self, uid: str) -> None:
        """18.04 Disembark with the solver's default layout (the mode is the rules'); the unit's
        models can then be dragged like a move if it made a Tactical disembark."""
        if not self._idle_for_command():
            return
        why = self.disembark_problem(uid)
        if why:
            self.status = f"{uid} cannot disembark now: {why}"
            return
        self.battle._enter()
        self.submit(default_disembark(self.battle, self.battle.units[uid], None))

    # ------------------------------------------------------------------------ status
    def command_started(self, cmd) -> None:
        self._cmd = (cmd.record, getattr(cmd, "unit", ""), len(self.battle.events))
        self._resolving_shown = None

    def resolving_status(self) -> None:
        """While a command resolves, the status line says what it waits for (a decision, a
        step) instead of staying on 'accepted'."""
        if not self.resolving or self._cmd is None:
            return
        req = self.battle.pending
        key = (len(self.battle.events), None if req is None else (req.kind, req.key))
        if key == self._resolving_shown:
            return
        self._resolving_shown = key
        record, unit = self._cmd[:2]
        what = f"{record.kind} {unit}".strip()
        if req is not None:
            who = self.battle.scenario.armies[req.player].name
            if req.player in self.ai:  # (the computer's own: answered by its player, never asked)
                self.status = f"{what}: the computer decides for {who}"
            else:  # (no verb after an army's name: "Wardens decides" reads wrong)
                self.status = f"{what}: a decision for {who} - {req.prompt or req.kind} (the orders panel)"
        else:
            self.status = f"resolving {what}: {self.stage_text()} - Step (Space), Auto (P) or Finish"

    def outcome_status(self) -> str:
        """What the command just resolved did (the last lines of its events, in the report's
        words) and, in a battle with a mission, where the battle is now."""
        if self._cmd is None:
            return "resolved"
        record, unit, start = self._cmd
        lines = []
        for e in self.battle.events[start:]:
            if e["type"] in _NOT_OUTCOMES:
                continue
            line = describe(e)
            if line:
                lines += [s.strip(" =-") for s in line.split("\n") if s.strip(" =-")]
        sides = sides_of_battle(self.battle)  # ("+2 VP to red": the army's name)
        lines = [in_words(s, sides) for s in lines]
        head = f"done: {record.kind} {unit}".strip()
        ts = self.battle.turn_state
        if ts is not None and record.boundary:  # (it started the battle or ended a phase)
            vp = [s for s in lines if " VP" in s]
            tail = (f"now {where(ts, army_names(self.battle))}" if not ts.over else lines[-1] if lines else "the battle is over")
            return "; ".join([head] + vp[-2:] + [tail])
        done = [e for e in self.battle.events[start:] if e["type"] == ev.ATTACKS_DONE]
        body = "; ".join(self._casualties(done) if done else lines[-2:])
        return f"{head} - {body}" if body else head

    def _casualties(self, done: list) -> list[str]:
        """What a unit's attacks did, as a player asks it after rolling: the models removed, by
        unit ("2 models of Raider Mob (3) removed; Raider Mob (3) is destroyed"), not the last
        dice lines (a hazard roll said after the damage was done)."""
        by_unit: dict[str, int] = {}
        for e in done:
            for mid in e["removed"]:
                m = self.scene.models.get(mid)
                uid = m.unit if m is not None else mid
                by_unit[uid] = by_unit.get(uid, 0) + 1
        out = [f"{n} model{'s' if n != 1 else ''} of {uid} removed" for uid, n in by_unit.items()]
        gone = [e["unit"] for e in self.battle.events[self._cmd[2]:] if e["type"] == ev.UNIT_DESTROYED]
        return (out or ["no model removed"]) + [f"{uid} is destroyed" for uid in dict.fromkeys(gone)]


# ============================================================================ the orders panel
def build_phase_panel(flow, sb) -> None:
    """The orders panel's part for a battle with a mission (idle, no order open): what the phase
    still requires, selecting the selected unit to move in the Movement phase, and the units in
    strategic reserves with their Set up buttons."""
    from sim.sandbox import tracker as T
    b = sb.battle
    info = T.tracker_info(b)
    if info is None:
        return
    if info.round == 0:
        flow.label("Before the battle", "#heading")
    elif info.over:
        flow.label("The battle is over", "#heading")
        flow.para(T.result_text(info))
    else:
        flow.label(T.phase_title(info), "#heading")
        flow.label(f"battle round {info.round} of {info.rounds}, {T.possessive(info.names[info.active])} turn",
                   "#subheading")
    for line, required in T.phase_todo(b):
        flow.para(in_words(line, sb.scene.words), "#warning" if required else "#muted")  # (names: sim.names)
    flow.newline()
    if info.round == 0:
        from sim.sandbox.computer_panel import build_pre_battle_choice
        build_pre_battle_choice(flow, sb)  # (who the computer plays, and the dialog's button)
        flow.button("Start battle  (E)", sb.start_mission, name="phase:start-panel", object_id="#primary")
        flow.newline()
    ts = b.turn_state
    if ts.round and not ts.over and ts.phase == Phase.MOVEMENT and sb.selected_unit is not None \
            and sb.selected_unit in sb.scene.units and not sb.scene.units[sb.selected_unit].destroyed:
        flow.space(2)
        flow.label(f"Move type of {sb.scene.units[sb.selected_unit].name} (M, 09.02)", "#subheading")
        flow.newline()
        current = sb.move_choice()  # (one control: the selection made, else the type chosen for the drag)
        for mode, tip in SELECT_MODES:
            why = sb.select_problem(mode) if current != mode else None
            flow.button(mode, lambda m=mode: sb.choose_move_type(m), name=f"select:{mode}",
                        tip=tip + (f"<br>Not now: {sb.said(why)}" if why else ""),
                        object_id="#toggle_on" if current == mode else "#unavailable" if why else "#toggle")
        flow.newline()
        flow.para("Engaged: no normal move (09.05); fall back or remain stationary."
                  if sb.scene.units[sb.selected_unit].engaged else
                  "Drag a model to move the unit (Shift: one model, Enter confirms; R turns it). Reset after its move.", "#muted")
    aboard = T.embarked(b)
    if aboard and ts.round and not ts.over:
        flow.space(2)
        flow.label("Embarked (18)", "#subheading")
        for uid, tid, owner in aboard:
            why = sb.disembark_gate(uid) if owner == ts.active and ts.phase == Phase.MOVEMENT else None
            flow.inline_label(flow.fit(f"{sb.scene.units[uid].name} in {sb.scene.units[tid].name if tid in sb.scene.units else tid}", flow.width - 100),
                              width=flow.width - 100, height=26)
            if owner == ts.active and ts.phase == Phase.MOVEMENT:
                flow.button("Disembark", lambda u=uid: sb.disembark(u), name=f"disembark:{uid}", width=90,
                            tip=sb.said(why) if why else "set it up round its transport (the default layout; the rules give "
                                       "the mode: Rapid, Tactical or Combat, 18.04)",
                            object_id="#unavailable" if why else "#primary")
            flow.newline()
    waiting = T.in_reserves(b)
    if waiting:
        flow.space(2)
        flow.label("Strategic reserves (20)", "#subheading")
        for uid, owner in waiting:
            why = sb.ingress_problem(uid)
            placing = sb.ingress_unit == uid
            flow.inline_label(flow.fit(f"{sb.scene.units[uid].name}, {b.scenario.armies[owner].name}",
                                       flow.width - 90), width=flow.width - 90, height=26)
            flow.button("placing..." if placing else "Set up", lambda u=uid: sb.begin_ingress(u),
                        name=f"reserve:{uid}", width=80,
                        tip=sb.said(why) if why else "click the table within 6\" of an edge to set it up (20.04)",
                        object_id="#toggle_on" if placing else "#unavailable" if why else "#primary")
            flow.newline()
    flow.space(4)
