"""04.03 Resolve Attacks: gathering identical attacks into pools of attack dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sim.rules.attack import clamp_roll_modifier, clamp_skill
from sim.rules.dice import DiceExpr

# Abilities that only matter before attacks are gathered (weapon/target selection, extra dice),
# so they never make two otherwise identical attacks different once gathered.
SELECTION_ONLY = frozenset({"ASSAULT", "CLOSE-QUARTERS", "INDIRECT FIRE", "HEAVY", "BLAST",
                            "RAPID FIRE", "MELTA", "CLEAVE", "ONE SHOT", "EXTRA ATTACKS",
                            "HAZARDOUS", "IGNORES COVER"})


class AttackKey(NamedTuple):
    """04.03 Identical attacks: same BS/WS, S, AP and D, the same applicable abilities, and the
    same modifiers (benefit of cover per attacking model is pooled separately, 04.03 FAQ).
    (A named tuple: immutable and hashable like a frozen dataclass, and a third of the cost to
    build, which every activation pays.)"""

    skill: int
    S: int
    AP: int
    D: DiceExpr
    abilities: tuple  # applicable, sorted by label
    hit_mod: int
    wound_mod: int
    psychic_ignored: tuple = ()
    fail_below: int = 0  # 10.07 indirect shooting


@dataclass(slots=True)
class PoolSpec:
    """A gathered pool: the declared attacks it holds, in declaration order."""

    target: int
    key: AttackKey
    members: list[int] = field(default_factory=list)  # indices into the declared list


def effective_key(skill: int, skill_mods, S: int, AP: int, D: DiceExpr, abilities,
                  hit_mods, wound_mods=(), ignored=(), fail_below: int = 0) -> AttackKey:
    """The identity of an attack after its modifiers: BS/WS modifiers applied and clamped to
    2+..6+ (02.02.01; worsening BS raises the number), hit/wound modifiers netted and clamped
    to +-1, and modifiers a [PSYCHIC] attack ignores (24.29) left out."""
    eff_skill = clamp_skill(skill - sum(v for s, v in skill_mods if s not in ignored) if skill_mods else skill)
    hit = clamp_roll_modifier(sum(v for s, v in hit_mods if s not in ignored)) if hit_mods else 0
    wound = clamp_roll_modifier(sum(v for _s, v in wound_mods)) if wound_mods else 0
    abil = tuple(sorted((a for a in abilities if a.name not in SELECTION_ONLY),
                        key=_label)) if abilities else ()
    return AttackKey(eff_skill, S, AP, D, abil, hit, wound, tuple(sorted(ignored)) if ignored else (),
                     fail_below)


def _label(ability) -> str:
    return ability.label()


def gather(keys: list[tuple[int | None, AttackKey]]) -> list[PoolSpec]:
    """04.03 steps 1-4 over declared attacks given as (target, key) in declaration order:
    targets in the order first declared; for each, pools of identical attacks in the order
    their first weapon was declared. Declarations without a target make no attacks."""
    pools: list[PoolSpec] = []
    index: dict[tuple[int, AttackKey], PoolSpec] = {}
    # the same key object again (the usual case) is found by identity, without hashing its
    # fields; ``keys`` holds every key object meanwhile, so an id is never reused
    by_id: dict[tuple[int, int], PoolSpec] = {}
    targets: list[int] = []
    p = last = None  # the last pool and its (target, key)
    for i, tk in enumerate(keys):
        if tk is last:  # (the usual case: the very pair of the last attack, so its pool)
            p.members.append(i)
            continue
        target, key = tk
        if target is None:
            continue
        if last is not None and key is last[1] and target == last[0]:
            p.members.append(i)  # (the same pool as the last attack)
            continue
        last = tk
        p = by_id.get((target, id(key)))
        if p is None:
            if target not in targets:
                targets.append(target)
            p = index.get((target, key))
            if p is None:
                p = index[(target, key)] = PoolSpec(target, key)
                pools.append(p)
            by_id[(target, id(key))] = p
        p.members.append(i)
    if len(targets) == 1:
        return pools
    order = {t: n for n, t in enumerate(targets)}
    return sorted(pools, key=lambda p: order[p.target])  # stable: keeps declaration order
