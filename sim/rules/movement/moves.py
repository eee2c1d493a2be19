"""09 Movement phase: which moves a unit may still make this turn, how far it may go (21.03
taking to the skies, 24.17 Hover), which dense features it may cross (13.06, 24.35, Part A
ruling 12) and how far it has moved."""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Iterable, Mapping, Sequence

from sim.rules.movement.kernels import path_length
from sim.rules.grid import snap

__all__ = ["MoveType", "MOVE_MODES", "SELECT_MODES", "mode_of_selection", "ConsolidationMode",
           "FLY", "SKY_PENALTY", "SKY_MOVES", "move_made", "second_move_refusal", "add_move",
           "advance_end", "path_stop", "path_length", "sky_refusal", "sky_distance",
           "CROSSES_DENSE", "WALKER_HEIGHT", "WALKER_MOVES", "dense_crossing"]


class MoveType(StrEnum):
    """09.02 What a unit selected to move in the Movement phase does (its values are the names
    commands, events and logs use): remain stationary (09.04), a normal move (09.05), an
    advance (09.06), a fall-back move (09.07) by Ordered Retreat or by Desperate Escape; and
    the ingress move of a unit arriving from strategic reserves (20.04)."""

    STATIONARY = "stationary"
    NORMAL = "normal"
    ADVANCE = "advance"
    FALL_BACK = "fall back"
    DESPERATE_ESCAPE = "desperate escape"
    INGRESS = "ingress"


MOVE_MODES = (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK)
"""09.05-09.07 The moves a Move command makes (a Desperate Escape is a fall-back move)."""
SELECT_MODES = (MoveType.STATIONARY, MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK,
                MoveType.DESPERATE_ESCAPE)
"""09.02 The move types a unit may be selected for."""


def mode_of_selection(selected: str | None) -> MoveType | None:
    """09.02 The move (a Move command's mode) a unit selected for ``selected`` makes: a
    Desperate Escape is a fall-back move; remaining stationary, or having arrived by an
    ingress move (20.04), is none (None)."""
    if selected == MoveType.DESPERATE_ESCAPE:
        return MoveType.FALL_BACK
    return MoveType(selected) if selected in MOVE_MODES else None


class ConsolidationMode(StrEnum):
    """12.08 The compulsory mode of a consolidation move, in the order it is checked."""

    ONGOING = "ongoing"
    ENGAGING = "engaging"
    OBJECTIVE = "objective"


FLY = "FLY"  # 21.03 the keyword that lets a unit take to the skies
SKY_PENALTY = 2.0  # 21.03 inches off the maximum distance when taking to the skies
SKY_MOVES = (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK, "charge")  # 21.03 the moves it may be taken for
CROSSES_DENSE = frozenset({"INFANTRY", "BEASTS", "SWARM", "MOBILE"})  # 13.06, Part A ruling 12
WALKER_HEIGHT = 4.0  # 24.35 inches: the dense sections a Super-heavy Walker's move crosses
WALKER_MOVES = MOVE_MODES  # 24.35 the moves it crosses them in


def dense_crossing(keywords: Iterable[str], move: str | None = None, flying: bool = False,
                   super_heavy_walker: bool = False) -> bool | float:
    """13.06 / 21.03 / 24.35 / Part A ruling 12 Which dense features a unit's models may cross
    in a ``move`` move (the ``may_cross_dense`` of sim.rules.movement.legality): every one
    (True) for INFANTRY, BEASTS, SWARM or MOBILE (a unit has every keyword of its models,
    02.05.01) or taking to the skies; for a Super-heavy Walker (``super_heavy_walker``: every
    model has the ability) in a normal, advance or fall-back move, those of 4" or less (4.0);
    otherwise those of 2" or less (False: 13.06, any model). A dense feature given no height
    counts as taller than all of these (Part A ruling 12)."""
    if flying or CROSSES_DENSE.intersection(keywords):
        return True
    if super_heavy_walker and move in WALKER_MOVES:
        return WALKER_HEIGHT
    return False


def move_made(move_type: str | None, advanced: bool, fell_back: bool, moved: float) -> str | None:
    """09.02 The move a unit has already made this turn ("normal", "advance" or "fall back"),
    or None. A unit that advanced (09.06) or fell back (09.07), or that moved some distance
    (as a scenario's turn state may say), has made its move even if no Move command made it."""
    if move_type is not None:
        return move_type
    if advanced:
        return MoveType.ADVANCE
    if fell_back:
        return MoveType.FALL_BACK
    if moved > 0:
        return MoveType.NORMAL
    return None


def second_move_refusal(unit: str, previous: str | None, mode: str) -> str | None:
    """09.05.01 At most one normal move per phase, and 09.02 a unit is selected to move once in
    the Movement phase (one move type, resolved): a unit that has made a normal, advance or
    fall-back move this turn cannot make another (the simulator's "phase" runs to the end of
    the turn). Returns the reason a ``mode`` move is refused, or None."""
    if previous is None:
        return None
    return (f"{unit} already made a {previous} move this turn and cannot make a {mode} move: "
            f"one normal, advance or fall-back move per phase (09.05.01, 09.02)")


def add_move(totals: Mapping[str, float], distances: Iterable[tuple[str, float]]) -> tuple[dict[str, float], float]:
    """09.05-09.07 and 24.16 [HEAVY] "moved": a model's distance this turn is the sum of its
    moves, and the unit has moved as far as its furthest-moving model, in total (two 3" moves
    are 6", not 3"). Returns the new totals per model id and the furthest total."""
    new = dict(totals)
    for mid, dist in distances:
        new[mid] = new.get(mid, 0.0) + dist
    return new, max(new.values(), default=0.0)


def advance_end(x0: float, y0: float, x: float, y: float, limit: float) -> tuple[float, float, float]:
    """09.06 A model heading for (x, y) from (x0, y0) whose advance allows ``limit`` inches
    (M + the advance roll): where it ends and how far it moves. Within the limit it ends where
    it was sent; beyond it, it goes as far as the roll allows along its line (positions rounded
    to 1e-6", never past the limit: ``path_stop``)."""
    path, dist = path_stop(((x0, y0), (x, y)), limit)
    return path[-1][0], path[-1][1], dist


def path_stop(path: Sequence[tuple[float, float]], limit: float) -> tuple[tuple, float]:
    """09.06 / Part A ruling 14 A model sent along the base-centre polyline ``path`` (first
    point: where it stands) that may move only ``limit`` inches (an advance whose roll fell
    short): the part of the path it travels and its length. Within the limit the whole path;
    beyond it the path is cut where the limit runs out (that point on the 1e-6" grid, sim.rules.grid, and
    pulled back along its segment until the length is not over the limit, so the move it
    makes passes the 03.01 distance check)."""
    pts = tuple((float(x), float(y)) for x, y in path)
    segs = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(pts, pts[1:])]
    total = math.fsum(segs)
    if total <= limit:
        return pts, total
    done = 0.0
    for k, seg in enumerate(segs):
        if done + seg < limit:
            done += seg
            continue
        (ax, ay), (bx, by) = pts[k], pts[k + 1]
        left = limit - done
        for _ in range(8):
            f = max(left, 0.0) / seg
            end = (snap(ax + (bx - ax) * f), snap(ay + (by - ay) * f))
            length = done + math.hypot(end[0] - ax, end[1] - ay)
            if length <= limit:
                break
            left -= 1e-6
        return pts[:k + 1] + (end,), length
    return pts, total  # (not reached: the segments add up to more than the limit)


def sky_refusal(unit: str, keywords: Iterable[str], move: str) -> str | None:
    """21.03 Taking to the skies: only a FLY unit, and only for a normal, advance, fall-back or
    charge move. Returns why ``unit`` may not take to the skies for a ``move`` move, or None."""
    if FLY not in set(keywords):
        return f"{unit} has no FLY keyword and cannot take to the skies (21.03)"
    if move not in SKY_MOVES:
        return (f"a unit takes to the skies only for a normal, advance, fall-back or charge move, "
                f"not a {move} move (21.03)")
    return None


def sky_distance(limit: float, hover: bool) -> float:
    """21.03 / 24.17 The maximum distance of a move made taking to the skies: 2" less than the
    move's own (never below 0), or the move's own with Hover. (Vertical distance is ignored:
    on the 2-D table every path is horizontal, so its length is the whole distance moved,
    and 24.16 [HEAVY] counts no more.)"""
    return float(limit) if hover else max(0.0, float(limit) - SKY_PENALTY)
