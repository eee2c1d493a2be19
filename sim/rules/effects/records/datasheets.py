"""Datasheet abilities: one record each, in our own words (sim.rules.effects.vocabulary), kept by
faction group in sibling modules (datasheets_imperium, datasheets_astartes, datasheets_chaos,
datasheets_chaos_knights, datasheets_xenos); this module joins them in that order."""

from sim.rules.effects.records.datasheets_astartes import RECORDS as _ASTARTES
from sim.rules.effects.records.datasheets_chaos import RECORDS as _CHAOS
from sim.rules.effects.records.datasheets_chaos_knights import RECORDS as _CHAOS_KNIGHTS
from sim.rules.effects.records.datasheets_imperium import RECORDS as _IMPERIUM
from sim.rules.effects.records.datasheets_xenos import RECORDS as _XENOS

RECORDS = _IMPERIUM + _ASTARTES + _CHAOS + _CHAOS_KNIGHTS + _XENOS
