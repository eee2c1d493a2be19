"""15.09 Snap shooting, planned for a unit a rule lets shoot with it (15.08 Fire Overwatch):
which of its ranged weapons can fire at one enemy unit, as the selections of a Shoot command.
The checks are the shooting rules' own (sim.rules.shooting: snap_target_problem for the unit,
ranged_target_problem for each model's weapon, 24.07's per-model choice); the plan
(sim.plan.shoot) checks the command built from them again."""

from __future__ import annotations

from typing import Collection

import esper

from sim.plan.common import Selection
from sim.components import Unit
from sim.plan.shoot_targets import TargetView, shooters_of, target_facts
from sim.rules import multi_profile as MP
from sim.rules import shooting as SH
from sim.rules.abilities import Hook
from sim.world import queries as W


def snap_view(battle, unit_ent: int, target: int) -> TargetView:
    """The enemy unit ``target`` as the models of ``unit_ent`` see it (06.01, 01.04)."""
    return TargetView(battle, shooters_of(unit_ent), target)


def snap_selections(battle, unit_ent: int, target: int,
                    weapons: Collection[str] | None = None) -> list[Selection]:
    """The selections of a unit shooting at ``target`` with snap shooting: none if 15.09 bars
    the target for the unit (not visible to it, beyond 24"); otherwise, model by model in unit
    order, each of its ranged weapons (named in ``weapons``, if given) for which 04.02 allows
    the target (visible to the model, within the weapon's range, unengaged: 17.03 is for the
    Shooting phase only, 07.02.01), and not a [ONE SHOT] copy already fired (24.26). A model
    that is not MONSTER/VEHICLE and could fire both its [CLOSE-QUARTERS] and its other ranged
    weapons fires the other ones (24.07 lets it pick only one kind; this is the default). Of a
    multi-profile weapon (named by itself or by a profile) it picks the first usable profile
    (04.01.03)."""
    out: list[Selection] = []
    for sels in _each_model(battle, unit_ent, target, weapons):
        out += sels
    return out


def can_snap(battle, unit_ent: int, target: int, weapons: Collection[str] | None = None) -> bool:
    """Whether ``snap_selections`` selects anything: the models read in unit order until the
    first that has a weapon to fire (a stratagem's offer lists the pairs that can; the chosen
    pair's selections are made when it is chosen)."""
    return any(_each_model(battle, unit_ent, target, weapons))


def _each_model(battle, unit_ent: int, target: int, weapons: Collection[str] | None):
    """``snap_selections``' selections, a list for each model in unit order (empty: it fires
    nothing), worked out as they are read; nothing at all when 15.09 bars the target."""
    tid = esper.component_for_entity(target, Unit).id
    view = snap_view(battle, unit_ent, target)
    gap = min(view.nearest) if view.nearest else None
    if SH.snap_target_problem([tid], gap, True in view.visible):
        return
    cache = {target: view}
    used = W.unit_state(unit_ent).used_one_shot
    for m in W.unit_models(unit_ent):
        mid = W.model_id(m)
        usable = []
        fired: dict[str, int] = {}  # [ONE SHOT] copies already fired, by name
        for w in W.weapons_of(m):
            if w.is_melee or (weapons is not None and w.name not in weapons and w.weapon not in weapons):
                continue
            if Hook.ONCE_PER_BATTLE in w.effects:
                k = fired.get(w.name, 0)
                fired[w.name] = k + 1
                if f"{mid}:{w.name}:{k}" in used:
                    continue
            facts, _ = target_facts(battle, unit_ent, m, w, target, SH.SNAP, cache)
            if SH.ranged_target_problem(facts) is None:
                usable.append(w)
        if not W.is_monster_or_vehicle(m):
            kinds = {Hook.CLOSE_QUARTERS in w.effects for w in usable}
            if len(kinds) > 1:
                usable = [w for w in usable if Hook.CLOSE_QUARTERS not in w.effects]
        # 04.01.03 the first usable profile of each multi-profile weapon
        yield [Selection(mid, w.name, tid) for w in MP.default_profiles(usable)]
