"""Part A ruling 28 (sim.rules.scope): a unit with the AIRCRAFT keyword, on it or on any of its
models and in any case, is one this version refuses; no other keyword is."""

from __future__ import annotations

import pytest

from sim.rules.scope import EXPECTED, NOT_IN_VERSION, refusal


@pytest.mark.parametrize("keywords", [{"AIRCRAFT"}, ["VEHICLE", "Aircraft", "FLY"], (" aircraft ",)])
def test_28_aircraft_are_refused(keywords):
    assert refusal(keywords) == NOT_IN_VERSION == "AIRCRAFT are not in this version (Part A ruling 28)"
    assert "Part A ruling 28" in EXPECTED


@pytest.mark.parametrize("keywords", [(), {"VEHICLE", "FLY"}, ["INFANTRY", "AIRCRAFT CARRIER CREW"], ["MONSTER"]])
def test_28_other_units_are_not(keywords):
    assert refusal(keywords) is None
