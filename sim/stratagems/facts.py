"""The facts about a stratagem's target that more than one record needs (15, each record's WHO),
read off the battle by the rule itself (sim.stratagems.base.allowed): no caller vouches for one."""

from __future__ import annotations

from sim.plan.fight import eligible_to_fight
from sim.stratagems.base import Fact
from sim.world import queries as W
from sim.world.rule_reads import permitting
from sim.rules.effects.eligibility import SHOOT

UNENGAGED = Fact("unengaged", lambda battle, u: not W.unit_engaged(u))
"""03.04 Not within engagement range of any enemy model."""

ELIGIBLE_TO_SHOOT = Fact("eligible to shoot", lambda battle, u: not W.unit_state(u).selected_to_shoot
                         and (not W.unit_state(u).fell_back or bool(permitting(battle, u, SHOOT))))
"""10.01 Not yet selected to shoot this phase, and did not fall back this turn (09.07) unless a rule
lets it (sim.world.rule_reads.permitting)."""

ELIGIBLE_TO_FIGHT = Fact("eligible to fight", lambda battle, u: eligible_to_fight(battle, u))
"""12.04 (sim.plan.fight.eligible_to_fight)."""
