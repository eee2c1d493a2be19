"""03.02 The placement solver's search (sim.rules.movement.solvers.placement) ranks and tests
its spots by cheaper means than the plain reading, with the same answers to the bit and in the
same order: ``_Ranking`` (the anchor spots' order) against ``np.lexsort`` of their keys; the
``_Table``'s kept boxes (``near``, ``contact_spots``, ``clear``) against every base read afresh,
as units are added; the zone's pieces, its player's edge and the shoelace area against
np.roll's readings."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.geometry import Footprint
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG

from random_bases import random_base

MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NORTH = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))


def _anchor_keys_reading(prefer, fp, c):
    """placement._anchor_keys as its docstring reads: the preference's score to 6 decimals (to
    2 against an edge), then the lateral coordinate; nothing preferred: y, then x."""
    if not (prefer.points or prefer.bases or prefer.edge):
        return [np.round(c[:, 1], 6), np.round(c[:, 0], 6)]
    s = prefer.score(fp, c, BOARD)
    return [np.round(s, 2) if prefer.edge else np.round(s, 6), np.round(prefer.lateral(c), 6)]


def _lexsort(keys):
    """The plain reading: by the first key, then the second, then the index."""
    return np.lexsort([np.arange(len(keys[0]))] + list(reversed(keys)))


@pytest.mark.parametrize("seed", range(8))
def test_ranked_is_lexsort_of_rounded_keys(seed):
    """(Ties in both keys, negative keys and -0.0, a few spots and a few thousand.)"""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 7, 300, 5000]))
    s = rng.uniform(-70.0, 70.0, size=n) * rng.choice([1.0, 1e-4, 1e3])
    if seed % 2:   # (a lattice's distances: many equal keys)
        s = np.round(s * 4) / 4
    s[rng.random(n) < 0.05] = -1e-9   # (rounds to -0.0)
    lat = rng.choice(rng.uniform(0.0, 60.0, size=max(1, n // 7)), size=n)
    for d1 in (2, 6):
        keys = [np.round(s, d1), np.round(lat, 6)]
        got = PL._Ranking(keys, (d1, 6)).prefix(len(keys[0]))
        assert got.tolist() == _lexsort(keys).tolist()


def test_ranked_of_keys_out_of_its_range_is_lexsort():
    """(Keys too large to read as integers, or not finite: lexsort itself.)"""
    rng = np.random.default_rng(3)
    for big in (1e9, 1e13, -1e15, np.inf, np.nan):   # (1e13 and more: past the integers' range)
        s = np.round(rng.uniform(0, 10, size=50), 6)
        s[[3, 17, 40]] = big
        keys = [s, np.round(rng.choice([0.0, 1.5, 2.5], size=50), 6)]
        assert PL._Ranking(keys, (6, 6)).prefix(len(keys[0])).tolist() == _lexsort(keys).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_ranking_read_in_part_is_the_head_of_lexsort(seed):
    """``_Ranking.prefix``: the first k of the order, read in the search's growing chunks or at
    any k, with many ties at the k-th key (a lattice's distances), and keys it cannot join."""
    rng = np.random.default_rng(100 + seed)
    n = [1, 300, 700, 2000, 4000, 9000][seed]   # (above 512: the head ordered by partition)
    s = np.round(np.round(rng.uniform(0.0, 40.0, size=n) * 2) / 2, 6)   # (few distinct values)
    lat = np.round(rng.choice([0.0, 1.5, 2.5, 7.0], size=n), 6)
    if seed == 4:
        s[rng.random(n) < 0.1] = np.inf   # (lexsort itself, whole)
    keys = [s, lat]
    want = _lexsort(keys).tolist()
    ranking = PL._Ranking(keys, (6, 6))
    assert len(ranking) == n
    for k in sorted({0, 1, 2, 127, 128, 129, 384, 385, 896, n // 4 - 1, n // 4, n - 1, n, n + 5} - {-1}):
        assert PL._Ranking(keys, (6, 6)).prefix(k).tolist() == want[:k]
    start, size = 0, PL.CHUNK   # (as _legal_in_rank_order reads it: one object, growing)
    while start < n:
        assert ranking.prefix(start + size)[start:].tolist() == want[start:start + size]
        start, size = start + size, min(2 * size, PL.MAX_CHUNK)


@pytest.mark.parametrize("scale", [1.0, 50.0])
def test_ranking_made_unique_or_not_is_the_head_of_lexsort(scale):
    """Joined keys made unique by their index (a table's: the key times n, plus the index, sorted
    plainly) and joined keys too wide for that (their stable order, as before): the same heads,
    read in the search's chunks, with ties at every chunk's edge."""
    rng = np.random.default_rng(7)
    n = 3000
    s = np.round(np.round(rng.uniform(0.0, 40.0, size=n) * 2) / 2 * scale, 6)
    lat = np.round(rng.choice([0.0, 1.5, 2.5, 7.0], size=n) * scale, 6)
    keys = [s, lat]
    ranking = PL._Ranking(keys, (6, 6))
    assert ranking._joined is not None and ranking._unique == (scale == 1.0)
    want = _lexsort(keys).tolist()
    start, size = 0, PL.CHUNK
    while start < n:
        assert ranking.prefix(start + size)[start:].tolist() == want[start:start + size]
        start, size = start + size, min(2 * size, PL.MAX_CHUNK)
    for k in (1, 127, 749, 750, 751, n):
        assert PL._Ranking(keys, (6, 6)).prefix(k).tolist() == want[:k]


@pytest.mark.parametrize("seed", range(6))
def test_the_anchor_spots_rank_as_lexsort_ranks_them(seed):
    """(A search's own anchor keys: each preference, each kind of region, bases of each shape.)"""
    rng = np.random.default_rng(seed)
    enemies = [random_base(rng, *rng.uniform([0, 14], [60, 44])) for _ in range(8)]
    region = [RG.deployment(SOUTH, BOARD), RG.ingress_strip(BOARD, enemies, NORTH),
              RG.infiltrators(BOARD, NORTH, enemies)][seed % 3]
    table = PL._Table(region, [(f"o{i}", random_base(rng, *rng.uniform(0, 60, size=2))) for i in range(30)],
                      (), PL.CLEARANCE)
    fp = [Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM), Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM)][seed % 2]
    c = np.vstack([table.rule(fp).seeds(), table.contact_spots(fp, np.array([0.0, 0.0]), np.array([60.0, 44.0]))])
    for prefer in (PL.Prefer(), PL.Prefer.toward((float(rng.integers(0, 60)), float(rng.integers(0, 12)))),
                   PL.Prefer.toward((10.0, 4.0), (50.0, 6.0)), PL.Prefer.back(SOUTH, BOARD),
                   PL.Prefer.front(SOUTH, BOARD), PL.Prefer.against("west"),
                   PL.Prefer.toward_bases(enemies[0].moved(30.0, 20.0))):
        keys = PL._anchor_keys(prefer, fp, c, BOARD)
        want_keys = _anchor_keys_reading(prefer, fp, c)
        assert [k.tobytes() for k in keys] == [k.tobytes() for k in want_keys]
        got = PL._Ranking(keys, PL._anchor_decimals(prefer)).prefix(len(c))
        assert got.tolist() == _lexsort(want_keys).tolist()


# --- the table's kept boxes -------------------------------------------------------------------

def _near_reading(table, c, reach):
    """_Table.near as it reads: the other bases whose box (centre -+ bounding radius) meets the
    spots' box grown by ``reach``."""
    if not len(table.others) or not len(c):
        return np.zeros(0, dtype=np.int64)
    oc = np.array([(f.x, f.y) for _m, f in table.others])
    b = np.array([f.bounding_radius for _m, f in table.others])
    lo, hi = c.min(axis=0) - reach, c.max(axis=0) + reach
    return np.flatnonzero((oc[:, 0] + b >= lo[0]) & (oc[:, 0] - b <= hi[0]) & (oc[:, 1] + b >= lo[1])
                          & (oc[:, 1] - b <= hi[1]))


def _contact_spots_reading(table, fp, lo, hi):
    """_Table.contact_spots as it reads: the rings ``clearance`` round each other base whose box
    meets lo..hi grown by the base's reach."""
    if not len(table.others):
        return np.zeros((0, 2))
    pad = fp.bounding_radius + table.clearance
    keep = [j for j, (_m, o) in enumerate(table.others)
            if o.x + o.bounding_radius >= lo[0] - pad and o.x - o.bounding_radius <= hi[0] + pad
            and o.y + o.bounding_radius >= lo[1] - pad and o.y - o.bounding_radius <= hi[1] + pad]
    if not keep:
        return np.zeros((0, 2))
    if fp.shape == "round" and all(table.others[j][1].shape == "round" for j in keep):
        oc = np.array([(table.others[j][1].x, table.others[j][1].y) for j in keep])
        t = np.array([0.5 * table.others[j][1].length for j in keep]) + 0.5 * fp.length + table.clearance
        return (oc[:, None, :] + t[:, None, None] * RG.directions(12)[None, :, :]).reshape(-1, 2)
    return np.vstack([RG.ring(fp, table.others[j][1], table.clearance, 12) for j in keep])


def _clear_reading(table, fp, c):
    """_Table.clear as it reads: every other base (round ones by their discs) ``clearance``
    away, then no light or dense feature under the base grown by SLACK."""
    from sim.rules.movement.legality import feature_mask
    from sim.rules.movement.solvers import table as TB
    ok = np.ones(len(c), dtype=bool)
    rnd = [j for j, (_m, o) in enumerate(table.others) if o.shape == "round"]
    hull = [j for j, (_m, o) in enumerate(table.others) if o.shape != "round"]
    if fp.shape == "round" and rnd:
        oc = np.array([(table.others[j][1].x, table.others[j][1].y) for j in rnd])
        orad = np.array([0.5 * table.others[j][1].length for j in rnd])
        ok &= TB._discs_clear(c, 0.5 * fp.length, oc, orad, table.clearance - 1e-9)
    rest = hull if fp.shape == "round" else rnd + hull
    if rest and ok.any():
        sel = np.flatnonzero(ok)
        ok[sel] = RG.farther_than(fp, c[sel], [table.others[j][1] for j in sorted(rest)], table.clearance - 1e-9)
    if len(table.terr.no_end) and ok.any():
        sel = np.flatnonzero(ok)
        grown = Footprint(fp.shape, 0.0, 0.0, fp.length + 2 * RG.SLACK, fp.width + 2 * RG.SLACK, fp.angle)
        ok[sel] = ~feature_mask(grown, c[sel], table.terr)
    return ok


@pytest.mark.parametrize("seed", range(8))
def test_the_tables_kept_boxes_are_the_readings_as_units_are_added(seed):
    """(An army's table: the boxes and which bases are round kept from one ``add`` to the next;
    near, contact_spots and clear read as every base read afresh.)"""
    from test_03_02_placement_solver import ruin
    rng = np.random.default_rng(seed)
    terrain = (ruin("ruin-w", 14.0, 1.0, 18.0, 5.0), ruin("ruin-e", 42.0, 6.0, 46.0, 10.0, "light"))
    table = PL._Table(RG.deployment(SOUTH, BOARD), [], terrain if seed % 2 else (), PL.CLEARANCE)
    fps = [Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM), Footprint("round", 0.0, 0.0, 60 * MM, 60 * MM),
           Footprint("oval", 0.0, 0.0, 90 * MM, 52 * MM, 30.0)]
    checked = 0
    for step in range(4):
        for fp in fps:
            c = rng.uniform([0.0, 0.0], [60.0, 14.0], size=(int(rng.integers(1, 400)), 2))
            for reach in (0.0, fp.bounding_radius + table.clearance):
                assert table.near(c, reach).tolist() == _near_reading(table, c, reach).tolist()
            lo = rng.uniform([0.0, 0.0], [50.0, 8.0])
            hi = lo + rng.uniform(1.0, 10.0, size=2)
            got, want = table.contact_spots(fp, lo, hi), _contact_spots_reading(table, fp, lo, hi)
            assert got.shape == want.shape and got.tobytes() == want.tobytes()
            got, want = table.clear(fp, c), _clear_reading(table, fp, c)
            assert got.tolist() == want.tolist()
            checked += int(len(table.others) > 0) * int((~got).any())
        k = len(table.others)
        table.add([(f"u{step}-{i}", (random_base(rng, 0.0, 0.0) if i % 5 == 4 else fps[i % 2]).moved(
            *rng.uniform([0.0, 0.0], [60.0, 14.0]))) for i in range(int(rng.integers(5, 25)))])
        assert len(table.box[0]) == len(table.others) > k
    assert checked


# --- the zone's pieces, its player's edge and the shoelace area, without np.roll's wrapper -----

def _signed_area_reading(poly):
    p = np.asarray(poly, dtype=float)
    q = np.roll(p, -1, axis=0)
    return 0.5 * float(np.sum(p[:, 0] * q[:, 1] - q[:, 0] * p[:, 1]))


def _zone_pieces_reading(zone):
    from sim.rules.polygons import ccw, convex_pieces
    out = []
    for piece in convex_pieces(np.asarray(zone, dtype=float)):
        p = ccw(piece)
        e = np.roll(p, -1, axis=0) - p
        ln = np.hypot(e[:, 0], e[:, 1])
        ok = ln > 1e-12
        n = np.stack([e[ok, 1], -e[ok, 0]], axis=1) / ln[ok, None]
        out.append((n, (n * p[ok]).sum(axis=1)))
    return out


def _player_edge_reading(zone, board):
    import math
    from sim.rules.deployment import EDGES, EPS
    W, H = float(board[0]), float(board[1])
    pts = np.asarray(zone, dtype=float)
    shared = dict.fromkeys(EDGES, 0.0)
    for (x0, y0), (x1, y1) in zip(pts, np.roll(pts, -1, axis=0)):
        ln = math.hypot(x1 - x0, y1 - y0)
        for edge, on in (("south", abs(y0) <= EPS and abs(y1) <= EPS), ("north", abs(y0 - H) <= EPS and abs(y1 - H) <= EPS),
                         ("west", abs(x0) <= EPS and abs(x1) <= EPS), ("east", abs(x0 - W) <= EPS and abs(x1 - W) <= EPS)):
            if on:
                shared[edge] += ln
    best = max(EDGES, key=lambda e: (shared[e], -EDGES.index(e)))
    if shared[best] > 0:
        return best
    gaps = {"south": pts[:, 1].min(), "north": H - pts[:, 1].max(), "west": pts[:, 0].min(), "east": W - pts[:, 0].max()}
    return min(EDGES, key=lambda e: (gaps[e], EDGES.index(e)))


@pytest.mark.parametrize("seed", range(6))
def test_zone_pieces_player_edge_and_area_are_the_readings(seed):
    from sim.rules.deployment import player_edge
    from sim.rules.polygons import signed_area
    rng = np.random.default_rng(seed)
    notched = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (30.0, 12.0), (30.0, 8.0), (0.0, 8.0))
    corner = ((0.0, 44.0), (0.0, 20.0), (float(rng.uniform(5, 25)), 44.0))   # (a triangle, clockwise)
    inner = tuple(map(tuple, rng.uniform([10, 10], [50, 34], size=(3, 2))))   # (on no edge)
    for zone in (SOUTH, NORTH, notched, corner, inner, tuple(reversed(notched))):
        assert signed_area(zone).hex() == _signed_area_reading(zone).hex()
        assert player_edge(zone, BOARD) == _player_edge_reading(zone, BOARD)
        got, want = RG._zone_pieces(tuple(zone)), _zone_pieces_reading(zone)
        assert len(got) == len(want)
        for (n, off), (wn, woff) in zip(got, want):
            assert n.tobytes() == wn.tobytes() and off.tobytes() == woff.tobytes()


# --- the spots off the battlefield or out of the strip, left out before the ranking -----------

def _regions_without_a_zone(rng):
    enemies = [random_base(rng, *rng.uniform([0, 14], [60, 44])) for _ in range(12)]
    transport = Footprint("oval", *rng.uniform([10, 10], [50, 34]), 170 * MM, 105 * MM, float(rng.uniform(0, 180)))
    return [RG.ingress_strip(BOARD, enemies, NORTH, round=2), RG.ingress_strip(BOARD, enemies, None, round=3),
            RG.deep_strike(BOARD, enemies), RG.out_of_transport(BOARD, transport, enemies[:3]),
            RG.out_of_wreck(BOARD, transport, enemies[:3]), RG.infiltrators(BOARD, NORTH, enemies)]


@pytest.mark.parametrize("seed", range(6))
def test_edges_mask_is_false_only_where_mask_is_and_leaves_the_rest_alone(seed):
    """``ModelRule.edges_mask`` (a region with no zone): every spot it rules out, ``mask``
    rules out; the spots it keeps get ``mask``'s answers alone as beside the others. A region
    with a zone has none."""
    rng = np.random.default_rng(200 + seed)
    fps = [Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM), Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM, 30.0),
           Footprint("rect", 0.0, 0.0, 8.0, 5.0), Footprint("round", 0.0, 0.0, 7.0, 7.0)]   # (the last: edge modes)
    c = rng.uniform([-2.0, -2.0], [62.0, 46.0], size=(3000, 2))
    for region in _regions_without_a_zone(rng):
        for fp in fps:
            rule = region.rule_for(fp)
            want = rule.mask(c)
            near = rule.edges_mask(c)
            assert not (want & ~near).any() and (~near).any()
            assert rule.mask(c[near]).tolist() == want[near].tolist()
    assert RG.deployment(SOUTH, BOARD).rule_for(fps[0]).edges_mask(c) is None


@pytest.mark.parametrize("seed", range(4))
def test_a_search_finds_the_same_placements_without_the_spots_the_edges_rule_out(seed, monkeypatch):
    """(Every kind of region without a zone, every kind of preference, with and without the
    spots ``edges_mask`` rules out before the ranking: the same placements in the same order,
    and on a crowded battlefield the same refusals, word for word.)"""
    rng = np.random.default_rng(300 + seed)
    crowded = [(f"o{i}", random_base(rng, *rng.uniform([0, 0], [60, 44]))) for i in range(40)]
    if seed % 2:   # (big bases all over: some searches find no room)
        crowded += [(f"w{i}", Footprint("round", *rng.uniform([0, 0], [60, 44]), 5.0, 5.0)) for i in range(90)]
    models = [(f"m{i}", Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM)) for i in range(5)]
    if seed % 2:
        models = [("big", Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM))] + models[:2]
    regions = _regions_without_a_zone(np.random.default_rng(seed))
    prefers = [PL.Prefer(), PL.Prefer.toward(tuple(rng.uniform([0, 0], [60, 44]))), PL.Prefer.against("west"),
               PL.Prefer.toward_bases(regions[4].near.target)]

    # (crowded, a wreck's searches run through every anchor before they refuse: left to seeds 0, 2)
    searched = [(k, r) for k, r in enumerate(regions) if not (seed % 2 and k == 4)]

    def found():
        out = []
        for k, region in searched:
            for j, prefer in enumerate(prefers):
                out.append([(p.positions, p.angles, p.anchor) for p in PL.placement_options(
                    models, region, crowded, (), prefer, count=3, apart=3.0, turn=True)])
                if k in (0, 3) and j < 2:   # (a refusal's search runs to its end: two regions' only)
                    out.append(str(PL.place_unit(models, region, crowded, (), prefer, unit="u",
                                                 partial=seed == 3)))
        return out
    got = found()
    monkeypatch.setattr(RG.ModelRule, "edges_mask", lambda self, c: None)
    assert got == found()
    assert any(isinstance(x, list) and x for x in got)
    if seed % 2:   # (a crowded battlefield: some searches refused)
        assert any(isinstance(x, str) and x.startswith("u:") for x in got)


@pytest.mark.parametrize("prefer", ["none", "toward", "against", "bases"])
def test_a_search_whose_spots_the_edges_all_rule_out_refuses(prefer, monkeypatch):
    """(A facing left with no spot at all after ``edges_mask``: the search goes on with the
    others and, with none left anywhere, refuses as a search with no legal spot does.)"""
    rng = np.random.default_rng(7)
    wreck = _regions_without_a_zone(rng)[4]
    p = {"none": PL.Prefer(), "toward": PL.Prefer.toward((30.0, 20.0)), "against": PL.Prefer.against("west"),
         "bases": PL.Prefer.toward_bases(wreck.near.target)}[prefer]
    models = [("big", Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM)), ("m0", Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM))]
    assert PL.place_unit(models, wreck, (), (), p, unit="u", turn=True)
    monkeypatch.setattr(RG.ModelRule, "edges_mask", lambda self, c: np.zeros(len(c), dtype=bool))
    got = PL.place_unit(models, wreck, (), (), p, unit="u", turn=True)
    assert not got and str(got).startswith("u: no ")   # (the refusal of a search that found no anchor)
