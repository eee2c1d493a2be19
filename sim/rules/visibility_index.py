"""06.01 / 13.08-13.11 / 24.24 A model-by-model visibility index (pure Python + numpy).

Holds, for models in a stable order (the order given), numpy bool matrices indexed
``[observer, target]``:

* ``los``: terrain line of sight (dense features + obscuring areas), exact and symmetric;
* ``fully_visible``: the target is fully visible to the observer (06.01);
* ``cover``: 13.08 per-model cover qualification of the target against that observer;
* ``visible``: ``los`` with Hidden (13.09, incl. gone to ground 13.11.01) and Lone Operative
  (24.24) applied for enemy observers; recomputed from cached geometry, so changing who has
  made ranged attacks needs no geometry.

Pairs are resolved in stages, all pairs at once: (0) bounding boxes of the capsule around
the two models against every blocker piece; (1) exact capsule-vs-piece distance and a
centre-to-centre sight line, vectorised over the surviving (pair, piece) entries - a pair
with no blocker in its capsule is visible and fully visible, a pair whose centre line is
clear is visible; (2) only the remaining pairs get the exact per-pair treatment of
sim.rules.los_kernels. ``update`` recomputes only the rows and columns of moved models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from sim.rules.geometry import EPS, Footprint, core, distance_matrix
from sim.rules.los_kernels import SIGHT_EPS, footprint_fully_visible, pair_visible
from sim.rules.terrain import TerrainArea
from sim.rules.visibility import (
    AREA, DENSE, DETECTION_RANGE, GONE_TO_GROUND_PENALTY, HIDEABLE, TerrainBlockers, clamp_range,
)

__all__ = ["ModelEntry", "VisibilityIndex"]


def _point_convex_dist(c, V, nrm, off):
    """Distance from points c (E, 2) to convex pieces (E, V, 2); 0 when inside."""
    W = np.roll(V, -1, axis=1) - V
    WW = np.maximum(np.einsum("evi,evi->ev", W, W), 1e-30)
    u = np.clip(np.einsum("evi,evi->ev", c[:, None] - V, W) / WW, 0, 1)
    q = c[:, None] - V - u[..., None] * W
    d = np.sqrt(np.einsum("evi,evi->ev", q, q).min(axis=1))
    inside = (np.einsum("ei,evi->ev", c, nrm) - off <= 0).all(axis=1)
    return np.where(inside, 0.0, d)


def _seg_crosses(a, b, V, nrm, off):
    """Segments a-b (E, 2) enter the open interior of convex pieces (E, V, 2) (SAT)."""
    pa = np.einsum("ei,evi->ev", a, nrm)
    pb = np.einsum("ei,evi->ev", b, nrm)
    sep = (np.minimum(pa, pb) >= off - SIGHT_EPS).any(axis=1)
    d = b - a
    L = np.hypot(d[:, 0], d[:, 1])
    Ls = np.where(L > 0, L, 1.0)
    m = np.stack([-d[:, 1] / Ls, d[:, 0] / Ls], axis=1)
    vp = np.einsum("ei,evi->ev", m, V)
    s0 = np.einsum("ei,ei->e", m, a)
    sep |= ((vp.min(axis=1) >= s0 - SIGHT_EPS) | (vp.max(axis=1) <= s0 + SIGHT_EPS)) & (L > 0)
    return ~sep


@dataclass(frozen=True)
class ModelEntry:
    """One model for the index: stable id, footprint, army, unit, keywords and the inputs of
    Hidden (13.09: the unit's ranged attacks this/last turn is set on the index) and Lone
    Operative (24.24: effective X or None, and whether the unit is attached)."""

    id: str
    fp: Footprint
    army: str
    unit: str
    keywords: frozenset = field(default_factory=frozenset)
    lone_operative: float | None = None
    attached: bool = False
    detection_base: float = DETECTION_RANGE


class VisibilityIndex:
    """06.01 Model-by-model visibility, fully-visible and cover matrices with incremental
    updates. ``include_friendly``: also resolve pairs of models of the same army (needed only
    by rules that ask for visible *friendly* units); otherwise same-army entries are False
    except the diagonal."""

    def __init__(self, areas: Iterable[TerrainArea], models: Sequence[ModelEntry],
                 include_friendly: bool = False):
        self.blk = TerrainBlockers.build(areas)
        self.models = list(models)
        self.ids = [m.id for m in self.models]
        self.row = {mid: i for i, mid in enumerate(self.ids)}
        if len(self.row) != len(self.ids):
            raise ValueError("model ids must be unique")
        self.include_friendly = include_friendly
        n = len(self.models)
        armies = sorted({m.army for m in self.models})
        self.army = np.array([armies.index(m.army) for m in self.models], dtype=np.int64)
        self.units = [m.unit for m in self.models]
        self.hideable = np.array([bool(HIDEABLE.intersection(m.keywords)) for m in self.models])
        self.lo_x = np.array([np.inf if (m.lone_operative is None or m.attached)
                              else clamp_range(m.lone_operative) for m in self.models])
        self.det_base = np.array([m.detection_base for m in self.models], dtype=float)
        self.attacked_units: set[str] = set()
        self.fps = [m.fp for m in self.models]
        self.los = np.zeros((n, n), dtype=bool)
        self.fully_visible = np.zeros((n, n), dtype=bool)
        self.full_dense = np.ones((n, n), dtype=bool)
        self.stats = {"pairs": 0, "exact_los": 0, "exact_full": 0}
        self._visible = None
        self.full_recompute()

    # --- geometry --------------------------------------------------------------------------

    def _refresh_geometry(self, rows=None) -> None:
        n = len(self.fps)
        if rows is None:
            self.centres = np.array([f.centre for f in self.fps], dtype=float).reshape(n, 2)
            self.rad = np.array([f.bounding_radius for f in self.fps], dtype=float)
            self.within = np.zeros((n, len(self.blk.areas)), dtype=bool)
            self.cores = [core(f) for f in self.fps]
            rows = range(n)
            self.dist = distance_matrix(self.fps, self.fps)
        else:
            for i in rows:
                self.centres[i] = self.fps[i].centre
                self.rad[i] = self.fps[i].bounding_radius
                self.cores[i] = core(self.fps[i])
            rows = list(rows)
            d = distance_matrix([self.fps[i] for i in rows], self.fps)
            self.dist[rows, :] = d
            self.dist[:, rows] = d.T
        rows = list(rows)
        if rows:
            self.within[rows] = self._within_rows(rows)
        self.within_any = self.within.any(axis=1)
        self.within_obscuring = (self.within & self.blk.obscuring[None, :]).any(axis=1)

    def _within_rows(self, rows) -> np.ndarray:
        """13.x Areas each model is within, vectorised for round bases."""
        out = np.zeros((len(rows), len(self.blk.areas)), dtype=bool)
        for k, poly in enumerate(self.blk.area_polys):
            q = np.roll(poly, -1, axis=0)
            for r_i, i in enumerate(rows):
                fp = self.fps[i]
                if fp.shape != "round":
                    from sim.rules.terrain import model_within_area
                    out[r_i, k] = model_within_area(fp, self.blk.areas[k])
            rr = [r_i for r_i, i in enumerate(rows) if self.fps[i].shape == "round"]
            if not rr:
                continue
            idx = np.array([rows[r] for r in rr])
            c = self.centres[idx]
            r = self.rad[idx]
            ab = q - poly
            ap = c[:, None, :] - poly[None, :, :]
            t = np.clip(np.einsum("nei,ei->ne", ap, ab) / np.einsum("ei,ei->e", ab, ab), 0, 1)
            d = ap - t[..., None] * ab[None]
            dmin = np.sqrt(np.einsum("nei,nei->ne", d, d)).min(axis=1)
            y0, y1 = poly[:, 1], q[:, 1]
            cy, cx = c[:, 1:2], c[:, 0:1]
            straddle = (y0[None] > cy) != (y1[None] > cy)
            with np.errstate(divide="ignore", invalid="ignore"):
                xc = poly[None, :, 0] + (cy - y0[None]) * (q[None, :, 0] - poly[None, :, 0]) / (y1 - y0)[None]
            inside = (straddle & (xc > cx)).sum(axis=1) % 2 == 1
            out[rr, k] = inside | (dmin <= r + EPS)
        return out

    # --- pair resolution -------------------------------------------------------------------

    def _pairs_for(self, rows=None):
        n = len(self.fps)
        if rows is None:
            I, J = np.triu_indices(n, k=1)
        else:
            rows = np.unique(np.asarray(list(rows), dtype=np.int64))
            others = np.arange(n)
            I = np.repeat(rows, n)
            J = np.tile(others, len(rows))
            keep = (I != J) & ~(np.isin(J, rows) & (J < I))
            I, J = I[keep], J[keep]
        if not self.include_friendly:
            keep = self.army[I] != self.army[J]
            I, J = I[keep], J[keep]
        return I, J

    def _stage(self, I, J, dense_only: bool):
        """Stages 0-1 for pairs (I, J): returns (clear, centre_free, entries) where ``clear``
        = no active piece meets the pair's capsule, ``centre_free`` = centre line unblocked,
        and ``entries`` = (pair index, piece index) of pieces meeting the capsule."""
        pk = self.blk.pieces
        P = len(I)
        if len(pk) == 0 or P == 0:
            return (np.ones(P, bool), np.ones(P, bool), np.zeros(P, bool),
                    (np.zeros(0, int), np.zeros(0, int)))
        ci, cj = self.centres[I], self.centres[J]
        R = np.maximum(self.rad[I], self.rad[J]) + 1e-6
        lo = np.minimum(ci, cj) - R[:, None]
        hi = np.maximum(ci, cj) + R[:, None]
        bb = pk.bbox
        cand = ((bb[None, :, 0] <= hi[:, 0:1]) & (bb[None, :, 2] >= lo[:, 0:1])
                & (bb[None, :, 1] <= hi[:, 1:2]) & (bb[None, :, 3] >= lo[:, 1:2]))
        if dense_only:
            cand &= (self.blk.kind == DENSE)[None, :]
        else:
            either = (self.within[I] | self.within[J])[:, self.blk.area]
            cand &= np.where((self.blk.kind == AREA)[None, :], ~either, either)
        p, k = np.nonzero(cand)
        clear = np.ones(P, bool)
        centre_free = np.ones(P, bool)
        blocked = np.zeros(P, bool)
        if len(p) == 0:
            return clear, centre_free, blocked, (p, k)
        a, b = ci[p], cj[p]
        V, nrm, off = pk.verts[k], pk.normals[k], pk.offs[k]
        cross = _seg_crosses(a, b, V, nrm, off)
        centre_free[p[cross]] = False
        # definitely blocked: one convex piece crossed by both outer common tangent segments
        # of the two bounding circles, and meeting neither circle, separates A from B
        e = np.flatnonzero(cross)
        if len(e):
            pe, ke = p[e], k[e]
            ra, rb = self.rad[I[pe]] + 1e-6, self.rad[J[pe]] + 1e-6
            ae, be_ = a[e], b[e]
            Ve, ne, oe = V[e], nrm[e], off[e]
            d = be_ - ae
            D = np.hypot(d[:, 0], d[:, 1])
            Ds = np.where(D > 0, D, 1.0)
            u = d / Ds[:, None]
            w = np.stack([-u[:, 1], u[:, 0]], axis=1)
            ct = np.clip((ra - rb) / Ds, -1.0, 1.0)
            st = np.sqrt(1.0 - ct * ct)
            ok = D > ra + rb
            for sg in (1.0, -1.0):
                nvec = ct[:, None] * u + sg * st[:, None] * w     # unit normal of the tangent
                ok &= _seg_crosses(ae + ra[:, None] * nvec, be_ + rb[:, None] * nvec, Ve, ne, oe)
            sub = np.flatnonzero(ok)
            ok2 = (_point_convex_dist(ae[sub], Ve[sub], ne[sub], oe[sub]) > ra[sub]) & \
                  (_point_convex_dist(be_[sub], Ve[sub], ne[sub], oe[sub]) > rb[sub])
            blocked[pe[sub[ok2]]] = True
        # for the other pairs: which pieces really meet the capsule (distance to centre line)
        rest = ~blocked[p]
        p, k, cross = p[rest], k[rest], cross[rest]
        a, b, V = a[rest], b[rest], V[rest]
        d = b - a
        L2 = np.einsum("ei,ei->e", d, d)
        t = np.clip(np.einsum("evi,ei->ev", V - a[:, None], d) / np.where(L2 > 0, L2, 1.0)[:, None], 0, 1)
        dv = V - a[:, None] - t[..., None] * d[:, None]
        dvs = np.einsum("evi,evi->ev", dv, dv).min(axis=1)
        W = np.roll(V, -1, axis=1) - V
        WW = np.maximum(np.einsum("evi,evi->ev", W, W), 1e-30)
        de = np.full(len(p), np.inf)
        for pt in (a, b):
            uu = np.clip(np.einsum("evi,evi->ev", pt[:, None] - V, W) / WW, 0, 1)
            q = pt[:, None] - V - uu[..., None] * W
            de = np.minimum(de, np.einsum("evi,evi->ev", q, q).min(axis=1))
        dist = np.where(cross, 0.0, np.sqrt(np.minimum(dvs, de)))
        hit = dist < R[p] + 1e-9
        p, k = p[hit], k[hit]
        clear[p] = False
        clear[blocked] = False
        return clear, centre_free, blocked, (p, k)

    def _exact_inputs(self, pair: int, I, J, p_sorted, k_sorted, starts, ends):
        i, j = I[pair], J[pair]
        ks = k_sorted[starts[pair]:ends[pair]]
        pk = self.blk.pieces.subset(ks)
        verts = pk.vertex_list()
        ca, cb = self.centres[i], self.centres[j]
        d = cb - ca
        L2 = float(d @ d)
        t = np.clip(((verts - ca) @ d) / L2, 0, 1) if L2 > 0 else np.zeros(len(verts))
        dist = np.hypot(*(verts - ca - t[:, None] * d).T)
        R = max(self.rad[i], self.rad[j]) + 1e-6
        return pk, verts[dist <= R]

    def _resolve(self, I, J):
        """Resolve pairs (I, J): fills los (symmetric) and fully_visible both ways."""
        P = len(I)
        self.stats["pairs"] += P
        clear, centre_free, blocked, (p, k) = self._stage(I, J, dense_only=False)
        order = np.argsort(p, kind="stable")
        p_s, k_s = p[order], k[order]
        starts = np.searchsorted(p_s, np.arange(P), side="left")
        ends = np.searchsorted(p_s, np.arange(P), side="right")
        los = centre_free.copy()
        fij = clear.copy()
        fji = clear.copy()
        for q in np.flatnonzero(~clear & ~blocked):
            i, j = I[q], J[q]
            pk, verts = self._exact_inputs(q, I, J, p_s, k_s, starts, ends)
            (ac, ar), (bc, br) = self.cores[i], self.cores[j]
            if not los[q]:
                self.stats["exact_los"] += 1
                los[q] = pair_visible(ac, ar, bc, br, pk, verts)
            if los[q]:
                self.stats["exact_full"] += 1
                fij[q] = footprint_fully_visible(ac, ar, bc, br, pk, verts)
                fji[q] = footprint_fully_visible(bc, br, ac, ar, pk, verts)
        self.los[I, J] = los
        self.los[J, I] = los
        self.fully_visible[I, J] = fij
        self.fully_visible[J, I] = fji

    def _ensure_dense(self, need: np.ndarray) -> None:
        """13.11.01 Fill full_dense (fully visible counting only Solid features) for the
        (observer, target) entries in ``need`` not yet known. Only asked for pairs where gone
        to ground changes the answer, so this stays small."""
        todo = need & ~self._dense_known
        if not todo.any():
            return
        I, J = np.nonzero(todo)
        clear, centre_free, blocked, (p, k) = self._stage(I, J, dense_only=True)
        order = np.argsort(p, kind="stable")
        p_s, k_s = p[order], k[order]
        starts = np.searchsorted(p_s, np.arange(len(I)), side="left")
        ends = np.searchsorted(p_s, np.arange(len(I)), side="right")
        for q in range(len(I)):
            i, j = I[q], J[q]
            if clear[q]:
                val = True
            elif blocked[q]:
                val = False
            else:
                pk, verts = self._exact_inputs(q, I, J, p_s, k_s, starts, ends)
                (ac, ar), (bc, br) = self.cores[i], self.cores[j]
                val = footprint_fully_visible(ac, ar, bc, br, pk, verts)
            self.full_dense[i, j] = val
            self._dense_known[i, j] = True

    # --- public API --------------------------------------------------------------------------

    def full_recompute(self) -> None:
        """06.01 Recompute every matrix from scratch."""
        n = len(self.fps)
        self._refresh_geometry()
        self.los[:] = False
        self.fully_visible[:] = False
        self.full_dense[:] = True
        np.fill_diagonal(self.los, True)
        np.fill_diagonal(self.fully_visible, True)
        I, J = self._pairs_for()
        self._resolve(I, J)
        self._dense_known = np.zeros((n, n), dtype=bool)
        self._visible = None

    def update(self, moved_ids: Iterable[str], new_footprints: Iterable[Footprint]) -> None:
        """06.01 Models moved: recompute only their rows and columns."""
        rows = []
        for mid, fp in zip(moved_ids, new_footprints):
            i = self.row[mid]
            self.fps[i] = fp
            rows.append(i)
        if not rows:
            return
        self._refresh_geometry(rows)
        I, J = self._pairs_for(rows)
        self._resolve(I, J)
        self._dense_known[rows, :] = False
        self._dense_known[:, rows] = False
        self._visible = None

    def set_unit_made_ranged_attacks(self, unit_id: str, made: bool) -> None:
        """13.09 Record whether a unit made ranged attacks this turn or the previous one."""
        if made:
            self.attacked_units.add(unit_id)
        else:
            self.attacked_units.discard(unit_id)
        self._visible = None

    @property
    def hidden(self) -> np.ndarray:
        """13.09 Per-model hidden flags."""
        attacked = np.array([u in self.attacked_units for u in self.units], dtype=bool)
        return self.hideable & self.within_obscuring & ~attacked

    @property
    def cover(self) -> np.ndarray:
        """13.08 cover[i, j]: target j qualifies for cover against attacking model i."""
        a = (self.hideable & self.within_any)[None, :]
        return a | ~self.fully_visible

    @property
    def visible(self) -> np.ndarray:
        """06.01 + 13.09 + 24.24 visible[i, j]: target j is visible to observer i."""
        if self._visible is None:
            hidden = self.hidden
            enemy = self.army[:, None] != self.army[None, :]
            det_full = np.clip(self.det_base, 9.0, 30.0)[None, :]
            det_gone = np.clip(self.det_base - GONE_TO_GROUND_PENALTY, 9.0, 30.0)[None, :]
            self._ensure_dense(hidden[None, :] & enemy & self.los
                               & (self.dist > det_gone + EPS) & (self.dist <= det_full + EPS))
            gone = hidden[None, :] & ~self.full_dense
            det = np.clip(self.det_base[None, :] - GONE_TO_GROUND_PENALTY * gone, 9.0, 30.0)
            ok = (~hidden[None, :] | (self.dist <= det + EPS)) & (self.dist <= self.lo_x[None, :] + EPS)
            self._visible = self.los & (~enemy | ok)
        return self._visible

    def is_visible(self, a_id: str, b_id: str) -> bool:
        """06.01 Is model b visible to model a (terrain, hidden, Lone Operative)?"""
        return bool(self.visible[self.row[a_id], self.row[b_id]])

    def is_fully_visible(self, a_id: str, b_id: str) -> bool:
        """06.01 Is model b fully visible to model a?"""
        return bool(self.fully_visible[self.row[a_id], self.row[b_id]])

    def has_cover(self, a_id: str, b_id: str) -> bool:
        """13.08 Does target model b qualify for cover against attacking model a?"""
        return bool(self.cover[self.row[a_id], self.row[b_id]])

    def _unit_cols(self, unit_id: str) -> list[int]:
        return [i for i, u in enumerate(self.units) if u == unit_id]

    def unit_visible(self, a_id: str, unit_id: str) -> bool:
        """06.01 Unit visible: at least one of its models is visible to model a."""
        cols = self._unit_cols(unit_id)
        return bool(self.visible[self.row[a_id], cols].any()) if cols else False

    def unit_fully_visible(self, a_id: str, unit_id: str) -> bool:
        """06.01 Unit fully visible: every model of the unit is fully visible to model a."""
        cols = self._unit_cols(unit_id)
        r = self.row[a_id]
        return bool(cols) and bool((self.visible[r, cols] & self.fully_visible[r, cols]).all())

    def unit_cover_flags(self, a_id: str, unit_id: str) -> list[bool]:
        """13.08 Per-model cover qualification of a unit's models against attacking model a."""
        return [bool(x) for x in self.cover[self.row[a_id], self._unit_cols(unit_id)]]
