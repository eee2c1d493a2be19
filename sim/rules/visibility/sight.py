"""06.01 Visibility, 13.08-13.11 terrain and visibility, 24.24 Lone Operative: pure rules.

Plan-view reading (Part A rulings 1-3). A sight line is a straight segment from any point of
the observer's footprint to any point of the target's footprint. It is blocked when it
*enters the interior* of a blocker: touching an edge or grazing a corner is not crossing
(tolerance 1e-9"). Blockers for a pair of models:

* every dense (Solid, 13.11) feature of a terrain area that either model is within, unless
  the scenario gives it a height of 2" or less (``Feature.blocks_sight``: a sight line passes
  over a low feature, Part A ruling 12 and README "Our own rulings");
* every obscuring area (13.10: holds a light or dense feature, low or not) that neither model
  is within (its dense features lie inside it, so they need no separate test).

Models never block (Part A ruling 2). "Within" an area: any part of the base inside the
area's footprint or touching its edge (01.04.01).

Visibility from A to B (``model_visible``) is exact. "Fully visible" checks B's outline
exactly and its interior by samples (see sim.rules.visibility.kernels.footprint_fully_visible).
Hidden (13.09) and Lone Operative (24.24) are applied on top of line of sight by
``visible_to``, so a change of hidden status needs no geometry.

The scalar predicates here (``is_hidden``, ``detection_range``, ``visible_to``,
``cover_qualifies``) are the rules' definitions. The battle's VisibilityIndex
(sim.rules.visibility.index) answers them for every model and pair at once with numpy (it
takes each model's detection ranges from ``detection_range``);
tests/rules/visibility/test_13_09_index_matches_scalar_rules.py checks its answers equal these, pair
by pair, on every shipped scenario before and after moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from sim.rules.geometry import EPS, Footprint, core, distance
from sim.rules.visibility.kernels import Pieces, footprint_fully_visible, pair_visible
from sim.rules.polygons import ccw, convex_pieces
from sim.rules.terrain import TerrainArea, model_within_area

__all__ = [
    "DETECTION_RANGE", "LONE_OPERATIVE_RANGE", "GONE_TO_GROUND_PENALTY", "HIDEABLE",
    "clamp_range", "is_hidden", "detection_range", "visible_to", "lone_operative_allows",
    "hidden_allows", "cover_qualifies", "benefit_of_cover", "TerrainBlockers",
    "model_visible", "model_fully_visible", "model_fully_visible_dense",
]

DETECTION_RANGE = 15.0
LONE_OPERATIVE_RANGE = 12.0
GONE_TO_GROUND_PENALTY = 3.0
HIDEABLE = frozenset({"INFANTRY", "BEASTS", "SWARM"})


# --- pure predicates -----------------------------------------------------------------------

def clamp_range(inches: float) -> float:
    """02.02.01 Detection range and Lone Operative range are never below 9" nor above 30"."""
    return min(30.0, max(9.0, float(inches)))


def is_hidden(model_keywords: Iterable[str], within_area_with_light_or_dense: bool,
              unit_made_ranged_attacks_this_or_last_turn: bool) -> bool:
    """13.09 Hidden: INFANTRY/BEASTS/SWARM within an area holding a light or dense feature,
    whose unit made no ranged attacks this turn or the previous one (13.09.01: in the first
    turn "the previous turn" counts as no attacks)."""
    return (bool(HIDEABLE.intersection(model_keywords)) and within_area_with_light_or_dense
            and not unit_made_ranged_attacks_this_or_last_turn)


def detection_range(gone_to_ground: bool = False, base: float = DETECTION_RANGE,
                    modifier: float = 0.0) -> float:
    """13.09 / 13.11.01 Detection range: 15" (or ``base``), -3" when gone to ground, plus any
    other ``modifier``; clamped to 9"-30" (02.02.01)."""
    r = float(base) + float(modifier) - (GONE_TO_GROUND_PENALTY if gone_to_ground else 0.0)
    return clamp_range(r)


def hidden_allows(edge_distance: float, hidden: bool, det_range: float) -> bool:
    """13.09 A hidden model can only be visible to enemy models within its detection range."""
    return (not hidden) or edge_distance <= det_range + EPS


def lone_operative_allows(edge_distance: float, lone_operative_x: float | None,
                          attached: bool) -> bool:
    """24.24 Lone Operative: unless part of an attached unit, not visible to enemy models
    beyond 12" (or X", clamped 9"-30"). ``lone_operative_x`` None = no Lone Operative."""
    if lone_operative_x is None or attached:
        return True
    return edge_distance <= clamp_range(lone_operative_x) + EPS


def visible_to(line_of_sight: bool, enemy: bool, edge_distance: float, hidden: bool = False,
               det_range: float = DETECTION_RANGE, lone_operative_x: float | None = None,
               attached: bool = False) -> bool:
    """06.01 + 13.09 + 24.24 Is the target model visible to the observer model?

    ``line_of_sight``: terrain line of sight (dense features and obscuring areas, 13.10/13.11).
    Hidden and Lone Operative restrict visibility to *enemy* observers only.
    """
    if not line_of_sight:
        return False
    if not enemy:
        return True
    return (hidden_allows(edge_distance, hidden, det_range)
            and lone_operative_allows(edge_distance, lone_operative_x, attached))


def cover_qualifies(target_keywords: Iterable[str], target_within_any_area: bool,
                    fully_visible_to_attacker: bool) -> bool:
    """13.08 One target model qualifies for the benefit of cover against one attacking model:
    (a) INFANTRY/BEASTS/SWARM within a terrain area (any category), or (b) not fully visible
    to that attacking model because of intervening terrain (models never block, Part A)."""
    a = bool(HIDEABLE.intersection(target_keywords)) and target_within_any_area
    return a or not fully_visible_to_attacker


def benefit_of_cover(per_model_qualifies: Iterable[bool], stealth: bool, indirect: bool,
                     ignores_cover: bool, smokescreen: bool = False) -> bool:
    """13.08 The target unit has the benefit of cover against an attack (one -1 BS, Part A
    ruling 10) if every model qualifies, or the unit has Stealth (24.33, every model), or the
    attack is indirect shooting (10.07), or the unit is under a Smokescreen this phase (15.10);
    never against [IGNORES COVER] (24.18)."""
    if ignores_cover:
        return False
    if stealth or indirect or smokescreen:
        return True
    flags = list(per_model_qualifies)
    return bool(flags) and all(flags)


# --- terrain as blockers -------------------------------------------------------------------

AREA, DENSE = 0, 1


@dataclass
class TerrainBlockers:
    """13.10 / 13.11 Terrain packed as convex pieces with tags.

    ``pieces`` holds the pieces of every obscuring area (kind AREA) and of every dense
    feature that blocks sight (kind DENSE: not a low one, ``Feature.blocks_sight``); ``area``
    gives each piece's area index.
    """

    areas: tuple[TerrainArea, ...]
    pieces: Pieces
    kind: np.ndarray
    area: np.ndarray
    obscuring: np.ndarray
    area_polys: tuple[np.ndarray, ...]

    @classmethod
    def build(cls, areas: Iterable[TerrainArea]) -> "TerrainBlockers":
        areas = tuple(areas)
        polys, kind, owner = [], [], []
        for k, a in enumerate(areas):
            if a.obscuring:
                for p in convex_pieces(a.polygon):
                    polys.append(p)
                    kind.append(AREA)
                    owner.append(k)
            for f in a.sight_blockers:
                for p in convex_pieces(f.polygon):
                    polys.append(p)
                    kind.append(DENSE)
                    owner.append(k)
        return cls(areas, Pieces(polys), np.array(kind, dtype=np.int64),
                   np.array(owner, dtype=np.int64),
                   np.array([a.obscuring for a in areas], dtype=bool),
                   tuple(ccw(a.polygon) for a in areas))

    def active(self, within_a: np.ndarray, within_b: np.ndarray,
               dense_only: bool = False) -> np.ndarray:
        """13.10 Which pieces block sight between two models, given the areas each is within."""
        if dense_only:
            return self.kind == DENSE
        either = (np.asarray(within_a, bool) | np.asarray(within_b, bool))[self.area]
        return np.where(self.kind == AREA, ~either, either)

    def within(self, fp: Footprint) -> np.ndarray:
        """13.x The areas (bool per area) the model is within."""
        return np.array([model_within_area(fp, a) for a in self.areas], dtype=bool)


def _pair_pieces(blk: TerrainBlockers, a: Footprint, b: Footprint, active: np.ndarray):
    """The active pieces that can meet the convex hull of A and B, and the obstacle vertices
    inside (a slightly grown copy of) that hull."""
    idx = np.flatnonzero(active)
    if len(idx) == 0:
        return blk.pieces.subset(idx), np.zeros((0, 2))
    ca, cb = np.array(a.centre), np.array(b.centre)
    R = max(a.bounding_radius, b.bounding_radius) + 1e-6
    lo = np.minimum(ca, cb) - R
    hi = np.maximum(ca, cb) + R
    bb = blk.pieces.bbox[idx]
    idx = idx[(bb[:, 0] <= hi[0]) & (bb[:, 2] >= lo[0]) & (bb[:, 1] <= hi[1]) & (bb[:, 3] >= lo[1])]
    pk = blk.pieces.subset(idx)
    verts = pk.vertex_list()
    if len(verts):
        d = cb - ca
        L2 = float(d @ d)
        t = np.clip(((verts - ca) @ d) / L2, 0, 1) if L2 > 0 else np.zeros(len(verts))
        dist = np.hypot(*(verts - ca - t[:, None] * d).T)
        verts = verts[dist <= R]
    return pk, verts


def _pair_inputs(a: Footprint, b: Footprint, blk: TerrainBlockers, within_a, within_b,
                 dense_only: bool):
    """13.10/13.11 The blockers that apply between two models (areas either is within are
    ignored for obscuring) and both footprints' cores, as the kernels take them."""
    wa = blk.within(a) if within_a is None else within_a
    wb = blk.within(b) if within_b is None else within_b
    pk, verts = _pair_pieces(blk, a, b, blk.active(wa, wb, dense_only))
    ac, ar = core(a)
    bc, br = core(b)
    return ac, ar, bc, br, pk, verts


def model_visible(a: Footprint, b: Footprint, blk: TerrainBlockers,
                  within_a=None, within_b=None, dense_only: bool = False) -> bool:
    """06.01 + 13.10 + 13.11 Terrain line of sight between two models (exact, symmetric)."""
    return pair_visible(*_pair_inputs(a, b, blk, within_a, within_b, dense_only))


def model_fully_visible(a: Footprint, b: Footprint, blk: TerrainBlockers,
                        within_a=None, within_b=None, dense_only: bool = False) -> bool:
    """06.01 Model fully visible: every point of B's footprint is seen from some point of A's
    (blockers: dense features and obscuring areas, 13.10/13.11)."""
    return footprint_fully_visible(*_pair_inputs(a, b, blk, within_a, within_b, dense_only))


def model_fully_visible_dense(a: Footprint, b: Footprint, blk: TerrainBlockers) -> bool:
    """13.11.01 Fully visible counting only Solid (dense) features as blockers (those that
    block sight: a low one hides nothing, ``Feature.blocks_sight``): a hidden model that is not
    has gone to ground (detection range -3")."""
    return model_fully_visible(a, b, blk, dense_only=True,
                               within_a=np.zeros(len(blk.areas), bool),
                               within_b=np.zeros(len(blk.areas), bool))


def edge_distance(a: Footprint, b: Footprint) -> float:
    """01.04 Edge-to-edge distance (re-exported for the visibility callers)."""
    return distance(a, b)
