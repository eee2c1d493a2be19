"""WeaponSelectionSystem: 04.01 Select Weapons and 04.02 Select Targets for the activation,
with the choices the rules give the attacker there: which copy of a duplicated ability a
weapon uses (24.02) and which modifiers a [PSYCHIC] attack ignores (24.29)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Stage, Unit
from sim.decisions import PENDING, DecisionRequest
from sim.plan import plan_fight, plan_shoot
from sim.plan.common import declared_key, one_shot_keys
from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.attack import AttackKind
from sim.plan.validated import distinct_weapons
from sim.world import queries as W


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_ATTACKS = Stage.ATTACKS
_WEAPONS = Stage.WEAPONS


def default_duplicate(copies, target_keywords) -> str:
    """24.02 default (Part A ruling 8), as the label of the copy: sim.rules.abilities
    .default_duplicate."""
    return AB.default_duplicate(copies, target_keywords).label()


_PSYCHIC = AB.with_hook(Hook.IGNORES_MODIFIERS)  # (its record, for the question's wording)


class WeaponSelectionSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _WEAPONS:
            return
        ent = battle.activation_unit
        weapons = None  # the distinct profiles declared, when the plan says (validated)
        if not act.declared:
            plan = battle.validated
            if plan is not None and plan.command is act.command:
                act.declared, weapons = plan.declared, plan.weapons
            elif act.kind is AttackKind.SHOOTING:
                act.declared = plan_shoot(battle, act.command, selected=True).declared
            else:
                act.declared = plan_fight(battle, act.command, selected=True)
        unit = esper.component_for_entity(ent, Unit)
        # the ability names of the weapons selected, to skip the passes below that cannot apply
        if weapons is None:
            weapons = distinct_weapons(act.declared)
        if len(weapons) == 1:  # (the usual case: one profile, its own hooks)
            effects = weapons[0].effects
            duplicated = len(weapons[0].names) != len(weapons[0].abilities)
        else:
            effects = frozenset().union(*(w.effects for w in weapons))
            duplicated = any(len(w.names) != len(w.abilities) for w in weapons)
        act.weapon_effects = effects
        # 24.02 duplicated abilities: one copy per weapon and target, chosen here.
        for d in act.declared if duplicated else ():
            # (a weapon has a duplicated ability only if it has fewer ability names than abilities)
            if d.target is None or len(d.weapon.names) == len(d.weapon.abilities):
                continue
            for name, copies in AB.duplicates(d.weapon.abilities).items():
                key = f"{d.weapon.name} -> {esper.component_for_entity(d.target, Unit).id}: {name}"
                if key not in act.choices:
                    tkw = W.unit_keywords(d.target)
                    req = DecisionRequest(
                        "duplicate", key, unit.owner, [a.label() for a in copies],
                        default_duplicate(copies, tkw),
                        prompt=f"{d.weapon.name} has {len(copies)} copies of {name}: use which? (24.02)")
                    ans = battle.decide(req)
                    if ans is PENDING:
                        return
                    act.choices[key] = ans
                chosen = act.choices[key]
                d.abilities = tuple(a for a in d.abilities
                                    if a.name != name or a.label() == chosen)
                # keep exactly one copy even when two copies print identically
                seen = False
                kept = []
                for a in d.abilities:
                    if a.name == name:
                        if seen:
                            continue
                        seen = True
                    kept.append(a)
                d.abilities = tuple(kept)
                d.key = declared_key(d)  # (its abilities changed after planning)
        # 24.29 [PSYCHIC]: which BS/WS and hit-roll modifiers to ignore.
        for d in act.declared if Hook.IGNORES_MODIFIERS in effects else ():
            mods = d.hit_mods + d.skill_mods
            if d.target is None or not mods or not AB.first_with(d.abilities, Hook.IGNORES_MODIFIERS):
                continue
            # one decision per declared attack (model, weapon, target): each target brings its
            # own modifiers, so its own default (Part A ruling 7)
            key = f"{d.model_id} {d.weapon.name} -> {esper.component_for_entity(d.target, Unit).id}"
            if key not in act.choices:
                harmful = [s for s, v in mods if v < 0]
                req = DecisionRequest(
                    "psychic", key, unit.owner, [s for s, _v in mods], harmful,
                    prompt=f"{d.weapon.name} is {_PSYCHIC.tag}: ignore which modifiers? ({_PSYCHIC.section})",
                    context={"modifiers": [[s, v] for s, v in mods]})
                ans = battle.decide(req)
                if ans is PENDING:
                    return
                act.choices[key] = ans
            d.ignored = tuple(act.choices[key])
            d.key = declared_key(d)  # (what it ignores changed after planning)
        if Hook.ONCE_PER_BATTLE in effects:
            st = W.unit_state(ent)
            st.used_one_shot = st.used_one_shot | frozenset(one_shot_keys(act.declared, st.used_one_shot))
        target_ids = {None: None}  # target entity -> unit id, looked up once per target
        selections = []
        for d in act.declared:
            if d.target not in target_ids:
                target_ids[d.target] = esper.component_for_entity(d.target, Unit).id
            selections.append([d.model_id, d.weapon.name, target_ids[d.target], d.attacks])
        battle.record({"type": ev.WEAPONS_SELECTED, "unit": unit.id, "kind": act.kind,
                       "selections": selections})
        act.stage = _ATTACKS
