"""PrecisionAllocationSystem: 24.28 [PRECISION] at the start of the Allocation Order step.

If the pool's target unit holds CHARACTER models visible to one or more of the pool's attacking
models (Part A ruling 4: visibility checked once, for that pool), the attacker may pick one
CHARACTER group holding a visible CHARACTER; it is the current allocation group until the pool
is resolved or the group destroyed, then the declared order resumes."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Character, Stage, Unit, Wounds
from sim.decisions import PENDING, DecisionRequest
from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.allocation import precision_default
from sim.world import queries as W

DECLINE = "decline"
_PRECISION = AB.with_hook(Hook.PRECISION)  # (its record, for the question's wording)


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_ATTACKS = Stage.ATTACKS


def visible_characters(battle, attackers, target: int) -> list[str]:
    """24.28 The target's CHARACTER models visible to at least one attacking model, in unit order."""
    cids = [W.model_id(m) for m in W.unit_models(target) if esper.has_component(m, Character)]
    if not cids:
        return []
    return [cid for cid, seen in zip(cids, battle.visibility.seen_by_any(list(attackers), cids)) if seen]


def default_precision(battle, options: list[str]) -> str:
    """Part A ruling 4: the CHARACTER with the fewest remaining wounds, ties by unit order."""
    return precision_default(options, {c: esper.component_for_entity(battle.models[c], Wounds).remaining
                                       for c in options})


class PrecisionAllocationSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _ATTACKS or act.pool_index >= len(act.pools):
            return
        ent = battle.activation_unit
        pool = act.pools[act.pool_index]
        if pool.step != "allocation" or pool.precision_checked:
            return
        target = pool.spec.target
        chars = visible_characters(battle, pool.attackers, target)
        tunit = esper.component_for_entity(target, Unit).id
        if not chars:
            battle.emit(ev.PRECISION, pool=pool.index, target=tunit, visible=[], chosen=None,
                        note="no CHARACTER visible to the attacking models: no choice")
            pool.precision_checked = True
            return
        owner = esper.component_for_entity(ent, Unit).owner
        req = DecisionRequest("precision", f"pool {pool.index}", owner, chars + [DECLINE],
                              default_precision(battle, chars),
                              prompt=f"{_PRECISION.tag}: pick a visible CHARACTER in {tunit} ({_PRECISION.section})")
        ans = battle.decide(req)
        if ans is PENDING:
            return
        pool.precision = None if ans == DECLINE else ans  # a CHARACTER's group key is its id
        battle.emit(ev.PRECISION, pool=pool.index, target=tunit, visible=chars, chosen=pool.precision)
        pool.precision_checked = True
