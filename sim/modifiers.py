"""The scenario's modifiers (README ``modifiers``), read off the world where the attack path
needs them: the ones a plan's declared attacks take (02.02.01, added to their modifier lists)
and the save-roll modifier of each model of a target. Which modifiers apply, and where they go,
is sim.rules.modifiers; a unit without any (a RollModifiers component) costs one look-up."""

from __future__ import annotations

import esper

from sim.components import RollModifiers, Unit
from sim.rules.modifiers import attack_modifiers, save_modifier


def add_scenario_modifiers(unit_ent: int, declared: list) -> list:
    """02.02.01 The declared attacks of ``unit_ent`` (a plan, sim.plan) with the modifiers
    their models have: hit-roll, BS/WS and wound-roll ones appended to the declaration's
    hit_mods, skill_mods and wound_mods (with their source labels), so the 04.03 keying nets
    and clamps them with the others and a psychic attack may ignore them (24.29). Changes the
    declarations in place and returns the list. Declarations equal before get equal tuples
    (one object), and keep their Declared.like mark only when every model of the unit has the
    same modifiers."""
    rm = esper.try_component(unit_ent, RollModifiers)
    if rm is None:
        return declared
    by_model, uniform = rm.by_model, rm.uniform
    units: dict[int, str] = {}  # target entity -> unit id
    adds: dict[tuple, tuple] = {}  # (modifiers, melee, target) -> (hit, skill, wound) to add
    joined: dict[tuple, tuple] = {}  # (ids of the three tuples, what is added) -> the new three
    keep = []  # the tuples replaced, alive until the end (their ids are keys of ``joined``)
    for d in declared:
        mods = by_model.get(d.model)
        if not mods or d.target is None:
            continue
        melee = d.weapon.is_melee
        uid = units.get(d.target)
        if uid is None:
            uid = units[d.target] = esper.component_for_entity(d.target, Unit).id
        key = (id(mods), melee, uid)
        add = adds.get(key)
        if add is None:
            add = adds[key] = attack_modifiers(mods, melee, uid)
        if not (add[0] or add[1] or add[2]):
            continue
        key = (id(d.hit_mods), id(d.skill_mods), id(d.wound_mods), id(add))
        new = joined.get(key)
        if new is None:
            new = joined[key] = (d.hit_mods + add[0], d.skill_mods + add[1], d.wound_mods + add[2])
        keep.append((d.hit_mods, d.skill_mods, d.wound_mods))
        d.hit_mods, d.skill_mods, d.wound_mods = new
        if not uniform:
            d.like = None  # (its model's modifiers may differ from those planned alike with it)
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
