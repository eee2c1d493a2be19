"""03.02 Setting units up: the one placement solver every automatic set-up uses (deployment,
26 step 8; ingress, 20.04; Deep Strike, 24.09; Infiltrators, 24.20; disembarking, 18.04-18.05;
the importer's and the sandbox's placements).

The API, on plain data (footprints from sim.rules.geometry; their positions are ignored, their
shape, size and facing kept):

* ``place_unit(models, region, others, terrain, prefer)`` -> ``Placement`` (a centre for
  every model) or ``Refusal`` (false in a test; ``reason`` says which model does not fit and
  how much room is missing). ``models``: (id, footprint) of one unit; ``region``: where it may
  go (``regions.Region``, built by ``deployment``, ``ingress_strip``, ``deep_strike``,
  ``infiltrators``, ``disembark``, ``emergency_disembark``, ``anywhere``); ``others``: (id,
  footprint) of every other model on the table; ``terrain``: the terrain areas (no base ends on
  a light or dense feature, Part A ruling 13); ``prefer``: ``Prefer`` (toward points, toward
  bases edge to edge, against a battlefield edge: ``Prefer.front``/``Prefer.back`` of a zone).
* ``placement_options(...)``: up to ``count`` different placements, best first, their anchors
  at least ``apart`` from each other (a player's choice of spots); ``iter_placements(...)`` the
  same one at a time, as they are found (a player that takes the first legal one).
* ``place_army(units, region, ...)`` -> ``ArmyPlacement`` or ``Refusal``: a whole army, unit
  by unit, the largest bases first, each unit clear of the ones placed before it.

How: the unit's largest base (ties: lowest id) is the anchor. Its candidate spots are the
region's own (``ModelRule.seeds``: a lattice, the spots against the zone's or the strip's
edges, rings round the target or the enemies) and rings just clear of every other base; each
is tested at once for every limit (vectorised), and the legal ones are ranked by the
preference (ties: the lateral coordinate, then generation order). From the best anchor the
other models are set up one at a time (largest first, then by id), each at the best-ranked
legal spot among rings round the models already placed (at ``gap``, 1" and 1.9"), the spots
touching two of them or one of them and a side of the zone or battlefield, and rings round the
other bases near them; legal means every limit of
the region, ``clearance`` from every other base, no light or dense feature, ``gap`` from its
unit-mates, within 2" of one of them and within 9" of all (03.03: so the unit is one group of
2" links spanning at most 9" by construction). If some model finds no spot, the
unit is grown again from the same anchor compactly (nearest the anchor), then on a square lattice
(the four axis directions: a hexagonal packing can leave a corner unusable), then the next anchor
is tried (at most ``MAX_ANCHORS``, each ``ANCHOR_APART`` from the ones tried, or a tenth of
the region's span when that is less). A placement
found is checked by the rules' own functions (``deployment.setup_problems``, the region's
``problems``) before it is returned (``iter_placements(checked=False)``: by its caller).
Everything is deterministic: candidates are generated in a fixed order and ranked by rounded
keys, ties by that order.

What it may miss: it is a greedy search over a finite candidate set, so a unit that fits only
in some arrangement it does not generate is refused (the refusal says what room there was);
a zone that is not convex is tested piece by piece (a base straddling two convex pieces is
not tried). ``turn`` lets hull bases (ovals, rectangles) also take their facing + 90 degrees.
What every candidate is tested against (the other bases, the terrain, the region, the
clearance) is ``table``'s; the spots a region itself offers are ``spots``'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from sim.rules.arrays import col_max, col_min
from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN
from sim.rules.compiled import kernel
from sim.rules.deployment import half_extents, player_edge, setup_problems
from sim.rules.geometry import Footprint
from sim.rules.grid import snap_facing
from sim.rules.movement.turning import turnable
from sim.rules.movement.kernels import placed_distances
from sim.rules.movement.solvers.regions import OPPOSITE, Region, base_area
from sim.rules.movement.solvers.spots import SLACK, directions, ring
from sim.rules.movement.solvers.table import ANGLES, _Table, _spots_fit

__all__ = ["Prefer", "Placement", "ArmyPlacement", "Refusal", "place_unit", "placement_options",
           "iter_placements", "place_army", "base_words", "GAP", "CLEARANCE", "ARMY_CLEARANCE", "MAX_ANCHORS"]

Point = tuple[float, float]
GAP = 0.1              # inches between the bases of one unit's models
CLEARANCE = 0.25       # inches kept from every other base
ARMY_CLEARANCE = 0.5   # ... between the units of an army set up together
MAX_ANCHORS = 12       # anchor spots tried per unit
ANCHOR_APART = 1.0     # inches between the anchors tried
COMPACT = 1.0          # against an edge: weight of the distance to the anchor (keeps units compact)
LOOSE = (1.0, 1.9)     # edge gaps of the rings round placed unit-mates when no tight spot is legal
CHUNK = 128             # anchor candidates tested together, in rank order: the first chunk;
MAX_CHUNK = 1024       # ... each next one twice the last, up to this (a search deep in the ranking)


@dataclass(frozen=True, slots=True)
class Prefer:
    """Where a unit would rather stand: nearest one of ``points`` (centre distance), nearest
    one of ``bases`` (edge to edge: a transport, 18.05 "as close as possible"), or against the
    battlefield ``edge`` ("south" y = 0, "north", "west" x = 0, "east"), compact; nothing:
    compact, the first spot in generation order."""

    points: tuple[Point, ...] = ()
    bases: tuple[Footprint, ...] = ()
    edge: str | None = None

    @staticmethod
    def toward(*points: Point) -> "Prefer":
        return Prefer(points=tuple((float(x), float(y)) for x, y in points))

    @staticmethod
    def toward_bases(*fps: Footprint) -> "Prefer":
        return Prefer(bases=tuple(fps))

    @staticmethod
    def against(edge: str) -> "Prefer":
        return Prefer(edge=edge)

    @staticmethod
    def back(zone, board) -> "Prefer":
        """Compact against the zone's own battlefield edge (``deployment.player_edge``)."""
        return Prefer(edge=player_edge(zone, board))

    @staticmethod
    def front(zone, board) -> "Prefer":
        """Compact at the zone's side toward the enemy (against the opposite edge)."""
        return Prefer(edge=OPPOSITE[player_edge(zone, board)])

    def score(self, fp: Footprint, c: np.ndarray, board) -> np.ndarray:
        """(K,) how far each spot is from what is preferred (0 for nothing preferred)."""
        if self.points:
            if len(self.points) == 1:   # (the least of one distance: that distance)
                (px, py), = self.points
                return np.hypot(c[:, 0] - px, c[:, 1] - py)
            p = np.asarray(self.points, dtype=float)
            return np.min(np.hypot(c[:, 0:1] - p[None, :, 0], c[:, 1:2] - p[None, :, 1]), axis=1)
        if self.bases:
            return placed_distances(fp, c, list(self.bases)).min(axis=1)
        if self.edge is not None:
            hx, hy = half_extents(fp)
            W, H = board
            return {"south": c[:, 1] - hy, "north": H - c[:, 1] - hy,
                    "west": c[:, 0] - hx, "east": W - c[:, 0] - hx}[self.edge]
        return np.zeros(len(c))

    def lateral(self, c: np.ndarray) -> np.ndarray:
        """(K,) the tie-break along the preferred edge: from its west (or south) end."""
        if self.edge in ("south", "north"):
            return c[:, 0]
        if self.edge in ("west", "east"):
            return c[:, 1]
        return np.zeros(len(c))


@dataclass(frozen=True, slots=True)
class Placement:
    """A unit set up: each model's centre and facing (by id), the models set up by 03.02.02
    (touching an edge, or within 1" of a transport), the anchor spot, and (only when asked for
    a partial set-up, 18.05) the models left out."""

    positions: Mapping[str, Point]
    angles: Mapping[str, float]
    oversized: tuple[str, ...] = ()
    anchor: Point = (0.0, 0.0)
    left_out: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return True

    def face(self, models: Sequence[tuple[str, Footprint]]) -> tuple[tuple[str, float], ...]:
        """A set-up command's ``face`` (03.01): (model id, facing) of each of ``models`` ((id,
        footprint)) this placement turns from the facing it has, on the facing grid."""
        out = []
        for mid, fp in models:
            a = self.angles.get(mid)
            if a is not None and snap_facing(a) != snap_facing(fp.angle):
                out.append((mid, snap_facing(a)))
        return tuple(out)

    def footprints(self, models: Sequence[tuple[str, Footprint]]) -> list[tuple[str, Footprint]]:
        """(id, footprint) of the models placed, in the order of ``models``."""
        return [(mid, fp.moved(*self.positions[mid], self.angles[mid])) for mid, fp in models
                if mid in self.positions]


@dataclass(frozen=True, slots=True)
class ArmyPlacement:
    """An army set up: each unit's Placement (by unit id) and the order they were placed in."""

    units: Mapping[str, Placement]
    order: tuple[str, ...]

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why no placement was found: the sentence, the unit and model it is about, the free room
    of the region and the room the unit's bases need (square inches), and for an army the
    units placed before it."""

    reason: str
    unit: str | None = None
    model: str | None = None
    free: float | None = None
    need: float | None = None
    placed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return self.reason


def base_words(fp: Footprint) -> str:
    """'a 32 mm round base', 'a 170x105 mm oval base'."""
    L, Wd = round(fp.length * 25.4), round(fp.width * 25.4)
    return f"a {L} mm round base" if fp.shape == "round" else f"a {L}x{Wd} mm {fp.shape} base"


# --- one unit ---------------------------------------------------------------------------------

@dataclass
class _Tried:
    """The farthest an anchor's set-up got: how many models, and the one that found no spot."""

    placed: int = -1
    model: str | None = None
    fp: Footprint | None = None
    problems: list = field(default_factory=list)


def turns(models: Sequence[tuple[str, Footprint]]) -> bool:
    """Whether turning may help set ``models`` ((id, footprint)) up: some base of theirs looks
    different turned (not round, nor an oval as wide as it is long)."""
    return any(turnable(fp) for _m, fp in models)


def _facings(fp: Footprint, turn: bool, region: Region) -> list[Footprint]:
    """The facings tried for a base: its own; with ``turn`` (a hull), also turned 90 and 45
    degrees both ways, and square to the ``near`` target (both ways); each once (a hull looks
    the same turned 180)."""
    if not turn or fp.shape == "round":
        return [fp]
    angles = [fp.angle, fp.angle + 90.0, fp.angle + 45.0, fp.angle - 45.0]
    if region.near is not None:
        angles += [region.near.target.angle, region.near.target.angle + 90.0]
    out, seen = [], []
    for a in angles:
        k = round(a % 180.0, 6)
        if k not in seen:
            seen.append(k)
            out.append(fp.moved(fp.x, fp.y, a % 360.0))
    return out


def _anchor_keys(prefer: Prefer, fp: Footprint, c: np.ndarray, board) -> list[np.ndarray]:
    """Sort keys of the anchor spots: by the preference, then along the preferred edge; with
    nothing preferred, from the bottom-left (lowest y, then x: a packer's corner); each rounded
    to its ``_anchor_decimals``."""
    d1, d2 = _anchor_decimals(prefer)
    if not (prefer.points or prefer.bases or prefer.edge):
        return [np.round(c[:, 1], d1), np.round(c[:, 0], d2)]
    s = prefer.score(fp, c, board)
    return [np.round(s, d1), np.round(prefer.lateral(c), d2)]


def _anchor_decimals(prefer: Prefer) -> tuple[int, int]:
    """The decimals ``_anchor_keys`` rounds its two keys to: against an edge, the distance to
    it to 2 (a hundredth of an inch closer is no better), everything else to 6."""
    return (2 if prefer.edge else 6), 6


_WHOLE = 2.0 ** 40   # (a rounded key read as an integer below this is exact: see _Ranking)


class _Ranking:
    """The anchor spots' order, ``np.lexsort([np.arange(n)] + keys[::-1])`` of two keys each
    rounded by ``np.round(x, d)`` to its ``decimals`` d (by the first key, then the second, then
    the index), worked out only as far as it is read (``prefix``): a search usually finds its
    anchor among the first chunk of a few thousand spots, so the order of the rest is never
    needed.

    np.round(x, d) is rint(x * 10**d) / 10**d, so each key read back as the integer
    rint(k * 10**d) is that rint (exact while below 2**40: the two roundings err by far less
    than a half), and the integers order and tie as the keys do; the two are joined into one
    (the first's offset times the second's span, plus the second's offset). The first ``k`` of
    the stable order of the joined keys (ties by index) are the first ``k`` of the stable order
    of the spots whose joined key is at most the ``k``-th smallest (np.partition's): every spot
    before them in the order is among them, and they keep the order of their indices. Where the
    joined keys times the spots' number fit in 62 bits (every table's), each is made unique by
    its index in the low digits (the key times n, plus the index): the order is then the plain
    sort of those (numpy's, vectorised), the first ``k`` the sort of the ``k`` smallest, and the
    index the value modulo n. Keys not finite or too large to join are ordered by np.lexsort
    itself, whole."""

    __slots__ = ("_joined", "_full", "_n", "_unique")

    def __init__(self, keys: list[np.ndarray], decimals: tuple[int, int]):
        (k1, k2), (d1, d2) = keys, decimals
        self._n = n = len(k1)
        self._joined = self._full = None
        self._unique = False
        m1, m2 = np.rint(k1 * 10.0 ** d1), np.rint(k2 * 10.0 ** d2)
        if n and np.isfinite(m1).all() and np.isfinite(m2).all():
            lo1, hi1, lo2, hi2 = m1.min(), m1.max(), m2.min(), m2.max()
            span2 = int(hi2 - lo2) + 1
            if max(-lo1, hi1, -lo2, hi2) < _WHOLE and (int(hi1 - lo1) + 1) * span2 < 2 ** 62:
                joined = (m1.astype(np.int64) - int(lo1)) * span2 + (m2.astype(np.int64) - int(lo2))
                top = int(hi1 - lo1) * span2 + int(hi2 - lo2)   # (the largest joined key)
                if (top + 1) * n < 2 ** 62:   # (each made unique: the key times n, plus its index)
                    joined *= n
                    joined += np.arange(n, dtype=np.int64)
                    self._unique = True
                self._joined = joined
                return
        self._full = np.lexsort([np.arange(n), k2, k1])

    def __len__(self) -> int:
        return self._n

    def prefix(self, k: int) -> np.ndarray:
        """The first ``k`` indices of the order (all of them when ``k`` is at least their
        number)."""
        n = self._n
        k = max(0, min(k, n))
        if self._full is None and 4 * k >= n:   # (most of it: the whole order, once)
            self._full = (np.sort(self._joined) % n if self._unique
                          else np.argsort(self._joined, kind="stable"))
        if self._full is not None:
            return self._full[:k]
        if not k:
            return np.zeros(0, dtype=np.intp)
        j = self._joined
        if self._unique:   # (the k smallest, then their order)
            return np.sort(np.partition(j, k - 1)[:k]) % n
        sel = np.flatnonzero(j <= np.partition(j, k - 1)[k - 1])
        return sel[np.argsort(j[sel], kind="stable")][:k]


def _model_keys(prefer: Prefer | None, fp: Footprint, c: np.ndarray, anchor: np.ndarray, board) -> list[np.ndarray]:
    """Sort keys of the spots for a model after the anchor: by the preference (against an edge:
    with the distance to the anchor added, to keep the unit compact); ``prefer`` None: the
    distance to the anchor alone (the compact retry)."""
    d = np.hypot(c[:, 0] - anchor[0], c[:, 1] - anchor[1])
    if prefer is None:
        return [np.round(d, 6)]
    s = prefer.score(fp, c, board)
    if prefer.edge:
        return [np.round(s + COMPACT * d, 6), np.round(prefer.lateral(c), 6)]
    return [np.round(s, 6), np.round(d, 6)]


def _best(keys: list[np.ndarray]) -> int:
    """The index of the smallest key (lexicographic), ties: the lowest index."""
    return int(np.lexsort([np.arange(len(keys[0]))] + list(reversed(keys)))[0])


def _grow_spots(fp: Footprint, placed: list[Footprint], table: _Table, gap: float, tight: bool,
                square: bool = False) -> np.ndarray:
    """Candidate centres for the next model. ``tight``: rings round each model placed at
    ``gap``, the spots touching two of them (round bases), rings round the other bases near
    them, and, for a model set up by 03.02.02, the region's own spots near them; otherwise
    (when none of those is legal) rings at 1" and 1.9" (round an obstacle, still linked)."""
    out = []
    gaps = [gap] if tight else list(LOOSE)
    rnd = fp.shape == "round" and all(p.shape == "round" for p in placed)
    pts = np.array([(p.x, p.y) for p in placed])
    if rnd:
        # (a square lattice: the four axis directions alone, no spot between two)
        u = directions(4 if square else ANGLES)
        pc = pts
        pr = np.array([0.5 * p.length for p in placed])
        r = 0.5 * fp.length
        for g in gaps:
            t = pr + r + g
            out.append((pc[:, None, :] + t[:, None, None] * u[None, :, :]).reshape(-1, 2))
        # touching two placed models at ``gap`` (circle intersections)
        R = pr + r + gap
        if tight and not square and len(pc) >= 2:
            i, j = _pairs(len(pc))
            dv = pc[j] - pc[i]
            dd = np.hypot(dv[:, 0], dv[:, 1])
            ok = (dd > 1e-9) & (dd <= R[i] + R[j]) & (dd >= np.abs(R[i] - R[j]))
            if ok.any():
                i, j, dv, dd = i[ok], j[ok], dv[ok], dd[ok]
                a = (R[i] ** 2 - R[j] ** 2 + dd ** 2) / (2 * dd)
                h = np.sqrt(np.maximum(R[i] ** 2 - a ** 2, 0.0))
                e = dv / dd[:, None]
                m = pc[i] + a[:, None] * e
                n = np.empty_like(e)
                n[:, 0] = -e[:, 1]
                n[:, 1] = e[:, 0]
                out += [m + h[:, None] * n, m - h[:, None] * n]
        if tight:   # touching one placed model at ``gap`` and a side of the zone or the battlefield
            lines = table.rule(fp).lines()
            a0s, ts = table.rule(fp).line_arrays()
            # (each line's offsets of every model at once, entry by entry the arithmetic below;
            # only the lines some model reaches go on)
            v = pc[None, :, :] - a0s[:, None, :]
            off = v[:, :, 0] * ts[:, 1:2] - v[:, :, 1] * ts[:, 0:1]
            reach = np.abs(off) <= R
            for k in reach.any(axis=1).nonzero()[0].tolist():
                a0, t = lines[k]
                v = pc - a0
                along = v @ t
                off = v[:, 0] * t[1] - v[:, 1] * t[0]
                ok = np.abs(off) <= R
                h = np.sqrt(np.maximum(R[ok] ** 2 - off[ok] ** 2, 0.0))
                foot = a0 + along[ok, None] * t
                out += [foot + h[:, None] * t, foot - h[:, None] * t]
    else:
        for p in placed:
            for g in gaps:
                out.append(ring(fp, p, g, ANGLES))
    # (the placed models' box: a few of them, read as floats)
    lo = np.array((min(p.x for p in placed), min(p.y for p in placed))) - 2.0 - fp.bounding_radius
    hi = np.array((max(p.x for p in placed), max(p.y for p in placed))) + 2.0 + fp.bounding_radius
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


# (its compiled twin runs where built: sim.rules.compiled)
_grow_spots = kernel("movement.grow_spots", _grow_spots)


@lru_cache(maxsize=64)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """np.triu_indices(n, 1): every pair i < j of n models, (0, 1), (0, 2), ..., read-only."""
    i, j = np.triu_indices(n, 1)
    i.flags.writeable = False
    j.flags.writeable = False
    return i, j


def _grow_pick(f: Footprint, placed: list[Footprint], table: _Table, prefer: Prefer | None, gap: float,
               anchor: np.ndarray, tight: bool, square: bool) -> tuple:
    """03.02 / 03.03 The best-ranked legal spot for the base ``f`` among those ``_grow_spots``
    offers it (``tight``, ``square`` as its), as (its keys, x, y), or () when none is legal: the
    region's limits, ``gap`` from its unit-mates, within 2" of one and 9" of all, clear of the
    other bases and terrain; ranked by ``_model_keys`` (ties: the first offered)."""
    c = _grow_spots(f, placed, table, gap, tight, square)
    if not len(c):
        return ()
    ok = table.region_mask(f, c)
    if not ok.any():
        return ()
    c = c[ok]
    ok = _spots_fit(f, c, placed, table, gap)
    if not ok.any():
        return ()
    c = c[ok]
    keys = _model_keys(prefer, f, c, anchor, table.region.board)
    k = _best(keys)
    return tuple(float(x[k]) for x in keys), float(c[k, 0]), float(c[k, 1])


# (its compiled twin runs where built: sim.rules.compiled)
_grow_pick = kernel("movement.grow_pick", _grow_pick)


def _grow(order, anchor_fp: Footprint, table: _Table, prefer: Prefer, gap: float, turn: bool,
          partial: bool, tried: _Tried, square: bool = False):
    """Set the models of ``order`` (the anchor first, already at ``anchor_fp``) up one at a
    time; the footprints placed (in order) and those left out, or None."""
    placed = [anchor_fp]
    ids = [order[0][0]]
    left = []
    a = np.array([anchor_fp.x, anchor_fp.y])
    for mid, fp in order[1:]:
        best = None
        for tight in (True, False):
            for f in _facings(fp, turn, table.region):
                got = _grow_pick(f, placed, table, prefer, gap, a, tight, square)
                if got and (best is None or got[0] < best[0]):
                    best = (got[0], f.moved(got[1], got[2]))
            if best is not None:
                break
        if best is None:
            if len(placed) > tried.placed:
                tried.placed, tried.model, tried.fp = len(placed), mid, fp
            if partial:
                left.append(mid)
                continue
            return None
        placed.append(best[1])
        ids.append(mid)
    return ids, placed, left


def _grow_kept(order, anchor_fp: Footprint, table: _Table, gap: float, turn: bool, partial: bool, tried: _Tried,
               square: bool = False, spelled: str | None = None):
    """``_grow`` with no preference (``prefer`` None): its answer depends only on the models, the
    anchor, the table and these arguments, so it is kept on the table (``_Table.grown``) and a
    search of the same table from another side that tries the same anchor reads it back; ``tried``
    is told what the growth got to, as ``_grow`` tells it. The models are keyed as they are
    spelled (``spelled``: ``repr(order)``, the caller's once a search), not by ``==``, which
    takes an angle of 30 for 30.0 and -0.0 for 0.0: a growth read back carries the very
    footprints it was made of."""
    key = (repr(order) if spelled is None else spelled, anchor_fp, gap, turn, partial, square)
    hit = table.grown.get(key)
    if hit is None:
        mine = _Tried()
        got = _grow(order, anchor_fp, table, None, gap, turn, partial, mine, square)
        hit = table.grown[key] = (got, mine.placed, mine.model, mine.fp)
    got, placed, model, fp = hit
    if placed > tried.placed:  # (as _grow's own update: the farthest a failed growth got)
        tried.placed, tried.model, tried.fp = placed, model, fp
    return None if got is None else (list(got[0]), list(got[1]), list(got[2]))


def _solve(unit: str, models, table: _Table, prefer: Prefer, gap: float, turn: bool, partial: bool,
           count: int = 1, apart: float = 0.0):
    """Up to ``count`` placements (anchors ``apart`` from each other), and what the search
    got to (for the refusal)."""
    tried = _Tried()
    return list(_search(models, table, prefer, gap, turn, partial, count, apart, tried)), tried


def _search(models, table: _Table, prefer: Prefer, gap: float, turn: bool, partial: bool, count: int,
            apart: float, tried: _Tried, checked: bool = True):
    """_solve's placements one at a time, as they are found (``tried`` told what the search got
    to): a caller that takes the first stops the search there, and the ones it does take are
    the first of _solve's, in order. ``checked``: as iter_placements'."""
    models = [(str(m), f) for m, f in models]
    if not models:
        return
    order = sorted(models, key=lambda p: (-base_area(p[1]), p[0]))
    mid0, fp0 = order[0]
    board = table.region.board
    key = (repr(fp0), turn)   # (as spelled: ``==`` takes an angle of 30 for 30.0, -0.0 for 0.0)
    got = table.anchors.get(key)
    if got is None:
        got = table.anchors[key] = _anchor_spots(fp0, turn, table)
    facings, spots, c, group, span = got
    tried.placed, tried.model, tried.fp = 0, mid0, fp0
    if c is None:
        return
    keys = [_anchor_keys(prefer, facings[g], s, board) for g, s in spots]
    keys = [np.concatenate([k[i] for k in keys]) for i in range(len(keys[0]))]
    ranked = _Ranking(keys, _anchor_decimals(prefer))
    found, anchors, attempts = 0, [], []
    step = min(ANCHOR_APART, max(0.1 * float(span.min()), 0.05))   # (a small region: anchors closer)
    others = table.others
    known = _known_verdicts(table, key, c, group)
    spelled = repr(order) if len(order) > 2 else None   # (_grow_kept's key: read for three models or more)
    for i in _legal_in_rank_order(ranked, c, group, facings, table, known):
        p = c[i]
        if any((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < step ** 2 for q in attempts):
            continue
        if any((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < apart ** 2 for q in anchors):
            continue
        if len(attempts) >= MAX_ANCHORS * count:
            break
        attempts.append(p)
        f0 = facings[int(group[i])]
        at = f0.moved(float(p[0]), float(p[1]))
        got = _grow(order, at, table, prefer, gap, turn, partial, tried)
        if got is None and len(order) > 2:   # (a long unit may break 03.03's 9": compact instead)
            got = _grow_kept(order, at, table, gap, turn, partial, tried, spelled=spelled)
        if got is None and len(order) > 2:   # (a hexagonal packing may leave a corner empty: square)
            got = _grow_kept(order, at, table, gap, turn, partial, tried, square=True, spelled=spelled)
        if got is None:
            continue
        ids, placed, left = got
        setup = list(zip(ids, placed))
        if checked:
            problems = setup_problems(setup, others, table.terr) + table.region.problems(setup)
            if problems:           # (never expected: the search tests what the rules test)
                tried.problems = problems
                continue
        rules = [table.rule(f) for f in placed]
        found += 1
        anchors.append(p)
        yield Placement({m: (f.x, f.y) for m, f in setup}, {m: f.angle for m, f in setup},
                        tuple(m for m, r in zip(ids, rules) if r.mode), (float(p[0]), float(p[1])), tuple(left))
        if found >= count:
            return


def _anchor_spots(fp0: Footprint, turn: bool, table: _Table) -> tuple:
    """The anchor candidates of a search for the base ``fp0`` (``turn``: as _search's), which do
    not depend on the side it prefers (only their order does): the facings tried, each facing's
    spots with its index (the region's seeds and the rings round the other bases near them,
    those too far from the edges left out), all of them stacked (None: there are none) with the
    facing of each, and the span of every spot's box, those left out too. Kept on the table
    (``_Table.anchors``) for another search of it from another side."""
    facings = _facings(fp0, turn, table.region)
    spots, lows, highs = [], [], []
    for g, f in enumerate(facings):
        rule = table.rule(f)
        s = rule.seeds()
        if len(s):
            lo, hi = col_min(s), col_max(s)
            s = np.vstack([s, table.contact_spots(f, lo, hi)])
            lows.append(col_min(s))
            highs.append(col_max(s))
            # (a region without a zone: the spots off the battlefield or out of the edge strip,
            # about half of a deep ingress search's, left out before they are ranked; the others
            # rank and test as they would beside them, ModelRule.edges_mask)
            near = rule.edges_mask(s)
            if near is not None:
                s = s[near]
            spots.append((g, s))
    if not spots:
        return facings, spots, None, None, None
    c = np.vstack([s for _g, s in spots])
    group = np.concatenate([np.full(len(s), g) for g, s in spots])
    span = np.max(highs, axis=0) - np.min(lows, axis=0)   # (every spot's, those left out too)
    for a in (c, group, *[s for _g, s in spots]):
        a.flags.writeable = False   # (kept: read by every search of the table, written by none)
    return facings, spots, c, group, span


def _legal_in_rank_order(ranked: _Ranking, c: np.ndarray, group: np.ndarray, facings, table: _Table,
                         known: np.ndarray):
    """The indices of the legal candidates in ``ranked``'s order: tested a chunk at a time, so a
    search that finds its anchor early tests few spots (and orders few). ``known`` (int8, one
    per candidate: -1 not yet tested, else the verdict, ``_known_verdicts``): the verdicts found
    before are read instead of tested again, and those found here written into it."""
    start, size = 0, CHUNK
    while start < len(ranked):
        idx = ranked.prefix(start + size)[start:]
        start, size = start + size, min(2 * size, MAX_CHUNK)
        was = known[idx]
        ok, todo = was == 1, was < 0
        for g, f in enumerate(facings):
            sel = np.flatnonzero((group[idx] == g) & todo)
            if len(sel):
                ok[sel] = table.legal(f, c[idx[sel]])
        known[idx[todo]] = ok[todo]
        yield from idx[ok].tolist()


def _known_verdicts(table: _Table, key, c: np.ndarray, group: np.ndarray) -> np.ndarray:
    """The legality verdicts of the anchor candidates ``c`` (by facing ``group``) a search of the
    same table found before (another side preferred: a disembark's directions search the same
    candidates in other orders), kept on the table until its next ``add``: -1 where none was
    tested. Kept only for a region with no zone, where each spot's verdict is its own (a zone's
    test is a matrix product, which could round a spot differently beside others:
    ModelRule.edges_mask); a zone's search gets verdicts of its own, none tested."""
    if table.region.zone is not None:
        return np.full(len(c), -1, dtype=np.int8)
    got = table.verdicts.get(key)
    if got is None or not (np.array_equal(got[0], c) and np.array_equal(got[1], group)):
        got = table.verdicts[key] = (c, group, np.full(len(c), -1, dtype=np.int8))
    return got[2]


def _refusal(unit: str, models, table: _Table, tried: _Tried) -> Refusal:
    rg = table.region
    need = sum(base_area(f) for _m, f in models)
    fp = tried.fp if tried.fp is not None else models[0][1]
    free = table.free_area(fp)
    room = f"{free:.1f} sq in free there, the unit's bases need {need:.1f}"
    where = rg.words()
    if tried.problems:
        return Refusal(f"{unit}: the set-up found breaks a rule: {tried.problems[0]}", unit, tried.model, free, need)
    if tried.placed <= 0:
        rule = table.rule(fp)
        alone = rule.seeds()
        if not len(alone) or not rule.mask(alone).any():
            return Refusal(f"{unit}: no spot {where} for {tried.model} ({base_words(fp)}) "
                           f"({rg.sections()})", unit, tried.model, free, need)
        return Refusal(f"{unit}: no room {where} for {tried.model} ({base_words(fp)}), clear of the other "
                       f"bases and terrain: {room} ({rg.sections()})", unit, tried.model, free, need)
    n = len(models)
    return Refusal(f"{unit}: no coherent set-up {where}: at best {tried.placed} of {n} models placed; "
                   f"{tried.model} ({base_words(fp)}) found no spot within {COHERENCY_LINK:g}\" of its unit "
                   f"(and {COHERENCY_SPAN:g}\" of all of it) clear of the other bases and terrain; {room} "
                   f"({rg.sections()}, 03.03)", unit, tried.model, free, need)


def place_unit(models: Sequence[tuple[str, Footprint]], region: Region,
               others: Sequence[tuple[str, Footprint]] = (), terrain=(), prefer: Prefer = Prefer(), *,
               unit: str = "the unit", gap: float = GAP, clearance: float = CLEARANCE, turn: bool = False,
               partial: bool = False, table: "_Table | None" = None, explain: bool = True) -> Placement | Refusal:
    """03.02 Set one unit up (module docstring): a ``Placement`` of every model, or a
    ``Refusal`` saying why not. ``partial``: models that find no spot are left out
    (``Placement.left_out``) instead of refusing (18.05: they are destroyed). ``table``: one
    ``table_for`` made of this region, these other bases, this terrain and clearance, for a caller
    that searches them again (another side preferred: the searches share what does not depend on
    the preference). ``explain`` False: a caller that reads no refusal's words gets a Refusal
    without them (its free room, a count over the whole region, not measured)."""
    if table is None:
        table = _Table(region, others, terrain, clearance)
    elif table.region is not region or table.clearance != max(float(clearance), SLACK):
        raise ValueError("place_unit: the table given was made for another region or clearance (table_for)")
    found, tried = _solve(unit, models, table, prefer, gap, turn, partial)
    if found:
        return found[0]
    return _refusal(unit, list(models), table, tried) if explain else Refusal(f"{unit}: no set-up found", unit)


def table_for(region: Region, others: Sequence[tuple[str, Footprint]] = (), terrain=(),
              clearance: float = CLEARANCE) -> _Table:
    """What ``place_unit`` tests every spot against (the region, the other bases, the terrain and
    the clearance), made once for a caller that searches the same table several times."""
    return _Table(region, others, terrain, clearance)


def placement_options(models: Sequence[tuple[str, Footprint]], region: Region,
                      others: Sequence[tuple[str, Footprint]] = (), terrain=(), prefer: Prefer = Prefer(), *,
                      count: int = 8, apart: float = 4.0, gap: float = GAP, clearance: float = CLEARANCE,
                      turn: bool = False, partial: bool = False) -> list[Placement]:
    """Up to ``count`` placements of one unit, best first by ``prefer``, their anchors at
    least ``apart`` inches from each other (empty: none found); ``partial`` as ``place_unit``'s."""
    return list(iter_placements(models, region, others, terrain, prefer, count=count, apart=apart, gap=gap,
                                clearance=clearance, turn=turn, partial=partial))


def iter_placements(models: Sequence[tuple[str, Footprint]], region: Region,
                    others: Sequence[tuple[str, Footprint]] = (), terrain=(), prefer: Prefer = Prefer(), *,
                    count: int = 8, apart: float = 4.0, gap: float = GAP, clearance: float = CLEARANCE,
                    turn: bool = False, partial: bool = False, checked: bool = True):
    """``placement_options``'s placements one at a time, as the search finds them: the same
    ones in the same order, and a caller that stops early (a player taking the first legal
    set-up) spares the search for the rest. ``checked=False``: the placements are not put to
    the rules' own check here (setup_problems and the region's problems), for a caller that
    puts each one it uses to the rules' check itself (a player's set-up or ingress move, through
    Battle.check, on the command's positions: these snapped to the measuring grid). The search
    tests what the rules test, so the rules' check here refuses none of them and the placements
    are the same either way (were it ever to refuse one, the checked search would go on as if it
    had not been found and count no anchor for it; tests/rules/movement/
    test_03_02_placement_solver.py checks, among a real table's features too, that the two
    searches give the same placements and that the rules accept every one)."""
    table = _Table(region, others, terrain, clearance)
    yield from _search(models, table, prefer, gap, turn, partial, count, apart, _Tried(), checked)


def place_army(units: Sequence[tuple[str, Sequence[tuple[str, Footprint]]]], region: Region,
               others: Sequence[tuple[str, Footprint]] = (), terrain=(), prefer: Prefer = Prefer(), *,
               gap: float = GAP, clearance: float = ARMY_CLEARANCE, turn: bool = False,
               explain: bool = True, kept: dict | None = None) -> ArmyPlacement | Refusal:
    """Set a whole army up in ``region`` (its deployment zone): unit by unit, the unit with the
    largest base first (then the most base area, then by id), each by ``place_unit``'s search
    clear of the units placed before it. A ``Refusal`` names the unit that found no room and
    the units placed before it (``explain`` False: without the words of why, nor the room free
    and needed, as ``place_unit``'s). ``kept``: a dict the caller keeps across calls (a player
    asking again with some units held back): each unit's search after the same units before it,
    in the same table (region, other bases, terrain, preference, gap, clearance, turning), is
    read back from it, as a tree of the units in order, rather than made again (it reads
    nothing else, so it is the same answer)."""
    table = _Table(region, others, terrain, clearance)
    order = sorted(((str(u), [(str(m), f) for m, f in ms]) for u, ms in units),
                   key=lambda u: (-max((base_area(f) for _m, f in u[1]), default=0.0),
                                  -sum(base_area(f) for _m, f in u[1]), u[0]))
    out: dict[str, Placement] = {}
    node = None if kept is None else kept.setdefault(
        (region, tuple(others), tuple(terrain), prefer, gap, clearance, turn), {})
    for uid, models in order:
        if not models:
            continue
        step = (uid, tuple(models))
        hit = None if node is None else node.get(step)
        if hit is None:
            hit = (_solve(uid, models, table, prefer, gap, turn, False), {})
            if node is not None:
                node[step] = hit
        (found, tried), below = hit
        node = None if node is None else below
        if not found:
            if not explain:
                return Refusal(f"no room for unit {uid} ({len(out)} of {len(order)} units placed)", uid,
                               placed=tuple(out))
            r = _refusal(uid, models, table, tried)
            return Refusal(f"no room for unit {uid} ({len(out)} of {len(order)} units placed): {r.reason}",
                           uid, r.model, r.free, r.need, tuple(out))
        out[uid] = found[0]
        table.add(found[0].footprints(models))
    return ArmyPlacement(out, tuple(out))
