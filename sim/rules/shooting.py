"""10.04-10.07 and 15.09 shooting types, 24.07 the [CLOSE-QUARTERS] per-model choice, 04.02
target legality for ranged attacks (with 10.06, 17.03 and 15.09) and the hit-roll rules they
bring.

15.09 snap shooting is a shooting type like the others, with one difference: no unit picks it
when selected to shoot in its Shooting phase (10.02 step 2); a rule grants it (15.08 Fire
Overwatch), and a unit granted it shoots with it and nothing else. Its rules all live here:
eligibility (granted), targets (one visible enemy unit within 24" of the unit, an eligible
target, and 17.03 does not apply out of phase, 07.02.01) and the hit roll (an unmodified 6,
BS and every modifier ignored, not a critical hit, no re-roll)."""

from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Mapping, NamedTuple, Sequence

from sim.rules.abilities import Hook, tag, with_hook
from sim.rules.attack import FAIL, SUCCESS
from sim.rules.geometry import within_distance

# the abilities these rules name in their reasons, as datasheets print them
_ASSAULT_TAG = tag(Hook.SHOOTS_AFTER_ADVANCING)
_CQ_TAG = tag(Hook.CLOSE_QUARTERS)
_CQ_TAGS = "/".join(f"[{n}]" for n in (with_hook(Hook.CLOSE_QUARTERS).name, *with_hook(Hook.CLOSE_QUARTERS).aliases))
_INDIRECT_TAG = tag(Hook.INDIRECT)
_NOT_AT_ENGAGED_TAG = tag(Hook.NOT_AT_ENGAGED)

NORMAL = "normal"
ASSAULT = "assault"
CLOSE_QUARTERS = "close-quarters"
INDIRECT = "indirect"
SNAP = "snap"
# 10.02 step 2: the types a unit selected to shoot picks from
SHOOTING_TYPES = (NORMAL, ASSAULT, CLOSE_QUARTERS, INDIRECT)
# types only a rule grants ("eligible if: as stated in the rule allowing it"): 15.09
GRANTED_TYPES = (SNAP,)
DEFAULT_PREFERENCE = (NORMAL, CLOSE_QUARTERS, ASSAULT, INDIRECT)
SNAP_RANGE = 24.0  # 15.09 the one target is within 24" of the shooting unit
HEAVY_MOVE = 3.0  # 24.16 [HEAVY]: no model of the unit has moved more than 3" this turn


class ShooterFacts(NamedTuple):
    """What eligibility for a shooting type depends on (10.02, 10.04-10.07). (Immutable facts
    records are named tuples: made for every plan, and far cheaper to build than a frozen
    dataclass.)"""

    engaged: bool
    advanced: bool
    fell_back: bool
    has_assault: bool  # a model carries an [ASSAULT] weapon
    has_close_quarters: bool  # a model carries a [CLOSE-QUARTERS]/[PISTOL] weapon
    monster_or_vehicle: bool  # the unit is a MONSTER/VEHICLE unit (any model, 02.05.01)
    has_indirect: bool  # a model carries an [INDIRECT FIRE] weapon
    snap_granted: bool = False  # 15.09 a rule (15.08 Fire Overwatch) lets it shoot with snap shooting
    # a rule lets it shoot in a turn it advanced / fell back (sim.rules.effects.eligibility)
    advance_lifted: bool = False
    fall_back_lifted: bool = False


_SNAP_ONLY = "a rule lets it shoot with snap shooting, and only that (15.08, 15.09)"


@functools.lru_cache(maxsize=256)
def shooting_type_eligibility(f: ShooterFacts) -> Mapping[str, str | None]:
    """10.04-10.07 For each shooting type, None if the unit qualifies, else the reason it does
    not. 09.07: a unit that fell back is not eligible to shoot at all. (A rule may lift either bar:
    ``advance_lifted`` / ``fall_back_lifted``, sim.rules.effects.eligibility.) 15.09: snap shooting is
    in the answer only for a unit a rule grants it to, and such a unit qualifies for it alone
    (15.08: "that unit shoots using snap shooting"). (Read-only: the answer for equal facts is
    shared.)"""
    types = SHOOTING_TYPES + GRANTED_TYPES if f.snap_granted else SHOOTING_TYPES
    if f.fell_back and not f.fall_back_lifted:
        reason = "fell back this turn (09.07): not eligible to shoot"
        return MappingProxyType({t: reason for t in types})
    if f.snap_granted:
        out = {t: _SNAP_ONLY for t in SHOOTING_TYPES}
        out[SNAP] = None
        return MappingProxyType(out)
    out: dict[str, str | None] = {}
    barred = f.advanced and not f.advance_lifted  # (a rule may lift the bar advancing puts on 10.04/10.06/10.07)
    # 10.04 normal: unengaged, did not advance
    out[NORMAL] = ("engaged (10.04 needs an unengaged unit)" if f.engaged
                   else "advanced this turn (10.04)" if barred else None)
    # 10.05 assault: unengaged, advanced, has an [ASSAULT] weapon
    out[ASSAULT] = ("engaged (10.05 needs an unengaged unit)" if f.engaged
                    else "did not advance this turn (10.05)" if not f.advanced
                    else f"no {_ASSAULT_TAG} weapon (10.05)" if not f.has_assault else None)
    # 10.06 close-quarters: engaged, did not advance, CQ weapon or MONSTER/VEHICLE
    out[CLOSE_QUARTERS] = ("not engaged (10.06 needs an engaged unit)" if not f.engaged
                           else "advanced this turn (10.06)" if barred
                           else f"no {_CQ_TAGS} weapon and not MONSTER/VEHICLE (10.06)"
                           if not (f.has_close_quarters or f.monster_or_vehicle) else None)
    # 10.07 indirect: unengaged, did not advance, has an [INDIRECT FIRE] weapon
    out[INDIRECT] = ("engaged (10.07 needs an unengaged unit)" if f.engaged
                     else "advanced this turn (10.07)" if barred
                     else f"no {_INDIRECT_TAG} weapon (10.07)" if not f.has_indirect else None)
    return MappingProxyType(out)


def default_shooting_type(eligibility: dict[str, str | None]) -> str | None:
    """10.02 step 2, the project's default choice: normal if eligible, else close-quarters,
    else assault, else indirect; None if the unit qualifies for none. A unit granted snap
    shooting uses it (15.09)."""
    if SNAP in eligibility:
        return SNAP if eligibility[SNAP] is None else None
    for t in DEFAULT_PREFERENCE:
        if eligibility.get(t) is None:
            return t
    return None


def not_granted(shooting_type: str) -> str:
    """15.09 Why a unit cannot use a type only a rule grants, when none has granted it."""
    return (f"{shooting_type} shooting is only for a unit a rule lets use it (15.09: Fire "
            f"Overwatch, 15.08)")


def snap_target_problem(targets: Sequence[str], gap: float | None, visible_to_unit: bool) -> str | None:
    """15.09 Snap shooting's target, for the whole unit: only one enemy unit (``targets``: the
    ids of the units its weapons aim at), visible to the unit (06.01.01) and within 24" of it
    (``gap``: the closest distance between the two units). Each weapon's own 04.02 checks
    (visible to its model, within its range, an eligible target: ranged_target_problem) come
    on top."""
    distinct = sorted(set(targets))
    if len(distinct) > 1:
        return f"snap shooting targets only one enemy unit, not {len(distinct)} ({', '.join(distinct)}) (15.09)"
    if not distinct:
        return None
    if not visible_to_unit:
        return f"snap shooting targets only a visible enemy unit: {distinct[0]} is not visible to the unit (15.09)"
    if gap is None or not within_distance(gap, SNAP_RANGE):
        far = "" if gap is None else f" ({gap:.2f}\")"
        return f"snap shooting targets only an enemy unit within 24\" of the unit: {distinct[0]} is not{far} (15.09)"
    return None


def heavy_stationary(engaged: bool, set_up_this_turn: bool, moved: float) -> bool:
    """24.16 [HEAVY]'s condition on the attacking unit (the registry's "stationary"): it is
    unengaged, was not set up on the battlefield this turn, and no model of it has moved more
    than 3" this turn (``moved``: the furthest any of its models has moved in total, each
    model's paths summed; not more than 3" up to the measuring tolerance, 01.04.01). The +1 to
    the hit roll it gives in the unit's Shooting phase is the ability registry's PlanModifier."""
    return not engaged and not set_up_this_turn and bool(within_distance(moved, HEAVY_MOVE))


def snap_hit_result(unmodified: int) -> int:
    """15.09 A hit roll under snap shooting: only an unmodified 6 hits, whatever the BS and
    every modifier; that hit is not a critical hit (so [LETHAL HITS] and [SUSTAINED HITS]
    never trigger). (A [TORRENT] attack makes no hit roll, 24.37: README, our rulings.)"""
    return SUCCESS if unmodified == 6 else FAIL


def weapon_facts(weapon) -> tuple[str, bool, bool, bool]:
    """What weapon_selection_problem needs of a weapon profile: (name, close-quarters, may fire
    after advancing, melee), from its abilities' hooks (24.07, 24.04)."""
    effects = weapon.effects
    return (weapon.name, Hook.CLOSE_QUARTERS in effects, Hook.SHOOTS_AFTER_ADVANCING in effects,
            weapon.is_melee)


def weapon_selection_problem(shooting_type: str, model_monster_or_vehicle: bool,
                             weapons: Sequence[tuple[str, bool, bool, bool]]) -> str | None:
    """04.01 + 24.07 + 10.05/10.06: why one model's ranged weapon selection is illegal, or None.

    ``weapons`` holds (name, is_close_quarters, is_assault, is_melee) per selected weapon.
    Melee weapons cannot shoot. Under assault shooting only [ASSAULT] weapons (10.05). Under
    close-quarters shooting non-MONSTER/VEHICLE models use only [CLOSE-QUARTERS] weapons
    (10.06). Under any other type a non-MONSTER/VEHICLE model picks its [CLOSE-QUARTERS]
    weapons or its other ranged weapons, never both (24.07); MONSTER/VEHICLE models are exempt.
    """
    for name, _cq, _assault, melee in weapons:
        if melee:
            return f"{name} is a melee weapon and cannot make ranged attacks (04.01)"
    if shooting_type == ASSAULT:
        for name, _cq, assault, _m in weapons:
            if not assault:
                return f"{name} has no {_ASSAULT_TAG}: assault shooting fires only {_ASSAULT_TAG} weapons (10.05)"
    if model_monster_or_vehicle:
        return None
    if shooting_type == CLOSE_QUARTERS:
        for name, cq, _a, _m in weapons:
            if not cq:
                return (f"{name} is not {_CQ_TAG}: in close-quarters shooting only "
                        f"MONSTER/VEHICLE models fire other weapons (10.06)")
        return None
    kinds = {cq for _n, cq, _a, _m in weapons}
    if len(kinds) > 1:
        cq = [n for n, c, _a, _m in weapons if c]
        other = [n for n, c, _a, _m in weapons if not c]
        return (f"a model picks either its {_CQ_TAG} weapons ({', '.join(cq)}) or its other "
                f"ranged weapons ({', '.join(other)}), never both (24.07)")
    return None


class RangedTargetFacts(NamedTuple):
    """What 04.02 target legality for one weapon of one model depends on."""

    shooting_type: str
    weapon_close_quarters: bool
    weapon_blast: bool
    weapon_indirect: bool
    model_monster_or_vehicle: bool
    visible: bool  # the target unit is visible to the model (06.01 + 13.09/13.10/24.24)
    in_range: bool  # some model of the target within the weapon's range, edge to edge
    target_engaged: bool  # the target unit is engaged with any unit
    target_engaged_with_shooter: bool  # ... with the shooting unit
    target_monster_or_vehicle: bool
    lone_operative_beyond: bool = False  # 24.24: LO target beyond its X" of this model


def ranged_target_problem(f: RangedTargetFacts) -> str | None:
    """04.02 Select Targets for a ranged weapon: why the target is illegal, or None.

    Visible (10.07 lets [INDIRECT FIRE] ignore this under indirect shooting, not Lone
    Operative range, 24.24), within range, and unengaged unless 10.06 (close-quarters shooting:
    units engaged with the shooter; non-MONSTER/VEHICLE models fire only [CLOSE-QUARTERS]
    weapons and only at those units; [BLAST] never at a unit engaged with the shooter) or 17.03
    (engaged enemy MONSTER/VEHICLE units, never with [BLAST]) applies."""
    indirect = f.shooting_type == INDIRECT and f.weapon_indirect
    if f.lone_operative_beyond and (indirect or not f.visible):
        return "Lone Operative: not visible and not targetable beyond its range (24.24)"
    if not f.visible and not indirect:
        return "not visible to this model (06.01)"
    if not f.in_range:
        return "out of range (04.02)"
    if f.shooting_type == SNAP and f.target_engaged:
        # 17.03 is "in your Shooting phase": out of phase it does not apply (07.02.01)
        return "engaged: snap shooting needs an unengaged target (04.02; 17.03 is for your Shooting phase, 07.02.01)"
    cq_shooting = f.shooting_type == CLOSE_QUARTERS
    if cq_shooting and not f.model_monster_or_vehicle:
        if not f.target_engaged_with_shooter:
            return ("close-quarters shooting: non-MONSTER/VEHICLE models fire only at units "
                    "engaged with their unit (10.06)")
    if f.weapon_blast and f.target_engaged_with_shooter:
        return f"{_NOT_AT_ENGAGED_TAG} weapons never target a unit engaged with the shooting unit (10.06)"
    if f.target_engaged:
        if cq_shooting and f.target_engaged_with_shooter:
            return None
        if f.target_monster_or_vehicle:
            if f.weapon_blast:
                return f"{_NOT_AT_ENGAGED_TAG} weapons cannot target an engaged MONSTER/VEHICLE unit (17.03)"
            return None
        return "engaged: ranged attacks need an unengaged target (04.02)"
    return None


@functools.lru_cache(maxsize=1024)
def ranged_target_answer(f: RangedTargetFacts) -> tuple[str | None, tuple[tuple[str, int], ...] | None]:
    """04.02 with 10.06/17.03 for one weapon of one model: (why the target is illegal, None)
    or (None, the hit-roll modifiers). (Read-only: the answer for equal facts is shared.)"""
    problem = ranged_target_problem(f)
    return (problem, None) if problem else (None, ranged_hit_modifiers(f))


def ranged_hit_modifiers(f: RangedTargetFacts) -> tuple[tuple[str, int], ...]:
    """10.06 and 17.03 hit-roll modifiers for one weapon of one model at a legal target:
    MONSTER/VEHICLE models shooting close-quarters take -1 unless the attack is a
    [CLOSE-QUARTERS] weapon at a unit engaged with theirs; attacks at an engaged enemy
    MONSTER/VEHICLE unit take -1 unless made with a [CLOSE-QUARTERS] weapon by a model whose
    unit is engaged with that target. Both come from the same engagement, so a MONSTER/VEHICLE
    shooting an engaged MONSTER/VEHICLE takes each at most once; the net clamp is applied later."""
    mods: list[tuple[str, int]] = []
    cq_exempt = f.weapon_close_quarters and f.target_engaged_with_shooter
    if f.shooting_type == CLOSE_QUARTERS and f.model_monster_or_vehicle and not cq_exempt:
        mods.append(("close-quarters shooting (10.06)", -1))
    if f.target_engaged and f.target_monster_or_vehicle and not cq_exempt:
        mods.append(("engaged MONSTER/VEHICLE target (17.03)", -1))
    return tuple(mods)
