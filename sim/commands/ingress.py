"""20.04 The Ingress command: a unit in strategic reserves is set up on the battlefield (its
move in the Movement phase, from battle round 2), each model where the command says, checked
as any set-up (03.02) and as 20.03/20.04 say."""

from __future__ import annotations

import math
from dataclasses import dataclass

import esper

from sim.commands.base import TO, UNIT, CommandRecord
from sim.components import Position, Unit
from sim.rules.deployment import half_extents
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


def _apply(battle, cmd: Ingress) -> None:
    apply_ingress(battle, cmd.unit, cmd.to)


# --- where the automatic players arrive (Part A ruling 27) ----------------------------------

def ingress_candidates(battle, u: int) -> list:
    """Places an ingress move could set the unit up (20.04), as (anchor, command): the unit's
    formation (its models' offsets from their centre, turned to lie along the edge) centred 3"
    in from a battlefield edge, or further in if its bases reach further (so a base too large
    for 6" of the edge touches it, 03.02.02), every 2" along each edge. Not checked: the
    players check."""
    bw, bh = battle.scenario.board
    models = esper.component_for_entity(u, Unit).models
    pts = [(W.model_id(m), esper.component_for_entity(m, Position), half_extents(W.footprint(m))) for m in models]
    cx = sum(p.x for _m, p, _h in pts) / len(pts)
    cy = sum(p.y for _m, p, _h in pts) / len(pts)
    along = [(mid, p.x - cx, p.y - cy) for mid, p, _h in pts]  # (a formation along x)
    across = [(mid, dy, dx) for mid, dx, dy in along]  # (the same turned along y)
    # how far each formation reaches from its centre toward the edge (up to the next 1e-6")
    deep = math.ceil(max(abs(p.y - cy) + h[1] for _m, p, h in pts) * 1e6) / 1e6
    wide = math.ceil(max(abs(p.y - cy) + h[0] for _m, p, h in pts) * 1e6) / 1e6
    iy, ix = max(3.0, deep), max(3.0, wide)
    out = []
    k = 0.0
    while k <= max(bw, bh):
        for ax, ay, form in ((k, iy, along), (k, bh - iy, along), (ix, k, across), (bw - ix, k, across)):
            if 0 <= ax <= bw and 0 <= ay <= bh:
                to = tuple((mid, round(ax + dx, 6), round(ay + dy, 6)) for mid, dx, dy in form)
                out.append(((ax, ay), Ingress(esper.component_for_entity(u, Unit).id, to)))
        k += 2.0
    return out


def _preferred(battle, u: int, side: int) -> list:
    """``ingress_candidates`` in Part A ruling 27's order of preference: nearest first to the
    nearest objective the side does not control (else the nearest objective)."""
    ts = battle.turn_state
    mine = {n for n, c in ts.control.items() if c.controller == side}
    objs = [o for o in ts.objectives if o.name not in mine] or list(ts.objectives)
    cands = ingress_candidates(battle, u)
    if objs:
        cands = sorted(cands, key=lambda c: min((c[0][0] - o.x) ** 2 + (c[0][1] - o.y) ** 2 for o in objs))
    return cands


def ingress_spots(battle, u: int, side: int, check=None) -> list:
    """The legal places an ingress move could set the unit up, as (anchor, command), in Part A
    ruling 27's order of preference. ``check`` says why an Ingress is refused (default:
    Battle.check, the phase's gates too; a stratagem's ingress out of the Movement phase's
    order, 15.07, checks the move alone)."""
    check = battle.check if check is None else check
    return [(anchor, cmd) for anchor, cmd in _preferred(battle, u, side) if check(cmd) is None]


def default_ingress(battle, u: int, side: int, check=None):
    """Part A ruling 27: an ingress move to the legal spot nearest the nearest objective the
    side does not control (else the nearest objective); None when no spot tried is legal
    (``check`` as ``ingress_spots``)."""
    check = battle.check if check is None else check
    return next((cmd for _anchor, cmd in _preferred(battle, u, side) if check(cmd) is None), None)

INGRESS = CommandRecord(
    "ingress", Ingress, "20.04", "set up a unit from strategic reserves (an ingress move)",
    (UNIT, TO), check=check_ingress, apply=_apply, phase=Phase.MOVEMENT, script_step="ingress")
