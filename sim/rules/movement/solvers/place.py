"""Part A rulings 16-18: the placement machinery the charge, pile-in and consolidation solvers
share (and their checkers' "if possible" searches, so that both read "possible" the same way).

A ``Placer`` holds one unit's move in progress on a fixed table: each model's start, its
current spot and path. ``find`` picks, for one model, the best spot among candidate centres
by a caller's ranking, subject to every 03.01 condition (path length and swept path, board
edge, no end overlap with any base or with a light/dense feature) and to coherency (03.03)
with a chosen set of unit-mates, all tested for every candidate at once; only the path of the
best-ranked survivors is traced (straight first, then one-waypoint detours round blocking
bases and dense features, Part A ruling 14).

"Possible" (11.04 "can end within 1"", 12.03 "engaged with it if possible", 12.08 "within
range if possible", ruling 16 "as close as possible") means: ``find`` over the candidate spots
of ``rings`` (around the reference models, at contact, 0.5"/0.95" and 1.95" off) finds a spot,
with every other model where it ends. The candidate set is finite, so "possible" is judged on
it; a spot it does not sample is not taken as possible (the documented tolerance).

Every spot is on the measuring grid (sim.rules.grid) before it is tested: ``find`` snaps the
candidate centres and ``detour`` its waypoints, so the spot a solver picks, verifies and hands
to a command is the very point the command carries (and numpy's last bits never reach it).
Spots aimed at a limit aim inside it by more than a snap can move them: base contact at
``CONTACT_AIM``, a model's full distance ``AIM_MARGIN`` short.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Collection, Mapping, Sequence

import numpy as np

from sim.rules.arrays import flatnonzero, roll_next, sorted_unique
from sim.rules.compiled import kernel
from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN, link_groups
from sim.rules.geometry import EPS, Footprint
from sim.rules.grid import AIM_MARGIN, snap_array, snap_keys
from sim.rules.movement.legality import (
    Body, BodyIndex, Point, TerrainIndex, as_index, blocking_rows, board_mask, feature_mask,
    fps_distance_matrix, fps_to_rows, near_rows, overlap_mask, path_blocker, path_length,
    placed_distances, placed_overlaps, straight_paths_clear, terrain_index,
)
from sim.rules.movement.kernels import placed_distances_paired
from sim.rules.polygons import ccw
from sim.rules.terrain import TerrainArea

__all__ = ["Solution", "Placer", "fp_dists", "CLOSER", "BASE_CONTACT", "ANGLES"]

CLOSER = 1e-6          # Part A ruling 16: "closer" = the distance shrinks by more than this
BASE_CONTACT = 1.5e-6  # 01.04.04: bases this close (edge to edge) are in base contact (a contact spot
                       # aimed at CONTACT_AIM stays within it once snapped to the 1e-6" grid)
CONTACT_AIM = 0.7e-6   # the edge gap a base-contact candidate aims at: snapped (at most SNAP_REACH,
                       # 7.07e-7", away) it neither overlaps (by more than TOUCH, 1e-7") nor leaves
                       # base contact
ANGLES = 16            # candidate directions round each reference model
DETOUR_GAP = 0.05      # clearance of a detour waypoint beyond the blocker (inches)
MAX_TRACED = 12        # candidates (straight line blocked) given detour attempts per search
MAX_DETOURS = 12       # detours tried per candidate whose straight path is blocked
CHUNK = 24             # candidates whose legality is tested together, in rank order


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver's answer: ``paths`` (model id -> base-centre polyline, first point = start,
    only for models that move) or None when no legal move was found, with the reason; the
    targets or objective the move was made against, and the mode (12.08)."""

    paths: Mapping[str, tuple[Point, ...]] | None
    reason: str = ""
    targets: tuple[str, ...] = ()
    mode: str = ""
    objective: int | None = None
    problems: tuple = field(default=(), compare=False)

    def __bool__(self) -> bool:
        return self.paths is not None


def fp_dists(fp: Footprint, centres: np.ndarray, fps: Sequence[Footprint]) -> np.ndarray:
    """Edge distances (K, n) from ``fp`` placed at ``centres`` to the footprints ``fps``."""
    return placed_distances(fp, centres, fps)


def _fp_overlaps(fp: Footprint, centres: np.ndarray, fps: Sequence[Footprint]) -> np.ndarray:
    """(K,) whether ``fp`` at each centre overlaps one of ``fps`` (touching is fine)."""
    return placed_overlaps(fp, centres, fps)


def _spots_legal(fp: Footprint, centres: np.ndarray, idx: BodyIndex, others: np.ndarray,
                 mates: Sequence[Footprint], terr: TerrainIndex, fixed: Sequence[Footprint]) -> np.ndarray:
    """03.01 / Part A ruling 13 / 03.03 (K,) whether ``fp`` may end a move at each of
    ``centres``, its path aside (``Placer.find``'s tests of a chunk of candidates): overlapping
    no body of ``idx`` among the rows ``others``, none of its unit-mates where they stand now
    (``mates``) and no light or dense feature of ``terr``, and, ``fixed`` given, keeping them
    and itself in coherency (``_coherent``). Each candidate's answer is its own: the tests
    after the first ask only while some candidate is left."""
    legal = ~overlap_mask(fp, centres, idx, others)
    if not legal.any():
        return legal
    legal &= ~_fp_overlaps(fp, centres, mates)
    if not legal.any():
        return legal
    legal &= ~feature_mask(fp, centres, terr)
    if len(fixed) and legal.any():
        legal &= _coherent(fp, centres, fixed)
    return legal


# (its compiled twin runs where built: sim.rules.compiled)
_spots_legal = kernel("movement.spots_legal", _spots_legal)


def _reachable_spots(fp: Footprint, cands: np.ndarray, reach: float, board: tuple[float, float]):
    """Placer.find's first step: the candidate centres (K, 2) put on the grid (snap_array:
    the spots a command can carry, every later test is of them), and the indices of those at
    which the base ``fp``, moved straight from its start, stays within ``reach`` of it and lies
    wholly on the board (03.01, board_mask)."""
    cands = snap_array(cands)
    L = np.hypot(cands[:, 0] - fp.x, cands[:, 1] - fp.y)
    return cands, flatnonzero((L <= reach + EPS) & board_mask(fp, cands, board))


_reachable_spots = kernel("movement.reachable_spots", _reachable_spots)


def _rank_spots(keys: Sequence[np.ndarray]) -> np.ndarray:
    """Placer.find's order of its allowed candidates: by ``keys`` (arrays of one length, the
    primary first), each on the key grid (snap_keys: candidates that differ only in numpy's last
    bits tie), ties to the earlier candidate (generation order, the same on every machine)."""
    return np.lexsort([np.arange(len(keys[0]))] + [snap_keys(k) for k in reversed(keys)])


_rank_spots = kernel("movement.rank_spots", _rank_spots)


def _coherent(fp: Footprint, centres: np.ndarray, fixed: Sequence[Footprint]) -> np.ndarray:
    """03.03 (K,) whether ``fp`` at each centre keeps the models ``fixed`` + itself in
    coherency (the fixed models' own 9" spans are tested too)."""
    d = fp_dists(fp, centres, fixed)
    ok = d.max(axis=1) <= COHERENCY_SPAN + EPS
    n = len(fixed)
    if n == 1:
        return ok & (d[:, 0] <= COHERENCY_LINK + EPS)
    dm = fps_distance_matrix(fixed)
    if dm.max() > COHERENCY_SPAN + EPS:
        return np.zeros(len(centres), dtype=bool)
    for g in link_groups(dm):
        ok &= d[:, g].min(axis=1) <= COHERENCY_LINK + EPS
    return ok


def _corner_points(poly: np.ndarray, clearance: float) -> list[np.ndarray]:
    """Points just outside each convex corner of a polygon, ``clearance`` from both of its
    edges (along the outward bisector); reflex corners are skipped."""
    p = ccw(poly)
    out = []
    n = len(p)
    for k in range(n):
        a, v, b = p[k - 1], p[k], p[(k + 1) % n]
        e1, e2 = v - a, b - v
        l1, l2 = np.hypot(*e1), np.hypot(*e2)
        if l1 == 0 or l2 == 0 or e1[0] * e2[1] - e1[1] * e2[0] <= 0:
            continue                                   # reflex or degenerate corner
        n1 = np.array([e1[1], -e1[0]]) / l1            # outward normals (ccw polygon)
        n2 = np.array([e2[1], -e2[0]]) / l2
        bis = n1 + n2
        bl = np.hypot(*bis)
        if bl < 1e-9:
            continue
        bis /= bl
        cos_half = float(bis @ n1)
        out.append(v + bis * clearance / max(cos_half, 0.2))
    return out


corner_points = _corner_points  # (public: the tactician's routes round dense features use it too)


_TURNS: dict[int, np.ndarray] = {}


def _ring_turns(n_angles: int) -> np.ndarray:
    """The turns (radians) of a ring's directions from the one towards the model's start:
    0, then +1, -1, +2, -2... steps of a full turn / ``n_angles`` (made once per count)."""
    got = _TURNS.get(n_angles)
    if got is None:
        steps = ([0] + [k * sgn for k in range(1, n_angles // 2 + 1) for sgn in (1, -1)])[:n_angles]
        got = _TURNS[n_angles] = np.array(steps, dtype=float) * (2 * math.pi / n_angles)
        got.flags.writeable = False
    return got


def _ring_spots(fp0: Footprint, refs: list, offsets: tuple, rel: np.ndarray) -> np.ndarray:
    """Placer.rings' spots for the base ``fp0`` (where it starts): round each of ``refs`` (a
    non-empty list of footprints) at each edge gap of ``offsets`` (0: base contact, aimed at
    CONTACT_AIM), in the directions ``rel`` (_ring_turns) turned from the one towards the start
    (none: along x). (M, 2), grouped by reference, then offset, then direction."""
    s = np.array([fp0.x, fp0.y])
    rc = np.array([(f.x, f.y) for f in refs], dtype=float)
    v = s - rc
    base = np.where(np.hypot(v[:, 0], v[:, 1]) > 0, np.arctan2(v[:, 1], v[:, 0]), 0.0)
    ang = base[:, None] + rel[None, :]                              # (m, A)
    u = np.empty(ang.shape + (2,))                                  # (m, A, 2): cos, sin
    u[..., 0] = np.cos(ang)
    u[..., 1] = np.sin(ang)
    offs = np.asarray(offsets, dtype=float)
    offs = np.where(offs == 0.0, CONTACT_AIM, offs)   # (base contact, aimed to survive the snap)
    if fp0.shape == "round" and all(f.shape == "round" for f in refs):
        rr = np.array([0.5 * f.length for f in refs]) + 0.5 * fp0.length
        t = rr[:, None, None] + offs[None, :, None]                  # (m, o, 1)
        c = rc[:, None, None, :] + u[:, None, :, :] * t[..., None]  # (m, o, A, 2)
        return c.reshape(-1, 2)
    # (every reference's rings, every offset's, walked at once, (m, o, A): each spot's
    # arithmetic is its own, against its own reference)
    bound = np.array([fp0.bounding_radius + f.bounding_radius for f in refs])
    t = np.repeat((bound[:, None] + offs[None, :])[..., None], len(rel), axis=2)
    m = len(refs)
    for _ in range(4):   # walk in by the surplus: never closer than the offset
        c = rc[:, None, None, :] + u[:, None, :, :] * t[..., None]
        d = placed_distances_paired(fp0, c.reshape(m, -1, 2), refs).reshape(t.shape)
        t = t - np.maximum(d - offs[None, :, None], 0.0)
    return (rc[:, None, None, :] + u[:, None, :, :] * t[..., None]).reshape(-1, 2)


_ring_spots = kernel("movement.ring_spots", _ring_spots)


def _toward_spots(fp0: Footprint, point: tuple[float, float], most: float, fractions: tuple,
                  spread: tuple) -> np.ndarray:
    """Placer.toward's spots for the base ``fp0`` (where it starts) towards ``point``: at each
    of ``fractions`` of its maximum distance ``most`` (less AIM_MARGIN, capped at the point),
    turned by each of ``spread`` (degrees); (len(fractions) * len(spread), 2), fractions outer;
    none when the point is the start."""
    s = np.array([fp0.x, fp0.y])
    v = np.asarray(point, dtype=float) - s
    L = float(np.hypot(*v))
    if L <= 0:
        return np.zeros((0, 2))
    base = math.atan2(v[1], v[0])
    turns = [(math.cos(a), math.sin(a)) for a in (base + math.radians(sp) for sp in spread)]
    rows = []   # (reach, cos, sin) of each spot, fractions outer
    for f in fractions:
        reach = min(L, max(most * f - AIM_MARGIN, 0.0))   # (the snapped spot stays within it)
        rows += [(reach, cs, sn) for cs, sn in turns]
    m = np.array(rows)
    return s + m[:, :1] * m[:, 1:]       # (each spot s + reach * (cos, sin), as one array)


_toward_spots = kernel("movement.toward_spots", _toward_spots)


_LAST_START: list = [None, {}]  # (the BodyIndex last read, {unit: its models' start distances})


def _start_distances(unit: str, idx: BodyIndex, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distances from the unit's ``n`` models (where they stand in ``idx``) to every body
    of ``idx``, and which bodies' columns are measured yet: kept for the last BodyIndex read (it
    never changes): a solver, its own verification and the command's check each place the same
    unit on one table. A column is measured when first asked for (Placer.start_gaps: usually a
    few units' rows), each one alone (fps_to_rows: any subset of rows gives the full call's
    columns to the bit), so a column is the same whoever asked first."""
    kept = _LAST_START
    if kept[0] is not idx:
        kept[0], kept[1] = idx, {}
    got = kept[1].get(unit)
    if got is None:
        got = kept[1][unit] = (np.empty((n, len(idx))), np.zeros(len(idx), dtype=bool))
    return got


class Placer:
    """The move of one unit in progress (solver-internal; mutable, never shared)."""

    def __init__(self, unit: str, bodies: Sequence[Body] | BodyIndex,
                 areas: Sequence[TerrainArea], board: tuple[float, float], *,
                 max_distance: Mapping[str, float] | float, may_cross_dense: bool | float = False,
                 through_enemies: bool = False, impassable: Collection[str] = (),
                 ends: Mapping[str, Sequence[Point]] | None = None,
                 angles: Mapping[str, float] | None = None):
        self.idx = idx = as_index(bodies)
        self.facing = dict(angles or {})  # (03.01 the facings a command turns its models to)
        self.terr = terrain_index(areas)
        self.board = board
        self.unit = unit
        rows = idx.unit_rows.get(unit)
        if rows is None:
            raise ValueError(f"unit {unit!r} has no models among the bodies")
        self.ids = [idx.ids[r] for r in rows.tolist()]
        self.start = {idx.ids[r]: idx.fps[r] for r in rows.tolist()}
        self.player = int(idx.players[rows[0]])
        mask = np.ones(len(idx), dtype=bool)
        mask[rows] = False
        self.other_rows = np.flatnonzero(mask)
        self.enemy_rows = np.flatnonzero(idx.players != self.player)
        self.blockers = blocking_rows(idx, self.player, through_enemies, impassable)
        self.may_cross_dense = may_cross_dense
        self.max = {mid: float(max_distance[mid] if isinstance(max_distance, Mapping)
                               else max_distance) for mid in self.ids}
        self.cur: dict[str, Footprint] = dict(self.start)
        self._row_of = {mid: k for k, mid in enumerate(self.ids)}
        self._start_d, self._start_known = _start_distances(unit, idx, len(self.ids))
        self.path: dict[str, tuple[Point, ...]] = {}
        for mid, pts in (ends or {}).items():
            if mid in self.start and len(pts):
                self.set(mid, tuple((float(x), float(y)) for x, y in pts))

    # --- state -----------------------------------------------------------------------------
    def set(self, mid: str, path: Sequence[Point]) -> None:
        path = tuple(path)
        self.path[mid] = path
        x, y = path[-1]
        self.cur[mid] = self.start[mid].moved(x, y, self.facing.get(mid))

    def moved(self, mid: str) -> bool:
        p = self.path.get(mid)
        return p is not None and path_length(p) > 0.0

    def paths(self) -> dict[str, tuple[Point, ...]]:
        """The paths of the models that moved, by id."""
        return {mid: self.path[mid] for mid in self.ids if self.moved(mid)}

    def rows_of(self, units: Collection[str]) -> np.ndarray:
        """Rows of the bodies of ``units`` (sorted)."""
        if not units:
            return np.zeros(0, dtype=np.int64)
        return np.sort(np.concatenate([self.idx.unit_rows[u] for u in units
                                       if u in self.idx.unit_rows] or [np.zeros(0, np.int64)]))

    def start_gaps(self, mid: str, rows: np.ndarray) -> np.ndarray:
        """Distances from ``mid``'s start to the bodies ``rows`` (a new array; measured when
        first asked for, then kept: _start_distances)."""
        need = rows[~self._start_known[rows]]
        if len(need):
            need = sorted_unique(need)
            self._start_d[:, need] = fps_to_rows([self.start[m] for m in self.ids], self.idx, need)
            self._start_known[need] = True
        return self._start_d[self._row_of[mid], rows]

    # --- candidates ------------------------------------------------------------------------
    def rings(self, mid: str, refs: Sequence[Footprint], offsets: Sequence[float],
              n_angles: int = ANGLES) -> np.ndarray:
        """Candidate centres for ``mid`` round each reference footprint at each edge gap in
        ``offsets`` (0 = base contact): the direction towards the model's start first, then
        alternately either side. (M, 2), grouped by reference then offset."""
        if not refs:
            return np.zeros((0, 2))
        return _ring_spots(self.start[mid], list(refs), tuple(offsets), _ring_turns(n_angles))

    def toward(self, mid: str, point: Sequence[float], fractions=(1.0, 0.75, 0.5, 0.25),
               spread=(0.0, 20.0, -20.0, 40.0, -40.0)) -> np.ndarray:
        """Candidate centres from the model's start towards ``point``: at the given fractions
        of its maximum distance (capped at the point), turned by ``spread`` degrees."""
        return _toward_spots(self.start[mid], (float(point[0]), float(point[1])), self.max[mid],
                             tuple(fractions), tuple(spread))

    # --- the search ------------------------------------------------------------------------
    def find(self, mid: str, cands: np.ndarray,
             score: Callable[[np.ndarray], tuple[np.ndarray, Sequence[np.ndarray]]], *,
             coherent_with: Sequence[str] | None) -> tuple[tuple[Point, ...], int] | None:
        """The best legal spot for ``mid`` among ``cands`` (K, 2), as (path, candidate index).

        ``score(centres)`` returns (allowed mask, sort keys, primary key first); candidates are
        tried in key order (ties: generation order). Legal: the 03.01 end checks against every
        other body and every unit-mate where it now stands, Part A ruling 13, the board, the
        maximum distance along the path, a clear path (straight or one detour), and coherency
        (03.03) with ``coherent_with`` (their current spots; None = no coherency test)."""
        if not len(cands):
            return None
        fp0 = self.start[mid]
        s = np.array([fp0.x, fp0.y])
        cands, sel = _reachable_spots(fp0, cands, self.max[mid], self.board)
        if not len(sel):
            return None
        c = cands[sel]
        allowed, keys = score(c)
        sel, c = sel[allowed], c[allowed]
        if not len(sel):
            return None
        order = _rank_spots([np.asarray(k)[allowed] for k in keys]) if keys else np.arange(len(sel))
        # the costlier tests run on the best-ranked candidates first, a chunk at a time: the
        # answer (the first legal candidate in rank order) is the same, found sooner
        mates = [self.cur[m] for m in self.ids if m != mid]
        fixed = [self.cur[m] for m in coherent_with] if coherent_with else []
        detours = 0
        for start in range(0, len(order), CHUNK):
            chunk = order[start:start + CHUNK]
            cc = c[chunk]
            legal = _spots_legal(fp0, cc, self.idx, self.other_rows, mates, self.terr, fixed)
            if not legal.any():
                continue
            clear = np.zeros(len(chunk), dtype=bool)
            clear[legal] = straight_paths_clear(fp0, cc[legal], self.idx, self.terr,
                                                self.blockers,
                                                may_cross_dense=self.may_cross_dense)
            for i in np.flatnonzero(legal).tolist():
                e = cc[i]
                if clear[i]:
                    return ((float(s[0]), float(s[1])), (float(e[0]), float(e[1]))), \
                        int(sel[chunk[i]])
                if detours >= MAX_TRACED:
                    continue
                detours += 1
                path = self.detour(mid, e)
                if path is not None:
                    return path, int(sel[chunk[i]])
        return None

    def trace(self, mid: str, end: np.ndarray) -> tuple[Point, ...] | None:
        """A legal path from the model's start to ``end`` within its maximum distance: the
        straight line, else a detour round a blocking base or dense feature (``detour``)."""
        fp0 = self.start[mid]
        s = np.array([fp0.x, fp0.y])
        e = snap_array(end)
        if not path_blocker(fp0, np.array([s, e]), self.idx, self.terr, self.board,
                            self.blockers, may_cross_dense=self.may_cross_dense):
            return ((float(s[0]), float(s[1])), (float(e[0]), float(e[1])))
        return self.detour(mid, e)

    def detour(self, mid: str, end: np.ndarray) -> tuple[Point, ...] | None:
        """A legal path to ``end`` through one or two waypoints (``_waypoints``), or None."""
        fp0 = self.start[mid]
        s = np.array([fp0.x, fp0.y])
        e = snap_array(end)
        D = self.max[mid]
        first, second, two = self._waypoints(fp0, s, e, D)
        first, second = snap_array(first), snap_array(second)
        for k in range(len(first)):
            pts = np.array([s, first[k], second[k], e] if two[k] else [s, first[k], e])
            if path_length(pts) > D + EPS:
                continue
            if not path_blocker(fp0, pts, self.idx, self.terr, self.board, self.blockers,
                                may_cross_dense=self.may_cross_dense):
                return tuple((float(x), float(y)) for x, y in pts)
        return None

    def _waypoints(self, fp0: Footprint, s: np.ndarray, e: np.ndarray,
                   D: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Detour waypoint sequences near the straight path s->e, shortest total path first
        (at most MAX_DETOURS): one point beside each base that may block, one point off each
        convex corner of a nearby dense feature, and pairs of neighbouring corners (to round
        the end of a wall). As (first waypoints (N, 2), second waypoints (N, 2), whether the
        sequence has two (N,)); a one-point sequence's second is its first. All the sequences'
        lengths in one pass, each the sum of its legs in path order (a zero second leg adds
        nothing); ties by generation order."""
        r = fp0.bounding_radius
        lo, hi = np.minimum(s, e) - 2 * r - 1.0, np.maximum(s, e) + 2 * r + 1.0
        v = e - s
        n = np.array([-v[1], v[0]]) / (np.hypot(*v) or 1.0)
        firsts: list[np.ndarray] = []
        seconds: list[np.ndarray] = []
        twos: list[np.ndarray] = []
        if len(self.blockers):
            near = near_rows(self.idx, np.array([s, e]), r, 1.0, self.blockers)
            if len(near):
                cj = self.idx.centres[near]
                step = n[None, :] * (self.idx.bound[near] + r + DETOUR_GAP)[:, None]
                w = np.stack([cj + step, cj - step], axis=1).reshape(-1, 2)   # (each base: +, -)
                firsts.append(w)
                seconds.append(w)
                twos.append(np.zeros(len(w), dtype=bool))
        es = self.terr.uncrossable(self.may_cross_dense)   # (13.06: those it may not cross)
        if len(es):
            away = (es.lo > hi).any(axis=1) | (es.hi < lo).any(axis=1)
            for p in flatnonzero(~away).tolist():
                a, b, two = _corner_legs(self.terr, es.polys[p], r + DETOUR_GAP)
                firsts.append(a)
                seconds.append(b)
                twos.append(two)
        if not firsts:
            return _NO_WAYPOINTS
        a = np.concatenate(firsts) if len(firsts) > 1 else firsts[0]
        b = np.concatenate(seconds) if len(seconds) > 1 else seconds[0]
        two = np.concatenate(twos) if len(twos) > 1 else twos[0]
        if not len(a):
            return _NO_WAYPOINTS
        ab = b - a
        be = e - b
        sa = a - s
        tot = np.hypot(sa[:, 0], sa[:, 1]) + np.hypot(ab[:, 0], ab[:, 1]) + np.hypot(be[:, 0], be[:, 1])
        order = tot.argsort(kind="stable")
        keep = order[tot[order] <= D + EPS][:MAX_DETOURS]
        return a[keep], b[keep], two[keep]


_NO_WAYPOINTS = (np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, dtype=bool))


def _corner_legs(terr, poly, clearance: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detour sequences round the dense polygon ``poly`` of ``terr`` at ``clearance``, as
    (first, second, has two) arrays: each of ``_corner_points`` alone (second = first), then
    each pair of neighbouring corners both ways. Kept on the TerrainIndex (``corner_legs``: its
    polygons never change, and it holds them, so their ids are not reused)."""
    kept = terr.corner_legs
    key = (id(poly), clearance)
    got = kept.get(key)
    if got is None:
        c = np.array(_corner_points(poly.pts, clearance), dtype=float).reshape(-1, 2)
        k = len(c)
        if k >= 2:
            nxt = roll_next(c)
            pa = np.stack([c, nxt], axis=1).reshape(-1, 2)      # (a, b), (b, a) for each corner
            pb = np.stack([nxt, c], axis=1).reshape(-1, 2)
            got = (np.concatenate([c, pa]), np.concatenate([c, pb]),
                   np.arange(3 * k) >= k)
        else:
            got = (c, c, np.zeros(k, dtype=bool))
        kept[key] = got
    return got
