"""03.01 / 13.06 Checks 3-5 of a move (sim.rules.movement.legality.check_move) for every round
base at once: along its path (one array of every segment of every round base's path), a base
crosses no enemy base it may not, goes over no battlefield edge, and crosses no dense feature it
may not. ``round_path_hits`` finds each breach in the order the check reports them;
``_round_paths_clear`` says whether there is none (the usual answer: a compiled twin works it out,
and the check words the breaches only when there are some); ``round_path_checks`` words them.
The features' bounding-box test (``_box_near``) and the words for a dense feature are shared
with the other path checks (legality's)."""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import flatnonzero
from sim.rules.compiled import kernel
from sim.rules.coherency import MoveProblem
from sim.rules.movement.index import TOUCH, BodyIndex, EdgeSet, _Poly
from sim.rules.movement.kernels import (_seg_point_dist, core_edges, near_polys_distance, near_rows,
                                        segments_polys_distance)
from sim.rules.movement.moves import WALKER_HEIGHT

_DENSE_RULE = "13.06, Part A 12"


def _dense_message(poly: _Poly) -> str:
    """13.06 / 24.35 Why the path may not cross the dense feature ``poly``, and who may: for one
    given a height of 4" or less (Part A ruling 12), a Super-heavy Walker's move too."""
    if poly.tall > WALKER_HEIGHT:
        return (f"its path crosses a dense feature of {poly.area!r}; only INFANTRY, BEASTS, SWARM or "
                f"MOBILE models, or models taking to the skies, may")
    return (f"its path crosses a dense feature of {poly.area!r}, {poly.tall:g}\" tall; only INFANTRY, "
            f"BEASTS, SWARM or MOBILE models, models taking to the skies, or a Super-heavy Walker's "
            f"normal, advance or fall-back move (24.35: {WALKER_HEIGHT:g}\" or less) may")


def _box_near(lo: np.ndarray, hi: np.ndarray, es: EdgeSet) -> np.ndarray:
    """(K, P): box k (lo/hi rows) meets polygon p's bounding box."""
    return (lo[:, None, 0] <= es.hi[None, :, 0]) & (hi[:, None, 0] >= es.lo[None, :, 0]) \
        & (lo[:, None, 1] <= es.hi[None, :, 1]) & (hi[:, None, 1] >= es.lo[None, :, 1])


# (its compiled twin runs where built: sim.rules.compiled)
_box_near = kernel("movement.box_near", _box_near)


def round_path_hits(V, VR, A, B, R, board, idx: BodyIndex, blockers: np.ndarray, dense: EdgeSet):
    """03.01 / 13.06 Each breach of checks 3-5 by round bases moving along segments A[s]-B[s]
    (S, 2) of radius R[s], their paths' vertices V[k] (K, 2) of radius VR[k], yielded in order:
    ("edge", k, None, by how much) for a vertex whose base would go over the battlefield edge (``board``:
    width, height); ("enemy", s, row, by how much) for a segment whose base crosses the base of
    ``idx``'s row among ``blockers``, round bases before hulls; ("dense", s, p, by how much) for
    one crossing polygon p of ``dense`` (the features its move may not cross)."""
    W, H = board
    over = np.maximum(np.maximum(VR - V[:, 0], VR - V[:, 1]),
                      np.maximum(V[:, 0] + VR - W, V[:, 1] + VR - H))
    for k in flatnonzero(over > TOUCH).tolist():
        yield ("edge", k, None, float(over[k]))
    if not len(A):
        return
    near = near_rows(idx, np.vstack([A, B]), float(R.max()), 0.0, blockers)
    if len(near):
        rn = near[idx.round[near]]
        if len(rn):
            d = _seg_point_dist(A, B, idx.centres[rn])
            lim = R[:, None] + idx.radius[rn][None, :]
            for s, m in np.argwhere(d < lim - TOUCH).tolist():
                yield ("enemy", s, int(rn[m]), float(lim[s, m] - d[s, m]))
        for j in near[~idx.round[near]].tolist():
            d = segments_polys_distance(A, B, core_edges(idx.fps[j]))[:, 0]
            for s in flatnonzero(d < R - TOUCH).tolist():
                yield ("enemy", s, j, float(R[s] - d[s]))
    if len(dense):
        near = _box_near(np.minimum(A, B) - R[:, None], np.maximum(A, B) + R[:, None], dense)
        if near.any():
            d = near_polys_distance(A, B, near, dense)
            for s, p in np.argwhere(near & (d < R[:, None] - TOUCH)).tolist():
                yield ("dense", s, p, float(R[s] - d[s, p]))


def _round_paths_clear(V, VR, A, B, R, board, idx: BodyIndex, blockers: np.ndarray, dense: EdgeSet) -> bool:
    """03.01 / 13.06 Whether ``round_path_hits`` finds no breach (the same arguments)."""
    return next(round_path_hits(V, VR, A, B, R, board, idx, blockers, dense), None) is None


# (its compiled twin runs where built: sim.rules.compiled)
_round_paths_clear = kernel("movement.round_paths_clear", _round_paths_clear)


def round_path_checks(round_paths, idx: BodyIndex, terr, board, blockers, may_cross_dense, per) -> None:
    """Checks 3-5 of ``check_move`` for every round base at once (one segment array): each
    model's first breach of each kind (enemy base, edge, dense feature) added to its list in
    ``per`` (its row -> its problems), in that order; nothing when ``_round_paths_clear``."""
    # (the vertices of every path, each with its model's row, and those that start a segment:
    # every vertex but its path's last; made as lists, a path has a few points)
    pts_all, own, starts = [], [], []
    for r, pts in round_paths:
        k = len(pts_all)
        pts_all += pts
        own += [r] * len(pts)
        starts += range(k, k + len(pts) - 1)
    V = np.array(pts_all, dtype=float)
    vown = np.array(own, dtype=np.int64)
    VR = idx.radius[vown]
    seg = np.array(starts, dtype=np.int64)         # vertex k starts a segment unless last
    A = V[seg]
    B = V[seg + 1]
    R = VR[seg]
    dense = terr.uncrossable(may_cross_dense)
    if _round_paths_clear(V, VR, A, B, R, board, idx, blockers, dense):
        return
    owners = vown[seg]
    found: dict[int, dict[str, MoveProblem]] = {r: {} for r, _ in round_paths}
    for kind, at, what, by in round_path_hits(V, VR, A, B, R, board, idx, blockers, dense):
        if kind == "edge":
            r = int(vown[at])
            found[r].setdefault("edge", MoveProblem(
                idx.ids[r], "03.01", f"its base would go {by:.2f}\" over the battlefield edge at "
                f"({V[at, 0]:.2f}, {V[at, 1]:.2f})", by))
        elif kind == "enemy":
            r = int(owners[at])
            found[r].setdefault("enemy", MoveProblem(
                idx.ids[r], "03.01", f"its path crosses the base of enemy model {idx.ids[what]} "
                f"(by {by:.2f}\")", by))
        else:
            r = int(owners[at])
            found[r].setdefault("dense", MoveProblem(idx.ids[r], _DENSE_RULE, _dense_message(dense.polys[what]), by))
    for r, _ in round_paths:
        for kind in ("enemy", "edge", "dense"):
            if kind in found[r]:
                per[r].append(found[r][kind])
