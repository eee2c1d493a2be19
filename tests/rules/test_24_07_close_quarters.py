"""24.07 [CLOSE-QUARTERS] (and 24.27 [PISTOL]): per-model weapon choice under every shooting type
other than close-quarters; MONSTER/VEHICLE exemption; 10.05 assault weapons only; 10.06
close-quarters weapons only for non-MONSTER/VEHICLE models; melee weapons never shoot."""

from __future__ import annotations

import pytest

from sim.rules.abilities import parse_weapon_abilities
from sim.rules.shooting import (ASSAULT, CLOSE_QUARTERS, INDIRECT, NORMAL, weapon_selection_problem)

PISTOL = ("pistol", True, False, False)
RIFLE = ("rifle", False, False, False)
ASSAULT_RIFLE = ("assault rifle", False, True, False)
ASSAULT_PISTOL = ("assault pistol", True, True, False)
MORTAR = ("mortar", False, False, False)
KNIFE = ("knife", False, False, True)


@pytest.mark.parametrize("stype", [NORMAL, ASSAULT, INDIRECT])
def test_24_07_infantry_either_cq_or_other_never_both(stype):
    if stype == ASSAULT:
        both = [ASSAULT_PISTOL, ASSAULT_RIFLE]
        cq_only, other_only = [ASSAULT_PISTOL], [ASSAULT_RIFLE]
    else:
        both = [PISTOL, RIFLE]
        cq_only, other_only = [PISTOL, PISTOL], [RIFLE, MORTAR]
    assert weapon_selection_problem(stype, False, cq_only) is None
    assert weapon_selection_problem(stype, False, other_only) is None
    problem = weapon_selection_problem(stype, False, both)
    assert problem is not None and "24.07" in problem


@pytest.mark.parametrize("stype", [NORMAL, INDIRECT])
def test_24_07_monster_vehicle_may_fire_both(stype):
    assert weapon_selection_problem(stype, True, [PISTOL, RIFLE]) is None


def test_10_05_assault_shooting_only_assault_weapons_even_for_vehicles():
    assert "10.05" in weapon_selection_problem(ASSAULT, False, [RIFLE])
    assert "10.05" in weapon_selection_problem(ASSAULT, True, [ASSAULT_RIFLE, RIFLE])
    assert weapon_selection_problem(ASSAULT, True, [ASSAULT_RIFLE, ASSAULT_PISTOL]) is None


def test_10_06_close_quarters_shooting_non_mv_only_cq_weapons():
    assert weapon_selection_problem(CLOSE_QUARTERS, False, [PISTOL]) is None
    assert "10.06" in weapon_selection_problem(CLOSE_QUARTERS, False, [RIFLE])
    assert "10.06" in weapon_selection_problem(CLOSE_QUARTERS, False, [PISTOL, RIFLE])
    assert weapon_selection_problem(CLOSE_QUARTERS, True, [PISTOL, RIFLE]) is None


@pytest.mark.parametrize("stype", [NORMAL, ASSAULT, CLOSE_QUARTERS, INDIRECT])
@pytest.mark.parametrize("mv", [False, True])
def test_04_01_melee_weapon_cannot_shoot(stype, mv):
    assert "melee" in weapon_selection_problem(stype, mv, [KNIFE])


def test_24_27_pistol_is_close_quarters():
    (p,) = parse_weapon_abilities("[PISTOL]", "w")
    (c,) = parse_weapon_abilities("[CLOSE-QUARTERS]", "w")
    assert p == c and p.name == "CLOSE-QUARTERS"
