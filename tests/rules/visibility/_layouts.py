"""Shared helpers for the visibility tests: random layouts and an independent brute force."""

from __future__ import annotations

import math

import numpy as np

from sim.rules.geometry import footprint_polygon_distance, round_base
from sim.rules.terrain import Feature, TerrainArea, model_within_area, validate_terrain


def rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def box_area(name, poly, category="dense", feats=None):
    return TerrainArea(name, tuple(poly), tuple(feats) if feats else (Feature(category, tuple(poly)),))



def random_layout(rng: np.random.Generator):
    """1-4 terrain areas in a 30" x 30" square and two round models not overlapping a dense
    feature; returns (areas, fp_a, fp_b)."""
    while True:
        areas = []
        for k in range(rng.integers(1, 5)):
            cx, cy = rng.uniform(6, 24, size=2)
            w, h = rng.uniform(1.0, 7.0, size=2)
            kind = rng.integers(0, 4)
            ang = rng.uniform(0, math.pi)
            c, s = math.cos(ang), math.sin(ang)

            def xf(pts):
                return tuple((cx + c * x - s * y, cy + s * x + c * y) for x, y in pts)
            outer = xf(rect(-w / 2, -h / 2, w / 2, h / 2))
            if kind == 0:      # solid block (container)
                feats = [Feature("dense", outer)]
            elif kind == 1:    # woods
                feats = [Feature("light", outer)]
            elif kind == 2:    # ruin: L wall inside a bigger area
                t = 0.4
                ell = ((-w / 2, -h / 2), (w / 4, -h / 2), (w / 4, -h / 2 + t), (-w / 2 + t, -h / 2 + t),
                       (-w / 2 + t, h / 4), (-w / 2, h / 4))
                feats = [Feature("dense", xf(ell))]
            else:              # two wall segments with a gap
                g = rng.uniform(0.2, 1.5)
                feats = [Feature("dense", xf(rect(-w / 2, -0.2, -g / 2, 0.2))),
                         Feature("dense", xf(rect(g / 2, -0.2, w / 2, 0.2)))]
            areas.append(TerrainArea(f"t{k}", outer, tuple(feats)))
        if validate_terrain(areas, board=(30, 30)):
            continue
        fps = []
        for _ in range(2):
            for _ in range(200):
                fp = round_base(rng.choice([25, 32, 40, 50, 60]), *rng.uniform(1, 29, size=2))
                bad = any(footprint_polygon_distance(fp, f.polygon) < 1e-3
                          for a in areas for f in a.solid_features)
                if not bad:
                    break
            fps.append(fp)
        if math.hypot(fps[0].x - fps[1].x, fps[0].y - fps[1].y) < fps[0].length / 2 + fps[1].length / 2 + 0.05:
            continue
        return areas, fps[0], fps[1]


def layout_and_bases(rng: np.random.Generator, extra: int = 5):
    """random_layout and ``extra`` more round bases anywhere on it (7 in all by default), with
    the layout's TerrainBlockers and each base's areas (blk.within)."""
    from sim.rules.visibility.sight import TerrainBlockers
    areas, a, b = random_layout(rng)
    fps = [a, b] + [round_base(int(rng.choice([25, 32, 40, 50, 60])), *rng.uniform(1, 29, size=2))
                    for _ in range(extra)]
    blk = TerrainBlockers.build(areas)
    return areas, fps, blk, [blk.within(f) for f in fps]


def pair_inputs(blk, a, b, wa, wb):
    """The pieces (indices into blk.pieces) and obstacle vertices of visibility._pair_pieces
    for bases a and b (their areas wa, wb), built as the index builds them."""
    idx = np.flatnonzero(blk.active(wa, wb))
    ca, cb = np.array(a.centre), np.array(b.centre)
    R = max(a.bounding_radius, b.bounding_radius) + 1e-6
    lo, hi = np.minimum(ca, cb) - R, np.maximum(ca, cb) + R
    bb = blk.pieces.bbox[idx]
    idx = idx[(bb[:, 0] <= hi[0]) & (bb[:, 2] >= lo[0]) & (bb[:, 1] <= hi[1]) & (bb[:, 3] >= lo[1])]
    verts = blk.pieces.subset(idx).vertex_list()
    if len(verts):
        d = cb - ca
        t = np.clip(((verts - ca) @ d) / float(d @ d), 0, 1) if d @ d > 0 else np.zeros(len(verts))
        verts = verts[np.hypot(*(verts - ca - t[:, None] * d).T) <= R]
    return idx, verts


def crowded_discs(rng: np.random.Generator, pairs: int = 120):
    """Pairs of discs (radius 0 to 1.5, overlapping one time in four) among small convex pieces
    strewn about them, over them and between them, each pair's pieces its own, their vertices
    its obstacle vertices: (polygons, A's centres and radii, B's, each pair's pieces, each
    pair's obstacle vertices). The lines each round of the exact sight tries decide often,
    the touching ones too."""
    polys, ca, ra, cb, rb, pieces, verts = [], [], [], [], [], [], []
    for _ in range(pairs):
        a = rng.uniform(0, 10, size=2)
        r1, r2 = rng.uniform(0, 1.5, size=2)
        gap = rng.uniform(0.3, 1.0) * (r1 + r2) if rng.random() < 0.25 else r1 + r2 + rng.uniform(0.01, 6)
        t = rng.uniform(0, 2 * np.pi)
        b = a + gap * np.array([np.cos(t), np.sin(t)])
        mine = []
        for _ in range(int(rng.integers(2, 8))):
            c = a + rng.uniform(-0.3, 1.3) * (b - a) + rng.normal(0, 0.7, size=2)
            m = int(rng.integers(3, 7))
            ang = np.sort(rng.uniform(0, 2 * np.pi, size=m))
            mine.append(len(polys))
            polys.append(c + rng.uniform(0.1, 1.8) * np.stack([np.cos(ang), np.sin(ang)], axis=1))
        ca.append(a), cb.append(b), ra.append(r1), rb.append(r2), pieces.append(mine)
        verts.append(np.concatenate([polys[k] for k in mine]))
    return polys, ca, ra, cb, rb, pieces, verts


def ordered_pair_inputs(fps, blk, within):
    """(i, j, pieces, obstacle vertices) of pair_inputs for every ordered pair of bases."""
    for i in range(len(fps)):
        for j in range(len(fps)):
            if i != j:
                yield (i, j) + pair_inputs(blk, fps[i], fps[j], within[i], within[j])


def active_polygons(areas, a, b, dense_only=False):
    """Independent restatement of the blocker rule (13.10/13.11) on the original polygons: a
    dense feature blocks unless it is given a height of 2" or less (Part A ruling 12)."""
    out = []
    for area in areas:
        inside = model_within_area(a, area) or model_within_area(b, area)
        if dense_only or inside:
            out += [np.array(f.polygon, float) for f in area.features
                    if f.category == "dense" and (f.height is None or f.height > 2)]
        elif area.obscuring:
            out.append(np.array(area.polygon, float))
    return out


def circle_points(fp, n):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([fp.x + fp.length / 2 * np.cos(t), fp.y + fp.length / 2 * np.sin(t)], axis=1)


def inside_mask(pts, poly):
    """Vectorised crossing-number test: points strictly inside (boundary ambiguous)."""
    a = poly
    b = np.roll(poly, -1, axis=0)
    y = pts[:, 1:2]
    x = pts[:, 0:1]
    straddle = (a[None, :, 1] > y) != (b[None, :, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xc = a[None, :, 0] + (y - a[None, :, 1]) * (b[None, :, 0] - a[None, :, 0]) / (b[None, :, 1] - a[None, :, 1])
    return (straddle & (xc > x)).sum(axis=1) % 2 == 1


def boundary_dist(pts, poly):
    a = poly
    e = np.roll(poly, -1, axis=0) - a
    t = np.clip(((pts[:, None, :] - a[None]) * e[None]).sum(-1) / (e * e).sum(1)[None], 0, 1)
    q = a[None] + t[..., None] * e[None] - pts[:, None, :]
    return np.hypot(q[..., 0], q[..., 1]).min(axis=1)


def points_clear(pts, polys, margin=1e-6):
    """Points (N,2) that are outside every polygon by more than ``margin``."""
    ok = np.ones(len(pts), bool)
    for poly in polys:
        ok &= ~(inside_mask(pts, poly) | (boundary_dist(pts, poly) < margin))
    return ok


def segments_clear(p0, p1, polys, margin=1e-6):
    """Segments (S,2) with no proper crossing of any polygon's edge and no polygon vertex within
    ``margin`` of them (the endpoints are points_clear's business). A polygon whose box, grown
    by ``margin``, misses a segment's box can do neither to it, so only the segments whose box
    meets it (and not yet found blocked) are tested against it."""
    free = np.ones(len(p0), bool)
    lo, hi = np.minimum(p0, p1), np.maximum(p0, p1)
    for poly in polys:
        plo, phi = poly.min(axis=0) - margin, poly.max(axis=0) + margin
        near = np.flatnonzero(free & (hi[:, 0] >= plo[0]) & (lo[:, 0] <= phi[0])
                              & (hi[:, 1] >= plo[1]) & (lo[:, 1] <= phi[1]))
        if not len(near):
            continue
        q0, q1 = p0[near], p1[near]
        d = q1 - q0
        a = poly
        b = np.roll(poly, -1, axis=0)
        e = b - a

        def orient(o, v, pts):  # o, v: (E,2) ; pts (S,2) -> (S,E)
            return v[None, :, 0] * (pts[:, None, 1] - o[None, :, 1]) - v[None, :, 1] * (pts[:, None, 0] - o[None, :, 0])
        d1, d2 = orient(a, e, q0), orient(a, e, q1)
        d3 = d[:, None, 0] * (a[None, :, 1] - q0[:, None, 1]) - d[:, None, 1] * (a[None, :, 0] - q0[:, None, 0])
        d4 = d[:, None, 0] * (b[None, :, 1] - q0[:, None, 1]) - d[:, None, 1] * (b[None, :, 0] - q0[:, None, 0])
        cross = ((d1 * d2) < 0) & ((d3 * d4) < 0)
        L2 = np.maximum(np.einsum("si,si->s", d, d), 1e-30)
        t = np.clip(((a[None, :, :] - q0[:, None, :]) * d[:, None, :]).sum(-1) / L2[:, None], 0, 1)
        q = q0[:, None, :] + t[..., None] * d[:, None, :] - a[None]
        close = (np.hypot(q[..., 0], q[..., 1]) < margin).any(axis=1)
        free[near] = ~(cross.any(axis=1) | close)
    return free


def _clear_rows(p, polys, margin):
    """points_clear of each row of ``p``, each distinct point tested once (callers repeat one
    point for a whole batch)."""
    u, inv = np.unique(p, axis=0, return_inverse=True)
    return points_clear(u, polys, margin)[inv.reshape(-1)]


def strictly_free(p0, p1, polys, margin=1e-6):
    """Segments (S,2) that certainly miss every polygon: no proper edge crossing, endpoints
    outside by more than ``margin``, and no polygon vertex within ``margin`` of the segment."""
    if not len(p0):
        return np.ones(0, bool)
    return segments_clear(p0, p1, polys, margin) & _clear_rows(p0, polys, margin) & _clear_rows(p1, polys, margin)


def seen_from(pa, pb, polys, margin=1e-6):
    """For each point of ``pb``: is there a strictly_free segment to it from some point of
    ``pa``? (strictly_free of every pair, each point's own test made once, the pairs in
    batches.)"""
    pa = pa[points_clear(pa, polys, margin)]
    seen = points_clear(pb, polys, margin) & (len(pa) > 0)
    todo = np.flatnonzero(seen)
    for k in range(0, len(todo), 16):
        ks = todo[k:k + 16]
        p0 = np.tile(pa, (len(ks), 1))
        p1 = np.repeat(pb[ks], len(pa), axis=0)
        seen[ks] = segments_clear(p0, p1, polys, margin).reshape(len(ks), len(pa)).any(axis=1)
    return seen


def depth_inside(pts, polys):
    """Largest distance by which any point lies inside any polygon (0 if none inside)."""
    best = 0.0
    for poly in polys:
        m = inside_mask(pts, poly)
        if m.any():
            best = max(best, float(boundary_dist(pts[m], poly).max()))
    return best


def brute_visible(areas, a, b, n=160):
    """Is some segment between ``n`` outline points of A and ``n`` of B strictly free
    (strictly_free) of every blocker?"""
    polys = active_polygons(areas, a, b)
    pa, pb = circle_points(a, n), circle_points(b, n)
    # an endpoint inside or touching a blocker can never start a clear line: drop them first
    pa, pb = pa[points_clear(pa, polys)], pb[points_clear(pb, polys)]
    for k in range(0, len(pa), 8):      # chunks, stopping at the first clear segment
        rows = pa[k:k + 8]
        p0 = np.repeat(rows, len(pb), axis=0)
        p1 = np.tile(pb, (len(rows), 1))
        if segments_clear(p0, p1, polys).any():
            return True
    return False


def certificate_pairs(rng: np.random.Generator, hulls: bool = False):
    """A random layout's bases (layout_and_bases, ten more; with ``hulls``, every third an oval or a
    rectangle of about its size) as the fully-visible stage hands them over: the index, every
    ordered pair (I, J), hull_full.full_certificates' discs D (A's light, B's outer radius) and
    each pair's capsule pieces (CSR ``pstart``, ``pidx``, into ``ix.blk.pieces``)."""
    from sim.rules.geometry import Footprint
    from sim.rules.visibility import hull_full
    from sim.rules.visibility.index import ModelEntry, VisibilityIndex
    from sim.rules.visibility.pairs import capsule_inputs
    areas, fps, _blk, _within = layout_and_bases(rng, 10)
    if hulls:
        for k in range(0, len(fps), 3):
            f = fps[k]
            fps[k] = Footprint("oval" if k % 2 else "rect", f.x, f.y, 1.6 * f.length, 0.9 * f.length,
                               float(rng.uniform(0, 180)))
    ix = VisibilityIndex(areas, [ModelEntry(f"m{k}", fp, "red" if k % 2 else "blue", f"u{k % 4}",
                                            frozenset({"INFANTRY"})) for k, fp in enumerate(fps)])
    n = len(fps)
    I, J = np.nonzero(~np.eye(n, dtype=bool))
    pstart, pidx, _os, _op, _free = capsule_inputs(ix, np.minimum(I, J), np.maximum(I, J))
    c = ix.centres
    grow = hull_full._OUTER_GROW
    light = np.where(ix.round[I], ix.radius[I], ix.rad[I] + grow)
    outer = np.where(ix.round[J], ix.radius[J], ix.rad[J] + grow)
    D = (c[I, 0].copy(), c[I, 1].copy(), light, c[J, 0].copy(), c[J, 1].copy(), outer)
    return ix, I, J, D, pstart, pidx


def crowded_pieces(rng: np.random.Generator, pairs: int = 120):
    """crowded_discs with a third of the pieces not convex (a vertex pulled in towards the
    centre): (Pieces, A's centres and radii, B's, as arrays, each pair's pieces as CSR
    ``pstart``, ``pidx``)."""
    from sim.rules.visibility.kernels import Pieces
    polys, ca, ra, cb, rb, pieces, _verts = crowded_discs(rng, pairs)
    for k in range(0, len(polys), 3):
        if len(polys[k]) >= 4:
            polys[k][0] = 0.9 * polys[k].mean(axis=0) + 0.1 * polys[k][0]
    pk = Pieces(polys)
    pstart = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.intp)
    pidx = np.concatenate([np.asarray(p, dtype=np.intp) for p in pieces])
    return pk, np.array(ca), np.array(ra), np.array(cb), np.array(rb), pstart, pidx
