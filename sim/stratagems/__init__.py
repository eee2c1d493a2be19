"""Stratagems (15): one record per core stratagem (sim.stratagems.base.StratagemRecord: its CP
cost, its window as data, who may use it on what and the facts its target must have, checked by
the rule; its offer and effect), in one registry (sim.stratagems.registry).

The battle round, the commands and the attack systems say which moment it is
(``Battle.offer(Moment(...))``, ``Battle.offer_after_roll``); the registry offers every
stratagem whose window that moment opens. README, "Adding a stratagem", adds one.
"""

from sim.rules.stratagems import Moment, Roll
from sim.stratagems.base import Fact, StratagemRecord
from sim.stratagems.registry import REGISTRY, by_name, offer_after_roll, offer_at, roll_window_open

__all__ = ["Fact", "Moment", "Roll", "StratagemRecord", "REGISTRY", "by_name", "offer_after_roll", "offer_at",
           "roll_window_open"]
