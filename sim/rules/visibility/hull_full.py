"""06.01 / 13.08 Certificates of fully visible for pairs with an oval or rectangular base (the
VisibilityIndex's pairs that are not both round), all pairs at once, before
kernels.footprint_fully_visible one pair at a time; ``full_certificates`` takes the round
pairs in the same calls (theirs are the first stages of sim.rules.visibility.full). Each
settles a pair only where it gives that kernel's answer (the margins of
sim.rules.visibility.certs, far above the kernels' 1e-9"):

* "not fully visible": one of the kernel's own sample points of B lies in the umbra of one of
  the pair's convex pieces lit by a disc about A's centre holding A (certs._umbra_rows):
  B's outline ring for a round B, B's core vertices for an oval or a rectangle (the first
  samples of kernels.boundary_samples). Every segment from A to that point crosses the
  piece, and a point outside that disc is not inside A, so the kernel finds it unseen.
* "fully visible", observer A round: certs.star_free with B's bounding disc (its
  arguments hold point by point for any point of that disc, and every sample of B is in it).
* "fully visible", observer A an oval or a rectangle: the kernel's first pass draws, for
  every sample of B, the segment from the mean of A's core vertices; when the region from
  that point to B's bounding disc is separated from every piece of the pair by more than
  certs' margin, each such segment is free, and the kernel answers yes. Else, with no
  piece near A's bounding disc and B's bounding disc clear of it, the same region from one
  of a few vertices of A's core: every point of B is then seen from A with a margin, and
  the exact point test, whose candidate lines bound every free range (exact for hull
  cores, tested against a brute force), finds a free line for each (the argument of
  star_free's apexes on A's outline).
"""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import flatnonzero
from sim.rules.compiled import kernel
from sim.rules.geometry import _hull
from sim.rules.visibility.batch import ragged_expand
from sim.rules.visibility.certs import (_star_axes, _stars_separated, _umbra_rows, near_a,
                                 ring_shadowed, star_free)
from sim.rules.visibility.kernels import Pieces

__all__ = ["full_certificates"]

_OUTER_GROW = 1e-7      # a bounding radius grown by its rounding (as the index's disc certificates)


def full_certificates(ix, I, J, pk: Pieces, pstart, pidx) -> tuple:
    """For directed pairs (observer I, target J) of the index ``ix``, with their pieces (CSR
    ``pstart``, ``pidx``): (settled, answer) masks, the pairs' discs D = (ax, ay, A's light
    radius, bx, by, B's bounding radius), and near_a of the pairs with a round A that
    star_free was asked about (else False). The pairs not settled go on: a round pair to the
    samples of sim.rules.visibility.full.round_samples (its certificates here are the first
    two stages of fully_visible_round, on the same discs: B's ring in an umbra, no; a star from
    A free, yes), any other to the exact kernel. One call of each stage for every pair that
    needs it."""
    P = len(I)
    no = np.zeros(P, dtype=bool)
    yes = np.zeros(P, dtype=bool)
    near = np.zeros(P, dtype=bool)
    if P == 0:
        return no, yes, None, near
    a_round, b_round = ix.round[I], ix.round[J]
    c = ix.centres
    light = np.where(a_round, ix.radius[I], ix.rad[I] + _OUTER_GROW)
    outer_b = np.where(b_round, ix.radius[J], ix.rad[J] + _OUTER_GROW)
    D = (c[I, 0].copy(), c[I, 1].copy(), light, c[J, 0].copy(), c[J, 1].copy(), outer_b)
    q = flatnonzero(b_round)
    if len(q):
        no[q[ring_shadowed(D, q, pk, pstart, pidx)]] = True
    q = flatnonzero(~b_round)
    if len(q):
        no[q[_vertices_shadowed(ix, J, D, q, pk, pstart, pidx)]] = True
    q = flatnonzero(a_round & ~no)
    if len(q):
        near[q] = near_a(D, q, pk, pstart, pidx)
        yes[q[star_free(D, q, pk, pstart, pidx, near)]] = True
    q = flatnonzero(~a_round & ~no)
    if len(q):
        yes[q[_mean_apex_free(ix, I, D, q, pk, pstart, pidx)]] = True
    q = flatnonzero(~a_round & ~no & ~yes)
    if len(q):
        q = q[~near_a(D, q, pk, pstart, pidx)]
    if len(q):
        yes[q[_outline_apexes_free(ix, I, D, q, pk, pstart, pidx)]] = True
    return no | yes, yes, D, near


def _vertices_shadowed(ix, J, D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q`` (target B an oval or a rectangle): one of B's core vertices lies in the
    umbra of one of the pair's convex pieces lit by disc (D[0], D[1], D[2])."""
    e, pos = ragged_expand(pstart, q)
    out = np.zeros(len(q), dtype=bool)
    if len(e) == 0:
        return out
    cores = [ix._core(j)[0] for j in J.take(q).tolist()]
    V = max(len(v) for v in cores)
    pts = np.empty((len(q), V, 2))
    for t, v in enumerate(cores):       # (padded by repeating the first vertex)
        pts[t, :len(v)] = v
        pts[t, len(v):] = v[0]
    k = pidx.take(pos)
    H, valid = _umbra_rows(D, q.take(e), k, pk)
    px, py = pts[e, :, 0], pts[e, :, 1]                         # (E, V)
    hit = None
    for row in range(3):
        m = H[row, 0][:, None] * px + H[row, 1][:, None] * py <= H[row, 2][:, None]
        hit = m if hit is None else hit & m
    out[e[hit.any(axis=1) & valid]] = True
    return out


# (its compiled twin runs where built: sim.rules.compiled)
_vertices_shadowed = kernel("visibility.vertices_shadowed", _vertices_shadowed)


def _mean_apex_free(ix, I, D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q`` (observer A an oval or a rectangle): the region from the mean of A's
    core vertices to B's bounding disc (D[3:]) is separated from every piece of the pair."""
    # (each core's vertex mean: its bounding circle's centre, geometry._hull's, kept per footprint)
    fps = ix.fps
    m = np.array([_hull(fps[i])[3][0] for i in I.take(q).tolist()]).reshape(len(q), 2)
    return _apexes_free(m[:, 0:1].copy(), m[:, 1:2].copy(), np.ones((len(q), 1), dtype=bool),
                        D, q, pk, pstart, pidx)


def _apexes_free(px, py, ok, D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q``: from one of the apexes (px, py) (Q, S) that apply (``ok``), the region
    towards B's bounding disc (D[3:]; certs._star_axes) is separated from every piece of the pair
    (certs._stars_separated, its near side at the apex)."""
    e, pos = ragged_expand(pstart, q)
    if len(e) == 0:
        return np.ones(len(q), dtype=bool)
    k = pidx.take(pos)
    bx, by, rb = (a.take(q) for a in D[3:])
    wx, wy, W, rr, sn, h, ok = _star_axes(px, py, ok, bx, by, rb)
    s0 = np.zeros(px.shape)
    return _stars_separated(px, py, s0, ok, wx, wy, W, rr, sn, h, e, k, pk)


# (its compiled twin runs where built: sim.rules.compiled)
_apexes_free = kernel("visibility.apexes_free", _apexes_free)


# directions of the outline apexes of a hull observer, from the direction of B (radians)
_HULL_STAR = np.array([0.0, 0.5, -0.5, 0.5 * np.pi, -0.5 * np.pi])


def _outline_apexes_free(ix, I, D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q`` (observer A an oval or a rectangle, no piece near A's bounding disc):
    B's bounding disc clear of A's, and the region from one of A's core vertices (those
    farthest in the directions ``_HULL_STAR`` from the direction of B) to B's bounding disc
    separated from every piece of the pair."""
    cores = [ix._core(i)[0] for i in I.take(q).tolist()]
    px, py, ok = _outline_apexes(cores, D, q)
    return _apexes_free(px, py, ok, D, q, pk, pstart, pidx)


def _outline_apexes(cores, D, q):
    """The apexes of ``_outline_apexes_free`` for pairs ``q`` (A's core vertices ``cores``, one
    array a pair): (px, py) (Q, S), each the first of the core's vertices farthest in its
    direction, and where they apply (B's bounding disc clear of A's)."""
    ax, ay, ra, bx, by, rb = (a.take(q) for a in D)
    ux, uy = bx - ax, by - ay
    L = np.maximum(np.sqrt(ux * ux + uy * uy), 1e-12)
    ang = np.arctan2(uy, ux)[:, None] + _HULL_STAR                # (Q, S)
    dx, dy = np.cos(ang), np.sin(ang)
    S = len(_HULL_STAR)
    px, py = np.empty((len(q), S)), np.empty((len(q), S))
    for t, v in enumerate(cores):
        best = (v @ np.stack([dx[t], dy[t]])).argmax(axis=0)       # (S,) farthest vertices
        px[t], py[t] = v[best, 0], v[best, 1]
    ok = ((L > ra + rb + 1e-6)[:, None]).repeat(S, axis=1)       # B clear of A
    return px, py, ok


# (its compiled twin runs where built: sim.rules.compiled; its angles are numpy's own, its
# farthest vertices declined where two are within a hair)
_outline_apexes = kernel("visibility.outline_apexes", _outline_apexes)
