"""03.02 / Part A ruling 13 What the placement solver (``placement``) tests every candidate spot
against: ``_Table`` holds the other bases (centres, round radii, bounding radii), the terrain
index, the region and the clearance. ``legal`` is every limit of the region (``ModelRule.mask``)
and ``clear``: the clearance from every other base (round pairs by ``_discs_clear``'s squared
distances, settled exactly in a thin band; the others by ``regions.farther_than``) and no light or
dense feature under the base grown by SLACK. It also offers the spots just clear of the other
bases (``contact_spots``) and counts the region's free area for a refusal's words."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN
from sim.rules.compiled import kernel
from sim.rules.geometry import Footprint
from sim.rules.movement.index import terrain_index
from sim.rules.movement.kernels import placed_distances, points_polys_distance
from sim.rules.movement.legality import feature_mask
from sim.rules.movement.solvers.regions import Region, _inner, farther_than
from sim.rules.movement.solvers.spots import SLACK, directions, ring

ANGLES = 12   # directions of a ring round a base (the spots clear of another base, round placed models)


_BAND = 1e-7  # inches: a squared centre distance this clearly past its limit settles the pair
LINK = COHERENCY_LINK - SLACK   # 03.03 with SLACK inside: within 2" of a unit-mate ...
SPAN = COHERENCY_SPAN - SLACK   # ... and 9" of every one


def _discs_clear(c: np.ndarray, r: float, oc: np.ndarray, orad: np.ndarray, gap: float) -> np.ndarray:
    """03.02 / Part A ruling 13 (``_Table.clear``'s round bases) (K,) whether a disc of radius
    ``r`` at each of ``c`` (K, 2) is at least ``gap`` (edge to edge) from every disc ``oc``
    (N, 2), ``orad`` (N,): ``hypot(centres) - r - orad >= gap`` for every pair. The squared
    centre distances settle every pair more than _BAND from its limit (the root's and the
    sums' rounding are a few 1e-14" at table scale, so such a pair has the same answer); a
    centre with a pair inside the band is measured as that formula reads, so every answer is
    the formula's, to the bit (np.hypot costs about ten times the squares a pair)."""
    lim = r + orad + gap                      # (N,) centre distance each pair needs (gap > 0: positive)
    dx = c[:, 0:1] - oc[None, :, 0]
    dy = c[:, 1:2] - oc[None, :, 1]
    dx *= dx
    dy *= dy
    dx += dy
    far = (dx > (lim + _BAND) ** 2).all(axis=1)
    near = (dx < (lim - _BAND) ** 2).any(axis=1)
    ok = far
    band = np.flatnonzero(~far & ~near)
    if len(band):
        cb = c[band]
        d = np.hypot(cb[:, 0:1] - oc[None, :, 0], cb[:, 1:2] - oc[None, :, 1]) - r - orad[None, :]
        ok[band] = (d >= gap).all(axis=1)
    return ok


_discs_clear = kernel("movement.discs_clear", _discs_clear)


def _spots_fit(fp: Footprint, c: np.ndarray, placed, table: "_Table", gap: float) -> np.ndarray:
    """03.02 / 03.03 / Part A ruling 13 (K,) whether the base ``fp`` may be set up at each of
    ``c`` as far as the table says, the region's limits aside (``_Table.region_mask``): ``gap``
    or more (edge to edge) from each of its unit-mates ``placed`` so far, within 2" of one and
    9" of all of them (SLACK inside: LINK, SPAN), and clear of every other base and of the light
    and dense features (``_Table.clear``, asked of the spots the unit-mates leave). Each spot's
    answer is its own."""
    ok = np.ones(len(c), dtype=bool)
    if len(placed) and len(c):
        d = placed_distances(fp, c, placed)
        near = d.min(axis=1)
        ok = (near >= gap - 1e-9) & (near <= LINK) & (d.max(axis=1) <= SPAN)
    if ok.any():
        sel = np.flatnonzero(ok)
        ok[sel] = table.clear(fp, c[sel])
    return ok


# (its compiled twin runs where built: sim.rules.compiled)
_spots_fit = kernel("movement.spots_fit", _spots_fit)


class _Table:
    """The other bases (arrays: centres, round radii, bounding radii), the terrain index, the
    region and the clearance: what every candidate is tested against. ``add`` puts a unit just
    placed among the others (an army). What ``near`` and ``contact_spots`` compare with (each
    base's box, its centre less and plus its bounding radius) and which bases are round are
    worked out there too, once for every test until the next ``add``."""

    def __init__(self, region: Region, others, terrain, clearance: float):
        self.region = region
        self.terr = terrain_index(terrain)
        self.clearance = max(float(clearance), SLACK)
        self.others: list[tuple[str, Footprint]] = []
        self.centres = np.zeros((0, 2))
        self.radius = np.zeros(0)
        self.bound = np.zeros(0)
        self.inner = np.zeros(0)   # (regions._inner of each: with the centres and bounds, circles_of's)
        self.hulls: list[int] = []
        self.rules: dict = {}
        # the set-ups grown with no preference (placement._grow_kept), by what they read besides
        # this table: kept until the next ``add`` (a placement searched again from another side
        # grows the same ones from the anchors the two searches share)
        self.grown: dict = {}
        # the legality verdicts of a search's anchor candidates (placement._known_verdicts), by the
        # anchor's base (as spelled: its repr) and turning: kept until the next ``add``, as ``grown``
        self.verdicts: dict = {}
        # a search's anchor candidates (placement._anchor_spots), by the same key: what they are
        # does not depend on the side preferred, only their order; kept until the next ``add``
        self.anchors: dict = {}
        self._boxes()
        self.add(others)

    def add(self, items) -> None:
        items = [(str(m), f) for m, f in items]
        if not items:
            return
        k = len(self.others)
        self.others += items
        # (each footprint read once: its centre, its round radius (0: a hull), its bounding radius)
        rows = np.array([(f.x, f.y, 0.5 * f.length if f.shape == "round" else 0.0, f.bounding_radius, _inner(f))
                         for _m, f in items], dtype=float)
        self.centres = np.vstack([self.centres, rows[:, 0:2]])
        self.radius = np.concatenate([self.radius, rows[:, 2]])
        self.bound = np.concatenate([self.bound, rows[:, 3]])
        self.inner = np.concatenate([self.inner, rows[:, 4]])
        # (new arrays at each ``add``, never written after: read-only, as the compiled twins keep
        # what they read of them by their identity until the next one)
        for a in (self.centres, self.radius, self.bound, self.inner):
            a.flags.writeable = False
        self.hulls += [k + i for i, (_m, f) in enumerate(items) if f.shape != "round"]
        self.grown = {}
        self.verdicts = {}
        self.anchors = {}
        self._boxes()

    def _boxes(self) -> None:
        """The other bases' boxes (x + b, x - b, y + b, y - b, b the bounding radius) and which
        are round (radius > 0; the others, radius 0, hulls), as ``near``, ``clear`` and
        ``contact_spots`` read them."""
        oc, b = self.centres, self.bound
        self.box = (oc[:, 0] + b, oc[:, 0] - b, oc[:, 1] + b, oc[:, 1] - b)
        self.is_round = self.radius > 0   # (a hull's radius is 0: ~is_round)

    def rule(self, fp: Footprint):
        key = (fp.shape, fp.length, fp.width, fp.angle)
        got = self.rules.get(key)
        if got is None:
            got = self.rules[key] = self.region.rule_for(fp)
        return got

    def near(self, c: np.ndarray, reach: float) -> np.ndarray:
        """Rows of the other bases that may come within ``reach`` of a spot in ``c``."""
        if not len(self.centres) or not len(c):
            return np.zeros(0, dtype=np.int64)
        x, y = c[:, 0], c[:, 1]
        xhi, xlo, yhi, ylo = self.box
        keep = ((xhi >= x.min() - reach) & (xlo <= x.max() + reach)
                & (yhi >= y.min() - reach) & (ylo <= y.max() + reach))
        return keep.nonzero()[0]

    def clear(self, fp: Footprint, c: np.ndarray) -> np.ndarray:
        """(K,) the base at each centre is ``clearance`` from every other base and overlaps no
        light or dense feature (Part A ruling 13; tested with the base grown by SLACK)."""
        ok = np.ones(len(c), dtype=bool)
        if not len(c):
            return ok
        rows = self.near(c, fp.bounding_radius + self.clearance)
        if len(rows):
            rnd = rows[self.is_round[rows]]
            if fp.shape == "round" and len(rnd):
                ok &= _discs_clear(c, 0.5 * fp.length, self.centres[rnd], self.radius[rnd],
                                   self.clearance - 1e-9)
            rest = rows if fp.shape != "round" else rows[~self.is_round[rows]]
            if len(rest) and ok.any():
                sel = np.flatnonzero(ok)
                ok[sel] = farther_than(fp, c[sel], [self.others[j][1] for j in rest.tolist()],
                                       self.clearance - 1e-9, self.circles(rest))
        if len(self.terr.no_end) and ok.any():
            sel = np.flatnonzero(ok)
            ok[sel] = ~feature_mask(_grown(fp.shape, fp.length, fp.width, fp.angle), c[sel], self.terr)
        return ok

    def circles(self, rows: np.ndarray) -> tuple:
        """``regions.circles_of`` the other bases of ``rows``, read off the table's arrays (the
        same numbers: each base's centre, bounding radius and ``_inner``)."""
        return self.centres[rows, 0], self.centres[rows, 1], self.bound[rows], self.inner[rows]

    def legal(self, fp: Footprint, c: np.ndarray) -> np.ndarray:
        """(K,) every limit of the region and ``clear``."""
        ok = self.region_mask(fp, c)
        if ok.any():
            sel = np.flatnonzero(ok)
            ok[sel] = _spots_fit(fp, c[sel], (), self, 0.0)
        return ok

    def region_mask(self, fp: Footprint, c: np.ndarray) -> np.ndarray:
        return self.rule(fp).mask(c) if len(c) else np.zeros(0, dtype=bool)

    def contact_spots(self, fp: Footprint, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Spots ``clearance`` clear of each other base whose box meets lo..hi (rings)."""
        oc = self.centres
        if not len(oc):
            return np.zeros((0, 2))
        pad = fp.bounding_radius + self.clearance
        xhi, xlo, yhi, ylo = self.box
        keep = ((xhi >= lo[0] - pad) & (xlo <= hi[0] + pad)
                & (yhi >= lo[1] - pad) & (ylo <= hi[1] + pad)).nonzero()[0]
        if not len(keep):
            return np.zeros((0, 2))
        if fp.shape == "round":
            rr = self.radius[keep]
            u = directions(ANGLES)
            t = rr + 0.5 * fp.length + self.clearance
            rings = oc[keep][:, None, :] + t[:, None, None] * u[None, :, :]   # (each round base's ring)
            if (rr > 0).all():
                return rings.reshape(-1, 2)
            # (hulls among them: theirs by ``ring``, in order with the round bases' rings, which are
            # ``ring``'s own arithmetic, term by term)
            return np.vstack([rings[i] if rr[i] > 0 else ring(fp, self.others[j][1], self.clearance, ANGLES)
                              for i, j in enumerate(keep.tolist())])
        return np.vstack([ring(fp, self.others[j][1], self.clearance, ANGLES) for j in keep.tolist()])

    def free_area(self, fp: Footprint) -> float:
        """Square inches of the region (where a point of ``fp``'s kind of base may be) that no
        other base and no light or dense feature covers, counted on a lattice (at most ~40,000
        points, at least 0.25" apart)."""
        rg = self.region
        W, H = rg.board
        lo, hi = np.array([0.0, 0.0]), np.array([W, H])
        if rg.zone is not None:
            z = np.asarray(rg.zone)
            lo, hi = z.min(axis=0), z.max(axis=0)
        if rg.near is not None:
            t = rg.near.target
            reach = t.bounding_radius + rg.near.distance
            lo = np.maximum(lo, [t.x - reach, t.y - reach])
            hi = np.minimum(hi, [t.x + reach, t.y + reach])
        span = np.maximum(hi - lo, 0.0)
        step = max(0.25, math.sqrt(span[0] * span[1] / 40000.0))
        xs = np.arange(lo[0] + step / 2, hi[0], step)
        ys = np.arange(lo[1] + step / 2, hi[1], step)
        if not len(xs) or not len(ys):
            return 0.0
        pts = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        ok = self.rule(fp).point_mask(pts)
        if ok.any() and len(self.others):
            from sim.rules.geometry import point_distances
            sel = np.flatnonzero(ok)
            rows = self.near(pts[sel], 0.0)
            for j in rows.tolist():
                o = self.others[j][1]
                if not ok.any():
                    break
                ok[sel] &= point_distances(pts[sel], o) > 0.0
        if ok.any() and len(self.terr.no_end):
            sel = np.flatnonzero(ok)
            ok[sel] = (points_polys_distance(pts[sel], self.terr.no_end) > 0.0).all(axis=1)
        return float(ok.sum()) * step * step


@lru_cache(maxsize=256)
def _grown(shape: str, length: float, width: float, angle: float) -> Footprint:
    """The base grown by SLACK all round, at the origin (``_Table.clear``'s terrain test)."""
    return Footprint(shape, 0.0, 0.0, length + 2 * SLACK, width + 2 * SLACK, angle)
