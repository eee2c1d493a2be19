"""14 Objectives: markers and terrain objectives, range, level of control, controlling units,
secured objectives; and the default board's objectives, deployment zones and territories
(Part A rulings 22-23).

Pure functions over plain data. A player is any sortable key (the battle uses army indexes 0
and 1; the defaults below take the keys to use). Models are given as ``(player, oc, fp)``:
``oc`` is the model's OC characteristic, or ``None`` for '-' (battle-shocked, 01.07), and
``fp`` its :class:`~sim.rules.geometry.Footprint`. Embarked and reserve models are never in
range (01.02.04): callers leave them out.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import Hashable, Mapping, Sequence

import numpy as np

from sim.rules.geometry import (EPS, Footprint, distance, distance_matrix, footprint_polygon_distance, round_base,
                                within_distance)
from sim.rules.movement.kernels import placed_distances
from sim.rules.polygons import point_in_polygon
from sim.rules.terrain import BOARD, TerrainArea

__all__ = [
    "KINDS", "MARKER_MM", "MARKER_DIAMETER", "CONTROL_RANGE", "ROLES",
    "Objective", "ObjectiveControl", "UNCONTROLLED", "ObjectiveProblem",
    "marker", "distance_to", "range_of", "within_range", "in_range", "placed_distances_to",
    "models_in_range", "control_levels",
    "control_levels_all", "control_levels_of", "controller", "settle", "settle_all", "settle_levels", "secure",
    "controlling_units", "controlled_by",
    "on_terrain", "objective_problems",
    "default_objectives", "default_zones", "territory", "ZONE_DEPTH",
]

Player = Hashable
Point = tuple[float, float]

KINDS = ("home", "central", "expansion")          # [EC] layout legend (RULES.md §26)
MARKER_MM = 40.0                                   # 14.01.01 a flat 40 mm disc
MARKER_DIAMETER = MARKER_MM / 25.4                 # inches
CONTROL_RANGE = 3.0                                # 14.01.01 within 3" horizontally
ROLES = ("defender", "attacker")                   # [EC] step 5
ZONE_DEPTH = 12.0                                  # Part A ruling 22


@dataclass(frozen=True, slots=True)
class Objective:
    """14.01 An objective: its name, its point (inches), its kind (home/central/expansion,
    [EC]); ``owner`` is the player whose home objective it is (Part A ruling 23; None for
    central and expansion objectives); ``area`` is the terrain area when the point lies on one
    (a terrain objective, 14.01), else None (a 40 mm marker, 14.01.01)."""

    name: str
    x: float
    y: float
    kind: str
    owner: Player | None = None
    area: TerrainArea | None = None

    @property
    def is_terrain(self) -> bool:
        """14.01 The whole terrain area is the objective."""
        return self.area is not None


@dataclass(frozen=True, slots=True)
class ObjectiveControl:
    """14.02-14.03 An objective's settled state: who controls it (None = nobody) and who has
    secured it (None = not secured; only the controlling player can have secured it)."""

    controller: Player | None = None
    secured_by: Player | None = None


UNCONTROLLED = ObjectiveControl()   # 14.02 at the start of the battle nothing is controlled


@dataclass(frozen=True, slots=True)
class ObjectiveProblem:
    """14.01 One reason a list of objectives is invalid: where, what was expected, what was found."""

    path: str
    expected: str
    found: str

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected}, found {self.found}"


# --- range (14.01, 14.01.01) ---------------------------------------------------------------

def marker(objective: Objective) -> Footprint:
    """14.01.01 The objective marker: a flat 40 mm disc centred on the objective's point."""
    return round_base(MARKER_MM, objective.x, objective.y)


def distance_to(fp: Footprint, objective: Objective) -> float:
    """14.01 Distance from a model to an objective, measured to its closest part: to the
    marker disc (14.01.01), or to the terrain area's footprint (0 when within it)."""
    if objective.area is not None:
        return footprint_polygon_distance(fp, objective.area.polygon)
    return distance(fp, marker(objective))


def range_of(objective: Objective) -> float:
    """14.01 / 14.01.01 How far from an objective's closest part (``distance_to``) a model is
    in range of it: 3" of a marker's disc; 0" of a terrain objective's area (within the area:
    any part of the base inside it or touching it, as ``model_within_area``)."""
    return 0.0 if objective.area is not None else CONTROL_RANGE


def within_range(d, objective: Objective):
    """14.01 / 14.01.01 Whether a model ``d`` inches from the objective (``distance_to``; a
    float, or a numpy array of them) is in range of it: within ``range_of`` (01.04.01)."""
    return within_distance(d, range_of(objective))


def in_range(fp: Footprint, objective: Objective) -> bool:
    """14.01 / 14.01.01 / 14.02 A model is in range of a marker while within 3" horizontally of
    the disc's closest part (edge to edge, not more than 3" + EPS: 01.04.01), and of a terrain
    objective while within that terrain area (any part of its base inside, 13.01 as
    ``model_within_area``). 2-D: the 5" vertical term never applies (Part A ruling 1). The one
    rule for "in range of an objective": control (14.02) and objective consolidation (12.08)
    both read it."""
    return bool(within_range(distance_to(fp, objective), objective))


def placed_distances_to(fp: Footprint, centres, objective: Objective) -> np.ndarray:
    """14.01 ``distance_to`` for the base ``fp`` placed (same facing) at each of ``centres``
    (K, 2): to a marker's disc in one vectorised column (the movement kernels' distances), to
    a terrain objective's area by the scalar rule, spot by spot. For a solver ranking spots."""
    centres = np.asarray(centres, dtype=float).reshape(-1, 2)
    if objective.area is None:
        return placed_distances(fp, centres, [marker(objective)])[:, 0]
    return np.array([distance_to(fp.moved(x, y), objective) for x, y in centres.tolist()], dtype=float)


def models_in_range(fps: Sequence[Footprint], objective: Objective) -> np.ndarray:
    """14.01.01 ``in_range`` for many models at once: a bool array, one entry per footprint
    (markers: one vectorised distance column; terrain objectives: the scalar rule per model;
    either only for the models a bounding-circle test cannot rule out)."""
    return _in_range_matrix(list(fps), (objective,))[:, 0]


def models_in_range_all(fps: Sequence[Footprint], objectives: Sequence[Objective]) -> np.ndarray:
    """14.01.01 ``models_in_range`` of each objective at once: (models, objectives) bools, each
    column the one ``models_in_range`` gives for its objective (the bounding-circle test only
    rules out models that cannot be in range; the exact rule decides for the rest)."""
    return _in_range_matrix(list(fps), tuple(objectives))


# (a model whose bounding circle is more than this beyond what can count is out of range
# whatever its shape: the cheap test below only rules models out, the exact rule decides)
_SLACK = 1e-6
_MARKER_REACH = CONTROL_RANGE + MARKER_DIAMETER / 2 + EPS + _SLACK  # centre to bounding circle


@functools.lru_cache(maxsize=256)
def _box(polygon: tuple) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in polygon]
    ys = [float(p[1]) for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _in_range_matrix(fps: list[Footprint], objectives: Sequence[Objective]) -> np.ndarray:
    """``models_in_range`` for several objectives at once: (models, objectives) bools. A
    bounding-circle test first rules out the models that cannot be in range (a marker: the
    circle holding the base more than 3" from the disc; a terrain objective: more than 0" from
    the box holding the area); ``in_range`` decides for the others (the markers: one distance
    matrix from the models near any marker to every marker)."""
    n, k = len(fps), len(objectives)
    out = np.zeros((n, k), dtype=bool)
    if not n or not k:
        return out
    circles = np.array([(fp.x, fp.y, fp.bounding_radius) for fp in fps], dtype=float)
    x, y, r = circles[:, 0], circles[:, 1], circles[:, 2]
    marks = [j for j, o in enumerate(objectives) if o.area is None]
    if marks:
        ox = np.array([objectives[j].x for j in marks])
        oy = np.array([objectives[j].y for j in marks])
        near = np.hypot(x[:, None] - ox, y[:, None] - oy) - r[:, None] <= _MARKER_REACH
        rows = np.flatnonzero(near.any(axis=1)).tolist()
        if rows:
            d = distance_matrix([fps[i] for i in rows], [marker(objectives[j]) for j in marks])
            out[np.ix_(rows, marks)] = within_distance(d, CONTROL_RANGE)
    for j, o in enumerate(objectives):
        if o.area is None:
            continue
        x0, y0, x1, y1 = _box(o.area.polygon)
        dx = np.maximum(np.maximum(x0 - x, x - x1), 0.0)
        dy = np.maximum(np.maximum(y0 - y, y - y1), 0.0)
        for i in np.flatnonzero(np.hypot(dx, dy) - r <= EPS + _SLACK).tolist():
            out[i, j] = in_range(fps[i], o)
    return out


# --- level of control (14.02, 14.03) --------------------------------------------------------

def _oc_value(oc: int | None) -> int:
    """14.02 / 01.07 / 02.02.01 What a model adds to its player's level of control: OC '-'
    (None, battle-shocked) adds nothing; a modified OC is never below 0."""
    return 0 if oc is None else max(0, int(oc))


def control_levels(objective: Objective,
                   models: Sequence[tuple[Player, int | None, Footprint]]) -> dict[Player, int]:
    """14.02 Level of control: for each player, the sum of the OC of their models in range of
    the objective (OC '-' counts 0, OC never below 0). Every player that has a model in
    ``models`` gets an entry (0 if none is in range), in sorted player order."""
    return control_levels_all((objective,), models)[0]


def in_range_matrix(fps: list[Footprint], objectives: Sequence[Objective]) -> np.ndarray:
    """14.02 Which of these models are within range of which objective: (models, objectives)
    bools, ``models_in_range`` for all of them at once; each row its model's own answer."""
    return _in_range_matrix(list(fps), objectives)


def control_levels_all(objectives: Sequence[Objective],
                       models: Sequence[tuple[Player, int | None, Footprint]],
                       hit: np.ndarray | None = None) -> list[dict[Player, int]]:
    """14.02 ``control_levels`` of each objective, in order, over the same models (who is in
    range of what worked out for all the objectives at once; ``hit``: that matrix, the
    models' rows of ``in_range_matrix``, when the caller has it)."""
    models = list(models)
    if hit is None:
        hit = _in_range_matrix([fp for _p, _oc, fp in models], objectives)
    return control_levels_of(len(objectives), [p for p, _oc, _fp in models], [oc for _p, oc, _fp in models], hit)


def control_levels_of(count: int, players: Sequence[Player], ocs: Sequence[int | None],
                      hit: np.ndarray) -> list[dict[Player, int]]:
    """14.02 ``control_levels_all`` of ``count`` objectives from each model's player and OC
    (parallel sequences, None for '-') and ``hit``, who is in range of what (``in_range_matrix``:
    a row per model, a column per objective): every player with a model gets an entry in each,
    in sorted order; only the models in range of something are read."""
    out = [dict.fromkeys(sorted(set(players)), 0) for _o in range(count)]
    ii, jj = np.nonzero(hit)
    for i, j in zip(ii.tolist(), jj.tolist()):
        out[j][players[i]] += _oc_value(ocs[i])
    return out


def controller(levels: Mapping[Player, int], previous: Player | None = None,
               secured_by: Player | None = None) -> Player | None:
    """14.02 / 14.03 Who controls an objective, given each player's level of control (a player
    missing from ``levels`` has level 0).

    * The player with the strictly highest level controls it; a tie for the highest level
      (0 included: only OC 1+ takes control) leaves it uncontrolled (14.02).
    * Secured (14.03): if ``secured_by`` secured it and still held it (``previous`` is the
      same player), it stays theirs, even with nobody in range, until another player's level
      is higher than theirs; then the normal rule applies. A secure whose player has since
      lost the objective (``previous`` is someone else or nobody) no longer counts.
    * Core rules secure nothing (RULES.md §25), so ``previous`` matters only with
      ``secured_by``: control is otherwise recomputed from scratch at each check.
    """
    if secured_by is not None and previous == secured_by:
        mine = levels.get(secured_by, 0)
        if not any(level > mine for p, level in levels.items() if p != secured_by):
            return secured_by
    if not levels:
        return None
    top = max(levels.values())
    leaders = [p for p, level in levels.items() if level == top]
    if top > 0 and len(leaders) == 1:
        return leaders[0]
    return None


def settle(levels: Mapping[Player, int], state: ObjectiveControl = UNCONTROLLED) -> ObjectiveControl:
    """14.02.01 / 14.03 Settle one objective at the end of a phase or turn: the new controller,
    and the secure kept only while its player still controls the objective."""
    who = controller(levels, state.controller, state.secured_by)
    kept = state.secured_by if (state.secured_by is not None and who == state.secured_by) else None
    return ObjectiveControl(who, kept)


def settle_all(objectives: Sequence[Objective],
               models: Sequence[tuple[Player, int | None, Footprint]],
               previous: Mapping[str, ObjectiveControl] | None = None) -> dict[str, ObjectiveControl]:
    """14.02.01 Control of every objective at the end of a phase or turn (the first thing done
    then), keyed by objective name in the objectives' order. ``previous`` holds the last
    settled states (for secured objectives, 14.03); missing names start uncontrolled."""
    return settle_levels(objectives, control_levels_all(objectives, models), previous)


def settle_levels(objectives: Sequence[Objective], levels: Sequence[Mapping[Player, int]],
                  previous: Mapping[str, ObjectiveControl] | None = None) -> dict[str, ObjectiveControl]:
    """14.02.01 ``settle_all`` given each objective's level of control (``control_levels_all``,
    in the objectives' order)."""
    previous = previous or {}
    return {o.name: settle(lv, previous.get(o.name, UNCONTROLLED)) for o, lv in zip(objectives, levels)}


def secure(state: ObjectiveControl, player: Player) -> ObjectiveControl:
    """14.03 A rule that secures an objective for ``player`` (no core rule does): only an
    objective that player controls can be secured (FAQ: one taken at the end of the Movement
    phase can be). Raises ValueError otherwise."""
    if state.controller != player:
        raise ValueError(f"14.03: player {player!r} cannot secure an objective controlled by "
                         f"{state.controller!r}")
    return ObjectiveControl(player, player)


def controlling_units(objective: Objective,
                      units: Sequence[tuple[str, Player, Sequence[tuple[int | None, Footprint]]]],
                      controlling_player: Player | None) -> tuple[str, ...]:
    """14.02 Controlling units: each unit of the controlling player that is in range of the
    objective (01.04.01: one or more of its models in range) and contains one or more models
    with OC 1+ (a battle-shocked unit's OC is '-', so it never controls). ``units`` holds
    ``(unit id, player, [(oc, fp), ...])``; the answer is sorted by unit id."""
    if controlling_player is None:
        return ()
    out = []
    for uid, player, models in units:
        if player != controlling_player:
            continue
        models = list(models)
        if not any(oc is not None and oc >= 1 for oc, _fp in models):
            continue
        if models and bool(models_in_range([fp for _oc, fp in models], objective).any()):
            out.append(uid)
    return tuple(sorted(out))


def controlled_by(controls: Mapping[str, ObjectiveControl], player: Player) -> tuple[str, ...]:
    """14.02 The names of the objectives ``player`` controls, in the mapping's order."""
    return tuple(name for name, c in controls.items() if c.controller == player)


# --- layout: terrain objectives, validation, defaults ---------------------------------------

def on_terrain(objective: Objective, areas: Sequence[TerrainArea]) -> Objective:
    """14.01 If the objective's point lies on a terrain area (inside or on its boundary), that
    whole area is the objective: the returned objective carries the area (the first such area
    in sorted name order, should areas overlap). Otherwise it is returned unchanged (a marker)."""
    for area in sorted(areas, key=lambda a: a.name):
        if point_in_polygon((objective.x, objective.y), area.polygon) >= 0:
            return Objective(objective.name, objective.x, objective.y, objective.kind,
                             objective.owner, area)
    return objective


def objective_problems(objectives: Sequence[Objective],
                       board: tuple[float, float] = BOARD) -> list[ObjectiveProblem]:
    """14.01 / [EC] Check a list of objectives: unique names; kind home, central or expansion;
    a home objective names its owner and no other kind does; at most one home objective per
    player; the point on the board. Returns every problem (empty list = valid)."""
    problems: list[ObjectiveProblem] = []
    W, H = board
    seen: dict[str, int] = {}
    homes: dict = {}
    for i, o in enumerate(objectives):
        path = f"objectives[{i}]"
        if o.name in seen:
            problems.append(ObjectiveProblem(f"{path}.name", "a name no other objective has",
                                             f"{o.name!r}, as objectives[{seen[o.name]}]"))
        else:
            seen[o.name] = i
        if o.kind not in KINDS:
            problems.append(ObjectiveProblem(f"{path}.kind", "home, central or expansion", repr(o.kind)))
        if o.kind == "home":
            if o.owner is None:
                problems.append(ObjectiveProblem(f"{path}.owner", "the player whose home objective it is",
                                                 "none"))
            elif o.owner in homes:
                problems.append(ObjectiveProblem(f"{path}.owner", "one home objective per player",
                                                 f"a second for {o.owner!r} (objectives[{homes[o.owner]}])"))
            else:
                homes[o.owner] = i
        elif o.owner is not None:
            problems.append(ObjectiveProblem(f"{path}.owner", "no owner (only home objectives have one)",
                                             repr(o.owner)))
        if not (-EPS <= o.x <= W + EPS and -EPS <= o.y <= H + EPS):
            problems.append(ObjectiveProblem(f"{path}", f"a point on the {W:g}x{H:g} board",
                                             f"({o.x:g}, {o.y:g})"))
    return problems


def default_objectives(board: tuple[float, float] = BOARD, defender: Player = "defender",
                       attacker: Player = "attacker") -> tuple[Objective, ...]:
    """Part A ruling 23 (not in the data): five 40 mm markers. On the 60" x 44" board: the
    Defender's home at (30, 6), the Attacker's at (30, 38), central at (30, 22), expansions at
    (12, 22) and (48, 22); on another board the same fractions (homes 6" from the long edges,
    expansions a fifth of the width in from the short edges)."""
    W, H = float(board[0]), float(board[1])
    return (
        Objective("defender home", W / 2, 6.0, "home", defender),
        Objective("attacker home", W / 2, H - 6.0, "home", attacker),
        Objective("central", W / 2, H / 2, "central"),
        Objective("expansion west", W / 5, H / 2, "expansion"),
        Objective("expansion east", W - W / 5, H / 2, "expansion"),
    )


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def default_zones(board: tuple[float, float] = BOARD) -> dict[str, tuple[Point, ...]]:
    """Part A ruling 22 (not in the data): the deployment zones are 12"-deep strips along the two
    long edges: the Defender's at y = 0-12, the Attacker's at y = H-12 .. H (32-44 on 44")."""
    W, H = float(board[0]), float(board[1])
    return {"defender": _rect(0.0, 0.0, W, ZONE_DEPTH),
            "attacker": _rect(0.0, H - ZONE_DEPTH, W, H)}


def territory(role: str, board: tuple[float, float] = BOARD) -> tuple[Point, ...]:
    """[EC] / Part A ruling 22: a player's territory is the half of the board containing their
    deployment zone (``role`` "defender": y = 0 .. H/2; "attacker": y = H/2 .. H)."""
    W, H = float(board[0]), float(board[1])
    if role == "defender":
        return _rect(0.0, 0.0, W, H / 2)
    if role == "attacker":
        return _rect(0.0, H / 2, W, H)
    raise ValueError(f"role must be one of {ROLES}, found {role!r}")
