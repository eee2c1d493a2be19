"""Datasheet abilities: one record each, in our own words (sim.rules.effects.vocabulary)."""

RECORDS = ()
