"""CasualtySystem: 05.04.04 models destroyed by an attack are removed once the attacking unit's
attacks are all resolved (hazard rolls included), after their "when destroyed" rules (24.08
Deadly Demise); then the activation ends."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Activation, Stage, Unit
from sim.rules.attack import AttackKind
from sim.phases.battle_round import after_fight
from sim.systems.commands import resume
from sim.systems.shooting_stratagems import after_shooting
from sim.systems.removal import remove_casualties


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_CLEANUP = Stage.CLEANUP


class CasualtySystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _CLEANUP:
            return
        ent = battle.activation_unit
        removed = remove_casualties(battle)
        battle.record({"type": ev.ATTACKS_DONE, "unit": esper.component_for_entity(ent, Unit).id,
                       "kind": act.kind, "removed": removed})
        esper.remove_component(ent, Activation)
        battle.activation_unit = None
        battle.activation = None
        if act.kind is AttackKind.FIGHTING and battle.turn_state is not None:
            # 12.04 whose pick it is next (a Counteroffensive may be offered: CommandSystem
            # resumes it, Battle.action, if it waits for the answer)
            battle.action = after_fight(battle, ent)
            resume(battle)
        elif act.kind is AttackKind.SHOOTING and battle.turn_state is not None and battle.action is None:
            # 15.05 Explosives may be used again after a unit has shot (a Fire Overwatch's
            # shooting runs inside the opponent's end of phase, Battle.action: not then)
            battle.action = after_shooting(battle, ent)
            resume(battle)
