"""03.02 The placement solver's candidate spots and the parts of its tests it keeps between
calls are the plain reading's, to the bit and in order: ``_grow_spots`` (rings round the models
placed, the spots touching two of them or one and a side, the rings round the bases near them)
against the reading that works each piece out on every call; ``regions.directions``,
``placement._pairs``, ``ModelRule.line_arrays`` and ``ModelRule.zone_limits`` against what they
keep."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.rules.geometry import Footprint
from sim.rules.movement.solvers import placement as PL
from sim.rules.movement.solvers import regions as RG
from sim.rules.movement.solvers import spots as SP

from random_bases import random_base

MM = 1 / 25.4
BOARD = (60.0, 44.0)
SOUTH = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (0.0, 12.0))
NOTCHED = ((0.0, 0.0), (60.0, 0.0), (60.0, 12.0), (30.0, 12.0), (30.0, 8.0), (0.0, 8.0))


def _grow_spots_reading(fp, placed, table, gap, tight, square=False):
    """placement._grow_spots as its docstring reads, every piece worked out on each call."""
    out = []
    gaps = [gap] if tight else list(PL.LOOSE)
    rnd = fp.shape == "round" and all(p.shape == "round" for p in placed)
    ang = np.arange(PL.ANGLES) * (2 * math.pi / PL.ANGLES)
    if square:
        ang = np.arange(4) * (math.pi / 2)
    u = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    if rnd:
        pc = np.array([(p.x, p.y) for p in placed])
        pr = np.array([0.5 * p.length for p in placed])
        r = 0.5 * fp.length
        for g in gaps:
            t = pr + r + g
            out.append((pc[:, None, :] + t[:, None, None] * u[None, :, :]).reshape(-1, 2))
        R = pr + r + gap
        if tight and not square and len(pc) >= 2:
            i, j = np.triu_indices(len(pc), 1)
            dv = pc[j] - pc[i]
            dd = np.hypot(dv[:, 0], dv[:, 1])
            ok = (dd > 1e-9) & (dd <= R[i] + R[j]) & (dd >= np.abs(R[i] - R[j]))
            if ok.any():
                i, j, dv, dd = i[ok], j[ok], dv[ok], dd[ok]
                a = (R[i] ** 2 - R[j] ** 2 + dd ** 2) / (2 * dd)
                h = np.sqrt(np.maximum(R[i] ** 2 - a ** 2, 0.0))
                e = dv / dd[:, None]
                m = pc[i] + a[:, None] * e
                n = np.stack([-e[:, 1], e[:, 0]], axis=1)
                out += [m + h[:, None] * n, m - h[:, None] * n]
        if tight:
            for a0, t in RG._lines.__wrapped__(table.region, fp.shape, fp.length, fp.width, fp.angle):
                v = pc - a0
                along = v @ t
                off = v[:, 0] * t[1] - v[:, 1] * t[0]
                ok = np.abs(off) <= R
                if ok.any():
                    h = np.sqrt(np.maximum(R[ok] ** 2 - off[ok] ** 2, 0.0))
                    foot = a0 + along[ok, None] * t
                    out += [foot + h[:, None] * t, foot - h[:, None] * t]
    else:
        for p in placed:
            for g in gaps:
                out.append(RG.ring(fp, p, g, PL.ANGLES))
    pts = np.array([(p.x, p.y) for p in placed])
    lo, hi = pts.min(axis=0) - 2.0 - fp.bounding_radius, pts.max(axis=0) + 2.0 + fp.bounding_radius
    if tight:
        out.append(table.contact_spots(fp, lo, hi))
    rule = table.rule(fp)
    if tight and rule.mode:
        s = rule.seeds()
        if len(s):
            near = np.all((s >= lo - 2 * fp.bounding_radius) & (s <= hi + 2 * fp.bounding_radius), axis=1)
            out.append(s[near])
    out = [o for o in out if len(o)]
    return np.vstack(out) if out else np.zeros((0, 2))


def _packed(rng, fp, n, x0, y0):
    """n bases like fp set up in a loose clump from (x0, y0) (some touching, some apart)."""
    out = [fp.moved(x0, y0)]
    while len(out) < n:
        p = out[int(rng.integers(0, len(out)))]
        a = rng.uniform(0, 2 * math.pi)
        t = fp.length + rng.choice([0.1, 0.1, 0.5, 1.2])
        out.append(fp.moved(p.x + t * math.cos(a), p.y + t * math.sin(a)))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_grow_spots_are_the_readings(seed):
    rng = np.random.default_rng(seed)
    zone = (SOUTH, NOTCHED)[seed % 2]
    enemies = [random_base(rng, *rng.uniform(0, 60, size=2)) for _ in range(5)]
    region = (RG.deployment(zone, BOARD), RG.ingress_strip(BOARD, enemies, ((0.0, 32.0), (60.0, 32.0),
                                                                            (60.0, 44.0), (0.0, 44.0))))[seed % 3 == 2]
    others = [(f"o{i}", random_base(rng, *rng.uniform(0, 60, size=2))) for i in range(40)]
    others += [(f"r{i}", Footprint("round", *rng.uniform(0, 14, size=2), 32 * MM, 32 * MM)) for i in range(20)]
    table = PL._Table(region, others, (), PL.CLEARANCE)
    size = float(rng.choice([25, 32, 40, 60]))
    fp = Footprint("round", 0.0, 0.0, size * MM, size * MM)
    # (a clump against the zone's south side and the battlefield edge: the lines are met)
    placed = _packed(rng, fp, int(rng.integers(1, 9)), *rng.uniform([1.0, 0.6], [58.0, 3.0]))
    if seed % 4 == 3:   # (a hull among them: rings round each)
        placed[-1] = random_base(rng, placed[-1].x, placed[-1].y)
    hits = 0
    for tight in (True, False):
        for square in (False, True):
            got = PL._grow_spots(fp, placed, table, PL.GAP, tight, square)
            want = _grow_spots_reading(fp, placed, table, PL.GAP, tight, square)
            assert got.shape == want.shape and got.tobytes() == want.tobytes()
            hits += len(got)
    assert hits


def test_grow_spots_meet_the_lines_and_the_pairs():
    """(The case the readings above must cover: a clump in a corner touches two lines and has
    touching pairs.)"""
    region = RG.deployment(SOUTH, BOARD)
    table = PL._Table(region, [], (), PL.CLEARANCE)
    fp = Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM)
    placed = [fp.moved(0.7, 0.7), fp.moved(0.7 + 32 * MM + 0.1, 0.7), fp.moved(0.7, 0.7 + 32 * MM + 0.1)]
    got = PL._grow_spots(fp, placed, table, PL.GAP, True)
    want = _grow_spots_reading(fp, placed, table, PL.GAP, True)
    rings, pairs = 3 * PL.ANGLES, 2 * 3
    assert len(want) > rings + pairs and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("n", [4, 12, 16, 24])
def test_directions_are_the_turns(n):
    ang = np.arange(n) * (2 * math.pi / n)
    want = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    got = RG.directions(n)
    assert got.tobytes() == want.tobytes() and not got.flags.writeable
    if n == 4:   # (the square lattice's turns, as quarter turns)
        ang = np.arange(4) * (math.pi / 2)
        assert got.tobytes() == np.stack([np.cos(ang), np.sin(ang)], axis=1).tobytes()


@pytest.mark.parametrize("n", range(1, 12))
def test_pairs_are_the_upper_triangle(n):
    i, j = PL._pairs(n)
    wi, wj = np.triu_indices(n, 1)
    assert i.tolist() == wi.tolist() and j.tolist() == wj.tolist() and i.dtype == wi.dtype


@pytest.mark.parametrize("seed", range(6))
def test_a_model_rule_keeps_its_lines_and_zone_limits(seed):
    rng = np.random.default_rng(seed)
    fp = random_base(rng, 0.0, 0.0)
    fp = Footprint(fp.shape, 0.0, 0.0, fp.length, fp.width, fp.angle)
    rule = RG.deployment(NOTCHED, BOARD).rule_for(fp)
    a0s, ts = rule.line_arrays()
    lines = rule.lines()
    assert a0s.tolist() == [a.tolist() for a, _t in lines] and ts.tolist() == [t.tolist() for _a, t in lines]
    assert rule.line_arrays()[0] is a0s
    want = [(n, off - (RG._support(fp, n) + RG.SLACK)) for n, off in rule.region._pieces]
    got = rule.zone_limits()
    assert len(got) == len(want) >= 2
    for (n, lim), (wn, wl) in zip(got, want):
        assert n.tobytes() == wn.tobytes() and lim.tobytes() == wl.tobytes()
    c = rng.uniform(0, 14, size=(500, 2))
    inside = np.zeros(len(c), dtype=bool)
    for n, off in rule.region._pieces:
        inside |= ((c @ n.T) <= off - (RG._support(fp, n) + RG.SLACK)).all(axis=1)
    assert (rule.mask(c) <= inside).all() and rule.mask(c).any()


def _seeds_reading(rule):
    """ModelRule.seeds as its docstring reads, worked out whole for the rule's region."""
    rg, fp = rule.region, rule.fp
    W, H = rg.board
    hx, hy = RG.half_extents(fp)
    out = []
    if rule.mode in ("zone edge", "any edge"):
        for e in rule.edges:
            if e in ("south", "north"):
                xs = np.arange(hx + RG.SLACK, W - hx - RG.SLACK + 1e-9, RG.LATTICE / 2)
                y = hy + RG.EDGE_GAP if e == "south" else H - hy - RG.EDGE_GAP
                out.append(np.stack([xs, np.full(len(xs), y)], axis=1))
            else:
                ys = np.arange(hy + RG.SLACK, H - hy - RG.SLACK + 1e-9, RG.LATTICE / 2)
                x = hx + RG.EDGE_GAP if e == "west" else W - hx - RG.EDGE_GAP
                out.append(np.stack([np.full(len(ys), x), ys], axis=1))
        return np.vstack(out)
    lo, hi = np.array([hx, hy]), np.array([W - hx, H - hy])
    if rg.zone is not None:
        z = np.asarray(rg.zone)
        lo, hi = np.maximum(lo, z.min(axis=0)), np.minimum(hi, z.max(axis=0))
    if rg.near is not None:
        t = rg.near.target
        reach = (rg.near.oversized if rule.mode == "near" else rg.near.distance) + fp.bounding_radius
        lo = np.maximum(lo, np.array([t.x, t.y]) - t.bounding_radius - reach)
        hi = np.minimum(hi, np.array([t.x, t.y]) + t.bounding_radius + reach)
    if np.all(hi >= lo):
        xs = np.arange(lo[0], hi[0] + 1e-9, RG.LATTICE)
        ys = np.arange(lo[1], hi[1] + 1e-9, RG.LATTICE)
        g = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        if rg.edge_strip is not None:
            m = rg.edge_strip + max(hx, hy)
            g = g[(g[:, 0] <= m) | (g[:, 0] >= W - m) | (g[:, 1] <= m) | (g[:, 1] >= H - m)]
        out.append(g)
    if rg.zone is not None:
        out.append(SP._zone_edge_spots(fp, rg.zone))
    if rg.edge_strip is not None:
        out.append(SP._strip_spots(fp, rg.board, rg.edge_strip))
    if rg.near is not None:
        d = rg.near.oversized if rule.mode == "near" else rg.near.distance
        for gap in (RG.SLACK, 0.5 * d):
            out.append(RG.ring(fp, rg.near.target, gap, 24))
    for a in rg.away:
        if len(a.fps) <= 200:
            for o in a.fps:
                out.append(RG.ring(fp, o, a.distance + 2 * RG.SLACK, 16))
    out = [o for o in out if len(o)]
    return np.vstack(out) if out else np.zeros((0, 2))


@pytest.mark.parametrize("seed", range(6))
def test_seeds_are_the_readings_as_the_enemies_move(seed):
    """(The region's own spots are kept per region shape and base, the rings round the enemies
    made for each region: regions that differ in their enemies alone, one after the other.)"""
    rng = np.random.default_rng(seed)
    north = ((0.0, 32.0), (60.0, 32.0), (60.0, 44.0), (0.0, 44.0))
    fps = [Footprint("round", 0.0, 0.0, 32 * MM, 32 * MM), Footprint("oval", 0.0, 0.0, 170 * MM, 105 * MM),
           Footprint("rect", 0.0, 0.0, 8.0, 5.0, 30.0)]
    for step in range(4):
        transport = Footprint("rect", *rng.uniform([10, 10], [50, 34]), 5.0, 3.0, float(rng.uniform(0, 90)))
        enemies = [random_base(rng, *rng.uniform([0, 0], [60, 44])) for _ in range(int(rng.integers(0, 12)))]
        regions = [RG.ingress_strip(BOARD, enemies, north, round=2), RG.deep_strike(BOARD, enemies),
                   RG.deployment(NOTCHED, BOARD, enemies),
                   RG.deployment(((0.0, 0.0), (60.0, 0.0), (60.0, 3.0), (0.0, 3.0)), BOARD, enemies),
                   RG.out_of_transport(BOARD, transport, enemies), RG.infiltrators(BOARD, north, enemies)]
        for region in regions:
            for fp in fps:
                rule = region.rule_for(fp)
                got, want = rule.seeds(), _seeds_reading(rule)
                assert got.shape == want.shape and got.tobytes() == want.tobytes()
                assert not got.flags.writeable


@pytest.mark.parametrize("seed", range(4))
def test_the_score_toward_one_point_is_the_least_distance(seed):
    rng = np.random.default_rng(seed)
    c = rng.uniform(-5, 65, size=(500, 2))
    fp = Footprint("round", 0.0, 0.0, 1.0, 1.0)
    for pts in ([tuple(rng.uniform(0, 60, 2))], [tuple(rng.uniform(0, 60, 2)) for _ in range(3)]):
        prefer = PL.Prefer.toward(*pts)
        p = np.asarray(prefer.points, dtype=float)
        want = np.min(np.hypot(c[:, 0:1] - p[None, :, 0], c[:, 1:2] - p[None, :, 1]), axis=1)
        got = prefer.score(fp, c, BOARD)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_anchors_in_rank_order_are_the_legal_ones_whatever_the_chunks(seed):
    """(The anchor spots are tested a chunk at a time, the chunks growing: the legal ones come
    in rank order, as testing every spot at once gives them.)"""
    rng = np.random.default_rng(seed)
    others = [(f"o{i}", random_base(rng, *rng.uniform([0, 0], [60, 14]))) for i in range(60)]
    region = RG.deployment(SOUTH, BOARD)
    table = PL._Table(region, others, (), PL.CLEARANCE)
    fp = Footprint("round", 0.0, 0.0, 40 * MM, 40 * MM)
    c = np.vstack([table.rule(fp).seeds(), rng.uniform([0, 0], [60, 14], size=(3000, 2))])
    ranked = rng.permutation(len(c))
    rank_of = np.empty(len(c))
    rank_of[ranked] = np.arange(len(c))   # (keys whose order is ``ranked``, read a chunk at a time)
    ranking = PL._Ranking([rank_of, np.zeros(len(c))], (6, 6))
    got = list(PL._legal_in_rank_order(ranking, c, np.zeros(len(c), dtype=int), [fp], table,
                                       np.full(len(c), -1, dtype=np.int8)))
    legal = table.legal(fp, c)
    want = [i for i in ranked.tolist() if legal[i]]
    assert got == want and len(ranked) > PL.MAX_CHUNK + PL.CHUNK and 0 < len(want) < len(c)
