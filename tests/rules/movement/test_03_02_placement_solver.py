"""03.02 The placement solver (sim.rules.movement.solvers.placement): every placement it
returns passes the rules' own checks (coherency 03.03, wholly within 01.04.01, no overlap 03.01,
no light or dense feature Part A ruling 13, the distance limits of 24.09, 24.20, 18.04-18.05,
20.04); it finds a placement where a brute-force packer does; and it refuses with a precise
reason."""


import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sim.rules.coherency import is_coherent
from sim.rules.deployment import deployment_problems, setup_problems, touches_edge, wholly_within
from sim.rules.geometry import Footprint, distance, footprint_polygon_distance, overlaps
from sim.rules.movement.solvers import placement as P
from sim.rules.movement.solvers import regions as R
from sim.rules.reserves import ingress_problems
from sim.rules.terrain import Feature, TerrainArea

MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NORTH = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))


def rnd(mm):
    return Footprint("round", 0.0, 0.0, mm * MM, mm * MM)


def oval(a, b):
    return Footprint("oval", 0.0, 0.0, a * MM, b * MM)


def rect(a, b):
    return Footprint("rect", 0.0, 0.0, a * MM, b * MM)


def unit(prefix, fp, n):
    return [(f"{prefix}{i}", fp) for i in range(n)]


def ruin(name, x0, y0, x1, y1, category="dense"):
    poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainArea(name, poly, (Feature(category, poly, 3.0 if category == "dense" else None),))


def assert_rules_pass(models, placement, region, others=(), terrain=()):
    setup = placement.footprints(models)
    assert len(setup) == len(models)
    assert setup_problems(setup, list(others), terrain) == []
    assert region.problems(setup) == []
    assert is_coherent(setup)
    return setup


# --- forced cases ----------------------------------------------------------------------------

def test_03_02_a_unit_of_twenty_is_set_up_wholly_within_the_zone_in_coherency():
    models = unit("w", rnd(32), 20)
    region = R.deployment(SOUTH, BOARD)
    got = P.place_unit(models, region, prefer=P.Prefer.front(SOUTH, BOARD))
    assert got
    setup = assert_rules_pass(models, got, region)
    assert all(wholly_within(f, SOUTH) for _m, f in setup)
    # the front: toward the enemy, so at the zone's north side
    assert max(f.y for _m, f in setup) > 10.5


def test_03_02_02_an_oversized_base_is_set_up_touching_its_players_edge():
    zone = ((0.0, 0.0), (60.0, 0.0), (60.0, 3.0), (0.0, 3.0))   # 3" deep: a 170 mm oval cannot fit
    models = [("big", oval(170, 105)), ("small", rnd(32))]
    region = R.deployment(zone, BOARD)
    got = P.place_unit(models, region)
    assert got
    setup = dict(assert_rules_pass(models, got, region))
    assert got.oversized == ("big",)
    assert touches_edge(setup["big"], BOARD, ("south",))
    assert not wholly_within(setup["big"], zone)
    assert wholly_within(setup["small"], zone)


def test_03_02_a_full_zone_is_refused_with_the_room_missing():
    zone = ((0.0, 0.0), (6.0, 0.0), (6.0, 4.0), (0.0, 4.0))
    models = unit("w", rnd(32), 20)
    got = P.place_unit(models, R.deployment(zone, BOARD), unit="warriors")
    assert not got
    assert got.unit == "warriors"
    assert got.free is not None and got.need is not None and got.free < got.need + 10
    assert "sq in free" in got.reason and "the unit's bases need" in got.reason
    assert "of 20 models placed" in got.reason


def test_03_02_a_zone_taken_by_other_bases_is_refused_naming_the_model():
    zone = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))
    others = [("tank", Footprint("rect", 2.0, 2.0, 3.8, 3.8))]
    got = P.place_unit([("a", rnd(40))], R.deployment(zone, BOARD), others)
    assert not got
    assert got.model == "a" and "no room" in got.reason and "40 mm round base" in got.reason


def test_24_20_infiltrators_are_set_up_more_than_8_from_the_enemy_zone_and_models():
    enemies = [("e1", Footprint("round", 30.0, 20.0, 1.26, 1.26)), ("e2", Footprint("round", 10.0, 22.0, 1.26, 1.26))]
    region = R.infiltrators(BOARD, NORTH, [f for _m, f in enemies], [m for m, _f in enemies])
    models = unit("s", rnd(32), 5)
    got = P.place_unit(models, region, enemies, prefer=P.Prefer.toward((30.0, 30.0)))
    assert got
    setup = assert_rules_pass(models, got, region, enemies)
    for _m, f in setup:
        assert footprint_polygon_distance(f, NORTH) > 8.0
        assert all(distance(f, e) > 8.0 for _e, e in enemies)
    # as near the point as the limits allow: within 1" of the 8" line
    assert min(footprint_polygon_distance(f, NORTH) for _m, f in setup) < 9.0


def test_24_09_deep_strike_keeps_more_than_8_from_every_enemy_even_in_their_zone():
    enemies = [("e1", Footprint("round", 30.0, 38.0, 1.26, 1.26))]
    region = R.deep_strike(BOARD, [enemies[0][1]], ["e1"])
    models = unit("d", rnd(40), 5)
    got = P.place_unit(models, region, enemies, prefer=P.Prefer.toward((30.0, 38.0)))
    assert got
    setup = assert_rules_pass(models, got, region, enemies)
    ds = [distance(f, enemies[0][1]) for _m, f in setup]
    assert min(ds) > 8.0 and min(ds) < 9.0


def test_20_04_ingress_is_wholly_within_6_of_an_edge_and_out_of_the_enemy_zone():
    enemies = [("e1", Footprint("round", 5.0, 5.0, 1.26, 1.26))]
    region = R.ingress_strip(BOARD, [enemies[0][1]], NORTH, round=2, names=["e1"])
    models = unit("r", rnd(32), 10)
    got = P.place_unit(models, region, enemies, prefer=P.Prefer.toward((30.0, 40.0)))
    assert got
    setup = assert_rules_pass(models, got, region, enemies)
    assert ingress_problems([f for _m, f in setup], BOARD, [enemies[0][1]], 2, NORTH) == []


def test_20_04_no_spot_near_an_edge_far_from_the_enemy_is_refused_precisely():
    small = (12.0, 12.0)
    enemies = [("e1", Footprint("round", 6.0, 6.0, 1.26, 1.26))]
    got = P.place_unit(unit("r", rnd(32), 3), R.ingress_strip(small, [enemies[0][1]], names=["e1"]), enemies)
    assert not got
    assert "wholly within 6\" of a battlefield edge" in got.reason
    assert "more than 8\" from every enemy model" in got.reason and "20.04" in got.reason


@pytest.mark.parametrize("region_of, reach", [(R.out_of_transport, 3.0), (R.out_of_wreck, 6.0)])
def test_18_04_disembarking_models_are_wholly_within_the_distance_of_the_transport(region_of, reach):
    transport = Footprint("rect", 30.0, 22.0, 5.0, 3.0)
    others = [("ship", transport)]
    region = region_of(BOARD, transport)
    models = unit("p", rnd(32), 10)
    got = P.place_unit(models, region, others, prefer=P.Prefer.toward_bases(transport))
    assert got
    setup = assert_rules_pass(models, got, region, others)
    from sim.rules.geometry import wholly_within_distance
    assert all(wholly_within_distance(f, transport, reach) for _m, f in setup)
    # 18.05 as close as possible: the unit hugs the transport
    assert min(distance(f, transport) for _m, f in setup) < 0.5


def test_18_05_a_partial_set_up_leaves_out_the_models_that_find_no_room():
    transport = Footprint("round", 30.0, 22.0, 2.0, 2.0)
    region = R.out_of_transport(BOARD, transport, distance=3.0)
    models = unit("p", rnd(32), 30)
    got = P.place_unit(models, region, [("ship", transport)], partial=True)
    assert got and got.left_out
    placed = [(m, f) for m, f in models if m not in got.left_out]
    assert_rules_pass(placed, got, region, [("ship", transport)])


def test_03_02_no_base_ends_on_a_dense_feature():
    zone = ((0.0, 0.0), (12.0, 0.0), (12.0, 12.0), (0.0, 12.0))
    terrain = (ruin("block", 2.0, 2.0, 10.0, 10.0),)
    models = unit("w", rnd(32), 10)
    region = R.deployment(zone, BOARD)
    got = P.place_unit(models, region, terrain=terrain, prefer=P.Prefer.toward((6.0, 6.0)))
    assert got
    assert_rules_pass(models, got, region, terrain=terrain)


def test_03_02_placement_is_deterministic():
    models = unit("w", rnd(32), 10) + unit("x", oval(90, 52), 2)
    region = R.deployment(SOUTH, BOARD)
    a = P.place_unit(models, region, prefer=P.Prefer.toward((20.0, 6.0)))
    b = P.place_unit(list(reversed(models)), region, prefer=P.Prefer.toward((20.0, 6.0)))
    assert dict(a.positions) == dict(b.positions)


@pytest.mark.parametrize("region, others", [
    (R.deployment(SOUTH, BOARD), ()),
    (R.ingress_strip(BOARD, [], NORTH, 2, []), unit("o", rnd(40), 3)),
])
def test_03_02_iter_placements_gives_placement_options_one_at_a_time(region, others):
    """A player that takes the first legal set-up reads iter_placements lazily: the same
    placements as placement_options, in the same order, and stopping early stops the search."""
    models = unit("w", rnd(32), 10) + unit("x", oval(90, 52), 2)
    others = [(m, f.moved(10.0 + 3 * k, 4.0)) for k, (m, f) in enumerate(others)]
    every = P.placement_options(models, region, others, prefer=P.Prefer.toward((20.0, 6.0)), count=5, apart=3.0)
    lazy = P.iter_placements(models, region, others, prefer=P.Prefer.toward((20.0, 6.0)), count=5, apart=3.0)
    assert len(every) >= 3
    assert next(lazy) == every[0]
    assert list(lazy) == every[1:]


# --- an army ----------------------------------------------------------------------------------

def army():
    """A 2,000-point army of the project's own invention: 20 units, 98 models."""
    out = [("gaunt-host", unit("g", rnd(32), 20)), ("gaunt-host-b", unit("h", rnd(32), 20)),
           ("line-a", unit("a", rnd(32), 10)), ("line-b", unit("b", rnd(32), 10)),
           ("veterans", unit("v", rnd(40), 5)), ("heavies", unit("hv", rnd(50), 3)),
           ("brutes", unit("br", rnd(60), 3)), ("riders", unit("rd", oval(90, 52), 3)),
           ("cavalry", unit("cv", oval(105, 70), 2)), ("walker", [("wk", oval(105, 70))]),
           ("tank-a", [("ta", rect(150, 90))]), ("tank-b", [("tb", rect(150, 90))]),
           ("leviathan", [("lv", oval(170, 105))])]
    out += [(f"hero-{k}", [(f"hero{k}", rnd(40))]) for k in range(5)]
    out += [("drones", unit("dr", rnd(50), 3)), ("scouts", unit("sc", rnd(32), 10))]
    return out


def test_03_02_a_2000_point_army_is_set_up_in_a_60_by_12_zone_with_terrain():
    terrain = (ruin("ruin-w", 14.0, 1.0, 18.0, 5.0), ruin("ruin-e", 42.0, 6.0, 46.0, 10.0, "light"))
    units = army()
    region = R.deployment(SOUTH, BOARD)
    got = P.place_army(units, region, terrain=terrain, prefer=P.Prefer.back(SOUTH, BOARD))
    assert got, got
    assert sorted(got.units) == sorted(u for u, _m in units)
    everything = []
    for uid, models in units:
        setup = assert_rules_pass(models, got.units[uid], region, everything, terrain)
        everything += setup
    assert deployment_problems([(m, 0, f) for m, f in everything], [SOUTH]) == []


def test_03_02_an_army_too_big_for_its_zone_is_refused_naming_the_unit():
    zone = ((0.0, 0.0), (20.0, 0.0), (20.0, 6.0), (0.0, 6.0))
    got = P.place_army(army(), R.deployment(zone, BOARD))
    assert not got
    assert got.unit is not None and "units placed" in got.reason and "sq in free" in got.reason
    assert set(got.placed) < {u for u, _m in army()}
    # (explain=False, for a caller that reads only which unit found no room: the same unit and
    # units placed, without the room free and needed, a count over the whole zone)
    quiet = P.place_army(army(), R.deployment(zone, BOARD), explain=False)
    assert not quiet and (quiet.unit, quiet.placed) == (got.unit, got.placed) and quiet.free is None
    assert P.place_army(army(), R.deployment(SOUTH, BOARD), explain=False) == P.place_army(army(), R.deployment(SOUTH, BOARD))



def test_03_02_place_army_kept_reads_back_the_units_placed_before(monkeypatch):
    """``kept``: a try with the same units before reads their searches back (room_for's tries
    after holding units back); the answers are those without it, and another table (terrain,
    preference, turning) or another unit before searches afresh."""
    zone = ((0.0, 0.0), (20.0, 0.0), (20.0, 6.0), (0.0, 6.0))
    region, units = R.deployment(zone, BOARD), army()
    calls = []
    solve = P._solve
    monkeypatch.setattr(P, "_solve", lambda uid, *a, **k: calls.append(uid) or solve(uid, *a, **k))
    kept: dict = {}
    first = P.place_army(units, region, explain=False, kept=kept)
    assert len(calls) == len(first.placed) + 1
    assert not first and first == P.place_army(units, region, explain=False)
    fewer = [u for u in units if u[0] in first.placed]   # (the unit that found no room, and those after, held)
    del calls[:]
    again = P.place_army(fewer, region, explain=False, kept=kept)
    assert again and calls == [] and again == P.place_army(fewer, region, explain=False)
    assert first.placed == ("leviathan", "tank-a", "tank-b")

    def searched(*args, **kw) -> list:
        del calls[:]
        P.place_army(*args, explain=False, kept=kept, **kw)
        return list(calls)

    assert searched(fewer, region, turn=True) == ["leviathan", "tank-a", "tank-b"]    # (another table)
    assert searched(fewer, region, prefer=P.Prefer.back(zone, BOARD)) == ["leviathan", "tank-a", "tank-b"]
    assert searched([u for u in fewer if u[0] != "leviathan"], region) == ["tank-a", "tank-b"]  # (another first)
    assert searched([u for u in fewer if u[0] != "tank-a"], region) == ["tank-b"]   # (the first read back)
    assert searched(fewer, region) == []

# --- invariants and the brute-force comparison -------------------------------------------------

BASES = st.sampled_from([rnd(25), rnd(32), rnd(40), rnd(50), rnd(60), oval(90, 52), oval(105, 70), rect(100, 60)])


def _table_terrain(name: str) -> tuple:
    """The terrain of a shipped scenario on this 60" x 44" board (its ruins, woods and walls)."""
    from pathlib import Path

    from sim.scenario.load import load_scenario
    spec = load_scenario(Path(__file__).resolve().parents[3] / "scenarios" / f"{name}.toml")
    assert tuple(spec.board) == BOARD
    return tuple(spec.terrain)


TERRAINS = ((), _table_terrain("battle_default"), _table_terrain("charge_terrain"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bases=st.lists(BASES, min_size=1, max_size=8),
       x0=st.floats(0, 30), y0=st.floats(0, 20), w=st.floats(3, 25), h=st.floats(3, 15),
       px=st.floats(0, 60), py=st.floats(0, 44),
       enemies=st.lists(st.tuples(st.floats(2, 58), st.floats(2, 42)), max_size=3),
       kind=st.sampled_from(["deployment", "deep strike", "ingress", "disembark"]),
       terrain=st.sampled_from(TERRAINS))
def test_03_02_every_placement_returned_passes_the_rules_checks(bases, x0, y0, w, h, px, py, enemies, kind,
                                                                 terrain):
    models = [(f"m{i}", b) for i, b in enumerate(bases)]
    foes = [(f"e{i}", Footprint("round", x, y, 1.26, 1.26)) for i, (x, y) in enumerate(enemies)]
    efs = [f for _m, f in foes]
    if kind == "deployment":
        zone = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
        region = R.deployment(zone, BOARD, efs)
    elif kind == "deep strike":
        region = R.deep_strike(BOARD, efs, [m for m, _f in foes])
    elif kind == "ingress":
        region = R.ingress_strip(BOARD, efs, NORTH, round=2, names=[m for m, _f in foes])
    else:
        region = R.out_of_transport(BOARD, Footprint("rect", min(max(px, 5), 55), min(max(py, 5), 39), 5.0, 3.0), efs)
        foes = foes + [("ship", region.near.target)]
    got = P.place_unit(models, region, foes, terrain, prefer=P.Prefer.toward((px, py)))
    if got:
        assert_rules_pass(models, got, region, foes, terrain)
    else:
        assert got.reason
    # the search alone, without the rules' check of each placement it finds (a player's set-up
    # or ingress: Battle.check makes that check): the same placements in the same order (were
    # the check ever to refuse one, the checked search would go on as if it had not been found,
    # the unchecked one would not), each accepted by the rules (place_unit's own check could
    # hide a placement they refuse; this one cannot); among the features of a real table too
    unchecked = list(P.iter_placements(models, region, foes, terrain, prefer=P.Prefer.toward((px, py)), count=3,
                                       apart=3.0, checked=False))
    assert unchecked == list(P.iter_placements(models, region, foes, terrain, prefer=P.Prefer.toward((px, py)),
                                               count=3, apart=3.0))
    for placement in unchecked:
        assert_rules_pass(models, placement, region, foes, terrain)


def brute_force(models, zone, step=0.25):
    """Every way to put the models' centres on a ``step`` lattice in the zone (small cases):
    wholly within, no overlap, coherent. True if one exists."""
    from sim.rules.deployment import half_extents
    xs = [p[0] for p in zone]
    ys = [p[1] for p in zone]
    spots = []
    for _m, f in models:
        hx, hy = half_extents(f)
        x0, y0 = min(xs) + hx + 0.01, min(ys) + hy + 0.01
        pts = [(x0 + i * step, y0 + j * step) for i in range(int((max(xs) - x0) / step) + 1)
               for j in range(int((max(ys) - y0) / step) + 1)]
        spots.append([f.moved(x, y) for x, y in pts if wholly_within(f.moved(x, y), zone)])

    def go(k, placed):
        if k == len(models):
            return is_coherent(list(zip([m for m, _f in models], placed)))
        for f in spots[k]:
            if all(not overlaps(f, g) for g in placed):
                if go(k + 1, placed + [f]):
                    return True
        return False
    return go(0, [])


@pytest.mark.parametrize("bases, size", [
    ([rnd(32)] * 4, (2.85, 2.85)), ([rnd(60)] * 2, (5.0, 2.5)), ([oval(90, 52), rnd(32)], (5.1, 2.2)),
    ([rnd(40), rnd(40), rnd(32)], (4.7, 1.8)), ([rnd(50), rnd(25)], (3.0, 2.0))])
def test_03_02_it_finds_a_placement_where_a_brute_force_packer_does(bases, size):
    zone = ((0.0, 0.0), (size[0], 0.0), (size[0], size[1]), (0.0, size[1]))
    models = [(f"m{i}", b) for i, b in enumerate(bases)]
    assert brute_force(models, zone)
    got = P.place_unit(models, R.deployment(zone, BOARD, oversized=False), gap=0.01, clearance=0.01)
    assert got, got


@pytest.mark.parametrize("n, partial, outcomes", [(8, False, {True}), (26, False, {True, False}), (30, True, {True})])
def test_03_02_a_table_searched_from_every_side_answers_as_a_fresh_one(n, partial, outcomes, monkeypatch):
    """A disembark searches one table (placement.table_for) from each side of its transport in
    turn: the growths without a preference it keeps for the searches after (_Table.grown, the
    compact and square fallbacks of an anchor two searches share) and the anchors' legality
    verdicts (_Table.verdicts: each side tests the same candidates in its own order) and the
    candidates themselves (_Table.anchors: each side ranks them in its own order) make every
    side's answer the one a search that keeps none gives: the placement, or the refusal and its
    words (what the search got to); a table given a unit's bases more (``add``) forgets them."""
    transport = Footprint("rect", 30.0, 22.0, 5.0, 3.0)
    crowd = [(f"c{i}", rnd(40).moved(30.0 + 5.5 * math.cos(a), 22.0 + 4.5 * math.sin(a)))
             for i, a in enumerate(k * math.pi / 5 for k in range(1, 10, 2))]
    others = [("ship", transport)] + crowd
    region = R.out_of_transport(BOARD, transport, distance=3.0)
    models = unit("p", rnd(32), n)
    table = P.table_for(region, others)
    kept = P._grow_kept

    def unkept(order, anchor_fp, table, gap, turn, partial, tried, square=False, spelled=None):
        return P._grow(order, anchor_fp, table, None, gap, turn, partial, tried, square)

    found = []
    for k in (2, 0, 1):  # (26 bases: the first side fits, the two after do not)
        a = k * math.pi / 4
        prefer = P.Prefer.toward((30.0 + 20 * math.cos(a), 22.0 + 20 * math.sin(a)))
        monkeypatch.setattr(P, "_grow_kept", kept)
        shared = P.place_unit(models, region, others, prefer=prefer, partial=partial, table=table)
        monkeypatch.setattr(P, "_grow_kept", unkept)
        fresh = P.place_unit(models, region, others, prefer=prefer, partial=partial)
        assert shared == fresh
        found.append(bool(fresh))
        if fresh:
            assert_rules_pass([(m, f) for m, f in models if m not in fresh.left_out], fresh, region, others)
    assert set(found) == outcomes  # (30 bases fit only in part, 18.05)
    if False in outcomes:
        assert table.grown  # (the fallbacks of the sides that failed, kept for the sides after)
    (c, _group, known), = table.verdicts.values()   # (the anchors' verdicts, read by the sides after)
    assert len(c) == len(known) and (known >= 0).any() and set(known.tolist()) <= {-1, 0, 1}
    (_facings, _spots, kept_c, _g, _span), = table.anchors.values()   # (the candidates, ranked by each side)
    assert kept_c is c and not kept_c.flags.writeable
    table.add(unit("late", rnd(32).moved(10.0, 10.0), 1))
    assert table.grown == {} and table.verdicts == {} and table.anchors == {}


@pytest.mark.parametrize("turn", [False, True])
def test_03_02_kept_anchor_candidates_are_each_bases_own_and_a_fresh_tables(turn):
    """_Table.anchors keeps a search's anchor candidates by the anchor's base and turning: a
    search of another base, or turned otherwise, on the same table reads its own, each equal to
    what a fresh table of the same region and bases gives (the spots, their facings, the span)."""
    transport = Footprint("rect", 30.0, 22.0, 5.0, 3.0)
    others = [("ship", transport), ("c0", rnd(40).moved(36.0, 22.0)), ("c1", oval(90, 52).moved(24.0, 25.0))]
    region = R.out_of_transport(BOARD, transport, distance=3.0)
    table = P.table_for(region, others)
    bases = [rnd(32), rnd(60), oval(90, 52), Footprint("rect", 0.0, 0.0, 4.0, 2.0, 30.0)]
    for fp in bases:
        list(P._search([("a", fp)], table, P.Prefer.toward((0.0, 0.0)), P.GAP, turn, False, 1, 0.0, P._Tried()))
    assert len(table.anchors) == len(bases)
    for fp in bases:
        facings, spots, c, group, span = table.anchors[(repr(fp), turn)]
        f2, s2, c2, g2, span2 = P._anchor_spots(fp, turn, P.table_for(region, others))
        assert facings == f2 and [g for g, _s in spots] == [g for g, _s in s2]
        assert all(np.array_equal(a, b) for (_g, a), (_h, b) in zip(spots, s2))
        assert np.array_equal(c, c2) and np.array_equal(group, g2) and np.array_equal(span, span2)


@pytest.mark.parametrize("turn", [False, True])
def test_03_02_bases_equal_but_spelled_otherwise_read_back_their_own(turn):
    """What a table keeps of a search (its anchor candidates and facings, its growths without a
    preference) is keyed by the bases as they are spelled, not by ``==`` (an angle of 30 equals
    30.0, -0.0 equals 0.0): a unit searched after another whose bases differ only so gets the
    placement a fresh table gives it, to its repr (its own angles and sizes, not the first's)."""
    transport = Footprint("rect", 30.0, 22.0, 5.0, 3.0)
    others = [("ship", transport)]
    region = R.out_of_transport(BOARD, transport, distance=6.0)
    prefer = P.Prefer.toward((0.0, 0.0))
    pairs = [(Footprint("rect", 0, 0, 4, 2, 30), Footprint("rect", 0.0, 0.0, 4.0, 2.0, 30.0)),
             (Footprint("rect", 0.0, 0.0, 4.0, 2.0, 0.0), Footprint("rect", 0.0, 0.0, 4.0, 2.0, -0.0)),
             (Footprint("round", 0.0, 0.0, 1.26, 1.26, 0.0), Footprint("round", 0.0, 0.0, 1.26, 1.26, -0.0))]
    for first, then in pairs:
        for n in (1, 4):   # (four: the growths, kept ones among them where a side's fails)
            table = P.table_for(region, others)
            for fp in (first, then):
                models = [(f"m{i}", fp) for i in range(n)]
                shared = P.place_unit(models, region, others, prefer=prefer, turn=turn, table=table)
                fresh = P.place_unit(models, region, others, prefer=prefer, turn=turn)
                assert repr(shared) == repr(fresh)
            assert len(table.anchors) == 2


def test_03_02_a_kept_growth_is_the_growth_of_the_models_as_spelled():
    """_grow_kept keys the models as spelled: two units equal by ``==`` whose sizes are spelled
    30 and 30.0 each read back the growth made of them."""
    table = P.table_for(R.deployment(SOUTH, BOARD))
    a = [(f"m{i}", Footprint("rect", 0, 0, 4, 2, 0)) for i in range(4)]
    b = [(f"m{i}", Footprint("rect", 0.0, 0.0, 4.0, 2.0, 0.0)) for i in range(4)]
    assert a == b
    for models in (a, b):
        at = models[0][1].moved(20.0, 6.0)
        kept = P._grow_kept(models, at, table, P.GAP, False, False, P._Tried())
        assert repr(kept) == repr(P._grow(models, at, table, None, P.GAP, False, False, P._Tried()))
    assert len(table.grown) == 2


def test_03_02_a_zones_anchor_verdicts_are_not_kept():
    """A region with a zone tests its spots by a matrix product, which could round a spot
    differently beside others: its anchors' verdicts are not kept for another search (each
    tested with the spots of its own chunk)."""
    zoned = P.table_for(R.deployment(SOUTH, BOARD))
    c, group = np.array([[5.0, 5.0], [9.0, 3.0]]), np.zeros(2, dtype=int)
    mine = P._known_verdicts(zoned, (rnd(32), False), c, group)
    assert mine.tolist() == [-1, -1] and zoned.verdicts == {}
    assert P._known_verdicts(zoned, (rnd(32), False), c, group) is not mine   # (none kept: each its own)
    free = P.table_for(R.out_of_transport(BOARD, rnd(60).moved(30.0, 22.0)))
    known = P._known_verdicts(free, (rnd(32), False), c, group)
    assert known.tolist() == [-1, -1] and P._known_verdicts(free, (rnd(32), False), c, group) is known
    assert P._known_verdicts(free, (rnd(32), False), c[::-1].copy(), group) is not known   # (other spots)


def test_03_02_a_refusal_unexplained_skips_measuring_the_free_room():
    """place_unit(explain=False), for a caller that reads only whether a set-up was found (a
    disembark's layout round its transport): the same placement, and a refusal without the
    free room, which is a count over the whole region."""
    transport = Footprint("round", 30.0, 22.0, 2.0, 2.0)
    region = R.out_of_transport(BOARD, transport, distance=3.0)
    few, many = unit("p", rnd(32), 5), unit("p", rnd(32), 30)
    assert P.place_unit(few, region, [("ship", transport)], explain=False) == \
        P.place_unit(few, region, [("ship", transport)])
    told = P.place_unit(many, region, [("ship", transport)])
    quiet = P.place_unit(many, region, [("ship", transport)], explain=False)
    assert not told and told.free is not None and "sq in free" in told.reason
    assert not quiet and quiet.free is None and quiet.unit == "the unit"


def test_03_02_a_kept_growth_is_the_growth_of_the_same_models_anchor_and_packing():
    """_grow_kept keeps a growth without a preference by everything it reads besides the table:
    the compact and the square packing from one anchor, and another unit's from the same spot,
    are each the growth _grow makes of them, never another's."""
    table = P.table_for(R.deployment(SOUTH, BOARD))
    small, big = unit("w", rnd(32), 10), unit("x", rnd(40), 10)
    got = {}
    for models in (small, big):
        at = models[0][1].moved(20.0, 6.0)
        for square in (False, True):
            kept = P._grow_kept(models, at, table, P.GAP, False, False, P._Tried(), square)
            assert kept == P._grow(models, at, table, None, P.GAP, False, False, P._Tried(), square)
            got[models[0][0], square] = kept
    assert got["w0", False] != got["w0", True] and got["w0", False] != got["x0", False]
    assert len(table.grown) == 4


def test_03_02_a_table_made_for_another_region_or_clearance_is_refused():
    """place_unit(table=...) searches the table it is given: one made for another region or
    clearance than the call names would answer for them, so it is refused."""
    transport = Footprint("round", 30.0, 22.0, 2.0, 2.0)
    near, far = R.out_of_transport(BOARD, transport, distance=3.0), R.out_of_transport(BOARD, transport, distance=6.0)
    table = P.table_for(near, [("ship", transport)])
    models = unit("p", rnd(32), 3)
    assert P.place_unit(models, near, [("ship", transport)], table=table)
    with pytest.raises(ValueError, match="another region or clearance"):
        P.place_unit(models, far, [("ship", transport)], table=table)
    with pytest.raises(ValueError, match="another region or clearance"):
        P.place_unit(models, near, [("ship", transport)], clearance=1.0, table=table)
