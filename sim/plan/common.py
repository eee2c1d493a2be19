"""Shared parts of 04.01 Select Weapons and 04.02 Select Targets: the declared attack, the
error, look-ups that refuse with a reason, and the modifiers both shooting and fighting use."""

from __future__ import annotations

from dataclasses import dataclass

import esper
import numpy as np

from sim.components import Unit
from sim.errors import PlanError
from sim.rules.abilities import Hook, tag
from sim.rules import distance_rows as DR
from sim.rules.arrays import count_true
from sim.rules import shooting as SH
from sim.rules.pools import AttackKey, applying, attack_key
from sim.rules.profiles import WeaponProfile
from sim.world import queries as W


@dataclass(frozen=True, slots=True)
class Selection:
    """04.01/04.02 One model's selected weapon and its target, as a Shoot or Fight command
    gives it. ``attacks`` splits a melee weapon's attacks between targets (04.03); None = all
    of them."""

    model: str
    weapon: str
    target: str | None
    attacks: int | None = None


@dataclass(slots=True, kw_only=True)
class Declared:
    """One selected weapon of one model and its target (None: selected, no target), and the key
    of its attacks (04.03: equal keys at one target pool together), worked out by the plan and
    again by Select Weapons for a declaration whose choices change it (declared_key)."""

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
    snap: bool = False  # 15.09 snap shooting: only an unmodified 6 hits, never critical
    abilities: tuple = ()  # the weapon's abilities (after 24.02 duplicate choices, made later)
    ignored: tuple = ()  # modifier sources a [PSYCHIC] attack ignores (24.29)
    split: bool = False  # the weapon's attacks are split between several targets (24.06)
    key: AttackKey | None = None  # None without a target
    rules: tuple = ()  # ((rule name, what it gives), ...) the rules' effects taken (sim.plan.rule_effects)

    def for_model(self, model: int, model_id: str) -> "Declared":
        """The same declaration made by another model (for_models for one)."""
        return self.for_models((model,), (model_id,))[0]

    def for_models(self, models, model_ids) -> list["Declared"]:
        """The same declaration made by each of ``models`` (with ``model_ids``), in order: a
        plan declares a run of alike models this way (a copy is several times cheaper than a
        construction by keyword, and the fields are read once for all the copies). A test
        checks that it copies every field."""
        weapon, target, attacks, hit_mods, skill_mods = (self.weapon, self.target, self.attacks,
                                                         self.hit_mods, self.skill_mods)
        half_range, target_models, wound_mods, fail_below = (self.half_range, self.target_models,
                                                             self.wound_mods, self.fail_below)
        snap = self.snap
        abilities, ignored, split, key = self.abilities, self.ignored, self.split, self.key
        rules = self.rules
        new = _new
        out = []
        for model, model_id in zip(models, model_ids):
            d = new(Declared)
            d.model = model
            d.model_id = model_id
            d.weapon = weapon
            d.target = target
            d.attacks = attacks
            d.hit_mods = hit_mods
            d.skill_mods = skill_mods
            d.half_range = half_range
            d.target_models = target_models
            d.wound_mods = wound_mods
            d.fail_below = fail_below
            d.snap = snap
            d.abilities = abilities
            d.ignored = ignored
            d.split = split
            d.key = key
            d.rules = rules
            out.append(d)
        return out


_new = object.__new__
_ONCE = tag(Hook.ONCE_PER_BATTLE)  # (as datasheets print it, for 24.26's reason)


def declared_key(d: Declared) -> AttackKey:
    """04.03 The key of a declared attack (the pure rule sim.rules.pools.attack_key), with the
    abilities that apply to its target."""
    target_abilities = applying(d.abilities, W.unit_keywords(d.target), W.has_character(d.target))
    return attack_key(d.weapon, target_abilities, d.half_range, d.skill_mods, d.hit_mods, d.wound_mods,
                      d.ignored, d.fail_below, d.snap)


def damaged_modifier(model_ent: int) -> tuple:
    """24.39 Damaged X: while the model has X or fewer wounds left, its attacks take -1 to hit."""
    for a in W.model_abilities(model_ent):
        if Hook.HIT_PENALTY_WHEN_LOW in a.spec.hooks and W.wounds_left(model_ent) <= a.value:
            return ((f"{a.spec.name.capitalize()} ({a.spec.section})", -1),)
    return ()


def plan_modifiers(weapon: WeaponProfile, roll: str, facts: dict, target: int) -> tuple:
    """The ``roll`` ("hit" or "wound") modifiers the weapon's abilities give when ``target`` is
    picked (the registry's PlanModifier: 24.16 when the unit remained stationary, 24.21 when it
    charged), given which of those ``facts`` hold for the attacking unit; 24.01: a conditional
    ability only against a unit with its keyword."""
    if Hook.PLAN_MODIFIER not in weapon.effects:
        return ()
    out = []
    for a in weapon.abilities:
        mod = a.spec.modifier
        if (mod is not None and mod.roll == roll and facts.get(mod.when)
                and a.applies_to(W.unit_keywords(target))):
            out.append((mod.source, mod.value))
    return tuple(out)


def wound_modifiers_at(weapon: WeaponProfile, unit_ent: int, target: int) -> tuple:
    """The wound modifiers a weapon's abilities give against ``target`` (24.21: after the
    attacker's unit made a charge move this turn)."""
    return plan_modifiers(weapon, "wound", {"charged": W.unit_state(unit_ent).charged}, target)


def indirect_fail_below(battle, unit_ent: int, target: int, stype: str, weapon: WeaponProfile) -> int:
    """10.07 Indirect shooting: an unmodified hit roll of 1-5 fails, or only 1-3 if the unit
    remained stationary and a friendly unit can see the target. Returns the lowest unmodified
    result that can hit (6 or 4), or 0 when the rule does not apply."""
    if stype != SH.INDIRECT or not weapon.has(Hook.INDIRECT):
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


def find_unit(battle, uid: str) -> int:
    ent = battle.units.get(uid)
    if ent is None:
        raise PlanError(f"no unit {uid!r} (units: {', '.join(sorted(battle.units))})")
    return ent


def not_there(unit_ent: int, uid: str) -> str | None:
    """01.02.04 / 05.04.04 Why a unit can neither act nor be picked as a target, naming it: it
    is not on the battlefield (in strategic reserves, 20.01, or embarked in a transport, 18.02),
    or it is destroyed; None when it has a living model on the battlefield."""
    transport = W.embarked_in(unit_ent)
    if transport is not None:
        return (f"{uid} is not on the battlefield: it is embarked in "
                f"{esper.component_for_entity(transport, Unit).id} (01.02.04)")
    if W.in_reserves(unit_ent):
        return f"{uid} is not on the battlefield: it is in strategic reserves (01.02.04)"
    if W.unit_destroyed(unit_ent):
        return f"{uid} is destroyed"
    return None


def model_in(battle, unit_ent: int, mid: str) -> int:
    ent = battle.models.get(mid)
    if ent is None or W.unit_of(ent) != unit_ent:
        raise PlanError(f"no model {mid!r} in unit {esper.component_for_entity(unit_ent, Unit).id}")
    if not W.alive(ent):
        raise PlanError(f"model {mid} is destroyed")
    return ent


def find_weapon(model_ent: int, mid: str, name: str, melee: bool, carried=None) -> WeaponProfile:
    """04.01 The model's weapon profile of that name (``carried``: what it has, when more than
    its own: 24.14 weapons lent to a transport); PlanError naming what it has otherwise."""
    carried = W.weapons_of(model_ent) if carried is None else carried
    for w in carried:
        if w.name == name:
            if w.is_melee != melee:
                kind = "melee" if w.is_melee else "ranged"
                raise PlanError(f"{mid}: {name} is a {kind} weapon")
            return w
    have = ", ".join(w.name for w in carried) or "none"
    raise PlanError(f"{mid} has no weapon {name!r} (it has: {have})")


def count_check(model_ent: int, mid: str, names: list[str], carried=None) -> None:
    have: dict[str, int] = {}
    for w in (W.weapons_of(model_ent) if carried is None else carried):
        have[w.name] = have.get(w.name, 0) + 1
    for n in sorted(set(names)):
        if names.count(n) > have.get(n, 0):
            raise PlanError(f"{mid} selects {n} {names.count(n)} times but carries {have.get(n, 0)}")


def one_shot_keys(declared, used: frozenset) -> list[str]:
    """24.26 [ONE SHOT]: each such weapon is selected to attack once per battle; two identical
    ONE SHOT weapons on one model are two weapons, each fired once (24.26.01). Returns the keys
    ("model:weapon:copy") the declared selection uses up, or raises PlanError."""
    groups: dict[tuple[str, str], list] = {}
    for d in declared:
        if d.weapon.has(Hook.ONCE_PER_BATTLE):
            groups.setdefault((d.model_id, d.weapon.name), []).append(d)
    taken: list[str] = []
    for ds in groups.values():
        d = ds[0]
        # a split melee weapon is declared once per target but is one weapon
        wanted = sum(1 for x in ds if not x.split) + (1 if any(x.split for x in ds) else 0)
        carried = sum(1 for w in W.weapons_of(d.model) if w.name == d.weapon.name)
        free = [f"{d.model_id}:{d.weapon.name}:{k}" for k in range(carried)
                if f"{d.model_id}:{d.weapon.name}:{k}" not in used]
        if wanted > len(free):
            raise PlanError(f"{d.model_id}: {d.weapon.name} is {_ONCE} and was already fired this battle (24.26)")
        taken += free[:wanted]
    return taken


def oversized_refusal(ent: int, what: str) -> None:
    """03.02.02 A unit set up this turn with an oversized model touching a battlefield edge (an
    ingress move, sim.rules.reserves) makes no normal, advance, fall-back or charge move and
    no ranged attack this turn: refuses ``what`` for it."""
    if W.unit_state(ent).oversized_set_up:
        uid = esper.component_for_entity(ent, Unit).id
        raise PlanError(f"{uid} was set up this turn touching a battlefield edge (an oversized model) and "
                        f"may not {what} this turn (03.02.02)")


# could_shoot_at's answer for a unit with an [INDIRECT FIRE] weapon: a candidate wherever it is
INDIRECT_REACH = float("inf")
# how much farther than a weapon's range the spatial index's distance may put a target before
# could_shoot_at stops looking (its distances and the visibility index's are the same
# edge-to-edge measure, and differ by rounding only, far below this)
_SLACK = 1e-6


def ranged_reach(u: int) -> float | None:
    """The longest range among the ranged weapons of the unit's living models (04.02); None
    when it has none, INDIRECT_REACH when one of them has [INDIRECT FIRE] (10.07: no line of
    sight needed). Kept per unit while the same models live (a model's weapons never change)."""
    lv = W.living(u)
    memo = lv.memo
    if "ranged reach" in memo:
        return memo["ranged reach"]
    loadouts = W.roster(u).weapons
    reach = memo["ranged reach"] = reach_of(w for i in lv.slots for w in loadouts[i])
    return reach


def reach_of(weapons) -> float | None:
    """The longest range among these weapons' ranged ones (04.02): None when there is none,
    INDIRECT_REACH when one has [INDIRECT FIRE] (10.07)."""
    ranged = [w for w in weapons if not w.is_melee]
    if not ranged:
        return None
    if any(w.has(Hook.INDIRECT) for w in ranged):
        return INDIRECT_REACH
    return max(w.range for w in ranged)


def could_shoot_at(battle, u: int, target: int, within: float | None = None) -> bool:
    """A necessary condition for any Shoot of ``u`` at ``target`` to be legal (04.02: the
    target visible to one of its models, and within a ranged weapon's range of it; a unit
    with an [INDIRECT FIRE] weapon is always a candidate): lets a player, or Fire Overwatch's
    offer (15.08), skip targets no plan could accept without planning them. ``within``: a
    distance the shooting type also limits the target to (snap shooting's 24", 15.09). Never
    the rule itself: Battle.check still decides."""
    return bool(could_shoot(battle, u, (target,), within))


def _within_reach(u: int, targets, within: float | None) -> tuple[float | None, list[int]]:
    """could_shoot's first step: the unit's reach (``ranged_reach``, no more than ``within``)
    and those of ``targets`` whose closest model may be within it of the closest of the unit's
    models (the spatial index's distances, kept per layout: no line of sight read; a value
    above distance_rows.FAR may be a far pair's bound, at most the distance, so a target
    beyond a reach above FAR may stand among them: could_shoot's own test is exact); every
    target for a unit with an [INDIRECT FIRE] weapon, none for one without a ranged weapon or
    model on the battlefield."""
    reach = ranged_reach(u)
    if reach is None:
        return None, []
    if reach == INDIRECT_REACH:
        return reach, list(targets)
    if within is not None:
        reach = min(reach, within)
    if not targets or not W.index_size(W.living(u).index):
        return reach, []
    limit = reach + 1e-6 + _SLACK
    # (each unit's distance to the closest of ours, kept per layout; while none is kept, the
    # units whose models' boxes come within reach of ours first (the others are out of it),
    # and a few of them asked alone)
    if not W.unit_nearest_is_kept(u):
        if len(targets) > 2:
            targets = W.units_near(u, targets, limit)
        if len(targets) <= 2:
            return reach, [t for t in targets if W.unit_within(u, t, limit)]
    bound = W.unit_nearest_kept(u).bound
    return reach, [t for t in targets if bound(t, limit + 1.0) <= limit]


def could_shoot_candidates(u: int, targets, within: float | None = None) -> list[int]:
    """Those of ``targets`` that ``could_shoot`` may accept (its first step, ``_within_reach``:
    a target out of every reach by the distance matrix's values, exact or bounds, is never
    one), in order: a player drawing one pair at a time asks this once per unit and
    could_shoot only of these."""
    return _within_reach(u, targets, within)[1]


def could_shoot(battle, u: int, targets, within: float | None = None) -> list[int]:
    """``could_shoot_at`` for each of ``targets``: those it accepts, in order: some model of the
    unit sees a model of the target and has one (the same or another) within reach (04.02: the
    target unit visible to the model, and within range). Distances first (the spatial index's,
    always current, from the unit's models to every model at once): a target out of reach of
    every model needs no line of sight."""
    reach, near_targets = _within_reach(u, targets, within)
    if reach == INDIRECT_REACH:
        return near_targets
    rows = W.living(u).index
    out = []
    for t in near_targets:
        cols = W.living(t).index
        idx = battle.visibility.index
        if reach + 1e-6 > DR.FAR:    # (far pairs' bounds stand above FAR: measured first)
            idx.exact(W.index_rows(rows), W.index_rows(cols), reach + 1e-6)
        near = W.block(idx.dist, rows, cols) <= reach + 1e-6
        # (line of sight resolved first for the pairs within reach: a model that sees a model
        # in reach is enough, and is the common case)
        if count_true(idx.visible_block(rows, cols, near) & near):
            out.append(t)
            continue
        # (04.02 asks the unit visible to the model and the unit within range: one of its
        # models may be seen and another in range; asked only of the models with one in reach)
        reaching = near.any(axis=1)
        if count_true(reaching):
            rest = reaching[:, None] & ~near
            if count_true(idx.visible_block(rows, cols, rest) & rest):
                out.append(t)
    return out


def could_shoot_all(battle, units, targets, within: float | None = None) -> dict[int, list[int]]:
    """``could_shoot`` of each of ``units`` at ``targets`` (unit -> the targets it accepts, in
    order), the same answers read in one block: each model's distances to every target model
    (a model of a unit within its reach of a model of a target "reaches" that target), then the
    line of sight of each reaching model to every model of the targets it reaches, resolved in
    one call (04.02: a model that sees a model of the target, and has one within reach, the
    same or another). A unit whose reach is read another way ([INDIRECT FIRE], a reach above
    distance_rows.FAR, no model or no ranged weapon) is asked of could_shoot itself. Fire
    Overwatch's offer (15.08) asks this of every unit of a side at once."""
    out: dict[int, list[int]] = {}
    block_units, rows, reach_of_row, row_starts = [], [], [], []
    start = 0
    for u in units:
        reach = ranged_reach(u)
        if reach is not None and reach != INDIRECT_REACH and within is not None:
            reach = min(reach, within)
        mine = W.living(u).index
        if reach is None or reach == INDIRECT_REACH or reach + 1e-6 > DR.FAR or not W.index_size(mine):
            out[u] = could_shoot(battle, u, targets, within)
            continue
        r = W.index_rows(mine)
        block_units.append(u)
        row_starts.append(start)
        start += len(r)
        rows.append(r)
        reach_of_row.append(np.full(len(r), reach + 1e-6))
    if not block_units:
        return out
    alive = [t for t in targets if W.index_size(W.living(t).index)]
    if not alive:
        out.update((u, []) for u in block_units)
        return out
    cols = [W.index_rows(W.living(t).index) for t in alive]
    col_starts = np.cumsum([0] + [len(c) for c in cols[:-1]])
    R, C = np.concatenate(rows), np.concatenate(cols)
    idx = battle.visibility.index
    near = idx.dist[R[:, None], C] <= np.concatenate(reach_of_row)[:, None]
    ok = np.logical_or.reduceat(near, col_starts, axis=1)              # (model, target): reaches it
    if count_true(ok):    # (else no model reaches any target: no sight to read)
        need = ok[:, np.repeat(np.arange(len(alive)), [len(c) for c in cols])]
        seen = idx.visible_block(R, C, need) & need
        ok &= np.logical_or.reduceat(seen, col_starts, axis=1)          # ... and sees a model of it
    ok = np.logical_or.reduceat(ok, np.asarray(row_starts), axis=0)    # (unit, target)
    for k, u in enumerate(block_units):
        out[u] = [t for t, yes in zip(alive, ok[k].tolist()) if yes]
    return out
