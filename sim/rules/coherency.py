"""03.03 Unit coherency, and Part A ruling 29's headless coherency removals.

03.03: every model of a unit must be within 2" horizontally of at least one other model of
its unit, and within 9" horizontally of every other model of its unit; [FAQ] the unit must
form a single contiguous group (the graph whose edges are the 2" links is connected). A unit
of one model is always in coherency. Distances are edge to edge on the 2-D plan (Part A
ruling 1), measured with ``sim.rules.geometry`` ("within" = not more than, 01.04.01).

This module also holds ``MoveProblem``, the one record every movement check reports
(``sim.rules.movement.legality`` re-exports it; it lives here so that module can import this one).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from sim.rules.compiled import kernel
from sim.rules.geometry import EPS, OVAL_VERTICES, Footprint, distance_matrix

__all__ = [
    "MoveProblem", "COHERENCY_LINK", "COHERENCY_SPAN", "coherency_problems",
    "coherency_problems_from_matrix", "coherency_screen", "is_coherent", "link_groups", "coherency_removals",
]

COHERENCY_LINK = 2.0   # 03.03: within 2" of at least one other model of the unit
COHERENCY_SPAN = 9.0   # 03.03: within 9" of every other model of the unit


@dataclass(frozen=True, slots=True)
class MoveProblem:
    """03.01 One reason a move (or a unit's layout) is illegal: the model it is about (None
    for the unit as a whole), the rule number broken, a readable message, and the distance
    that broke it (inches) where there is one."""

    model: str | None
    rule: str
    message: str
    distance: float | None = None

    def __str__(self) -> str:
        who = f"{self.model}: " if self.model is not None else ""
        return f"{who}{self.message} ({self.rule})"


def _sorted(models: Sequence[tuple[str, Footprint]]) -> tuple[list[str], list[Footprint]]:
    pairs = sorted(models, key=lambda p: p[0])
    ids = [p[0] for p in pairs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"03.03 coherency: duplicate model ids in {ids}")
    return ids, [p[1] for p in pairs]


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


_SLACK = 1e-6                                   # inches: far above any rounding of a distance
_OVAL_INNER = math.cos(math.pi / OVAL_VERTICES)  # an oval's core holds this share of its minor axis


def _inner_radius(f: Footprint) -> float:
    """The radius of a circle about the centre that lies inside the base's core (``geometry``):
    the whole circle for a round base, the half width of a rectangle, and for an oval (a
    polygon inscribed in the ellipse, the affine image of a regular one inscribed in a circle)
    its half minor axis times cos(pi / OVAL_VERTICES)."""
    if f.shape == "round":
        return 0.5 * f.length
    h = 0.5 * min(f.length, f.width)
    return h if f.shape == "rect" else h * _OVAL_INNER


def coherency_screen(fps: Sequence[Footprint]) -> bool | None:
    """03.03 What bounds alone say of the unit standing at ``fps``: True if it is surely in
    coherency, False if surely not, None if only measuring can tell. Each pair's distance
    lies between its centres' distance less the bounding radii and less the inner radii
    (``_inner_radius``); a margin of ``_SLACK`` keeps every verdict clear of rounding. Surely
    coherent: the pairs surely within 2" link every model into one group and no pair may be
    more than 9" apart; surely not: some pair is surely more than 9" apart, or the pairs that
    may be within 2" do not join the unit into one group ([FAQ])."""
    return _VERDICTS[_coherency_code(fps)]


_VERDICTS = (False, True, None)


def _coherency_code(fps: Sequence[Footprint]) -> int:
    """``coherency_screen``'s verdict as a number, 0 (surely not), 1 (surely) or 2 (only
    measuring can tell): its arithmetic, pair by pair in order, and what it decides."""
    n = len(fps)
    if n <= 1:
        return 1
    cx = [f.x for f in fps]
    cy = [f.y for f in fps]
    inner = [_inner_radius(f) for f in fps]
    outer = [f.bounding_radius for f in fps]
    sure: list[list[int]] = [[] for _ in range(n)]     # surely linked (within 2")
    maybe: list[list[int]] = [[] for _ in range(n)]    # possibly linked
    spans = True                                        # every pair surely within 9"
    link_lo, link_hi = COHERENCY_LINK - _SLACK, COHERENCY_LINK + _SLACK
    span_lo, span_hi = COHERENCY_SPAN - _SLACK, COHERENCY_SPAN + _SLACK
    for i in range(n):
        xi, yi, ii, oi = cx[i], cy[i], inner[i], outer[i]
        for j in range(i + 1, n):
            c = math.hypot(cx[j] - xi, cy[j] - yi)
            lo, hi = c - oi - outer[j], c - ii - inner[j]
            if lo > span_hi:
                return 0
            if hi > span_lo:
                spans = False
            if lo <= link_hi:
                maybe[i].append(j)
                maybe[j].append(i)
                if hi <= link_lo:
                    sure[i].append(j)
                    sure[j].append(i)
    if not _connected(maybe):
        return 0
    return 1 if spans and _connected(sure) else 2


# (its compiled twin runs where built: sim.rules.compiled)
_coherency_code = kernel("movement.coherency_code", _coherency_code)


def _connected(adj: list[list[int]]) -> bool:
    seen = {0}
    todo = [0]
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(adj)


def coherency_problems(models: Sequence[tuple[str, Footprint]]) -> list[MoveProblem]:
    """03.03 Unit coherency of one unit given as (model id, footprint) pairs: every model within
    2" of at least one other, within 9" of every other, and [FAQ] one contiguous group of 2"
    links. Returns every problem (empty = coherent), per model in id order; each names the
    model, the rule and the distance that broke it. A one-model unit is always coherent."""
    ids, fps = _sorted(models)
    if len(ids) <= 1:
        return []
    return coherency_problems_from_matrix(ids, distance_matrix(fps, fps))


def is_coherent(models: Sequence[tuple[str, Footprint]]) -> bool:
    """03.03 Whether the unit is in coherency (no ``coherency_problems``)."""
    return not coherency_problems(models)


def _matrix_coherent(dist: np.ndarray, alive: list[int]) -> bool:
    if len(alive) <= 1:
        return True
    sub = dist[np.ix_(alive, alive)]
    if sub.max() > COHERENCY_SPAN + EPS:
        return False
    return len(link_groups(dist, alive)) == 1


def coherency_removals(models: Sequence[tuple[str, Footprint]]) -> list[str]:
    """03.03 / Part A ruling 29: the models an out-of-coherency unit loses in the End of Turn
    step, in removal order (empty if the unit is coherent).

    One at a time until the unit is coherent: while the 2" links split the unit, remove the
    model farthest (edge to edge, to its nearest member) from the largest connected group
    (largest ties: the group holding the lowest id); once it is one group but some pair is
    more than 9" apart, remove the model whose farthest unit-mate is farthest (the ruling's
    "farthest from the group" when every model is in it). Ties: lowest id. A one-group unit
    left with a broken 9" span always loses one of that pair's ends first, so the process ends
    (at worst at one model, which is always coherent)."""
    return list(_removals(tuple((mid, fp) for mid, fp in models)))


@functools.lru_cache(maxsize=1024)
def _removals(models: tuple[tuple[str, Footprint], ...]) -> tuple[str, ...]:
    """``coherency_removals``, kept for the inputs themselves (ids and footprints are
    immutable: the same unit layout always loses the same models), so a unit that has not
    moved or lost a model since the last End of Turn step is not measured again; nor is one
    ``coherency_screen`` finds surely coherent by its bounds (most units, most turns)."""
    ids, fps = _sorted(models)
    if len(ids) <= 1 or coherency_screen(fps) is True:  # (surely coherent by bounds: none lost)
        return ()
    dist = distance_matrix(fps, fps)
    alive = list(range(len(ids)))
    removed: list[str] = []
    while not _matrix_coherent(dist, alive):
        groups = link_groups(dist, alive)
        if len(groups) > 1:
            main = groups[0]
            outside = [i for i in alive if i not in set(main)]
            gap = dist[np.ix_(outside, main)].min(axis=1)
            pick = outside[int(np.argmax(gap))]     # argmax: first maximum = lowest id
        else:
            sub = dist[np.ix_(alive, alive)]
            pick = alive[int(np.argmax(sub.max(axis=1)))]
        removed.append(ids[pick])
        alive.remove(pick)
    return tuple(removed)


def removal_problem(models: Sequence[tuple[str, Footprint]], removed: Sequence[str]) -> str | None:
    """03.03 Why ``removed`` is not a legal choice of the models an out-of-coherency unit loses
    (None if it is): models of the unit, each once, taken one at a time until the unit is
    coherent and not one more."""
    ids = [m for m, _ in models]
    if len(set(removed)) != len(removed) or any(m not in ids for m in removed):
        return f"a list of this unit's models ({', '.join(sorted(ids))}), each once (03.03)"
    fps = dict(models)
    left = [m for m in ids]
    for k, mid in enumerate(removed):
        if is_coherent([(m, fps[m]) for m in left]):
            return f"{', '.join(removed[k:])} removed after the unit was already coherent (03.03: until it is coherent)"
        left.remove(mid)
    if not is_coherent([(m, fps[m]) for m in left]):
        return "the unit still out of coherency after these removals (03.03)"
    return None
