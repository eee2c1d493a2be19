"""04.02 Select Targets for a unit selected to shoot, worked out once per plan: the shooting
models (Shooters, kept with the unit's living models), each target unit as they see it
(TargetView: visibility 06.01 and distance 01.04 read as numpy blocks), and each weapon at each
target (WeaponAt: 04.02's answer per model, half range, benefit of cover 13.08, [HEAVY] 24.16,
[LANCE] 24.21, indirect fire 10.07). sim.plan.shoot plans the attacks from them."""

from __future__ import annotations

import functools
from typing import Mapping

import esper
import numpy as np

from sim.world import queries as W
from sim.components import Unit
from sim.errors import PlanError
from sim.plan.common import (Declared, count_check, damaged_modifier, find_unit, find_weapon,
                             indirect_fail_below, not_there, plan_modifiers, wound_modifiers_at)
from sim.rules.abilities import Hook
from sim.rules import distance_rows as DR
from sim.rules import multi_profile as MP
from sim.rules import shooting as SH
from sim.rules.pools import applying, attack_key
from sim.rules.profiles import WeaponProfile
from sim.rules.visibility.index import rows_seen_nearest

_COVER = (("benefit of cover (13.08)", -1),)

# (WeaponAt.declare builds a Declared by keyword with the dataclass's own __init__, called on a
# new instance: a call of the class hands the keywords on to __init__ in a dict, twice the cost)
_new = object.__new__
_init_declared = Declared.__init__

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

    __slots__ = ("models", "ids", "index", "mv", "weapons", "loadout_of", "damaged", "slot", "loadouts",
                 "kit", "_types")

    def __init__(self, unit_ent: int, lent: tuple = ()):
        lv = W.living(unit_ent)
        r = W.roster(unit_ent)
        self.models, self.ids, self.index = lv.models, lv.ids, lv.index
        self.mv = [r.monster_or_vehicle[i] for i in lv.slots]
        self.weapons = [r.weapons[i] for i in lv.slots]
        if lent:  # 24.14 the transport's first model has the weapons embarked models lend it, too
            self.weapons[0] = self.weapons[0] + tuple(lent)
        # each model's loadout as a number, equal for models carrying equal profiles
        kinds: dict[tuple, int] = {}
        self.loadout_of = [kinds.setdefault(w, len(kinds)) for w in self.weapons]
        self.damaged = [r.damaged[i] is not None for i in lv.slots]  # has a hit penalty when low (24.39)
        self.slot = {m: i for i, m in enumerate(self.models)}
        # legal selections met so far: (loadout number, names selected, MONSTER/VEHICLE,
        # shooting type) -> the profiles (see ShootPlanTargets.loadout)
        self.loadouts: dict[tuple, list] = {}
        # the ShooterFacts that depend only on which models live (its last four fields)
        abilities = W.unit_ranged_weapon_effects(unit_ent)
        if lent:
            abilities = abilities.union(*(w.effects for w in lent))
        self.kit = (Hook.SHOOTS_AFTER_ADVANCING in abilities, Hook.CLOSE_QUARTERS in abilities,
                    W.unit_is_monster_or_vehicle(unit_ent), Hook.INDIRECT in abilities)
        self._types: dict[tuple, tuple] = {}  # (the four other fields) -> types()

    def facts(self, engaged: bool, st, rules=None) -> SH.ShooterFacts:
        """10.02 The unit's ShooterFacts, given whether it is engaged and its UnitState (and what
        the rules give it: sim.plan.rule_effects.ShooterRules, None: nothing)."""
        if rules is None:
            return SH.ShooterFacts(engaged, st.advanced, st.fell_back, *self.kit, st.snap_shooting)
        kit = (self.kit[0] or rules.assault,) + self.kit[1:]  # ([ASSAULT] conferred, 24.04)
        return SH.ShooterFacts(engaged, st.advanced, st.fell_back, *kit, st.snap_shooting,
                               rules.advance_lifted, rules.fall_back_lifted)

    def types(self, engaged: bool, st, rules=None) -> tuple[Mapping, str | None]:
        """10.02 step 2 The unit's eligibility for each shooting type (10.04-10.07) and its
        default type (None: it qualifies for none), given whether it is engaged and its
        UnitState (and ``rules``: sim.plan.rule_effects.ShooterRules, what the rules give it);
        kept for each of the few combinations of the facts that change."""
        key = (engaged, st.advanced, st.fell_back, st.snap_shooting)
        if rules is not None and not any(rules[:3]):
            rules = None  # (rules that give nothing: the facts of a battle without them)
        if rules is not None:
            key = key + (rules.advance_lifted, rules.fall_back_lifted, rules.assault)
        hit = self._types.get(key)
        if hit is None:
            elig = SH.shooting_type_eligibility(self.facts(engaged, st, rules))
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
        self.all_lone_operatives = bool(slots) and ((any(lone) and all(lone[i] for i in slots))
                                                    or (battle.visibility.rules
                                                        and battle.visibility.target_limited(target)))
        self._slot = shooters.slot
        # per shooting model, in the order of ``shooters.models``: the block of the visibility
        # matrix BattleVisibility.model_visible reads, and of the distance index
        rows, cols = shooters.index, self.cols
        if type(rows) is slice and type(cols) is slice and rows.step is None and cols.step is None:
            # (the usual read: both units' models consecutive rows; the block's sight resolved,
            # each row's answers read off the two matrices in one call)
            got = rows_seen_nearest(battle.visibility.index.visible_resolved(rows, cols),
                                    W.spatial().dist, rows.start, rows.stop, cols.start, cols.stop)
            self.visible, self.nearest = got[0].tolist(), got[1].tolist()
            if self.nearest and max(self.nearest) > DR.FAR:  # (far pairs' bounds: measured)
                self.nearest = W.exact_mins(rows, cols, W.block(W.spatial().dist, rows, cols))
            return
        visible = battle.visibility.index.visible_block(rows, cols)
        dist = W.block(W.spatial().dist, rows, cols)
        if len(shooters.models) == 1:  # (one row: read as a list faster than numpy reduces it)
            self.visible = [True in visible[0].tolist()]
            self.nearest = [min(dist[0].tolist())]
            if self.nearest[0] > DR.FAR:   # (a far pair's bound: measured, W.exact_mins)
                self.nearest = W.exact_mins(rows, self.cols, dist)
            return
        # (counted first, a third of the cost of a reduction per row: the usual answer is that
        # every model sees every model of the target, or none does)
        seen = W.count_true(visible)
        if seen == 0:
            self.visible = [False] * len(shooters.models)
        elif seen == visible.size:
            self.visible = [True] * len(shooters.models)
        else:
            self.visible = _any_per_row(visible).tolist()
        self.nearest = _min_per_row(dist).tolist()
        if max(self.nearest) > DR.FAR:     # (far pairs' bounds: measured, W.exact_mins)
            self.nearest = W.exact_mins(rows, self.cols, dist)

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
    effects = weapon.effects
    # (RangedTargetFacts' fields in order: shooting type, the weapon's close-quarters, not at
    # an engaged target and indirect hooks, the model's MONSTER/VEHICLE, visible, in range, the
    # target engaged, engaged with the shooting unit, MONSTER/VEHICLE, Lone Operative beyond)
    return SH.RangedTargetFacts(
        shooting_type, Hook.CLOSE_QUARTERS in effects, Hook.NOT_AT_ENGAGED in effects,
        Hook.INDIRECT in effects,
        model_mv, visible, in_range, bool(view.engaged_with), unit_ent in view.engaged_with,
        view.monster_or_vehicle, lone_operative_beyond)


class ShootPlanTargets:
    """The target side of one plan_shoot: each target unit checked and viewed once, and the
    answers that depend only on the weapon and the target (or on the facts of 04.02) worked
    out once for all the models that share them. Lives for one plan (nothing changes in it)."""

    def __init__(self, battle, unit_ent: int, stype: str, shooters: Shooters, stationary: bool):
        self.battle = battle
        self.unit_ent = unit_ent
        self.stype = stype
        self.owner = esper.component_for_entity(unit_ent, Unit).owner
        self.stationary = stationary  # 24.16 the unit remained stationary and is unengaged
        self.shooters = shooters
        self._enemy: dict[str, int] = {}  # target unit id -> entity, once found legal
        self.views: dict = {}  # target entity -> TargetView (made by the first WeaponAt at it)
        # (the id of a weapon profile, target entity) -> its WeaponAt (the profiles outlive the plan)
        self._weapon_at: dict[tuple, WeaponAt] = {}
        self.weapons: dict[int, WeaponProfile] = {}  # the profiles selected: id -> profile, in order
        self.assault_conferred = False  # (a rule confers [ASSAULT] on its ranged weapons, 24.04)
        self.rules = None  # (sim.plan.rule_effects.ShooterRules giving something, else None)

    def loadout(self, i: int, sels) -> list[WeaponProfile]:
        """04.01 + 24.07 The weapon profiles the ``i``-th shooting model selects (``sels``, in
        order), checked: it carries each of them (as many times as selected) and the selection
        is legal for the shooting type. Models with equal loadouts that select the same names
        share the answer; a problem raises PlanError for the model."""
        sh = self.shooters
        names = sels[0].weapon if len(sels) == 1 else tuple(s.weapon for s in sels)
        key = (sh.loadout_of[i], names, sh.mv[i], self.stype, self.assault_conferred)
        weapons = sh.loadouts.get(key)
        if weapons is None:
            m, mid = sh.models[i], sh.ids[i]
            names = tuple(s.weapon for s in sels)
            carried = sh.weapons[i]  # (its own; and those lent to it, 24.14)
            weapons = [find_weapon(m, mid, n, melee=False, carried=carried) for n in names]
            if len(names) > 1:  # (one selection of a weapon the model has is never too many)
                count_check(m, mid, list(names), carried)
                problem = MP.profile_choice_problem(carried, names)
                if problem:
                    raise PlanError(f"{mid}: {problem}")
            facts = [SH.weapon_facts(w) for w in weapons]
            if self.assault_conferred:  # (every ranged weapon of the unit fires as an [ASSAULT] one)
                facts = [(n, cq, True, melee) for n, cq, _a, melee in facts]
            problem = SH.weapon_selection_problem(self.stype, sh.mv[i], facts)
            if problem:
                raise PlanError(f"{mid}: {problem}")
            sh.loadouts[key] = weapons
        return weapons

    def aim(self, i: int, sels) -> list[tuple]:
        """What the ``i``-th shooting model's selections ``sels`` declare with: for each, its
        weapon profile (checked, ``loadout``) and its WeaponAt at the target (04.02), or None
        when it names no target (selected, no attacks)."""
        sh = self.shooters
        mid = sh.ids[i]
        # (the answer of ``loadout`` kept on the Shooters, read here first: a plan's usual
        # selections were met and checked by an earlier plan)
        weapons = (sh.loadouts.get((sh.loadout_of[i], sels[0].weapon, sh.mv[i], self.stype,
                                    self.assault_conferred))
                   if len(sels) == 1 else None)
        if weapons is None:
            weapons = self.loadout(i, sels)
        out = []
        for s, w in zip(sels, weapons):
            if s.attacks is not None:
                raise PlanError(f"{mid}: ranged attacks cannot be split (04.03 splits melee only)")
            if s.target is None:
                self.weapons[id(w)] = w
                out.append((w, None))
            else:
                out.append((w, self.weapon_at(w, self.enemy(mid, s.target))))
        return out

    def named(self) -> dict[str, int]:
        """The target units the selections name so far: unit id -> entity."""
        return self._enemy

    def enemy(self, mid: str, uid: str) -> int:
        """04.02 The target unit: it exists, is an enemy and is not destroyed."""
        t = self._enemy.get(uid)
        if t is None:
            t = find_unit(self.battle, uid)
            if esper.component_for_entity(t, Unit).owner == self.owner:
                raise PlanError(f"{mid}: {uid} is not an enemy unit (04.02)")
            gone = not_there(t, uid)
            if gone:
                raise PlanError(f"{mid}: {gone}")
            self._enemy[uid] = t
        return t

    def weapon_at(self, w: WeaponProfile, t: int) -> "WeaponAt":
        key = (id(w), t)
        hit = self._weapon_at.get(key)
        if hit is None:
            hit = self._weapon_at[key] = WeaponAt(self, w, t)
            self.weapons[id(w)] = w
        return hit


class WeaponAt:
    """One weapon profile at one target unit within one plan: what depends only on them (the
    modifiers its abilities give when the target is picked: 24.16 hit, 24.21 wound; 10.07's
    indirect-fire threshold; the abilities that apply to the target) and, for every model of
    the shooting unit at once (in the order of ``targets.shooters``), the 04.02 answer
    (``problems``: each model's reason the target is illegal, or None), half range and benefit
    of cover (13.08), the cover read only when a model first declares with it (a plan refused
    for a selection reads none). ``declare`` makes a model's declared attack with it."""

    __slots__ = ("weapon", "target", "view", "hit_bonus", "wound_bonus", "fail_below", "snap",
                 "target_models", "per_model", "alike", "applying", "_declared", "_shooters", "_damaged",
                 "_last", "problems", "refused", "_answers", "_cover_of")

    def __init__(self, targets: ShootPlanTargets, w: WeaponProfile, t: int):
        self.weapon, self.target = w, t
        view = targets.views.get(t)  # (the target as these shooters see it, shared by the weapons)
        if view is None:
            view = targets.views[t] = TargetView(targets.battle, targets.shooters, t)
        self.view = view
        self.target_models = view.count
        self.applying = applying(w.abilities, W.unit_keywords(t), W.has_character(t)) if w.abilities else ()
        # the declaration made last, with its model's 04.02 answer and 24.39 modifier: (answer,
        # modifier, declaration), None before the first; the ones made before it, once there
        # are several: (answer, modifier) -> the first such model's declaration (None until then)
        self._last: tuple | None = None
        self._declared: dict[tuple, Declared] | None = None
        self._shooters = targets.shooters
        self._damaged = targets.shooters.damaged
        # 15.09 snap shooting ignores the BS and every modifier to it and to the hit roll (cover,
        # 24.39, 24.16 ...): they are not worked out, so snap attacks pool by what is left
        self.snap = targets.stype == SH.SNAP
        if self.snap:
            self._damaged = [False] * len(self._damaged)
        effects = w.effects  # (the rules below first ask for their hook: skip those it lacks)
        self.hit_bonus = self.wound_bonus = ()
        if Hook.PLAN_MODIFIER in effects:
            if not self.snap:
                self.hit_bonus = plan_modifiers(w, "hit", {"stationary": targets.stationary}, t)
            self.wound_bonus = wound_modifiers_at(w, targets.unit_ent, t)
        self.fail_below = (indirect_fail_below(targets.battle, targets.unit_ent, t, targets.stype, w)
                           if Hook.INDIRECT in effects else 0)
        half, rng = w.range / 2, w.range
        shooters = targets.shooters
        if view.all_lone_operatives:
            lone = targets.battle.visibility.lone_operative_beyond_rows(shooters.index, t)
        else:
            lone = [False] * len(shooters.ids)
        # 04.02 per shooting model, without cover: (the reason the target is illegal or None,
        # hit modifiers from 04.02's rules, within half range). Models whose facts are identical
        # share the answer; usually every model's are (checked on the lists at once): then one
        # answer for all (``_answers`` that tuple, else one per model)
        n = len(shooters.ids)
        mvs, visible, nearest = shooters.mv, view.visible, view.nearest
        near, far = min(nearest), max(nearest)
        if (mvs.count(mvs[0]) == n and visible.count(visible[0]) == n and lone.count(lone[0]) == n
                and (near <= rng) == (far <= rng) and (near <= half) == (far <= half)):
            facts = _ranged_facts(targets.stype, w, mvs[0], visible[0], far <= rng,
                                  targets.unit_ent, view, lone[0])
            problem, hit_mods = SH.ranged_target_answer(facts)
            self._answers = (problem, hit_mods, far <= half)
            self.problems = [problem] * n
            self.refused = problem is not None
        else:
            answers: dict[tuple, tuple] = {}
            per_model = []
            for model_mv, visible, d, lo in zip(shooters.mv, view.visible, view.nearest, lone):
                key = (model_mv, visible, d <= rng, lo)
                hit = answers.get(key)
                if hit is None:
                    facts = _ranged_facts(targets.stype, w, model_mv, visible, key[2],
                                          targets.unit_ent, view, lo)
                    hit = answers[key] = SH.ranged_target_answer(facts)
                per_model.append((hit[0], hit[1], d <= half))
            self._answers = per_model
            self.problems = [a[0] for a in per_model]
            self.refused = any(self.problems)
        # (13.08 per shooting model, read for all of them at once when first declared: _settle)
        self._cover_of = (targets.battle, targets.stype)
        self.per_model = self.alike = None

    def refusal(self, i: int, mid: str) -> str | None:
        """04.02 Why the ``i``-th shooting model (``mid``) cannot declare its attacks with this
        weapon at this target (the PlanError's words), or None."""
        problem = self.problems[i]
        if not problem:
            return None
        return f"{mid} {self.weapon.name} -> {esper.component_for_entity(self.target, Unit).id}: {problem}"

    def _settle(self) -> None:
        """``per_model``: each shooting model's 04.02 answer with its benefit of cover (13.08:
        read for every shooting model at once) as (problem, hit modifiers, skill modifiers,
        within half range); ``alike`` the one answer every model shares, else None."""
        sh = self._shooters
        n = len(sh.ids)
        battle, stype = self._cover_of
        cover = ([False] * n if self.snap else
                 battle.visibility.benefit_of_cover_rows(sh.index, self.target, self.weapon, stype))
        answers = self._answers
        if isinstance(answers, tuple):
            if cover.count(cover[0]) == n:
                self.alike = (answers[0], answers[1], _COVER if cover[0] else (), answers[2])
                self.per_model = [self.alike] * n
                return
            answers = [answers] * n
        self.per_model = [(a[0], a[1], _COVER if c else (), a[2]) for a, c in zip(answers, cover)]

    def declare_run(self, run) -> list[Declared]:
        """``declare`` for the shooting models at the slots ``run`` (a list or a range), in
        order."""
        models, ids = self._shooters.models, self._shooters.ids
        i = run[0]
        first = self.declare(i, models[i], ids[i])
        if len(run) == 1:
            return [first]
        out = [first]
        if self.alike is not None and True not in self._damaged:  # (every model's answer is the first's)
            if run[-1] - i == len(run) - 1:  # (consecutive slots: the usual run)
                out += first.for_models(models[i + 1:run[-1] + 1], ids[i + 1:run[-1] + 1])
            else:
                rest = run[1:]
                out += first.for_models([models[j] for j in rest], [ids[j] for j in rest])
            return out
        for i in run[1:]:
            out.append(self.declare(i, models[i], ids[i]))
        return out

    def declare(self, i: int, m: int, mid: str) -> Declared:
        """04.02 The ``i``-th shooting model (``m``, ``mid``) declares its attacks with this
        weapon at this target: PlanError if the target is illegal for it; otherwise its
        modifiers (04.02's, the weapon's bonus, 24.39 for a model low on wounds, 13.08 cover)
        and its attack key (04.03). Worked out once per distinct answer; the models sharing
        an answer get copies of one declaration (Declared.for_model)."""
        if self.per_model is None:
            problem = self.refusal(i, mid)
            if problem:
                raise PlanError(problem)
            self._settle()
        answer = self.per_model[i]
        damaged = damaged_modifier(m) if self._damaged[i] else ()
        last = self._last
        if last is not None:
            if answer is last[0] and damaged == last[1]:  # (models share answers: alike)
                return last[2].for_model(m, mid)
            # (another answer: the last declaration joins the earlier ones, looked up by value;
            # a run of alike models never gets here, nor builds the dict)
            earlier = self._declared
            if earlier is None:
                earlier = self._declared = {}
            earlier[last[0], last[1]] = last[2]
            proto = earlier.get((answer, damaged))
            if proto is not None:
                self._last = (answer, damaged, proto)
                return proto.for_model(m, mid)
        problem, hit_mods, skill_mods, half = answer
        if problem:
            raise PlanError(self.refusal(i, mid))
        hit_mods = hit_mods + damaged + self.hit_bonus
        w = self.weapon
        key = attack_key(w, self.applying, half, skill_mods, hit_mods, self.wound_bonus, (), self.fail_below,
                         self.snap)
        proto = _new(Declared)  # (Declared(...), by keyword: see _init_declared)
        _init_declared(
            proto, model=m, model_id=mid, weapon=w, target=self.target, hit_mods=hit_mods, skill_mods=skill_mods,
            half_range=half, target_models=self.target_models, wound_mods=self.wound_bonus,
            fail_below=self.fail_below, snap=self.snap, abilities=w.abilities, key=key)
        self._last = (answer, damaged, proto)
        return proto
