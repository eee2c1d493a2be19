"""What each face of a die does, read from the rules that roll it (one rule, one home): the
odds engine turns the engine's own per-face tables into chances, and never works out a
threshold of its own.

* hit rolls: sim.rules.sequence.hit_faces (05.01 hit_result, 10.07 indirect fire, 15.09 snap
  shooting), and the faces the abilities re-roll (hit_reroll_faces: re-roll 1s) taken face by
  face as roll_hits takes them;
* wound rolls: sim.rules.sequence.wound_faces (05.02 wound_result, 24.03 critical threshold),
  and the faces the abilities re-roll (wound_reroll_faces: [TWIN-LINKED]'s failed rolls, re-roll
  1s) taken face by face as roll_wounds takes them; a random S through strength_rolled;
* saves: sim.rules.sequence.save_faces (05.04 step 2 save_fails, the model's modifier);
* Feel No Pain: sim.rules.sequence.lose (damage, devastating wounds) and
  sim.rules.mortal.resolve_mortal_wounds (other mortal wounds), each rolled with a forced die;
* hazard rolls: sim.rules.mortal.hazard_failures."""

from __future__ import annotations

import functools

from sim.rules.allocation import TargetModel
from sim.rules.attack import CRITICAL
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.mortal import hazard_failures, resolve_mortal_wounds
from sim.rules.sequence import (NO_FACES, DamageState, hit_faces, lose, save_faces, strength_rolled, wound_faces,
                                wound_reroll_faces)

FACES = range(1, 7)


def _split(by_face) -> tuple[float, float, float]:
    """(fail, success, critical) chances of a table of results by face (index 0 unused)."""
    n = [0, 0, 0]
    for f in FACES:
        r = by_face[f]
        n[0 if not r else 2 if r == CRITICAL else 1] += 1
    return n[0] / 6, n[1] / 6, n[2] / 6


def _split_rerolled(by_face, rerolled: frozenset) -> tuple[float, float, float]:
    """(fail, success, critical) chances of a roll whose faces in ``rerolled`` are rolled again
    once, the second result standing (01.05.02): each of the 36 pairs of faces."""
    if not rerolled:
        return _split(by_face)
    n = [0, 0, 0]
    for f in FACES:
        for g in FACES:  # the re-roll, read only when the first face is one re-rolled
            r = by_face[g] if f in rerolled else by_face[f]
            n[0 if not r else 2 if r == CRITICAL else 1] += 1
    return n[0] / 36, n[1] / 36, n[2] / 36


@functools.lru_cache(maxsize=512)
def hit(skill: int, modifier: int, fail_below: int, snap: bool = False,
        rerolled: frozenset = NO_FACES) -> tuple[float, float, float]:
    """05.01 One hit roll: (fail, hit, critical hit); under 15.09 snap shooting the snap rule's;
    the faces in ``rerolled`` (sim.rules.sequence.hit_reroll_faces) rolled again once."""
    return _split_rerolled(hit_faces(skill, modifier, fail_below, snap), rerolled)


@functools.lru_cache(maxsize=512)
def wound(S: int, T: int, modifier: int, critical_on: int,
          rerolled: frozenset = NO_FACES) -> tuple[float, float, float]:
    """05.02 One wound roll: (fail, wound, critical wound); the faces in ``rerolled``
    (sim.rules.sequence.wound_reroll_faces: [TWIN-LINKED]'s failed faces, re-roll 1s) rolled
    again once, the second result standing (roll_wounds)."""
    return _split_rerolled(wound_faces(S, T, modifier, critical_on), rerolled)


def wound_of(p) -> tuple[float, float, float]:
    """05.02 One wound roll of the pool ``p`` (a PoolState): wound() with its S, re-roll faces
    (sim.rules.sequence.wound_reroll_faces) and modifiers; a random S (02.02.03) rolled for
    each attack as sequence.strength_rolled rolls it: the chances of each S it can take,
    weighted (each attack's S and wound roll are independent of every other attack's)."""
    if isinstance(p.S, int):
        return wound(p.S, p.T, p.wound_mod, p.critical_wound_on, wound_reroll_faces(p))
    out = [0.0, 0.0, 0.0]
    for s, ps in strength_chances(p.S):
        for i, x in enumerate(wound(s, p.T, p.wound_mod, p.critical_wound_on, wound_reroll_faces(p, s))):
            out[i] += ps * x
    return out[0], out[1], out[2]


@functools.lru_cache(maxsize=64)
def strength_chances(S: DiceExpr) -> tuple[tuple[int, float], ...]:
    """02.02.03 The S a random S can take and the chance of each: the expression's distribution
    (sim.odds.dist.dice_expr) through sequence.strength_rolled (its floor of 1)."""
    from sim.odds.dist import dice_expr, support
    out: dict[int, float] = {}
    for v, pv in support(dice_expr(S)):
        s = strength_rolled(DiceExpr(0, 0, int(v)), ForcedDice([]))
        out[s] = out.get(s, 0.0) + float(pv)
    return tuple(sorted(out.items()))


@functools.lru_cache(maxsize=512)
def save_fails(AP: int, Sv: int, InSv: int | None, modifier: int) -> tuple[bool, ...]:
    """05.04 step 2 for each face 1..6 (index 0 unused: False): does the save fail."""
    return (False,) + tuple(save_faces(AP, Sv, InSv, modifier)[f][0] for f in FACES)


@functools.lru_cache(maxsize=64)
def damage_lost(fnp: int | None) -> float:
    """24.12 The chance a wound from damage (or a [DEVASTATING WOUNDS] mortal wound) is lost
    when the model has Feel No Pain ``fnp``+ (1 without it): lose rolled with each face."""
    if not fnp:
        return 1.0
    lost = 0
    for f in FACES:
        m = TargetModel("m", 1, 1, 7, None, False)
        st = DamageState([m], {"m": 1}, (), (), fnp={"m": fnp})
        n, _rolls = lose(st, "m", 1, ForcedDice([f]), "odds")
        lost += n
    return lost / 6


@functools.lru_cache(maxsize=64)
def mortal_lost(fnp: int | None) -> float:
    """06.02 + 24.12 The chance a mortal wound (hazard rolls) is lost:
    resolve_mortal_wounds rolled with each face."""
    if not fnp:
        return 1.0
    lost = 0
    m = TargetModel("m", 1, 1, 7, None, False)
    for f in FACES:
        steps = resolve_mortal_wounds(1, [m], {"m": 1}, {"m": fnp}, ForcedDice([f]))
        lost += steps[0]["lost"]
    return lost / 6


@functools.lru_cache(maxsize=1)
def hazard_fail() -> float:
    """06.03 The chance one hazard roll fails."""
    return sum(hazard_failures([f]) for f in FACES) / 6
