"""02.04 Weapon profiles and 02.02 model profiles as plain, immutable data."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.rules.dice import DiceExpr

# 04.03 step 2: the abilities that can add attack dice to a weapon's A ([RAPID FIRE X] 24.30,
# [BLAST X] 24.05, [CLEAVE X] 24.06)
ADDS_DICE = frozenset({"RAPID FIRE", "BLAST", "CLEAVE"})


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """02.04 A weapon profile: Range ("Melee" = None), A, BS/WS, S, AP, D and its abilities.

    ``abilities`` holds parsed ability values (sim.rules.abilities.Ability); ``abilities_text``
    keeps the string as the scenario printed it, for display.
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
    names: frozenset = field(default=frozenset(), init=False, compare=False, repr=False)
    # A when it is fixed and no ability of the weapon can add attack dice (04.03 step 2), else
    # None: the number of dice the weapon always contributes to a pool (unless split, 04.03)
    plain_A: int | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "names", frozenset(a.name for a in self.abilities))
        if not self.A.is_random and not self.names & ADDS_DICE:
            object.__setattr__(self, "plain_A", self.A.k)

    @property
    def is_melee(self) -> bool:
        return self.range is None

    def has(self, name: str) -> bool:
        """True if the weapon carries an ability of this canonical name (ignoring conditions)."""
        return name in self.names


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
