"""CasualtySystem: 05.04.04 models destroyed by an attack are removed once the attacking unit's
attacks are all resolved (hazard rolls included), after their "when destroyed" rules (24.08
Deadly Demise); then the activation ends."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Activation, Stage, Unit
from sim.systems.battle_round import after_fight
from sim.systems.phased import resume
from sim.rules.abilities import Hook
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.world import mutations as M
from sim.world import queries as W

DEADLY_DEMISE_RANGE = 6.0


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_CLEANUP = Stage.CLEANUP


class CasualtySystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _CLEANUP:
            return
        ent = battle.activation_unit
        casualties = W.casualties()
        done: set[int] = set()  # (membership only)
        batch = casualties
        while batch:  # Deadly Demise can destroy more models, whose own rules then resolve
            more = False
            for e in batch:
                done.add(e)
                more |= self._deadly_demise(battle, e)
            if not more:
                break
            casualties = W.casualties()
            batch = [e for e in casualties if e not in done]
        removed = []
        for e in casualties:
            removed.append(W.model_id(e))
        M.remove_casualties(casualties)
        battle.changes.moved(casualties)
        battle.record({"type": ev.ATTACKS_DONE, "unit": esper.component_for_entity(ent, Unit).id,
                       "kind": act.kind, "removed": removed})
        esper.remove_component(ent, Activation)
        battle.activation_unit = None
        battle.activation = None
        if act.kind == "fight" and battle.turn_state is not None:
            # 12.04 whose pick it is next (a Counteroffensive may be offered: CommandSystem
            # resumes it, Battle.action, if it waits for the answer)
            battle.action = after_fight(battle, ent)
            resume(battle)

    def _deadly_demise(self, battle, e: int) -> bool:
        """24.08 Deadly Demise X: roll a D6 when the model is destroyed; on a 6 every unit within
        6" of it suffers X mortal wounds (a random X is rolled for each unit). Returns whether
        any unit suffered them (only then can more models have been destroyed)."""
        abilities = W.model_abilities(e)
        dd = next((a for a in abilities if Hook.EXPLODES in a.spec.hooks), None) if abilities else None
        if dd is None:
            return False
        mid = W.model_id(e)
        (roll,) = battle.dice.d6(1, f"deadly demise ({mid})")
        hit = []
        if roll == 6:
            for u in W.all_units():
                models = W.unit_models(u)
                if models and W.nearest_distance(e, models) <= DEADLY_DEMISE_RANGE + 1e-9:
                    hit.append(u)
        battle.emit(ev.DEADLY_DEMISE, model=mid, roll=roll,
                    units=[esper.component_for_entity(u, Unit).id for u in hit])
        for u in hit:
            x = dd.value
            n = x.roll(battle.dice, f"deadly demise mortal wounds ({mid})") if hasattr(x, "roll") else int(x)
            suffer_mortal_wounds(battle, u, n, source=f"deadly demise of {mid}", by=mid)
        return bool(hit)
