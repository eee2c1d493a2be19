"""18 Transports, carried out: a disembarking unit set up out of its transport (18.04, the
Disembark command's apply), the hazard rolls of a Combat or an Emergency disembark (06.03), the
emergency disembark of a destroyed transport's passengers before it is removed (18.05: part of
removing its last model, sim.systems.removal), the empty DEDICATED TRANSPORT at the start of the
battle (18.01) and the passengers of a transport still in reserves when it is destroyed."""

from __future__ import annotations

from collections import Counter

import esper

from sim import events as ev
from sim.events.core import faced
from sim.components import Unit, Wounds
from sim.decisions import DecisionRequest, ask
from sim.plan import transport as PT
from sim.rules import stratagems as SG
from sim.rules import transport as TR
from sim.rules.mortal import hazard_failed, hazard_failures, hazard_mortal_wounds
from sim.rules.stratagems import Moment, Roll
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import resources as R


def _uid(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


def set_up(battle, ent: int, transport: int, mode: str, to, face=(), **fields) -> None:
    """18.04 / 18.05 The unit leaves its transport and its models are set up at ``to`` ((model
    id, x, y) each): on the battlefield again, set up this turn (03.02: it did not remain
    stationary; 18.02: it cannot embark again this turn), and its disembark noted for what it
    bars (no charge after a Rapid, Combat or Emergency disembark). A Tactical disembark's unit
    then makes a normal or advance move, its move in progress (09.02); the other modes are its
    move for the phase."""
    battle.changes.touched(ent)
    st = W.unit_state(ent)
    M.leave_transport(ent)
    places = [(battle.models[mid], x, y) for mid, x, y in to]
    M.set_up(ent, places, face)  # (03.01 turned)
    fields.update(faced(face))
    battle.changes.moved([m for m, _x, _y in places])
    st.set_up_this_turn = True
    st.disembarked = mode
    ts = battle.turn_state
    if mode == TR.DisembarkMode.TACTICAL:
        if ts is not None:
            ts.in_progress = ent
    elif mode != TR.DisembarkMode.EMERGENCY:
        st.move_selected = st.move_type = mode
    engaged = [_uid(u) for u in W.engaged_with(ent)]
    if engaged:
        fields["engaged"] = engaged
    if TR.battle_shocked_after(mode):
        fields["battle_shocked"] = True
    battle.emit(ev.DISEMBARKED, unit=_uid(ent), transport=_uid(transport), mode=str(mode),
                to=[[mid, x, y] for mid, x, y in to], **fields)


def hazard_rolls(battle, ent: int, mode: str):
    """18.04 / 18.05 A hazard roll per model of the unit (06.03: rolled together), a Command
    Re-roll of a failed one offered (15.02), then its mortal wounds (06.02). A generator;
    returns the models they destroyed (their removal is the caller's)."""
    uid = _uid(ent)
    n = len(W.alive_models(ent))
    purpose = f"{mode} hazard rolls {uid}"
    roll = Roll("hazard", list(battle.dice.d6(n, purpose)), lambda i, why: battle.dice.d6(1, f"{purpose} ({why})")[0])
    roll.candidates = hazard_failed(roll.dice)
    if battle.turn_state is not None:
        yield from battle.offer(Moment(SG.AFTER_ROLL, player=esper.component_for_entity(ent, Unit).owner,
                                       unit=ent, roll=roll))
    rolls, rr = roll.dice, roll.rerolled
    fails = hazard_failures(rolls)
    models = W.alive_models(ent)
    mw = hazard_mortal_wounds(fails, bool(models) and all(W.is_monster_or_vehicle(m) for m in models))
    extra = {} if rr is None else {"command_reroll": rr}
    battle.emit(ev.HAZARD, unit=uid, rolls=list(rolls), failures=fails, mortal_wounds=mw,
                note=f"{mode} ({'18.05' if mode == TR.DisembarkMode.EMERGENCY else '18.04'})", **extra)
    if not mw:
        return []
    before = W.alive_models(ent)
    suffer_mortal_wounds(battle, ent, mw, source=str(mode), by=uid)
    return [m for m in before if not W.alive(m)]


# --- 18.05 emergency disembark -------------------------------------------------------------

def _score(battle, ent: int, t: int, places: dict) -> tuple:
    """Best first: the most models set up, the fewest engaged, the nearest the transport."""
    from sim.rules.geometry import distance
    tfps = PT.transport_footprints(t)
    gap = 0.0
    for mid, (x, y) in places.items():
        fp = W.footprint(battle.models[mid]).moved(x, y)
        gap += min(distance(fp, f) for f in tfps)
    return (-len(places), gap)


def emergency_disembark(battle, t: int):
    """18.05 The TRANSPORT ``t`` is destroyed: before it is removed (and before its Deadly
    Demise, 24.08), each unit embarked in it, in unit order, makes an emergency disembark: a
    hazard roll per model first (the models they destroy never reach the battlefield: no
    'when destroyed' rule of theirs measures to anything, 01.02.04), then the others are set up
    wholly within 6" of the transport, as close as possible, engaged only where a model can be
    set up no other way; models that cannot be set up are destroyed; the unit is then
    battle-shocked and cannot charge this turn. Where they go is the controlling player's
    choice among the placement solver's layouts (sim.plan.transport.layouts; an
    ``emergency_disembark`` decision when they differ; default: the most models set up, then
    the nearest). A generator."""
    for ent in W.passengers(t):
        uid = _uid(ent)
        dead = yield from hazard_rolls(battle, ent, TR.DisembarkMode.EMERGENCY)
        if dead:
            M.remove_casualties(dead)  # (never on the battlefield: removed at once)
        battle.changes.touched(ent)
        if not W.alive_models(ent):
            M.leave_transport(ent)
            continue
        found = {}
        for name, places in PT.layouts(battle, ent, t, TR.DisembarkMode.EMERGENCY):
            if places and tuple(places.items()) not in {tuple(p.items()) for p in found.values()}:
                found[name] = places
        names = sorted(found, key=lambda n: (_score(battle, ent, t, found[n]), list(found).index(n)))
        chosen = names[0] if names else None
        if len(names) > 1:
            owner = esper.component_for_entity(ent, Unit).owner
            chosen = yield from ask(battle, DecisionRequest(
                "emergency_disembark", uid, owner, list(found), chosen,
                prompt=f"{_uid(t)} is destroyed: where does {uid} set up (18.05: wholly within 6\", as close as possible)?",
                context={"transport": _uid(t),
                         "layouts": {n: [[mid, x, y] for mid, (x, y) in p.items()] for n, p in found.items()}}))
        places = found.get(chosen, {})
        lost = [m for m in W.alive_models(ent) if W.model_id(m) not in places]
        for m in lost:
            esper.component_for_entity(m, Wounds).remaining = 0
        if lost:
            M.mark_destroyed(lost, "could not be set up (18.05)")
            M.remove_casualties(lost)
        st = W.unit_state(ent)
        fields = {"destroyed": [W.model_id(m) for m in lost]} if lost else {}
        set_up(battle, ent, t, TR.DisembarkMode.EMERGENCY, [(mid, x, y) for mid, (x, y) in places.items()], **fields)
        if places:
            st.battle_shocked = True
        else:
            battle.emit(ev.UNIT_DESTROYED, unit=uid, by="no room to set up (18.05)")


def destroy_empty_dedicated(battle) -> None:
    """18.01 After battle formations, every DEDICATED TRANSPORT with no unit embarked in it is
    destroyed, with no 'when destroyed' rules (in unit order; one in strategic reserves too)."""
    # (each transport's passengers counted in one pass, W.passengers' count: destroying an
    # empty transport changes no other unit's)
    aboard = Counter(W.embarked_in(u) for u in W.all_units())
    for u in W.all_units():
        # (the roster's keywords: every model's, on the battlefield or not; none is lost yet)
        if not TR.empty_dedicated_transport(W.roster(u).keywords, aboard[u]):
            continue
        models = esper.component_for_entity(u, Unit).models
        for m in models:
            esper.component_for_entity(m, Wounds).remaining = 0
        R.current.spatial.off_table.discard(u)  # (one in reserves or still to deploy: gone, not waiting)
        R.current.undeployed.discard(u)
        M.mark_destroyed(list(models), "a DEDICATED TRANSPORT with no unit embarked (18.01)")
        M.remove_casualties(list(models))
        battle.changes.touched(u)
        battle.emit(ev.DESTROYED_EMPTY, unit=_uid(u), rule="18.01")
