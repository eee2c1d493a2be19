"""02.04 Weapon profiles and 02.02 model profiles as plain, immutable data."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

from sim.rules.abilities import Hook, effects_of
from sim.rules.dice import DiceExpr


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """02.04 A weapon profile: Range ("Melee" = None), A, BS/WS, S, AP, D and its abilities.

    ``abilities`` holds parsed ability values (sim.rules.abilities.Ability); ``abilities_text``
    keeps the string as the scenario printed it, for display. ``weapon``: the multi-profile
    weapon (04.01.03) this is one profile of ("" = a weapon with this one profile); a model
    carrying it holds each of its profiles and picks one of them when it selects the weapon
    (sim.rules.multi_profile).
    """

    name: str
    range: int | None  # inches; None = melee weapon
    A: DiceExpr
    skill: int  # BS for ranged, WS for melee: the x in "x+"
    S: int
    AP: int  # 0 or negative
    D: DiceExpr
    abilities: tuple = ()
    abilities_text: str = field(default="", compare=False)
    # names of printed abilities the engine does not implement (inert; never read by a rule)
    labels: tuple = field(default=(), compare=False)
    weapon: str = ""  # (not hashed: equal profiles of different weapons are rare, never wrong)
    names: frozenset = field(default=frozenset(), init=False, compare=False, repr=False)
    # what its abilities do: their hooks (sim.rules.abilities.hooks), for the rules to ask
    effects: frozenset = field(default=frozenset(), init=False, compare=False, repr=False)
    # A when it is fixed and no ability of the weapon can add attack dice (04.03 step 2), else
    # None: the number of dice the weapon always contributes to a pool (unless split, 04.03)
    plain_A: int | None = field(default=None, init=False, compare=False, repr=False)
    # (worked out once: plans key their caches by profile, and a profile's fields take a dozen
    # Python-level hashes to hash again)
    _hash: int = field(default=0, init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "names", frozenset(a.name for a in self.abilities))
        object.__setattr__(self, "effects", effects_of(self.abilities))
        object.__setattr__(self, "_hash", hash((self.name, self.range, self.A, self.skill, self.S, self.AP,
                                                self.D, self.abilities)))
        if not self.A.is_random and Hook.ADDS_DICE not in self.effects:
            object.__setattr__(self, "plain_A", self.A.k)

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_melee(self) -> bool:
        return self.range is None

    def has(self, hook: str) -> bool:
        """True if one of the weapon's abilities has this hook (sim.rules.abilities.Hook),
        ignoring 24.01 conditions."""
        return hook in self.effects


@functools.lru_cache(maxsize=256)
def gain_abilities(profile: WeaponProfile, hooks: tuple[str, ...]) -> WeaponProfile:
    """The weapon as it is while a rule makes it gain the abilities with these hooks (15.03
    Epic Challenge: [PRECISION]): its profile with each such ability (its registry record,
    sim.rules.abilities.with_hook) added unless it has it already. The same profile comes back
    for the same question (cached), so plans keyed by profile stay few."""
    from sim.rules.abilities import Ability, tag, with_hook
    added = tuple(Ability(with_hook(h).name) for h in hooks if h not in profile.effects)
    if not added:
        return profile
    text = ", ".join(t for t in (profile.abilities_text, *(tag(h) for h in hooks if h not in profile.effects)) if t)
    return dataclasses.replace(profile, abilities=profile.abilities + added, abilities_text=text)


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """02.02 Model characteristics: M, T, Sv, InSv (optional), W, Ld, OC."""

    M: int
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    InSv: int | None = None
    InSv_against: str = ""  # "ranged" or "melee": the InSv counts only against those attacks (invulnerable_against)
