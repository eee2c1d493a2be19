"""18.04 / 18.05 Where a disembarking unit's models may be set up: one candidate layout around
its transport, for the automatic players' disembarks, the search behind 18.04's "the unit can
be set up" (Tactical, else Combat) and 18.05's emergency placements (the controller's choice
among such layouts, its default the first).

``disembark_layout`` is the one function a general placement solver would replace: given the
unit's models, the transport and the table, it places the models one at a time in listed order,
each at the best spot of a polar grid round the transport (every 0.2" out, every 5 degrees)
that passes every set-up test (03.02: on the board, on no base, in no light or dense feature;
within 2" of a model placed before it and 9" of all of them, 03.03; wholly within the mode's
distance of the transport, 18.04/18.05; the engagement the mode allows; and a caller's own
test, 18.04.01). Best: unengaged before engaged, then nearest the transport (in 0.25" steps:
18.05 "as close as possible"), then nearest the direction ``towards``. Models with no such spot
are left out (18.05: destroyed; a disembark needs them all). Candidates are finite: a spot
between them is not found (the documented tolerance, as the other solvers').
"""

from __future__ import annotations

import math
from typing import Callable, Collection, Sequence

import numpy as np

from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN
from sim.rules.geometry import EPS, ENGAGEMENT_RANGE, Footprint, core
from sim.rules.movement.legality import (Body, BodyIndex, as_index, board_mask, distances_from, feature_mask,
                                         overlap_mask, placed_distances, placed_overlaps, terrain_index)
from sim.rules.terrain import TerrainArea

__all__ = ["disembark_layout", "RING_STEP", "ANGLE_STEP"]

RING_STEP = 0.2  # inches between the grid's rings round the transport
ANGLE_STEP = 5.0  # degrees between its spokes
GAP_STEP = 0.25  # 18.05 "as close as possible", judged in steps of this many inches
SLACK = 1e-5  # inches kept inside each limit, so the spots (rounded to 1e-6") pass the rules' checks


def _reach(fp: Footprint, centres: np.ndarray, transport: Sequence[Footprint]) -> np.ndarray:
    """(K,) sim.rules.transport.reach for ``fp`` placed at each centre: the farthest point of the
    base from the nearest transport model."""
    pts, r = core(fp)
    off = pts - np.array([fp.x, fp.y])
    point = Footprint("round", 0.0, 0.0, 0.0, 0.0)
    far = None
    for o in off:
        d = placed_distances(point, centres + o, transport).min(axis=1)
        far = d if far is None else np.maximum(far, d)
    return far + r


def disembark_layout(models: Sequence[tuple[str, Footprint]], transport: Sequence[Footprint], limit: float,
                     bodies: Sequence[Body] | BodyIndex, terrain: Sequence[TerrainArea], board: tuple[float, float],
                     player: int, *, towards: float = 0.0, engaged_with: Collection[str] | None = (),
                     accept: Callable[[Footprint], bool] | None = None) -> dict[str, tuple[float, float]]:
    """One layout of the unit ``models`` ((model id, footprint): shape, size and facing; where
    they stand now does not matter) set up wholly within ``limit`` of ``transport`` (its
    models' footprints, an obstacle too) among ``bodies`` (every other model on the table) for
    ``player``: model id -> its centre, for each model placed (module docstring). A model may
    be set up engaged only with the enemy units ``engaged_with`` names (None: with any, when it
    has no unengaged spot: 18.05). ``towards``: the direction (radians, from the transport's
    centre) the layout starts from."""
    idx = as_index(bodies)
    terr = terrain_index(terrain)
    rows = np.arange(len(idx))
    enemies = idx.enemies(player)
    tc = np.mean([(t.x, t.y) for t in transport], axis=0)
    t_reach = max(math.hypot(t.x - tc[0], t.y - tc[1]) + t.bounding_radius for t in transport)
    angles = np.radians(np.arange(0.0, 360.0, ANGLE_STEP))
    spokes = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    placed: dict[str, tuple[float, float]] = {}
    placed_fps: list[Footprint] = []
    for mid, fp in models:
        radii = np.arange(RING_STEP, t_reach + limit + fp.bounding_radius + RING_STEP, RING_STEP)
        centres = (tc[None, None, :] + radii[:, None, None] * spokes[None, :, :]).reshape(-1, 2)
        ok = board_mask(fp, centres, board)
        ok &= ~placed_overlaps(fp, centres, transport)
        ok[ok] &= _reach(fp, centres[ok], transport) <= limit - SLACK
        ok[ok] &= ~feature_mask(fp, centres[ok], terr)
        ok[ok] &= ~overlap_mask(fp, centres[ok], idx, rows)
        if placed_fps:
            ok[ok] &= ~placed_overlaps(fp, centres[ok], placed_fps)
            mates = placed_distances(fp, centres[ok], placed_fps)
            ok[ok] &= (mates.min(axis=1) <= COHERENCY_LINK - SLACK) & (mates.max(axis=1) <= COHERENCY_SPAN - SLACK)
        cand = centres[ok]
        if not len(cand):
            continue
        engaged = np.zeros(len(cand), dtype=bool)
        if len(enemies):
            d = distances_from(fp, cand, idx, enemies)
            near = d <= ENGAGEMENT_RANGE + SLACK
            engaged = near.any(axis=1)
            if engaged_with is not None:
                allowed = np.array([idx.units[j] in engaged_with for j in enemies.tolist()], dtype=bool)
                bad = (near & ~allowed[None, :]).any(axis=1)
                keep = ~bad if engaged_with else ~engaged
                cand, engaged = cand[keep], engaged[keep]
        if not len(cand):
            continue
        gap = placed_distances(fp, cand, transport).min(axis=1)
        turn = np.abs((np.arctan2(cand[:, 1] - tc[1], cand[:, 0] - tc[0]) - towards + math.pi) % (2 * math.pi) - math.pi)
        order = np.lexsort((gap, turn, np.floor(gap / GAP_STEP + EPS), engaged))
        for k in order.tolist():
            x, y = round(float(cand[k, 0]), 6), round(float(cand[k, 1]), 6)
            spot = fp.moved(x, y)
            if accept is not None and not accept(spot):
                continue
            placed[mid] = (x, y)
            placed_fps.append(spot)
            break
    return placed
