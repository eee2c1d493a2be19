"""The scenario's modifiers (README ``modifiers``), read off the world where the attack path
needs them: the ones a plan's declared attacks take (02.02.01, added to their modifier lists)
and the save-roll modifier of each model of a target. Which modifiers apply, and where they go,
is sim.rules.modifiers; a unit without any (a RollModifiers component) costs one look-up."""

from __future__ import annotations

import esper

from sim.components import RollModifiers, Unit
from sim.plan.common import declared_key
from sim.rules.modifiers import attack_modifiers, save_modifier


def add_scenario_modifiers(unit_ent: int, declared: list) -> list:
    """02.02.01 The declared attacks of ``unit_ent`` (a plan, sim.plan) with the modifiers
    their models have: hit-roll, BS/WS and wound-roll ones appended to the declaration's
    hit_mods, skill_mods and wound_mods (with their source labels), and its attack key worked
    out again (declared_key), so the 04.03 keying nets and clamps them with the others and a
    psychic attack may ignore them (24.29). A snap shooting attack (15.09) ignores BS and hit-roll
    modifiers: it takes only the wound-roll ones. Changes the declarations in place and returns
    the list."""
    rm = esper.try_component(unit_ent, RollModifiers)
    if rm is None:
        return declared
    by_model = rm.by_model
    for d in declared:
        mods = by_model.get(d.model)
        if not mods or d.target is None:
            continue
        add = attack_modifiers(mods, d.weapon.is_melee, esper.component_for_entity(d.target, Unit).id)
        if d.snap:
            add = ((), (), add[2])
        if not (add[0] or add[1] or add[2]):
            continue
        d.hit_mods, d.skill_mods, d.wound_mods = d.hit_mods + add[0], d.skill_mods + add[1], d.wound_mods + add[2]
        d.key = declared_key(d)
    return declared


def save_modifiers(target: int, attacker: int, melee: bool) -> dict[str, int] | None:
    """02.02.01 The net save-roll modifier of each model of the unit ``target`` (model id ->
    modifier, the ones other than 0) against an attack by the unit ``attacker``, melee or not;
    None when no model of the target has scenario modifiers."""
    rm = esper.try_component(target, RollModifiers)
    if rm is None:
        return None
    uid = esper.component_for_entity(attacker, Unit).id
    out = {}
    for mid, mods in rm.by_id.items():
        v = save_modifier(mods, melee, uid)
        if v:
            out[mid] = v
    return out or None
