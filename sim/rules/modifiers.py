"""02.02.01 Modifiers a scenario gives a unit or a model (README, ``modifiers``): which of them an
attack or a saving throw takes, and in which of the attack's modifier lists they go.

Hit- and wound-roll modifiers join the attack's other roll modifiers and are netted and
clamped to +-1 with them when the attack is keyed (sim.rules.pools.effective_key); BS and WS
modifiers change the characteristic (clamped to 2+..6+ there too), BS for ranged attacks and
WS for melee ones; a psychic attack may ignore the BS/WS and hit ones (24.29). Save-roll
modifiers change the result of the saving throws a model makes (sim.rules.attack.save_fails):
02.02.01 clamps the net modifier of hit and wound rolls only, so theirs is not clamped."""

from __future__ import annotations

from dataclasses import dataclass

ROLLS = ("hit", "wound", "save", "BS", "WS")
MELEE, RANGED = "melee", "ranged"


@dataclass(frozen=True, slots=True)
class RollModifier:
    """One modifier: ``roll`` (hit, wound, save, BS or WS), its ``value`` (+1 improves: +1 to
    hit, +1 BS turns 4+ into 3+), the ``source`` it is listed under, and ``against``: None
    (every attack or saving throw), "melee", "ranged", or the id of the enemy unit it applies
    against (the target of the attack; for a save, the attacking unit)."""

    roll: str
    value: int
    source: str
    against: str | None = None


def applies(mod: RollModifier, melee: bool, other_unit: str) -> bool:
    """Does ``mod`` apply to an attack (or a saving throw against an attack) that is ``melee``
    or not, made at (or by) the unit ``other_unit``."""
    a = mod.against
    if a is None:
        return True
    if a == MELEE:
        return melee
    if a == RANGED:
        return not melee
    return a == other_unit


def attack_modifiers(mods, melee: bool, target_unit: str) -> tuple[tuple, tuple, tuple]:
    """02.02.01 The (source, value) modifiers an attack takes from its model's ``mods``, as
    (hit-roll, BS/WS characteristic, wound-roll) tuples: BS ones for a ranged attack, WS ones
    for a melee attack; save ones never (the target's models take those)."""
    hit, skill, wound = [], [], []
    skill_roll = "WS" if melee else "BS"
    for m in mods:
        if not applies(m, melee, target_unit):
            continue
        if m.roll == "hit":
            hit.append((m.source, m.value))
        elif m.roll == "wound":
            wound.append((m.source, m.value))
        elif m.roll == skill_roll:
            skill.append((m.source, m.value))
    return tuple(hit), tuple(skill), tuple(wound)


def save_modifier(mods, melee: bool, attacker_unit: str) -> int:
    """02.02.01 The net modifier to the save rolls a model with ``mods`` makes against an attack
    that is ``melee`` or not, by the unit ``attacker_unit``: the sum of its save modifiers that
    apply (not clamped: 02.02.01 clamps hit and wound rolls; an unmodified 1 still fails,
    05.04)."""
    total = 0
    for m in mods:
        if m.roll == "save" and applies(m, melee, attacker_unit):
            total += m.value
    return total
