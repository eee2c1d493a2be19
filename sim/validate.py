"""Command and answer validation at the door: a refused command or answer changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import esper

from sim.commands import (ChargeMove, Consolidate, DeclareCharge, EndPhase, EndTurn, Fight, Ingress, Move,
                          Overrun, PileIn, SelectToMove, Shoot, StartBattle)
from sim.components import Unit
from sim.errors import PlanError, Refusal
from sim.phases.gates import phase_refusal
from sim.plan import moves as MOVES
from sim.plan import phased as PH
from sim.plan import plan_fight, plan_shoot
from sim.plan.common import one_shot_keys
from sim.plan.overrun import check_overrun
from sim.rules.movement import moves as MV
from sim.rules.abilities import Hook
from sim.rules.allocation import allocation_groups, fit_order, order_problems
from sim.rules.command_reroll import fit_script
from sim.world import queries as W


@dataclass(slots=True)
class ValidatedPlan:
    """What validating a Shoot or Fight command worked out, kept on ``battle.validated`` for
    the systems that resolve it (ShootingTypeSystem, WeaponSelectionSystem): nothing changes
    between submit and resolution (a command is only accepted while the battle is idle), so the
    plan is exactly what they would compute again. Set by validate_command, replaced by the next
    command's, never changed (not frozen only because a frozen dataclass is slower to build, on
    the attack path); a system uses it only for the very command it validated (``command``)."""

    command: object  # the Shoot or Fight command validated (compared by identity)
    declared: list  # sim.plan.Declared per selected weapon and target (04.01/04.02)
    weapons: list  # the distinct weapon profiles declared, in order of first use
    shooting_type: str | None = None  # 10.02 the type used (shooting only)
    eligibility: Mapping[str, str | None] | None = None  # 10.04-10.07 per type: None, or why not


def validate_command(battle, cmd) -> str | None:
    """The reason ``cmd`` is illegal now, or None. A valid Shoot/Fight leaves its plan in
    ``battle.validated`` (a ValidatedPlan) for the systems."""
    battle.validated = None
    ts = battle.turn_state
    kind = cmd.kind
    if ts is None and kind in ("start battle", "end phase"):
        return f"a {kind} command needs a battle with a mission (07); this one is free play"
    if ts is not None and ts.overrun is not None:
        unit = esper.component_for_entity(ts.overrun, Unit).id
        if not (kind == "fight" and cmd.unit == unit):
            return (f"{unit} was selected for an overrun fight and has made its pile-in move: its fight "
                    f"comes next (12.06)")
    elif ts is not None and ts.pending_fights:
        first = esper.component_for_entity(ts.pending_fights[0], Unit).id
        if not (kind in ("fight", "overrun") and cmd.unit == first):
            return (f"{first} was engaged by a consolidation and must be selected to fight first "
                    f"(12.08)")
    elif ts is not None:
        problem = phase_refusal(ts, kind, PH.owner_of(battle, cmd))
        if problem:
            return problem
        if kind in ("fight", "overrun") and ts.forced_pick is not None and battle.units.get(cmd.unit) != ts.forced_pick:
            forced = esper.component_for_entity(ts.forced_pick, Unit).id
            return f"{forced} was the target of a Counteroffensive and must be picked next (15.12)"
    try:
        if isinstance(cmd, Shoot):
            battle.validated = validated_shoot(battle, cmd)
        elif isinstance(cmd, Fight):
            declared = plan_fight(battle, cmd)
            weapons = distinct_weapons(declared)
            _one_shot(battle, cmd.unit, declared, weapons)
            battle.validated = ValidatedPlan(cmd, declared, weapons)
        elif isinstance(cmd, (EndTurn, StartBattle)):
            pass
        else:
            check = _CHECKS.get(type(cmd))
            if check is None:
                return f"unknown command {cmd!r}"
            check(battle, cmd)
    except PlanError as e:
        return str(e)
    return None


def validated_shoot(battle, cmd: Shoot) -> ValidatedPlan:
    """04.01/04.02 A Shoot command's plan, checked (24.26 [ONE SHOT] too), whatever the phase
    gate says: validate_command's, and that of a unit a stratagem makes shoot out of phase
    (15.08). Raises PlanError with the reason."""
    plan = plan_shoot(battle, cmd)
    _one_shot(battle, cmd.unit, plan.declared, plan.weapons)
    return ValidatedPlan(cmd, plan.declared, plan.weapons, plan.shooting_type, plan.eligibility)


def distinct_weapons(declared) -> list:
    """The distinct weapon profiles of declared attacks, in order of first use."""
    return list({id(d.weapon): d.weapon for d in declared}.values())


def _one_shot(battle, unit: str, declared, weapons) -> None:
    for w in weapons:
        if Hook.ONCE_PER_BATTLE in w.effects:  # (w.has, inline: every Shoot and Fight asks)
            one_shot_keys(declared, W.unit_state(battle.units[unit]).used_one_shot)
            return


def _check_move(battle, cmd: Move) -> None:
    """09.05-09.07 A move: the unit's only move this phase (09.05.01, 09.02), of a type it is
    eligible for (and was selected for, if it was: an advance is selected first, for its
    roll, sim.plan.phased.check_select); normal and advance moves need an unengaged unit, a
    fall-back move an engaged one; then where every model goes (sim.plan.moves)."""
    if cmd.mode not in ("normal", "advance", "fall back"):
        raise PlanError(f"unknown move mode {cmd.mode!r} (expected normal, advance or fall back)")
    ent = battle.units.get(cmd.unit)
    if ent is None:
        raise PlanError(f"no unit {cmd.unit!r}")
    PH.one_at_a_time(battle, ent, "09.02")
    PH.oversized_refusal(ent, f"make a {cmd.mode} move")
    st = W.unit_state(ent)
    problem = MV.second_move_refusal(
        cmd.unit, MV.move_made(st.move_type, st.advanced, st.fell_back, st.moved), cmd.mode)
    if problem:
        raise PlanError(problem)
    selected = st.move_selected
    if selected is not None and MODE_OF_SELECTION.get(selected) != cmd.mode:
        raise PlanError(f"{cmd.unit} was selected to {selected if selected != 'stationary' else 'remain stationary'}"
                        f" and cannot make a {cmd.mode} move (09.02)")
    if cmd.mode == "advance" and selected is None and battle.turn_state is not None:
        raise PlanError(f"select {cmd.unit} to advance first: the advance roll is made before any model "
                        f"moves (09.06)")
    engaged = W.unit_engaged(ent)
    if cmd.mode == "fall back" and not engaged:
        raise PlanError("a fall-back move needs an engaged unit (09.07)")
    if cmd.mode != "fall back" and engaged:
        raise PlanError(f"an engaged unit cannot make a {cmd.mode} move (09.05/09.06)")
    if cmd.mode == "fall back" and st.battle_shocked and selected != "desperate escape":
        raise PlanError(f"{cmd.unit} is battle-shocked: it may fall back only by Desperate Escape "
                        f"(select it for a desperate escape first) (09.07, 01.07)")
    MOVES.check_unit_move(battle, ent, cmd, selected)


# the check of each other command, by its type (Shoot and Fight plan above)
_CHECKS = {Move: _check_move, EndPhase: PH.check_end_phase, SelectToMove: PH.check_select,
           Ingress: PH.check_ingress, DeclareCharge: PH.check_declare_charge,
           ChargeMove: PH.check_charge_move, PileIn: PH.check_pile_in, Consolidate: PH.check_consolidate,
           Overrun: check_overrun}

MODE_OF_SELECTION = {"normal": "normal", "advance": "advance", "fall back": "fall back",
                     "desperate escape": "fall back"}


def validate_answer(battle, req, value):
    """Check an answer against its request; returns the normalised answer or raises Refusal."""
    if req.kind == "allocation_order":
        if not isinstance(value, (list, tuple)):
            raise Refusal("an allocation order is a list of group keys")
        value = [str(v) for v in value]
        act = battle.activation
        pool = act.pools[act.pool_index]
        models = W.target_models(pool.spec.target)
        problems = order_problems(allocation_groups(models), value, models)
        if problems:
            raise Refusal("illegal allocation order (05.03): " + "; ".join(problems))
        return value
    if req.kind == "coherency_removal":
        from sim.rules.coherency import removal_problem
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise Refusal("a coherency removal is a list of model ids (03.03)")
        problem = removal_problem(req.context["models"], list(value))
        if problem:
            raise Refusal(f"illegal coherency removal: expected {problem}")
        return list(value)
    if req.kind == "psychic":
        if not isinstance(value, (list, tuple)) or any(v not in req.options for v in value):
            raise Refusal(f"ignore a subset of {req.options}")
        return [v for v in req.options if v in value]
    if req.kind == "weapons":
        if (not isinstance(value, (list, tuple)) or not value
                or any(v not in req.options for v in value)):
            raise Refusal(f"select one or more of {req.options} (04.01)")
        return [v for v in req.options if v in value]
    if value not in req.options:
        raise Refusal(f"expected one of {req.options}, found {value!r}")
    return value


def fit_scripted_answer(battle, req, value) -> tuple[object, str | None]:
    """A script step answers each kind of decision once, for every request of that kind in the
    step (README, Decisions); the pools resolved before this request may have changed what the
    answer names. Returns the answer to give this request and a note for the battle report
    (None when the script's answer is given as written):

    * ``allocation_order`` (05.03): the script's keys are model ids; each stands for the group
      that model belongs to now, or, once it is destroyed, the living group of the same W, Sv
      and InSv (Part A ruling 9, as the unit's declared order). If the order so re-keyed is not
      legal now (a model wounded meanwhile forces its group first), the rules' order is used,
      the script's where the rules leave a choice, and the note says why;
    * ``precision`` (24.28): a CHARACTER destroyed, not visible to this pool's attacking models
      or not in this pool's target falls back to the default;
    * ``psychic`` (24.29): the script's sources that this attack has (the others do not apply);
    * ``duplicate`` (24.02): a label that is not a copy of this weapon's ability falls back to
      the default;
    * ``weapons`` (04.01, a stratagem's shooting): the script's weapons that can fire here (none
      of them: the default);
    * ``stratagem`` (15): "use", for a stratagem whose options name what it picks (a model, a
      unit), stands for the first option (the request's context "use");
      for a Command Re-roll of one die of the attack sequence's or a hazard roll, a roll's name
      ("hit", "save"...), "hit 3" or "pool 1 hit 3" stands for the first die offered that it
      names (another roll's name: a decline; sim.rules.command_reroll.fit_script);
    * any other kind: an answer not among the options falls back to the default.

    What a scripted answer may name is checked when the scenario is read
    (sim.scenario.script), so only what earlier pools changed is fitted here."""
    kind = req.kind
    if kind == "allocation_order":
        act = battle.activation
        pool = act.pools[act.pool_index]
        models, groups = W.allocation_view(pool.spec.target)
        named = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
        fitted, problems = fit_order(groups, models, named, req.default)
        if not problems:
            if fitted == named:
                return fitted, None
            return fitted, (f"the script's order {named} is re-keyed onto the groups as they are now "
                            f"(a group's key is its first living model): {fitted}")
        fallback = fitted
        return fallback, (f"the script's order {named} is not legal now ({'; '.join(problems)}; 05.03): "
                          f"the order the rules force, else the script's, is used: {fallback}")
    if kind == "psychic":
        wanted = value if isinstance(value, (list, tuple)) else [value]
        return [s for s in req.options if s in wanted], None
    if kind == "weapons":
        wanted = value if isinstance(value, (list, tuple)) else [value]
        fitted = [s for s in req.options if s in wanted]
        if fitted:
            return fitted, None if len(fitted) == len(wanted) else (
                f"the script's weapons {list(wanted)} that can fire here: {fitted}")
        return req.default, (f"the script's answer does not apply: none of {list(wanted)} can fire "
                             f"here; the default {req.default!r} is used")
    if value in req.options:
        return value, None
    if kind == "stratagem" and value == "use" and req.context.get("use") in req.options:
        return req.context["use"], f"\"use\" stands for the first option, {req.context['use']!r}"
    if kind == "stratagem":
        fitted = fit_script(req, value)
        if fitted is not None:
            return fitted
    if kind == "precision":
        act = battle.activation
        target = act.pools[act.pool_index].spec.target
        m = battle.models.get(value)
        if m is not None and not W.alive(m):
            why = f"{value} was destroyed"
        elif m is not None and W.unit_of(m) != target:
            why = f"{value} is not in {esper.component_for_entity(target, Unit).id}, this pool's target"
        else:
            why = f"{value} is not a CHARACTER visible to this pool's attacking models (24.28)"
    else:
        why = f"{value!r} is not among {req.options}"
    return req.default, f"the script's answer does not apply: {why}; the default {req.default!r} is used"
