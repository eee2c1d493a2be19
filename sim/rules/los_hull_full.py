"""06.01 / 13.08 Certificates of fully visible for pairs with an oval or rectangular base (the
VisibilityIndex's pairs that are not both round), all pairs at once, before
los_kernels.footprint_fully_visible one pair at a time. Each settles a pair only where it gives
that kernel's answer (the margins of sim.rules.los_certs, far above the kernels' 1e-9"):

* "not fully visible": one of the kernel's own sample points of B lies in the umbra of one of
  the pair's convex pieces lit by a disc about A's centre holding A (los_certs._umbra_rows):
  B's outline ring for a round B, B's core vertices for an oval or a rectangle (the first
  samples of los_kernels.boundary_samples). Every segment from A to that point crosses the
  piece, and a point outside that disc is not inside A, so the kernel finds it unseen.
* "fully visible", observer A round: los_certs.star_free with B's bounding disc (its
  arguments hold point by point for any point of that disc, and every sample of B is in it).
* "fully visible", observer A an oval or a rectangle: the kernel's first pass draws, for
  every sample of B, the segment from the mean of A's core vertices; when the region from
  that point to B's bounding disc is separated from every piece of the pair by more than
  los_certs' margin, each such segment is free, and the kernel answers yes.
"""

from __future__ import annotations

import numpy as np

from sim.rules.los_batch import ragged_expand
from sim.rules.los_certs import (_star_axes, _stars_separated, _umbra_rows, near_a,
                                 ring_shadowed, star_free)
from sim.rules.los_kernels import Pieces

__all__ = ["hull_full_certificates"]

_OUTER_GROW = 1e-7      # a bounding radius grown by its rounding (as the index's disc certificates)


def hull_full_certificates(ix, I, J, pk: Pieces, pstart, pidx) -> tuple[np.ndarray, np.ndarray]:
    """For directed pairs (observer I, target J) of the index ``ix`` (not both round), with
    their pieces (CSR ``pstart``, ``pidx``): (settled, answer) masks; the pairs not settled
    go to the exact kernel."""
    P = len(I)
    no = np.zeros(P, dtype=bool)
    yes = np.zeros(P, dtype=bool)
    if P == 0:
        return no, yes
    a_round, b_round = ix.round[I], ix.round[J]
    c = ix.centres
    light = np.where(a_round, ix.radius[I], ix.rad[I] + _OUTER_GROW)
    outer_b = np.where(b_round, ix.radius[J], ix.rad[J] + _OUTER_GROW)
    D = (c[I, 0].copy(), c[I, 1].copy(), light, c[J, 0].copy(), c[J, 1].copy(), outer_b)
    q = np.flatnonzero(b_round)
    if len(q):
        no[q[ring_shadowed(D, q, pk, pstart, pidx)]] = True
    q = np.flatnonzero(~b_round)
    if len(q):
        no[q[_vertices_shadowed(ix, J, D, q, pk, pstart, pidx)]] = True
    q = np.flatnonzero(a_round & ~no)
    if len(q):
        near = np.zeros(P, dtype=bool)
        near[q] = near_a(D, q, pk, pstart, pidx)
        yes[q[star_free(D, q, pk, pstart, pidx, near)]] = True
    q = np.flatnonzero(~a_round & ~no)
    if len(q):
        yes[q[_mean_apex_free(ix, I, D, q, pk, pstart, pidx)]] = True
    return no | yes, yes


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


def _mean_apex_free(ix, I, D, q, pk: Pieces, pstart, pidx) -> np.ndarray:
    """For pairs ``q`` (observer A an oval or a rectangle): the region from the mean of A's
    core vertices to B's bounding disc (D[3:]) is separated from every piece of the pair."""
    e, pos = ragged_expand(pstart, q)
    if len(e) == 0:
        return np.ones(len(q), dtype=bool)
    k = pidx.take(pos)
    m = np.array([ix._core(i)[0].mean(axis=0) for i in I.take(q).tolist()]).reshape(len(q), 2)
    px, py = m[:, 0:1].copy(), m[:, 1:2].copy()                # (Q, 1) apexes
    bx, by, rb = (a.take(q) for a in D[3:])
    ok = np.ones((len(q), 1), dtype=bool)
    wx, wy, W, rr, sn, h, ok = _star_axes(px, py, ok, bx, by, rb)
    s0 = np.zeros((len(q), 1))
    return _stars_separated(px, py, s0, ok, wx, wy, W, rr, sn, h, e, k, pk)
