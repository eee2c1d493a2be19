"""20.04 The Ingress command: a unit in strategic reserves is set up on the battlefield (its
move in the Movement phase, from battle round 2), each model where the command says, checked
as any set-up (03.02) and as 20.03/20.04 say."""

from __future__ import annotations

from dataclasses import dataclass

import esper

from sim.commands.base import FACE, TO, UNIT, CommandRecord, on_grid
from sim.components import Unit
from sim.rules.abilities import Hook
from sim.rules.grid import snap_point
from sim.world import queries as W
from sim.plan.phased import check_ingress
from sim.rules.turn import Phase
from sim.systems.placing import apply_ingress


@dataclass(frozen=True, slots=True)
class Ingress:
    """20.04 An ingress move: a unit in strategic reserves is set up on the battlefield, each
    model at its position."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model is set up at, if not its own

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


def _apply(battle, cmd: Ingress) -> None:
    apply_ingress(battle, cmd.unit, cmd.to, cmd.face)


# --- where the automatic players arrive (Part A ruling 27) ----------------------------------

OPTIONS = 12     # ingress set-ups offered per unit
APART = 3.0      # inches between their anchors


def ingress_candidates(battle, u: int, toward=()) -> list:
    """_candidates as a list."""
    return list(_candidates(battle, u, toward))


def _candidates(battle, u: int, toward=()):
    """Places an ingress move could set the unit up (20.04), as (anchor, command): the
    placement solver's set-ups (sim.rules.movement.solvers.placement), each model on its own
    base, coherent, wholly within 6" of a battlefield edge (a base too large for that touching
    one, 03.02.02; 24.09 Deep Strike: anywhere), more than 8" from every enemy model, outside
    the enemy zone before round 3, on no other base and no light or dense feature; nearest one
    of the points ``toward`` first (none: from the battlefield's bottom-left). Not checked: the
    players check."""
    from sim.rules.movement.solvers import placement as PL
    from sim.rules.movement.solvers import regions as RG
    board = tuple(battle.scenario.board)
    ts = battle.turn_state
    owner = esper.component_for_entity(u, Unit).owner
    models = [(W.model_id(m), W.footprint(m)) for m in esper.component_for_entity(u, Unit).models]
    enemies = [(W.model_id(m), W.footprint(m)) for e in W.enemy_units(u) for m in W.unit_models(e)]
    others = W.other_models(u)
    efs, names = [f for _m, f in enemies], [m for m, _f in enemies]
    regions = []
    if W.every_model_has(u, Hook.ARRIVES_ANYWHERE):
        regions = _shorter_deep_strikes(battle, u, board, efs, names)  # (a rule's shorter distance)
        region = RG.deep_strike(board, efs, names)
    else:
        zones = ts.zones() if ts is not None else ()
        region = RG.ingress_strip(board, efs, zones[1 - owner] if zones else None,
                            ts.round if ts is not None else 2, names)
    uid = esper.component_for_entity(u, Unit).id
    turn = PL.turns(models)  # (03.01 a vehicle may arrive turned: its long side along the edge)
    for reg in regions + [region]:
        for p in PL.iter_placements(models, reg, others, battle.scenario.terrain, PL.Prefer.toward(*toward),
                                    count=OPTIONS, apart=APART, checked=False, turn=turn):  # (the players check)
            to = tuple((mid, *snap_point(p.positions[mid])) for mid, _f in models)
            yield p.anchor, Ingress(uid, to, face=p.face(models))


def _shorter_deep_strikes(battle, u: int, board, efs, names) -> list:
    """The Deep Strike regions of a rule's shorter arrival distance (ARRIVAL_DISTANCE)
    that may act on the unit: the shorter distance within its army's deployment zone when its
    domain is that zone alone, else anywhere (the candidates are checked: those the rule does not
    allow are refused there)."""
    from sim.rules.effects import vocabulary as V
    from sim.rules.movement.solvers import regions as RG
    from sim.world import rule_effects as RE
    if not RE.any_rules():
        return []
    dists = sorted({float(a.grant.what.value) for a in RE.reaching(u, (V.ARRIVAL_DISTANCE,))})
    if not dists:
        return []
    owner = esper.component_for_entity(u, Unit).owner
    d = RE.domain_of(battle, owner)
    zone = d.own if d is not None and not d.no_mans_land and not d.enemy_zone else None
    return [RG.deep_strike(board, efs, names, distance=x, zone=zone) for x in dists]


def _preferred(battle, u: int, side: int, seen: Searches | None = None) -> list:
    """``ingress_candidates`` in Part A ruling 27's order of preference: nearest first to the
    nearest objective the side does not control (else the nearest objective); ``seen`` as
    ``_found``'s."""
    objs = _aims(battle, side)
    cands = list(_found(battle, u, [(o.x, o.y) for o in objs], seen))
    if objs:
        cands = sorted(cands, key=lambda c: min((c[0][0] - o.x) ** 2 + (c[0][1] - o.y) ** 2 for o in objs))
    return cands


class Searches:
    """What a caller keeps that reads one unit's candidates more than once while nothing in the
    battle changes (a stratagem's offer, asking first whether each unit has a legal spot, then
    for the chosen unit's spots, 15.07): per unit and points, the candidates found so far and the
    search where it stopped (``found``); per command, the check's verdict (``verdicts``)."""

    __slots__ = ("found", "verdicts")

    def __init__(self) -> None:
        self.found: dict = {}
        self.verdicts: dict = {}


def _found(battle, u: int, toward, seen: Searches | None = None):
    """``_candidates``, found as they are read; with ``seen``, a second read goes on from where
    the first stopped instead of searching again (the same candidates in the same order; one
    reader at a time)."""
    if seen is None:
        yield from _candidates(battle, u, toward)
        return
    key = (u, tuple(toward))
    got = seen.found.get(key)
    if got is None:
        got = seen.found[key] = ([], _candidates(battle, u, toward))
    done, rest = got
    yield from done
    for c in rest:
        done.append(c)
        yield c


def _verdict(check, cmd, seen: Searches | None = None):
    """``check(cmd)``, asked once per command while ``seen`` is kept."""
    if seen is None:
        return check(cmd)
    got = seen.verdicts.get(id(cmd), _UNASKED)
    if got is _UNASKED:
        got = seen.verdicts[id(cmd)] = check(cmd)  # (the command is kept alive by the found list)
    return got


_UNASKED = object()


def _aims(battle, side: int) -> list:
    """The objectives an arrival aims for (Part A ruling 27): those the side does not control,
    else every one."""
    ts = battle.turn_state
    mine = {n for n, c in ts.control.items() if c.controller == side}
    return [o for o in ts.objectives if o.name not in mine] or list(ts.objectives)


def ingress_toward(battle, u: int, toward, check=None):
    """The first legal ingress of ``_candidates`` toward the points ``toward``: the solver's
    set-ups tried as it finds them, none further (``check`` as ``ingress_spots``); None when
    none it finds is legal."""
    check = battle.check if check is None else check
    return next((cmd for _anchor, cmd in _candidates(battle, u, toward) if check(cmd) is None), None)


def can_ingress(battle, u: int, side: int, check=None, seen: Searches | None = None) -> bool:
    """Whether ``default_ingress`` finds a spot (``check`` as ``ingress_spots``): the same
    candidates, tried as the solver finds them and no further than the first legal one
    (``seen`` as ``ingress_spots``')."""
    check = battle.check if check is None else check
    objs = _aims(battle, side)
    return any(_verdict(check, cmd, seen) is None
               for _anchor, cmd in _found(battle, u, [(o.x, o.y) for o in objs], seen))


def ingress_spots(battle, u: int, side: int, check=None, seen: Searches | None = None) -> list:
    """The legal places an ingress move could set the unit up, as (anchor, command), in Part A
    ruling 27's order of preference. ``check`` says why an Ingress is refused (default:
    Battle.check, the phase's gates too; a stratagem's ingress out of the Movement phase's
    order, 15.07, checks the move alone). ``seen``: Searches kept by a caller that asked
    ``can_ingress`` of the unit with the same ``check`` first, nothing in the battle changing
    since: the spots found and checked then are not found and checked again (``_found``)."""
    check = battle.check if check is None else check
    return [(anchor, cmd) for anchor, cmd in _preferred(battle, u, side, seen) if _verdict(check, cmd, seen) is None]


def default_ingress(battle, u: int, side: int, check=None):
    """Part A ruling 27: an ingress move to the legal spot nearest the nearest objective the
    side does not control (else the nearest objective); None when no spot tried is legal
    (``check`` as ``ingress_spots``)."""
    check = battle.check if check is None else check
    return next((cmd for _anchor, cmd in _preferred(battle, u, side) if check(cmd) is None), None)

INGRESS = CommandRecord(
    "ingress", Ingress, "20.04", "set up a unit from strategic reserves (an ingress move)",
    (UNIT, TO, FACE), check=check_ingress, apply=_apply, phase=Phase.MOVEMENT, script_step="ingress")
