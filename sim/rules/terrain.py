"""13.01-13.05 Terrain areas and features as data, their validation and a library of pieces.

A terrain area (13.01) is a footprint polygon holding one or more features; each feature
(13.02) is a polygon with a category: exposed (13.03), light (13.04) or dense (13.05, Solid
13.11). An area holding a light or dense feature is obscuring (13.10). Polygons are in
inches on the 2-D plan (Part A ruling 1).

A dense feature may have a height in inches. Part A ruling 12: one without a height counts as
taller than 2" (and, the project reads, taller than every height a rule names: ``tall``). A
dense feature of 2" or less (``LOW_FEATURE``) is *low*: any model may cross it (13.06) and a
sight line passes over it (README, "Our own rulings": it does not block as Solid, 13.11, though
its area still obscures, 13.10); a Super-heavy Walker's normal, advance and fall-back moves cross
dense features of 4" or less (24.35, sim.rules.movement.moves). No model ever ends a move on a
light or dense feature, whatever its height (Part A ruling 13).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from sim.rules.geometry import EPS, Footprint, footprint_polygon_distance
from sim.rules.polygons import is_convex, polygon_inside, self_intersection, signed_area, ccw

__all__ = [
    "Feature", "TerrainArea", "TerrainProblem", "CATEGORIES", "validate_terrain",
    "model_within_area", "TERRAIN_LIBRARY", "PIECE_HEIGHTS", "place", "default_table", "BOARD",
    "LOW_FEATURE", "MAX_HEIGHT", "height_problem",
]

CATEGORIES = ("exposed", "light", "dense")
BOARD = (60.0, 44.0)
LOW_FEATURE = 2.0  # 13.06 inches: a dense section this tall or less is crossed by any model
MAX_HEIGHT = 100.0  # inches: the tallest height a feature may be given (README, Limits)
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Feature:
    """13.02 A terrain feature: its category, its footprint polygon and, for a dense feature,
    its height in inches (None: not given, Part A ruling 12)."""

    category: str
    polygon: tuple[Point, ...]
    height: float | None = None

    @property
    def solid(self) -> bool:
        """13.11 Dense features are Solid."""
        return self.category == "dense"

    @property
    def tall(self) -> float:
        """Part A ruling 12 The height the rules read: the one given, or, for a dense feature
        given none, taller than any (inf: it counts as taller than 2", and than 24.35's 4")."""
        return math.inf if self.height is None else float(self.height)

    @property
    def low(self) -> bool:
        """13.06 / Part A ruling 12 A dense feature given a height of 2" or less: any model may
        cross it, and a sight line passes over it."""
        return self.solid and self.tall <= LOW_FEATURE

    @property
    def blocks_sight(self) -> bool:
        """13.11 Solid, on the 2-D plan (Part A rulings 2 and 12): a dense feature blocks every
        sight line that crosses its footprint, unless it is low (2" or less: the line passes
        over it; README, "Our own rulings")."""
        return self.solid and not self.low


@dataclass(frozen=True, slots=True)
class TerrainArea:
    """13.01 A terrain area: a named footprint polygon holding features."""

    name: str
    polygon: tuple[Point, ...]
    features: tuple[Feature, ...] = ()

    @property
    def obscuring(self) -> bool:
        """13.10 An area holding one or more light or dense features is obscuring."""
        return any(f.category in ("light", "dense") for f in self.features)

    @property
    def solid_features(self) -> tuple[Feature, ...]:
        """13.11 The area's dense (Solid) features."""
        return tuple(f for f in self.features if f.solid)

    @property
    def sight_blockers(self) -> tuple[Feature, ...]:
        """13.11 The area's features that block sight lines crossing them (``Feature.blocks_sight``)."""
        return tuple(f for f in self.features if f.blocks_sight)


@dataclass(frozen=True, slots=True)
class TerrainProblem:
    """13.01 One reason a terrain layout is invalid: where, what was expected, what was found."""

    path: str
    expected: str
    found: str

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected}, found {self.found}"


def _polygon_problems(path: str, poly) -> list[TerrainProblem]:
    pts = list(poly)
    if len(pts) < 3:
        return [TerrainProblem(path, "a polygon of at least 3 points", f"{len(pts)} point" + ("" if len(pts) == 1 else "s"))]
    try:
        arr = np.asarray(pts, dtype=float)
    except (TypeError, ValueError):
        return [TerrainProblem(path, "a list of [x, y] points", repr(pts))]
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.all(np.isfinite(arr)):
        return [TerrainProblem(path, "a list of finite [x, y] points", repr(pts))]
    hit = self_intersection(arr)
    zero = abs(signed_area(arr)) <= 1e-9
    if zero and (hit is None or len(arr) == 3):
        return [TerrainProblem(path, "a polygon with non-zero area", "zero area")]
    if hit is not None:
        return [TerrainProblem(path, "a simple (non-self-intersecting) polygon",
                               f"edges {hit[0]} and {hit[1]} cross or touch")]
    return []


def height_problem(category: str, height) -> tuple[str, str] | None:
    """13.06 / Part A ruling 12 What is wrong with a feature's height, as (expected, found), or
    None: a height only on a dense feature (the rules read no other's), a number of inches
    above 0 and at most MAX_HEIGHT."""
    if height is None:
        return None
    if category != "dense":
        return ("a height only on a dense feature (13.06: the only kind whose height a rule reads)",
                f"a height on a {category} feature")
    if isinstance(height, bool) or not isinstance(height, (int, float)) or not math.isfinite(height) \
            or not 0 < height <= MAX_HEIGHT:
        return (f"a height in inches above 0 and at most {MAX_HEIGHT:g}", repr(height))
    return None


def validate_terrain(areas, board: tuple[float, float] = BOARD) -> list[TerrainProblem]:
    """13.01 Check a terrain layout; return every problem found (empty list = valid).

    Checks: polygons have >= 3 points, non-zero area and no self-intersection; categories
    are exposed/light/dense; a height only on a dense feature, above 0" and at most 100"
    (``height_problem``); every feature lies inside its area (vertices inside or on the
    boundary and no edge crossing); every area lies on the board [0, W] x [0, H].
    """
    problems: list[TerrainProblem] = []
    W, H = board
    for i, area in enumerate(areas):
        base = f"terrain[{i}]"
        area_probs = _polygon_problems(f"{base}.polygon", area.polygon)
        problems += area_probs
        if not area_probs:
            arr = np.asarray(area.polygon, dtype=float)
            lo, hi = arr.min(axis=0), arr.max(axis=0)
            if lo[0] < -EPS or lo[1] < -EPS or hi[0] > W + EPS or hi[1] > H + EPS:
                problems.append(TerrainProblem(
                    f"{base}.polygon", f"every point on the {W:g}x{H:g} board",
                    f"extent x {lo[0]:g}..{hi[0]:g}, y {lo[1]:g}..{hi[1]:g}"))
        if not area.features:
            problems.append(TerrainProblem(f"{base}.features", "at least one feature", "none"))
        for j, feat in enumerate(area.features):
            fpath = f"{base}.features[{j}]"
            if feat.category not in CATEGORIES:
                problems.append(TerrainProblem(f"{fpath}.category", "exposed, light or dense",
                                               repr(feat.category)))
            hp = height_problem(feat.category, feat.height)
            if hp is not None:
                problems.append(TerrainProblem(f"{fpath}.height", *hp))
            fprobs = _polygon_problems(f"{fpath}.polygon", feat.polygon)
            problems += fprobs
            if not fprobs and not area_probs and not polygon_inside(feat.polygon, area.polygon):
                problems.append(TerrainProblem(f"{fpath}.polygon",
                                               f"a polygon inside area {area.name!r}",
                                               "a polygon reaching outside it"))
    return problems


def model_within_area(fp: Footprint, area: TerrainArea) -> bool:
    """13.08 / 13.09 / 13.10 A model is within a terrain area if any part of its base is inside
    the area's footprint (01.04.01: within = not more than 0", so touching the edge counts).
    A base whose bounding circle lies off the area's box by more than ``_BOX_MARGIN`` (EPS and
    room for rounding) on either axis is farther than EPS from every point of the area: not
    within, without measuring (most (model, area) pairs of a table)."""
    x0, y0, x1, y1 = _polygon_box(area.polygon)
    reach = fp.bounding_radius + _BOX_MARGIN
    if fp.x + reach < x0 or fp.x - reach > x1 or fp.y + reach < y0 or fp.y - reach > y1:
        return False
    return footprint_polygon_distance(fp, area.polygon) <= EPS


# (model_within_area's box test: EPS, and far more than the rounding of a base's bounding
# radius or of an oval's vertices on its outline)
_BOX_MARGIN = 2 * EPS + 1e-6
_BOXES: dict = {}


def _polygon_box(polygon) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a polygon's points, kept per polygon (areas are
    immutable; a polygon that is not hashable, a list, is measured each time)."""
    try:
        got = _BOXES.get(polygon)
    except TypeError:
        return _box(polygon)
    if got is None:
        got = _box(polygon)
        if len(_BOXES) >= 4096:
            _BOXES.clear()
        _BOXES[polygon] = got
    return got


def _box(polygon) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in polygon]
    ys = [float(p[1]) for p in polygon]
    return (min(xs), min(ys), max(xs), max(ys))


# --- ready-made pieces ------------------------------------------------------------------

def _xf(pts, x: float, y: float, rot: float) -> tuple[Point, ...]:
    a = math.radians(rot)
    c, s = math.cos(a), math.sin(a)
    return tuple((round(x + c * px - s * py, 9), round(y + s * px + c * py, 9)) for px, py in pts)


def _rect(cx: float, cy: float, w: float, h: float) -> list[Point]:
    return [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2),
            (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]


def _ruins(x, y, rot, h) -> TerrainArea:
    # 10" x 6" area; two L-shaped dense walls (0.5" thick) in opposite corners leave gaps
    t = 0.5
    wall_a = [(-5, -3), (0.5, -3), (0.5, -3 + t), (-5 + t, -3 + t), (-5 + t, 0.5), (-5, 0.5)]
    wall_b = [(5, 3), (-0.5, 3), (-0.5, 3 - t), (5 - t, 3 - t), (5 - t, -0.5), (5, -0.5)]
    return TerrainArea("ruins", _xf(_rect(0, 0, 10, 6), x, y, rot),
                       (Feature("dense", _xf(wall_a, x, y, rot), h),
                        Feature("dense", _xf(wall_b, x, y, rot), h)))


def _woods(x, y, rot, h) -> TerrainArea:
    poly = [(-4, -2.5), (1, -3), (4, -1.5), (4, 2), (0, 3), (-3.5, 2)]
    return TerrainArea("woods", _xf(poly, x, y, rot), (Feature("light", _xf(poly, x, y, rot)),))


def _crater_field(x, y, rot, h) -> TerrainArea:
    feats = (Feature("exposed", _xf(_rect(-1.5, -1, 2.5, 2.0), x, y, rot)),
             Feature("exposed", _xf(_rect(1.5, 1, 2.5, 2.0), x, y, rot)))
    return TerrainArea("crater field", _xf(_rect(0, 0, 6, 5), x, y, rot), feats)


def _container(x, y, rot, h) -> TerrainArea:
    box = _xf(_rect(0, 0, 5, 2.5), x, y, rot)
    return TerrainArea("armoured container", box, (Feature("dense", box, h),))


def _barricade(x, y, rot, h) -> TerrainArea:
    bar = _xf(_rect(0, 0, 4, 0.6), x, y, rot)
    return TerrainArea("barricade", bar, (Feature("light", bar),))


TERRAIN_LIBRARY: dict[str, Callable[[float, float, float, float | None], TerrainArea]] = {
    "ruins": _ruins,
    "woods": _woods,
    "crater field": _crater_field,
    "armoured container": _container,
    "barricade": _barricade,
}

# Part A ruling 12 the height of each piece's dense features unless the scenario gives another:
# ruined walls taller than a Super-heavy Walker steps over (24.35: 4"), a container not
PIECE_HEIGHTS: dict[str, float] = {"ruins": 5.0, "armoured container": 3.0}


def place(name: str, x: float, y: float, rotation: float = 0.0,
          height: float | None = None) -> TerrainArea:
    """13.01 A ready-made terrain piece from TERRAIN_LIBRARY, centred at (x, y), rotated (deg);
    its dense features ``height`` inches tall (Part A ruling 12), or PIECE_HEIGHTS' height.
    ValueError for a height given to a piece with no dense feature."""
    if name not in TERRAIN_LIBRARY:
        raise KeyError(f"unknown terrain piece {name!r}; known: {', '.join(TERRAIN_LIBRARY)}")
    if height is not None and name not in PIECE_HEIGHTS:
        raise ValueError(f"terrain piece {name!r} has no dense feature to give a height")
    h = PIECE_HEIGHTS.get(name) if height is None else float(height)
    return TERRAIN_LIBRARY[name](float(x), float(y), float(rotation), h)


def default_table(board: tuple[float, float] = BOARD) -> list[TerrainArea]:
    """13.01 A tournament-style layout of 12 pieces, point-symmetric about the table centre."""
    W, H = board
    half = [
        ("ruins", 12.0, 10.0, 0.0),
        ("ruins", 24.0, 17.0, 90.0),
        ("woods", 8.0, 30.0, 0.0),
        ("armoured container", 20.0, 32.0, 30.0),
        ("crater field", 36.0, 6.0, 0.0),
        ("barricade", 27.0, 27.0, 60.0),
    ]
    out = []
    for name, x, y, rot in half:
        out.append(place(name, x, y, rot))
        out.append(place(name, W - x, H - y, rot + 180.0))
    return out


def area_polygon_ccw(area: TerrainArea) -> np.ndarray:
    """13.01 The area's polygon as a counter-clockwise float array."""
    return ccw(area.polygon)


def convex(poly) -> bool:
    """13.01 Whether a polygon (any orientation) is convex."""
    return is_convex(ccw(poly))
