"""Answers to decisions, at the door: an answer not among the request's options is refused
(nothing changes), and a script's standing answer is fitted to each request it answers."""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.errors import Refusal
from sim.rules.allocation import allocation_groups, fit_order, order_problems
from sim.rules.command_reroll import fit_script
from sim.world import queries as W


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
    * ``rule_choice`` given as a list (the friendly units a rule picks, one per request): the first
      of them offered, else "done";
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
    if kind == "rule_choice" and isinstance(value, list):  # the friendly units to pick, one a request
        return next((u for u in value if u in req.options), "done" if "done" in req.options else req.default), None
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
