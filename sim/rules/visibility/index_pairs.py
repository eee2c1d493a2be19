"""06.01 / 13.08 How the visibility index (sim.rules.visibility.index) settles its pairs: the
geometry it keeps per model (centres, radii, cores, the areas each is within, the distances),
and the resolution of line of sight for pairs of models, in stages, all pairs at once (the
module docstring of sim.rules.visibility.index tells the stages); fully visible, and the cover
entries with it, from ``sim.rules.visibility.index_full``.

``PairResolution`` is the index's base class: it holds no state of its own, the index's
``__init__`` sets every attribute these methods read and write. Split from the index so that
each file keeps one concern: this one how pairs are answered, that one what is kept and read.
"""

from __future__ import annotations

import math

import numpy as np

from sim.rules.distance_rows import FAR_COL, FAR_ROW, DistanceRows, full_matrix, refine_block
from sim.rules.geometry import OVAL_VERTICES, Footprint, core, disc_distances
from sim.rules.visibility.batch import (csr_concat as _csr_concat, csr_subset as _csr_subset,
                                        outline_crossings_round, pairs_visible_round,
                                        segments_blocked_ragged)
from sim.rules.visibility.index_full import FullResolution
from sim.rules.visibility.kernels import pair_visible
from sim.rules.visibility.pairs import (area_boxes, capsule_inputs, edge_lists, pack_area_edges,
                                        within_candidates, within_candidates_one, within_one,
                                        within_pairs)
from sim.rules.visibility.umbra import ChordCache, umbra_blocked
from sim.rules.terrain import model_within_area
from sim.rules.arrays import count_true, flatnonzero, sorted_unique, tile


def _flat(a: np.ndarray) -> np.ndarray:
    """A 1-D view of a C-contiguous matrix (raises rather than copy: writes must land)."""
    v = a.view()
    v.shape = (-1,)
    return v


_REACH_SLACK = 1e-3  # inches beyond a reach still resolved with the near pairs (only cost)
_CAPSULES_KEEP = 64  # capsule input batches kept at most (then all forgotten: _keep_capsules)
_ROW_BITS = 24  # (a kept pair's row in its batch, below its batch number in an int32)
_OUTER_GROW = 1e-7  # inches added to a bounding radius (its rounding), within the capsule's 1e-6
_INNER_SHRINK = 1 - 1e-6
# eight directions, for _sample_points about a round base's centre
_RING = np.stack([np.cos(np.arange(8) * (np.pi / 4)), np.sin(np.arange(8) * (np.pi / 4))], axis=1)


def _inner_radius(fp: Footprint) -> float:
    """The radius of a disc about the centre inside the footprint's core: a round base's
    own; a rectangle's half width; an oval core (an affine image of a regular polygon of
    OVAL_VERTICES) holds the ellipse of its half sizes times cos(pi / OVAL_VERTICES). A hair
    less, for rounding."""
    if fp.shape == "round":
        return 0.5 * fp.length
    r = 0.5 * min(fp.length, fp.width)
    if fp.shape == "oval":
        r *= math.cos(math.pi / OVAL_VERTICES)
    return r * _INNER_SHRINK


class PairResolution(FullResolution):
    """The geometry and pair resolution of a VisibilityIndex (its base class); fully visible
    from ``FullResolution`` (sim.rules.visibility.index_full)."""

    # --- geometry --------------------------------------------------------------------------

    def _refresh_geometry(self, rows=None, distances=None) -> None:
        n = len(self.fps)
        if rows is None:
            fps = self.fps
            self.centres = np.array([(f.x, f.y) for f in fps], dtype=float).reshape(n, 2)
            self.round = np.array([f.shape == "round" for f in fps], dtype=bool)
            self.rad = np.array([0.5 * f.length if f.shape == "round" else f.bounding_radius
                                 for f in fps], dtype=float)
            self.radius = np.where(self.round, self.rad, 0.0)
            self.rin = np.array([_inner_radius(f) for f in fps], dtype=float)
            self.within = np.zeros((n, len(self.blk.areas)), dtype=bool)
            self._cores = {}
            # (the table as distance rows read it: the moved models' rows against every model
            # without reading every footprint again; geometry.distance_matrix to the bit; made
            # when a model first moves: a full recompute reads the whole matrix instead)
            self._table = None
            self._full_distances()
            if n:
                self.within[:] = self._within_rows(list(range(n)))
            self.within_any = self.within.any(axis=1)
            self.within_obscuring = (self.within & self.blk.obscuring[None, :]).any(axis=1)
        else:
            if distances is None and self._table is None:
                self._table = DistanceRows(self.fps)
            rows = list(rows)
            if rows:    # (the moved models' entries, each array written once)
                fps = [self.fps[i] for i in rows]
                rnd = [f.shape == "round" for f in fps]
                self.centres[rows] = [f.centre for f in fps]
                self.rad[rows] = [f.bounding_radius for f in fps]
                self.round[rows] = rnd
                self.radius[rows] = [0.5 * f.length if r else 0.0 for f, r in zip(fps, rnd)]
                self.rin[rows] = [_inner_radius(f) for f in fps]
            for i in rows:
                self._cores.pop(i, None)
                if distances is None:
                    self._table.set(i, self.fps[i])
            if distances is not None:   # (another index's rows, those models' own: copied)
                self._table = None      # (its footprints are not these any more: made anew if asked)
                dist, far = distances
                self.dist[rows, :] = dist[rows, :]
                self.dist[:, rows] = dist[:, rows]
                self.far[rows, :] = far[rows, :]
                self.far[:, rows] = far[:, rows]
                self.dist[rows, rows] = 0.0     # (a base's distance to itself, as measured here:
                self.far[rows, rows] = 0        # that index may keep another value there)
            else:
                self._measure_rows(rows)
            if rows:                # only the moved models' areas change
                w = self.within[rows] = self._within_rows(rows)
                self.within_any[rows] = w.any(axis=1)
                self.within_obscuring[rows] = (w & self.blk.obscuring[None, :]).any(axis=1)

    def _measure_rows(self, rows: list) -> None:
        """The moved models' rows and columns of ``dist`` and ``far``, measured here."""
        if self.round.all():        # (distance_matrix's step, from the arrays kept here)
            d, approx = disc_distances(self.centres[rows], self.radius[rows], self.centres, self.radius), None
        else:   # (far pairs' bounds, above distance_rows.FAR: only reach and ranges read them)
            d, approx = self._table.rows([self.fps[i] for i in rows], far=True)
        self.dist[rows, :] = d
        self.dist[:, rows] = d.T
        if approx is None:
            self.far[rows, :] = 0
            self.far[:, rows] = 0
        else:
            self.far[rows, :] = np.where(approx, FAR_ROW, 0)
            self.far[:, rows] = np.where(approx, FAR_COL, 0).T

    @property
    def cores(self) -> list:
        """geometry.core of every model (computed on first use)."""
        return [self._core(i) for i in range(len(self.fps))]

    def _core(self, i):
        """geometry.core of model i, computed when first needed (bases that are not round)."""
        i = int(i)
        if i not in self._cores:
            self._cores[i] = core(self.fps[i])
        return self._cores[i]

    def _full_distances(self) -> None:
        """``dist`` for all models (the buffer reused): the arithmetic of
        geometry.distance_matrix for round bases, that function otherwise (in row blocks)."""
        n = len(self.fps)
        if getattr(self, "dist", None) is None or self.dist.shape != (n, n):
            self.dist = np.empty((n, n))
        # which entries of ``dist`` are far pairs' bounds (sim.rules.distance_rows: FAR_ROW /
        # FAR_COL, 0 exact; every entry at or below FAR is exact): made by moves, measured
        # when a reader compares with more than FAR (``exact``)
        self.far = np.zeros((n, n), dtype=np.int8)
        if not self.round.all():  # (geometry.distance_matrix, kept per table: the spatial index's too)
            self.dist[:] = full_matrix(self.fps)
            return
        cx, cy, r = self.centres[:, 0].copy(), self.centres[:, 1].copy(), self.radius
        dx, dy = cx[:, None] - cx, cy[:, None] - cy
        np.maximum(np.sqrt(dx * dx + dy * dy) - r[:, None] - r, 0.0, out=self.dist)

    def exact(self, rows, cols, within: float | None = None) -> None:
        """Measure the far pairs among ``rows`` x ``cols`` (index arrays): ``dist``'s block is
        then every distance, exact (a reader comparing with more than distance_rows.FAR;
        ``within``: every distance at or below it, distance_rows.refine_block)."""
        refine_block(self.dist, self.far, self.fps, rows, cols, within)

    def _pack_areas(self) -> None:
        self._area_edges = pack_area_edges(self.blk.area_polys)
        self._area_boxes = area_boxes(self.blk.area_polys)
        self._box_list = tuple(tuple(b) for b in self._area_boxes.tolist())  # (immutable: shared)
        self._edge_lists = edge_lists(self._area_edges)

    def _within_rows(self, rows) -> np.ndarray:
        """13.x Areas each model is within (any part of the base inside the area's footprint):
        only the (model, area) pairs whose box, grown by the model's bounding radius, holds
        the centre (pairs.within_candidates: a base within an area has a point within
        EPS of the outline's box); for round bases pairs.within_pairs, for others
        terrain.model_within_area."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros((len(rows), len(self.blk.areas)), dtype=bool)
        if out.size == 0:
            return out
        if len(rows) == 1:          # (one model moved: its candidates in plain Python)
            (cx, cy), = self.centres[rows].tolist()
            r = int(rows[0])
            rad = float(self.rad[r])
            for a in within_candidates_one(cx, cy, rad, self._box_list):
                if not self.round[r]:
                    out[0, a] = model_within_area(self.fps[r], self.blk.areas[a])
                elif self._edge_lists[a] is not None:
                    out[0, a] = within_one(cx, cy, rad, self._edge_lists[a])
                else:
                    out[0, a] = within_pairs(self.centres[rows], self.rad[rows],
                                             np.array([a]), self._area_edges)[0]
            return out
        m, a = within_candidates(self.centres[rows], self.rad[rows], self._area_boxes)
        rnd = self.round[rows[m]]
        if count_true(rnd):
            m_r, a_r = m[rnd], a[rnd]
            r = rows[m_r]
            out[m_r, a_r] = within_pairs(self.centres[r], self.rad[r], a_r, self._area_edges)
        for r_i, a_i in zip(m[~rnd].tolist(), a[~rnd].tolist()):
            out[r_i, a_i] = model_within_area(self.fps[rows[r_i]], self.blk.areas[a_i])
        return out

    # --- pair resolution -------------------------------------------------------------------

    def _pairs_for(self):
        """Every unordered pair (I < J) to resolve: of enemy models, or of any two models when
        friendly pairs are resolved too (fixed for the index's life: army, n)."""
        if self._all_pairs is not None:
            return self._all_pairs
        I, J = np.triu_indices(len(self.fps), k=1)
        if not self.include_friendly:
            keep = self.army[I] != self.army[J]
            I, J = I[keep], J[keep]
        self._all_pairs = (I, J)
        return I, J

    def _exact_los(self, I, J, need, pstart, pidx, ostart, opts) -> np.ndarray:
        """Exact sight for pairs ``need`` (indices into I, J; CSR inputs are per need).

        Round pairs: batch.pairs_visible_round, all at once. Pairs with an oval or
        rectangular base: first two certificates, each that kernel on discs, for all of them
        in the same call as the round pairs: a disc inside each base (``_inner_radius``)
        seen: sight (a free segment between parts of the bases has a free A-to-B part); the
        bases' bounding discs not seen: no sight (a free segment between the bases would
        join the discs); then a few segments between points of the two bases, all pairs at
        once (``_samples_visible``): one free, sight. The pairs left get
        kernels.pair_visible, one at a time."""
        out = np.zeros(len(need), dtype=bool)
        if len(need) == 0:
            return out
        i, j = I[need], J[need]
        rnd = self.round[i] & self.round[j]
        c = self.centres
        # one disc step for every pair: a round base's inner disc is the base itself
        # (``_inner_radius``), so a round pair's answer is its own exact one; and, in the same
        # call (its stages cost about as much for a few pairs as for many), the bounding discs
        # of each pair with a hull, read where the inner discs see nothing
        h = flatnonzero(~rnd)
        if len(h):
            ro = self.rad + _OUTER_GROW
            ca = np.concatenate([c[i], c[i[h]]])
            cb = np.concatenate([c[j], c[j[h]]])
            ra = np.concatenate([self.rin[i], ro[i[h]]])
            rb = np.concatenate([self.rin[j], ro[j[h]]])
            sub = (*_csr_subset(pstart, pidx, h), *_csr_subset(ostart, opts, h))
            both = self._discs_visible(ca, ra, cb, rb, (*_csr_concat([(pstart, pidx), sub[:2]]),
                                                        *_csr_concat([(ostart, opts), sub[2:]])))
            seen, outer = both[:len(i)], both[len(i):]
            h = h[~seen[h] & outer]
        else:
            seen = self._discs_visible(c[i], self.rin[i], c[j], self.rin[j], (pstart, pidx, ostart, opts))
        out[seen] = True
        if len(h):
            seen = self._samples_visible(i, j, h, pstart, pidx)
            out[h[seen]] = True
            h = h[~seen]
        pk = self.blk.pieces
        for q in h.tolist():
            (ac, ar), (bc, br) = self._core(i[q]), self._core(j[q])
            out[q] = pair_visible(ac, ar, bc, br, pk.subset(pidx[pstart[q]:pstart[q + 1]]),
                                  opts[ostart[q]:ostart[q + 1]])
        return out

    def _samples_visible(self, i, j, h, pstart, pidx) -> np.ndarray:
        """06.01 A certificate "sight" for the pairs ``h`` (indices into ``i``, ``j`` and the
        pieces' CSR rows): a segment between a sample point of each base (``_sample_points``)
        crosses none of the pair's pieces. Each such segment joins a point of A to a point of
        B, so a free one is a sight line; every sample segment of every pair in one test
        (batch.segments_blocked_ragged's). Most pairs the discs leave are seen along one of
        them (~90% of those with sight in the default armies' battles); the others go to the
        exact kernel, one at a time."""
        p0, p1, owner = [], [], []
        for q in h.tolist():
            a, b = self._sample_points(int(i[q])), self._sample_points(int(j[q]))
            p0.append(a.repeat(len(b), axis=0))
            p1.append(np.tile(b, (len(a), 1)))
            owner.append(np.full(len(a) * len(b), q, dtype=np.int64))
        owner = np.concatenate(owner)
        blocked = segments_blocked_ragged(np.concatenate(p0), np.concatenate(p1), owner,
                                          self.blk.pieces, pstart, pidx)
        free = np.zeros(len(pstart) - 1, dtype=bool)
        free[owner[~blocked]] = True
        return free[h]

    def _sample_points(self, i: int) -> np.ndarray:
        """Points of model ``i``'s base for ``_samples_visible``: its core's vertex mean and up
        to eight of its core's vertices (every one of a rectangle's four; an oval core's
        every eighth), and with a radius (a round base) eight points at 0.999 of it around
        its centre: all in the base (its convex core, grown by the radius)."""
        pts, r = self._core(i)
        parts = [pts.mean(axis=0)[None, :]]
        if len(pts) > 1:
            parts.append(pts if len(pts) <= 8 else pts[::len(pts) // 8])
        if r > 0:
            parts.append(pts[0] + (0.999 * r) * _RING)
        return np.concatenate(parts)

    def _discs_visible(self, ca, ra, cb, rb, csr) -> np.ndarray:
        """06.01 Exact sight between discs (ca, ra) and (cb, rb), pair by pair, with the
        pairs' pieces and obstacle vertices (CSR rows ``csr``): pairs_visible_round, the
        outline crossings (a piece overlapping a disc) joining the obstacle generators: per
        pair, after its obstacle vertices, A's crossings then B's (one call for both discs:
        circles 0..Q-1 are the A's, Q..2Q-1 the B's, ordered by circle)."""
        ps, pi, os_, op = csr
        pk = self.blk.pieces
        Q = len(ca)
        ow, pt = outline_crossings_round(np.concatenate([ca, cb]), np.concatenate([ra, rb]),
                                         pk, ps, pi, tile(np.arange(Q), 2))
        if len(ow):
            ow = np.concatenate([np.arange(Q).repeat(os_[1:] - os_[:-1]), ow % Q])
            order = np.argsort(ow, kind="stable")
            op = np.concatenate([op, pt])[order]
            os_ = ow[order].searchsorted(np.arange(Q + 1)).astype(np.int64)
        return pairs_visible_round(ca, ra, cb, rb, pk, ps, pi, os_, op)

    def _resolve(self, I, J):
        """Resolve unordered pairs (I, J): los (symmetric) and fully_visible both ways (clear
        capsule: True; no sight: False; otherwise the exact test, ``_full_pairs``)."""
        P = len(I)
        self.stats["pairs"] += P
        blocked = umbra_blocked(self, I, J)
        rest = flatnonzero(~blocked)
        pstart, pidx, ostart, opts, centre_free = capsule_inputs(self, I[rest], J[rest])
        # (kept for _ensure_full: the pairs it settles below read these same inputs, those of
        # every _resolve since the last move; update drops them)
        self._keep_capsules(I[rest], J[rest], (pstart, pidx, ostart, opts))
        clear = np.zeros(P, bool)
        clear[rest] = (pstart[1:] - pstart[:-1]) == 0
        los = np.zeros(P, bool)
        los[rest] = centre_free
        sub = flatnonzero(~los[rest])
        self.stats["exact_los"] += len(sub)
        if len(sub):
            ps, pi = _csr_subset(pstart, pidx, sub)
            os_, op = _csr_subset(ostart, opts, sub)
            los[rest[sub]] = self._exact_los(I[rest], J[rest], sub, ps, pi, os_, op)
        # (both entries of each pair, by flat index: a 2-D index pair costs several times more)
        n = len(self.fps)
        fij, fji = I * n + J, J * n + I
        # fully visible: True for a clear capsule, False without sight; pairs with sight and a
        # piece in the capsule are left unknown until read (_ensure_full)
        known = clear | ~los
        for a, v in ((self._los, los), (self._los_known, True), (self._clear, clear),
                     (self._fv, clear), (self._fv_known, known)):
            flat = _flat(a)
            flat[fij] = v
            flat[fji] = v

    def kept_chords(self, obs) -> ChordCache:
        """The chords of models ``obs`` (unique) as observers, brought up to date: kept per
        model until it moves (umbra.umbra_blocked's one-model case reads them)."""
        if self._chords is None:
            self._chords = ChordCache(len(self.fps), len(self.blk.pieces))
        self._chords.fill(self, obs)
        return self._chords

    def _keep_capsules(self, lo, hi, inputs) -> None:
        """Keep the capsule inputs (CSR ``inputs``) of unordered pairs (lo < hi) while neither
        model of the pair moves: the batch in ``_capsules`` (read-only), each pair's batch and
        row in ``_capsule_at`` (batch << _ROW_BITS | row)."""
        if len(lo) >= 1 << _ROW_BITS:
            return  # (more pairs than a row number holds: not kept, measured again when read)
        if len(self._capsules) >= _CAPSULES_KEEP:
            self._forget_capsules()  # (a batch's number stays below _CAPSULES_KEEP)
        k = len(self._capsules)
        for a in inputs:  # (never changed: a copy of the index shares them, VisibilityIndex.copy)
            a.flags.writeable = False
        self._capsules.append(inputs)
        self._capsule_at[lo, hi] = (k << _ROW_BITS) + np.arange(len(lo), dtype=np.int32)

    def _forget_capsules(self, rows=None) -> None:
        """The kept capsule inputs of the pairs of the models ``rows`` (they moved), or of every
        pair (and every batch: a batch stands until then, whether or not a pair still reads it)."""
        if rows is None:
            self._capsules = []
            self._capsule_at.fill(-1)
            return
        self._capsule_at[rows, :] = -1
        self._capsule_at[:, rows] = -1

    def _kept_capsule_rows(self, lo, hi) -> tuple[np.ndarray, np.ndarray]:
        """For unordered pairs (lo < hi): each one's batch and row in the capsule inputs kept
        since either model last moved (``_keep_capsules``), or -1 and -1. A pair's inputs are
        its own (capsule_inputs works pair by pair, from the two footprints and the terrain),
        so a kept row is what capsule_inputs would give it now."""
        at = self._capsule_at[lo, hi].astype(np.int64)
        row = at & ((1 << _ROW_BITS) - 1)
        row[at < 0] = -1
        return at >> _ROW_BITS, row     # (-1 >> _ROW_BITS is -1)

    def _ensure_los(self, I, J) -> None:
        """06.01 Resolve line of sight (and what _resolve settles with it) for the pairs (I, J)
        (directed or not) not yet known since their models moved: each unordered pair once,
        in ascending order (each pair's answer is its own: every stage is a certificate or an
        exact test on the pair's data), and their cover entries."""
        todo = ~self._los_known[I, J]
        if not count_true(todo):
            return
        I, J = I[todo], J[todo]
        n = len(self.fps)
        key = np.minimum(I, J) * n + np.maximum(I, J)
        if self._near_pending:
            # with the first pairs asked for after a move, every pair left unknown between
            # two units within a reach of each other (some model of one within its unit's
            # reach of some model of the other: the blocks shooting reads), in one batch: a
            # few calls instead of one per block read
            self._near_pending = False
            moved = np.asarray(sorted(self._near_rows), dtype=np.int64)
            self._near_rows.clear()
            if self._unit_starts is not None and 4 * len(moved) < n:
                # (a few models moved: their rows' pairs, each unit's gap from its moved
                # models: O(moved x n), not the whole matrix; a pair left out, or a gap read
                # from part of a unit, only leaves a pair to be resolved when it is read)
                key = np.concatenate([key, self._near_pairs_of(moved)])
            else:
                key = np.concatenate([key, self._near_pairs_all()])
        key = sorted_unique(key)
        lo, hi = key // n, key % n
        self._resolve(lo, hi)
        self._stale_pairs(lo, hi)   # (the cache holds only entries known when it was made)
        self._stale_pairs(hi, lo)
        self._all_known = bool(self._los_known.all())
        if self._all_known:
            self._unsure_rows.clear()
        a = self.hideable & self.within_any
        self._cover[lo, hi] = a[hi] | ~self._fv[lo, hi]
        self._cover[hi, lo] = a[lo] | ~self._fv[hi, lo]

    def _near_pairs_all(self) -> np.ndarray:
        """_ensure_los's batch: every pair left unknown (as lo * n + hi) between two units
        within a reach of each other (some model of one within its unit's reach of some model
        of the other)."""
        n = len(self.fps)
        ui, uj = np.triu(~self._los_known, 1).nonzero()
        u = self._unit_code
        U = int(u.max()) + 1
        starts = self._unit_starts
        if starts is not None:  # (each unit's models one run, in code order: the usual)
            gap = np.minimum.reduceat(self.dist, starts, axis=0)    # (unit, model) closest
            ugap = np.minimum.reduceat(gap, starts, axis=1)         # (unit, unit) closest
            ureach = np.maximum.reduceat(self.reach, starts)
        else:
            gap = np.full((U, n), np.inf)
            np.minimum.at(gap, u, self.dist)
            ugap = np.full((U, U), np.inf)
            np.minimum.at(ugap.T, u, gap.T)
            ureach = np.zeros(U)
            np.maximum.at(ureach, u, self.reach)
        a, b = u[ui], u[uj]
        near = ugap[a, b] <= np.maximum(ureach[a], ureach[b]) + _REACH_SLACK
        return ui[near] * n + uj[near]

    def _near_pairs_of(self, R: np.ndarray) -> np.ndarray:
        """``_near_pairs_all`` from the rows of the models moved since the batch was last made
        (``R``, ascending; each unit's models one run): their pairs left unknown, the units'
        gaps read from the moved models' rows."""
        n = len(self.fps)
        u, starts = self._unit_code, self._unit_starts
        ri, cj = (~self._los_known[R]).nonzero()
        if len(ri) == 0:
            return np.zeros(0, dtype=np.int64)
        r = R[ri]
        gap = np.minimum.reduceat(self.dist[R], starts, axis=1)      # (moved model, unit)
        ur, first = np.unique(u[R], return_index=True)
        gap = np.minimum.reduceat(gap, first, axis=0)                 # (moved unit, unit)
        ureach = np.maximum.reduceat(self.reach, starts)
        a, b = u[r], u[cj]
        near = gap[ur.searchsorted(a), b] <= np.maximum(ureach[a], ureach[b]) + _REACH_SLACK
        r, cj = r[near], cj[near]
        return np.minimum(r, cj) * n + np.maximum(r, cj)
