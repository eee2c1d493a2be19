"""What an attack takes from the effects of rules acting in the attack sequence (sim.rules.effects:
datasheet abilities, army and detachment rules), as pure functions of those effects. Which
grants act (who holds them, where, their conditions) is sim.world.rule_effects; where the plan
and the odds put what is worked out here is sim.plan.rule_effects.

The attacking model's attacks (:func:`attack_takes`, :func:`weapon_taking`):

* hit- and wound-roll modifiers join the attack's other roll modifiers, labelled with the rule's
  name, netted and clamped to +-1 with them when the attack is keyed (02.02.01,
  sim.rules.pools.effective_key); BS modifiers for ranged attacks, WS ones for melee (the
  characteristic, clamped 2+..6+ there too);
* A, S, AP and D modifiers change the weapon's characteristics (02.02.01: +1 AP makes AP one
  better, -1 -> -2; A, S and D never below 1, AP never above 0);
* re-rolls of hit and wound rolls (01.05.02) are the project's re-roll abilities of the registry
  (of 1s; of failed rolls, as [TWIN-LINKED] re-rolls failed wound rolls, 24.38); a re-roll of
  "any" roll is made by the attacker of the failed ones (re-rolling a success could only lose
  it: the automatic use of a rule that lets any roll be re-rolled);
* a conferred weapon ability (24) is parsed as printed and added to the weapon: the registry's
  own record then acts (one rule, one home).

The unit an attack targets (:func:`attacked_takes`): its "hit taken" / "wound taken" modifiers
join the attack's hit / wound modifiers (02.02.01: netted and clamped with the others), "AP
taken" the weapon's AP (+1: the attack's AP improved by 1), as does a worse Save characteristic.

The target's models (:func:`target_takes`): a save-roll modifier (02.02.01, not clamped), a T
modifier (05.02: the unit's T for wound rolls is worked out from its models' T, 19.02), a
change to the Damage of each attack allocated to the model (05.04: never below 1,
:func:`damage_after`), Feel No Pain X+ (24.12) and an invulnerable save X+ (05.03): the best of
the model's own and the granted ones counts (:func:`best_roll`)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Iterable, NamedTuple

from sim.rules.abilities.parse import parse_weapon_abilities
from sim.rules.abilities.registry import REROLL_ABILITIES
from sim.rules.attack import clamp_ap
from sim.rules.dice import DiceExpr
from sim.rules.effects import vocabulary as V
from sim.rules.effects.words import effect_words

# the kinds of effect read for an attacking unit's attacks, and for the target's models
ATTACKER_KINDS = (V.MODIFY, V.REROLL, V.WEAPON_ABILITY)
ATTACKED_KINDS = (V.MODIFY,)  # (of the target unit's grants: the TAKEN_STATS ones)
TARGET_KINDS = (V.MODIFY, V.REROLL, V.FEEL_NO_PAIN, V.INVULNERABLE)
CHARACTERISTICS = ("A", "S", "AP", "D")
TARGET_STATS = ("save", "T", "damage taken")


class Acted(NamedTuple):
    """An effect acting now, and the name of the rule it comes from (its label)."""

    source: str
    effect: V.Effect


@dataclass(frozen=True, slots=True)
class AttackTakes:
    """What one attack takes from the effects acting on its model (module docstring): its
    modifiers as (source, value) pairs in the plan's lists, its net characteristic modifiers,
    the abilities conferred, as printed, and ``labels``: (rule name, what it gives, in words)
    for each effect taken (plans, events and the odds report show them)."""

    hit_mods: tuple = ()
    skill_mods: tuple = ()
    wound_mods: tuple = ()
    A: int = 0
    S: int = 0
    AP: int = 0
    D: int = 0
    abilities: tuple[str, ...] = ()
    labels: tuple = ()

    @property
    def changes_weapon(self) -> bool:
        return bool(self.A or self.S or self.AP or self.D or self.abilities)


def attack_takes(acted: Iterable[Acted], melee: bool) -> AttackTakes | None:
    """02.02.01 / 01.05.02 / 24 What an attack (``melee`` or ranged) takes from the effects
    acting on its model (module docstring): None when they change nothing. Re-rolls of 1s and of
    failed rolls of the same roll make the failed ones re-rolled (a 1 always fails): one re-roll
    per die (01.05.02)."""
    hit, skill, wound, abilities, labels = [], [], [], [], []
    net = dict.fromkeys(CHARACTERISTICS, 0)
    rerolls: dict[str, bool] = {}  # roll -> of 1s only
    skill_stat = "WS" if melee else "BS"
    for source, e in acted:
        k = e.kind
        if k == V.MODIFY:
            if e.stat == "hit":
                hit.append((source, e.value))
            elif e.stat == "wound":
                wound.append((source, e.value))
            elif e.stat == skill_stat:
                skill.append((source, e.value))
            elif e.stat in net:
                net[e.stat] += e.value
            else:
                continue
        elif k == V.REROLL and e.stat in ("hit", "wound"):
            ones = e.which == V.ONES
            rerolls[e.stat] = rerolls.get(e.stat, True) and ones
        elif k == V.WEAPON_ABILITY:
            abilities.append(e.ability.upper())
        else:
            continue
        labels.append((source, effect_words(e)))
    for roll in ("hit", "wound"):
        if roll in rerolls:
            abilities.append(REROLL_ABILITIES[(roll, rerolls[roll])].name)
    if not labels:
        return None
    return AttackTakes(tuple(hit), tuple(skill), tuple(wound), net["A"], net["S"], net["AP"], net["D"],
                       tuple(dict.fromkeys(abilities)), tuple(labels))


def attacked_takes(acted: Iterable[Acted], takes: AttackTakes | None) -> AttackTakes | None:
    """02.02.01 What an attack takes from the effects acting on the unit it targets (``acted``:
    its "hit taken", "wound taken" and "AP taken" modifiers), joined to what it takes from its
    own model's (``takes``): the hit- and wound-roll ones appended to the attack's lists (netted
    and clamped to +-1 with the others when the attack is keyed), the AP one added to the weapon's
    AP modifier (+1: the attack's AP is improved by 1). None when neither changes anything."""
    hit, wound, labels = [], [], []
    ap = 0
    for source, e in acted:
        if e.kind != V.MODIFY or not (e.stat in V.TAKEN_STATS or (e.stat == "Sv" and e.value < 0)):
            continue
        if e.stat == "Sv":  # (a worse Save characteristic: as an AP that much better, below)
            ap -= e.value
        elif e.stat == "hit taken":
            hit.append((source, e.value))
        elif e.stat == "wound taken":
            wound.append((source, e.value))
        else:
            ap += e.value
        labels.append((source, effect_words(e)))
    if not labels:
        return takes
    t = takes or AttackTakes()
    return dataclasses.replace(t, hit_mods=t.hit_mods + tuple(hit), wound_mods=t.wound_mods + tuple(wound),
                               AP=t.AP + ap, labels=t.labels + tuple(labels))


def _plus(x: DiceExpr, v: int) -> DiceExpr:
    """02.02.01 A or D changed by ``v``: a fixed value never below 1; a random one adds to its
    constant, its rolls never below 1 (sim.rules.dice.DiceExpr.value: D3-1 rolls 1, 1, 2)."""
    if not v:
        return x
    if not x.is_random:
        return DiceExpr(0, 0, max(1, x.k + v))
    return x.plus(v)


@functools.lru_cache(maxsize=1024)
def weapon_taking(weapon, takes: AttackTakes):
    """02.02.01 / 24 The weapon profile an attack uses under ``takes``: its A, S, AP and D
    changed (A, S and D never below 1, AP never above 0; +1 AP makes AP one better) and the
    conferred abilities added as parsed (sim.rules.abilities.parse_weapon_abilities), each
    unless the weapon has that very ability already (a second copy of one it has with another
    X is 24.02's choice, made in Select Weapons). The same profile comes back for the same
    question (cached): plans keyed by profile stay few."""
    A = _plus(weapon.A, takes.A)
    S = weapon.S
    if takes.S:
        S = S.plus(takes.S) if isinstance(S, DiceExpr) else max(1, S + takes.S)
    AP = clamp_ap(weapon.AP - takes.AP) if takes.AP else weapon.AP
    D = _plus(weapon.D, takes.D)
    added = ()
    if takes.abilities:
        added = tuple(a for a in parse_weapon_abilities(", ".join(takes.abilities), weapon.name)
                      if a not in weapon.abilities)
    if not added and (A, S, AP, D) == (weapon.A, weapon.S, weapon.AP, weapon.D):
        return weapon
    text = ", ".join(t for t in (weapon.abilities_text, *(a.label() for a in added)) if t)
    return dataclasses.replace(weapon, A=A, S=S, AP=AP, D=D, abilities=weapon.abilities + added,
                               abilities_text=text)


@dataclass(frozen=True, slots=True)
class TargetTakes:
    """What one model of the target takes from the effects acting on it against one attack
    (module docstring): net save-roll, T and Damage-taken modifiers, the best granted Feel No Pain
    and invulnerable save (None: none granted), and (rule name, what it gives in words) of each
    effect taken."""

    save: int = 0
    T: int = 0
    taken: int = 0
    fnp: int | None = None
    invuln: int | None = None
    sources: tuple[str, ...] = ()
    save_reroll: str = ""  # "", ONES or FAILED (a re-roll of any save: of the failed ones)


def target_takes(acted: Iterable[Acted]) -> TargetTakes | None:
    """02.02.01 / 05.02 / 05.03 / 05.04 / 24.12 What a model of the target takes from the
    effects acting on it (module docstring): None when they change nothing for an attack."""
    net = dict.fromkeys(TARGET_STATS, 0)
    fnp = invuln = None
    reroll = ""
    sources = []  # (rule name, what it gives, in words)
    for source, e in acted:
        k = e.kind
        if k == V.MODIFY and e.stat in net:
            net[e.stat] += e.value
        elif k == V.FEEL_NO_PAIN:
            fnp = best_roll(fnp, e.value)
        elif k == V.INVULNERABLE:
            invuln = best_roll(invuln, e.value)
        elif k == V.REROLL and e.stat == "save":
            reroll = V.ONES if e.which == V.ONES and reroll != V.FAILED else V.FAILED
        else:
            continue
        sources.append((source, effect_words(e)))
    if not sources:
        return None
    return TargetTakes(net["save"], net["T"], net["damage taken"], fnp, invuln, tuple(dict.fromkeys(sources)),
                       reroll)


def best_roll(own: int | None, granted: int | None) -> int | None:
    """05.03 / 24.12 Of two X+ rolls (an invulnerable save, Feel No Pain) the best counts: the
    lower X; None is none."""
    if own is None:
        return granted
    if granted is None:
        return own
    return own if own <= granted else granted


def toughness_with(T: int, modifier: int) -> int:
    """02.02.01 A model's T with a modifier: never below 1."""
    return max(1, T + modifier)


def damage_after(damage: int, taken: int) -> int:
    """05.04 / 02.02.01 The Damage of an attack allocated to a model whose rules change the
    Damage it takes by ``taken`` (-1: one less): never below 1."""
    return max(1, damage + taken)


def save_reroll_faces(models) -> frozenset:
    """01.05.02 / 05.03 The unmodified save results re-rolled (once each, before modifiers) when
    a pool's save rolls are made all at once, before 05.04 allocates them: ``models``, for each
    living model of the target, (its re-roll: "", ONES or FAILED; whether each face 1..6 fails
    its save, index 0 unused). A die is re-rolled when every living model re-rolls it: a 1 with
    ONES, a failing face with FAILED (so the re-roll never depends on the model the die goes
    to; with models that save differently only the faces failing on all of them)."""
    faces = None
    for which, fails in models:
        if not which:
            return frozenset()
        mine = {f for f in range(1, 7) if fails[f]}
        if which == V.ONES:
            mine &= {1}
        faces = mine if faces is None else faces & mine
        if not faces:
            return frozenset()
    return frozenset(faces or ())


@functools.lru_cache(maxsize=64)
def conferred_hooks(ability: str) -> frozenset:
    """The registry hooks of a conferred weapon ability as printed (e.g. "ASSAULT": 10.05's "can
    shoot after advancing"): what it gives a unit before any attack is declared (the shooting
    type, 10.02 step 2, is picked before the weapons are)."""
    from sim.rules.abilities import effects_of
    return effects_of(parse_weapon_abilities(ability, "conferred"))
