"""Where a move's models may go: the world's models as the pure movement rules read them
(sim.rules.movement.legality, sim.rules.coherency, sim.rules.movement.solvers), and the refusal naming the
model, the rule and the distance that broke it."""

from __future__ import annotations

import math

import esper

from sim.components import Position, Stats, Unit
from sim.errors import PlanError
from sim.rules.movement import legality as ML
from sim.rules import charge as CHG
from sim.rules.abilities import Hook
from sim.rules.movement.moves import FLY, ConsolidationMode, MoveType, dense_crossing, sky_distance, sky_refusal
from sim.rules.movement.solvers import charge as CH
from sim.rules.movement.solvers import pile_in as PI
from sim.world import queries as W
from sim.rules import distance_rows as DR
from sim.world import resources as R
from sim.world import rule_reads as RX

FAR = 10_000.0  # inches: a point this far out is off any battlefield (checked before any arithmetic)
RULE_OF_MODE = {MoveType.NORMAL: "09.05", MoveType.ADVANCE: "09.06", MoveType.FALL_BACK: "09.07"}
PILE_IN = 3.0  # 12.03
CONSOLIDATION = 3.0  # 12.08


def unit_gap(unit_ent: int, others: list[int]) -> float | None:
    """01.04 The closest distance between a living model of the unit and a living model of
    any of ``others`` (None: no such pair). The minimum of the same entries of the distance
    matrix as over every pair of models, read from each unit's nearest distance to ours
    (W.unit_nearest_kept: one pass over the models per layout, not one per question)."""
    near = W.unit_nearest_kept(unit_ent)
    get, best = dict.get, None
    for u in others:
        d = get(near, u)
        if d is not None and (best is None or d < best):
            best = d
    # (a value above FAR may be a far pair's bound: then measured, UnitNearest.closest)
    return best if best is None or best <= DR.FAR else near.closest(others)


def bodies() -> ML.BodyIndex:
    """Every model on the battlefield, where it stands now (an immutable BodyIndex, in model-id
    order), made once per table state: kept on the spatial index until a model is set up, and
    brought up to date after a move (the rows it moved only, BodyIndex.moved) and a removal
    (the rows taken off, BodyIndex.without)."""
    sp = R.current.spatial
    if sp.bodies is None:
        out = []
        fps = sp.fps
        for u in W.all_units():
            unit = esper.component_for_entity(u, Unit)
            lv = W.living(u)
            for mid, row in zip(lv.ids, lv.rows.tolist()):
                out.append(ML.Body(mid, unit.id, unit.owner, fps[row]))
        sp.bodies = ML.BodyIndex(out)
    else:
        if sp.bodies_moved:
            ids = _row_ids(sp)
            sp.bodies = sp.bodies.moved([(ids[i], f) for i, f in sp.bodies_moved.items()])
            sp.bodies_moved = {}
        if sp.bodies_removed:
            ids = _row_ids(sp)
            sp.bodies = sp.bodies.without([ids[i] for i in sorted(sp.bodies_removed)])
            sp.bodies_removed = set()
    return sp.bodies


def coherent_at(unit_ent: int, to) -> bool:
    """03.03 Whether the unit would be in coherency with its models at ``to`` ((model id, x, y)
    each; models not named stay where they are): check 9 of the move checks
    (ML.end_coherency_problems, on the footprints ``check_move`` builds). False: any move of
    the unit ending there is refused, so a player trying moves need not ask for the rest."""
    idx = bodies()
    rows = idx.unit_rows.get(esper.component_for_entity(unit_ent, Unit).id)
    if rows is None:
        return True
    where = {mid: (float(x), float(y)) for mid, x, y in to}
    ids, ends = [], []
    for r in rows.tolist():
        f, p = idx.fps[r], where.get(idx.ids[r])
        ids.append(idx.ids[r])
        ends.append(f if p is None else f.moved(p[0], p[1]))
    return ML.end_coherent(ids, ends)


def _row_ids(sp) -> dict[int, str]:
    """Model index (the spatial index's row) -> model id, for every model of the battle (made
    once: models are created only when the world is built)."""
    ids = sp.row_ids
    if ids is None:
        ids = sp.row_ids = {}
        for u in W.all_units():
            r = W.roster(u)
            ids.update(zip(r.rows, r.ids))
    return ids


def _areas(battle):
    return battle.scenario.terrain


def terrain(battle) -> ML.TerrainIndex:
    """The battle's terrain as the move checks read it (ML.terrain_index, kept per layout)."""
    return ML.terrain_index(_areas(battle))


def paths_of(battle, unit_ent: int, to, via=()) -> dict:
    """Each moving model's path (Part A ruling 14): from where it stands, through its turning
    points if the command gives any (``via``), to where it ends."""
    turns = dict(via)
    paths = {}
    seen = set()
    uid = esper.component_for_entity(unit_ent, Unit).id
    for mid, x, y in to:
        m = battle.models.get(mid)
        if m is None or W.unit_of(m) != unit_ent:
            raise PlanError(f"no model {mid!r} in unit {uid}")
        if mid in seen:
            raise PlanError(f"{mid} is moved twice")
        seen.add(mid)
        if not W.alive(m):
            raise PlanError(f"{mid} is destroyed")
        pos = esper.component_for_entity(m, Position)
        path = ((pos.x, pos.y), *turns.get(mid, ()), (float(x), float(y)))
        for px, py in path[1:]:
            if not (math.isfinite(px) and math.isfinite(py)) or abs(px) > FAR or abs(py) > FAR:
                raise PlanError(f"{mid} would go off the battlefield, to ({px:g}, {py:g}) (03.01)")
        paths[mid] = path
    return paths


def facings_of(battle, unit_ent: int, face, to) -> dict[str, float]:
    """03.01 The facings ``face`` ((model id, degrees), ...) turns models of the unit to: each
    a living model of the unit with a base that is not round (a round base has no facing to
    turn), once, among the models ``to`` places (one turned where it stands is placed where it
    stands)."""
    out: dict[str, float] = {}
    placed = {t[0] for t in to}
    uid = esper.component_for_entity(unit_ent, Unit).id
    for mid, angle in face:
        m = battle.models.get(mid)
        if m is None or W.unit_of(m) != unit_ent:
            raise PlanError(f"no model {mid!r} in unit {uid} to turn")
        if mid in out:
            raise PlanError(f"{mid} is turned twice")
        if not math.isfinite(angle):
            raise PlanError(f"{mid} would turn to {angle:g} degrees: a facing is a finite number of degrees (03.01)")
        if W.footprint(m).shape == "round":
            raise PlanError(f"{mid} has a round base: it has no facing to turn (03.01)")
        if mid not in placed:
            raise PlanError(f"{mid} is turned but not placed: give its end position in 'to' (where it stands, "
                            f"to turn it in place)")
        out[mid] = float(angle)
    return out


def set_up_footprints(battle, unit_ent: int, to, face=()) -> list[tuple[str, object]]:
    """03.02 / 03.01 Each base where a set-up places it: (model id, its footprint at the
    position ``to`` gives it, turned as ``face`` says (``facings_of``), else as it faces), in
    ``to``'s order; PlanError for a facing ``facings_of`` refuses, or a position off any
    battlefield (not finite, or beyond FAR: checked before any arithmetic)."""
    from sim.rules.geometry import footprint
    turns = facings_of(battle, unit_ent, face, to) if face else {}
    fps = []
    for mid, x, y in to:
        if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > FAR or abs(y) > FAR:
            raise PlanError(f"{mid} would be set up off the battlefield, at ({x:g}, {y:g}) (03.02)")
        b = W.footprint(battle.models[mid])
        fps.append((mid, footprint(b.shape, x, y, b.length, b.width, turns.get(mid, b.angle))))
    return fps


def _angles(battle, unit_ent: int, cmd) -> dict[str, float] | None:
    """The end facings a command's ``face`` turns its models to (``facings_of``), or None."""
    face = getattr(cmd, "face", ())
    return facings_of(battle, unit_ent, face, cmd.to) if face else None


def may_cross_dense(unit_ent: int, move: str | None = None) -> bool | float:
    """13.06 / 24.35 / Part A ruling 12 (sim.rules.movement.moves.dense_crossing): which dense
    features the unit may cross on the ground in a ``move`` move: every one for INFANTRY,
    BEASTS, SWARM and MOBILE; those of 4" or less for a Super-heavy Walker's normal, advance or
    fall-back move; otherwise those given a height of 2" or less. Kept with the unit's living
    models (W.Living.memo: their keywords and abilities decide it)."""
    memo = W.living(unit_ent).memo
    key = ("may cross dense", move)
    got = memo.get(key)
    if got is None:
        models = W.unit_models(unit_ent)
        walker = bool(models) and all(any(Hook.CROSSES_TALLER in a.spec.hooks for a in W.model_abilities(m))
                                      for m in models)
        got = memo[key] = dense_crossing(W.unit_keywords(unit_ent), move, super_heavy_walker=walker)
    return got


def can_fly(unit_ent: int) -> bool:
    """21.03 A FLY unit (02.05.01: a unit has every keyword of its models) may take to the skies."""
    return FLY in W.unit_keywords(unit_ent)


def hovers(unit_ent: int) -> bool:
    """24.17 Hover: every model of the unit has it (then taking to the skies costs nothing)."""
    models = W.unit_models(unit_ent)
    return bool(models) and all(any(Hook.NO_SKY_PENALTY in a.spec.hooks for a in W.model_abilities(m))
                                for m in models)


def check_sky(unit_ent: int, fly: bool, move: str) -> None:
    """21.03 A move made taking to the skies: refused unless the unit has FLY and the move is
    a normal, advance, fall-back or charge move."""
    if fly:
        problem = sky_refusal(esper.component_for_entity(unit_ent, Unit).id, W.unit_keywords(unit_ent), move)
        if problem:
            raise PlanError(problem)


def path_rules(unit_ent: int, fly: bool, through_enemies: bool = False, move: str | None = None) -> dict:
    """Part A rulings 12 and 14, 21.03: what a unit's paths may cross in a ``move`` move. On the
    ground, dense features as ``may_cross_dense`` says, and enemy bases only where the move
    allows (``through_enemies``: Desperate Escape); taking to the skies, every model and every
    terrain feature."""
    if fly:
        return {"may_cross_dense": True, "through_enemies": True}
    return {"may_cross_dense": may_cross_dense(unit_ent, move), "through_enemies": through_enemies}


def move_limit(unit_ent: int, model_ent: int, mode: str, roll: int | None, fly: bool, battle=None) -> float:
    """09.05-09.07, 03.01.01, 21.03/24.17 A model's maximum distance in a ``mode`` move: its M
    (with the rules' modifiers, ``battle`` given: sim.world.rule_reads.move_of), plus the
    advance roll in an advance (``roll``), 2" less taking to the skies (not with Hover)."""
    M = esper.component_for_entity(model_ent, Stats).M if battle is None else RX.move_of(battle, unit_ent, model_ent)
    limit = float(M + ((roll or 0) if mode == MoveType.ADVANCE else 0))
    return sky_distance(limit, hovers(unit_ent)) if fly else limit


def charge_limit(unit_ent: int, roll: int, fly: bool) -> float:
    """11.04, 21.03/24.17 A charge's maximum distance: the charge roll, 2" less taking to the
    skies (not with Hover): ``sim.rules.charge.max_distance`` for the unit."""
    return CHG.max_distance(roll, fly=fly, hover=fly and hovers(unit_ent))


def charge_reach(unit_ent: int, roll: int, fly: bool, cap: float = CHG.CHARGE_RANGE) -> float:
    """11.04 How far away the unit's charge targets may be: within 12" (``cap``) and within
    the maximum distance (``charge_limit``): ``sim.rules.charge.reach`` for the unit."""
    return CHG.reach(roll, fly=fly, hover=fly and hovers(unit_ent), cap=cap)


def _refuse(problems) -> None:
    if problems:
        raise PlanError(str(problems[0]) + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


def check_unit_move(battle, unit_ent: int, cmd, selected: str | None) -> None:
    """09.05-09.07 with 03.01: each model at most M (advance: M + the advance roll; in free
    play without a roll yet, M + 6; taking to the skies, 2" less unless Hover, 21.03/24.17),
    paths clear of enemy bases (Desperate Escape may pass through them; taking to the skies
    passes through every model and feature) and the board edge, no end on another base or in
    a light or dense feature, unengaged at the end, and the unit coherent (03.03)."""
    check_sky(unit_ent, cmd.fly, cmd.mode)
    _refuse(unit_move_problems(battle, unit_ent, cmd, selected))


def unit_move_problems(battle, unit_ent: int, cmd, selected: str | None) -> list:
    """Every problem (``ML.MoveProblem``, each naming its model) ``check_unit_move`` finds with
    where ``cmd`` puts the models (a front end shows each model's own verdict with them)."""
    st = W.unit_state(unit_ent)
    roll = (st.advance_roll if st.advance_roll is not None else 6) if cmd.mode == MoveType.ADVANCE else None
    paths = paths_of(battle, unit_ent, cmd.to, cmd.via)
    limits = {mid: move_limit(unit_ent, battle.models[mid], cmd.mode, roll, cmd.fly, battle) for mid in paths}
    angles = _angles(battle, unit_ent, cmd)
    return ML.check_move(
        esper.component_for_entity(unit_ent, Unit).id, paths, bodies(), _areas(battle),
        battle.scenario.board, max_distance=limits, rule=RULE_OF_MODE[cmd.mode],
        **path_rules(unit_ent, cmd.fly, selected == "desperate escape", cmd.mode), end_unengaged=True,
        angles=angles)


def check_scout_move(battle, unit_ent: int, cmd, distance: float) -> None:
    """24.32 A scout move: each model at most the unit's Scouts distance, with a normal move's
    paths and ends (03.01: clear of enemy bases and the board edge, no end on another base or
    in a light or dense feature, unengaged, the unit coherent). Where it must end (more than
    8" from every enemy unit) is sim.rules.pre_battle's."""
    paths = paths_of(battle, unit_ent, cmd.to, cmd.via)
    _refuse(ML.check_move(
        esper.component_for_entity(unit_ent, Unit).id, paths, bodies(), _areas(battle),
        battle.scenario.board, max_distance={mid: distance for mid in paths}, rule="24.32",
        **path_rules(unit_ent, False), end_unengaged=True,
        angles=_angles(battle, unit_ent, cmd)))


def check_charge(battle, unit_ent: int, cmd, roll: int) -> None:
    """11.04 The charge move: at most the charge roll (taking to the skies, 2" less unless
    Hover, and through every model and feature: 21.03/24.17), 03.01 paths and ends, and the
    11.04 conditions (closer to a target; within 1"/engaged where possible; engaged with every
    target and no other enemy unit; coherent)."""
    uid = esper.component_for_entity(unit_ent, Unit).id
    paths = paths_of(battle, unit_ent, cmd.to, cmd.via)
    _refuse(CH.check_charge(uid, tuple(cmd.targets), paths, bodies(), _areas(battle), battle.scenario.board,
                            roll=charge_limit(unit_ent, roll, cmd.fly), **path_rules(unit_ent, cmd.fly),
                            angles=_angles(battle, unit_ent, cmd)))


def check_pile_in(battle, unit_ent: int, cmd) -> None:
    """12.03 The pile-in move and its conditions, against its targets: those the command
    selects (``cmd.targets``: every engaged enemy unit; if unengaged, one or more of the enemy
    units within 5"), or, when it selects none, every one it may (Part A ruling 18)."""
    uid = esper.component_for_entity(unit_ent, Unit).id
    body = bodies()
    targets = list(getattr(cmd, "targets", ())) or PI.pile_in_targets(uid, body)
    if not targets:
        raise PlanError(f"{uid} has no pile-in target: no enemy unit engaged or within 5\" (12.03)")
    _refuse(PI.check_pile_in(uid, targets, paths_of(battle, unit_ent, cmd.to, cmd.via), body, _areas(battle),
                             battle.scenario.board, may_cross_dense=may_cross_dense(unit_ent),
                             angles=_angles(battle, unit_ent, cmd)))


def check_consolidate(battle, unit_ent: int, cmd) -> None:
    """12.08 The consolidation move in its compulsory mode (ongoing, engaging, objective), and
    its conditions, toward what the command selects (``cmd.targets``, the enemy units of an
    engaging consolidation; ``cmd.objective``, an objective consolidation's objective by name)
    or, when it selects nothing, what Part A ruling 18 would."""
    uid = esper.component_for_entity(unit_ent, Unit).id
    body = bodies()
    objs = objectives(battle)
    mode = PI.consolidation_mode(uid, body, objs)
    if mode is None:
        raise PlanError(f"{uid} is not engaged and has no enemy unit or objective within 3\": "
                        f"no consolidation mode applies (12.08)")
    kind, targets, obj = mode
    if kind == ConsolidationMode.OBJECTIVE and cmd.targets:
        raise PlanError(f"{uid} is not engaged and has no enemy unit within 3\": its consolidation is an "
                        f"objective consolidation, which selects an objective, not enemy units (12.08)")
    if kind != ConsolidationMode.OBJECTIVE and cmd.objective is not None:
        raise PlanError(f"{uid}'s consolidation is {kind} (an enemy unit is engaged or within 3\"): it selects "
                        f"enemy units, not an objective (12.08)")
    if cmd.targets:
        targets = list(cmd.targets)
    if cmd.objective is not None:
        obj = objective_index(battle, cmd.objective)
    _refuse(PI.check_consolidation(uid, kind, targets, None if obj is None else objs[obj],
                                   paths_of(battle, unit_ent, cmd.to, cmd.via), body, _areas(battle),
                                   battle.scenario.board, may_cross_dense=may_cross_dense(unit_ent),
                                   angles=_angles(battle, unit_ent, cmd)))


def objective_index(battle, name: str) -> int:
    """The index of the battle's objective called ``name`` (PlanError naming them otherwise)."""
    objs = objectives(battle)
    for k, o in enumerate(objs):
        if o.name == name:
            return k
    raise PlanError(f"no objective {name!r} (the objectives: {', '.join(o.name for o in objs) or 'none'}) (14.01)")


def objectives(battle) -> list:
    """14.01 The battle's objectives (sim.rules.objectives.Objective: markers, and terrain
    objectives carrying their area), in the mission's order; none in free play."""
    ts = battle.turn_state
    return [] if ts is None else list(ts.objectives)


def solution_ends(solution) -> tuple:
    """Each moving model's end of the solver's paths, for the command (its spots are on the
    measuring grid already: the solver tested the very points the command carries)."""
    return tuple((mid, float(p[-1][0]), float(p[-1][1])) for mid, p in sorted(solution.paths.items()))


def solution_turns(solution) -> tuple:
    """The turning points of the solver's paths (Part A ruling 14), for the command."""
    return tuple((mid, tuple((float(x), float(y)) for x, y in p[1:-1]))
                 for mid, p in sorted(solution.paths.items()) if len(p) > 2)
