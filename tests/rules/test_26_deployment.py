"""26 step 8 Deployment: wholly within the deployment zone (01.04.01), Part A ruling 22's zones."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules.deployment import deployment_problems, wholly_within
from sim.rules.geometry import footprint, round_base
from sim.rules.objectives import default_zones

ZONE = default_zones((60, 44))["defender"]  # y = 0 .. 12
R = 32 / 25.4 / 2


def test_26_a_round_base_touching_the_zone_edge_from_inside_is_wholly_within():
    assert wholly_within(round_base(32, 10, 12 - R), ZONE)
    assert not wholly_within(round_base(32, 10, 12 - R + 1e-6), ZONE)
    assert not wholly_within(round_base(32, 10, R - 1e-6), ZONE)  # (over the board edge)


def test_26_a_rectangle_hull_must_have_every_corner_inside():
    assert wholly_within(footprint("rect", 30, 10, 5, 2), ZONE)
    assert not wholly_within(footprint("rect", 30, 10, 5, 2, angle=90), ZONE)  # 2.5" up: 12.5


def test_26_deployment_problems_name_the_model_and_the_distance():
    zones = {0: ZONE, 1: default_zones((60, 44))["attacker"]}
    probs = deployment_problems([("a/1", 0, round_base(32, 10, 5)), ("b/1", 1, round_base(32, 10, 20))], zones)
    assert probs == ['b/1 is not wholly within its deployment zone (11.37" outside it) (26 step 8)']


@given(st.floats(1, 59), st.floats(-2, 14))
def test_26_wholly_within_agrees_with_the_bounds_of_a_strip(x, y):
    inside = R <= x <= 60 - R and R <= y <= 12 - R
    fp = round_base(32, x, y)
    if abs(y - R) > 1e-6 and abs(y - (12 - R)) > 1e-6 and abs(x - R) > 1e-6 and abs(x - 60 + R) > 1e-6:
        assert wholly_within(fp, ZONE) == inside


def test_wholly_within_reads_a_zone_as_a_tuple_a_list_or_an_array_alike():
    """(wholly_within keeps a tuple zone's edges; a list or an array is read afresh: the same
    answers, on seeded random round and hull bases about a five-sided zone's edges.)"""
    import numpy as np
    from sim.rules.deployment import wholly_within
    from sim.rules.geometry import footprint, round_base
    zone = ((0.0, 0.0), (30.0, 0.0), (30.0, 12.0), (15.0, 16.0), (0.0, 12.0))
    rng = np.random.default_rng(7)
    fps = []
    for _ in range(400):
        x, y = rng.uniform(-2, 32), rng.uniform(-2, 18)
        k = rng.integers(0, 3)
        fps.append(round_base(int(rng.choice([25, 32, 60])), x, y) if k == 0 else
                   footprint(("oval", "rect")[k - 1], x, y, rng.uniform(1.5, 5), rng.uniform(0.8, 2.5), rng.uniform(0, 180)))
    as_tuple = [wholly_within(f, zone) for f in fps]
    assert as_tuple == [wholly_within(f, [list(p) for p in zone]) for f in fps]
    assert as_tuple == [wholly_within(f, np.array(zone)) for f in fps]
    assert as_tuple == [wholly_within(f, zone) for f in fps]   # (asked again: the kept edges)
    assert 50 < sum(as_tuple) < 350
