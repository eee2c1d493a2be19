"""Actions: what buttons, keys and clicks do. Commands go through ``submit`` (Battle.submit),
decisions through ``answer`` (Battle.answer), progress through ``step``/``finish`` (Battle.tick).

A mixin of :class:`sim.sandbox.app.Sandbox`."""

from __future__ import annotations

import time
from pathlib import Path

import esper

from sim import commands as C
from sim.commands import EndTurn
from sim.components import Activation, ModelId, Stage, Unit
from sim.errors import Refusal
from sim.names import counted, ids_named
from sim.replay.log import write_atomic, write_log
from sim.sandbox.orders import FightOrder, ShootOrder, order_refusal


class ActionsMixin:
    # ======================================================================= actions
    def select(self, unit_id: str | None, model_id: str | None = None) -> None:
        if unit_id != self.selected_unit:
            self.dirty |= {"card", "orders", "action"}  # (the bar: orders greyed for the unit's side, its move type)
        self.selected_unit, self.selected_model = unit_id, model_id
        if unit_id:
            self.status = f"selected {self.scene.units[unit_id].name}"

    def next_unit(self) -> None:
        ids = [u for u, v in self.scene.units.items() if not v.destroyed]
        if not ids or self.order is not None:
            return
        i = (ids.index(self.selected_unit) + 1) % len(ids) if self.selected_unit in ids else 0
        first = self.scene.living(ids[i])[0].id
        self.select(ids[i], first)

    def _can_order(self) -> bool:
        if self.mode != "battle":
            self.status = "leave set-up (F2) or the replay (Esc) to give orders"
            return False
        if self.battle.busy or self.resolving or self.battle.pending is not None:
            from sim.sandbox.decision_panel import what_is_pending
            self.status = what_is_pending(self)  # (in words: whose decision, or which step)
            return False
        if self.selected_unit is None or self.scene.units[self.selected_unit].destroyed:
            self.status = "select a unit first"
            return False
        return True

    def begin_shoot(self) -> None:
        if not self._can_order() or self._order_refused(C.SHOOT, "Shoot"):
            return
        self.order = ShootOrder(self.battle, self.selected_unit)
        elig = [t for t, r in self.order.eligibility.items() if r is None]
        self.status = ("choose a shooting type" if elig else
                       "this unit qualifies for no shooting type (hover the types for why)")
        if len(elig) == 1:  # (the one type allowed: chosen, issue 28 item 5)
            self.order.choose_type(elig[0])
            self.status = self.order.message
        self.dirty |= {"orders", "action", "dice"}  # (the tray: the last activation's pool goes)

    def _order_refused(self, record, what: str) -> bool:
        """The phase does not accept the order (sim.sandbox.orders.order_refusal): said, True."""
        why = order_refusal(self, record)
        if why:
            self.status = f"{what}: {why}"
        return why is not None

    def begin_fight(self) -> None:
        if not self._can_order() or self._order_refused(C.FIGHT, "Fight"):
            return
        self.order = FightOrder(self.battle, self.selected_unit)
        self.status = self.order.eligible and f"not eligible to fight: {self.order.eligible}" or \
            "choose melee weapons, then click an engaged enemy unit"
        self.dirty |= {"orders", "action", "dice"}

    def choose_type(self, t: str) -> None:
        if isinstance(self.order, ShootOrder):
            self.order.choose_type(t)
            self.status = self.order.message
            self.dirty.add("orders")

    def toggle_slot(self, i: int) -> None:
        if self.order is not None and 0 <= i < len(self.order.slots):
            self.order.toggle(i)
            self.status = self.order.message
            self.dirty.add("orders")

    def assign_target(self, uid: str) -> None:
        if isinstance(self.order, ShootOrder) and self.order.type is None:
            self.status = "choose a shooting type first"
            return
        self.status = self.order.assign(uid)
        self.dirty.add("orders")

    def adjust_split(self, i: int, uid: str, d: int) -> None:
        if isinstance(self.order, FightOrder) and 0 <= i < len(self.order.slots):
            self.status = self.order.adjust(i, uid, d)
            self.dirty.add("orders")

    def clear_targets(self) -> None:
        if self.order is not None:
            self.order.clear_targets()
            self.status = self.order.message
            self.dirty.add("orders")

    def cancel(self) -> None:
        if self.show_help:
            self.show_help = False
        elif self.ingress_unit is not None:
            self.cancel_ingress()
        elif self.carry is not None:  # (a unit being set up before the battle: deploy_flow.py)
            self.drop_carried()
        elif self.order is not None:
            self.order = None
            self.status = "order cancelled"
            self.dirty.add("dice")
        elif self.drag is not None:
            self.drag = self.press = None
        elif not (self.battle.busy or self.resolving):
            self.select(None)
            self.highlighted = set()
        self.dirty |= {"orders", "action"}

    def resolve(self) -> None:
        if self.order is None:
            return
        if isinstance(self.order, ShootOrder) and self.order.type is None:
            self.status = "choose a shooting type first"
            return
        sels = self.order.selections()
        # (a unit without melee weapons is still selected to fight: the rules' FAQ)
        if not sels and not (isinstance(self.order, FightOrder) and not self.order.slots):
            self.status = "no weapon has a target yet: click an enemy unit"
            return
        if self.submit(self.order.command()):
            self.order = None

    def submit(self, cmd) -> bool:
        """The only door to the battle for commands."""
        if self.mode != "battle":
            self.status = "leave set-up (F2) or the replay (Esc) to give orders"
            return False
        why = self.ai_refusal(cmd)  # (the computer's side is the computer's to command: computer.py)
        if why:
            self.status = why
            return False
        try:
            self.battle.submit(cmd)
        except Refusal as e:
            self.status = f"refused: {e}"
            self.dirty |= {"log", "orders"}
            return False
        self.recorder.command(cmd)
        self.resolving = True
        self.unsaved = True
        self.command_started(cmd)
        if not cmd.record.attacks:  # (at once, but for the decisions it asks)
            self.finish()
        self.resolving_status()
        self.dirty |= {"orders", "action", "log"}
        return True

    def step(self) -> None:
        if not self.resolving:
            return
        if self.battle.pending is not None:
            self.status = "a decision is needed (see the orders panel)"
            return
        self.battle.tick()
        self._check_done()
        self._show_stage()

    def finish(self) -> None:
        if not self.resolving:
            return
        from sim.sandbox.decision_panel import auto_answer
        self.battle.step_until_blocked()
        while self.resolving and (auto_answer(self) or self._computer_answers()):  # (a Command Re-roll
            self.battle.step_until_blocked()  # the setting does not ask about: declined for the person;
        self._check_done()  # the computer's own decisions answered by it: Finish goes on to the end)
        self._show_stage()

    def _computer_answers(self) -> bool:
        """The pending decision is the computer's: its player answers it now (under Xvfb, Finish
        on the person's shot stopped at the computer's Command Re-roll question and a second
        Finish was needed)."""
        req = self.battle.pending
        ai = getattr(self, "ai", None)
        return req is not None and bool(ai) and req.player in ai and self._ai_answer(req)

    def _show_stage(self) -> None:
        """The status line says where the resolution is (not "accepted: ..." to the end)."""
        if not self.resolving:
            return
        req = self.battle.pending
        if req is not None:
            who = self.battle.scenario.armies[req.player].name
            self.status = f"the computer decides for {who}" if req.player in self.ai else \
                f"decision for {who}: {req.prompt or req.kind} (see the orders panel)"
        else:
            self.status = f"resolving {self.stage_text()} - Step (Space), Auto (P) or Finish"

    def _check_done(self) -> None:
        if self.resolving and not self.battle.busy:
            self.recorder.end_command(self.battle)
            self.battle.commands_done += 1
            self.saved_upto = len(self.recorder.lines)
            self.resolving = False
            self.auto = False
            self.status = self.outcome_status()
            self.dirty |= {"orders", "action", "card"}

    def answer(self, value) -> None:
        req = self.battle.pending
        if req is None:
            return
        try:
            self.battle.answer(value)
        except Refusal as e:
            self.decision_error = str(e)
            self.status = f"refused: {e}"
            self.dirty.add("orders")
            return
        self.decision_state.clear()
        self.decision_error = None
        from sim.sandbox.decision_panel import is_reroll, option_text
        self.status = f"answered: {option_text(self, value)}"  # (a unit by its name)
        self.dirty |= {"orders", "log", "dice"}
        if self._cmd is not None and not self._cmd[0].attacks:
            self.finish()  # (a phase's or a move's decision: the rest resolves at once)
        elif is_reroll(req) and self.resolving and self.battle.pending is None:
            self.step()  # (the roll asked about comes out now: the tray shows its dice, not an empty pool)
        if self.resolving:
            self.status = f"answered: {option_text(self, value)}; resolving {self.stage_text()}"

    def toggle_psychic(self, opt) -> None:
        chosen = self.decision_state.setdefault("psychic", [])
        if opt in chosen:
            chosen.remove(opt)
        else:
            chosen.append(opt)
        self.dirty.add("orders")

    def move_group(self, k: int, d: int) -> None:
        order = self.decision_state.get("order")
        if order and 0 <= k + d < len(order):
            order[k], order[k + d] = order[k + d], order[k]
            self.dirty.add("orders")

    def toggle_auto(self) -> None:
        self.auto = not self.auto and self.resolving
        self._acc = 0.0
        self.dirty |= {"orders", "action"}

    def set_speed(self, sp: int) -> None:
        self.speed = sp
        self.dirty.add("orders")

    def set_move_mode(self, mode: str) -> None:
        self.move_mode = mode
        self.dirty |= {"orders", "action"}

    def cycle_move_mode(self) -> None:
        modes = ("normal", "advance", "fall back")
        if self.selected_unit is None:
            self.status = "select a unit first: each unit's move type is its own (M)"
            return
        if self.selected_for() is not None:  # (its type was fixed by its selection: 09.02)
            self.status = f"{self.unit_label(self.selected_unit)} was selected: {self.move_choice()} (09.02)"
            return
        self.set_move_mode(modes[(modes.index(self.move_mode) + 1) % 3])
        self.status = f"{self.unit_label(self.selected_unit)}: {self.move_mode} move (M: the next type)"

    def end_turn(self) -> None:
        if self.battle.busy or self.resolving or self.order is not None:
            self.status = "finish or cancel the current order first"
            return
        self.submit(EndTurn())

    def toggle_los(self) -> None:
        self.show_los = not self.show_los
        self.status = "visibility overlay " + ("on" if self.show_los else "off")
        self.dirty.add("action")

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def save_replay(self) -> Path | None:
        if self.mode == "replay":
            self.status = "this is a replay already (saved as it was recorded)"
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.save_dir / f"{Path(self.scenario_path).stem}-{stamp}.jsonl"
        k = 2
        while path.exists():  # (a saved replay is never written over: an undo may follow a save)
            path = self.save_dir / f"{Path(self.scenario_path).stem}-{stamp}-{k}.jsonl"
            k += 1
        if self.edited:  # the log names the set-up table: save it beside the log
            from sim.sandbox.save_table import spec_toml
            write_atomic(self.save_dir / self.scenario_path, spec_toml(self.spec))
        write_log(path, self.recorder, self.saved_upto)  # with its scenario, if the log could not find it
        self.unsaved = self.resolving  # (a command being resolved is not in the log yet)
        self.saved_commands = self.recorder.n  # ("not saved" counts the commands after this save)
        self.status = f"replay saved: {path} (check it with: sim replay {path})"
        return path

    def save_table(self) -> Path | None:
        from sim.sandbox.save_table import spec_toml, table_toml
        stamp = time.strftime("%Y%m%d-%H%M%S")
        stem = Path(self.scenario_path).stem.split("-table")[0]
        path = self.save_dir / f"{stem}-table-{stamp}.toml"
        fresh = self.battle.commands_done == 0 and not self.battle.busy
        # (before the battle starts, 26 steps 5-11: the units not yet set up have no place on the
        # table to write; the scenario is saved as written, and the choices so far are the replay's)
        ts = self.battle.turn_state
        before = not fresh and ts is not None and ts.pre_battle is not None
        write_atomic(path, spec_toml(self.spec) if fresh or before else table_toml(self.battle, self.scene))
        self.status = (f"table saved: {path}" if not before else
                       f"table saved as the scenario (the battle has not started; the choices made so far are in "
                       f"the replay, Save replay): {path}")
        return path

    def _log_clicked(self) -> None:
        sel = self.log_list.get_single_selection(include_object_id=True)
        if not sel:
            return
        _text, oid = sel
        try:
            i = int(str(oid).split("#ev")[-1])
        except ValueError:
            return
        if 0 <= i < len(self.battle.events):
            self.highlighted = concerned_models(self.battle, self.battle.events[i])
            self.status = f"highlighted {counted(len(self.highlighted), 'model')} for: {_text.strip()[:80]}"

    def stage_text(self) -> str:
        b = self.battle
        ent = b.activation_unit
        if ent is None:
            return "starting..." if b.busy else "done"
        b._enter()
        act = esper.try_component(ent, Activation)
        if act is None:
            return "..."
        uid = esper.component_for_entity(ent, Unit).id
        s = f"{uid} {act.kind}: {_STAGE_WORDS.get(str(act.stage), str(act.stage))}"
        if act.stage == Stage.ATTACKS and act.pools and act.pool_index < len(act.pools):
            p = act.pools[act.pool_index]
            s += f", pool {p.index + 1} of {len(act.pools)}, next: {_STEP_WORDS.get(str(p.step), str(p.step))}"
        return s


# what the status line and the orders panel call an activation's stage and a pool's next step
_STAGE_WORDS = {"type": "choosing the shooting type", "weapons": "selecting weapons and targets",
                "attacks": "attacks", "hazard": "hazard rolls", "cleanup": "removing casualties"}
_STEP_WORDS = {"gather": "gathering the dice", "hit": "hit rolls", "wound": "wound rolls",
               "allocation": "allocation order", "save": "save rolls", "damage": "inflicting damage",
               "done": "done"}


def concerned_models(battle, event: dict) -> set[str]:
    """The model ids an event names, directly or through its units (sim.names.ids_named)."""
    out: set[str] = set()
    units, models = battle.units, battle.models
    for v in ids_named(event, lambda v: v in models or v in units):
        if v in models:
            out.add(v)
        else:
            battle._enter()
            for m in esper.component_for_entity(units[v], Unit).models:
                out.add(esper.component_for_entity(m, ModelId).id)
    return out
