"""04.03 Resolve Attacks: the identity of an attack (its key) and gathering identical attacks
into pools of attack dice."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

from sim.rules.abilities import Hook
from sim.rules.attack import clamp_roll_modifier, clamp_skill
from sim.rules.dice import DiceExpr


class AttackKey(NamedTuple):
    """04.03 Identical attacks: same BS/WS, S, AP and D, the same applicable abilities, and the
    same modifiers (benefit of cover per attacking model is pooled separately, 04.03 FAQ).
    (A named tuple: immutable and hashable, cheap to build, and hashed at C speed when its
    abilities are: gathering hashes every declared attack's key.)"""

    skill: int
    S: int
    AP: int
    D: DiceExpr
    abilities: tuple  # applicable and not selection-only (registry), sorted by label
    hit_mod: int
    wound_mod: int
    psychic_ignored: tuple = ()
    fail_below: int = 0  # 10.07 indirect shooting
    snap: bool = False  # 15.09 snap shooting: only an unmodified 6 hits, never critical


@dataclass(slots=True)
class PoolSpec:
    """A gathered pool: the declared attacks it holds, in declaration order."""

    target: int
    key: AttackKey
    members: list[int] = field(default_factory=list)  # indices into the declared list


def apply_pool_effects(abilities, p, ask) -> bool:
    """24 What a pool's abilities do in the attack sequence: each registry record's ``pool``
    effect onto the pool state ``p``, after the answer to the record's ``choice`` where the
    abilities make it worth asking (``ask(choice)``: the answer, or None while it is pending,
    which stops here and returns False; a later call starts again); otherwise the choice's
    ``otherwise``. The battle asks its player; the odds engine reads the script's answer.
    The hooks of the abilities that act (all but those whose choice was answered ``off``) are
    kept in ``p.acting``."""
    acting = p.acting
    for a in abilities:
        effect = a.spec.pool
        if effect is None:
            continue
        choice, answer = a.spec.choice, None
        if choice is not None:
            answer = choice.otherwise
            if choice.when(abilities):
                answer = ask(choice)
                if answer is None:
                    return False
        effect(a, p, answer)
        if choice is None or answer != choice.off:
            acting = acting | a.spec.effects
    p.acting = acting
    return True


def applying(abilities, target_keywords, has_character: bool) -> tuple:
    """24.01 conditions and each ability's own test (its registry record's ``applies``: 24.03
    [ANTI]'s keyword, the 04.03 FAQ on [PRECISION] against a unit with no CHARACTER): the
    abilities that apply against a target unit with these keywords."""
    if not abilities:
        return ()
    out = []
    for a in abilities:
        if not a.applies_to(target_keywords):
            continue
        test = a.spec.applies
        if test is not None and not test(a, target_keywords, has_character):
            continue
        out.append(a)
    return tuple(out)


def effective_key(skill: int, skill_mods, S: int, AP: int, D: DiceExpr, abilities,
                  hit_mods, wound_mods=(), ignored=(), fail_below: int = 0, snap: bool = False) -> AttackKey:
    """The identity of an attack after its modifiers: BS/WS modifiers applied and clamped to
    2+..6+ (02.02.01; worsening BS raises the number), hit/wound modifiers netted and clamped
    to +-1, and modifiers a [PSYCHIC] attack ignores (24.29) left out. Abilities that act only
    before attacks are gathered (the registry's ``selection_only``) take no part in it. Under
    15.09 snap shooting the BS and every BS or hit-roll modifier are ignored: they take no
    part in it either (so snap attacks that differ only in them pool together)."""
    if snap:
        skill_mods = hit_mods = ()
    eff_skill = clamp_skill(skill - sum(v for s, v in skill_mods if s not in ignored) if skill_mods else skill)
    hit = clamp_roll_modifier(sum(v for s, v in hit_mods if s not in ignored)) if hit_mods else 0
    wound = clamp_roll_modifier(sum(v for _s, v in wound_mods)) if wound_mods else 0
    abil = tuple(sorted((a for a in abilities if not a.spec.selection_only),
                        key=_label)) if abilities else ()
    return AttackKey(eff_skill, S, AP, D, abil, hit, wound, tuple(sorted(ignored)) if ignored else (),
                     fail_below, snap)


@functools.lru_cache(maxsize=4096)
def attack_key(weapon, applying_abilities, half_range: bool, skill_mods=(), hit_mods=(), wound_mods=(),
               ignored=(), fail_below: int = 0, snap: bool = False) -> AttackKey:
    """04.03 The key of one declared attack: its weapon's profile with the damage its applying
    abilities add (the registry's ``extra_damage``: 24.25 within half range) and its modifiers
    (effective_key). (Its answer for equal arguments is kept: plans ask it again for every
    fresh target.)"""
    D = weapon.D
    if Hook.ADDS_DAMAGE in weapon.effects:
        for a in applying_abilities:
            extra = a.spec.extra_damage
            if extra is not None:
                bonus = extra(a, half_range)
                if bonus:
                    D = D.plus(bonus)
    return effective_key(weapon.skill, skill_mods, weapon.S, weapon.AP, D, applying_abilities, hit_mods,
                         wound_mods, ignored, fail_below, snap)


def _label(ability) -> str:
    return ability.label()


def gather(keys: list[tuple[int | None, AttackKey]]) -> list[PoolSpec]:
    """04.03 steps 1-4 over declared attacks given as (target, key) in declaration order:
    targets in the order first declared; for each, pools of identical attacks in the order
    their first weapon was declared. Declarations without a target make no attacks."""
    pools: dict[tuple[int, AttackKey], PoolSpec] = {}
    targets: dict[int, int] = {}  # target -> the order it was first declared in
    last_target = last_key = p = None  # (the pool of the declaration before: a run of alike
    # models shares its key object, so the next one joins it without hashing the key again)
    for i, (target, key) in enumerate(keys):
        if key is last_key and target == last_target and p is not None:
            p.members.append(i)
            continue
        tk = (target, key)
        p = pools.get(tk)
        if p is None:
            if target is None:
                continue
            p = pools[tk] = PoolSpec(target, key)
            targets.setdefault(target, len(targets))
        last_target, last_key = target, key
        p.members.append(i)
    if len(targets) < 2:
        return list(pools.values())
    return sorted(pools.values(), key=lambda p: targets[p.target])  # stable: keeps declaration order
