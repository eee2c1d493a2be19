"""Shared helpers for the movement tests (03.01, 11.04, 12.03, 12.08): unit formations, random
melee layouts and random dense features."""

from __future__ import annotations

from hypothesis import assume, strategies as st

from sim.rules.coherency import is_coherent
from sim.rules.geometry import overlaps, round_base
from sim.rules.movement.index import TerrainIndex
from sim.rules.movement.legality import Body, end_blocker, terrain_index
from sim.rules.terrain import Feature, TerrainArea


def squad(unit, x, y, n, player, mm=32, per_rank=5, gap=0.3):
    d = mm / 25.4 + gap
    return [Body(f"{unit}/{k}", unit, player,
                 round_base(mm, x + d * (k % per_rank), y + d * (k // per_rank)))
            for k in range(n)]


@st.composite
def melee_layouts(draw):
    n = draw(st.integers(1, 10))
    mm = draw(st.sampled_from([25, 32, 40]))
    ax, ay = draw(st.floats(8, 40)), draw(st.floats(6, 14))
    bodies = squad("a", ax, ay, n, 1, mm=mm, per_rank=draw(st.integers(2, 5)))
    top = max(x.fp.y for x in bodies) + mm / 50.8
    bx = ax + draw(st.floats(-3, 3))
    by = top + draw(st.floats(-0.5, 4.5)) + 0.8
    bodies += squad("b", bx, by, draw(st.integers(1, 6)), 2, mm=draw(st.sampled_from([25, 32, 50])),
                    per_rank=draw(st.integers(1, 6)))
    if draw(st.booleans()):
        bodies += squad("c", ax + draw(st.floats(-8, 8)), by + draw(st.floats(-4, 3)),
                        draw(st.integers(1, 3)), 2)
    areas = []
    for k in range(draw(st.integers(0, 2))):
        x0, y0 = draw(st.floats(ax - 6, ax + 6)), draw(st.floats(ay, by + 2))
        poly = ((x0, y0), (x0 + draw(st.floats(0.3, 4)), y0),
                (x0 + 2, y0 + draw(st.floats(0.3, 2))), (x0, y0 + 1))
        areas.append(TerrainArea(f"t{k}", poly, (Feature(draw(st.sampled_from(
            ["light", "dense", "exposed"])), poly),)))
    terr = terrain_index(areas)
    kept = []
    for x in bodies:
        if end_blocker(x.fp, terr) is None and not any(overlaps(x.fp, k.fp) for k in kept) \
                and 1 < x.fp.x < 59 and 1 < x.fp.y < 43:
            kept.append(x)
    own = [(x.model, x.fp) for x in kept if x.unit == "a"]
    assume(own and is_coherent(own))
    return kept, areas


def dense_features(rng, board, heights=(None,)) -> TerrainIndex:
    """Up to four dense features (quadrilaterals of 0.5-6") at random on a ``board`` (w, h),
    each of a height drawn from ``heights`` (None: not given, Part A ruling 12)."""
    areas = []
    for k in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, board[0] - 6), rng.uniform(0, board[1] - 6)
        w, h = rng.uniform(0.5, 6, size=2)
        poly = ((x, y), (x + w, y), (x + w * 0.7, y + h), (x, y + h * 0.8))
        tall = heights[int(rng.integers(len(heights)))] if len(heights) > 1 else heights[0]
        areas.append(TerrainArea(f"t{k}", poly, (Feature("dense", poly, tall),)))
    return TerrainIndex(areas)
