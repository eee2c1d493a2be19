"""What validating a Shoot or Fight command works out, kept for the systems that resolve it,
and the checks a declaration of attacks gets besides its plan (24.26 [ONE SHOT])."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from sim.errors import PlanError
from sim.plan.common import one_shot_keys
from sim.plan.fight import plan_fight
from sim.plan.shoot import plan_shoot
from sim.rules.abilities import Hook
from sim.world import queries as W

@dataclass(slots=True)
class ValidatedPlan:
    """What validating a Shoot or Fight command worked out, kept on ``battle.validated`` for
    the systems that resolve it (ShootingTypeSystem, WeaponSelectionSystem): nothing changes
    between submit and resolution (a command is only accepted while the battle is idle), so the
    plan is exactly what they would compute again. Set by the command's check, replaced by the next
    command's, never changed (not frozen only because a frozen dataclass is slower to build, on
    the attack path); a system uses it only for the very command it validated (``command``)."""

    command: object  # the Shoot or Fight command validated (compared by identity)
    declared: list  # sim.plan.Declared per selected weapon and target (04.01/04.02)
    weapons: list  # the distinct weapon profiles declared, in order of first use
    shooting_type: str | None = None  # 10.02 the type used (shooting only)
    eligibility: Mapping[str, str | None] | None = None  # 10.04-10.07 per type: None, or why not


def validated_shoot(battle, cmd) -> ValidatedPlan:
    """04.01/04.02 A Shoot command's plan, checked (24.26 [ONE SHOT] too), whatever the phase
    gate says: the Shoot command's check, and that of a unit a stratagem makes shoot out of phase
    (15.08). Raises PlanError with the reason."""
    plan = plan_shoot(battle, cmd)
    _one_shot(battle, cmd.unit, plan.declared, plan.weapons)
    return ValidatedPlan(cmd, plan.declared, plan.weapons, plan.shooting_type, plan.eligibility)


def distinct_weapons(declared) -> list:
    """The distinct weapon profiles of declared attacks, in order of first use."""
    return list({id(d.weapon): d.weapon for d in declared}.values())


def _one_shot(battle, unit: str, declared, weapons) -> None:
    for w in weapons:
        if Hook.ONCE_PER_BATTLE in w.effects:  # (w.has, inline: every Shoot and Fight asks)
            one_shot_keys(declared, W.unit_state(battle.units[unit]).used_one_shot)
            return




def validated_fight(battle, cmd) -> ValidatedPlan:
    """12.04/12.05 + 04.01/04.02 A Fight command's plan, checked (24.26 [ONE SHOT] too).
    Raises PlanError with the reason."""
    declared = plan_fight(battle, cmd)
    weapons = distinct_weapons(declared)
    _one_shot(battle, cmd.unit, declared, weapons)
    return ValidatedPlan(cmd, declared, weapons)
