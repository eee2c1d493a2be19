"""04.01/04.02 for a unit selected to shoot (10.02): its shooting type (10.04-10.07), each
model's ranged weapons (24.07), and each weapon's target with its modifiers (04.02, 10.06,
13.08, 17.03, 24.16, 24.21, 10.07). The target side, worked out once per plan for all the
models that share it, is sim.plan.shoot_targets."""

from __future__ import annotations

import operator
from typing import Mapping, NamedTuple

from sim.world import queries as W
from sim.commands import Shoot
from sim.errors import PlanError
from sim.plan.common import Declared, damaged_modifier, find_unit, model_in
from sim.plan.shoot_targets import ShootPlanTargets, WeaponAt, shooters_of
from sim.rules import shooting as SH
from sim.rules.profiles import WeaponProfile


def shooting_facts(unit_ent: int) -> SH.ShooterFacts:
    return shooters_of(unit_ent).facts(W.unit_engaged(unit_ent), W.unit_state(unit_ent))


def shooting_type_for(unit_ent: int, requested: str | None) -> str:
    """10.02 step 2: the requested type if the unit qualifies, else the default; PlanError
    with the reason otherwise."""
    return shooting_type_choice(unit_ent, requested)[0]


def shooting_type_choice(unit_ent: int, requested: str | None) -> tuple[str, Mapping]:
    """shooting_type_for, and the unit's eligibility for each type (10.04-10.07)."""
    elig, default = shooters_of(unit_ent).types(W.unit_engaged(unit_ent), W.unit_state(unit_ent))
    return _chosen_type(elig, default, requested), elig


def _chosen_type(elig: Mapping, default: str | None, requested: str | None) -> str:
    """10.02 step 2 given the eligibility and the default type (None: the unit qualifies for
    none): the requested type, or the default when none is requested; PlanError otherwise."""
    if requested is None:
        if default is None:
            reasons = "; ".join(f"{t}: {r}" for t, r in elig.items())
            raise PlanError(f"the unit qualifies for no shooting type ({reasons})")
        return default
    if requested not in elig:
        raise PlanError(f"unknown shooting type {requested!r} (expected one of {', '.join(elig)})")
    if elig[requested] is not None:
        raise PlanError(f"cannot use {requested} shooting: {elig[requested]}")
    return requested


class ShootPlan(NamedTuple):
    shooting_type: str
    declared: list[Declared]
    eligibility: Mapping[str, str | None]  # 10.04-10.07 per type: None, or why not
    weapons: list[WeaponProfile]  # the distinct profiles declared, in order of first use


def plan_shoot(battle, cmd: Shoot, selected: bool = False) -> ShootPlan:
    """04.01/04.02 for a unit selected to shoot: the shooting type and the declared attacks.
    ``selected``: the unit is already selected (the system resolving it), skip that check.

    Selections are checked model by model in unit order (so the first problem reported is
    always the same one); what depends only on the weapon profile and the target, or on a
    model's loadout, is worked out once per group (ShootPlanTargets, WeaponAt)."""
    unit_ent = find_unit(battle, cmd.unit)
    lv = W.living(unit_ent)
    if not lv.slots:
        raise PlanError(f"unit {cmd.unit} is destroyed")
    st = W.unit_state(unit_ent)
    if st.selected_to_shoot and not selected:
        raise PlanError(f"unit {cmd.unit} was already selected to shoot this phase (10.02)")
    shooters = shooters_of(unit_ent, lv)
    engaged = W.unit_engaged(unit_ent)
    elig, default = shooters.types(engaged, st)
    stype = _chosen_type(elig, default, cmd.type)
    # 24.16 [HEAVY]: the unit remained stationary (moved at most 3", Part A) and is unengaged
    heavy_ok = not engaged and not st.set_up_this_turn and st.moved <= 3.0
    targets = ShootPlanTargets(battle, unit_ent, stype, shooters, heavy_ok)
    if shooters.alike and len(cmd.selections) == len(shooters.models):
        declared = _plan_alike(targets, cmd.selections)
        if declared is not None:
            return ShootPlan(stype, declared, elig, list(targets.weapons.values()))
    slot = shooters.slot  # the unit's living models
    models = battle.models
    by_model: dict[int, list] = {}
    for s in cmd.selections:
        m = models.get(s.model)
        if m not in slot:  # (model_in gives the reason)
            m = model_in(battle, unit_ent, s.model)
        sels = by_model.get(m)
        if sels is None:
            by_model[m] = [s]
        else:
            sels.append(s)
    declared: list[Declared] = []
    ids, mvs, has_damaged, carried = shooters.ids, shooters.mv, shooters.damaged, shooters.weapons
    loadouts, weapon_at = shooters.loadouts, targets.weapon_at_uid
    same = None  # the last model's one selection: (loadout, MONSTER/VEHICLE, Selection, profile, WeaponAt)
    for i, m in enumerate(shooters.models):
        sels = by_model.get(m)
        if sels is None:
            continue
        mid = ids[i]
        s = sels[0]
        if (same is not None and len(sels) == 1 and s.target == same[2].target
                and s.weapon == same[2].weapon and s.attacks is None
                and carried[i] is same[0] and mvs[i] == same[1]):
            # a model like the last one selecting the same weapon at the same target (the
            # usual case): the same profile and WeaponAt, without looking them up again
            _declare(declared, i, m, mid, same[3], s.target, same[4], has_damaged[i])
            continue
        same = None
        # (the key of Shooters.loadouts, read here before asking targets.loadout to check it)
        names = s.weapon if len(sels) == 1 else tuple(s.weapon for s in sels)
        weapons = loadouts.get((id(carried[i]), names, mvs[i], stype))
        if weapons is None:
            weapons = targets.loadout(m, mid, mvs[i], carried[i], sels)
        for s, w in zip(sels, weapons):
            if s.attacks is not None:
                raise PlanError(f"{mid}: ranged attacks cannot be split (04.03 splits melee only)")
            if s.target is None:
                declared.append(Declared(m, mid, w, None, abilities=w.abilities))
                targets.weapons[id(w)] = w
                continue
            at = weapon_at.get((id(w), s.target))
            if at is None:
                at = targets.weapon_at_unit(mid, w, s.target)
            _declare(declared, i, m, mid, w, s.target, at, has_damaged[i])
            if len(sels) == 1:
                same = (carried[i], mvs[i], s, w, at)
    return ShootPlan(stype, declared, elig, list(targets.weapons.values()))


_MODEL = operator.attrgetter("model")
_AIM = operator.attrgetter("weapon", "target", "attacks")


def _plan_alike(targets: "ShootPlanTargets", sels) -> list[Declared] | None:
    """The usual command planned at once: every model of a unit of alike models (Shooters.alike)
    selects, once and in unit order, the same weapon at the same target unit, and 04.02 gives
    each of them the same answer (WeaponAt.alike). The first model is checked exactly as
    plan_shoot checks it, so a problem is reported for it as model by model; the others share
    its answer. None when the command or the answers differ: plan model by model."""
    shooters = targets.shooters
    if shooters.any_damaged:  # (24.39 is per model: see _declare)
        return None
    if list(map(_MODEL, sels)) != shooters.ids:  # (model ids are unique: the same models)
        return None
    aims = list(map(_AIM, sels))  # (weapon, target, attacks) per selection
    name, uid, attacks = aim = aims[0]
    if attacks is not None or uid is None or aims.count(aim) != len(aims):
        return None
    m, mid, mv, carried = shooters.models[0], shooters.ids[0], shooters.mv[0], shooters.weapons[0]
    weapons = shooters.loadouts.get((id(carried), name, mv, targets.stype))
    if weapons is None:
        weapons = targets.loadout(m, mid, mv, carried, sels[:1])
    w = weapons[0]
    at = targets.weapon_at(w, targets.enemy(mid, uid))  # (the first look-up of this plan)
    if at.alike is None:
        return None
    problem, hit_mods, skill_mods, half = at.alike
    if problem:
        raise PlanError(f"{mid} {w.name} -> {uid}: {problem}")
    if at.heavy:
        hit_mods = hit_mods + at.heavy
    t, count, lance, fail_below, abilities = at.target, at.target_models, at.lance, at.fail_below, w.abilities
    like = object()  # (Declared.like: these differ only in their model)
    # (Declared's fields in order: see _declare; then ignored, split, like)
    return [Declared(m, mid, w, t, None, hit_mods, skill_mods, half, count, lance, fail_below,
                     abilities, (), False, like)
            for m, mid in zip(shooters.models, shooters.ids)]




def _declare(declared: list, i: int, m: int, mid: str, w: WeaponProfile, uid: str,
             at: "WeaponAt", has_damaged: bool) -> None:
    """Check the selection of ``w`` by model ``m`` (``mid``, the ``i``-th of its unit) at the
    unit ``uid`` (04.02, ``at``) and declare it with its modifiers (24.16, 24.39, 13.08)."""
    problem, hit_mods, skill_mods, half = at.per_model[i]
    if problem:
        raise PlanError(f"{mid} {w.name} -> {uid}: {problem}")
    damaged = damaged_modifier(m) if has_damaged else ()
    if damaged:
        hit_mods = hit_mods + damaged + at.heavy
    elif at.heavy:
        hit_mods = hit_mods + at.heavy
    # (Declared's fields in order: model, id, weapon, target, attacks, hit, skill and wound
    # modifiers, half range, target models, indirect threshold, abilities)
    declared.append(Declared(m, mid, w, at.target, None, hit_mods, skill_mods, half,
                             at.target_models, at.lance, at.fail_below, w.abilities))

