"""What AttackResolutionSystem keeps of each pool it resolves (04.03 step 3): the step the pool is
at (Step), the pool itself (Pool) and, in a battle with a mission, what a step holds while a
Command Re-roll is offered (Held, sim.systems.attack_rerolls)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sim.rules import pools as PL
from sim.rules.sequence import PoolState


class Step(StrEnum):
    """The next step of a pool's attack sequence (04.03 step 2 gathering, 05.01 hit rolls,
    05.02 wound rolls, 05.03 allocation order, 05.03 save rolls, 05.04 inflict damage)."""

    GATHER = "gather"
    HIT = "hit"
    WOUND = "wound"
    ALLOCATION = "allocation"
    SAVE = "save"
    DAMAGE = "damage"
    DONE = "done"


@dataclass(slots=True)
class Held:
    """15.02 What a pool's steps keep while a Command Re-roll is offered (a battle with a
    mission only; free play has no CP and no pool holds one): a step's dice, the gather
    step's attack-count dice (DiceExpr, result, purpose) and its re-roll's record, the
    abilities' re-rolls of the hit or wound roll being asked about ([TWIN-LINKED], re-roll
    1s), and the damage step's generator and DamageState with the damage roll asked about."""

    rolls: list | None = None
    attack_dice: list | None = None
    attack_reroll: dict | None = None
    rerolled: dict | None = None
    damage: tuple | None = None
    asking: object = None


@dataclass(slots=True)
class Pool:
    """A pool being resolved (04.03 step 3) and where it is in the attack sequence."""

    index: int
    spec: PL.PoolSpec
    step: Step = Step.GATHER
    state: PoolState | None = None
    attackers: tuple[str, ...] = ()
    abilities: tuple = ()
    groups: tuple = ()
    order: tuple[str, ...] = ()
    precision: str | None = None
    precision_checked: bool = False
    saves: list[int] = field(default_factory=list)
    models: tuple = ()  # the target's models as allocation sees them (from the allocation step)
    held: Held | None = None  # (a battle with a mission: what a Command Re-roll's question keeps)
    subs: dict | None = None  # a pool die spent for a roll of the pool (SUBSTITUTE): roll -> value or None
