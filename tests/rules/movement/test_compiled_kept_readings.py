"""03.02 / 18.04 What the placement solver's compiled twins keep from one call to the next, and
that each answer is still its reference's to the bit (sim.rules.compiled): an Away's reading by
``farther_than`` (its circles in the order of their x, its round footprints' radii and its hulls'
cores against a round base), a table's reading of the hulls near some spots (``spots_fit``) and
the contact rings round them (``grow_spots``), both kept with the table's arrays until its next
``add``, a hull target's core and bounds (``rest_mask``), and a rule's zone limits gathered
(``edges_and_zone``). Two tables, regions and rules alike in everything the keys could confuse
(a hull at the same row, the same base, the same sizes) are asked in turn, before and after an
``add``; a hull placed against an Away whose reading a round base made first is measured by its
own cores."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules.geometry import Footprint, round_base
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG

from twins import twin_answer

MM = 1 / 25.4
BOARD = (44.0, 60.0)
GROW_PICK = C.KERNELS["movement.grow_pick"]
GROW_SPOTS = C.KERNELS["movement.grow_spots"]
SPOTS_FIT = C.KERNELS["movement.spots_fit"]
REST_MASK = C.KERNELS["movement.rest_mask"]
EDGES = C.KERNELS["movement.edges_and_zone"]
FARTHER = C.KERNELS["movement.farther_than"]
built = pytest.mark.skipif(GROW_PICK.compiled is None, reason="the compiled kernels are not built here")


def _transport(rng, x: float, y: float) -> Footprint:
    return Footprint(str(rng.choice(["oval", "rect"])), x, y, float(rng.uniform(90, 170)) * MM,
                     float(rng.uniform(50, 105)) * MM, float(rng.uniform(0, 180)))


def _disembark(rng, x: float, y: float):
    """A disembark's table round a hull transport (the hull the table's row 0, round bases by it,
    and three more vehicles about it, so that spots in different places have different hulls
    near them) with enemy round bases and hulls to keep away from, and a unit's first models
    beside it."""
    hull = _transport(rng, x, y)
    enemies = [round_base(int(rng.choice([25, 32, 40])), *(np.array([x, y]) + rng.uniform(-9, 9, 2)))
               for _ in range(int(rng.integers(2, 10)))]
    enemies += [_transport(rng, *(np.array([x, y]) + rng.uniform(-10, 10, 2))) for _ in range(2)]
    region = RG.out_of_transport(BOARD, hull, enemies, float(rng.choice([3.0, 6.0])))
    others = [("ship", hull)] + [(f"r{i}", round_base(32, *(np.array([x, y]) + rng.uniform(-5, 5, 2))))
                                 for i in range(int(rng.integers(0, 5)))]
    others += [(f"v{i}", _transport(rng, x + dx, y + dy)) for i, (dx, dy) in enumerate(((7.0, 1.0), (-6.0, 3.0), (1.0, -7.0)))]
    table = PL._Table(region, others, (), PL.CLEARANCE)
    edge = hull.bounding_radius + 0.6
    placed = [round_base(32, x + edge, y), round_base(32, x + edge, y + 1.4)]
    return table, placed


def _ask_all(table, placed, rng) -> int:
    """Every twin the solver reads at the table, each against its reference, for bases of three
    sizes (the contact rings round a hull differ by the base), the spots spread about each of
    the unit's models and the vehicles' sides (each box meets its own hulls); how many picks
    found a spot."""
    found = 0
    for mm in (32, 40, 25):
        fp = round_base(mm, 0.0, 0.0)
        rule = table.rule(fp)
        for spread in (1.5, 4.0, 9.0):
            c = np.array([placed[0].x, placed[0].y]) + rng.uniform(-spread, spread, size=(60, 2))
            twin_answer(EDGES, rule, c)
            twin_answer(REST_MASK, rule, c, np.ones(len(c), dtype=bool))
            twin_answer(SPOTS_FIT, fp, c, placed, table, PL.GAP)
            twin_answer(SPOTS_FIT, fp, c, [], table, PL.GAP)   # (every spot to the other bases' test)
        sized = [round_base(mm, p.x, p.y) for p in placed]
        anchor = np.array([placed[0].x, placed[0].y])
        for tight in (True, False):
            twin_answer(GROW_SPOTS, fp, sized, table, PL.GAP, tight, False)
            for prefer in (None, PL.Prefer.toward((0.0, 0.0)), PL.Prefer.toward((44.0, 60.0))):
                found += bool(twin_answer(GROW_PICK, fp, sized, table, prefer, PL.GAP, anchor, tight, False))
    return found


@built
@pytest.mark.parametrize("seed", range(6))
def test_kept_readings_answer_as_their_references_at_two_tables_in_turn(seed):
    rng = np.random.default_rng(seed)
    one, placed_one = _disembark(rng, 14.0, 20.0)
    two, placed_two = _disembark(rng, 30.0, 40.0)
    found = 0
    for _ in range(2):   # (the second round reads what the first kept)
        found += _ask_all(one, placed_one, rng)
        found += _ask_all(two, placed_two, rng)
    # (a unit set up beside the first: the table's arrays are new, with another hull among them)
    one.add([("late", _transport(rng, placed_one[0].x + 3.0, placed_one[0].y - 2.0))])
    found += _ask_all(one, placed_one, rng)
    found += _ask_all(two, placed_two, rng)
    assert found   # (some picks found a spot: the keys, not only the refusals, were read)


@built
@pytest.mark.parametrize("seed", range(6))
def test_a_hull_placed_against_an_away_a_round_base_read_first_is_measured_by_its_own_cores(seed):
    """rest_mask keeps an Away's reading, with the cores its round bases were measured against;
    a vehicle placed against the same Away (farther_than's twin finds the reading kept) is
    measured against the two cores' Minkowski difference, not those."""
    rng = np.random.default_rng(seed)
    table, placed = _disembark(rng, 22.0, 30.0)
    rule = table.rule(round_base(32, 0.0, 0.0))
    away = rule.region.away[0]
    c = np.vstack([np.array([[f.x, f.y] for f in away.fps]) + rng.uniform(-9, 9, size=(len(away.fps), 2))
                   for _ in range(12)])
    twin_answer(REST_MASK, rule, c, np.ones(len(c), dtype=bool))   # (the reading kept, round cores in it)
    vehicle = _transport(rng, 0.0, 0.0)
    got = twin_answer(FARTHER, vehicle, c, away.fps, away.distance + RG.SLACK, away._circles)
    assert got.any() and not got.all()   # (some spots measured near a hull, some refused)


@built
@pytest.mark.parametrize("seed", range(4))
def test_zone_limits_gathered_per_rule_answer_as_their_references(seed):
    """Two deployment zones' rules for the same base, asked in turn: each spot is within its own
    rule's zone (edges_and_zone's twin gathers each rule's limits once)."""
    rng = np.random.default_rng(seed)
    fp = round_base(32, 0.0, 0.0)
    south = ((0.0, 0.0), (44.0, 0.0), (44.0, 12.0), (0.0, 12.0))
    north = ((0.0, 60.0), (0.0, 45.0), (20.0, 48.0), (44.0, 45.0), (44.0, 60.0))
    rules = [RG.deployment(z, BOARD).rule_for(fp) for z in (south, north)]
    inside = [0, 0]
    for _ in range(3):
        for i, rule in enumerate(rules):
            c = rng.uniform((0.0, 0.0), BOARD, size=(300, 2))
            inside[i] += int(twin_answer(EDGES, rule, c).sum())
    assert all(inside)


@built
def test_spots_fit_hands_the_spots_it_has_not_refused_to_the_reference_where_its_test_declines():
    """A hull too large for the twin's arithmetic (its core beyond 1e150) among the table's bases:
    the in-place test has refused some spots (a vehicle nearer them) when it meets that hull and
    declines; the spots it still holds go to farther_than's record, and the answer is the
    reference's."""
    fp = round_base(32, 0.0, 0.0)
    region = RG.deployment(((0.0, 0.0), (44.0, 0.0), (44.0, 30.0), (0.0, 30.0)), BOARD)
    near = Footprint("rect", 10.0, 10.0, 4.0, 2.0, 0.0)
    huge = Footprint("rect", 30.0, 10.0, 3e150, 2.0, 0.0)   # (its core's half length past 1e150)
    table = PL._Table(region, [("near", near), ("huge", huge)], (), PL.CLEARANCE)
    rng = np.random.default_rng(7)
    # (the first spots on the nearer vehicle, refused in place before the first one the large hull
    # is measured for; the others about it)
    c = np.vstack([np.array([10.0, 10.0]) + rng.uniform(-0.3, 0.3, size=(10, 2)),
                   np.array([10.0, 10.0]) + rng.uniform(-4, 4, size=(200, 2))])
    want = twin_answer(SPOTS_FIT, fp, c, [], table, PL.GAP)
    assert not want[:10].any() and want.any()
