"""CasualtySystem: 05.04.04 models destroyed by an attack are removed once the attacking unit's
attacks are all resolved (hazard rolls included), after their "when destroyed" rules (18.05 a
transport's passengers' emergency disembark, 24.08 Deadly Demise; the removal waits, tick by
tick, for a decision it asks); then the activation ends, and what its command does next begins
(Activation.then)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Activation, Stage, Unit
from sim.systems.commands import start
from sim.systems.removal import remove_casualties
from sim.systems import rule_effects as RX


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_CLEANUP = Stage.CLEANUP


class CasualtySystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _CLEANUP:
            return
        ent = battle.activation_unit
        if act.removal is None:
            act.removal = remove_casualties(battle)
        try:  # (it may wait for a decision: 18.05 where a destroyed transport's passengers go)
            next(act.removal)
            return
        except StopIteration as done:
            removed = done.value
        battle.record({"type": ev.ATTACKS_DONE, "unit": esper.component_for_entity(ent, Unit).id,
                       "kind": act.kind, "removed": removed})
        if battle.resources.has_rules:  # (a rule's mark moved by an enemy unit destroyed)
            RX.mark_after_attacks(battle, ent)
        esper.remove_component(ent, Activation)
        battle.activation_unit = None
        battle.activation = None
        if act.then is not None:
            # what the command that started it does next (12.04 whose pick it is next; the
            # stratagems the end of an attack opens): CommandSystem resumes it, Battle.action,
            # if it waits for an answer
            start(battle, act.then(battle, ent))
