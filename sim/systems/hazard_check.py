"""HazardCheckSystem: 24.15 [HAZARDOUS] with 06.03 hazard rolls, after the unit selected to
shoot or fight has resolved all of its attacks (Part A ruling 5)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Stage, Unit
from sim.rules.abilities import Hook
from sim.decisions import PENDING
from sim.rules.mortal import hazardous_count, hazard_failed, hazard_failures, hazard_mortal_wounds
from sim.rules.stratagems import Roll
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.world import queries as W


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_CLEANUP = Stage.CLEANUP
_HAZARD = Stage.HAZARD


class HazardCheckSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _HAZARD:
            return
        ent = battle.activation_unit
        rolls = act.hazard_rolls
        if rolls is None:
            act.stage = _CLEANUP
            if act.weapon_effects is not None and Hook.HAZARD_ROLL not in act.weapon_effects:
                return  # (no weapon selected is [HAZARDOUS]: nothing to count)
            n = hazardous_count(act.declared)
            if n == 0:
                return
            if W.unit_destroyed(ent):
                battle.emit(ev.HAZARD, unit=esper.component_for_entity(ent, Unit).id, rolls=[], failures=0,
                            mortal_wounds=0, note="unit destroyed before its hazard rolls: none made")
                return
            rolls = list(battle.dice.d6(n, "hazard rolls"))  # 06.03: rolled together
        rr = None
        if battle.turn_state is not None:
            # 15.02 a Command Re-roll of a failed hazard roll (the answer may be awaited: the
            # rolls are kept on the activation, and it stays in this stage meanwhile)
            owner = esper.component_for_entity(ent, Unit).owner
            if battle.roll_window_open(owner, ent):
                rr = battle.offer_after_roll(owner, ent, Roll(
                    "hazard", rolls, lambda i, why: battle.dice.d6(1, f"hazard rolls ({why})")[0],
                    hazard_failed(rolls)))
                if rr is PENDING:
                    act.stage = _HAZARD
                    act.hazard_rolls = rolls
                    return
            act.hazard_rolls = None
            act.stage = _CLEANUP
        unit = esper.component_for_entity(ent, Unit).id
        fails = hazard_failures(rolls)
        all_mv = W.every_model_monster_or_vehicle(ent)
        mw = hazard_mortal_wounds(fails, all_mv)
        if rr is None:
            battle.emit(ev.HAZARD, unit=unit, rolls=list(rolls), failures=fails, mortal_wounds=mw,
                        per_failure=3 if all_mv else 1)
        else:
            battle.emit(ev.HAZARD, unit=unit, rolls=list(rolls), failures=fails, mortal_wounds=mw,
                        per_failure=3 if all_mv else 1, command_reroll=rr)
        if mw:
            suffer_mortal_wounds(battle, ent, mw, source="hazard rolls", by=unit)
