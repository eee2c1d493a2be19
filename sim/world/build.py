"""Build a battle's esper world from a validated scenario."""

from __future__ import annotations

import esper

from sim.components import (Base, Character, Keyword, ModelAbilities, ModelId, Position, RollModifiers,
                            Roster, Stats, Transport, Unit, UnitMember, UnitRules, UnitState, Weapon, Wounds)
from sim.rules import geometry
from sim.rules.abilities import Hook, effects_of
from sim.rules.allocation import TargetModel, allocation_groups, default_order, preferred_groups
from sim.rules.attack import invulnerable_against, unit_toughness
from sim.world.queries import MONSTER_VEHICLE
from sim.world.spatial import SpatialIndex


def build_world(battle, scenario) -> SpatialIndex:
    """Create one entity per unit and per model in the current esper world, in the scenario's
    listed order (so entity ids and every iteration order are deterministic); returns the
    battle's spatial index over them (a resource of the battle: sim.world.resources)."""
    order = 0
    fps: list = []
    loadouts: dict[tuple, tuple] = {}  # equal loadouts share one tuple (cheap to compare)
    unit_index: list[int] = []
    for u_order, us in enumerate(scenario.units):
        unit_ent = esper.create_entity()
        unit = Unit(us.id, us.name, us.owner, u_order)
        esper.add_component(unit_ent, unit)
        esper.add_component(unit_ent, UnitState(
            advanced=us.advanced, fell_back=us.fell_back, charged=us.charged, moved=us.moved,
            ranged_attacks_last_turn=us.ranged_attacks_last_turn))
        battle.units[us.id] = unit_ent
        if us.allocation_order:
            battle.scenario_allocation_orders[unit_ent] = us.allocation_order
        for index, ms in enumerate(us.models):
            ent = esper.create_entity(
                ModelId(ms.id, order),
                Keyword(ms.keywords),
                Weapon(loadouts.setdefault(tuple(map(id, ms.weapons)), tuple(ms.weapons))),
                Position(ms.x, ms.y),
                Base(ms.shape, ms.length, ms.width, ms.angle),
                Stats(ms.profile.M, ms.profile.T, ms.profile.Sv, ms.profile.W, ms.profile.Ld,
                      ms.profile.OC, ms.profile.InSv, ms.profile.InSv_against),
                Wounds(ms.profile.W),
                UnitMember(unit_ent, index, ms.role),
                ModelAbilities(ms.abilities),
            )
            fps.append(geometry.footprint(ms.shape, ms.x, ms.y, ms.length, ms.width, ms.angle))
            unit_index.append(u_order)
            if ms.character:
                esper.add_component(ent, Character(ms.name))
            unit.models.append(ent)
            battle.models[ms.id] = ent
            order += 1
        esper.add_component(unit_ent, roster(unit.models, us.allocation_order))
        if any(ms.modifiers for ms in us.models):
            esper.add_component(unit_ent, roll_modifiers(us, unit.models))
        if us.transport is not None:
            esper.add_component(unit_ent, Transport(us.transport))
        held = unit_rules(scenario.armies[us.owner].rules if us.owner < len(scenario.armies) else (), us.models)
        if held:
            esper.add_component(unit_ent, UnitRules(held))
    sp = SpatialIndex(fps, unit_index, [us.owner for us in scenario.units])
    mission = getattr(scenario, "mission", None)
    by_rules = mission is not None and mission.deployment == "rules"
    for us in scenario.units:
        # 20.01 units that start in strategic reserves, and 26 step 7 those that start embarked
        # in a transport, are not on the table (26 step 8: nor is any unit before it is set up;
        # then battle formations say who is embarked: sim.commands.deploy)
        embarked = None if by_rules else us.embarked
        if us.reserves or by_rules or embarked is not None:
            u = battle.units[us.id]
            if embarked is not None:
                esper.component_for_entity(u, UnitState).embarked_in = battle.units[embarked]
            sp.off_table.add(u)
            for m in esper.component_for_entity(u, Unit).models:
                sp.remove(esper.component_for_entity(m, ModelId).order)
    return sp


def unit_rules(army_rules, models) -> tuple:
    """A unit's rules as held (sim.rules.effects.vocabulary.Held), once each: its army's (held by
    the whole army: no bearers), then its models' in listed order (bearers: the models that have
    it, or none when every model does)."""
    from sim.rules.effects import table
    from sim.rules.effects.vocabulary import Held
    bearers: dict[str, list[str]] = {}
    for ms in models:
        for k in ms.rules:
            if k not in army_rules:
                bearers.setdefault(k, []).append(ms.id)
    out = [Held(table.by_key(k)) for k in army_rules]
    every = len(models)
    out += [Held(table.by_key(k), () if len(ids) == every else tuple(ids)) for k, ids in bearers.items()]
    return tuple(out)


def roll_modifiers(us, models: list[int]) -> RollModifiers:
    """The unit's RollModifiers from its models' specs (``models``: their entities, in the
    same order); equal modifier lists share one tuple, so the plans that add them can tell
    equal ones by identity (sim.plan.scenario_modifiers)."""
    shared: dict[tuple, tuple] = {}
    by_model, by_id = {}, {}
    for ms, ent in zip(us.models, models):
        if ms.modifiers:
            mods = shared.setdefault(ms.modifiers, ms.modifiers)
            by_model[ent] = mods
            by_id[ms.id] = mods
    return RollModifiers(by_model=by_model, by_id=by_id)


def roster(models: list[int], allocation_order=()) -> Roster:
    """The unit's Roster, read off its models' components (listed order); ``allocation_order``
    is the scenario's declared order for the unit, if any (Part A ruling 9)."""
    ids, rows, wounds, T, guard, char, fnp, stealth, lone, mv, full, weapons, damaged, oc, against = (
        [] for _ in range(15))
    keywords: set[str] = set()
    for m in models:
        st = esper.component_for_entity(m, Stats)
        abilities = esper.component_for_entity(m, ModelAbilities).abilities
        hooks = effects_of(abilities)
        fnps = [a.value for a in abilities if Hook.IGNORES_WOUNDS in a.spec.hooks]
        dmg = [a.value for a in abilities if Hook.HIT_PENALTY_WHEN_LOW in a.spec.hooks]
        mid = esper.component_for_entity(m, ModelId)
        ids.append(mid.id)
        rows.append(mid.order)
        wounds.append(esper.component_for_entity(m, Wounds))
        T.append(st.T)
        guard.append(esper.component_for_entity(m, UnitMember).role == "bodyguard")
        char.append(esper.has_component(m, Character))
        fnp.append(min(fnps) if fnps else None)
        stealth.append(Hook.COVER_FOR_ALL in hooks)
        lone.append(Hook.DETECTION_LIMIT in hooks)
        kw = esper.component_for_entity(m, Keyword).names
        keywords |= kw
        mv.append(bool(kw & MONSTER_VEHICLE))
        full.append(TargetModel(mid.id, st.W, st.W, st.Sv, st.InSv, char[-1]))
        weapons.append(esper.component_for_entity(m, Weapon).profiles)
        damaged.append(max(dmg) if dmg else None)
        oc.append(st.OC)
        against.append(st.InSv_against)
    full = tuple(full)
    ranged_insv = {t.id: invulnerable_against(t.InSv, a, False) for t, a in zip(full, against)}
    melee_insv = ({t.id: invulnerable_against(t.InSv, a, True) for t, a in zip(full, against)}
                  if any(against) else ranged_insv)
    groups = allocation_groups(full)
    full_order = default_order(groups, full, preferred_groups(groups, full, allocation_order or ()))
    return Roster(
        models=tuple(models), ids=tuple(ids), rows=tuple(rows), wounds=tuple(wounds), T=tuple(T),
        bodyguard=tuple(guard), character=tuple(char), fnp=tuple(fnp), stealth=tuple(stealth),
        lone_operative=tuple(lone), monster_or_vehicle=tuple(mv), keywords=frozenset(keywords),
        weapons=tuple(weapons), damaged=tuple(damaged), full=full,
        full_wounds=tuple(t.W for t in full), full_groups=groups, full_order=full_order,
        W_of={t.id: t.W for t in full}, Sv_of={t.id: t.Sv for t in full},
        InSv_of=ranged_insv, InSv_melee_of=melee_insv, full_T=unit_toughness(T, guard, range(len(models))),
        OC=tuple(oc))
