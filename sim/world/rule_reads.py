"""What the effects of datasheet abilities, army rules and detachment rules make of a unit's
characteristics and standing now, read off the world (the plan, the players, visibility and the
stratagems' limits ask; nothing here changes the battle): its Move (09.05-09.07), OC (14.02),
Leadership (01.06), whether it fights first (12.04), how close an enemy must be to target it
(like 24.24), a stratagem's CP cost modifier for it (15.01), its models' Feel No Pain against
mortal wounds outside an attack (24.12). Each asks
sim.world.rule_effects.acting which grants act on the unit; the pure rules decide
(sim.rules.effects.phase_rules). In a battle where no unit holds a rule each returns at once
(``any_rules``). What changes the battle (roll modifiers and re-rolls, mortal wounds, returns)
is sim.systems.rule_effects."""

from __future__ import annotations

import esper

from sim.components import ModelId, Stats, Unit
from sim.rules.effects.attack import best_roll
from sim.rules.effects import eligibility as EL
from sim.rules.effects import phase_rules as PR
from sim.rules.effects import vocabulary as V
from sim.world import queries as W
from sim.world import rule_effects as RE


def modifying(battle, u: int, stat: str, model: str = "") -> list:
    """The MODIFY grants of ``stat`` acting on the unit now (a BEARER grant only for ``model``,
    its bearer, when given), less the penalties it ignores (ignored_modifiers)."""
    acts = RE.acting(battle, u, (V.MODIFY,), model=model, stat=stat)
    if acts and stat in V.IGNORED_STATS:
        ignored = ignored_modifiers(battle, u, stat, acts, model)
        if ignored:
            acts = [a for a in acts if a not in ignored]
    return acts


def ignored_modifiers(battle, u: int, stat: str, acts: list, model: str = "") -> list:
    """Of the MODIFY grants ``acts`` of ``stat``, those the unit ignores: every penalty,
    when an IGNORE_MODIFIERS effect of that stat acts on it (sim.rules.effects.phase_rules
    .kept_modifiers decides); [] otherwise."""
    if not RE.acting(battle, u, (V.IGNORE_MODIFIERS,), model=model, stat=stat):
        return []
    _kept, ignored = PR.kept_modifiers([a.grant.what for a in acts], stat)
    return [a for a in acts if any(a.grant.what is e for e in ignored)]


def move_modifier(battle, u: int, model_ent: int | None = None) -> int:
    """The modifier to a model's Move characteristic now (MODIFY "M"; a BEARER grant only for
    its bearer)."""
    if battle is None or not RE.any_rules():
        return 0
    mid = "" if model_ent is None else esper.component_for_entity(model_ent, ModelId).id
    return PR.modifier([a.grant.what for a in modifying(battle, u, "M", mid)], "M")


def move_of(battle, u: int, model_ent: int) -> int:
    """A model's Move characteristic after the rules' modifiers (never below 0)."""
    M = esper.component_for_entity(model_ent, Stats).M
    if battle is None or not RE.any_rules():
        return M
    return PR.modified_move(M, move_modifier(battle, u, model_ent))


def oc_modifier(battle, u: int) -> int:
    """The modifier to the unit's models' OC now (14.02; a battle-shocked unit's stays '-')."""
    if not RE.any_rules():
        return 0
    return PR.modifier([a.grant.what for a in modifying(battle, u, "OC")], "OC")


def leadership(battle, u: int) -> list[int]:
    """The unit's living models' Ld after the rules' modifiers (+1 improves: 02.02.01)."""
    lds = W.unit_leaderships(u)
    if not RE.any_rules():
        return lds
    mod = PR.modifier([a.grant.what for a in modifying(battle, u, "Ld")], "Ld")
    return PR.modified_leaderships(lds, mod) if mod else lds


def fights_first(battle, u: int) -> bool:
    """12.04 step 1: a FIGHTS_FIRST effect acts on the unit now."""
    if battle is None or not RE.any_rules():
        return False
    return bool(RE.acting(battle, u, (V.FIGHTS_FIRST,)))


def target_limit(battle, u: int) -> float | None:
    """The distance within which an enemy model must be to select the unit as the target of
    ranged attacks (TARGET_LIMIT: the smallest that acts), or None."""
    if battle is None or not RE.any_rules():
        return None
    xs = [float(a.grant.what.value) for a in RE.acting(battle, u, (V.TARGET_LIMIT,))]
    return min(xs) if xs else None


def stratagem_cost_modifier(battle, name: str, target: str | None) -> int:
    """15.01 The modifier to the CP cost of stratagem ``name`` used on unit ``target`` (its id)
    from the STRATAGEM_COST effects acting on it now (0 without any)."""
    if target is None or not RE.any_rules():
        return 0
    u = battle.units.get(target)
    if u is None:
        return 0
    effects = [a.grant.what for a in RE.acting(battle, u, (V.STRATAGEM_COST,))]
    return PR.stratagem_cost_modifier(effects, name) if effects else 0


def feel_no_pain(battle, u: int, own: dict[str, int]) -> dict[str, int]:
    """24.12 Feel No Pain X+ of each living model of the unit against mortal wounds suffered
    outside an attack (hazard rolls, Deadly Demise, a rule's mortal wounds: 06.02): ``own``, the
    models' own (sim.world.queries.feel_no_pain), with the best a FEEL_NO_PAIN effect acting now
    grants (one with no condition on an attack: outside one, none is worked out; a BEARER grant
    only for its bearers)."""
    if battle is None or not RE.any_rules():
        return own
    acts = RE.acting(battle, u, (V.FEEL_NO_PAIN,))
    if not acts:
        return own
    out = dict(own)
    for m in W.alive_models(u):
        mid = esper.component_for_entity(m, ModelId).id
        for a in acts:
            if a.grant.who == V.BEARER and a.held.bearers and mid not in a.held.bearers:
                continue
            out[mid] = best_roll(out.get(mid), a.grant.what.value)
    return out


def arrival_distance(battle, u: int, fps) -> tuple[float, list]:
    """24.09 How far from every enemy model a Deep Strike set-up of the unit at ``fps`` (its
    models' footprints as set up) must be: the smallest ARRIVAL_DISTANCE acting on it there (its
    conditions on where the unit is read at ``fps``), else the core 8" (20.04); with the grants
    that set it."""
    from sim.rules.reserves import ENEMY_DISTANCE
    if battle is None or not RE.any_rules():
        return ENEMY_DISTANCE, []
    acts = RE.acting(battle, u, (V.ARRIVAL_DISTANCE,), placed=list(fps))
    if not acts:
        return ENEMY_DISTANCE, []
    best = min(float(a.grant.what.value) for a in acts)
    return min(best, ENEMY_DISTANCE), [a for a in acts if float(a.grant.what.value) == best]



def conferred_hooks(unit_ent: int) -> frozenset:
    """The hooks of the core unit abilities rules confer on the unit now (V.UNIT_ABILITY, e.g.
    INFILTRATORS: 24.20's DEPLOYS_FORWARD), read by sim.world.queries.every_model_has as if every
    model had the ability (such a grant has no conditions: the vocabulary refuses them)."""
    from sim.rules.abilities.registry import spec
    hooks: set = set()
    for a in RE.reaching(unit_ent, (V.UNIT_ABILITY,)):
        hooks |= spec(a.grant.what.ability.upper()).hooks
    return frozenset(hooks)


# a rule's permission to shoot or charge after advancing or falling back
def permitting(battle, u: int, act: str) -> list:
    """09.06 / 09.07 The ELIGIBLE grants acting on the unit now that let it ``act`` (EL.SHOOT or
    EL.CHARGE) after its move this turn: [] when its move bars nothing, or the grants acting do
    not cover it (sim.rules.effects.eligibility.lifted)."""
    if battle is None or not RE.any_rules():
        return []
    st = W.unit_state(u)
    need = EL.needed(act, st.advanced, st.fell_back)
    if not need:
        return []
    acts = [a for a in RE.acting(battle, u, (V.ELIGIBLE,)) if a.grant.what.ability in need]
    return acts if EL.lifted((a.grant.what.ability for a in acts), act, st.advanced, st.fell_back) else []


def permission_refusal(battle, u: int, act: str, target: int, acts: list) -> str | None:
    """Why the permissions ``acts`` (permitting's) do not let the unit ``act`` at ``target``: a
    condition of theirs on the other unit fails for it (Thrill Seekers' targets); None if they do."""
    from sim.rules.effects.conditions import why_not
    st = W.unit_state(u)
    with_target = RE.acting(battle, u, (V.ELIGIBLE,), other=target)
    if EL.lifted((a.grant.what.ability for a in with_target), act, st.advanced, st.fell_back):
        return None
    tid = esper.component_for_entity(target, Unit).id
    for a in acts:
        if a not in with_target:
            need = frozenset(c[0] for c in a.grant.when.conditions)
            why = why_not(a.grant.when, RE.facts(battle, u, a.held, a.holder, other=target, need=need))
            return EL.refusal(a.held.record.name, a.grant.what.ability, tid, why or "now")
    return None


def advancing_costs_nothing(battle, u: int) -> bool:
    """ELIGIBLE grants acting on the unit now would let it both shoot and declare a charge
    were it to advance (their conditions on a target aside): the default player's cue to advance
    (sim.players.default)."""
    if battle is None or not RE.any_rules():
        return False
    have = {a.grant.what.ability for a in RE.acting(battle, u, (V.ELIGIBLE,))}
    return V.SHOOT_AFTER_ADVANCE in have and V.CHARGE_AFTER_ADVANCE in have
