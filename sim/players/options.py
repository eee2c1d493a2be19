"""What a side can do now, as candidate commands for the headless players (not yet checked:
a player checks each with Battle.check before choosing it). The default policies of Part A
rulings 16-29 live here, so the scripted, default and random players share them."""

from __future__ import annotations

import math
import weakref

import esper
import numpy as np

from sim.commands import Fight, Move, SelectToMove, Selection
from sim.components import Position, Stats, Unit
from sim.plan import moves as MV
from sim.plan.common import could_shoot
from sim.plan.fight import fight_eligible, fights_first, nearest_fight_target, selectable_melee
from sim.plan.shoot_targets import shooters_of
from sim.rules import multi_profile as MP
from sim.rules.arrays import count_true
from sim.rules.attack import AttackKind
from sim.rules.compiled import kernel
from sim.rules.geometry import ENGAGEMENT_RANGE
from sim.rules.grid import AIM_MARGIN, snap_key, snap_shifted
from sim.rules.movement import legality as ML
from sim.rules.movement.moves import sky_distance
from sim.scenario.script_run import attack_action, expand
from sim.scenario.spec import ScriptStep
from sim.world import queries as W
from sim.world import rule_reads as RX
from sim.commands import MOVE, SCOUT_MOVE, overrun_command
from sim.rules.pre_battle import SCOUT_END_DISTANCE


_OWN: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # spatial index -> _Kept


class _Kept:
    """What the players' lists of units are made from, kept per spatial index: each side's
    units (fixed: units are made only when the world is built), and the lists that depend on
    who is on the battlefield only (kept while its presence_version stands: every set-up,
    removal, embarkation or disembarkation bumps it; a move does not)."""

    __slots__ = ("side_units", "presence", "own", "states", "embarked", "off")

    def __init__(self) -> None:
        self.side_units: dict[int, list[int]] = {}
        self.presence = -1
        self.own: dict[int, list[int]] = {}       # side -> own_units
        self.states: dict[int, tuple] = {}        # side -> own_unit_states
        self.embarked: dict[int, list[int]] = {}  # side -> its units embarked in a transport
        self.off: dict[int, list[int]] = {}       # side -> its units off the battlefield


def _kept(side: int) -> tuple[_Kept, list[int]]:
    sp = W.spatial()
    kept = _OWN.get(sp)
    if kept is None:
        kept = _OWN[sp] = _Kept()
    if kept.presence != sp.presence_version:
        kept.presence = sp.presence_version
        kept.own, kept.states, kept.embarked, kept.off = {}, {}, {}, {}
    units = kept.side_units.get(side)
    if units is None:
        units = kept.side_units[side] = [u for u in W.all_units()
                                         if esper.component_for_entity(u, Unit).owner == side]
    return kept, units


def own_units(battle, side: int) -> list[int]:
    """The side's units with a model on the battlefield, in unit order (kept while the spatial
    index's presence_version stands: every set-up and removal bumps it; a move changes none)."""
    kept, units = _kept(side)
    got = kept.own.get(side)
    if got is None:
        got = kept.own[side] = [u for u in units if not W.unit_destroyed(u)]
    return list(got)


def own_unit_states(battle, side: int) -> tuple:
    """``own_units`` with each unit's UnitState, (unit, state) in unit order, kept as they are
    (a unit's state is one object, changed in place, for as long as the unit is on the
    battlefield: only a unit brought back from destruction gets a new one, in reserves, off the
    battlefield: a bump of the presence_version the list is kept by). For a player reading every
    unit's state at each choice (the random player's options, in every phase): no lookup a unit. A
    tuple: the kept one itself, which no caller can change."""
    kept, _units = _kept(side)
    got = kept.states.get(side)
    if got is None:
        got = kept.states[side] = tuple((u, W.unit_state(u)) for u in own_units(battle, side))
    return got


def uid(u: int) -> str:
    return esper.component_for_entity(u, Unit).id


def centroid(u: int) -> tuple[float, float]:
    ps = [esper.component_for_entity(m, Position) for m in W.unit_models(u)]
    return (sum(p.x for p in ps) / len(ps), sum(p.y for p in ps) / len(ps))


def enemies_by_distance(u: int) -> list[int]:
    """Enemy units, nearest first (ties: unit order, Part A ruling 29)."""
    out = []
    for i, e in enumerate(W.enemy_units(u)):
        gap = MV.unit_gap(u, [e])
        if gap is not None:
            out.append((snap_key(gap), i, e))
    return [e for _g, _i, e in sorted(out)]


def translate(battle, u: int, dx: float, dy: float) -> tuple:
    """Every model of the unit moved by (dx, dy): the formation kept (each place on the grid:
    grid.snap_shifted). Where the unit's models stand is kept on the spatial index while its
    version stands (every move, set-up and removal bumps it): a player tries many shifts of
    one unit between two commands."""
    sp = W.spatial()
    kept = sp.unit_places
    if kept is None or kept[0] != sp.version:
        kept = sp.unit_places = (sp.version, {})
    places = kept[1].get(u)
    if places is None:
        places = kept[1][u] = [(W.model_id(m), p.x, p.y) for m in W.unit_models(u)
                               for p in (esper.component_for_entity(m, Position),)]
    return snap_shifted(places, dx, dy)


def _steps_toward(u: int, goal: tuple[float, float], reach: float) -> list:
    """(length, dx, dy) of the whole-unit steps toward ``goal``, longest first: all of the way
    (at most ``reach``), then 3/4, 1/2 and 1/4 of it, none under 0.5"."""
    cx, cy = centroid(u)
    dx, dy = goal[0] - cx, goal[1] - cy
    d = math.hypot(dx, dy)
    if d < 1e-6:
        return []
    out = []
    for f in (1.0, 0.75, 0.5, 0.25):
        step = min(reach, d) * f
        if step < 0.5:
            break
        out.append((step, dx / d * step, dy / d * step))
    return out


def moves_toward(battle, u: int, goal: tuple[float, float], mode: str, extra: int = 0) -> list:
    """The default player's candidate moves of the whole unit toward ``goal``, the same vector
    for every model (coherency kept): on the ground up to the unit's lowest M and, for a FLY
    unit, taking to the skies up to that less 2" (21.03; all of it with Hover, 24.17), merged
    longest first, the ground move first at equal length. The player takes the first legal
    one, so a FLY unit flies only when no ground move as long is legal (a wall or a unit in
    the way). ``extra``: inches more than M (an advance's roll, 09.06). Each step aims
    AIM_MARGIN short of its length (sim.rules.grid): a step of all of M, its ends snapped to the
    grid, could otherwise take a model a snap beyond M, and the rules refuse it (03.01)."""
    out = []
    for fly, sx, sy in steps_toward(battle, u, goal, extra):
        length = math.hypot(sx, sy)   # (at least 0.5")
        k = (length - AIM_MARGIN) / length
        out.append(Move(uid(u), translate(battle, u, sx * k, sy * k), mode, fly=fly))
    return out


def with_turns(battle, u: int, moves: list) -> list:
    """``moves`` (a unit's whole-unit moves, in the order tried) each followed by itself with
    the unit's vehicles turned to lie along its step (``turned_moves``): a player that takes
    the first legal one moves a vehicle as far turned as it could as it stands, and turns it
    only where that takes it further (a long hull through a gap lengthwise). ``moves`` itself
    for a unit none of whose bases looks different turned."""
    turned = dict(zip(map(id, moves), turned_moves(battle, u, moves, keep=True)))
    out = []
    for m in moves:
        out.append(m)
        t = turned.get(id(m))
        if t is not None:
            out.append(t)
    return out


def turned_moves(battle, u: int, moves: list, keep: bool = False) -> list:
    """``moves`` (a unit's whole-unit moves) with each of its vehicles turned to lie along its
    step (03.01: a rotation is free; the check turns it where it is clear, at the end of its
    path or its start). Empty for a unit none of whose bases looks different turned; a move
    whose turn changes nothing, or cannot make it legal (``turn_futile``: the check would
    refuse it at every facing), is left out (``keep``: None in its place)."""
    from sim.rules.grid import snap_facing
    from sim.rules.movement.turning import turnable, turned
    hulls = [(W.model_id(m), W.footprint(m)) for m in W.unit_models(u)]
    hulls = [(mid, fp) for mid, fp in hulls if turnable(fp)]
    if not hulls:
        return []
    out = []
    for cmd in moves:
        ends = {mid: (x, y) for mid, x, y in cmd.to}
        face = []
        for mid, fp in hulls:
            if mid not in ends:
                continue
            dx, dy = ends[mid][0] - fp.x, ends[mid][1] - fp.y
            if math.hypot(dx, dy) < 1e-6:
                continue
            a = snap_facing(math.degrees(math.atan2(dy, dx)))
            if turned(fp, a):
                face.append((mid, a))
        if face and not turn_futile(battle, cmd):
            out.append(Move(cmd.unit, cmd.to, cmd.mode, cmd.via, cmd.fly, cmd.embark, tuple(face)))
        elif keep:
            out.append(None)
    return out


def steps_toward(battle, u: int, goal: tuple[float, float], extra: int = 0) -> list:
    """(fly, dx, dy) of each of moves_toward's moves, in its order (the vectors alone, each its
    step's whole length, for a player that builds its own moves from them and aims them inside
    the unit's reach its own way)."""
    reach = min_move(u, battle) + extra
    cands = [(-step, 0, sx, sy) for step, sx, sy in _steps_toward(u, goal, reach)]
    if MV.can_fly(u):
        sky = sky_distance(reach, MV.hovers(u))
        cands += [(-step, 1, sx, sy) for step, sx, sy in _steps_toward(u, goal, sky)]
    cands.sort(key=lambda c: (c[0], c[1]))
    return [(bool(fly), sx, sy) for _s, fly, sx, sy in cands]


QUICK_MARGIN = 1e-3  # inches: how clearly over a limit quick_refusal wants a base before it says so
# (the model ids of the BodyIndex last read, each base's inscribed radius, the largest, and the
# radii as a list)
_INNER: list = [None, None, 0.0, []]


def _inner_radii(idx) -> np.ndarray:
    """Half the smaller side of each base of the BodyIndex: a disc about its centre that the
    base holds whatever its shape and facing (kept for the models of the last index read: a
    move makes a new index of the same models, BodyIndex.moved, sharing their ids list, and
    a base keeps its sizes as it moves)."""
    if _INNER[0] is not idx.ids:
        _INNER[0], _INNER[1] = idx.ids, np.array([0.5 * min(f.length, f.width) for f in idx.fps], dtype=float)
        _INNER[2] = float(_INNER[1].max()) if len(_INNER[1]) else 0.0
        _INNER[3] = _INNER[1].tolist()
    return _INNER[1]


def quick_refusal(battle, cmd) -> bool:
    """A quick, conservative look at a Move or a scout move before Battle.check
    (sim.plan.moves.check_unit_move, sim.commands.deploy's scout check): True only when the
    rules would certainly refuse it, from where it ends: a model's base over the battlefield
    edge (03.01), overlapping a model of another unit (03.01), or within engagement range of an
    enemy model (a normal, advance or fall-back move ends unengaged: 09.05-09.07; a scout move,
    within 8": 24.32), judged by the discs the bases hold (half the smaller side) and by more
    than QUICK_MARGIN; or a round base over a light or dense feature at its end, or crossing a
    dense feature on its way (_features_refuse). False says nothing: the command is checked as
    ever. A player trying moves skips the check of one it says True of; the verdict would be
    the same."""
    if cmd.record is MOVE:
        enemy_gap = ENGAGEMENT_RANGE
    elif cmd.record is SCOUT_MOVE:
        enemy_gap = SCOUT_END_DISTANCE
    else:
        return False
    to = cmd.to
    if not to:
        return False
    idx = MV.bodies()
    rows = idx.unit_rows.get(cmd.unit)
    if rows is None or not len(idx.ids):
        return False
    try:
        row = idx.row
        moved = [row[m] for m, _x, _y in to]
        xs = [float(x) for _m, x, _y in to]
        ys = [float(y) for _m, _x, y in to]
    except (KeyError, TypeError, ValueError):
        return False  # (not a plain move of the unit's models: the check says what is wrong)
    if not (all(map(math.isfinite, xs)) and all(map(math.isfinite, ys))):
        return False  # (not a place on the table: the check says what is wrong)
    inner = _inner_radii(idx)
    rs = [_INNER[3][k] for k in moved]
    bw, bh = battle.scenario.board
    low = -QUICK_MARGIN
    # (the board's edges, model by model in plain floats: a move has a few models)
    for x, y, r in zip(xs, ys, rs):
        if x - r < low or y - r < low or bw - x - r < low or bh - y - r < low:
            return True
    # (only the models whose centres lie within a box about the move's ends can overlap it or
    # be within engagement range: a centre farther off on either axis is farther than any gap
    # _bases_refused looks for, so leaving it out changes neither answer)
    reach = max(rs) + _INNER[2] + enemy_gap + 1.0
    pts = np.array([xs, ys]).T
    if _bases_refused(pts, inner[moved], idx.centres, inner, idx.players, rows, min(xs) - reach,
                      max(xs) + reach, min(ys) - reach, max(ys) + reach, enemy_gap, QUICK_MARGIN):
        return True
    return _features_refuse(battle, cmd, idx, moved, pts)


def _bases_refused(pts: np.ndarray, r: np.ndarray, centres: np.ndarray, inner: np.ndarray,
                   players: np.ndarray, rows: np.ndarray, x0: float, x1: float, y0: float, y1: float,
                   enemy_gap: float, margin: float) -> bool:
    """03.01 / 09.05-09.07 quick_refusal's look at the other models' bases: whether a disc of
    radius ``r[k]`` at ``pts[k]`` (K, 2), a model of the move at its end, overlaps by more than
    ``margin`` the disc held by another model's base (``centres`` (N, 2), ``inner`` (N,)), or
    comes within ``enemy_gap`` less ``margin`` of an enemy's (``players[j]`` another than the
    moving unit's, ``players[rows[0]]``), edge to edge: ``(hypot - r) - inner`` for each pair.
    Only the models whose centres lie in the box [x0, x1] x [y0, y1] (bounds included) and are
    not the moving unit's (``rows``) are looked at."""
    others = (centres[:, 0] >= x0) & (centres[:, 0] <= x1)
    others &= (centres[:, 1] >= y0) & (centres[:, 1] <= y1)
    others[rows] = False
    if not count_true(others):
        return False
    c = centres[others]
    gap = (np.hypot(pts[:, 0:1] - c[None, :, 0], pts[:, 1:2] - c[None, :, 1]) - r[:, None]
           - inner[others][None, :])
    if count_true(gap < -margin):
        return True
    enemy = players[others] != players[rows[0]]
    return bool(count_true(gap[:, enemy] < enemy_gap - margin))


# (its compiled twin runs where built: sim.rules.compiled)
_bases_refused = kernel("movement.bases_refused", _bases_refused)


def _features_refuse(battle, cmd, idx, moved: list[int], pts: np.ndarray) -> bool:
    """quick_refusal's look at the terrain, for the round bases of the move: one that would end
    over a light or dense feature, or whose straight path would cross a dense feature the move
    may not cross (ML.round_features_refuse: the check's own kernels, by more than
    QUICK_MARGIN). A move taking to the skies crosses every feature; a path with turning
    points is left to the check."""
    rnd = idx.round[moved]
    if not count_true(rnd):
        return False
    rows = np.asarray(moved, dtype=np.int64)[rnd]
    may = None
    if not cmd.via and not (cmd.record is MOVE and cmd.fly):
        u = battle.units[cmd.unit]
        may = MV.may_cross_dense(u, cmd.mode) if cmd.record is MOVE else MV.may_cross_dense(u)
    return ML.round_features_refuse(idx.centres[rows], pts[rnd], idx.radius[rows], MV.terrain(battle), may,
                                    QUICK_MARGIN)


def turn_futile(battle, cmd) -> bool:
    """03.01 A quick, conservative look before a Move's turned twin is checked
    (``turned_moves``): True only when the move would be refused at every facing, from the
    disc each moving base holds whatever its facing (half its smaller side): one would end over
    a light or dense feature, or its straight path would cross a dense feature the move may not
    cross (ML.round_features_refuse: the check's own kernels, by more than QUICK_MARGIN). A
    base turned at either end of its path still holds that disc all along it, so turning it
    cannot help. False says nothing (the turned move is checked as ever)."""
    if cmd.record is not MOVE or not cmd.to or cmd.via or cmd.fly:
        return False
    idx = MV.bodies()
    try:
        moved = [idx.row[m] for m, _x, _y in cmd.to]
        pts = np.array([[float(x), float(y)] for _m, x, y in cmd.to])
    except (KeyError, TypeError, ValueError):
        return False
    if not np.isfinite(pts).all():
        return False
    rows = np.asarray(moved, dtype=np.int64)
    u = battle.units[cmd.unit]
    return ML.round_features_refuse(idx.centres[rows], pts, _inner_radii(idx)[rows], MV.terrain(battle),
                                    MV.may_cross_dense(u, cmd.mode), QUICK_MARGIN)


def objective_goal(battle, u: int, side: int):
    """Part A ruling 27's idea for any unit: the nearest objective its side does not control
    (else the nearest objective; else the nearest enemy unit)."""
    ts = battle.turn_state
    cx, cy = centroid(u)
    objs = list(ts.objectives) if ts is not None else []
    if objs:
        mine = {n for n, c in ts.control.items() if c.controller == side}
        pool = [o for o in objs if o.name not in mine] or objs
        o = min(pool, key=lambda o: (snap_key(math.hypot(o.x - cx, o.y - cy)), o.name))
        return (o.x, o.y)
    near = enemies_by_distance(u)
    return centroid(near[0]) if near else None


def min_move(u: int, battle=None) -> int:
    """The unit's lowest Move characteristic (with the rules' modifiers, ``battle`` given:
    sim.world.rule_reads.move_of)."""
    if battle is not None and RX.RE.any_rules():
        return min(RX.move_of(battle, u, m) for m in W.unit_models(u))
    return min(esper.component_for_entity(m, Stats).M for m in W.unit_models(u))


def qualifies_to_shoot(u: int, battle=None) -> bool:
    """10.02 step 2: the unit qualifies for some shooting type (the plan's own verdict,
    sim.plan.shoot_targets Shooters.types, with what the rules give it, ``battle`` given:
    sim.plan.rule_effects.shooter_rules): a Shoot that asks for no type is refused otherwise
    (an advanced unit without [ASSAULT] weapons...), so a player need not build one."""
    rules = None
    if battle is not None and RX.RE.any_rules():
        from sim.plan.rule_effects import shooter_rules
        rules = shooter_rules(battle, u)
    return shooters_of(u).types(W.unit_engaged(u), W.unit_state(u), rules)[1] is not None


def may_shoot_now(battle, u: int) -> bool:
    """Whether ``u`` could be selected to shoot now with a target (10.02): on the battlefield,
    not yet selected to shoot, qualifying for a shooting type (``qualifies_to_shoot``), with an
    enemy unit ``could_shoot`` accepts (visible and within reach). A necessary condition, never
    the rule itself (Battle.check decides): a side with no such unit has nothing to do in its
    Shooting phase (the sandbox's skipping of empty phases asks it)."""
    if W.unit_destroyed(u) or W.off_table(u) or W.unit_state(u).selected_to_shoot:
        return False
    return qualifies_to_shoot(u, battle) and bool(could_shoot(battle, u, W.enemy_units(u)))


def shoot_at(battle, u: int, target: int, pick=None):
    """A Shoot: every ranged weapon of the unit at ``target`` (the shorthand, 04.02: models
    that cannot use a weapon there leave it out); None if no model can shoot it. Of each
    multi-profile weapon the unit's models fire the first profile listed, or the one ``pick``
    chooses (a function from the weapon's profiles, in order, to one: called once per such
    weapon of the unit, in the order first carried; 04.01.03)."""
    weapons = set()
    choose = unit_chooser(pick)
    for m in W.unit_models(u):
        loadout = [w for w in W.weapons_of(m) if not w.is_melee]
        weapons |= {w.name for w in (MP.pick_profiles(loadout, choose) if loadout else ())}
    if not weapons:
        return None
    step = ScriptStep(attack_action(AttackKind.SHOOTING, uid(u), {w: {uid(target): None} for w in sorted(weapons)}),
                      {}, "policy")
    return expand(battle, step)


def unit_chooser(pick=None):
    """04.01.03 A chooser of one profile per multi-profile weapon for a whole unit (for
    sim.rules.multi_profile.pick_profiles): the first profile listed, or the one ``pick``
    chooses among them, asked once per weapon."""
    chosen: dict = {}  # multi-profile weapon -> the profile picked for the unit

    def choose(profiles):
        w = profiles[0].weapon
        if w not in chosen:
            chosen[w] = profiles[0] if pick is None else pick(profiles)
        return chosen[w]
    return choose


def shoot_command(battle, u: int, target: int, pick=None):
    exp = shoot_at(battle, u, target, pick)
    return None if exp is None else exp.command


def default_fight(battle, u: int, pick=None) -> Fight:
    """12.04/04.01 Each model fights with its first melee weapon (and its [EXTRA ATTACKS]
    weapons; of a multi-profile weapon its first profile, or the one ``pick`` chooses for the
    unit as in shoot_at, 04.01.03), which the plan requires) at the nearest enemy unit engaged with it; a model
    engaged with none makes no attacks."""
    sels = []
    choose = unit_chooser(pick)
    enemies = W.engaged_with(u)
    used = W.unit_state(u).used_one_shot
    for m in W.unit_models(u):
        mid = W.model_id(m)
        target = nearest_fight_target(m, enemies)
        if target is None:
            continue
        # (of a multi-profile weapon, its first profile listed, 04.01.03; not a [ONE SHOT]
        # weapon fired already, 24.26)
        melee = MP.pick_profiles(selectable_melee(m, mid, used), choose)
        if not melee:
            continue
        main = next((w for w in melee if not _extra(w)), None)
        chosen = ([main] if main is not None else []) + [w for w in melee if _extra(w)]
        for w in chosen:
            sels.append(Selection(mid, w.name, uid(target)))
    return Fight(uid(u), tuple(sels))


def _extra(w) -> bool:
    from sim.rules.abilities import Hook
    return w.has(Hook.EXTRA_WEAPON)


def fight_command(battle, u: int):
    """12.05 / 12.06 The default fight of a unit picked to fight: a normal fight
    (default_fight) while it is engaged, else an overrun fight (overrun_command), whose own
    fight follows as the unit's owed fight (pending_fight)."""
    if battle.turn_state is not None and not W.unit_engaged(u):
        return overrun_command(battle, uid(u), None)
    return default_fight(battle, u)


def pending_fight(battle, side: int) -> int | None:
    """12.06 / 12.08 A unit of this side that must fight now: one selected for an overrun
    fight (its pile-in made), or one a consolidation engaged."""
    ts = battle.turn_state
    if ts.overrun is not None:
        return ts.overrun if esper.component_for_entity(ts.overrun, Unit).owner == side else None
    if ts.pending_fights and esper.component_for_entity(ts.pending_fights[0], Unit).owner == side:
        return ts.pending_fights[0]
    return None


def owed_fight(battle, u: int, pick=None):
    """The command for a unit that must fight now (pending_fight): its fight once its overrun
    pile-in is made (12.06); a unit a consolidation engaged (12.08: selected to fight, one at a
    time) that is no longer engaged when its pick comes (the unit that engaged it destroyed)
    may only make an overrun fight (12.06), engaged it makes a normal one (default_fight)."""
    ts = battle.turn_state
    if ts.overrun != u and not W.unit_engaged(u):
        return overrun_command(battle, uid(u), None)
    return default_fight(battle, u, pick)


def fight_pick(battle, side: int) -> int | None:
    """12.04 The unit a side picks to fight now: its first eligible unit (Fights First units
    first while step 1 lasts; ties: unit order, Part A ruling 29)."""
    ts = battle.turn_state
    eligible = fight_eligible(battle, side)
    if ts.fights_first_step:
        ff = [u for u in eligible if fights_first(u, battle)]
        eligible = ff or eligible
    return eligible[0] if eligible else None



def stationary(u: int) -> SelectToMove:
    return SelectToMove(uid(u), "stationary")



def embarked_units(battle, side: int) -> list[int]:
    """18.04 The side's units embarked in a transport on the battlefield, alive and not yet
    selected to move this phase, in unit order."""
    kept, units = _kept(side)
    inside = kept.embarked.get(side)  # (embarking and disembarking bump presence_version)
    if inside is None:
        inside = kept.embarked[side] = [u for u in units if W.embarked_in(u) is not None]
    out = []
    for u in inside:
        t = W.embarked_in(u)
        if (not W.off_table(t) and W.alive_models(u) and W.unit_state(u).move_selected is None
                and W.unit_state(u).move_type is None):
            out.append(u)
    return out


def near_goal_or_enemy(u: int, goal, reach: float) -> bool:
    """The unit is within ``reach`` of the point ``goal`` or of an enemy unit."""
    if goal is not None:
        cx, cy = centroid(u)
        if math.hypot(goal[0] - cx, goal[1] - cy) <= reach:
            return True
    gap = MV.unit_gap(u, W.enemy_units(u))
    return gap is not None and gap <= reach


def reserves_units(battle, side: int) -> list[int]:
    """20.04 The side's units still in strategic reserves, in unit order."""
    kept, units = _kept(side)
    off = kept.off.get(side)  # (a unit leaves or joins the battlefield: presence_version bumps)
    if off is None:
        off_table = W.spatial().off_table
        off = kept.off[side] = [u for u in units if u in off_table]
    return [u for u in off if W.in_reserves(u)]


from sim.commands import default_ingress, ingress_candidates, ingress_toward  # noqa: E402,F401  (the players use them as options)
