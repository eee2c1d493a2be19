"""The rule records (sim.rules.effects.table): army rules, detachment rules and datasheet
abilities, each module a tuple of sim.rules.effects.vocabulary.RuleRecord in our own words.

Modules: army (army rules), detachments (detachment rules), datasheets (joins the datasheet
abilities of datasheets_imperium, datasheets_astartes, datasheets_chaos,
datasheets_chaos_knights and datasheets_xenos); _kit holds the short
constructors they are written with."""

from sim.rules.effects.records.army import RECORDS as _ARMY
from sim.rules.effects.records.datasheets import RECORDS as _DATASHEETS
from sim.rules.effects.records.detachments import RECORDS as _DETACHMENTS

ALL = _ARMY + _DETACHMENTS + _DATASHEETS
