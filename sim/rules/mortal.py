"""06.02 Mortal wounds and 06.03 hazard rolls."""

from __future__ import annotations

from typing import Sequence

from sim.rules.abilities import Hook
from sim.rules.allocation import TargetModel


def mortal_wound_target(models: Sequence[TargetModel], remaining: dict[str, int]) -> str | None:
    """06.02 step 1 Select model, first that applies: a non-CHARACTER model that has lost wounds;
    any non-CHARACTER model; a CHARACTER model that has lost wounds; any CHARACTER model.
    Ties go to the unit's listed order."""
    best = None
    best_rank = 9
    for m in models:
        r = remaining[m.id]
        if r <= 0:
            continue
        rank = (2 if m.character else 0) + (0 if r < m.W else 1)
        if rank < best_rank:
            best, best_rank = m.id, rank
            if rank == 0:
                break
    return best


def resolve_mortal_wounds(count: int, models: Sequence[TargetModel], remaining: dict[str, int],
                          fnp: dict[str, int] | None = None, dice=None) -> list[dict]:
    """06.02 Resolve mortal wounds one at a time until all are resolved or the unit is
    destroyed: each goes to the model 06.02 selects and removes 1 wound, unless that model's
    Feel No Pain X+ (24.12, ``fnp`` by model id, rolled with ``dice``) saves it. Mutates
    ``remaining``; returns one record per mortal wound: model, lost (0 or 1), fnp rolls,
    destroyed."""
    steps: list[dict] = []
    for _ in range(count):
        target = mortal_wound_target(models, remaining)
        if target is None:
            break
        rec = {"model": target, "lost": 1}
        if fnp and fnp.get(target):
            (roll,) = dice.d6(1, "feel no pain (mortal wound)")
            rec["fnp"] = [roll]
            if roll >= fnp[target]:
                rec["lost"] = 0
        remaining[target] -= rec["lost"]
        rec["destroyed"] = remaining[target] <= 0
        steps.append(rec)
    return steps


def hazard_failures(rolls: Sequence[int]) -> int:
    """06.03 Hazard roll: each result of 1-2 fails."""
    return sum(1 for r in rolls if r <= 2)


def hazard_failed(rolls: Sequence[int]) -> list[int]:
    """06.03 The indices of the failed hazard rolls (1-2): those a re-roll could pass (15.02)."""
    return [i for i, r in enumerate(rolls) if r <= 2]


def hazard_mortal_wounds(failures: int, every_model_monster_or_vehicle: bool) -> int:
    """06.03 Each failed hazard roll inflicts 1 mortal wound on the unit, or 3 if every model in
    the unit is MONSTER or VEHICLE (a mixed unit takes 1, 06.03 FAQ)."""
    return failures * (3 if every_model_monster_or_vehicle else 1)


def hazardous_count(declared) -> int:
    """24.15 One hazard roll per [HAZARDOUS] weapon selected in Select Weapons, per model per
    weapon, even if it found no target (Part A ruling 5). A melee weapon whose attacks are split
    between targets is declared once per target but is still one weapon."""
    seen: set[tuple[int, str]] = set()
    n = 0
    for d in declared:
        if Hook.HAZARD_ROLL not in d.weapon.effects:  # (WeaponProfile.has, inline: it runs per weapon)
            continue
        if d.split:
            if (d.model, d.weapon.name) in seen:
                continue
            seen.add((d.model, d.weapon.name))
        n += 1
    return n
