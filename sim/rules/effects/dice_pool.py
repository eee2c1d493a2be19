"""A rule's pool of dice (sim.rules.effects.vocabulary.GAIN_DICE / SUBSTITUTE; Acts of Faith, the
Adepta Sororitas' army rule, whose Miracle dice these are): the army gains dice at the rule's
moments, each rolled as it is gained and keeping its value; before a roll for a unit holding the
rule, its player may spend one die of the pool to stand for one of the roll's dice (that die is
not rolled: the pool's value counts as its unmodified result, as a result set to a value does,
01.05.08; of a roll of several dice, one only), once per phase for each unit. Pure: the options
offered, the pool after a spend, the default player's answer. The battle keeps the pools
(Resources.dice_pools) and asks (sim.systems.dice_pools)."""

from __future__ import annotations

from typing import Callable, Sequence

DECLINE = "decline"
_USE = "use "


def options(pool: Sequence[int]) -> list[str]:
    """The decision's options: "use 6" for each value the pool holds (highest first), then
    "decline"."""
    return [f"{_USE}{v}" for v in sorted(set(pool), reverse=True)] + [DECLINE]


def value_of(answer: str) -> int | None:
    """The pool die an answer spends (its value), None for a decline."""
    return int(answer[len(_USE):]) if isinstance(answer, str) and answer.startswith(_USE) else None


def spend(pool: Sequence[int], value: int) -> list[int]:
    """The pool once a die of ``value`` is spent (the first such die). ValueError if none."""
    out = list(pool)
    out.remove(value)
    return out


def default_answer(pool: Sequence[int], chance: Callable[[int | None], float]) -> str:
    """The default player's answer (simple and deterministic): spend the lowest die of the pool
    that makes the roll more likely to succeed than not when, rolled, it is not (``chance(v)``:
    the roll's chance of success with a die standing at ``v``; ``chance(None)``: rolled
    normally); else decline. So a Miracle die goes where it turns a likely failure into a likely
    success: a lone save or hit needing 4+ or more, a long charge, a battle-shock test near its
    Leadership."""
    base = chance(None)
    if base > 0.5:
        return DECLINE
    for v in sorted(set(pool)):
        c = chance(v)
        if c > base and c >= 0.5:
            return f"{_USE}{v}"
    return DECLINE


def per_die_chance(need: int, dice: int) -> Callable[[int | None], float]:
    """``chance`` for a roll judged die by die (hit, wound, save; an unmodified ``need`` or
    more succeeds): one that matters only when it is a lone die (``dice`` 1); a die of a larger
    roll is never worth a Miracle die by default (the chance never rises above ``base``)."""
    def chance(v):
        if dice != 1:
            return 0.0
        return max(0, 7 - need) / 6 if v is None else float(v >= need)
    return chance


def two_dice_chance(need: int) -> Callable[[int | None], float]:
    """``chance`` for a roll of 2D6 that succeeds at ``need`` or more (a charge, a battle-shock
    test: the modifiers already taken off ``need``), one die standing at ``v``."""
    def chance(v):
        if v is None:
            return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need) / 36
        return sum(1 for b in range(1, 7) if v + b >= need) / 6
    return chance


class Substituted:
    """Dice that stand a pool's die for the first die of the first roll made for ``purpose``
    (that die is not rolled: the others are, from the battle's stream), and roll everything else
    as ``dice`` does: what the rolling code is given in place of the battle's dice for the one
    roll. ``used`` says whether the die was placed."""

    __slots__ = ("dice", "value", "purpose", "used")

    def __init__(self, dice, value: int, purpose: str):
        self.dice, self.value, self.purpose, self.used = dice, value, purpose, False

    def d6(self, n: int, purpose: str) -> tuple[int, ...]:
        if self.used or n < 1 or purpose != self.purpose:
            return self.dice.d6(n, purpose)
        self.used = True
        return (self.value,) + (self.dice.d6(n - 1, purpose) if n > 1 else ())

    def d3(self, n: int, purpose: str) -> tuple[int, ...]:
        return self.dice.d3(n, purpose)

    def __getattr__(self, name):  # (anything else a roll reads: the battle's dice)
        return getattr(self.dice, name)
