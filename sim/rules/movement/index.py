"""03.01 The table as movement reads it (Part A rulings 12-15): the models on it (``Body``,
``BodyIndex``: arrays of centres, radii, players and units) and the features that hinder a move
(``TerrainIndex``: dense features a model may not cross unless INFANTRY/BEASTS/SWARM/MOBILE,
those taller than it may cross otherwise (13.06: 2", 24.35: 4"); light or dense features no
model may end in), built once per table state or layout. Used by sim.rules.movement.legality
and the solvers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from sim.rules.arrays import flatnonzero
from sim.rules.geometry import Footprint, core
from sim.rules.polygons import ccw, convex_pieces
from sim.rules.terrain import LOW_FEATURE, TerrainArea

Point = tuple[float, float]


TOUCH = 1e-7        # inches of shared area still counted as touching (geometry.overlaps)
START_TOL = 1e-6    # a path's first point must be the model's position to this tolerance

RULE_NAMES = {
    "09.05": "normal move", "09.06": "advance move", "09.07": "fall-back move",
    "11.04": "charge move", "12.03": "pile-in move", "12.08": "consolidation move",
}


def _a(what: str) -> str:
    """'a normal move', 'an advance move'."""
    return ("an " if what[:1] in "aeiou" else "a ") + what


@dataclass(frozen=True, slots=True)
class Body:
    """03.01 One model on the battlefield at its current position: model id, unit id, player."""

    model: str
    unit: str
    player: int
    fp: Footprint


def _rows_by_unit(units: Sequence[str]) -> dict[str, np.ndarray]:
    """Each unit's rows among ``units`` (a body index's, row by row), ascending."""
    rows: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        rows.setdefault(u, []).append(i)
    return {u: np.array(r, dtype=np.int64) for u, r in rows.items()}


def _freeze(ix: "BodyIndex") -> None:
    """A body index's arrays read-only (it is immutable: ``moved`` and ``without`` make new ones)."""
    for arr in (ix.players, ix.centres, ix.round, ix.radius, ix.bound):
        arr.flags.writeable = False


class BodyIndex:
    """01.04 An immutable index of the bodies on the table, in model-id order, as arrays:
    centres, round radii (0 for hulls), bounding radii, players and units. Build it once per
    table state and pass it wherever ``bodies`` is asked for."""

    __slots__ = ("_bodies", "ids", "row", "fps", "units", "players", "centres", "radius",
                 "bound", "round", "unit_rows", "_cores", "_rows_of", "_boxes", "near_memo")

    def __init__(self, bodies: Sequence[Body]):
        bs = tuple(sorted(bodies, key=lambda b: b.model))
        self._bodies = bs
        self.ids = [b.model for b in bs]
        self.row = {mid: i for i, mid in enumerate(self.ids)}
        if len(self.row) != len(self.ids):
            seen: set[str] = set()
            dup = next(m for m in self.ids if m in seen or seen.add(m))
            raise ValueError(f"03.01 bodies: model id {dup!r} appears twice")
        self.fps = [b.fp for b in bs]
        self.units = [b.unit for b in bs]
        self.players = np.array([b.player for b in bs], dtype=np.int64)
        self.centres = np.array([(f.x, f.y) for f in self.fps], dtype=float).reshape(-1, 2)
        self.round = np.array([f.shape == "round" for f in self.fps], dtype=bool)
        self.radius = np.array([0.5 * f.length if f.shape == "round" else 0.0 for f in self.fps])
        self.bound = np.array([f.bounding_radius for f in self.fps], dtype=float)
        self.unit_rows = _rows_by_unit(self.units)
        _freeze(self)
        self._cores: dict[int, np.ndarray] = {}
        self._rows_of: dict = {}        # (what units and players give: shared with ``moved``)
        self._boxes: tuple | None = None
        # what sim.rules.movement.legality reads of this table more than once: near_enemy_distances'
        # answers ((player, reach, the footprints asked about by identity) -> (the footprints,
        # the answer)) and enemy_unit_distances' (("unit distances", unit) -> the distances);
        # and the compiled kernels' typed views of its arrays ("compiled views": sim.rules._compiled)
        self.near_memo: dict = {}

    def __len__(self) -> int:
        return len(self.ids)

    def core(self, j: int) -> np.ndarray:
        """The convex core polygon of a hull (oval/rect) body ``j``."""
        c = self._cores.get(j)
        if c is None:
            c = self._cores[j] = core(self.fps[j])[0]
        return c

    def others(self, unit: str) -> np.ndarray:
        """The rows of every model not of ``unit`` (ascending; read-only)."""
        key = ("others", unit)
        got = self._rows_of.get(key)
        if got is None:
            keep = np.ones(len(self.ids), dtype=bool)
            mine = self.unit_rows.get(unit)
            if mine is not None:
                keep[mine] = False
            got = flatnonzero(keep).astype(np.int64)
            got.flags.writeable = False
            self._rows_of[key] = got
        return got

    def enemies(self, player: int) -> np.ndarray:
        """The rows of every model not of ``player`` (ascending; read-only)."""
        key = ("enemies", player)
        got = self._rows_of.get(key)
        if got is None:
            got = flatnonzero(self.players != player)
            got.flags.writeable = False
            self._rows_of[key] = got
        return got

    def boxes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each body's bounding box (centre -/+ bounding radius): x lo, x hi, y lo, y hi."""
        if self._boxes is None:
            c, b = self.centres, self.bound
            self._boxes = (c[:, 0] - b, c[:, 0] + b, c[:, 1] - b, c[:, 1] + b)
        return self._boxes

    def player_of(self, unit: str) -> int:
        rows = self.unit_rows.get(unit)
        if rows is None:
            raise ValueError(f"unit {unit!r} has no models among the bodies")
        return int(self.players[rows[0]])

    @property
    def bodies(self) -> tuple[Body, ...]:
        """The bodies, in row order (made when first read after ``moved``: most tables are
        read as arrays only)."""
        if self._bodies is None:
            self._bodies = tuple(map(Body, self.ids, self.units, self.players.tolist(), self.fps))
        return self._bodies

    def moved(self, moves: Sequence[tuple[str, Footprint]]) -> "BodyIndex":
        """The same table with some models standing elsewhere (model id -> footprint each; the
        same models, so the same rows): what ``BodyIndex`` of the moved bodies gives, without
        sorting and indexing them all again."""
        out = BodyIndex.__new__(BodyIndex)
        fps = list(self.fps)
        centres, bound = self.centres.copy(), self.bound.copy()
        rnd, radius = self.round.copy(), self.radius.copy()
        cores = dict(self._cores)
        row = self.row
        for mid, f in moves:
            j = row[mid]
            fps[j] = f
            centres[j] = (f.x, f.y)
            r = rnd[j] = f.shape == "round"
            radius[j] = 0.5 * f.length if r else 0.0
            bound[j] = f.bounding_radius
            cores.pop(j, None)
        out._bodies, out.fps, out._cores = None, fps, cores
        out.ids, out.row, out.units, out.players, out.unit_rows = (
            self.ids, self.row, self.units, self.players, self.unit_rows)
        out.centres, out.round, out.radius, out.bound = centres, rnd, radius, bound
        out._rows_of, out._boxes, out.near_memo = self._rows_of, None, {}
        _freeze(out)
        return out

    def without(self, models: Sequence[str]) -> "BodyIndex":
        """The same table less the bodies of ``models`` (ids; those not on it are ignored): what
        ``BodyIndex`` of the bodies left gives, without sorting and measuring them all again
        (the rows after a removed one move up by one each)."""
        drop = {self.row[m] for m in models if m in self.row}
        if not drop:
            return self
        keep = [i for i in range(len(self.ids)) if i not in drop]
        k = np.array(keep, dtype=np.int64)
        out = BodyIndex.__new__(BodyIndex)
        out._bodies = None
        out.ids = [self.ids[i] for i in keep]
        out.row = {mid: n for n, mid in enumerate(out.ids)}
        out.fps = [self.fps[i] for i in keep]
        out.units = [self.units[i] for i in keep]
        out.players, out.centres, out.round = self.players[k], self.centres[k], self.round[k]
        out.radius, out.bound = self.radius[k], self.bound[k]
        out.unit_rows = _rows_by_unit(out.units)
        _freeze(out)
        new = {old: n for n, old in enumerate(keep)}
        out._cores = {new[j]: c for j, c in self._cores.items() if j in new}
        out._rows_of, out._boxes, out.near_memo = {}, None, {}
        return out

    def without_unit(self, unit: str) -> "BodyIndex":
        """The same table minus one unit's models (a solver moves them itself)."""
        return BodyIndex([b for b in self.bodies if b.unit != unit])


def as_index(bodies: Sequence[Body] | BodyIndex) -> BodyIndex:
    """``bodies`` as a ``BodyIndex`` (returned as is if it already is one)."""
    return bodies if isinstance(bodies, BodyIndex) else BodyIndex(bodies)


def crossing_limit(may_cross_dense: bool | float) -> float:
    """13.06 / 24.35 / Part A ruling 12 The tallest dense feature a model may cross, in inches,
    from what a move allows it (``may_cross_dense``): True, every one (inf: INFANTRY, BEASTS,
    SWARM, MOBILE, taking to the skies); False, those of 2" or less (13.06: any model); a
    number, those at most that tall (24.35's 4"), and never fewer than any model may."""
    if isinstance(may_cross_dense, (bool, np.bool_)):
        return math.inf if may_cross_dense else LOW_FEATURE
    return max(float(may_cross_dense), LOW_FEATURE)


@dataclass(frozen=True, slots=True)
class _Poly:
    area: str
    category: str
    pts: np.ndarray      # (E, 2)
    nxt: np.ndarray      # (E, 2): pts rolled by one (edge ends)
    lo: np.ndarray
    hi: np.ndarray
    tall: float = math.inf  # Part A ruling 12: a dense feature's height (inf: none given)


class EdgeSet:
    """Several simple polygons' edges in one array (edge v -> w), so that one vectorised pass
    measures a batch of segments or points against all of them; ``starts`` are the offsets of
    each polygon's first edge, ``lo``/``hi`` their bounding boxes."""

    __slots__ = ("polys", "vx", "vy", "wx", "wy", "ex", "ey", "el2", "starts", "lo", "hi",
                 "_singles")

    def __init__(self, polys: Sequence[_Poly]):
        self.polys = tuple(polys)
        v = np.vstack([p.pts for p in polys]) if polys else np.zeros((0, 2))
        w = np.vstack([p.nxt for p in polys]) if polys else np.zeros((0, 2))
        self.vx, self.vy, self.wx, self.wy = v[:, 0], v[:, 1], w[:, 0], w[:, 1]
        self.ex, self.ey = self.wx - self.vx, self.wy - self.vy
        el2 = self.ex * self.ex + self.ey * self.ey
        self.el2 = np.where(el2 > 0, el2, 1.0)
        self.starts = np.cumsum([0] + [len(p.pts) for p in polys[:-1]]).astype(np.int64) \
            if polys else np.zeros(0, dtype=np.int64)
        self.lo = np.array([p.lo for p in polys], dtype=float).reshape(-1, 2)
        self.hi = np.array([p.hi for p in polys], dtype=float).reshape(-1, 2)
        self._singles: list[EdgeSet] | None = None

    def __len__(self) -> int:
        return len(self.polys)

    def single(self, p: int) -> "EdgeSet":
        """The EdgeSet of polygon ``p`` alone. (A set of one polygon is its own single; it is
        not kept in ``_singles``, which would make a reference cycle: a TerrainIndex evicted
        from its cache would then be cyclic garbage, which a headless run never collects.)"""
        if len(self.polys) <= 1:
            return self
        if self._singles is None:
            self._singles = [EdgeSet([q]) for q in self.polys]
        return self._singles[p]


class TerrainIndex:
    """13.06 / Part A 12-13 The features that matter to movement, as arrays: dense features
    (may not be crossed by most models; ``uncrossable`` gives those a move may not cross) and
    light or dense features (no model may end a move overlapping them). Exposed features and
    the areas themselves never hinder a move."""

    __slots__ = ("dense", "no_end", "_pieces", "_over", "hull_ends", "corner_legs")

    def __init__(self, areas: Sequence[TerrainArea]):
        dense, no_end = [], []
        for area in areas:
            for f in area.features:
                if f.category not in ("light", "dense"):
                    continue
                pts = np.asarray(f.polygon, dtype=float)
                p = _Poly(area.name, f.category, pts, np.roll(pts, -1, axis=0),
                          pts.min(axis=0), pts.max(axis=0), f.tall)
                no_end.append(p)
                if f.category == "dense":
                    dense.append(p)
        self.dense = EdgeSet(dense)
        self.no_end = EdgeSet(no_end)
        self._pieces: dict[int, list[np.ndarray]] = {}
        self._over: dict[float, EdgeSet] = {}
        # (sim.rules.movement.legality's end checks: a base that is not round -> the feature it
        # would end overlapping, as (message, depth), or None; the same base is often asked
        # twice, a player's look at where a move ends and then the move's check)
        self.hull_ends: dict = {}
        # (sim.rules.movement.solvers.place's detours: (dense polygon id, clearance) -> the
        # waypoint sequences round its corners, its polygons held here so their ids stand)
        self.corner_legs: dict = {}

    def uncrossable(self, may_cross_dense: bool | float) -> EdgeSet:
        """13.06 / 24.35 / Part A ruling 12 The dense features a model may not cross, given what
        its move allows (``crossing_limit``): those taller than the limit, in layout order (all
        of them, ``dense`` itself, when none is that low)."""
        limit = crossing_limit(may_cross_dense)
        got = self._over.get(limit)
        if got is None:
            keep = [p for p in self.dense.polys if p.tall > limit]
            got = self._over[limit] = self.dense if len(keep) == len(self.dense) else EdgeSet(keep)
        return got

    def pieces(self, which: str | EdgeSet, p: int) -> list[np.ndarray]:
        """Convex pieces (ccw) of polygon ``p`` of ``which`` (``dense``, ``no_end`` or a set
        ``uncrossable`` gave) whose union is it."""
        poly = (getattr(self, which) if isinstance(which, str) else which).polys[p]
        key = id(poly)      # (every polygon is one of ``no_end``'s, kept as long as the index)
        got = self._pieces.get(key)
        if got is None:
            got = self._pieces[key] = [ccw(q) for q in convex_pieces(poly.pts)]
        return got


@lru_cache(maxsize=32)
def _terrain_cached(areas: tuple[TerrainArea, ...]) -> TerrainIndex:
    return TerrainIndex(areas)


_LAST: list = [None, None]     # the last layout tuple asked for and its index


def terrain_index(areas: Sequence[TerrainArea] | TerrainIndex) -> TerrainIndex:
    """``areas`` as a ``TerrainIndex`` (cached per layout; returned as is if already one). The
    very tuple asked for last is answered without hashing it again (it is kept, so its id
    cannot be reused; a tuple of frozen areas cannot change)."""
    if isinstance(areas, TerrainIndex):
        return areas
    if areas is _LAST[0]:
        return _LAST[1]
    key = tuple(areas)
    try:
        got = _terrain_cached(key)
    except TypeError:          # unhashable (polygons given as lists): build it afresh
        return TerrainIndex(key)
    if type(areas) is tuple:
        _LAST[0], _LAST[1] = areas, got
    return got
