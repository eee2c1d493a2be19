"""15.08 Fire Overwatch: at the end of your opponent's Movement phase, one of your unengaged
units, not TITANIC, shoots straight away with snap shooting (15.09) at one enemy unit."""

from __future__ import annotations

from sim.commands.shoot import Shoot
from sim.decisions import DecisionRequest, ask
from sim.errors import PlanError
from sim.plan.common import could_shoot_all
from sim.plan.snap import can_snap, snap_selections
from sim.plan.validated import validated_shoot
from sim.rules import shooting as SH
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import DECLINE, Moment, StratagemRecord, allowed, choose, own_units, pair, pay, uid
from sim.stratagems.facts import UNENGAGED
from sim.systems.activation import select_to_shoot
from sim.world import queries as W

NAME = "Fire Overwatch"


def _offer(battle, player: int, moment: Moment):
    """One of ``player``'s units eligible to shoot (09.07: not fallen back) shoots with snap
    shooting (15.09) at one enemy unit. The options are the pairs "unit -> target" for which
    some ranged weapon can fire (sim.plan.snap); then, if the unit has several such weapons by
    name, which of them fire (a ``weapons`` decision; default: all). The shooting is an
    activation like any other (sim.systems.activation.select_to_shoot), out of phase: no "in
    your Shooting phase" rule applies to it (07.02.01)."""
    options: list[str] = []
    found: dict[str, tuple[int, int]] = {}
    units = []
    for u in own_units(player):
        st = W.unit_state(u)
        if st.fell_back or st.selected_to_shoot:
            continue
        if not allowed(battle, RECORD, player, u, SG.END_OF_PHASE):
            continue
        units.append(u)
    # (could_shoot, of every unit at once: the targets some model sees and has in range (04.02);
    # for the others, no plan)
    targets = could_shoot_all(battle, units, W.enemy_units(units[0]), SH.SNAP_RANGE) if units else {}
    for u in units:
        for e in targets[u]:
            if can_snap(battle, u, e):   # (its selections made once it is chosen)
                key = pair(uid(u), uid(e))
                options.append(key)
                found[key] = (u, e)
    if not options:
        return False
    answer = yield from choose(battle, RECORD, player, NAME, options,
                               f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP): which unit shoots with "
                               f"snap shooting (15.09), at which enemy unit?", use=False)
    if answer == DECLINE:
        return False
    u, e = found[answer]
    sels = snap_selections(battle, u, e)
    names = list(dict.fromkeys(s.weapon for s in sels))
    if len(names) > 1:
        req = DecisionRequest("weapons", f"{NAME}: {answer}", player, names, names,
                              prompt=f"{uid(u)} shoots at {uid(e)} with snap shooting: with which weapons? (04.01)",
                              context={"stratagem": NAME})
        chosen = yield from ask(battle, req)
        sels = [s for s in sels if s.weapon in chosen]
    pay(battle, RECORD, player, uid(u), f"snap shooting at {uid(e)} (15.09)")
    yield from snap_shoot(battle, u, tuple(sels))
    return True


def snap_shoot(battle, u: int, selections: tuple):
    """15.09 The unit shoots with snap shooting, now: it is granted the type (UnitState
    .snap_shooting), its Shoot planned and checked like any other (sim.plan.validated
    .validated_shoot), selected to shoot (sim.systems.activation), and its activation resolved
    by the systems, tick by tick, while this waits (a generator); then the grant ends."""
    st = W.unit_state(u)
    cmd = Shoot(uid(u), selections, SH.SNAP)
    st.snap_shooting = True
    try:
        battle.validated = validated_shoot(battle, cmd)
    except PlanError as e:  # (the options were checked by the same rules: a bug if it happens)
        st.snap_shooting = False
        raise RuntimeError(f"{NAME}: {e}") from None
    select_to_shoot(battle, cmd)
    while battle.activation is not None:
        yield
    st.snap_shooting = False


RECORD = StratagemRecord(
    NAME, "15.08", 1, SG.OPPONENT, Phase.MOVEMENT, SG.END_OF_PHASE,
    "The unit shoots straight away using snap shooting (15.09).",
    "a friendly unengaged unit, not TITANIC", _offer, needs=(UNENGAGED,), keywords_none=("TITANIC",))
