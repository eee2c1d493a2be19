"""ShootingTypeSystem: for a unit selected to shoot, work out the shooting types it qualifies
for (10.04-10.07) and fix the one it uses (the command's, or the default)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.plan import shooting_facts, shooting_type_for
from sim.rules.shooting import shooting_type_eligibility


class ShootingTypeSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != "type":
            return
        ent = battle.activation_unit
        elig = shooting_type_eligibility(shooting_facts(ent))
        if battle.validated is not None and battle.validated[0] is act.command:
            act.shooting_type = battle.validated[1]
        else:
            act.shooting_type = shooting_type_for(ent, act.command.type)
        battle.emit(ev.SHOOTING_TYPE, unit=esper.component_for_entity(ent, Unit).id,
                    shooting_type=act.shooting_type, requested=act.command.type,
                    eligible={t: (r is None) for t, r in elig.items()},
                    reasons={t: r for t, r in elig.items() if r})
        act.stage = "weapons"
