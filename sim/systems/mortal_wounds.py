"""06.02 Mortal wounds suffered by a unit outside an attack pool (hazard rolls, Deadly Demise):
one at a time to the model 06.02 selects, each offered to Feel No Pain (24.12: the models' own and
what the rules grant them now, sim.world.rule_reads.feel_no_pain)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit, Wounds
from sim.rules.mortal import resolve_mortal_wounds
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import rule_reads as RR


def suffer_mortal_wounds(battle, unit_ent: int, count: int, source: str, by: str) -> list[dict]:
    models = W.target_models(unit_ent)
    remaining = {m.id: m.remaining for m in models}
    fnp = W.feel_no_pain(unit_ent)
    if battle.resources.has_rules:  # (and the Feel No Pain rules grant it now)
        fnp = RR.feel_no_pain(battle, unit_ent, fnp)
    steps = resolve_mortal_wounds(count, models, remaining, fnp, battle.dice)
    for mid, rem in remaining.items():
        e = battle.models[mid]
        w = esper.component_for_entity(e, Wounds)
        if rem != w.remaining:
            w.remaining = rem
            if rem <= 0:
                M.mark_destroyed(e, by)
    uid = esper.component_for_entity(unit_ent, Unit).id
    battle.emit(ev.MORTAL, unit=uid, source=source, count=count, steps=steps)
    for r in steps:
        if r["destroyed"]:
            battle.emit(ev.DESTROYED, model=r["model"], by=by)
    if not W.alive_models(unit_ent):  # (on the battlefield or not: an embarked unit's hazard rolls, 18.05)
        battle.emit(ev.UNIT_DESTROYED, unit=uid, by=by)
    return steps
