"""04.01/04.02 for a unit selected to shoot (10.02): its shooting type (10.04-10.07), each
model's ranged weapons (24.07), and each weapon's target with its modifiers (04.02, 10.06,
13.08, 17.03, 24.16, 24.21, 10.07). The target side, worked out once per plan for all the
models that share it, is sim.plan.shoot_targets."""

from __future__ import annotations

import operator
from typing import Mapping, NamedTuple

from sim.world import queries as W
from sim.errors import PlanError
from sim.plan.scenario_modifiers import add_scenario_modifiers
from sim.plan.rule_effects import NO_SHOOTER_RULES, add_rule_effects, shooter_rules, target_refusal
from sim.plan.common import Declared, find_unit, model_in, not_there
from sim.plan.common import oversized_refusal
from sim.plan.shoot_targets import Shooters, ShootPlanTargets, shooters_of
from sim.plan.transport import firing_deck_weapons
from sim.rules import shooting as SH
from sim.rules.profiles import WeaponProfile


def shooting_facts(unit_ent: int, battle=None) -> SH.ShooterFacts:
    """10.02 The unit's ShooterFacts now (``battle`` given: with what the rules give it)."""
    rules = None if battle is None or not battle.resources.has_rules else shooter_rules(battle, unit_ent)
    return shooters_of(unit_ent).facts(W.unit_engaged(unit_ent), W.unit_state(unit_ent),
                                       rules if rules is not NO_SHOOTER_RULES else None)


def shooting_type_for(unit_ent: int, requested: str | None) -> str:
    """10.02 step 2: the requested type if the unit qualifies, else the default; PlanError
    with the reason otherwise."""
    return shooting_type_choice(unit_ent, requested)[0]


def shooting_type_choice(unit_ent: int, requested: str | None, battle=None) -> tuple[str, Mapping]:
    """shooting_type_for, and the unit's eligibility for each type (10.04-10.07); ``battle`` given,
    with what the rules give the unit (sim.plan.rule_effects.shooter_rules, as plan_shoot reads)."""
    rules = None if battle is None or not battle.resources.has_rules else shooter_rules(battle, unit_ent)
    elig, default = shooters_of(unit_ent).types(W.unit_engaged(unit_ent), W.unit_state(unit_ent), rules)
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
        if requested in SH.GRANTED_TYPES:
            raise PlanError(f"cannot use {requested} shooting: {SH.not_granted(requested)}")
        raise PlanError(f"unknown shooting type {requested!r} (expected one of {', '.join(elig)})")
    if elig[requested] is not None:
        raise PlanError(f"cannot use {requested} shooting: {elig[requested]}")
    return requested


_MODEL = operator.attrgetter("model")
_AIM = operator.attrgetter("weapon", "target", "attacks")


class ShootPlan(NamedTuple):
    shooting_type: str
    declared: list[Declared]
    eligibility: Mapping[str, str | None]  # 10.04-10.07 per type: None, or why not
    weapons: list[WeaponProfile]  # the distinct profiles declared, in order of first use


def plan_shoot(battle, cmd, selected: bool = False) -> ShootPlan:
    """04.01/04.02 for a unit selected to shoot: the shooting type and the declared attacks,
    each with its attack key (04.03). ``selected``: the unit is already selected (the system
    resolving it), skip that check.

    Selections are checked model by model in unit order (so the first problem reported is
    always the same one); what depends only on a model's loadout, or on the weapon profile and
    the target, is worked out once per plan for the models that share it (ShootPlanTargets:
    loadout, WeaponAt)."""
    unit_ent = find_unit(battle, cmd.unit)
    lv = W.living(unit_ent)
    if not lv.slots:
        raise PlanError(f"unit {not_there(unit_ent, cmd.unit)}")
    st = W.unit_state(unit_ent)
    if st.selected_to_shoot and not selected:
        raise PlanError(f"unit {cmd.unit} was already selected to shoot this phase (10.02)")
    if st.transport_fired and not selected:
        raise PlanError(f"{cmd.unit} was embarked in a transport whose embarked models shot from it this turn: "
                        f"it is not eligible to shoot this turn (24.14)")
    if st.oversized_set_up:
        oversized_refusal(unit_ent, "make ranged attacks")
    # 24.14 weapons embarked models lend the transport: a Shooters of its own for this plan
    shooters = (Shooters(unit_ent, firing_deck_weapons(battle, unit_ent, cmd.firing_deck)) if cmd.firing_deck
                else shooters_of(unit_ent, lv))
    engaged = W.unit_engaged(unit_ent)
    rules = shooter_rules(battle, unit_ent) if battle.resources.has_rules else NO_SHOOTER_RULES
    elig, default = shooters.types(engaged, st, None if rules is NO_SHOOTER_RULES else rules)
    # (the usual command requests no type and the unit qualifies for one: the default, inline)
    stype = default if cmd.type is None and default is not None else _chosen_type(elig, default, cmd.type)
    stationary = SH.heavy_stationary(engaged, st.set_up_this_turn, st.moved)  # 24.16 [HEAVY]
    targets = ShootPlanTargets(battle, unit_ent, stype, shooters, stationary)
    if rules is not NO_SHOOTER_RULES:
        targets.assault_conferred = rules.assault
        targets.rules = rules
    declared: list[Declared] = []
    ids, kinds, mvs = shooters.ids, shooters.loadout_of, shooters.mv
    sels = cmd.selections
    n = len(ids)
    if len(sels) == n and list(map(_MODEL, sels)) == ids:
        # (the usual command, grouped at C speed: one selection per living model, in unit order,
        # the same one for all of them with equal loadouts: the whole unit is one run)
        shapes = list(map(_AIM, sels))
        if shapes.count(shapes[0]) == n and kinds.count(kinds[0]) == n and mvs.count(mvs[0]) == n:
            aim = targets.aim(0, sels[:1])
            _refuse_run(targets, aim, range(n))
            _declare_run(targets, aim, range(n), declared)
            return _plan(targets, declared, elig)
    # each living model's selections, in command order (None: it selects nothing)
    slot, models, shooting = shooters.slot, battle.models, shooters.models
    by_slot: list = [None] * len(shooting)
    for s in cmd.selections:
        i = slot.get(models.get(s.model))
        if i is None:  # (model_in gives the reason)
            i = slot[model_in(battle, unit_ent, s.model)]
        sels = by_slot[i]
        if sels is None:
            by_slot[i] = [s]
        else:
            sels.append(s)
    # what each selection shape met so far declares with: (loadout, MONSTER/VEHICLE, each
    # selection's weapon, target and attacks) -> [(profile, WeaponAt or None: no target)]
    aims: dict[tuple, list] = {}
    runs: list[tuple[list, list[int]]] = []  # (what a run declares with, its slots), checked
    run: list[int] = []  # consecutive models (slots) with one shape, declared together
    shape = None
    for i, sels in enumerate(by_slot):
        if sels is None:
            continue
        if len(sels) == 1:
            s = sels[0]
            this = (kinds[i], mvs[i], s.weapon, s.target, s.attacks)
        else:
            this = (kinds[i], mvs[i], *[(s.weapon, s.target, s.attacks) for s in sels])
        if this != shape and run:
            runs.append(_checked_run(targets, _aim(targets, aims, shape, run[0], by_slot), run))
            run = []
        shape = this
        run.append(i)
    if run:
        runs.append(_checked_run(targets, _aim(targets, aims, shape, run[0], by_slot), run))
    for aim, run in runs:
        _declare_run(targets, aim, run, declared)
    return _plan(targets, declared, elig)


def _plan(targets: ShootPlanTargets, declared: list[Declared], elig: Mapping) -> ShootPlan:
    """The plan, once every selection is declared: 15.09's checks on the whole unit's targets
    under snap shooting (one enemy unit, visible to the unit, within 24" of it), then the
    scenario's modifiers (02.02.01) and the rules' effects (sim.plan.rule_effects)."""
    if targets.stype == SH.SNAP:
        ids = sorted(targets.named())
        gap, seen = None, False
        if len(ids) == 1:
            view = targets.views.get(targets.named()[ids[0]])
            if view is not None:
                gap, seen = min(view.nearest), True in view.visible
        problem = SH.snap_target_problem(ids, gap, seen)
        if problem:
            raise PlanError(problem)
    rules = targets.rules  # (the permission's conditions on each target)
    if rules is not None and rules.permits:
        for tid, ent in sorted(targets.named().items()):
            problem = target_refusal(targets.battle, targets.unit_ent, rules, targets.stype, ent)
            if problem:
                raise PlanError(problem)
    declared = add_scenario_modifiers(targets.unit_ent, declared)
    if targets.battle.resources.has_rules:
        declared = add_rule_effects(targets.battle, targets.unit_ent, declared)
    return ShootPlan(targets.stype, declared, elig, list(targets.weapons.values()))


def _aim(targets: ShootPlanTargets, aims: dict, shape: tuple, i: int, by_slot: list) -> list:
    """What the selections of the ``i``-th model, of the selection shape ``shape``, declare with
    (ShootPlanTargets.aim): looked up once per shape met (``aims``)."""
    aim = aims.get(shape)
    if aim is None:
        aim = aims[shape] = targets.aim(i, by_slot[i])
    return aim


def _refuse_run(targets: ShootPlanTargets, aim: list, run) -> None:
    """04.02 PlanError for the first selection of a run of models (slots ``run``, each
    making the selections ``aim`` describes: ShootPlanTargets.aim) whose target is illegal for
    its model, in declaration order (each model in unit order, its selections in the order
    given): every run is checked before any is declared, so a refused plan reads no benefit
    of cover (WeaponAt reads it when a model first declares)."""
    if not any(at is not None and at.refused for _w, at in aim):
        return  # (the usual case: no model of the unit is refused any of these)
    ids = targets.shooters.ids
    for i in run:
        for _w, at in aim:
            problem = None if at is None else at.refusal(i, ids[i])
            if problem:
                raise PlanError(problem)


def _checked_run(targets: ShootPlanTargets, aim: list, run: list[int]) -> tuple[list, list[int]]:
    """(aim, run), once ``_refuse_run`` finds nothing refused in it."""
    _refuse_run(targets, aim, run)
    return aim, run


def _declare_run(targets: ShootPlanTargets, aim: list, run, declared: list) -> None:
    """04.01/04.02 Declare the selections of a run of consecutive models (slots ``run``, a list
    or a range) that make the same ones with equal loadouts: ``aim`` (ShootPlanTargets.aim, the
    first model's) says what each selection declares with; each selection is declared for every
    model of the run in unit order, a model's selections in the order given."""
    if len(aim) == 1:  # (the usual case: one selection per model)
        w, at = aim[0]
        if at is not None:
            declared.extend(at.declare_run(run))
            return
    sh = targets.shooters
    models, ids = sh.models, sh.ids
    for i in run:
        m, mid = models[i], ids[i]
        for w, at in aim:
            if at is None:
                declared.append(Declared(model=m, model_id=mid, weapon=w, target=None, abilities=w.abilities))
            else:
                declared.append(at.declare(i, m, mid))
