"""CasualtySystem: 05.04.04 models destroyed by an attack are removed once the attacking unit's
attacks are all resolved (hazard rolls included); then the activation ends."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Activation, Destroyed, Unit


class CasualtySystem(esper.Processor):
    def process(self, battle) -> None:
        ent = battle.activation_unit
        if ent is None:
            return
        act = esper.component_for_entity(ent, Activation)
        if act.stage != "cleanup":
            return
        removed = []
        for mid in sorted(battle.models):  # stable order
            e = battle.models[mid]
            d = esper.try_component(e, Destroyed)
            if d is not None and not d.removed:
                d.removed = True
                removed.append(mid)
        battle.moved_models = [battle.models[m] for m in removed]
        battle.emit(ev.ATTACKS_DONE, unit=esper.component_for_entity(ent, Unit).id,
                    kind=act.kind, removed=removed)
        esper.remove_component(ent, Activation)
        battle.activation_unit = None
