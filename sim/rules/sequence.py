"""05 The attack sequence for one pool of attack dice: 05.01 hit rolls, 05.02 wound rolls,
05.03 save rolls, 05.04 inflict damage and 06.02 mortal wounds, with the weapon abilities
that act inside it (24.03 ANTI, 24.10 DEVASTATING WOUNDS, 24.23 LETHAL HITS, 24.36 SUSTAINED
HITS, 24.37 TORRENT, 24.38 TWIN-LINKED, 24.12 Feel No Pain, and the project's re-roll
abilities, 01.05.02, of 1s or of failed rolls), and the Damage a rule takes off each attack
allocated to a model (sim.rules.effects.attack.damage_after).

Each step is a function of the pool's state, the battle's dice and the target's wounds; it
returns a JSON-safe record of what happened. No esper, no pygame."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

from sim.rules.abilities import Hook
from sim.rules.allocation import Group, TargetModel, first_group_with_models, select_model
from sim.rules.attack import CRITICAL, FAIL, hit_result, save_fails, saved_by_invulnerable, wound_result
from sim.rules.command_reroll import better_faces, critical_matters
from sim.rules.dice import Dice, DiceExpr
from sim.rules.effects.attack import damage_after
from sim.rules.mortal import mortal_wound_target
from sim.rules.shooting import snap_hit_result


@dataclass(slots=True)
class PoolState:
    """One pool of identical attacks at one target, and its results so far."""

    dice: int  # attack dice gathered
    skill: int  # BS/WS after characteristic modifiers (clamped 2+..6+)
    S: int | DiceExpr  # a DiceExpr: a random S, rolled for each wound roll (strengths)
    AP: int
    D: DiceExpr
    T: int  # the target's T for wound rolls (05.02.01)
    hit_mod: int = 0  # net hit-roll modifier (clamped when rolled)
    wound_mod: int = 0
    critical_wound_on: int = 6  # 24.03 ANTI lowers it against units with its keyword
    torrent: bool = False
    lethal: bool = False  # 24.23, and the attacker takes the auto-wound
    sustained: int | DiceExpr = 0
    devastating: bool = False
    twin_linked: bool = False
    reroll_hit_ones: bool = False  # 01.05.02: the re-roll-1s ability of hit rolls (registry)
    reroll_wound_ones: bool = False  # 01.05.02: the re-roll-1s ability of wound rolls (registry)
    reroll_hit_failed: bool = False  # 01.05.02: the re-roll-failed ability of hit rolls (registry)
    reroll_wound_failed: bool = False  # 01.05.02: the re-roll-failed ability of wound rolls ([TWIN-LINKED]'s)
    hit_fail_below: int = 0  # 10.07 indirect: unmodified results below this fail (6 or 4)
    snap: bool = False  # 15.09 snap shooting: only an unmodified 6 hits, not a critical hit
    # 01.05.02 the unmodified save results a rule acting on the target's models re-rolls, once
    # each (sim.rules.effects.attack.save_reroll_faces; set at the save step)
    save_reroll: frozenset = frozenset()
    # the hooks of the abilities acting in the pool (sim.rules.pools.apply_pool_effects): what a
    # critical result does more, for a Command Re-roll's offer (15.02)
    acting: frozenset = frozenset()
    # results
    hits: int = 0
    auto_wounds: int = 0  # LETHAL HITS: wound automatically, never critical (01.05.01)
    wounds: int = 0  # normal wounds that go to save rolls
    mortal_criticals: int = 0  # DEVASTATING WOUNDS critical wounds (each: mortal wounds = D)
    # 02.02.03 a random S: the S rolled for each wound roll, in the order of the rolls (None: S
    # is fixed)
    strengths: list[int] | None = None


@functools.lru_cache(maxsize=512)
def hit_faces(skill: int, modifier: int, fail_below: int, snap: bool = False) -> tuple:
    """The 05.01 result of each face 1..6 (index 0 unused): it depends on nothing else. Under
    15.09 snap shooting, the snap rule's result instead."""
    if snap:
        return (None,) + tuple(snap_hit_result(face) for face in range(1, 7))
    out = [None]
    for face in range(1, 7):
        res = hit_result(face, skill, modifier)
        if res and face < fail_below and res != CRITICAL:
            res = FAIL  # 10.07 indirect shooting
        out.append(res)
    return tuple(out)


@functools.lru_cache(maxsize=512)
def wound_faces(S: int, T: int, modifier: int, critical_on: int) -> tuple:
    """The 05.02 result of each face 1..6 (index 0 unused): it depends on nothing else."""
    return (None,) + tuple(wound_result(face, S, T, modifier, critical_on) for face in range(1, 7))


@functools.lru_cache(maxsize=512)
def save_faces(AP: int, Sv: int, InSv: int | None, modifier: int = 0) -> tuple:
    """The 05.04 step 2 check of each face 1..6 (index 0 unused): (the save fails, it was the
    invulnerable save that stopped the damage), with the model's net save-roll ``modifier``
    (02.02.01). It depends on nothing else."""
    return (None,) + tuple((save_fails(face, AP, Sv, InSv, modifier),
                            saved_by_invulnerable(face, AP, Sv, InSv, modifier))
                           for face in range(1, 7))


ONES = frozenset((1,))
NO_FACES: frozenset = frozenset()


def hit_reroll_faces(p: PoolState) -> frozenset:
    """01.05.02 The unmodified hit results the pool's abilities re-roll, once each, before any
    modifier: every failed one with the re-roll-failed ability of hit rolls (a 1 always fails,
    so it holds the 1s too), else the 1s with the re-roll-1s ability. None under 10.07
    indirect shooting or 15.09 snap shooting (no hit re-rolls), nor with [TORRENT] (no roll)."""
    if not (p.reroll_hit_ones or p.reroll_hit_failed) or p.torrent or p.snap or p.hit_fail_below:
        return NO_FACES
    if p.reroll_hit_failed:
        return _failed_hit_faces(p.skill, p.hit_mod)
    return ONES


@functools.lru_cache(maxsize=512)
def _failed_hit_faces(skill: int, modifier: int) -> frozenset:
    by_face = hit_faces(skill, modifier, 0)
    return frozenset(f for f in range(1, 7) if not by_face[f])


@functools.lru_cache(maxsize=512)
def _failed_wound_faces(S: int, T: int, modifier: int, critical_on: int) -> frozenset:
    by_face = wound_faces(S, T, modifier, critical_on)
    return frozenset(f for f in range(1, 7) if not by_face[f])


def wound_reroll_faces(p: PoolState, S: int | None = None) -> frozenset:
    """01.05.02 The unmodified wound results the pool's abilities re-roll, once each, before any
    modifier: every failed one with [TWIN-LINKED] (24.38; a 1 always fails, so it holds the
    1s too), else the 1s with the re-roll-1s ability of wound rolls. ``S``: the attack's S
    when the pool's is random (02.02.03, strength_rolled)."""
    if p.twin_linked or p.reroll_wound_failed:
        return _failed_wound_faces(p.S if S is None else S, p.T, p.wound_mod, p.critical_wound_on)
    return ONES if p.reroll_wound_ones else NO_FACES


def strength_rolled(S: DiceExpr, dice: Dice) -> int:
    """02.02.03 A random S (2D6, D6+6), rolled when it is needed: for each attack, as its wound
    roll is made (the project's reading: docs/rules-additions.md 02.02.03). A result below 1
    counts as 1 (02.02.01: S is never below 1)."""
    return max(1, S.roll(dice, "strength"))


def strength_text(S: int | DiceExpr) -> int | str:
    """A pool's S as the log writes it: the number, or a random S as its dice ("2D6")."""
    return S if isinstance(S, int) else str(S)


def _strengths(p: PoolState, dice: Dice) -> list[int] | None:
    """The S of each of the pool's wound rolls about to be made: rolled for each when the pool's
    S is random (kept in ``p.strengths``), else None."""
    if not isinstance(p.S, DiceExpr):
        return None
    p.strengths = [strength_rolled(p.S, dice) for _ in range(p.hits)]
    return p.strengths


def _faces_each(p: PoolState) -> list[tuple] | None:
    """The 05.02 table of each wound roll's faces when the pool's S is random (one table per
    roll, for the S rolled for it), else None (one table for all: wound_faces)."""
    if p.strengths is None:
        return None
    return [wound_faces(s, p.T, p.wound_mod, p.critical_wound_on) for s in p.strengths]


def roll_hits(p: PoolState, dice: Dice) -> dict:
    """05.01 Hit rolls for the whole pool at once. [TORRENT] hits automatically (no roll, never
    critical, 24.37). A critical hit with [SUSTAINED HITS X] scores X extra hits, which are
    not critical (24.36); with [LETHAL HITS] it wounds automatically (24.23). Under 10.07
    indirect shooting unmodified results below ``hit_fail_below`` fail; under 15.09 snap
    shooting only an unmodified 6 hits, and it is not critical. The abilities' re-rolls
    (hit_reroll_faces) are made before the rolls are judged (01.05.02)."""
    if p.torrent:
        p.hits = p.dice
        return {"rolls": [], "hits": p.hits, "criticals": 0, "auto": True}
    if p.reroll_hit_ones or p.reroll_hit_failed:
        rolls, rerolled = hit_dice(p, dice)
        return judge_hits(p, rolls, dice, rerolled)
    return judge_hits(p, dice.d6(p.dice, "hit rolls"), dice)


def hit_dice(p: PoolState, dice: Dice) -> tuple[list[int], dict[int, int] | None]:
    """05.01 The hit rolls, with the abilities' re-rolls of them made (hit_reroll_faces): the
    rolls, and the dice re-rolled (index -> the result re-rolled, 01.05.02: never re-rolled
    again), or None when the pool has no such re-roll."""
    rolls = list(dice.d6(p.dice, "hit rolls"))
    faces = hit_reroll_faces(p)
    if not faces:
        return rolls, None
    rerolled: dict[int, int] = {}
    again_for = [i for i, r in enumerate(rolls) if r in faces]
    if again_for:
        again = dice.d6(len(again_for), "hit re-rolls (failed)" if p.reroll_hit_failed else "hit re-rolls (1s)")
        for i, r in zip(again_for, again):
            rolls[i] = r
            rerolled[i] = r
    return rolls, rerolled


def hit_rerollable(p: PoolState, rolls, rerolled=(), failed_only: bool = False) -> list[int]:
    """01.05.02 / 15.02 The hit dice a re-roll could better (command_reroll.better_faces) and
    not re-rolled already (hit_dice: the re-roll-1s abilities): the failed ones (an unmodified
    6 always hits), and the non-critical hits when an ability acting in the pool does more with
    a critical hit (the registry's Hook.CRITICAL_HIT_EFFECT: 24.23, 24.36). None under 10.07
    indirect shooting or 15.09 snap shooting, which forbid hit re-rolls, nor with [TORRENT]
    (no roll). ``failed_only``: the failed ones alone (a player who is asked only about
    failed rolls, command_reroll.asked_dice)."""
    if p.torrent or p.snap or p.hit_fail_below:
        return []
    better = better_faces(hit_faces(p.skill, p.hit_mod, p.hit_fail_below, p.snap),
                          not failed_only and critical_matters(p.acting, Hook.CRITICAL_HIT_EFFECT))
    return [i for i, r in enumerate(rolls) if r in better and i not in (rerolled or ())]


def judge_hits(p: PoolState, rolls, dice: Dice, rerolled: dict[int, int] | None = None) -> dict:
    """05.01 The pool's hit ``rolls`` (rolled, and any re-rolls made) judged: hits, critical
    hits and what they trigger (the sustained hits' random X rolled now). ``rerolled``: the
    abilities' re-rolls (hit_dice; None when the pool has none)."""
    by_face = hit_faces(p.skill, p.hit_mod, p.hit_fail_below, p.snap)
    crits, normal = _tally(rolls, by_face)
    extra = 0
    if p.sustained and crits:
        x = p.sustained
        extra = sum(x.roll(dice, "sustained hits") for _ in range(crits)) if isinstance(x, DiceExpr) else x * crits
    if p.lethal:
        p.auto_wounds = crits
        p.hits = normal + extra
    else:
        p.hits = normal + crits + extra
    out = {"rolls": list(rolls), "hits": normal + crits + extra, "criticals": crits,
           "sustained": extra, "lethal": p.auto_wounds}
    if rerolled is not None:
        out["rerolled"] = list(rerolled.values())
    if p.snap:
        out["snap"] = True
    return out


def _tally(rolls, by_face: tuple) -> tuple[int, int]:
    """(critical, other successful) results among ``rolls`` judged by ``by_face`` (a face's
    result, index 1..6): a pool's dice counted face by face (list.count, at C speed) once there
    are more dice than faces."""
    crits = normal = 0
    if len(rolls) > 6:
        for face in (1, 2, 3, 4, 5, 6):
            res = by_face[face]
            if res:
                if res == CRITICAL:
                    crits += rolls.count(face)
                else:
                    normal += rolls.count(face)
        return crits, normal
    return _count([by_face[r] for r in rolls])


def _count(results) -> tuple[int, int]:
    """(critical, other successful) among the dice's ``results``, die by die."""
    crits = normal = 0
    for res in results:
        if res == CRITICAL:
            crits += 1
        elif res:
            normal += 1
    return crits, normal


def roll_wounds(p: PoolState, dice: Dice) -> dict:
    """05.02 Wound rolls, one per hit (LETHAL HITS auto-wounds roll none). [TWIN-LINKED] re-rolls
    every failed wound roll once, the re-roll-1s ability every 1, before modifiers (01.05.02,
    wound_reroll_faces); [ANTI] criticals are judged on the unmodified re-rolled result. A
    critical wound with [DEVASTATING WOUNDS] skips saves and becomes mortal wounds equal to D
    (24.10)."""
    if p.twin_linked or p.reroll_wound_ones or p.reroll_wound_failed or isinstance(p.S, DiceExpr):
        rolls, rerolled = wound_dice(p, dice)
        return judge_wounds(p, rolls, rerolled)
    return judge_wounds(p, list(dice.d6(p.hits, "wound rolls")) if p.hits else [], _NONE)


_NONE: dict[int, int] = {}  # (no die re-rolled: never written to)


def wound_dice(p: PoolState, dice: Dice) -> tuple[list[int], dict[int, int]]:
    """05.02 The wound rolls, with the abilities' re-rolls made (wound_reroll_faces: the failed
    ones with [TWIN-LINKED], the 1s with the re-roll-1s ability): the rolls, and the dice
    re-rolled (index -> the result re-rolled, 01.05.02: never re-rolled again). A random S is
    rolled for each first (02.02.03, strength_rolled) and kept for its re-roll."""
    strengths = _strengths(p, dice)
    rolls = list(dice.d6(p.hits, "wound rolls")) if p.hits else []
    rerolled: dict[int, int] = {}
    if strengths is None:
        faces = wound_reroll_faces(p) if rolls else NO_FACES
        fails = [i for i, r in enumerate(rolls) if r in faces] if faces else []
    elif p.twin_linked or p.reroll_wound_ones or p.reroll_wound_failed:
        fails = [i for i, r in enumerate(rolls) if r in wound_reroll_faces(p, strengths[i])]
    else:
        fails = []
    if fails:
        again = dice.d6(len(fails), "wound re-rolls (twin-linked)" if p.twin_linked else
                        "wound re-rolls (failed)" if p.reroll_wound_failed else "wound re-rolls (1s)")
        for i, r in zip(fails, again):
            rolls[i] = r
            rerolled[i] = r
    return rolls, rerolled


def wound_rerollable(p: PoolState, rolls, rerolled=(), failed_only: bool = False) -> list[int]:
    """01.05.02 / 15.02 The wound dice a re-roll could better (command_reroll.better_faces)
    and not re-rolled already (wound_dice: [TWIN-LINKED], re-roll 1s): the failed ones (an
    unmodified 6 always wounds), and the non-critical wounds when an ability acting in the
    pool does more with a critical wound (the registry's Hook.CRITICAL_WOUND_MORTALS: 24.10;
    [ANTI]'s lower threshold, 24.03, is in the faces). ``failed_only``: the failed ones alone."""
    crit = not failed_only and critical_matters(p.acting, Hook.CRITICAL_WOUND_MORTALS)
    each = _faces_each(p)
    if each is not None:  # (a random S: each die against the S rolled for it)
        return [i for i, r in enumerate(rolls) if r in better_faces(each[i], crit) and i not in rerolled]
    better = better_faces(wound_faces(p.S, p.T, p.wound_mod, p.critical_wound_on), crit)
    return [i for i, r in enumerate(rolls) if r in better and i not in rerolled]


def judge_wounds(p: PoolState, rolls: list[int], rerolled: dict[int, int]) -> dict:
    """05.02 The pool's wound ``rolls`` (re-rolls made) judged: wounds, critical wounds and
    the [DEVASTATING WOUNDS] ones. ``rerolled``: the abilities' re-rolls (wound_dice). With a
    random S each roll is judged against the S rolled for it (p.strengths, 02.02.03)."""
    each = _faces_each(p)
    if each is None:
        crits, normal = _tally(rolls, wound_faces(p.S, p.T, p.wound_mod, p.critical_wound_on))
    else:  # (a random S: each roll against its own table)
        crits, normal = _count([each[i][r] for i, r in enumerate(rolls)])
    if p.devastating:
        p.mortal_criticals = crits
        p.wounds = normal + p.auto_wounds
    else:
        p.wounds = normal + crits + p.auto_wounds
    out = {"rolls": rolls, "rerolled": list(rerolled.values()), "wounds": normal + crits + p.auto_wounds,
           "criticals": crits, "auto": p.auto_wounds, "devastating": p.mortal_criticals}
    if each is not None:
        out["strengths"] = list(p.strengths)
    return out


def roll_saves(p: PoolState, dice: Dice) -> list[int]:
    """05.03 step 3 Roll one save per wound, all at once (the re-rolls a rule gives made,
    save_dice); 05.04 takes them lowest first."""
    if not p.wounds:
        return []
    if p.save_reroll:
        return sorted(save_dice(p, dice)[0])
    return sorted(dice.d6(p.wounds, "save rolls"))


def save_dice(p: PoolState, dice: Dice) -> tuple[list[int], dict[int, int]]:
    """05.03 step 3 The save rolls, unsorted, with the re-rolls a rule acting on the target's
    models gives made (01.05.02: once each, before modifiers; ``p.save_reroll``: the faces
    re-rolled, sim.rules.effects.attack.save_reroll_faces): the rolls, and the dice re-rolled
    (index -> the result re-rolled)."""
    rolls = list(dice.d6(p.wounds, "save rolls")) if p.wounds else []
    rerolled: dict[int, int] = {}
    again_for = [i for i, r in enumerate(rolls) if r in p.save_reroll] if p.save_reroll else []
    if again_for:
        for i, r in zip(again_for, dice.d6(len(again_for), "save re-rolls")):
            rolls[i] = r
            rerolled[i] = r
    return rolls, rerolled


@dataclass(slots=True)
class DamageState:
    """The target's living state during 05.04, keyed by model id."""

    models: Sequence[TargetModel]
    remaining: dict[str, int]
    groups: Sequence[Group]
    order: Sequence[str]
    precision: str | None = None
    fnp: dict[str, int] = field(default_factory=dict)  # model id -> Feel No Pain X+
    W: dict[str, int] = field(default_factory=dict)
    # model id -> the modifier a rule gives the Damage of each attack allocated to it (a
    # "damage taken" effect, sim.rules.effects.attack.damage_after; absent: none)
    taken: dict[str, int] = field(default_factory=dict)

    def __post_init__(self):
        if not self.W:
            self.W = {m.id: m.W for m in self.models}

    def destroyed(self) -> bool:
        return not self.remaining or max(self.remaining.values()) <= 0


def lose(st: DamageState, model: str, amount: int, dice: Dice, what: str) -> tuple[int, list]:
    """05.04 step 3 / 24.12: the model loses ``amount`` wounds, each first offered to Feel No
    Pain; the excess over its remaining wounds is lost. Returns (lost, FNP rolls)."""
    fnp = st.fnp.get(model)
    rolls: list[int] = []
    if not fnp:
        lost = min(amount, st.remaining[model])
        st.remaining[model] -= lost
        return lost, rolls
    lost = 0
    for _ in range(amount):  # one wound at a time, until the model is destroyed
        if st.remaining[model] <= 0:
            break
        (r,) = dice.d6(1, f"feel no pain ({what})")
        rolls.append(r)
        if r < fnp:
            st.remaining[model] -= 1
            lost += 1
    return lost, rolls


def inflict_damage(p: PoolState, saves: Sequence[int], st: DamageState, dice: Dice,
                   Sv: dict[str, int], InSv: dict[str, int | None],
                   save_mod: dict[str, int] | None = None) -> list[dict]:
    """05.04 Inflict damage, save rolls lowest first: select a model in the current allocation
    group (a wounded one first), check the save (invulnerable row used automatically; with the
    model's net save-roll modifier from ``save_mod``, model id -> modifier, 02.02.01), roll
    random D after the model is chosen, lose wounds (excess lost); stop when the unit is
    destroyed (remaining attacks are lost). Then 06.02: the pool's DEVASTATING WOUNDS mortal
    wounds, after all normal damage, each critical wound's at most one model (24.10), to the
    [PRECISION] group first (Part A ruling 4). The rule is :func:`damage_steps`, driven here with
    no Command Re-roll (15.02) taken: one home for 05.04 with and without the stratagem."""
    steps = damage_steps(p, saves, st, dice, Sv, InSv, save_mod)
    try:
        while True:
            steps.send(None)  # (every damage roll stands)
    except StopIteration as done:
        return done.value


class DamageRoll(NamedTuple):
    """A random damage roll just made, that a re-roll could raise (15.02): the model it is for,
    the result of each of its dice, its expression and the model's remaining wounds (more
    damage than those changes nothing). ``mortal``: a [DEVASTATING WOUNDS] roll (24.10)."""

    model: str
    dice: tuple[int, ...]
    D: DiceExpr
    remaining: int
    mortal: bool = False


def damage_steps(p: PoolState, saves: Sequence[int], st: DamageState, dice: Dice,
                 Sv: dict[str, int], InSv: dict[str, int | None],
                 save_mod: dict[str, int] | None = None):
    """:func:`inflict_damage` as a generator, for a battle where a Command Re-roll may follow a
    damage roll (15.02): after each random damage roll whose total is below the model's
    remaining wounds it yields a :class:`DamageRoll` and takes back None (the roll stands) or
    the re-roll's record ``{"die": i, "from": old, "to": new}`` (that die replaced; the record
    goes into the damage step's). Returns the steps. This is the 05.04 rule's one home:
    inflict_damage drives it answering None to every roll (free play, the odds engine)."""
    out: list[dict] = []
    AP, D, remaining = p.AP, p.D, st.remaining
    # The current group (and whether the unit is destroyed) can only change when a model of
    # it is destroyed, and only if that leaves the group empty: groups before it in the order
    # are empty already, and the [PRECISION] group, while it has models, is the current one.
    # The selected model changes only when it is destroyed: one that loses wounds and lives on
    # is wounded, and 05.04 step 1 selects it again (no model before it can be wounded: it was
    # selected as the first wounded model, or as the first model when none was wounded).
    group = members = model = faces = members_of = None
    smod = 0  # the selected model's save-roll modifier
    fixed_d = not D.is_random
    dk = D.k
    taken_of, fnp_of = st.taken, st.fnp  # (read once: the rules' damage taken, Feel No Pain)
    for roll in saves:
        if group is None:
            if members_of is None:
                members_of = {}
                for g in st.groups:
                    members_of[g.key] = g.members
            # (remaining wounds are never below 0: a model is alive exactly when they are truthy)
            group = first_group_with_models(st.order, remaining, members_of, st.precision)
            if group is None:  # no group has a model left (the order holds every group)
                out.append({"lost": "unit destroyed: remaining attacks are lost"})
                break
            members = members_of[group]
        if model is None:
            model = select_model(members, remaining, st.W)
            if save_mod:
                smod = save_mod.get(model, 0)
                faces = save_faces(AP, Sv[model], InSv[model], smod)
            else:
                faces = save_faces(AP, Sv[model], InSv[model])
        fails, invulnerable = faces[roll]
        if not fails:
            out.append({"save": roll, "model": model, "group": group, "saved": True,
                        "invulnerable": invulnerable})
            if smod:
                out[-1]["save_mod"] = smod
            continue
        rerolled = None
        if fixed_d:
            dmg = dk
        else:
            rolled = D.roll_dice(dice, "damage roll")
            dmg = D.value(sum(rolled))
            if dmg < remaining[model]:
                rerolled = yield DamageRoll(model, rolled, D, remaining[model])
                if rerolled is not None:
                    dmg += D.reroll_change(rerolled["from"], rerolled["to"])
        taken = taken_of.get(model) if taken_of else None
        if taken:
            dmg = damage_after(dmg, taken)
        if fnp_of:
            lost, fnp = lose(st, model, dmg, dice, "damage")
            left = remaining[model]
        else:  # (lose without Feel No Pain, inline)
            left = remaining[model]
            lost = dmg if dmg < left else left
            left = remaining[model] = left - lost
            fnp = None
        destroyed = left <= 0
        rec = {"save": roll, "model": model, "group": group, "saved": False, "damage": dmg,
               "lost": lost, "destroyed": destroyed}
        if smod:
            rec["save_mod"] = smod
        if taken:
            rec["taken"] = taken
        if rerolled is not None:
            rec["command_reroll"] = rerolled
        if fnp:
            rec["fnp"] = fnp
        out.append(rec)
        if destroyed:
            model = None
            for i in members:
                if remaining[i] > 0:
                    break
            else:  # the group has no model left
                group = None
    for _ in range(p.mortal_criticals):
        if st.destroyed():
            break
        model = None  # (chosen before the roll: no dice)
        if st.precision is not None:
            members = next((g.members for g in st.groups if g.key == st.precision), ())
            model = next((m for m in members if st.remaining.get(m, 0) > 0), None)
        if model is None:
            model = mortal_wound_target(st.models, st.remaining)
        rerolled = None
        if fixed_d:
            mw = D.k
        else:
            rolled = D.roll_dice(dice, "damage roll (devastating wounds)")
            mw = D.value(sum(rolled))
            if mw < st.remaining[model]:
                rerolled = yield DamageRoll(model, rolled, D, st.remaining[model], True)
                if rerolled is not None:
                    mw += D.reroll_change(rerolled["from"], rerolled["to"])
        lost, fnp = lose(st, model, mw, dice, "mortal wounds")
        rec = {"mortal": mw, "model": model, "lost": lost, "destroyed": st.remaining[model] <= 0,
               "source": "devastating wounds"}
        if rerolled is not None:
            rec["command_reroll"] = rerolled
        if fnp:
            rec["fnp"] = fnp
        out.append(rec)
    return out


def save_rerollable(p: PoolState, saves, checks) -> list[int]:
    """15.02 The save dice (indices into ``saves``) a re-roll could turn into saves: those that
    fail against one of ``checks``, the (Sv, InSv, save-roll modifier) of the models that may
    take them, which some result would pass (against AP 0 and Sv 3+, a 1 or a 2)."""
    bad: set[int] = set()
    for Sv, InSv, mod in checks:
        faces = save_faces(p.AP, Sv, InSv, mod)
        failing = [f for f in range(1, 7) if faces[f][0]]
        if len(failing) < 6:
            bad.update(failing)
    return [i for i, r in enumerate(saves) if r in bad]
