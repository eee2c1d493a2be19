"""ShootingTypeSystem: for a unit selected to shoot, work out the shooting types it qualifies
for (10.04-10.07) and fix the one it uses (the command's, or the default)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Stage, Unit
from sim.plan.shoot import shooting_type_choice
from sim.rules import shooting as SH
from sim.rules.effects import eligibility as EL
from sim.systems import rule_effects as RX
from sim.world import queries as W


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_TYPE = Stage.TYPE
_WEAPONS = Stage.WEAPONS


class ShootingTypeSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _TYPE:
            return
        ent = battle.activation_unit
        plan = battle.validated
        if plan is not None and plan.command is act.command:
            act.shooting_type, elig = plan.shooting_type, plan.eligibility
        else:
            act.shooting_type, elig = shooting_type_choice(ent, act.command.type, battle)
        eligible, reasons = {}, {}  # type -> qualifies; type -> why not (if it does not)
        for t, r in elig.items():
            eligible[t] = r is None
            if r:
                reasons[t] = r
        if battle.resources.has_rules and act.shooting_type is not None:  # (a rule's leave, logged)
            st = W.unit_state(ent)
            if st.fell_back or (st.advanced and act.shooting_type != SH.ASSAULT):
                RX.permission_used(battle, ent, EL.SHOOT)
        battle.record({"type": ev.SHOOTING_TYPE, "unit": esper.component_for_entity(ent, Unit).id,
                       "shooting_type": act.shooting_type, "requested": act.command.type,
                       "eligible": eligible, "reasons": reasons})
        act.stage = _WEAPONS
