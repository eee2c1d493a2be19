"""03.02 Where the placement solver first tries a base: the candidate centres (anchors) a set-up
region offers it, worked out from the region's shape alone (``sim.rules.movement.solvers
.regions`` says which limits a centre keeps; these only propose centres, each tested there):

* a lattice every ``LATTICE`` over where the base may stand (only the strips along the edges,
  for an edge strip; only round a ``near`` target, for a disembarkation);
* spots against each side of the zone from inside and into its corners, and against the
  battlefield's edges and the strip's inner side (``_zone_edge_spots``, ``_strip_spots``);
* for a base too large for its zone or strip (03.02.02), spots touching its edges;
* rings round a footprint at a given gap, edge to edge (``ring``: round bases by ``directions``,
  others by the Minkowski sum of the two cores).

The region's own spots are kept per region shape and base (``_own_seeds``: an ingress region is
made anew whenever an enemy moves); the rings round the enemies are the region's
(``ModelRule.seeds``). Every limit is kept ``SLACK`` inside; a base touching an edge stands
``EDGE_GAP`` from it.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from sim.rules.compiled import kernel
from sim.rules.deployment import half_extents
from sim.rules.geometry import Footprint, core
from sim.rules.movement.kernels import _minkowski_sum
from sim.rules.polygons import ccw

__all__ = ["SLACK", "EDGE_GAP", "LATTICE", "directions", "ring"]

SLACK = 5e-4          # inches every limit is kept inside by (positions rounded to 1e-4 still pass)
EDGE_GAP = 1.5 * SLACK  # a base "touching" an edge (03.02.02) is set up this far from it
LATTICE = 0.5         # inches between the region's own candidate spots (anchors)


def _support(fp: Footprint, normals: np.ndarray) -> np.ndarray:
    """How far the base reaches from its centre along each unit vector (E,)."""
    pts, r = core(fp.moved(0.0, 0.0))
    return (normals @ pts.T).max(axis=1) + r


@lru_cache(maxsize=256)
def _own_seeds(board, zone, edge_strip, near, mode, edges, shape, length, width, angle) -> np.ndarray:
    """``ModelRule.seeds``' spots that are the region's own, whatever it keeps away from (the
    lattice, the spots against the zone's sides, the strip's, the ``near`` target's rings),
    kept per region shape and base (an ingress region is made anew whenever an enemy moves):
    read-only."""
    fp = Footprint(shape, 0.0, 0.0, length, width, angle)
    got = _own_seeds_made(board, zone, edge_strip, near, mode, edges, fp)
    got.flags.writeable = False
    return got


def _own_seeds_made(board, zone, edge_strip, near, mode, edges, fp: Footprint) -> np.ndarray:
    W, H = board
    hx, hy = half_extents(fp)
    out = []
    if mode in ("zone edge", "any edge"):
        step = LATTICE / 2
        for e in edges:
            if e in ("south", "north"):
                xs = np.arange(hx + SLACK, W - hx - SLACK + 1e-9, step)
                y = hy + EDGE_GAP if e == "south" else H - hy - EDGE_GAP
                out.append(np.stack([xs, np.full(len(xs), y)], axis=1))
            else:
                ys = np.arange(hy + SLACK, H - hy - SLACK + 1e-9, step)
                x = hx + EDGE_GAP if e == "west" else W - hx - EDGE_GAP
                out.append(np.stack([np.full(len(ys), x), ys], axis=1))
        return np.vstack(out) if out else np.zeros((0, 2))
    lo, hi = np.array([hx, hy]), np.array([W - hx, H - hy])
    if zone is not None:
        z = np.asarray(zone)
        lo, hi = np.maximum(lo, z.min(axis=0)), np.minimum(hi, z.max(axis=0))
    if near is not None:
        t = near.target
        reach = (near.oversized if mode == "near" else near.distance) + fp.bounding_radius
        lo = np.maximum(lo, np.array([t.x, t.y]) - t.bounding_radius - reach)
        hi = np.minimum(hi, np.array([t.x, t.y]) + t.bounding_radius + reach)
    if np.all(hi >= lo):
        xs = np.arange(lo[0], hi[0] + 1e-9, LATTICE)
        ys = np.arange(lo[1], hi[1] + 1e-9, LATTICE)
        g = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        if edge_strip is not None:   # (only the strips along the edges)
            m = edge_strip + max(hx, hy)
            g = g[(g[:, 0] <= m) | (g[:, 0] >= W - m) | (g[:, 1] <= m) | (g[:, 1] >= H - m)]
        out.append(g)
    if zone is not None:
        out.append(_zone_edge_spots(fp, zone))
    if edge_strip is not None:
        out.append(_strip_spots(fp, board, edge_strip))
    if near is not None:
        d = near.oversized if mode == "near" else near.distance
        for gap in (SLACK, 0.5 * d):
            out.append(ring(fp, near.target, gap, 24))
    return np.vstack([o for o in out if len(o)]) if any(len(o) for o in out) else np.zeros((0, 2))


@lru_cache(maxsize=16)
def directions(n: int) -> np.ndarray:
    """(n, 2) unit vectors at n even turns from +x, counter-clockwise: (cos, sin) of k 2pi/n
    (read-only: made once per n, as every ring and set-up spot round a base reads them)."""
    ang = np.arange(n) * (2 * math.pi / n)
    u = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    u.flags.writeable = False
    return u


def ring(fp: Footprint, ref: Footprint, gap: float, n: int = 12) -> np.ndarray:
    """Centres (about ``n``, 2) where the base ``fp`` (its facing kept) stands exactly ``gap``
    (edge to edge) from ``ref``, spread round it. Two round bases: ``n`` directions. Otherwise
    the centres where ``fp`` touches ``ref`` form the boundary of the Minkowski sum M of
    ``ref``'s core and ``fp``'s core turned 180 degrees (grown by their radii); each vertex of M
    (and each edge's middle, when M has few) pushed out along its normal by ``gap`` plus the
    radii is exactly that far from M, so exactly ``gap`` from ``ref``."""
    if fp.shape == "round" and ref.shape == "round":
        return np.array([ref.x, ref.y]) + directions(n) * (0.5 * fp.length + 0.5 * ref.length + gap)
    return _hull_ring(fp.shape, fp.length, fp.width, fp.angle, ref, float(gap), n)


@lru_cache(maxsize=4096)
def _hull_ring(shape, length, width, angle, ref: Footprint, gap: float, n: int) -> np.ndarray:
    pf, rf = core(Footprint(shape, 0.0, 0.0, length, width, angle))
    po, ro = core(ref)
    # (a core of one or two points is counter-clockwise as it is: its signed area is exactly 0,
    # which ccw leaves in its order; a round reference's is its centre)
    M = _minkowski_sum(ccw(po) if len(po) > 2 else po, -pf) if len(pf) > 1 else po
    out = _ring_about(M, gap + rf + ro, n)
    out.flags.writeable = False
    return out


def _ring_about(M: np.ndarray, t: float, n: int) -> np.ndarray:
    """01.04 Points (about ``n``, 2) exactly ``t`` outside the convex polygon ``M`` (either
    orientation), spread round it: each vertex pushed out along its normal (the mean of its two
    edges' outward normals), and each edge's middle along the edge's own when ``M`` has fewer
    than ``n`` vertices; an edge shorter than 1e-12 is left out. ``ring``'s spots round a base
    that is not round: ``M`` the Minkowski sum of the two cores, ``t`` the gap and both radii."""
    M = ccw(M)
    e = np.roll(M, -1, axis=0) - M
    ln = np.hypot(e[:, 0], e[:, 1])
    keep = ln > 1e-12
    M, e, ln = M[keep], e[keep], ln[keep]
    en = np.stack([e[:, 1], -e[:, 0]], axis=1) / ln[:, None]          # outward edge normals
    vn = en + np.roll(en, 1, axis=0)                                 # at each vertex: its two edges'
    vn /= np.maximum(np.hypot(vn[:, 0], vn[:, 1]), 1e-12)[:, None]
    pts, nrm = [M], [vn]
    if len(M) < n:                                                    # (few vertices: the edges' middles too)
        pts.append(M + 0.5 * e)
        nrm.append(en)
    P, N = np.vstack(pts), np.vstack(nrm)
    k = (np.arange(n) * len(P)) // n if n < len(P) else np.arange(len(P))
    return P[k] + t * N[k]


# (its compiled twin runs where built: sim.rules.compiled)
_ring_about = kernel("movement.ring_about", _ring_about)


def _zone_edge_spots(fp: Footprint, zone: tuple) -> np.ndarray:
    """Centres putting the base against each edge of the zone from inside, every half LATTICE
    along it, and into each corner (against both its edges), SLACK + EDGE_GAP in from them."""
    z = ccw(np.asarray(zone, dtype=float))
    out, lines = [], []
    for a, b in zip(z, np.roll(z, -1, axis=0)):
        e = b - a
        ln = float(np.hypot(*e))
        if ln <= 1e-9:
            continue
        t = e / ln
        inward = np.array([-t[1], t[0]])
        h = float(_support(fp, -inward[None, :])[0]) + SLACK + EDGE_GAP
        s = np.arange(0.0, ln + 1e-9, LATTICE / 2)
        out.append(a + s[:, None] * t + h * inward)
        lines.append((inward, float(inward @ a) + h))
    for (n1, o1), (n2, o2) in zip(lines, lines[1:] + lines[:1]):
        A = np.array([n1, n2])
        if abs(np.linalg.det(A)) > 1e-9:
            out.append(np.linalg.solve(A, np.array([o1, o2]))[None, :])
    return np.vstack(out) if out else np.zeros((0, 2))


def _strip_spots(fp: Footprint, board, strip: float) -> np.ndarray:
    """Centres putting the base against each battlefield edge and against the inner side of
    the edge strip, every half LATTICE."""
    W, H = board
    hx, hy = half_extents(fp)
    out = []
    xs = np.arange(hx + SLACK, W - hx, LATTICE / 2)
    ys = np.arange(hy + SLACK, H - hy, LATTICE / 2)
    for y in (hy + EDGE_GAP, strip - hy - 2 * SLACK, H - hy - EDGE_GAP, H - strip + hy + 2 * SLACK):
        out.append(np.stack([xs, np.full(len(xs), y)], axis=1))
    for x in (hx + EDGE_GAP, strip - hx - 2 * SLACK, W - hx - EDGE_GAP, W - strip + hx + 2 * SLACK):
        out.append(np.stack([np.full(len(ys), x), ys], axis=1))
    return np.vstack(out)
