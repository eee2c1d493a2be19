"""CasualtySystem: 05.04.04 models destroyed by an attack are removed once the attacking unit's
attacks are all resolved (hazard rolls included); then the activation ends."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Activation, Destroyed, ModelId, Unit


class CasualtySystem(esper.Processor):
    def process(self, battle) -> None:
        ent = battle.activation_unit
        if ent is None:
            return
        act = esper.component_for_entity(ent, Activation)
        if act.stage != "cleanup":
            return
        gone = sorted((mid.order, mid.id, e) for e, (d, mid) in esper.get_components(Destroyed, ModelId)
                      if not d.removed)  # creation order, never set order
        removed = []
        for _o, mid, e in gone:
            esper.component_for_entity(e, Destroyed).removed = True
            removed.append(mid)
        battle.moved_models = [e for _o, _m, e in gone]
        battle.emit(ev.ATTACKS_DONE, unit=esper.component_for_entity(ent, Unit).id,
                    kind=act.kind, removed=removed)
        esper.remove_component(ent, Activation)
        battle.activation_unit = None
