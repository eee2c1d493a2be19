"""06.02 Mortal wounds and 06.03 hazard rolls."""

from __future__ import annotations

from typing import Sequence

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


def allocate_mortal_wounds(count: int, models: Sequence[TargetModel],
                           remaining: dict[str, int]) -> list[tuple[str, int]]:
    """06.02 Resolve mortal wounds one at a time until all are resolved or the unit is
    destroyed: each goes to the model 06.02 selects and removes 1 wound. Mutates
    ``remaining`` and returns [(model id, wounds lost)] in order, merged per consecutive model."""
    out: list[tuple[str, int]] = []
    for _ in range(count):
        target = mortal_wound_target(models, remaining)
        if target is None:
            break
        remaining[target] -= 1
        if out and out[-1][0] == target:
            out[-1] = (target, out[-1][1] + 1)
        else:
            out.append((target, 1))
    return out


def hazard_failures(rolls: Sequence[int]) -> int:
    """06.03 Hazard roll: each result of 1-2 fails."""
    return sum(1 for r in rolls if r <= 2)


def hazard_mortal_wounds(failures: int, every_model_monster_or_vehicle: bool) -> int:
    """06.03 Each failed hazard roll inflicts 1 mortal wound on the unit, or 3 if every model in
    the unit is MONSTER or VEHICLE (a mixed unit takes 1, 06.03 FAQ)."""
    return failures * (3 if every_model_monster_or_vehicle else 1)
