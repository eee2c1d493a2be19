"""The tactician's answers to decisions (issue 27 item 1): stratagems when they pay for their
CP (decisions_stratagems, decisions_reroll: Command Re-roll where the expected gain is largest),
allocation orders and [PRECISION] picks that protect what matters. Every answer is one of the
request's options (or its default, always legal: sim.plan.answers.validate_answer); a kind not
judged here takes its default. Deterministic: no die is drawn, ties go to the options' order."""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.players.tactician import decisions_stratagems
from sim.players.tactician.decisions_value import damage_value, fail_save, mean, model_name, model_value
from sim.rules.allocation import order_problems
from sim.rules.attack import AttackKind


def answer(player, battle, request):
    f = _BY_KIND.get(request.kind)
    if f is None:
        return request.default
    try:
        chosen = f(player, battle, request)
    except (KeyError, AttributeError, IndexError, ValueError):  # (a state this judge does not read)
        return request.default
    return _legal(request, chosen)


def _legal(req, chosen):
    """``chosen`` if it is an answer the request accepts, else its default (a judged answer is
    never worse than refused)."""
    if req.kind in ("allocation_order", "coherency_removal", "psychic", "weapons"):
        return chosen
    return chosen if chosen in req.options else req.default


def precision(player, battle, req):
    """24.28 the most valuable visible CHARACTER (its own datasheet's points), the first of
    equals; a model already low on wounds counts for more (it is likelier to fall)."""
    chars = [o for o in req.options if o != "decline" and o in battle.models]
    if not chars:
        return req.default
    act = battle.activation
    pool = act.pools[act.pool_index] if act is not None else None
    D = mean(pool.state.D) if pool is not None and pool.state is not None else 1.0
    melee = _melee(act)
    vals = {}
    for c in chars:
        m = battle.models[c]
        ap = pool.state.AP if pool is not None and pool.state is not None else 0
        vals[c] = fail_save(ap, m, melee) * damage_value(battle, m, D) + 0.01 * model_value(battle, m)
    best = max(chars, key=lambda c: (vals[c], -chars.index(c)))
    if player.explaining:
        from sim.players.base import Weighed
        player.explain("precision", model_name(battle, best),
                       [Weighed(model_name(battle, c), vals[c], "pts")
                        for c in sorted(chars, key=lambda c: -vals[c])][:3])
    return best


def allocation_order(player, battle, req):
    """05.03 the defender's order: where the rules leave a choice, the groups that lose the least
    per wound allocated (the chance its save fails times what the damage takes off that model)
    first, so the leader and the valuable models are hit last; the rules' order where it binds."""
    act = battle.activation
    pool = act.pools[act.pool_index]
    if pool.state is None or not pool.groups:
        return req.default
    melee = _melee(act)
    D = mean(pool.state.D)
    loss = {}
    for g in pool.groups:
        m = battle.models[g.members[0]]
        loss[g.key] = fail_save(pool.state.AP, m, melee) * damage_value(battle, m, D)
    default = list(req.default)
    rank = {k: i for i, k in enumerate(default)}
    order = sorted(default, key=lambda k: (next(g.character for g in pool.groups if g.key == k), loss[k], rank[k]))
    if order_problems(pool.groups, order, pool.models):
        return req.default
    if player.explaining and order != default:
        from sim.players.base import Weighed
        player.explain(f"allocation: {esper.component_for_entity(pool.spec.target, Unit).name}",
                       ", ".join(model_name(battle, k) for k in order),
                       [Weighed(f"{model_name(battle, k)} first", -loss[k], "pts") for k in order[:3]])
    return order


def charge_targets(player, battle, req):
    """15.11 the enemy unit the Heroic Intervention's fight takes the most off."""
    from sim.players.tactician.decisions_attacks import melee_value
    u = battle.units[req.context["target"]]
    vals = {o: melee_value(battle, u, battle.units[o]) for o in req.options}
    return max(req.options, key=lambda o: (vals[o], -req.options.index(o)))


def _melee(act) -> bool:
    return act is not None and act.kind is AttackKind.FIGHTING


_BY_KIND = {"stratagem": decisions_stratagems.answer, "precision": precision,
            "allocation_order": allocation_order, "charge_targets": charge_targets}
