"""WeaponSelectionSystem: 04.01 Select Weapons and 04.02 Select Targets for the activation,
with the choices the rules give the attacker there: which copy of a duplicated ability a
weapon uses (24.02) and which modifiers a [PSYCHIC] attack ignores (24.29)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import PENDING, DecisionRequest
from sim.plan import plan_fight, plan_shoot
from sim.rules import abilities as AB
from sim.validate import distinct_weapons, one_shot_keys
from sim.world import queries as W


def default_duplicate(copies, target_keywords) -> str:
    """24.02 default (Part A ruling 8): among the copies whose 24.01 condition the target meets,
    for [ANTI] the lowest threshold whose keyword the target has, else the first; for numbered
    abilities the highest fixed value; else the first."""
    live = [a for a in copies if a.applies_to(target_keywords)] or list(copies)  # 24.01
    if copies[0].name == "ANTI":
        hits = [a for a in live if a.anti_matches(target_keywords)]
        if hits:
            return min(hits, key=lambda a: a.value).label()
        return live[0].label()
    copies = live
    fixed = [a for a in copies if isinstance(a.value, int)]
    if fixed:
        return max(fixed, key=lambda a: a.value).label()
    return copies[0].label()


class WeaponSelectionSystem(esper.Processor):
    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != "weapons":
            return
        ent = battle.activation_unit
        weapons = None  # the distinct profiles declared, when the plan says (validated)
        if not act.declared:
            plan = battle.validated
            if plan is not None and plan.command is act.command:
                act.declared, weapons = plan.declared, plan.weapons
            elif act.kind == "shoot":
                act.declared = plan_shoot(battle, act.command, selected=True).declared
            else:
                act.declared = plan_fight(battle, act.command, selected=True)
        unit = esper.component_for_entity(ent, Unit)
        # the ability names of the weapons selected, to skip the passes below that cannot apply
        if weapons is None:
            weapons = distinct_weapons(act.declared)
        if len(weapons) == 1:  # (the usual case: one profile, its own names)
            names = weapons[0].names
            duplicated = len(names) != len(weapons[0].abilities)
        else:
            names = frozenset().union(*(w.names for w in weapons))
            duplicated = any(len(w.names) != len(w.abilities) for w in weapons)
        act.weapon_abilities = names
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
                d.like = None  # (changed after planning: keyed on its own)
        # 24.29 [PSYCHIC]: which BS/WS and hit-roll modifiers to ignore.
        for d in act.declared if "PSYCHIC" in names else ():
            mods = d.hit_mods + d.skill_mods
            if d.target is None or not mods or not any(a.name == "PSYCHIC" for a in d.abilities):
                continue
            key = f"{d.model_id} {d.weapon.name}"
            if key not in act.choices:
                harmful = [s for s, v in mods if v < 0]
                req = DecisionRequest(
                    "psychic", key, unit.owner, [s for s, _v in mods], harmful,
                    prompt=f"{d.weapon.name} is [PSYCHIC]: ignore which modifiers? (24.29)",
                    context={"modifiers": [[s, v] for s, v in mods]})
                ans = battle.decide(req)
                if ans is PENDING:
                    return
                act.choices[key] = ans
            d.ignored = tuple(act.choices[key])
            d.like = None  # (changed after planning: keyed on its own)
        if "ONE SHOT" in names:
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
        act.stage = "attacks"
