"""FROZEN ORACLE (a copy of sim/rules/coherency.py's matrix checks as of commit ad3e6b3) for
tests/rules/test_03_01_check_move_reference.py: do not optimise this file."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN, MoveProblem
from sim.rules.geometry import EPS


def link_groups(dist: np.ndarray, alive: Sequence[int] | None = None) -> list[list[int]]:
    """03.03 [FAQ] The connected groups of the 2" link graph over the rows ``alive`` (default
    all) of a symmetric distance matrix whose rows are in id order. Each group is a sorted list
    of rows; groups come largest first, ties by their lowest row (= lowest id).

    (Who reaches whom: the links, squared as a boolean matrix until nothing more is reached,
    a few small products however long the chains of links are.)"""
    if alive is None:
        rows = list(range(len(dist)))
        linked = np.asarray(dist) <= COHERENCY_LINK + EPS
    else:
        rows = sorted(alive)
        linked = np.asarray(dist)[np.ix_(rows, rows)] <= COHERENCY_LINK + EPS if rows else None
    n = len(rows)
    if not n:
        return []
    reach = linked | np.eye(n, dtype=bool)
    while True:
        further = reach @ reach
        if np.array_equal(further, reach):
            break
        reach = further
    if reach[0].all():
        return [rows]
    seen = np.zeros(n, dtype=bool)
    groups: list[list[int]] = []
    for s in range(n):
        if seen[s]:
            continue
        seen |= reach[s]
        groups.append([rows[i] for i in np.flatnonzero(reach[s]).tolist()])
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups


def coherency_problems_from_matrix(ids: Sequence[str], dist: np.ndarray) -> list[MoveProblem]:
    """03.03 The coherency problems of a unit given its model ids (sorted) and the matrix of
    edge-to-edge distances between them (rows in the same order). See ``coherency_problems``."""
    n = len(ids)
    if n <= 1:
        return []
    out: list[MoveProblem] = []
    near = np.array(dist, dtype=float, copy=True)
    np.fill_diagonal(near, np.inf)
    far = np.array(dist, dtype=float, copy=True)
    np.fill_diagonal(far, -np.inf)
    nearest, nearest_j = near.min(axis=1), near.argmin(axis=1)   # argmin/argmax: lowest id on ties
    farthest, farthest_j = far.max(axis=1), far.argmax(axis=1)
    for i in range(n):
        if nearest[i] > COHERENCY_LINK + EPS:
            j = int(nearest_j[i])
            out.append(MoveProblem(
                ids[i], "03.03",
                f"{nearest[i]:.2f}\" from the nearest model of its unit ({ids[j]}); it must be "
                f"within {COHERENCY_LINK:g}\" of at least one", float(nearest[i])))
        if farthest[i] > COHERENCY_SPAN + EPS:
            j = int(farthest_j[i])
            out.append(MoveProblem(
                ids[i], "03.03",
                f"{farthest[i]:.2f}\" from {ids[j]}; it must be within {COHERENCY_SPAN:g}\" of "
                f"every model of its unit", float(farthest[i])))
    groups = link_groups(dist)
    if len(groups) > 1:
        main = groups[0]
        for g in groups[1:]:
            gap = float(np.asarray(dist)[np.ix_(g, main)].min())
            names = ", ".join(ids[k] for k in g)
            out.append(MoveProblem(
                ids[g[0]], "03.03",
                f"the unit is not one contiguous group: [{names}] is {gap:.2f}\" from the "
                f"largest group (holding {ids[main[0]]}) [FAQ]", gap))
    order = {mid: k for k, mid in enumerate(ids)}
    out.sort(key=lambda p: order[p.model])   # stable: per model, in check order
    return out
