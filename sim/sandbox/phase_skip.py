"""Skipping empty phases (issue 28 item 10), a setting (K toggles it; `sim play` starts with it
on): after the player ends a phase, each following phase in which nothing can be done is ended
too, and the status line names the phases skipped. Empty means, by the rules' own checks:
  * a Shooting phase in which no unit of the player whose turn it is could shoot
    (``sim.players.options.may_shoot_now``, the question the players ask: on the table, a
    shooting type it qualifies for, an enemy visible and within reach, 10.02);
  * a Charge phase in which no unit of the player whose turn it is may declare a charge
    (``Battle.check`` on DeclareCharge for each: 11.02, within 12" of an enemy, not advanced or
    fallen back, ...);
  * a Fight phase in which no unit on the table is engaged or has charged (12.02: only those
    are eligible to fight).
Nothing is skipped past a decision (a stratagem offered at the end of a phase stops it), past a
phase the computer plays, or at the end of a battle round. Against the computer, an empty phase or
step it hands over to the person (their part of its Fight phase) is skipped the same way
(computer.py). A mixin of the Sandbox."""

from __future__ import annotations

import esper

from sim.commands import DeclareCharge, EndPhase
from sim.components import Unit
from sim.players.options import may_shoot_now
from sim.rules.turn import Phase
from sim.world import queries as W

MAX_SKIPS = 12  # (a Fight phase ends step by step: its steps count one each)


class PhaseSkipMixin:
    skip_empty_phases = False

    def toggle_skip_empty(self) -> None:
        self.skip_empty_phases = not self.skip_empty_phases
        self.status = "empty phases are " + ("skipped after End phase (K)" if self.skip_empty_phases
                                             else "not skipped (K)")

    def phase_is_empty(self) -> bool:
        b = self.battle
        ts = b.turn_state
        if ts is None or b.pending is not None or b.busy or self.resolving:
            return False
        b._enter()
        if ts.phase is Phase.SHOOTING:
            return not any(esper.component_for_entity(u, Unit).owner == ts.chooser and may_shoot_now(b, u)
                           for u in W.all_units())
        if ts.phase is Phase.CHARGE:
            for u in W.all_units():
                unit = esper.component_for_entity(u, Unit)
                if unit.owner == ts.chooser and not W.unit_destroyed(u) and \
                        b.check(DeclareCharge(unit.id)) is None:
                    return False
            return True
        if ts.phase is Phase.FIGHT:
            return not any(not W.unit_destroyed(u) and (W.unit_engaged(u) or W.unit_state(u).charged)
                           for u in W.all_units())
        return False

    def skip_empty(self) -> list[str]:
        """End the phases that follow while they are empty (the setting on); the ones skipped."""
        skipped = []
        if not self.skip_empty_phases:
            return skipped
        start_round = self.battle.turn_state.round if self.battle.turn_state is not None else None
        for _ in range(MAX_SKIPS):
            ts = self.battle.turn_state
            if ts is None or ts.round != start_round or ts.chooser in self.ai or not self.phase_is_empty():
                break
            phase = str(ts.phase)
            if not self.submit(EndPhase()):
                break
            if phase not in skipped:
                skipped.append(phase)
        if skipped:
            self.status = f"{self.status} - skipped the empty {', '.join(skipped)} phase{'s' if len(skipped) > 1 else ''} (K: don't skip)"
        return skipped
