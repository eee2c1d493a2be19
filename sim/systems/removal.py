"""05.04.04 Removing destroyed models, after their "when destroyed" rules: a destroyed
TRANSPORT's passengers' emergency disembark first (18.05), then 24.08 Deadly Demise. For the
models an attack destroyed (CasualtySystem), those a Desperate Escape's or a Combat disembark's
hazard rolls destroyed (09.07, 18.04) and those a stratagem's mortal wounds destroyed (15.05,
15.06)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Destroyed, Unit
from sim.rules.abilities import Hook
from sim.rules.geometry import within_distance
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.transport import emergency_disembark
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.systems import rule_effects as RX
from sim.systems import dice_pools

DEADLY_DEMISE_RANGE = 6.0


def remove_casualties(battle):
    """05.04.04 Take the destroyed models off the table, after their "when destroyed" rules:
    the last model of a TRANSPORT first lets its passengers make their emergency disembark
    (18.05, which may ask where they go), then 24.08 Deadly Demise (whose mortal wounds can
    destroy more models, whose own rules then resolve). A generator (it may wait for that
    decision); returns the ids removed. Every casualty goes through here: an attack's, and a
    Desperate Escape's hazard rolls' (09.07)."""
    casualties = W.casualties()
    done: set[int] = set()  # (membership only)
    rules, fired = RE.any_rules(), set()
    batch = casualties
    while batch:
        more = False
        for e in batch:
            done.add(e)
            t = W.unit_of(e)
            if W.capacity(t) is not None and W.passengers(t) and not W.alive_models(t):
                # 18.05 its passengers disembark before it is removed, and before 24.08
                yield from emergency_disembark(battle, t)
                more = True
            more |= _deadly_demise(battle, e)
            if rules:  # (a rule's mortal wounds on the unit that destroyed it: sim.systems.rule_effects)
                more |= RX.destroyed_mortal_wounds(battle, e, esper.component_for_entity(e, Destroyed).by, fired)
        if not more:
            break
        casualties = W.casualties()
        batch = [e for e in casualties if e not in done]
    removed = [W.model_id(e) for e in casualties]
    units = list(dict.fromkeys(W.unit_of(e) for e in casualties)) if rules else ()
    M.remove_casualties(casualties)
    if rules:  # a pool's dice gained as a unit holding its rule is destroyed
        dice_pools.units_destroyed(battle, [u for u in units if W.unit_destroyed(u)])
    battle.changes.moved(casualties)
    if rules:  # a rule bringing a destroyed unit back (V.RESURGE)
        yield from RX.resurge(battle, list(dict.fromkeys(W.unit_of(e) for e in casualties)))
    return removed


def _deadly_demise(battle, e: int) -> bool:
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
            if models and within_distance(W.nearest_distance(e, models), DEADLY_DEMISE_RANGE):
                hit.append(u)
    battle.emit(ev.DEADLY_DEMISE, model=mid, roll=roll,
                units=[esper.component_for_entity(u, Unit).id for u in hit])
    for u in hit:
        x = dd.value
        n = x.roll(battle.dice, f"deadly demise mortal wounds ({mid})") if hasattr(x, "roll") else int(x)
        suffer_mortal_wounds(battle, u, n, source=f"deadly demise of {mid}", by=mid)
    return bool(hit)
