"""04.01/04.02 for a unit selected to fight (12.04/12.05): one melee weapon per model plus its
[EXTRA ATTACKS] weapons, targets engaged with the model, split attacks (04.03), and the
Fights First order (12.04 step 1, 24.13); who is eligible to fight (12.04) and who was
eligible this phase (12.08), for the Fight step's order (sim.phases.fight_order), the
commands' checks, the players and the sandbox."""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.errors import PlanError
from sim.plan.scenario_modifiers import add_scenario_modifiers
from sim.plan.rule_effects import add_rule_effects
from sim.plan.common import (Declared, damaged_modifier, declared_key, find_unit, find_weapon, model_in,
                             not_there, one_shot_keys, wound_modifiers_at)
from sim.rules import multi_profile as MP
from sim.rules.abilities import Hook, tag
from sim.rules.grid import snap_key
from sim.rules.profiles import gain_abilities
from sim.rules.turn import FightType
from sim.world import queries as W
from sim.world import rule_reads as RX

_EXTRA = tag(Hook.EXTRA_WEAPON)  # (as datasheets print it, for the reasons below)


def fights_first(unit_ent: int, battle=None) -> bool:
    """24.13 A Fights First unit: every model in it has Fights First; a unit that made a charge
    move this turn has it until the end of the turn (11.04); so has a unit a rule's FIGHTS_FIRST
    effect acts on now (``battle`` given: sim.world.rule_reads.fights_first)."""
    st = W.unit_state(unit_ent)
    if st.charged or st.counteroffensive:  # (15.12 Counteroffensive: Fights First this phase)
        return True
    models = W.unit_models(unit_ent)
    if bool(models) and all(any(Hook.FIGHTS_IN_FIRST_STEP in a.spec.hooks for a in W.model_abilities(m))
                            for m in models):
        return True
    return bool(models) and RX.fights_first(battle, unit_ent)


def eligible_to_fight(battle, unit_ent: int) -> bool:
    """12.04 Eligible to fight: a unit on the battlefield not yet selected to fight this phase,
    and engaged now, engaged at the start of the Fight step, or that made a charge move this
    turn; or one a consolidation engaged (12.08: it "becomes eligible to fight", even when the
    unit that engaged it is gone before its pick). (In free play there is no Fight step: engaged now, or charged.)"""
    if W.unit_destroyed(unit_ent):
        return False
    st = W.unit_state(unit_ent)
    if st.selected_to_fight:
        return False
    ts = battle.turn_state
    return (st.charged or (ts is not None and (unit_ent in ts.engaged_at_fight_step or unit_ent in ts.pending_fights))
            or W.unit_engaged(unit_ent))


def fight_eligible(battle, player: int) -> list[int]:
    """12.04 A player's units eligible to fight (``eligible_to_fight``), in unit order."""
    return [u for u in W.all_units()
            if esper.component_for_entity(u, Unit).owner == player and eligible_to_fight(battle, u)]


def was_eligible_to_fight(battle, ent: int) -> bool:
    """12.08 A unit that was eligible to fight at some point of this Fight phase: at the start
    of the Fight step, when selected to fight, because it charged, or engaged now."""
    st = W.unit_state(ent)
    ts = battle.turn_state
    return (st.selected_to_fight or st.charged or W.unit_engaged(ent)
            or (ts is not None and ent in ts.eligible_this_phase))


def fight_types(battle, ent: int) -> tuple[str, ...]:
    """12.05 / 12.06 The fight types a unit eligible to fight may be selected with now: normal
    while it is engaged; overrun while it is unengaged, or engaged now but not at the start of
    the Fight step (it became engaged during the phase). (In free play, with no Fight step,
    only normal.)"""
    ts = battle.turn_state
    engaged = W.unit_engaged(ent)
    if ts is None:
        return (FightType.NORMAL,)
    out = (FightType.NORMAL,) if engaged else ()
    if not engaged or ent not in ts.engaged_at_fight_step:
        out += (FightType.OVERRUN,)
    return out


def check_fights_first(battle, unit_ent: int) -> None:
    """12.04 step 1 While an eligible Fights First unit has not been selected to fight, a unit
    without Fights First cannot be (PlanError naming those it waits for). A unit a
    consolidation engaged is not picked in that order: 12.08 selects it to fight at once, even
    while a Fights First unit its side passed with (12.04.01) is still eligible."""
    if fights_first(unit_ent, battle):
        return
    ts = battle.turn_state
    if ts is not None and unit_ent in ts.pending_fights:
        return
    waiting = [esper.component_for_entity(u, Unit).id for u in W.all_units()
               if u != unit_ent and fights_first(u, battle) and eligible_to_fight(battle, u)]
    if waiting:
        raise PlanError(f"Fights First units fight before the others (12.04 step 1): "
                        f"{', '.join(waiting)} must be selected to fight first")


def fight_targets(model_ent: int, engaged: list[int]) -> list[int]:
    """04.02 / 12.04 The enemy units a model of a unit selected to fight can attack: those of
    ``engaged`` (the enemy units its unit is engaged with, W.engaged_with) that are engaged with
    the model itself, in unit order. None of them: the model cannot fight (it makes no attacks
    and needs no selection)."""
    return [t for t in engaged if any(W.models_engaged(model_ent, tm) for tm in W.unit_models(t))]


def nearest_fight_target(model_ent: int, engaged: list[int]) -> int | None:
    """The enemy unit a model attacks by default (the headless players' choice, and the script
    shorthand's for a model that cannot reach the unit it names): the nearest to it of those it
    can attack (fight_targets; ties: unit order, Part A ruling 29). None: it cannot fight."""
    best, target = None, None
    for t in fight_targets(model_ent, engaged):
        d = snap_key(W.nearest_distance(model_ent, W.unit_models(t)))  # (ties: unit order on every machine)
        if best is None or d < best:
            best, target = d, t
    return target


def selectable_melee(model_ent: int, mid: str, used: frozenset) -> list:
    """04.01 The melee weapons (profiles) a model may select to fight: every one it carries but
    a [ONE SHOT] weapon already fired this battle (24.26; ``used``, the unit's UnitState
    .used_one_shot)."""
    out = []
    for w in W.weapons_of(model_ent):
        if not w.is_melee:
            continue
        if used and w.has(Hook.ONCE_PER_BATTLE):
            try:
                one_shot_keys([Declared(model=model_ent, model_id=mid, weapon=w, target=None)], used)
            except PlanError:
                continue
        out.append(w)
    return out


def _names(units) -> str:
    return ", ".join(esper.component_for_entity(u, Unit).id for u in units)


def _weapon_names(profiles) -> str:
    return ", ".join(dict.fromkeys(MP.weapon_name(w) for w in profiles))


def plan_fight(battle, cmd, selected: bool = False) -> list[Declared]:
    """12.04/12.05 + 04.01/04.02 for a unit selected to fight: each model that can fight (one
    engaged with an enemy unit) selects a melee weapon, if it has one: exactly one besides its
    [EXTRA ATTACKS] weapons, which it selects too (those alone will do, 24.11.01); each selected
    weapon has one or more targets engaged with that model, no more than the weapon's A, split
    attacks of at least 1 per target adding up to A. A model without a melee weapon, or that is
    engaged with no enemy unit, makes no attacks and needs no selection (a unit without melee
    weapons may still be selected to fight: the rules' FAQ)."""
    unit_ent = find_unit(battle, cmd.unit)
    if W.unit_destroyed(unit_ent):
        raise PlanError(f"unit {not_there(unit_ent, cmd.unit)}")
    st = W.unit_state(unit_ent)
    ts = battle.turn_state
    overrun = ts is not None and ts.overrun == unit_ent  # (12.06: selected already, its pile-in made)
    if not (selected or overrun):
        if st.selected_to_fight:
            raise PlanError(f"unit {cmd.unit} was already selected to fight this phase (12.04)")
        if not eligible_to_fight(battle, unit_ent):
            raise PlanError(f"unit {cmd.unit} is not eligible to fight: not engaged (now or at the start of "
                            f"the Fight step) and did not charge (12.04)")
        check_fights_first(battle, unit_ent)
        if ts is not None and not W.unit_engaged(unit_ent):
            raise PlanError(f"unit {cmd.unit} is not engaged: a normal fight needs an engaged unit (12.05); "
                            f"an unengaged unit eligible to fight makes an overrun fight (12.06)")
    gains = ts.melee_gains if ts is not None else None  # (15.03 Epic Challenge)
    owner = esper.component_for_entity(unit_ent, Unit).owner
    by_model: dict[int, list] = {}
    for s in cmd.selections:
        by_model.setdefault(model_in(battle, unit_ent, s.model), []).append(s)
    engaged = W.engaged_with(unit_ent)  # (the enemy units its models can be engaged with)
    used = st.used_one_shot
    declared: list[Declared] = []
    for m in W.unit_models(unit_ent):
        sels = by_model.get(m, [])
        mid = W.model_id(m)
        can_fight = None  # fight_targets(m, engaged), worked out when a check needs it
        if not sels:
            # 04.01 / 12.04 a model that can fight selects a melee weapon, if it has one
            usable = selectable_melee(m, mid, used)
            if usable and engaged:
                can_fight = fight_targets(m, engaged)
                if can_fight:
                    raise PlanError(f"{mid} is engaged with {_names(can_fight)} and must fight: select one of "
                                    f"its melee weapons ({_weapon_names(usable)}) and its targets among the "
                                    f"enemy units it is engaged with (04.01, 04.02, 12.04)")
            continue
        per_weapon: dict[str, list] = {}
        for s in sels:
            per_weapon.setdefault(s.weapon, []).append(s)
        main = [n for n in per_weapon if not find_weapon(m, mid, n, melee=True).has(Hook.EXTRA_WEAPON)]
        problem = MP.profile_choice_problem(W.weapons_of(m), list(per_weapon)) if len(per_weapon) > 1 else None
        if problem:
            raise PlanError(f"{mid}: {problem}")
        if len(main) > 1:
            raise PlanError(f"{mid}: selects {', '.join(main)}; a model fights with exactly one "
                            f"melee weapon (04.01) besides its {_EXTRA} weapons")
        if per_weapon:
            # (a multi-profile one by any of its profiles, 04.01.03; not a spent [ONE SHOT] one)
            chosen = {MP.weapon_name(find_weapon(m, mid, n, melee=True)) for n in per_weapon}
            extra = [MP.weapon_name(w) for w in selectable_melee(m, mid, used) if w.has(Hook.EXTRA_WEAPON)]
            missing = list(dict.fromkeys(n for n in extra if n not in chosen))
            if missing:
                raise PlanError(f"{mid}: must also select its {_EXTRA} weapons: "
                                f"{', '.join(missing)} (24.11)")
        gained = gains.get(mid) if gains else None
        for name, group in per_weapon.items():
            w = find_weapon(m, mid, name, melee=True)
            if gained:
                w = gain_abilities(w, gained)
            targets = [s for s in group if s.target is not None]
            if not targets and engaged:
                if can_fight is None:
                    can_fight = fight_targets(m, engaged)
                if can_fight:
                    raise PlanError(f"{mid} {name}: no target: a model that fights attacks with each melee "
                                    f"weapon it selects one or more of the enemy units it is engaged with "
                                    f"({_names(can_fight)}) (04.02, 12.04)")
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
                declared.append(Declared(model=m, model_id=mid, weapon=w, target=None,
                                         abilities=w.abilities))
            for s in targets:
                t = find_unit(battle, s.target)
                if esper.component_for_entity(t, Unit).owner == owner or W.unit_destroyed(t):
                    gone = W.off_table(t) and not_there(t, s.target)
                    raise PlanError(f"{mid}: {gone or f'{s.target} is not a living enemy unit'}")
                if not any(W.models_engaged(m, tm) for tm in W.unit_models(t)):
                    raise PlanError(f"{mid} {name} -> {s.target}: not engaged with this model (04.02)")
                d = Declared(model=m, model_id=mid, weapon=w, target=t,
                             attacks=s.attacks if len(targets) > 1 else None,
                             hit_mods=damaged_modifier(m), wound_mods=wound_modifiers_at(w, unit_ent, t),
                             target_models=len(W.unit_models(t)), split=len(targets) > 1,
                             abilities=w.abilities)
                d.key = declared_key(d)
                declared.append(d)
    declared = add_scenario_modifiers(unit_ent, declared)
    return add_rule_effects(battle, unit_ent, declared) if battle.resources.has_rules else declared
