"""04.01 Select Weapons and 04.02 Select Targets: turn a Shoot or Fight command into declared
attacks, or the reason it is illegal. Validation (at submit) and the weapon-selection system
(at resolution) call the same code, so a refused command changes nothing and an accepted one
resolves exactly as validated."""

from sim.plan.common import Declared
from sim.plan.fight import eligible_to_fight, fights_first, plan_fight
from sim.plan.shoot import plan_shoot, shooting_facts, shooting_type_for
from sim.plan.shoot_targets import target_facts

__all__ = ["Declared", "plan_shoot", "plan_fight", "shooting_facts",
           "shooting_type_for", "target_facts", "fights_first", "eligible_to_fight"]
