"""26 steps 7-11 The commands of a battle deployed by the rules, before battle round 1: each
player's battle formations (step 7), setting a unit up in the deployment (step 8; 24.20
Infiltrators) and a unit's Scouts ability (step 11; 24.31, 24.32). The sequence around them
is sim.phases.pre_battle; the rules they check are sim.rules.deployment, sim.rules.pre_battle
and sim.rules.reserves."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim import events as ev
from sim.events.core import faced
from sim.commands.base import FACE, TO, UNIT, VIA, CommandRecord, on_grid, Field
from sim.components import Unit
from sim.errors import PlanError
from sim.phases import pre_battle as PRE
from sim.plan import deployment as PD
from sim.plan import moves as MV
from sim.plan.common import find_unit
from sim.plan.transport import room_problems, split_pairs
from sim.rules import pre_battle as PB
from sim.rules import transport as TR
from sim.rules.abilities import Hook
from sim.rules.deployment import deployment_problems, setup_problems
from sim.rules.geometry import footprint
from sim.rules.reserves import FormationUnit, reserves_problems
from sim.rules.turn import PLAYER, PreBattleStep
from sim.world import mutations as M
from sim.world import queries as W


@dataclass(frozen=True, slots=True)
class DeclareFormations:
    """26 step 7 A player's battle formations: the units that start in strategic reserves
    (20.01; the rest are set up in the deployment), and those that start embarked in a
    TRANSPORT (``embarked``: (unit id, transport unit id) each; 18.01: within its capacity; they
    go where it goes: set up inside it when it is deployed, in reserves with it)."""

    player: str
    reserves: tuple[str, ...] = ()
    embarked: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Deploy:
    """26 step 8 Set a unit up: each model at its position, wholly within its player's
    deployment zone (or, 24.20 Infiltrators, anywhere far enough from the enemy)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model is set up at, if not its own

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


@dataclass(frozen=True, slots=True)
class ScoutMove:
    """24.31 A unit's Scouts ability before the battle: a scout move of up to its Scouts
    distance (24.32; ``via``: a model's turning points, Part A ruling 14), or, from strategic
    reserves, its set-up wholly within its deployment zone."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model turns to (or is set up at)

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


PLAYER_FIELD = Field("player", "red or blue", lambda v: v in PLAYER)
EMBARKED = Field("embarked", "a table of unit id = transport unit id",
                 lambda v: isinstance(v, dict) and all(type(t) is str for t in v.values()),
                 dump=dict, load=lambda v: tuple((str(u), str(t)) for u, t in v.items()), default=(), omit=True)
"""18.01 / 26 step 7 which units start embarked in which transport."""
RESERVES = Field("reserves", "a list of unit ids", lambda v: isinstance(v, list) and all(type(t) is str for t in v),
                 dump=list, load=lambda v: tuple(str(t) for t in v), default=(), omit=True)


def _refuse(problems: list[str]) -> None:
    if problems:
        raise PlanError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


# --- 26 step 7 -----------------------------------------------------------------------------

def _check_formations(battle, cmd: DeclareFormations) -> None:
    """26 step 7 / 20.01 The player whose turn it is declares once; each unit named is theirs,
    named once, and may start in reserves (not a FORTIFICATION), within the 50% cap (Part A
    ruling 27: points when every unit has them, else half the units); of each unit a
    transport's rule split, one half starts embarked in it."""
    ts = battle.turn_state
    player = PLAYER.index(cmd.player)
    if player != ts.chooser:
        raise PlanError(f"it is {PLAYER[ts.chooser]}'s turn to declare battle formations (26 step 7)")
    if ts.formations[player] is not None:
        raise PlanError(f"{cmd.player} has declared their battle formations already (26 step 7)")
    if len(set(cmd.reserves)) != len(cmd.reserves):
        raise PlanError("a unit is named twice in the strategic reserves (20.01)")
    specs = {u.id: u for u in battle.scenario.units}
    for uid in cmd.reserves:
        ent = find_unit(battle, uid)
        if esper.component_for_entity(ent, Unit).owner != player:
            raise PlanError(f"{uid} is not {cmd.player}'s unit (26 step 7)")
    aboard = dict(cmd.embarked)
    _check_embarked(battle, player, cmd)
    # (the units a transport's rule split: one half starts in it, sim.scenario.split)
    _refuse(TR.split_embark_problems(split_pairs(battle.scenario.units, player), aboard))
    army = [FormationUnit(u.id, u.id in cmd.reserves, specs[u.id].points, tuple(sorted(W.unit_keywords(e))),
                          embarked_in=aboard.get(u.id))
            for e in PD.units_of(player) for u in (esper.component_for_entity(e, Unit),)]
    _refuse(reserves_problems(army))


def _check_embarked(battle, player: int, cmd: DeclareFormations) -> None:
    """26 step 7 / 18.01 Each unit named embarked is the player's, named once, not itself in
    reserves (it goes where its transport goes, 20.01) nor carrying a unit; its transport is
    the player's, not itself embarked; and each transport's passengers fit together
    (sim.plan.transport.room_problems: sim.rules.transport.capacity_problems)."""
    seen: set[str] = set()
    carriers = {t for _u, t in cmd.embarked}
    for uid, tid in cmd.embarked:
        if uid in seen:
            raise PlanError(f"{uid} is named twice among the embarked units (26 step 7)")
        seen.add(uid)
        for x in (uid, tid):
            if esper.component_for_entity(find_unit(battle, x), Unit).owner != player:
                raise PlanError(f"{x} is not {cmd.player}'s unit (26 step 7)")
        if uid == tid or uid in carriers:
            raise PlanError(f"{uid} carries units itself and cannot start embarked (18.01)")
        if uid in cmd.reserves:
            raise PlanError(f"{uid} starts embarked in {tid}: it goes where {tid} goes, so it is not named in "
                            f"the strategic reserves itself (20.01, 20.04)")
    for tid in sorted(carriers):
        units = [battle.units[u] for u, t in cmd.embarked if t == tid]
        _refuse(room_problems(battle.units[tid], units))


def _apply_formations(battle, cmd: DeclareFormations):
    yield from PRE.declared(battle, PLAYER.index(cmd.player), cmd.reserves, cmd.embarked)


# --- 26 step 8 -----------------------------------------------------------------------------

def _set_up(battle, ent: int, to, what: str, face=()) -> list[tuple[str, object]]:
    """Each model of the unit once, at a finite position: (model id, its footprint there,
    turned as ``face`` says, else as it faces)."""
    uid = esper.component_for_entity(ent, Unit).id
    ids = [W.model_id(m) for m in W.unit_models(ent, living=False)]
    if sorted(t[0] for t in to) != sorted(ids):
        raise PlanError(f"{what} sets up every model of {uid} once ({', '.join(ids)})")
    return MV.set_up_footprints(battle, ent, to, face)


def _enemies(ent: int) -> list:
    return [(W.model_id(m), W.footprint(m)) for u in W.enemy_units(ent) for m in W.unit_models(u)]


def deploy_problems(battle, ent: int, fps) -> tuple[list[str], bool]:
    """26 step 8 Where the unit may be set up: every model wholly within its player's
    deployment zone (a base too large for it touching its battlefield edge, 03.02.02), or, if
    every model has Infiltrators (24.20), anywhere more than 8" from the enemy zone and every
    enemy model; and as any set-up (03.02). Returns (the problems, whether the set-up is by
    24.20)."""
    problems, infiltrating = _where_problems(battle, ent, fps)
    return problems + setup_problems(fps, W.other_models(ent), battle.scenario.terrain), infiltrating


def _where_problems(battle, ent: int, fps) -> tuple[list[str], bool]:
    """deploy_problems' first part: the zone, or Infiltrators' distances (24.20), and whether the
    set-up is by 24.20 (what the set-up's event says, once it is checked)."""
    ts = battle.turn_state
    owner = esper.component_for_entity(ent, Unit).owner
    zones = ts.zones()
    board = battle.scenario.board
    problems = deployment_problems([(mid, owner, fp) for mid, fp in fps], zones, board)
    infiltrating = False
    if problems and W.every_model_has(ent, Hook.DEPLOYS_FORWARD):
        enemies = _enemies(ent)
        away = [p for p in deployment_problems([(mid, 0, fp) for mid, fp in fps], [_board_polygon(board)])]
        away += PB.infiltrator_problems([f for _m, f in fps], [m for m, _f in fps], zones[1 - owner],
                                        [f for _m, f in enemies], [m for m, _f in enemies])
        if not away:
            problems, infiltrating = [], True
        else:
            problems = [f"{problems[0]}; nor may it infiltrate: {away[0]}"] + problems[1:]
    return problems, infiltrating


def _board_polygon(board) -> tuple:
    W_, H = board
    return ((0.0, 0.0), (W_, 0.0), (W_, H), (0.0, H))


def _check_deploy(battle, cmd: Deploy) -> None:
    ent = find_unit(battle, cmd.unit)
    if not W.undeployed(ent):
        where = "in strategic reserves" if W.in_reserves(ent) else "set up already"
        raise PlanError(f"{cmd.unit} is not waiting to be deployed: it is {where} (26 step 8)")
    _refuse(deploy_problems(battle, ent, _set_up(battle, ent, cmd.to, "a deployment", cmd.face))[0])


def place(battle, ent: int, to, face=()) -> None:
    """Put the unit's models on the battlefield at ``to`` (a unit set up before the battle:
    not 'set up this turn', no move made), turned as ``face`` says ((model id, degrees), ...)."""
    battle.changes.touched(ent)
    battle.changes.moved(M.set_up(ent, [(battle.models[mid], x, y) for mid, x, y in to], face))


def _apply_deploy(battle, cmd: Deploy):
    ent = battle.units[cmd.unit]
    fps = _set_up(battle, ent, cmd.to, "a deployment", cmd.face)
    infiltrating = _where_problems(battle, ent, fps)[1]   # (the set-up was checked: deploy_problems)
    place(battle, ent, cmd.to, cmd.face)
    owner = esper.component_for_entity(ent, Unit).owner
    more = {"infiltrators": True, **faced(cmd.face)} if infiltrating else faced(cmd.face)
    battle.emit(ev.DEPLOYED, unit=cmd.unit, player=PLAYER[owner], to=[[m, x, y] for m, x, y in cmd.to], **more)
    yield from PRE.deployed(battle, ent)


# --- 26 step 11 ----------------------------------------------------------------------------

def _check_scout(battle, cmd: ScoutMove) -> None:
    """24.31 Only a unit every model of which has Scouts, once, before the battle: from
    strategic reserves, set up wholly within its deployment zone (as any set-up, 03.02); on
    the battlefield, wholly within its deployment zone, a scout move of up to X" (24.32: as a
    normal move's paths and ends, 03.01) that ends more than 8" from every enemy unit."""
    ent = find_unit(battle, cmd.unit)
    ts = battle.turn_state
    if not PD.may_scout(battle, ent):
        why = ("it has used its Scouts ability" if ent in ts.scouted
               else "not every model of it has Scouts" if PD.scouts_distance(ent) is None else "it is destroyed")
        raise PlanError(f"{cmd.unit} cannot use Scouts: {why} (24.31)")
    owner = esper.component_for_entity(ent, Unit).owner
    zones = ts.zones()
    if W.in_reserves(ent):
        if cmd.via:
            raise PlanError(f"{cmd.unit} is set up from strategic reserves: no path to give (24.31)")
        fps = _set_up(battle, ent, cmd.to, "Scouts from strategic reserves", cmd.face)
        _refuse(deployment_problems([(mid, owner, fp) for mid, fp in fps], zones, battle.scenario.board)
                + setup_problems(fps, W.other_models(ent), battle.scenario.terrain))
        return
    now = [(W.model_id(m), owner, W.footprint(m)) for m in W.unit_models(ent)]
    away = deployment_problems(now, zones)
    if away:
        raise PlanError(f"{cmd.unit} is not wholly within its deployment zone, so it cannot make a scout move: "
                        f"{away[0]} (24.31)")
    distance = PD.scouts_distance(ent)
    MV.check_scout_move(battle, ent, cmd, float(distance))
    paths = MV.paths_of(battle, ent, cmd.to, cmd.via)
    ends = {mid: path[-1] for mid, path in paths.items()}
    turns = MV.facings_of(battle, ent, cmd.face, cmd.to) if cmd.face else {}
    fps = []
    for m in W.unit_models(ent):
        mid = W.model_id(m)
        b = W.footprint(m)
        x, y = ends.get(mid, (b.x, b.y))
        fps.append((mid, footprint(b.shape, x, y, b.length, b.width, turns.get(mid, b.angle))))
    enemies = _enemies(ent)
    _refuse(PB.scout_end_problems([f for _m, f in fps], [m for m, _f in fps], [f for _m, f in enemies],
                                  [m for m, _f in enemies]))


def _apply_scout(battle, cmd: ScoutMove):
    ent = battle.units[cmd.unit]
    owner = esper.component_for_entity(ent, Unit).owner
    more = {}
    if W.in_reserves(ent):
        place(battle, ent, cmd.to, cmd.face)
        more["from_reserves"] = True
    else:
        battle.changes.touched(ent)
        paths = MV.paths_of(battle, ent, cmd.to, cmd.via)
        moved = []
        for mid, path in paths.items():
            m = battle.models[mid]
            moved.append((m, *path[-1]))
        M.move_models(moved, cmd.face)
        battle.changes.moved([m for m, _x, _y in moved])
        more["distance"] = float(PD.scouts_distance(ent))
    more.update(faced(cmd.face))
    battle.emit(ev.SCOUTED, unit=cmd.unit, player=PLAYER[owner], to=[[m, x, y] for m, x, y in cmd.to], **more)
    yield from PRE.resolved(battle, ent)


# --- the automatic players' choices (and a script step's that gives no positions) ----------

def default_deploy(battle, ent: int, pick=None) -> Deploy | None:
    """26 step 8 The unit's first legal set-up: its planned positions (the scenario file's),
    then its formation over its zone, then, with Infiltrators (24.20), over the battlefield
    (sim.plan.deployment; ``pick``: the random player's order). None: nothing tried is legal."""
    uid = esper.component_for_entity(ent, Unit).id
    plan = PD.planned_spot(battle, ent)
    # (the very command checked is returned: submitted next, its verdict is not worked out again)
    if plan is not None and pick is None and battle.check(cmd := Deploy(uid, plan)) is None:
        return cmd
    regions = [battle.turn_state.zones()[esper.component_for_entity(ent, Unit).owner]]
    if W.every_model_has(ent, Hook.DEPLOYS_FORWARD):
        regions.append(PD.battlefield(battle))
    for region in regions:
        for to in PD.set_up_spots(battle, ent, region, pick):
            if battle.check(cmd := Deploy(uid, to)) is None:
                return cmd
    for region in regions:  # (then its vehicles turned, 03.01: where they fit only so)
        for to, face in PD.turned_spots(battle, ent, region, pick):
            if battle.check(cmd := Deploy(uid, to, face)) is None:
                return cmd
    return None


def default_scout(battle, ent: int, pick=None, refused=None) -> ScoutMove | None:
    """24.31 The unit's first legal Scouts: from strategic reserves, a set-up as in the
    deployment (its zone); on the battlefield, a scout move toward the nearest objective, the
    longest legal (sim.plan.deployment). None: nothing tried is legal. ``refused(battle, cmd)``:
    a player's quick look that is True only of commands the check would refuse (those are not
    checked: the same answer, sooner)."""
    uid = esper.component_for_entity(ent, Unit).id
    if W.in_reserves(ent):
        spots = PD.set_up_spots(battle, ent, battle.turn_state.zones()[esper.component_for_entity(ent, Unit).owner],
                                pick)
    else:
        spots = PD.scout_spots(battle, ent, float(PD.scouts_distance(ent)), pick)
    for to in spots:
        cmd = ScoutMove(uid, to)
        if (refused is None or not refused(battle, cmd)) and battle.check(cmd) is None:
            return cmd
    return None


DECLARE_FORMATIONS = CommandRecord(
    "declare formations", DeclareFormations, "26 step 7",
    "declare which units start in strategic reserves or embarked in a transport (battle formations)",
    (PLAYER_FIELD, RESERVES, EMBARKED),
    check=_check_formations, apply=_apply_formations, free_play=False,
    pre_battle=(PreBattleStep.FORMATIONS,), in_rounds=False, script_step="formations")

DEPLOY = CommandRecord(
    "deploy", Deploy, "26 step 8", "set a unit up in the deployment (wholly within its zone; Infiltrators away "
    "from the enemy)", (UNIT, TO, FACE), check=_check_deploy, apply=_apply_deploy, free_play=False,
    pre_battle=(PreBattleStep.DEPLOY,), in_rounds=False, script_step="deploy")

SCOUT_MOVE = CommandRecord(
    "scout move", ScoutMove, "24.31", "a unit's Scouts ability before the battle: a scout move, or its set-up "
    "from strategic reserves", (UNIT, TO, VIA, FACE), check=_check_scout, apply=_apply_scout, free_play=False,
    pre_battle=(PreBattleStep.RULES,), in_rounds=False, script_step="scout")
