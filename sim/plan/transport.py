"""18 Transports at the door: the checks of embarking (18.02, a Move's ``embark``), of a
Disembark (18.04, 18.04.01) and of 24.14 Firing Deck (a Shoot's ``firing_deck``), each calling
the pure rules (sim.rules.transport) on the battle's facts and refusing with the rule's words;
and the layouts a disembarking unit may be set up in (the placement solver,
sim.rules.movement.solvers.placement, with the regions ``disembark`` and ``emergency_disembark``:
the automatic players', the sandbox's and 18.05's placements)."""

from __future__ import annotations

import dataclasses
import math

import esper

from sim.components import Unit
from sim.errors import PlanError
from sim.plan import moves as MV
from sim.plan.common import find_unit, not_there
from sim.rules import transport as TR
from sim.rules.abilities import Hook, tag
from sim.rules.deployment import edge_gaps
from sim.rules.geometry import EPS, distance, in_engagement_range
from sim.rules.grid import snap_point
from sim.rules.movement.moves import MoveType
from sim.rules.movement.solvers import regions as RG
from sim.rules.movement.solvers.placement import Prefer, place_unit, placement_options, table_for
from sim.rules.turn import Phase
from sim.world import queries as W

# 18.05 the directions a layout may start from (its controller's choice), by name: radians
# from the transport's centre (east = +x, north = +y: the edge at y = board depth)
DIRECTIONS = (("north", math.pi / 2), ("north-east", math.pi / 4), ("east", 0.0), ("south-east", -math.pi / 4),
              ("south", -math.pi / 2), ("south-west", -3 * math.pi / 4), ("west", math.pi),
              ("north-west", 3 * math.pi / 4))
CLOSE = 0.01  # inches an emergency disembark keeps from other bases (18.05 "as close as possible")


def _uid(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


def transport_footprints(t: int) -> list:
    """The transport's models where they stand: living ones, and destroyed ones not yet removed
    (18.05: its passengers disembark before it is removed)."""
    return [W.footprint(m) for m in esper.component_for_entity(t, Unit).models if W.on_table(m)]


def split_pairs(units, owner: int | None = None) -> list[tuple[str, str, str]]:
    """26 step 7 (first half, second half, transport) of each unit a transport's rule split
    (``units``: the scenario's UnitSpecs, whose ``split`` sim.scenario.split wrote; of
    ``owner``'s army only when given), in unit order (the first half listed first); a pair whose
    other half or transport is not in ``units`` (a saved table's, once gone) is none."""
    out, seen = [], set()
    ids = {u.id for u in units}
    for u in units:
        if (u.split is not None and u.split[1] not in seen and u.split[1] in ids and u.split[0] in ids
                and (owner is None or u.owner == owner)):
            out.append((u.id, u.split[1], u.split[0]))
        seen.add(u.id)
    return out


def room_problems(t: int, adding=()) -> list[str]:
    """18.01 Whether the units embarked in ``t``, with ``adding`` (unit entities) among them, fit
    (capacity_problems: the rule a Move's embark and battle formations both call)."""
    units = W.passengers(t) + list(adding)
    return TR.capacity_problems(_uid(t), W.capacity(t), [
        TR.Passenger(_uid(u), tuple((W.model_id(m), W.model_keywords(m), W.model_wounds_characteristic(m))
                                   for m in W.alive_models(u)))
        for u in units])


# --- 18.02 embark --------------------------------------------------------------------------

def check_embark(battle, ent: int, cmd) -> None:
    """18.02 A Move's ``embark``: a friendly TRANSPORT on the battlefield with room for the
    unit, which carries no unit itself, and every model of the unit within 3" of it where the
    move leaves it (and an advance's roll known: a free-play advance is selected first)."""
    uid, tid = cmd.unit, cmd.embark
    t = battle.units.get(tid)
    if t is None or t == ent or esper.component_for_entity(t, Unit).owner != esper.component_for_entity(ent, Unit).owner:
        raise PlanError(f"{uid} can embark only in a friendly TRANSPORT; {tid!r} is not one (18.02)")
    gone = not_there(t, tid)
    if gone:
        raise PlanError(f"{uid} cannot embark: {gone} (18.02)")
    if W.passengers(ent):
        raise PlanError(f"{uid} carries units itself and cannot embark (18.02)")
    st = W.unit_state(ent)
    if cmd.mode == MoveType.ADVANCE and st.advance_roll is None:
        raise PlanError(f"select {uid} to advance first: where an advance ends, and so whether it can "
                        f"embark, waits on its roll (09.06, 18.02)")
    ends = {mid: (x, y) for mid, x, y in cmd.to}
    tfps = transport_footprints(t)
    gaps = []
    for m in W.unit_models(ent):
        mid = W.model_id(m)
        fp = W.footprint(m)
        if mid in ends:
            fp = fp.moved(*ends[mid])
        gaps.append((mid, min(distance(fp, f) for f in tfps)))
    ts = battle.turn_state
    problems = TR.embark_problems(uid, tid, move=cmd.mode, round=None if ts is None else ts.round,
                                  set_up_this_turn=st.set_up_this_turn, gaps=gaps,
                                  room=room_problems(t, [ent]))
    if problems:
        raise PlanError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


# --- 18.04 disembark -----------------------------------------------------------------------

def _ingressed(t: int) -> bool:
    return W.unit_state(t).move_type == MoveType.INGRESS


def _engaged_ids(t: int) -> set[str]:
    return {_uid(u) for u in W.engaged_with(t)}


def _engaged_at(ent: int, fps) -> list[str]:
    """03.04 The enemy units the unit would be engaged with, its models at ``fps`` ((model id,
    footprint) each; the unit itself is off the battlefield, so the movement index has none of
    its bodies)."""
    found = []
    for u in W.enemy_units(ent):
        theirs = [W.footprint(m) for m in W.unit_models(u)]
        if any(in_engagement_range(distance(fp, f)) for _mid, fp in fps for f in theirs):
            found.append(_uid(u))
    return sorted(found)


def placement_problems(battle, ent: int, t: int, mode: str, to, face=()) -> list[str]:
    """18.04 / 03.02 Where a disembarking unit's models are set up (``to``: (model id, x, y) for
    each living model, once): wholly on the battlefield, on no other base, in no light or dense
    feature, in coherency (03.02); wholly within the mode's distance of the transport (3" Rapid
    and Tactical, 6" Combat); unengaged, save that a Combat disembark may be set up engaged
    with enemy units the transport is engaged with; and a Rapid disembark from a transport that
    made an ingress move this turn obeys the transport's set-up limits (18.04.01: 20.04's).
    ``face``: (model id, degrees) for each model set up turned (03.01). Returns every problem."""
    from sim.rules.deployment import setup_problems
    uid, tid = _uid(ent), _uid(t)
    ids = [W.model_id(m) for m in W.alive_models(ent)]
    given = [mid for mid, _x, _y in to]
    if sorted(given) != sorted(ids):
        return [f"a disembark sets up every living model of {uid} once ({', '.join(ids)}) (18.04, 03.02)"]
    try:
        fps = MV.set_up_footprints(battle, ent, to, face)
    except PlanError as e:
        return [str(e)]
    board = battle.scenario.board
    out = [f"{mid}: its base is not wholly on the battlefield (03.02, 03.01)"
           for mid, fp in fps if min(edge_gaps(fp, board).values()) < -EPS]
    others = W.other_models(ent)
    out += setup_problems(fps, others, battle.scenario.terrain)
    out += TR.set_up_distance_problems(fps, transport_footprints(t), tid, mode)
    engaged = _engaged_at(ent, fps)
    allowed = _engaged_ids(t) if mode == TR.DisembarkMode.COMBAT else set()
    bad = [e for e in engaged if e not in allowed]
    if bad:
        also = (f" (a combat disembark may be set up engaged only with the enemy units {tid} is engaged with"
                f": {', '.join(sorted(allowed)) or 'none'})") if mode == TR.DisembarkMode.COMBAT else ""
        out.append(f"{uid} would be set up within engagement range of {', '.join(bad)}; a {mode} sets up "
                   f"unengaged{also} (03.02, 18.04)")
    if mode == TR.DisembarkMode.RAPID and _ingressed(t):
        out += [f"{p} (18.04.01: {tid} made an ingress move this turn)" for p in _ingress_limits(battle, ent, t, fps)]
    return out


def _ingress_limits(battle, ent: int, t: int, fps) -> list[str]:
    """18.04.01 The limits the transport's ingress move obeyed (20.04; 24.09 when it has Deep
    Strike), for its passengers."""
    from sim.plan.phased import ingress_limits
    return ingress_limits(battle, ent, fps, W.every_model_has(t, Hook.ARRIVES_ANYWHERE))


def _region(battle, ent: int, t: int, mode: str, tfp, unengaged: bool = True):
    """The region a ``mode`` disembark sets the unit up in (sim.rules.movement.solvers.regions):
    wholly within the mode's distance of the transport model ``tfp``; unengaged, save that a
    Combat disembark may be engaged with the enemy units the transport is engaged with (and an
    emergency one asked again with ``unengaged`` False, 18.05); after the transport's ingress, a
    Rapid disembark also within 20.04's limits (18.04.01: the ingress strip's)."""
    board = battle.scenario.board
    allowed = _engaged_ids(t) if mode == TR.DisembarkMode.COMBAT else set()
    enemies = [] if not unengaged else [
        W.footprint(m) for u in W.enemy_units(ent) if _uid(u) not in allowed for m in W.unit_models(u)]
    if mode == TR.DisembarkMode.EMERGENCY:
        return RG.out_of_wreck(board, tfp, enemies)
    region = RG.out_of_transport(board, tfp, enemies, TR.set_up_distance(mode))
    if mode == TR.DisembarkMode.RAPID and _ingressed(t):
        ts = battle.turn_state
        owner = esper.component_for_entity(ent, Unit).owner
        foes = [W.footprint(m) for u in W.enemy_units(ent) for m in W.unit_models(u)]
        if W.every_model_has(t, Hook.ARRIVES_ANYWHERE):  # (24.09 the transport's Deep Strike: no edge, no zone)
            return dataclasses.replace(region, away=region.away + RG.deep_strike(board, foes).away)
        zones = ts.zones() if ts is not None else ()  # (26 step 5: the zones as the roles have them)
        strip = RG.ingress_strip(board, foes, zones[1 - owner] if zones else None, ts.round if ts is not None else 2)
        region = dataclasses.replace(region, edge_strip=strip.edge_strip, away=region.away + strip.away)
    return region


def _others(ent: int, t: int) -> list:
    """(model id, footprint) of every model on the battlefield but the unit's: the transport's
    too (a destroyed one not yet removed stands there still, 18.05)."""
    out = [(W.model_id(m), W.footprint(m)) for u in W.all_units() if u not in (ent, t) for m in W.unit_models(u)]
    return out + [(W.model_id(m), W.footprint(m)) for m in esper.component_for_entity(t, Unit).models
                  if W.on_table(m)]


def _rounded(p) -> dict:
    """A placement's centres, on the 1e-6" grid (sim.rules.grid; within the regions' SLACK)."""
    return {mid: snap_point(xy) for mid, xy in p.positions.items()}


def _direction_name(tc, p) -> str:
    """The name in DIRECTIONS nearest the bearing of ``p`` from ``tc``."""
    a = math.atan2(p[1] - tc[1], p[0] - tc[0])
    return min(DIRECTIONS, key=lambda d: abs((a - d[1] + math.pi) % (2 * math.pi) - math.pi))[0]


def layouts(battle, ent: int, t: int, mode: str, directions=DIRECTIONS) -> list[tuple[str, dict]]:
    """Candidate layouts of the unit's living models round its transport for ``mode`` (name,
    model id -> (x, y) of each model placed), made by the placement solver in the mode's region
    (``_region``). A disembark: one per direction (name, radians from the transport's centre),
    the solver preferring the side it names; every model placed or none (an empty layout).
    18.05: as close as possible to the transport (``Prefer.toward_bases``), up to one layout per
    direction, each named by the side of the transport its anchor (largest model) stands on
    ("east", "east 2", ...), best first; unengaged where
    possible: models that find no unengaged spot are left out, and the layouts set up engaged
    are offered only where they place more models than any unengaged one; models left out of a
    layout are destroyed (the caller's)."""
    return list(_iter_layouts(battle, ent, t, mode, directions))


def _iter_layouts(battle, ent: int, t: int, mode: str, directions):
    """``layouts`` one at a time: a disembark's one direction at a time, as the solver finds
    each (18.05's together)."""
    models = [(W.model_id(m), W.footprint(m)) for m in W.alive_models(ent)]
    tfps = transport_footprints(t)
    if not models or not tfps:
        return
    tfp = max(tfps, key=lambda f: (RG.base_area(f), -tfps.index(f)))   # (a unit of several: its largest)
    tc = (tfp.x, tfp.y)
    others = _others(ent, t)
    terrain = battle.scenario.terrain
    uid = _uid(ent)
    if mode == TR.DisembarkMode.EMERGENCY:
        out, best = [], -1
        for unengaged in (True, False):
            region = _region(battle, ent, t, mode, tfp, unengaged)
            found = placement_options(models, region, others, terrain, Prefer.toward_bases(tfp),
                                      count=len(DIRECTIONS), apart=2.0, partial=True, clearance=CLOSE)
            most = max((len(p.positions) for p in found), default=0)
            for p in found:
                if unengaged or len(p.positions) > best:
                    side = _direction_name(tc, p.anchor)
                    k = sum(1 for n, _p in out if n.split(" ")[0] == side)
                    out.append((side if not k else f"{side} {k + 1}", _rounded(p)))
            best = max(best, most)
            if best == len(models):
                break
        yield from out
        return
    region = _region(battle, ent, t, mode, tfp)
    far = tfp.bounding_radius + TR.set_up_distance(mode) + 12.0
    table = table_for(region, others, terrain)  # (one for every direction: the same bases and region)
    for name, angle in directions:
        aim = (tc[0] + far * math.cos(angle), tc[1] + far * math.sin(angle))
        got = place_unit(models, region, others, terrain, Prefer.toward(aim), unit=uid, table=table,
                         explain=False)  # (a refusal's words unread: only whether a layout was found)
        yield name, (_rounded(got) if got else {})


def full_layouts(battle, ent: int, t: int, mode: str, directions=DIRECTIONS) -> list[tuple[str, tuple]]:
    """``layouts`` that place every living model and pass ``placement_problems``: (name, the
    Disembark's ``to``), in the directions' order, without repeats."""
    return list(iter_full_layouts(battle, ent, t, mode, directions))


def iter_full_layouts(battle, ent: int, t: int, mode: str, directions=DIRECTIONS):
    """``full_layouts`` one at a time, each direction searched only when the one before it has
    been read (a player taking the first legal one spares the others' searches)."""
    n = len(W.alive_models(ent))
    seen = set()
    for name, places in _iter_layouts(battle, ent, t, mode, directions):
        to = tuple((mid, x, y) for mid, (x, y) in places.items())
        if len(to) == n and to not in seen and not placement_problems(battle, ent, t, mode, to):
            seen.add(to)
            yield name, to


def tactical_possible(battle, ent: int, t: int, to=None, face=()) -> bool:
    """18.04 Tactical: "the unit can be set up" wholly within 3" of the transport, unengaged.
    The placement ``to`` (if it is one; its models turned as ``face`` says) shows it can; else
    the placement solver is asked (README: "can be set up" is judged by that search)."""
    if to is not None and not placement_problems(battle, ent, t, TR.DisembarkMode.TACTICAL, to, face):
        return True
    # (the search's answer read from where models stand: kept while nothing moves, as a player's
    # options and then its check of the one it picks ask it in turn)
    kept = W.kept_while_still()
    key = ("tactical", ent, t)
    got = kept.get(key)
    if got is None:
        got = kept[key] = any(True for _ in iter_full_layouts(battle, ent, t, TR.DisembarkMode.TACTICAL, DIRECTIONS[::2]))
    return got


def disembark_check(battle, cmd) -> str:
    """18.04 A Disembark: the unit is embarked in a transport on the battlefield, has not been
    selected to move this phase, and is moved one at a time (09.02); its mode is the one the
    rules give (sim.rules.transport.disembark_mode: Rapid after the transport's normal or
    ingress move, Tactical while it stands or has not moved and the unit can be set up, else
    Combat; none after it advanced or fell back); then where its models go
    (``placement_problems``). Returns the mode; raises PlanError with the first problem."""
    from sim.plan.phased import one_at_a_time
    ent = find_unit(battle, cmd.unit)
    t = W.embarked_in(ent)
    if t is None:
        raise PlanError(f"{cmd.unit} is not embarked in a transport (18.04)")
    if not W.alive_models(ent):
        raise PlanError(f"unit {cmd.unit} is destroyed")
    tid = _uid(t)
    if W.off_table(t):
        raise PlanError(f"{cmd.unit} cannot disembark: {not_there(t, tid)} (18.04)")
    st = W.unit_state(ent)
    if st.move_selected is not None or st.move_type is not None:
        raise PlanError(f"{cmd.unit} was already selected to move this phase ({st.move_selected or st.move_type}) "
                        f"and cannot disembark (09.02, 18.04)")
    one_at_a_time(battle, ent, "09.02")
    tst = W.unit_state(t)
    mode, why = TR.disembark_mode(tid, move_selected=tst.move_selected, move_type=tst.move_type,
                                  advanced=tst.advanced, fell_back=tst.fell_back,
                                  tactical_possible=lambda: tactical_possible(battle, ent, t, cmd.to, cmd.face))
    if why:
        raise PlanError(why)
    problems = placement_problems(battle, ent, t, mode, cmd.to, cmd.face)
    if problems:
        lead = "" if mode != TR.DisembarkMode.TACTICAL else "the unit can be set up within 3\" of its transport, so it makes a tactical disembark: "
        raise PlanError(lead + problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return mode


# --- 24.14 Firing Deck ---------------------------------------------------------------------

def firing_deck_of(unit_ent: int) -> int | None:
    """24.14 The transport's Firing Deck X (the largest among its living models), or None."""
    xs = [a.value for m in W.unit_models(unit_ent) for a in W.model_abilities(m) if Hook.FIRING_DECK in a.spec.hooks]
    return max(xs) if xs else None


def firing_deck_weapons(battle, unit_ent: int, picks) -> tuple:
    """24.14 The weapons embarked models lend the transport (``picks``: (model id, weapon name)
    each), checked by the rule (sim.rules.transport.firing_deck_problems): the profiles, in
    order; PlanError naming the problem."""
    uid = _uid(unit_ent)
    ts = battle.turn_state
    st = W.unit_state(unit_ent)
    in_phase = (ts is None or ts.phase == Phase.SHOOTING) and not st.snap_shooting
    out, found = [], []
    for mid, weapon in picks:
        m = battle.models.get(mid)
        if m is None or W.embarked_in(W.unit_of(m)) != unit_ent:
            raise PlanError(f"{mid} is not a model embarked in {uid} (24.14)")
        if not W.alive(m):
            raise PlanError(f"model {mid} is destroyed")
        u = W.unit_of(m)
        carried = W.weapons_of(m)
        found.append(TR.FiringDeckPick(mid, _uid(u), W.unit_state(u).selected_to_shoot, weapon,
                                       tuple((w.name, not w.is_melee, w.has(Hook.ONCE_PER_BATTLE)) for w in carried)))
        out += [w for w in carried if w.name == weapon][:1]
    problems = TR.firing_deck_problems(uid, firing_deck_of(unit_ent), found, in_shooting_phase=in_phase,
                                       one_shot=tag(Hook.ONCE_PER_BATTLE))
    if problems:
        raise PlanError(problems[0])
    return tuple(out)
