"""Where a unit could be set up before the battle (26 step 8, 24.20) or scout to (24.31,
24.32): candidate positions for the headless players and the script's steps that leave them
out, nearest first to what they prefer. Not checked here: the caller checks each with the
command's own check (Battle.check), which holds the rules.

A unit's set-ups are the placement solver's (sim.rules.movement.solvers.placement): each
model on its own base, coherent, wholly within the zone (or, Infiltrators, more than 8" from
the enemy zone and models), on no other base and no light or dense feature; the default
player's nearest the battlefield's centre first, the random player's toward a point of the
region it draws."""

from __future__ import annotations

import math
from functools import lru_cache

import esper

from sim.components import Position, Unit
from sim.rules import pre_battle as PB
from sim.rules.abilities import Hook
from sim.rules.grid import snap, snap_point
from sim.world import queries as W

GRID = 1.0  # inches between the anchors tried for a unit's set-up
SLACK = 0.001  # inches kept from a scout move's full reach, so rounding never takes it past the limit


# --- who may do what before the battle (26 steps 8, 11) -------------------------------------

def units_of(player: int) -> list[int]:
    """The player's units, in unit order."""
    return [u for u in W.all_units() if esper.component_for_entity(u, Unit).owner == player]


def to_deploy(player: int) -> list[int]:
    """26 step 8 The player's units still to set up, in unit order."""
    return [u for u in units_of(player) if W.undeployed(u)]


def scouts_distance(unit_ent: int) -> int | None:
    """24.31 The unit's Scouts distance (24.02: sim.rules.pre_battle.unit_scouts), None if not
    every model has Scouts; for a DEDICATED TRANSPORT without it, the distance of the units
    embarked in it when every one of their models has Scouts (its third choice)."""
    own = _own_scouts(unit_ent)
    return own if own is not None else _carried_scouts(unit_ent)


def _own_scouts(unit_ent: int) -> int | None:
    models = esper.component_for_entity(unit_ent, Unit).models
    return PB.unit_scouts([v for v in W.ability_values(m, Hook.SCOUT_MOVE) if v is not None] for m in models)


def _carried_scouts(unit_ent: int) -> int | None:
    return PB.carried_scouts(W.unit_keywords(unit_ent), (
        [v for v in W.ability_values(m, Hook.SCOUT_MOVE) if v is not None]
        for p in W.passengers(unit_ent) for m in esper.component_for_entity(p, Unit).models))


def may_scout(battle, unit_ent: int) -> bool:
    """24.31 The unit may still use its Scouts ability before the battle: every model has it,
    it has not used it, and it is on the battlefield or in strategic reserves (not destroyed);
    a dedicated transport scouting for its passengers only from the battlefield."""
    ts = battle.turn_state
    if unit_ent in ts.scouted or scouts_distance(unit_ent) is None or W.embarked_in(unit_ent) is not None:
        return False  # (18.01 an embarked unit goes where its transport goes)
    if W.in_reserves(unit_ent):
        return _own_scouts(unit_ent) is not None
    return not W.unit_destroyed(unit_ent)


def scouts(battle, player: int) -> list[int]:
    """The player's units that may still use Scouts, in unit order."""
    return [u for u in units_of(player) if may_scout(battle, u)]




def formation(ent: int) -> list[tuple[str, float, float]]:
    """The unit's models' offsets from their centre, as they stand (on the table or waiting)."""
    ps = [(W.model_id(m), esper.component_for_entity(m, Position)) for m in W.unit_models(ent, living=False)]
    cx = sum(p.x for _m, p in ps) / len(ps)
    cy = sum(p.y for _m, p in ps) / len(ps)
    return [(mid, p.x - cx, p.y - cy) for mid, p in ps]


def _box(poly) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


OPTIONS = 8      # set-ups offered per region
APART = 4.0      # inches between their anchors


def set_up_spots(battle, ent: int, region, pick=None):
    """Each candidate set-up of the unit over the ``region`` polygon: ((model id, x, y), ...),
    by the placement solver: wholly within ``region`` (its deployment zone), or, when it is the
    whole battlefield (``battlefield``), by Infiltrators (24.20); nearest the battlefield's
    centre first, or (``pick``: the random player) toward one point of a 1" grid over the
    region that it draws."""
    from sim.rules.movement.solvers import placement as PL
    models, rg, others, prefer = _set_up_problem(battle, ent, region, pick)
    # (each set-up is put to the rules' check by the player that tries it: Battle.check)
    for p in PL.iter_placements(models, rg, others, battle.scenario.terrain, prefer, count=OPTIONS, apart=APART,
                                checked=False):
        yield tuple((mid, *snap_point(p.positions[mid])) for mid, _f in models)


def turned_spots(battle, ent: int, region, pick=None):
    """``set_up_spots``' set-ups with the unit's vehicles turned (03.01): ((model id, x, y),
    ...), ((model id, degrees), ...) for each placement the solver finds trying facings (its
    own, a quarter and an eighth of a circle either way) that turns some base; none for a unit
    whose bases look the same turned. Tried after every set-up at the bases' own facings, so
    a unit that fits as it stands is set up as before."""
    from sim.rules.movement.solvers import placement as PL
    models, rg, others, prefer = _set_up_problem(battle, ent, region, pick)
    if not PL.turns(models):
        return
    for p in PL.iter_placements(models, rg, others, battle.scenario.terrain, prefer, count=OPTIONS, apart=APART,
                                checked=False, turn=True):
        face = p.face(models)
        if face:
            yield tuple((mid, *snap_point(p.positions[mid])) for mid, _f in models), face


def no_room(battle, ent: int, region) -> str:
    """Why the placement solver finds no set-up of the unit over ``region`` (its refusal's
    sentence: the model that does not fit, the room free and the room needed), or ''."""
    from sim.rules.movement.solvers import placement as PL
    models, rg, others, prefer = _set_up_problem(battle, ent, region, None)
    got = PL.place_unit(models, rg, others, battle.scenario.terrain, prefer,
                        unit=esper.component_for_entity(ent, Unit).name)
    return "" if got else got.reason


def _set_up_problem(battle, ent: int, region, pick):
    from sim.rules.movement.solvers import placement as PL
    from sim.rules.movement.solvers import regions as RG
    board = tuple(battle.scenario.board)
    owner = esper.component_for_entity(ent, Unit).owner
    models = [(W.model_id(m), W.footprint(m)) for m in W.unit_models(ent, living=False)]
    others = W.other_models(ent)
    if tuple(map(tuple, region)) == battlefield(battle):
        zones = battle.turn_state.zones()
        enemies = [(W.model_id(m), W.footprint(m)) for u in W.enemy_units(ent) for m in W.unit_models(u)]
        rg = RG.infiltrators(board, zones[1 - owner], [f for _m, f in enemies], [m for m, _f in enemies])
    else:
        rg = RG.deployment(region, board)
    point = (board[0] / 2, board[1] / 2)
    if pick is not None:
        point = pick(_grid(*_box(region)))
    return models, rg, others, PL.Prefer.toward(point)


@lru_cache(maxsize=16)
def _grid(x0: float, y0: float, x1: float, y1: float) -> tuple:
    """The points of a GRID-inch grid over a box, column by column (a deployment's aim is
    drawn among them), kept per box: a zone's is asked for at every set-up in it."""
    return tuple((x0 + i * GRID, y0 + j * GRID) for i in range(int((x1 - x0) / GRID) + 1)
                 for j in range(int((y1 - y0) / GRID) + 1))


def planned_spot(battle, ent: int):
    """The unit's positions in the scenario file (a deployment it plans), or None."""
    uid = esper.component_for_entity(ent, Unit).id
    spec = next(u for u in battle.scenario.units if u.id == uid)
    return tuple((m.id, m.x, m.y) for m in spec.models) if spec.planned else None


def battlefield(battle) -> tuple:
    W_, H = battle.scenario.board
    return ((0.0, 0.0), (W_, 0.0), (W_, H), (0.0, H))


def scout_spots(battle, ent: int, reach: float, pick=None):
    """24.32 Candidate scout moves of the whole unit (the same vector for every model, so its
    formation is kept) toward the nearest objective that is not the side's home objective
    (``pick``: a random one), all of its reach then 3/4, 1/2 and 1/4 of it, each straight at the
    objective then veering 30 and 60 degrees either way (``pick``: one length and one bearing),
    none under 0.5"."""
    models = W.unit_models(ent)
    ps = [esper.component_for_entity(m, Position) for m in models]
    cx = sum(p.x for p in ps) / len(ps)
    cy = sum(p.y for p in ps) / len(ps)
    side = esper.component_for_entity(ent, Unit).owner
    objs = [o for o in battle.turn_state.objectives if o.owner != side] or list(battle.turn_state.objectives)
    objs.sort(key=lambda o: ((o.x - cx) ** 2 + (o.y - cy) ** 2, o.name))
    if not objs:
        return
    o = objs[0] if pick is None else pick(objs)
    d = math.hypot(o.x - cx, o.y - cy)
    if d < 1e-6:
        return
    base = math.atan2(o.y - cy, o.x - cx)
    turns = [0.0, 30.0, -30.0, 60.0, -60.0]  # straight at it first, then veering round what is in the way
    lengths = [(min(reach, d) - SLACK) * f for f in (1.0, 0.75, 0.5, 0.25)]
    if pick is not None:
        turns, lengths = [pick(turns)], [pick(lengths)]
    for step in lengths:
        if step < 0.5:
            return
        for t in turns:
            a = base + math.radians(t)
            yield tuple((W.model_id(m), snap(p.x + math.cos(a) * step), snap(p.y + math.sin(a) * step))
                        for m, p in zip(models, ps))
