"""The scripted player: plays its side's script steps in order, each when its phase comes
(a step waits while the battle is in an earlier phase, or before its ``round``); when its next
step is for a later phase it ends the phase, doing only what the rules make compulsory (12.04:
every eligible unit must fight, with the default selections; it passes, 12.04.01, when the
rules allow it, unless the pick would come straight back to it). Before the battle (26 steps
7-11) what its script leaves out it does as the default player (sim.players.deployment)."""

from __future__ import annotations

from sim.rules.effects import vocabulary as V

from sim.commands import EndPhase
from sim.decisions import Scripted
from sim.commands.registry import phase_refusal
from sim.phases.fight_order import pick_after_pass
from sim.rules.turn import PLAYER
from sim.phases.state import FightStep, Phase
from sim.players import deployment as DEP
from sim.players import options as O
from sim.players.base import Choice, Player
from sim.players.resolve import answer_from
from sim.scenario.script_run import step_commands, step_record


class ScriptedPlayer(Player):
    kind = "scripted"

    def __init__(self, side, battle, scenario):
        super().__init__(side, battle, scenario)
        units = {u.id: u.owner for u in scenario.units}
        self.steps = [s for s in scenario.script if self._owner(s, units) == side]
        self.next = 0
        self._running = None  # (step, generator of its remaining commands)
        self._step, self._tried = None, set()  # (the pre-battle step, and the units given up in it)

    @staticmethod
    def _owner(step, units) -> int | None:
        """The side whose step it is: the unit's, or the one an end_phase step names."""
        a = step.action
        if "unit" not in a:
            return None if a.get("player") is None else PLAYER.index(a["player"])
        return units.get(a["unit"])

    def unplayed(self) -> list:
        return self.steps[self.next:]

    def answer(self, battle, request):
        """A decision of this side raised by another command than its own steps': a rule's
        choice asked at the start of a phase of its turn (sim.phases.rule_choices: the command
        that ends the phase before asks it) is answered by the ``rule_choice`` of its next step
        when that step is for this battle round and it is this side's turn (or the choice is asked
        in either player's turn or the opponent's: context "turn" "either" / "enemy"); anything
        else takes the default. An oath's decisions (sim.phases.oaths, before the battle) are
        answered by the ``oath`` / ``oath_target`` of the first of its steps that gives one."""
        ts = battle.turn_state
        if request.kind in ("oath", "oath_target"):  # before the battle, from any step of this side's
            for step in self.steps[self.next:]:
                if request.kind in step.decisions:
                    return Scripted(step.decisions[request.kind])
            return request.default
        if request.kind == "rule_choice" and self.next < len(self.steps) and ts is not None:
            step = self.steps[self.next]
            if ("rule_choice" in step.decisions
                    and (ts.active == self.side or request.context.get("turn") in (V.EITHER_TURN, V.ENEMY_TURN))
                    and ts.round == step.action.get("round", 1)):
                return Scripted(step.decisions["rule_choice"])
        return request.default

    def choose(self, battle) -> Choice:
        if self._running is not None:
            step, gen = self._running
            nxt = next(gen, None)
            if nxt is not None:
                side = self.side if "unit" in step.action else None  # (an end_phase step answers both sides)
                return Choice(nxt.command, step.where, answer_from(step.decisions, side), step, nxt.left_out)
            self._running = None
        ts = battle.turn_state
        if self.next < len(self.steps):
            step = self.steps[self.next]
            a = step.action
            record = step_record(step)
            if not record.mission:  # (a free-play step, an end_turn: a battle goes phase by phase)
                self.next += 1
                return self.choose(battle)
            owner = self.side if "unit" in a else None
            if ts.round >= a.get("round", 1) and phase_refusal(ts, record, owner) is None:
                self.next += 1
                gen = step_commands(battle, step)
                self._running = (step, gen)
                return self.choose(battle)
        if ts.pre_battle is not None:  # (26 steps 7-11 the script leaves out: the default player's choices)
            if ts.pre_battle != self._step:
                self._step, self._tried = ts.pre_battle, set()
            return Choice(DEP.choose(battle, self.side, None, self._tried), f"{self.name} (26: as the default player)")
        owed = O.pending_fight(battle, self.side) if ts.phase == Phase.FIGHT else None
        if owed is not None:
            why = "12.06: its overrun fight" if owed == ts.overrun else "12.08: engaged by a consolidation"
            return Choice(O.default_fight(battle, owed), f"{self.name} ({why})")
        if ts.phase == Phase.FIGHT and ts.step == FightStep.FIGHT:
            u = O.fight_pick(battle, self.side)
            # (a pass the rules refuse, or one that would bring the pick straight back: it fights)
            if u is not None and (battle.check(EndPhase()) is not None
                                  or pick_after_pass(battle, self.side) == self.side):
                return Choice(O.fight_command(battle, u), f"{self.name} (12.04: every eligible unit fights)")
        return Choice(EndPhase(), self.name)
