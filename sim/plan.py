"""04.01 Select Weapons and 04.02 Select Targets: turn a Shoot or Fight command into declared
attacks, or the reason it is illegal. Validation (at submit) and the weapon-selection system
(at resolution) call the same code, so a refused command changes nothing and an accepted one
resolves exactly as validated."""

from __future__ import annotations

from dataclasses import dataclass

import esper
import numpy as np

from sim import world as W
from sim.commands import Fight, Shoot
from sim.components import Unit
from sim.rules import abilities as AB
from sim.rules import shooting as SH
from sim.rules.profiles import WeaponProfile


@dataclass(slots=True)
class Declared:
    """One selected weapon of one model and its target (None: selected, no target)."""

    model: int
    model_id: str
    weapon: WeaponProfile
    target: int | None
    attacks: int | None = None  # melee split (04.03); None = all
    hit_mods: tuple = ()  # ((source, value), ...) hit-roll modifiers (02.02.01, clamped later)
    skill_mods: tuple = ()  # ((source, value), ...) BS/WS characteristic modifiers
    half_range: bool = False  # target within half range at Select Targets (MELTA, RAPID FIRE)
    target_models: int = 0  # models in the target unit at Select Targets (BLAST, CLEAVE)
    wound_mods: tuple = ()  # ((source, value), ...) wound-roll modifiers
    fail_below: int = 0  # 10.07 indirect shooting: unmodified hit rolls below this fail
    abilities: tuple = ()  # the weapon's abilities after 24.02 duplicate choices
    ignored: tuple = ()  # modifier sources a [PSYCHIC] attack ignores (24.29)
    split: bool = False  # the weapon's attacks are split between several targets (CLEAVE)


class PlanError(Exception):
    pass


def damaged_modifier(model_ent: int) -> tuple:
    """24.39 Damaged X: while the model has X or fewer wounds left, its attacks take -1 to hit."""
    for a in W.model_abilities(model_ent):
        if a.name == "DAMAGED" and W.wounds_left(model_ent) <= a.value:
            return (("Damaged (24.39)", -1),)
    return ()


def lance_modifier(weapon: WeaponProfile, unit_ent: int, target: int) -> tuple:
    """24.21 [LANCE]: +1 to the wound roll if the attacker's unit made a charge move this turn
    (24.01: a conditional [LANCE: X] only against a unit with X)."""
    if (weapon.has("LANCE") and W.unit_state(unit_ent).charged
            and AB.has(weapon.abilities, "LANCE", W.unit_keywords(target))):
        return (("[LANCE] after a charge (24.21)", +1),)
    return ()


def indirect_fail_below(battle, unit_ent: int, target: int, stype: str, weapon: WeaponProfile) -> int:
    """10.07 Indirect shooting: an unmodified hit roll of 1-5 fails, or only 1-3 if the unit
    remained stationary and a friendly unit can see the target. Returns the lowest unmodified
    result that can hit (6 or 4), or 0 when the rule does not apply."""
    if stype != SH.INDIRECT or not weapon.has("INDIRECT FIRE"):
        return 0
    st = W.unit_state(unit_ent)
    stationary = st.moved == 0 and not st.advanced and not st.fell_back
    if stationary:
        owner = esper.component_for_entity(unit_ent, Unit).owner
        vis = battle.visibility
        tids = [W.model_id(t) for t in W.unit_models(target)]
        for u in W.all_units():
            if esper.component_for_entity(u, Unit).owner != owner:
                continue
            if any(vis.model_visible(W.model_id(m), t) for m in W.unit_models(u) for t in tids):
                return 4
    return 6


def _unit(battle, uid: str) -> int:
    ent = battle.units.get(uid)
    if ent is None:
        raise PlanError(f"no unit {uid!r} (units: {', '.join(sorted(battle.units))})")
    return ent


def _model_in(battle, unit_ent: int, mid: str) -> int:
    ent = battle.models.get(mid)
    if ent is None or W.unit_of(ent) != unit_ent:
        raise PlanError(f"no model {mid!r} in unit {esper.component_for_entity(unit_ent, Unit).id}")
    if not W.alive(ent):
        raise PlanError(f"model {mid} is destroyed")
    return ent


def _weapon(model_ent: int, mid: str, name: str, melee: bool) -> WeaponProfile:
    for w in W.weapons_of(model_ent):
        if w.name == name:
            if w.is_melee != melee:
                kind = "melee" if w.is_melee else "ranged"
                raise PlanError(f"{mid}: {name} is a {kind} weapon")
            return w
    have = ", ".join(w.name for w in W.weapons_of(model_ent)) or "none"
    raise PlanError(f"{mid} has no weapon {name!r} (it has: {have})")


def _count_check(model_ent: int, mid: str, names: list[str]) -> None:
    have: dict[str, int] = {}
    for w in W.weapons_of(model_ent):
        have[w.name] = have.get(w.name, 0) + 1
    for n in sorted(set(names)):
        if names.count(n) > have.get(n, 0):
            raise PlanError(f"{mid} selects {n} {names.count(n)} times but carries {have.get(n, 0)}")


def shooting_facts(unit_ent: int) -> SH.ShooterFacts:
    st = W.unit_state(unit_ent)
    abilities = W.unit_ranged_weapon_abilities(unit_ent)
    return SH.ShooterFacts(
        engaged=W.unit_engaged(unit_ent), advanced=st.advanced, fell_back=st.fell_back,
        has_assault="ASSAULT" in abilities,
        has_close_quarters="CLOSE-QUARTERS" in abilities,
        monster_or_vehicle=W.unit_is_monster_or_vehicle(unit_ent),
        has_indirect="INDIRECT FIRE" in abilities)


def shooting_type_for(unit_ent: int, requested: str | None) -> str:
    """10.02 step 2: the requested type if the unit qualifies, else the default; PlanError
    with the reason otherwise."""
    elig = SH.shooting_type_eligibility(shooting_facts(unit_ent))
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


def _visible_rows(vis, observers: list[str], targets: list[str]) -> list[bool]:
    """06.01 For each observer model: is any of the target models visible to it. Reads the
    matrix BattleVisibility.model_visible reads, as one block for all the observers."""
    index = vis.index
    rows = np.array([index.row[o] for o in observers], dtype=np.intp)
    return index.visible[rows[:, None], [index.row[t] for t in targets]].any(axis=1).tolist()


class Shooters:
    """The living models of a unit making ranged attacks, their ids and positions in it."""

    __slots__ = ("models", "ids", "slot")

    def __init__(self, unit_ent: int):
        self.models = W.unit_models(unit_ent)
        self.ids = [W.model_id(m) for m in self.models]
        self.slot = {m: i for i, m in enumerate(self.models)}


class TargetView:
    """04.02 One target unit as seen by the models of one shooting unit: the target's models,
    engagement and keywords, and the visibility (06.01) and closest distance (01.04) from each
    of the shooting unit's models, read as one numpy block for all of them. Built once per
    target for one plan and then thrown away: it is only valid while nothing moves or dies."""

    __slots__ = ("models", "ids", "engaged_with", "monster_or_vehicle", "all_lone_operatives",
                 "_slot", "_visible", "_nearest")

    def __init__(self, battle, shooters: Shooters, target: int):
        self.models = W.unit_models(target)
        self.ids = [W.model_id(t) for t in self.models]
        self.engaged_with = W.engaged_with(target)
        self.monster_or_vehicle = W.unit_is_monster_or_vehicle(target)
        # 24.24 can only apply if every model of the target unit has Lone Operative: only then
        # is BattleVisibility.lone_operative_beyond asked, per model
        self.all_lone_operatives = bool(self.models) and all(
            any(a.name == "LONE OPERATIVE" for a in W.model_abilities(t)) for t in self.models)
        self._slot = shooters.slot
        self._visible = _visible_rows(battle.visibility, shooters.ids, self.ids)
        self._nearest = W.nearest_distances(shooters.models, self.models)

    def visible_to(self, battle, model_ent: int) -> bool:
        """06.01 Is any model of the target visible to this model."""
        i = self._slot.get(model_ent)
        if i is not None:
            return self._visible[i]
        mid = W.model_id(model_ent)
        return any(battle.visibility.model_visible(mid, t) for t in self.ids)

    def nearest_to(self, model_ent: int) -> float:
        """01.04 Distance from this model to the target's closest model."""
        i = self._slot.get(model_ent)
        return self._nearest[i] if i is not None else W.nearest_distance(model_ent, self.models)


def target_facts(battle, unit_ent: int, model_ent: int, weapon: WeaponProfile, target: int,
                 shooting_type: str, cache: dict | None = None) -> tuple[SH.RangedTargetFacts, float]:
    """The facts 04.02 needs for one weapon of one model at one target unit, and the distance
    to the target's closest model. ``cache`` (target -> TargetView) shares the per-target work
    across a unit's models within one plan."""
    view = None if cache is None else cache.get(target)
    if view is None:
        view = TargetView(battle, Shooters(unit_ent), target)
        if cache is not None:
            cache[target] = view
    nearest = view.nearest_to(model_ent)
    lo = view.all_lone_operatives and battle.visibility.lone_operative_beyond(W.model_id(model_ent), target)
    return _ranged_facts(shooting_type, weapon, W.is_monster_or_vehicle(model_ent),
                         view.visible_to(battle, model_ent), nearest <= weapon.range, unit_ent,
                         view, lo), nearest


def _ranged_facts(shooting_type: str, weapon: WeaponProfile, model_mv: bool, visible: bool,
                  in_range: bool, unit_ent: int, view: TargetView, lone_operative_beyond: bool):
    return SH.RangedTargetFacts(
        shooting_type=shooting_type,
        weapon_close_quarters=weapon.has("CLOSE-QUARTERS"),
        weapon_blast=weapon.has("BLAST"),
        weapon_indirect=weapon.has("INDIRECT FIRE"),
        model_monster_or_vehicle=model_mv,
        visible=visible,
        in_range=in_range,
        target_engaged=bool(view.engaged_with),
        target_engaged_with_shooter=unit_ent in view.engaged_with,
        target_monster_or_vehicle=view.monster_or_vehicle,
        lone_operative_beyond=lone_operative_beyond)


def plan_shoot(battle, cmd: Shoot, selected: bool = False) -> tuple[str, list[Declared]]:
    """04.01/04.02 for a unit selected to shoot: the shooting type and the declared attacks.
    ``selected``: the unit is already selected (the system resolving it), skip that check."""
    unit_ent = _unit(battle, cmd.unit)
    if W.unit_destroyed(unit_ent):
        raise PlanError(f"unit {cmd.unit} is destroyed")
    if W.unit_state(unit_ent).selected_to_shoot and not selected:
        raise PlanError(f"unit {cmd.unit} was already selected to shoot this phase (10.02)")
    stype = shooting_type_for(unit_ent, cmd.type)
    by_model: dict[int, list] = {}
    for s in cmd.selections:
        m = _model_in(battle, unit_ent, s.model)
        by_model.setdefault(m, []).append(s)
    declared: list[Declared] = []
    targets = _ShootPlanTargets(battle, unit_ent, stype)
    for m in W.unit_models(unit_ent):
        sels = by_model.get(m)
        if not sels:
            continue
        mid = W.model_id(m)
        weapons = [_weapon(m, mid, s.weapon, melee=False) for s in sels]
        if len(sels) > 1:  # (one selection of a weapon the model has is never too many)
            _count_check(m, mid, [s.weapon for s in sels])
        model_mv = W.is_monster_or_vehicle(m)
        problem = SH.weapon_selection_problem(
            stype, model_mv,
            [(w.name, w.has("CLOSE-QUARTERS"), w.has("ASSAULT"), w.is_melee) for w in weapons])
        if problem:
            raise PlanError(f"{mid}: {problem}")
        damaged = damaged_modifier(m)
        for s, w in zip(sels, weapons):
            if s.attacks is not None:
                raise PlanError(f"{mid}: ranged attacks cannot be split (04.03 splits melee only)")
            if s.target is None:
                declared.append(Declared(m, mid, w, None))
                continue
            t = targets.enemy(mid, s.target)
            at = targets.weapon_at(w, t)
            nearest = at.view.nearest_to(m)
            problem, hit_mods = at.legality(targets, m, model_mv, nearest)
            if problem:
                raise PlanError(f"{mid} {w.name} -> {s.target}: {problem}")
            hit_mods = hit_mods + damaged + at.heavy
            skill_mods = (("benefit of cover (13.08)", -1),) if at.cover(targets, mid) else ()
            declared.append(Declared(m, mid, w, t, None, hit_mods, skill_mods,
                                     half_range=nearest <= w.range / 2, wound_mods=at.lance,
                                     fail_below=at.fail_below, target_models=len(at.view.models)))
    return stype, declared


class _ShootPlanTargets:
    """The target side of one plan_shoot: each target unit checked and viewed once, and the
    answers that depend only on the weapon and the target (or on the facts of 04.02) worked
    out once for all the models that share them. Lives for one plan (nothing changes in it)."""

    def __init__(self, battle, unit_ent: int, stype: str):
        self.battle = battle
        self.unit_ent = unit_ent
        self.stype = stype
        self.owner = esper.component_for_entity(unit_ent, Unit).owner
        st = W.unit_state(unit_ent)
        # 24.16 [HEAVY]: the unit remained stationary (moved at most 3", Part A) and is unengaged
        self.heavy_ok = not W.unit_engaged(unit_ent) and not st.set_up_this_turn and st.moved <= 3.0
        self.shooters = Shooters(unit_ent)
        self._enemy: dict[str, int] = {}  # target unit id -> entity, once found legal
        self._views: dict = {}  # target entity -> TargetView
        self._weapon_at: dict[tuple, _WeaponAt] = {}  # (weapon profile, target entity)

    def enemy(self, mid: str, uid: str) -> int:
        """04.02 The target unit: it exists, is an enemy and is not destroyed."""
        t = self._enemy.get(uid)
        if t is None:
            t = _unit(self.battle, uid)
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

    def weapon_at(self, w: WeaponProfile, t: int) -> "_WeaponAt":
        key = (w, t)
        hit = self._weapon_at.get(key)
        if hit is None:
            hit = self._weapon_at[key] = _WeaponAt(self, w, t)
        return hit


class _WeaponAt:
    """One weapon profile at one target unit within one plan: what depends only on them (the
    [HEAVY] hit modifier 24.16, the [LANCE] wound modifier 24.21, 10.07's indirect-fire
    threshold) and the 04.02 answers for each set of per-model facts met so far."""

    __slots__ = ("weapon", "target", "view", "heavy", "lance", "fail_below", "_legality")

    def __init__(self, targets: _ShootPlanTargets, w: WeaponProfile, t: int):
        self.weapon, self.target = w, t
        self.view = targets.view(t)
        self.heavy = ()
        if targets.heavy_ok and w.has("HEAVY") and AB.has(w.abilities, "HEAVY", W.unit_keywords(t)):
            self.heavy = (("[HEAVY] (24.16)", +1),)
        self.lance = lance_modifier(w, targets.unit_ent, t)
        self.fail_below = indirect_fail_below(targets.battle, targets.unit_ent, t, targets.stype, w)
        self._legality: dict[tuple, tuple] = {}  # per-model facts -> (problem, hit modifiers)

    def cover(self, targets: _ShootPlanTargets, mid: str) -> bool:
        """13.08 Does the target have the benefit of cover against this weapon of model ``mid``."""
        return targets.battle.visibility.benefit_of_cover(mid, self.target, self.weapon, targets.stype)

    def legality(self, targets: _ShootPlanTargets, m: int, model_mv: bool, nearest: float) -> tuple:
        """04.02 for this weapon of model ``m``: (the reason the target is illegal or None, the
        10.06/17.03 hit modifiers). Models whose facts are identical share the answer."""
        view, battle = self.view, targets.battle
        visible = view.visible_to(battle, m)
        lo = view.all_lone_operatives and battle.visibility.lone_operative_beyond(W.model_id(m), self.target)
        in_range = nearest <= self.weapon.range
        key = (model_mv, visible, in_range, lo)
        hit = self._legality.get(key)
        if hit is None:
            facts = _ranged_facts(targets.stype, self.weapon, model_mv, visible, in_range,
                                  targets.unit_ent, view, lo)
            problem = SH.ranged_target_problem(facts)
            hit = self._legality[key] = (problem, None if problem else SH.ranged_hit_modifiers(facts))
        return hit


def fights_first(unit_ent: int) -> bool:
    """24.13 A Fights First unit: every model in it has Fights First; a unit that made a charge
    move this turn has it until the end of the turn (11.04)."""
    if W.unit_state(unit_ent).charged:
        return True
    models = W.unit_models(unit_ent)
    return bool(models) and all(any(a.name == "FIGHTS FIRST" for a in W.model_abilities(m))
                                for m in models)


def eligible_to_fight(unit_ent: int) -> bool:
    """12.04 Eligible to fight: engaged, or made a charge move this turn."""
    return W.unit_engaged(unit_ent) or W.unit_state(unit_ent).charged


def plan_fight(battle, cmd: Fight, selected: bool = False) -> list[Declared]:
    """12.04/12.05 + 04.01/04.02 for a unit selected to fight: exactly one melee weapon per
    model (plus its [EXTRA ATTACKS] weapons), targets engaged with that model, no more targets
    than the weapon's A, split attacks of at least 1 per target adding up to A."""
    unit_ent = _unit(battle, cmd.unit)
    if W.unit_destroyed(unit_ent):
        raise PlanError(f"unit {cmd.unit} is destroyed")
    st = W.unit_state(unit_ent)
    if st.selected_to_fight and not selected:
        raise PlanError(f"unit {cmd.unit} was already selected to fight this phase (12.04)")
    if not eligible_to_fight(unit_ent):
        raise PlanError(f"unit {cmd.unit} is not eligible to fight: not engaged and did not charge (12.04)")
    if not fights_first(unit_ent):
        waiting = [esper.component_for_entity(u, Unit).id for u in W.all_units()
                   if u != unit_ent and not W.unit_destroyed(u) and fights_first(u)
                   and eligible_to_fight(u) and not W.unit_state(u).selected_to_fight]
        if waiting:
            raise PlanError(f"Fights First units fight before the others (12.04 step 1): "
                            f"{', '.join(waiting)} must be selected to fight first")
    owner = esper.component_for_entity(unit_ent, Unit).owner
    by_model: dict[int, list] = {}
    for s in cmd.selections:
        by_model.setdefault(_model_in(battle, unit_ent, s.model), []).append(s)
    declared: list[Declared] = []
    for m in W.unit_models(unit_ent):
        sels = by_model.get(m, [])
        mid = W.model_id(m)
        per_weapon: dict[str, list] = {}
        for s in sels:
            per_weapon.setdefault(s.weapon, []).append(s)
        main = [n for n in per_weapon if not _weapon(m, mid, n, melee=True).has("EXTRA ATTACKS")]
        if len(main) > 1:
            raise PlanError(f"{mid}: selects {', '.join(main)}; a model fights with exactly one "
                            f"melee weapon (04.01) besides its [EXTRA ATTACKS] weapons")
        if per_weapon:
            extra = [w.name for w in W.weapons_of(m) if w.is_melee and w.has("EXTRA ATTACKS")]
            missing = [n for n in extra if n not in per_weapon]
            if missing:
                raise PlanError(f"{mid}: must also select its [EXTRA ATTACKS] weapons: "
                                f"{', '.join(missing)} (24.11)")
        for name, group in per_weapon.items():
            w = _weapon(m, mid, name, melee=True)
            targets = [s for s in group if s.target is not None]
            if len({s.target for s in targets}) != len(targets):
                raise PlanError(f"{mid} {name}: a target is named twice")
            if len(targets) > 1:
                if w.A.is_random:
                    raise PlanError(f"{mid} {name}: random A cannot be split before it is rolled")
                if len(targets) > w.A.k:
                    raise PlanError(f"{mid} {name}: {len(targets)} targets but only A{w.A.k} (04.02)")
                if any(s.attacks is None or s.attacks < 1 for s in targets):
                    raise PlanError(f"{mid} {name}: split attacks need at least 1 per target (04.03)")
                if sum(s.attacks for s in targets) != w.A.k:
                    raise PlanError(f"{mid} {name}: split attacks add up to "
                                    f"{sum(s.attacks for s in targets)}, expected A{w.A.k} (04.03)")
            elif targets and targets[0].attacks is not None and (
                    w.A.is_random or targets[0].attacks != w.A.k):
                raise PlanError(f"{mid} {name}: a single target takes all the weapon's attacks")
            if not targets:
                declared.append(Declared(m, mid, w, None))
            for s in targets:
                t = _unit(battle, s.target)
                if esper.component_for_entity(t, Unit).owner == owner or W.unit_destroyed(t):
                    raise PlanError(f"{mid}: {s.target} is not a living enemy unit")
                if not any(W.models_engaged(m, tm) for tm in W.unit_models(t)):
                    raise PlanError(f"{mid} {name} -> {s.target}: not engaged with this model (04.02)")
                declared.append(Declared(m, mid, w, t, s.attacks if len(targets) > 1 else None,
                                         hit_mods=damaged_modifier(m),
                                         wound_mods=lance_modifier(w, unit_ent, t),
                                         target_models=len(W.unit_models(t)),
                                         split=len(targets) > 1))
    return declared
