"""What each face of a die does, read from the rules that roll it (one rule, one home): the
odds engine turns the engine's own per-face tables into chances, and never works out a
threshold of its own.

* hit rolls: sim.rules.sequence._hit_faces (05.01 hit_result, 10.07 indirect fire);
* wound rolls: sim.rules.sequence._wound_faces (05.02 wound_result, 24.03 critical threshold),
  and [TWIN-LINKED]'s re-roll of a failed roll taken face by face as roll_wounds takes it;
* saves: sim.rules.sequence._save_faces (05.04 step 2 save_fails, the model's modifier);
* Feel No Pain: sim.rules.sequence._lose (damage, devastating wounds) and
  sim.rules.mortal.resolve_mortal_wounds (other mortal wounds), each rolled with a forced die;
* hazard rolls: sim.rules.mortal.hazard_failures."""

from __future__ import annotations

import functools

from sim.rules.allocation import TargetModel
from sim.rules.attack import CRITICAL, FAIL
from sim.rules.dice import ForcedDice
from sim.rules.mortal import hazard_failures, resolve_mortal_wounds
from sim.rules.sequence import DamageState, _hit_faces, _lose, _save_faces, _wound_faces

FACES = range(1, 7)


def _split(by_face) -> tuple[float, float, float]:
    """(fail, success, critical) chances of a table of results by face (index 0 unused)."""
    n = [0, 0, 0]
    for f in FACES:
        r = by_face[f]
        n[0 if not r else 2 if r == CRITICAL else 1] += 1
    return n[0] / 6, n[1] / 6, n[2] / 6


@functools.lru_cache(maxsize=512)
def hit(skill: int, modifier: int, fail_below: int, snap: bool = False) -> tuple[float, float, float]:
    """05.01 One hit roll: (fail, hit, critical hit); under 15.09 snap shooting the snap rule's."""
    return _split(_hit_faces(skill, modifier, fail_below, snap))


@functools.lru_cache(maxsize=512)
def wound(S: int, T: int, modifier: int, critical_on: int, twin_linked: bool) -> tuple[float, float, float]:
    """05.02 One wound roll: (fail, wound, critical wound); with [TWIN-LINKED] a failed roll is
    rolled again once and the second result stands (roll_wounds)."""
    by_face = _wound_faces(S, T, modifier, critical_on)
    if not twin_linked:
        return _split(by_face)
    n = [0, 0, 0]
    for f in FACES:
        for g in FACES:  # the re-roll, read only when the first roll failed
            r = by_face[f] if by_face[f] != FAIL else by_face[g]
            n[0 if not r else 2 if r == CRITICAL else 1] += 1
    return n[0] / 36, n[1] / 36, n[2] / 36


@functools.lru_cache(maxsize=512)
def save_fails(AP: int, Sv: int, InSv: int | None, modifier: int) -> tuple[bool, ...]:
    """05.04 step 2 for each face 1..6 (index 0 unused: False): does the save fail."""
    return (False,) + tuple(_save_faces(AP, Sv, InSv, modifier)[f][0] for f in FACES)


@functools.lru_cache(maxsize=64)
def damage_lost(fnp: int | None) -> float:
    """24.12 The chance a wound from damage (or a [DEVASTATING WOUNDS] mortal wound) is lost
    when the model has Feel No Pain ``fnp``+ (1 without it): _lose rolled with each face."""
    if not fnp:
        return 1.0
    lost = 0
    for f in FACES:
        m = TargetModel("m", 1, 1, 7, None, False)
        st = DamageState([m], {"m": 1}, (), (), fnp={"m": fnp})
        n, _rolls = _lose(st, "m", 1, ForcedDice([f]), "odds")
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
