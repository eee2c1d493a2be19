"""A quick estimate, in points, of what a unit's weapons would do to an enemy unit, for the
stratagems whose worth is an attack that is not planned yet (15.08 Fire Overwatch's snap
shooting, 15.11 Heroic Intervention's and 15.12 Counteroffensive's fights, 15.03 Epic Challenge):
each weapon's attacks times the chances of the attack sequence (05.01-05.04) on the rules' face
tables, at the target's first model's profile, capped at the target's worth. Cheaper than the odds
engine (sim.odds), which wants a validated command: these are asked before there is one."""

from __future__ import annotations

import esper

from sim.components import Stats
from sim.rules.attack import CRITICAL, SUCCESS
from sim.rules.sequence import hit_faces, wound_faces
from sim.players.tactician.decisions_value import (damage_value, fail_save, first_target_model, mean,
                                                   model_value, unit_value)
from sim.world import queries as W


def weapon_value(battle, w, target: int, *, snap: bool = False, model: int | None = None) -> float:
    """Expected points one model's weapon ``w`` takes off ``target`` (a target model's profile:
    ``model``, else its first). Snap shooting (15.09): only a 6 hits, never critical."""
    m = model if model is not None else first_target_model(target)
    if m is None:
        return 0.0
    T = esper.component_for_entity(m, Stats).T
    hf = hit_faces(w.skill, 0, 0, snap)
    p_hit = sum(1 for f in hf[1:] if f in (SUCCESS, CRITICAL)) / 6
    wf = wound_faces(w.S, T, 0, 6)
    p_wound = sum(1 for f in wf[1:] if f in (SUCCESS, CRITICAL)) / 6
    melee = w.range is None
    p_unsaved = fail_save(w.AP, m, melee)
    return mean(w.A) * p_hit * p_wound * p_unsaved * damage_value(battle, m, mean(w.D))


def melee_value(battle, u: int, target: int, *, model: int | None = None,
                models: list[int] | None = None) -> float:
    """Expected points ``u``'s models' melee weapons (each model's best) take off ``target``
    (capped at what it is worth; only at ``model`` if given: then capped at that model)."""
    total = 0.0
    for m in (models if models is not None else W.unit_models(u)):
        best = 0.0
        for w in W.weapons_of(m):
            if w.range is None:
                best = max(best, weapon_value(battle, w, target, model=model))
        total += best
    cap = unit_value(battle, target) if model is None else model_value(battle, model)
    return min(total, cap)


def snap_value(battle, u: int, target: int, selections) -> float:
    """Expected points snap shooting (15.09) with ``selections`` (sim.plan.snap) takes off
    ``target``, capped at what it is worth."""
    total = 0.0
    profiles = {}
    for s in selections:
        m = battle.models[s.model]
        if m not in profiles:
            profiles[m] = {w.name: w for w in W.weapons_of(m)}
        w = profiles[m].get(s.weapon)
        if w is None:  # (a multi-profile weapon named by the weapon: its first profile)
            w = next((p for p in W.weapons_of(m) if p.weapon == s.weapon and p.range is not None), None)
        if w is not None:
            total += weapon_value(battle, w, target, snap=True)
    return min(total, unit_value(battle, target))
