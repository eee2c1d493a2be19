"""04.01/04.02 for a unit selected to shoot (10.02): its shooting type (10.04-10.07), each
model's ranged weapons (24.07), and each weapon's target with its modifiers (04.02, 10.06,
13.08, 17.03, 24.16, 24.21, 10.07)."""

from __future__ import annotations

import functools
import operator
from typing import Mapping, NamedTuple

import esper
import numpy as np

from sim import world as W
from sim.commands import Shoot
from sim.components import Unit
from sim.plan.common import (Declared, PlanError, count_check, damaged_modifier, find_unit,
                             find_weapon, indirect_fail_below, lance_modifier, model_in)
from sim.rules import abilities as AB
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
    elig = SH.shooting_type_eligibility(shooting_facts(unit_ent))
    return _chosen_type(elig, requested), elig


def _chosen_type(elig: Mapping, requested: str | None) -> str:
    if requested is None:
        chosen = SH.default_shooting_type(elig)
        if chosen is None:
            reasons = "; ".join(f"{t}: {r}" for t, r in elig.items())
            raise PlanError(f"the unit qualifies for no shooting type ({reasons})")
        return chosen
    if requested not in elig:
        raise PlanError(f"unknown shooting type {requested!r} (expected one of {', '.join(elig)})")
    if elig[requested] is not None:
        raise PlanError(f"cannot use {requested} shooting: {elig[requested]}")
    return requested


_any_per_row = functools.partial(np.logical_or.reduce, axis=1)  # (the ufuncs themselves:
_min_per_row = functools.partial(np.minimum.reduce, axis=1)  # ndarray.any/min wrap them)


def shooters_of(unit_ent: int, lv: W.Living | None = None) -> "Shooters":
    """The unit's Shooters, kept with its living models (``lv``: W.Living) while they are the
    same."""
    memo = (W.living(unit_ent) if lv is None else lv).memo
    hit = memo.get("shooters")
    if hit is None:
        hit = memo["shooters"] = Shooters(unit_ent)
    return hit


class Shooters:
    """The living models of a unit making ranged attacks (W.Living: entities, ids, index rows),
    their MONSTER/VEHICLE flags, and each entity's position in these lists."""

    __slots__ = ("models", "ids", "index", "mv", "weapons", "damaged", "slot", "loadouts", "kit",
                 "alike", "any_damaged", "_types")

    def __init__(self, unit_ent: int):
        lv = W.living(unit_ent)
        r = W.roster(unit_ent)
        self.models, self.ids, self.index = lv.models, lv.ids, lv.index
        self.mv = [r.monster_or_vehicle[i] for i in lv.slots]
        self.weapons = [r.weapons[i] for i in lv.slots]
        self.damaged = [r.damaged[i] is not None for i in lv.slots]  # has Damaged X (24.39)
        self.any_damaged = True in self.damaged
        # every model carries the same loadout (one shared tuple, see the Roster) and has the
        # same MONSTER/VEHICLE flag: what one of them may select, they all may (_plan_alike)
        self.alike = len(set(map(id, self.weapons))) == 1 and len(set(self.mv)) == 1
        self.slot = {m: i for i, m in enumerate(self.models)}
        # legal loadouts met so far: (id of the profiles tuple, names selected, MONSTER/VEHICLE,
        # shooting type) -> the profiles (see _ShootPlanTargets.loadout)
        self.loadouts: dict[tuple, list] = {}
        # the ShooterFacts that depend only on which models live (its last four fields)
        abilities = W.unit_ranged_weapon_abilities(unit_ent)
        self.kit = ("ASSAULT" in abilities, "CLOSE-QUARTERS" in abilities,
                    W.unit_is_monster_or_vehicle(unit_ent), "INDIRECT FIRE" in abilities)
        self._types: dict[tuple, tuple] = {}  # (the three other fields) -> types()

    def facts(self, engaged: bool, st) -> SH.ShooterFacts:
        """10.02 The unit's ShooterFacts, given whether it is engaged and its UnitState."""
        return SH.ShooterFacts(engaged, st.advanced, st.fell_back, *self.kit)

    def types(self, engaged: bool, st) -> tuple[Mapping, str | None]:
        """10.02 step 2 The unit's eligibility for each shooting type (10.04-10.07) and its
        default type (None: it qualifies for none), given whether it is engaged and its
        UnitState; kept for each of the few combinations of the facts that change."""
        key = (engaged, st.advanced, st.fell_back)
        hit = self._types.get(key)
        if hit is None:
            elig = SH.shooting_type_eligibility(self.facts(engaged, st))
            hit = self._types[key] = (elig, SH.default_shooting_type(elig))
        return hit


class TargetView:
    """04.02 One target unit as seen by the models of one shooting unit: the target's models,
    engagement and keywords, and the visibility (06.01) and closest distance (01.04) from each
    of the shooting unit's models, read as one numpy block for all of them. Built once per
    target for one plan and then thrown away: it is only valid while nothing moves or dies."""

    __slots__ = ("living", "count", "cols", "engaged_with", "monster_or_vehicle",
                 "all_lone_operatives", "_slot", "visible", "nearest")

    def __init__(self, battle, shooters: Shooters, target: int):
        r = W.roster(target)
        self.living = lv = W.living(target)
        slots = lv.slots
        self.count = len(slots)  # models in the unit
        self.cols = lv.index
        self.engaged_with = W.engaged_with(target)
        # (a unit none of whose models has either keyword is no MONSTER/VEHICLE unit, whoever
        # is left: the usual case, read off the roster without building the unit's keywords)
        self.monster_or_vehicle = any(r.monster_or_vehicle) and W.unit_is_monster_or_vehicle(target)
        # 24.24 can only apply if every model of the target unit has Lone Operative: only then
        # is BattleVisibility.lone_operative_beyond asked, per model
        lone = r.lone_operative
        self.all_lone_operatives = bool(slots) and any(lone) and all(lone[i] for i in slots)
        self._slot = shooters.slot
        # per shooting model, in the order of ``shooters.models``: the block of the visibility
        # matrix BattleVisibility.model_visible reads, and of the distance index
        rows = shooters.index
        visible = W.block(battle.visibility.index.visible, rows, self.cols)
        dist = W.block(W.spatial().dist, rows, self.cols)
        if len(shooters.models) == 1:  # (one row: read as a list faster than numpy reduces it)
            self.visible = [True in visible[0].tolist()]
            self.nearest = [min(dist[0].tolist())]
            return
        # (counted first, a third of the cost of a reduction per row: the usual answer is that
        # every model sees every model of the target, or none does)
        seen = np.count_nonzero(visible)
        if seen == 0:
            self.visible = [False] * len(shooters.models)
        elif seen == visible.size:
            self.visible = [True] * len(shooters.models)
        else:
            self.visible = _any_per_row(visible).tolist()
        self.nearest = _min_per_row(dist).tolist()

    @property
    def models(self) -> list[int]:
        return self.living.models

    @property
    def ids(self) -> list[str]:
        return self.living.ids

    def visible_to(self, battle, model_ent: int) -> bool:
        """06.01 Is any model of the target visible to this model."""
        i = self._slot.get(model_ent)
        if i is not None:
            return self.visible[i]
        mid = W.model_id(model_ent)
        return any(battle.visibility.model_visible(mid, t) for t in self.ids)

    def nearest_to(self, model_ent: int) -> float:
        """01.04 Distance from this model to the target's closest model."""
        i = self._slot.get(model_ent)
        return self.nearest[i] if i is not None else W.nearest_distance(model_ent, self.models)


def target_facts(battle, unit_ent: int, model_ent: int, weapon: WeaponProfile, target: int,
                 shooting_type: str, cache: dict | None = None) -> tuple[SH.RangedTargetFacts, float]:
    """The facts 04.02 needs for one weapon of one model at one target unit, and the distance
    to the target's closest model. ``cache`` (target -> TargetView) shares the per-target work
    across a unit's models within one plan."""
    view = None if cache is None else cache.get(target)
    if view is None:
        view = TargetView(battle, shooters_of(unit_ent), target)
        if cache is not None:
            cache[target] = view
    nearest = view.nearest_to(model_ent)
    lo = view.all_lone_operatives and battle.visibility.lone_operative_beyond(W.model_id(model_ent), target)
    return _ranged_facts(shooting_type, weapon, W.is_monster_or_vehicle(model_ent),
                         view.visible_to(battle, model_ent), nearest <= weapon.range, unit_ent,
                         view, lo), nearest


def _ranged_facts(shooting_type: str, weapon: WeaponProfile, model_mv: bool, visible: bool,
                  in_range: bool, unit_ent: int, view: TargetView, lone_operative_beyond: bool):
    names = weapon.names
    # (RangedTargetFacts' fields in order: shooting type, the weapon's [CLOSE-QUARTERS],
    # [BLAST] and [INDIRECT FIRE], the model's MONSTER/VEHICLE, visible, in range, the target
    # engaged, engaged with the shooting unit, MONSTER/VEHICLE, Lone Operative beyond 24.24)
    return SH.RangedTargetFacts(
        shooting_type, "CLOSE-QUARTERS" in names, "BLAST" in names, "INDIRECT FIRE" in names,
        model_mv, visible, in_range, bool(view.engaged_with), unit_ent in view.engaged_with,
        view.monster_or_vehicle, lone_operative_beyond)


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
    model's loadout, is worked out once per group (_ShootPlanTargets, _WeaponAt)."""
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
    stype = default if cmd.type is None and default is not None else _chosen_type(elig, cmd.type)
    # 24.16 [HEAVY]: the unit remained stationary (moved at most 3", Part A) and is unengaged
    heavy_ok = not engaged and not st.set_up_this_turn and st.moved <= 3.0
    targets = _ShootPlanTargets(battle, unit_ent, stype, shooters, heavy_ok)
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
    same = None  # the last model's one selection: (loadout, MONSTER/VEHICLE, Selection, profile, _WeaponAt)
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
            # usual case): the same profile and _WeaponAt, without looking them up again
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


def _plan_alike(targets: "_ShootPlanTargets", sels) -> list[Declared] | None:
    """The usual command planned at once: every model of a unit of alike models (Shooters.alike)
    selects, once and in unit order, the same weapon at the same target unit, and 04.02 gives
    each of them the same answer (_WeaponAt.alike). The first model is checked exactly as
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


_COVER = (("benefit of cover (13.08)", -1),)


def _declare(declared: list, i: int, m: int, mid: str, w: WeaponProfile, uid: str,
             at: "_WeaponAt", has_damaged: bool) -> None:
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


class _ShootPlanTargets:
    """The target side of one plan_shoot: each target unit checked and viewed once, and the
    answers that depend only on the weapon and the target (or on the facts of 04.02) worked
    out once for all the models that share them. Lives for one plan (nothing changes in it)."""

    def __init__(self, battle, unit_ent: int, stype: str, shooters: Shooters, heavy_ok: bool):
        self.battle = battle
        self.unit_ent = unit_ent
        self.stype = stype
        self.owner = esper.component_for_entity(unit_ent, Unit).owner
        self.heavy_ok = heavy_ok  # 24.16 the unit remained stationary and is unengaged
        self.shooters = shooters
        self._enemy: dict[str, int] = {}  # target unit id -> entity, once found legal
        self._views: dict = {}  # target entity -> TargetView
        self._weapon_at: dict[tuple, _WeaponAt] = {}  # (id of weapon profile, target entity)
        self.weapon_at_uid: dict[tuple, _WeaponAt] = {}  # (id of weapon profile, target unit id)
        self.weapons: dict[int, WeaponProfile] = {}  # the profiles selected: id -> profile

    def loadout(self, m: int, mid: str, model_mv: bool, profiles: tuple, sels) -> list[WeaponProfile]:
        """04.01 + 24.07 The weapon profiles model ``m`` (carrying ``profiles``) selects
        (``sels``, in order), checked: it carries each of them (as many times as selected) and
        the selection is legal for the shooting type. Models with the same loadout (one shared
        tuple, see the Roster) that select the same names share the answer; a problem raises
        PlanError for ``mid``."""
        names = sels[0].weapon if len(sels) == 1 else tuple(s.weapon for s in sels)
        key = (id(profiles), names, model_mv, self.stype)  # (the tuple lives as long as the world)
        weapons = self.shooters.loadouts.get(key)
        if weapons is None:
            names = tuple(s.weapon for s in sels)
            weapons = [find_weapon(m, mid, n, melee=False) for n in names]
            if len(names) > 1:  # (one selection of a weapon the model has is never too many)
                count_check(m, mid, list(names))
            problem = SH.weapon_selection_problem(
                self.stype, model_mv,
                [(w.name, w.has("CLOSE-QUARTERS"), w.has("ASSAULT"), w.is_melee) for w in weapons])
            if problem:
                raise PlanError(f"{mid}: {problem}")
            self.shooters.loadouts[key] = weapons
        return weapons

    def enemy(self, mid: str, uid: str) -> int:
        """04.02 The target unit: it exists, is an enemy and is not destroyed."""
        t = self._enemy.get(uid)
        if t is None:
            t = find_unit(self.battle, uid)
            if esper.component_for_entity(t, Unit).owner == self.owner:
                raise PlanError(f"{mid}: {uid} is not an enemy unit (04.02)")
            if W.unit_destroyed(t):
                raise PlanError(f"{mid}: {uid} is destroyed")
            self._enemy[uid] = t
        return t

    def view(self, t: int) -> "TargetView":
        v = self._views.get(t)
        if v is None:
            v = self._views[t] = TargetView(self.battle, self.shooters, t)
        return v

    def weapon_at_unit(self, mid: str, w: WeaponProfile, uid: str) -> "_WeaponAt":
        """weapon_at for the target unit named ``uid`` (checked by ``enemy`` the first time)."""
        key = (id(w), uid)
        hit = self.weapon_at_uid.get(key)
        if hit is None:
            hit = self.weapon_at_uid[key] = self.weapon_at(w, self.enemy(mid, uid))
        return hit

    def weapon_at(self, w: WeaponProfile, t: int) -> "_WeaponAt":
        key = (id(w), t)  # (the profile lives as long as this plan: its id is stable)
        hit = self._weapon_at.get(key)
        if hit is None:
            hit = self._weapon_at[key] = _WeaponAt(self, w, t)
            self.weapons[id(w)] = w
        return hit


class _WeaponAt:
    """One weapon profile at one target unit within one plan: what depends only on them (the
    [HEAVY] hit modifier 24.16, the [LANCE] wound modifier 24.21, 10.07's indirect-fire
    threshold) and, for every model of the shooting unit at once (in the order of
    ``targets.shooters``), the 04.02 answer, half range and benefit of cover (13.08)."""

    __slots__ = ("weapon", "target", "view", "heavy", "lance", "fail_below", "target_models",
                 "per_model", "alike")

    def __init__(self, targets: _ShootPlanTargets, w: WeaponProfile, t: int):
        self.weapon, self.target = w, t
        self.view = view = targets.view(t)
        self.target_models = view.count
        names = w.names  # (the rules below first ask for their ability: skip those it lacks)
        self.heavy = ()
        if "HEAVY" in names and targets.heavy_ok and AB.has(w.abilities, "HEAVY", W.unit_keywords(t)):
            self.heavy = (("[HEAVY] (24.16)", +1),)
        self.lance = lance_modifier(w, targets.unit_ent, t) if "LANCE" in names else ()
        self.fail_below = (indirect_fail_below(targets.battle, targets.unit_ent, t, targets.stype, w)
                           if "INDIRECT FIRE" in names else 0)
        half, rng = w.range / 2, w.range
        shooters = targets.shooters
        if view.all_lone_operatives:
            lone = targets.battle.visibility.lone_operative_beyond_rows(shooters.index, t)
        else:
            lone = [False] * len(shooters.ids)
        # 13.08 per shooting model, read for all of them at once (only legal selections use it)
        cover = targets.battle.visibility.benefit_of_cover_rows(shooters.index, t, w, targets.stype)
        # 04.02 per shooting model, ``per_model``: (the reason the target is illegal or None, hit
        # modifiers from 04.02's rules, skill modifiers (cover), within half range). Models whose
        # facts are identical share the answer; usually every model's are (checked on the lists
        # at once): then one answer for all, ``alike`` (else None)
        n = len(shooters.ids)
        mvs, visible, nearest = shooters.mv, view.visible, view.nearest
        near, far = min(nearest), max(nearest)
        if (mvs.count(mvs[0]) == n and visible.count(visible[0]) == n and lone.count(lone[0]) == n
                and cover.count(cover[0]) == n and (near <= rng) == (far <= rng)
                and (near <= half) == (far <= half)):
            facts = _ranged_facts(targets.stype, w, mvs[0], visible[0], far <= rng,
                                  targets.unit_ent, view, lone[0])
            problem, hit_mods = SH.ranged_target_answer(facts)
            self.alike = (problem, hit_mods, _COVER if cover[0] else (), far <= half)
            self.per_model = [self.alike] * n
            return
        self.alike = None
        answers: dict[tuple, tuple] = {}
        per_model = []
        for model_mv, visible, d, lo, covered in zip(shooters.mv, view.visible, view.nearest,
                                                     lone, cover):
            key = (model_mv, visible, d <= rng, lo)
            hit = answers.get(key)
            if hit is None:
                facts = _ranged_facts(targets.stype, w, model_mv, visible, key[2],
                                      targets.unit_ent, view, lo)
                hit = answers[key] = SH.ranged_target_answer(facts)
            per_model.append((hit[0], hit[1], _COVER if covered else (), d <= half))
        self.per_model = per_model
