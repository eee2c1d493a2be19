"""The tactician's routes round what blocks a unit's straight move (sim.players.tactician
.movement's candidates): goals off to either side of the straight line, moves that turn once at
a corner of a dense feature the unit may not cross, and a blocked move's models routed round
bases and features by the placement solver. Each is a Move the rules check like any other
(03.01, 13.06; Part A ruling 14: a path's turning points, ``via``)."""

from __future__ import annotations

import math

import esper
import numpy as np

from sim.commands import Move
from sim.components import Position
from sim.players import options as O
from sim.world import queries as W


def ends_in_feature(battle, cmd) -> bool:
    """True only when the rules would certainly refuse the Move ``cmd`` for where it ends: a
    model it moves would end over a light or dense feature (03.01 check 7, Part A ruling 13:
    sim.rules.movement.legality.end_blockers, the check's own function, of the same bases the
    check ends, ``check_move``'s ``fp0.moved(x, y)``). False says nothing (an embarking move, a
    model not on the table...: the check decides). Its words are not read: a move refused here
    may have been refused first for its path (the check's first problem); _legal_best reads
    that only when it matters (its detours)."""
    from sim.plan import moves as MV
    from sim.rules.movement.index import terrain_index
    from sim.rules.movement.legality import end_blockers
    if getattr(cmd, "embark", None) is not None or not getattr(cmd, "to", None):
        return False
    idx = MV.bodies()
    try:
        fps = [idx.fps[idx.row[m]].moved(float(x), float(y)) for m, x, y in cmd.to]
    except (KeyError, TypeError, ValueError):
        return False
    return any(h is not None for h in end_blockers(fps, terrain_index(battle.scenario.terrain)))


def detours(b, goal, turns=(35.0, -35.0, 70.0, -70.0)) -> list:
    """Points as far as the goal but off to either side (round a wall or a unit in the way)."""
    cx, cy = b.centre
    dx, dy = goal[0] - cx, goal[1] - cy
    d = math.hypot(dx, dy)
    if d < 1e-6:
        return []
    out = []
    for t in turns:
        a = math.radians(t)
        ca, sa = math.cos(a), math.sin(a)
        step = min(d, b.M * 1.5)
        out.append((cx + (dx * ca - dy * sa) / d * step, cy + (dx * sa + dy * ca) / d * step))
    return out


def detoured(battle, cmd):
    """The move ``cmd`` with each model's path round what blocks its straight line (03.01; Part
    A ruling 14: its turning points, ``via``), each within the model's move (its straight
    distance's reach: the unit's M, plus the advance roll), or None when some model finds none
    (sim.rules.movement.solvers.place.Placer.trace: one or two waypoints by bases and corners)."""
    from sim.plan import moves as MV
    from sim.rules.movement.solvers.place import Placer
    u = battle.units[cmd.unit]
    if cmd.fly:
        return None
    st = W.unit_state(u)
    reach = O.min_move(u, battle) + ((st.advance_roll or 0) if cmd.mode == "advance" else 0)
    try:
        placer = Placer(cmd.unit, MV.bodies(), battle.scenario.terrain, battle.scenario.board,
                        max_distance=float(reach), may_cross_dense=MV.may_cross_dense(u, cmd.mode))
    except ValueError:
        return None
    via = []
    for mid, x, y in cmd.to:
        path = placer.trace(mid, np.array([x, y]))
        if path is None:
            return None
        if len(path) > 2:
            via.append((mid, tuple(path[1:-1])))
    if not via:
        return None
    return Move(cmd.unit, cmd.to, cmd.mode, via=tuple(via), fly=cmd.fly, embark=cmd.embark)


ROUTE_GAP = 0.3  # inches: a route's turning point clears a feature's corner by the unit's spread and this


def routed(battle, u: int, b, goal, mode: str, extra: int = 0) -> list:
    """Whole-unit moves toward ``goal`` that turn once, at a corner of a dense feature the unit
    may not cross (13.06; a wall, a ruin or a container in the way): to the corner (cleared by
    the unit's spread, so every model's path passes it), then on toward the goal with what is
    left of the move; each model the same turning point relative to it (``via``: Part A ruling
    14), checked by the rules like any move."""
    from sim.plan import moves as MV
    from sim.rules.movement.index import terrain_index
    from sim.rules.movement.solvers.place import corner_points
    if MV.can_fly(u):
        return []
    polys = terrain_index(battle.scenario.terrain).uncrossable(MV.may_cross_dense(u, mode)).polys
    if not polys or not len(b.xy):
        return []
    reach = O.min_move(u, battle) + extra - 0.02
    cx, cy = b.centre
    spread = float(np.max(np.hypot(b.xy[:, 0] - cx, b.xy[:, 1] - cy) + b.radius))
    near = [p for p in polys if not (np.any(p.lo > (cx + reach + spread, cy + reach + spread))
                                     or np.any(p.hi < (cx - reach - spread, cy - reach - spread)))]
    out = []
    models = [(W.model_id(m), esper.component_for_entity(m, Position)) for m in W.unit_models(u)]
    for poly in near:
        for c in corner_points(poly.pts, spread + ROUTE_GAP):
            lx, ly = float(c[0]) - cx, float(c[1]) - cy
            first = math.hypot(lx, ly)
            if first < 1.0 or first > reach:
                continue
            gx, gy = goal[0] - float(c[0]), goal[1] - float(c[1])
            left = min(reach - first, math.hypot(gx, gy))
            g = math.hypot(gx, gy) or 1.0
            ex, ey = lx + gx / g * left, ly + gy / g * left
            to = O.translate(battle, u, ex, ey)
            via = tuple((mid, ((p.x + lx, p.y + ly),)) for mid, p in models) if left > 0.05 else ()
            try:
                out.append(Move(O.uid(u), to, mode, via=via))
            except ValueError:
                continue
    return out
