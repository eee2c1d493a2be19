"""An army's domain (sim.rules.effects.domain): its own deployment zone always; No Man's Land and
the enemy's zone while it controls at least half of the objective markers there; within and
wholly within for models at forced positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from sim.rules.effects.domain import (ENEMY_ZONE, NO_MANS_LAND, OWN_ZONE, Domain, area_of, domain, holds_half,
                                      model_within, model_wholly_within, unit_wholly_within, unit_within)
from sim.rules.geometry import footprint, round_base
from sim.rules.objectives import ObjectiveControl, default_objectives, default_zones

ZONES = default_zones((60, 44))
OWN, ENEMY = ZONES["defender"], ZONES["attacker"]  # y 0-12 and y 32-44
OBJ = default_objectives((60, 44), defender=0, attacker=1)  # homes (30, 6) and (30, 38); 3 at y = 22


def _controls(**who):
    """objective name (spaces as underscores) -> controlling player."""
    return {k.replace("_", " "): ObjectiveControl(v) for k, v in who.items()}


def test_own_zone_alone_when_nothing_is_controlled():
    d = domain(0, OWN, ENEMY, OBJ, {})
    assert d.areas == (OWN_ZONE,)
    assert model_wholly_within(round_base(32, 30, 5), d)
    assert not model_within(round_base(32, 30, 22), d)
    assert not model_within(round_base(32, 30, 38), d)


@pytest.mark.parametrize("mine, joins", [((), False), (("central",), False), (("central", "expansion west"), True),
                                         (("central", "expansion west", "expansion east"), True)])
def test_no_mans_land_joins_with_at_least_half_of_its_objectives(mine, joins):
    controls = {n: ObjectiveControl(0) for n in mine}
    controls["expansion east"] = controls.get("expansion east", ObjectiveControl(1))  # (the enemy's)
    d = domain(0, OWN, ENEMY, OBJ, controls)
    assert d.no_mans_land is joins and not d.enemy_zone
    assert model_wholly_within(round_base(32, 30, 22), d) is joins


def test_the_enemy_zone_joins_with_its_objective_and_an_opponents_control_counts_for_them():
    d = domain(0, OWN, ENEMY, OBJ, _controls(attacker_home=0))
    assert d.enemy_zone and not d.no_mans_land and d.areas == (OWN_ZONE, ENEMY_ZONE)
    assert model_wholly_within(round_base(32, 30, 40), d)
    assert not model_within(round_base(32, 30, 22), d)
    theirs = domain(1, ENEMY, OWN, OBJ, _controls(attacker_home=0, central=1, expansion_west=1))
    assert theirs.no_mans_land and not theirs.enemy_zone


def test_half_of_none_is_not_held_and_plain_players_count_as_controllers():
    assert not holds_half(0, [], {})
    assert holds_half(0, ["a", "b"], {"a": 0, "b": 1})
    assert not holds_half(0, ["a", "b", "c"], {"a": 0, "b": 1})
    only_homes = [o for o in OBJ if o.kind == "home"]
    d = domain(0, OWN, ENEMY, only_homes, {})
    assert not d.no_mans_land  # (no objective in No Man's Land: it never joins)


def test_an_objective_on_a_zone_edge_is_in_the_zone():
    assert area_of((30, 12), OWN, ENEMY) == OWN_ZONE
    assert area_of((30, 32), OWN, ENEMY) == ENEMY_ZONE
    assert area_of((30, 12.01), OWN, ENEMY) == NO_MANS_LAND


def test_within_and_wholly_within_at_the_edges():
    own_only = Domain(OWN, ENEMY)
    across = round_base(32, 30, 12.1)  # radius 0.63": across the zone's edge
    assert model_within(across, own_only) and not model_wholly_within(across, own_only)
    touching = round_base(32, 30, 12 + 32 / 25.4 / 2)  # (its edge on the zone's)
    assert model_within(touching, own_only)
    outside = round_base(32, 30, 13)
    assert not model_within(outside, own_only)
    with_nml = Domain(OWN, ENEMY, no_mans_land=True)
    assert model_wholly_within(across, with_nml)
    into_enemy = round_base(32, 30, 31.9)
    assert model_within(into_enemy, with_nml) and not model_wholly_within(into_enemy, with_nml)
    deep = round_base(32, 30, 40)
    assert not model_within(deep, with_nml)
    everywhere = Domain(OWN, ENEMY, no_mans_land=True, enemy_zone=True)
    assert model_wholly_within(deep, everywhere) and model_wholly_within(into_enemy, everywhere)
    zones_only = Domain(OWN, ENEMY, enemy_zone=True)
    assert model_wholly_within(deep, zones_only) and not model_within(round_base(32, 30, 22), zones_only)


def test_a_unit_is_within_by_one_model_and_wholly_within_by_every_model():
    d = Domain(OWN, ENEMY)
    fps = [round_base(32, 30, 5), round_base(32, 30, 14)]
    assert unit_within(fps, d) and not unit_wholly_within(fps, d)
    assert unit_wholly_within(fps[:1], d)
    assert not unit_wholly_within([], d) and not unit_within([], d)
    hull = footprint("rect", 30, 11, 5, 3, 90)  # 5" long, standing up across the zone edge
    assert model_within(hull, d) and not model_wholly_within(hull, d)


controls = st.dictionaries(st.sampled_from([o.name for o in OBJ]), st.sampled_from([0, 1, None]))


@settings(max_examples=80, deadline=None)
@given(st.floats(1, 59), st.floats(1, 11), st.sampled_from([25, 32, 40]), controls, st.sampled_from([0, 1]))
def test_own_zone_is_always_inside(x, y, mm, ctl, player):
    """Whatever is controlled, a model wholly within its player's own zone is wholly within its
    domain; the domain only ever adds areas to the own zone."""
    own, enemy = (OWN, ENEMY) if player == 0 else (ENEMY, OWN)
    fp = round_base(mm, x, y if player == 0 else 44 - y)
    d = domain(player, own, enemy, OBJ, {k: ObjectiveControl(v) for k, v in ctl.items()})
    from sim.rules.deployment import wholly_within
    if wholly_within(fp, own):
        assert model_wholly_within(fp, d)
    assert model_within(fp, d) or not model_within(fp, Domain(own, enemy))


# --- the bound in front of the exact distance (sim.rules.effects.domain._touches) -----------------
_L_ZONE = ((0.0, 0.0), (24.0, 0.0), (24.0, 6.0), (8.0, 6.0), (8.0, 16.0), (0.0, 16.0))  # (not convex)


@settings(max_examples=400, deadline=None)
@given(st.floats(-6, 32), st.floats(-6, 24), st.sampled_from(["round", "oval", "rect"]), st.floats(0.5, 5),
       st.floats(0.5, 4), st.floats(0, 360), st.sampled_from([OWN, _L_ZONE, list(_L_ZONE)]))
def test_touches_is_the_exact_distance_at_most_eps_wherever_the_base_is(x, y, shape, length, width, angle, zone):
    """01.04.01 ``_touches`` (a bounding box test in front) answers as the exact distance does:
    bases far off, just clear of the zone's box, across its edge, inside; a zone as a tuple
    (kept) or a list."""
    from sim.rules.effects.domain import _touches
    from sim.rules.geometry import EPS, footprint_polygon_distance
    fp = footprint(shape, x, y, length, width if shape != "round" else length, angle)
    assert _touches(fp, zone) == (footprint_polygon_distance(fp, zone) <= EPS)


@pytest.mark.parametrize("gap", [0.0, 1e-10, 1e-9, 2e-9, 3e-9, 1e-6, 0.5])
def test_touches_at_a_hair_from_the_zone_box(gap):
    """Round bases a hair from the zone's box, on each side: within when the gap is at most EPS
    (01.04.01 touching counts), not beyond (at EPS itself the rounding of the distance decides);
    the bound and the exact distance agree."""
    from sim.rules.effects.domain import _touches
    from sim.rules.geometry import EPS, footprint_polygon_distance
    r = 32 / 25.4 / 2
    for x, y in ((30, 12 + r + gap), (-r - gap, 6), (60 + r + gap, 6), (30, -r - gap)):
        fp = round_base(32, x, y)
        assert _touches(fp, OWN) == (footprint_polygon_distance(fp, OWN) <= EPS)
        if gap != EPS:
            assert _touches(fp, OWN) == (gap < EPS)
