"""15 The core stratagems about shooting, in a battle: 15.08 Fire Overwatch (the unit shoots
with 15.09 snap shooting at the end of the opponent's Movement phase), 15.10 Smokescreen (start
of the opponent's Shooting phase: attacks on the SMOKE unit get the benefit of cover) and 15.05
Explosives (your Shooting phase: six D6 at an enemy unit within 8", a mortal wound per 4+).

Each is offered to its player as a decision at its moment (Part A ruling 25), after the 15.01
limits (sim.rules.stratagems.refusal) say it can be used, and only with something to use it
on; the answer names what it is used on, the CP are paid (sim.systems.stratagems), the effect
follows. The default answer declines. All are generators (they wait for the answers)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.commands.shoot import Shoot
from sim.components import Unit
from sim.decisions import DecisionRequest
from sim.errors import PlanError
from sim.phases.state import Phase
from sim.plan.common import could_shoot
from sim.plan.snap import snap_selections
from sim.rules import shooting as SH
from sim.rules import stratagems as SG
from sim.rules.geometry import within_distance
from sim.systems.activation import select_to_shoot
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.systems.stratagems import DECLINE, _context, _pay, ask
from sim.plan.validated import validated_shoot
from sim.world import queries as W

EXPLOSIVES_RANGE = 8.0  # 15.05
EXPLOSIVES_DICE = 6  # 15.05 six D6
EXPLOSIVES_WOUND_ON = 4  # 15.05 each 4+ is a mortal wound
EXPLOSIVES_KEYWORDS = ("EXPLOSIVES", "GRENADES")


def pair(unit: str, target: str) -> str:
    """A decision option naming a unit and the enemy unit it is used against: 'b1 -> r1'."""
    return f"{unit} -> {target}"


def _uid(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


def _own_units(player: int) -> list[int]:
    """The player's units on the battlefield with models left, in unit order."""
    return [u for u in W.all_units() if esper.component_for_entity(u, Unit).owner == player
            and not W.unit_destroyed(u) and not W.in_reserves(u)]


def _allowed(battle, record, player: int, u: int, window: str, facts) -> bool:
    """15.01 and the record's target conditions allow ``player`` to use ``record`` on unit ``u``."""
    ctx = _context(battle, record, player, _uid(u), window=window,
                   battle_shocked=W.unit_state(u).battle_shocked)
    ctx.update(target_facts=facts, target_keywords=W.unit_keywords(u))
    return SG.refusal(record, **ctx) is None


def _usable_at_all(battle, record, player: int, window: str) -> bool:
    """15.01 The limits that do not depend on the target (the turn, phase and window, once per
    phase, the CP) allow ``player`` to use ``record`` now: without them, nothing is worth
    looking for."""
    if battle.turn_state is None:
        return False
    return SG.refusal(record, **_context(battle, record, player, None, window=window)) is None


# --- 15.08 Fire Overwatch, 15.09 snap shooting ------------------------------------------------

def fire_overwatch(battle, player: int):
    """15.08 At the end of the opponent's Movement phase ``player`` may have one unengaged unit,
    not TITANIC and eligible to shoot (09.07: not fallen back), shoot with snap shooting
    (15.09) at one enemy unit. The options are the pairs "unit -> target" for which some ranged
    weapon can fire (sim.plan.snap); then, if the unit has several such weapons by name, which
    of them fire (a ``weapons`` decision; default: all). The shooting is an activation like any
    other (CommandSystem.select_to_shoot), out of phase: no "in your Shooting phase" rule
    applies to it (07.02.01)."""
    record = SG.by_name("Fire Overwatch")
    if not _usable_at_all(battle, record, player, SG.END_OF_PHASE):
        return
    options: list[str] = []
    found: dict[str, tuple[int, int, list]] = {}
    enemies = None  # (the same for each of the player's units)
    for u in _own_units(player):
        st = W.unit_state(u)
        if W.unit_engaged(u) or st.fell_back or st.selected_to_shoot:
            continue
        if not _allowed(battle, record, player, u, SG.END_OF_PHASE, ("unengaged",)):
            continue
        if enemies is None:
            enemies = W.enemy_units(u)
        # (could_shoot: the targets some model sees in range; for the others, no plan)
        for e in could_shoot(battle, u, enemies, SH.SNAP_RANGE):
            sels = snap_selections(battle, u, e)
            if sels:
                key = pair(_uid(u), _uid(e))
                options.append(key)
                found[key] = (u, e, sels)
    if not options:
        return
    req = DecisionRequest("stratagem", "Fire Overwatch", player, options + [DECLINE], DECLINE,
                          prompt=f"use Fire Overwatch (15.08, {SG.cost(record)} CP): which unit "
                                 f"shoots with snap shooting (15.09), at which enemy unit?",
                          context={"stratagem": "Fire Overwatch"})
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return
    u, e, sels = found[answer]
    uid, tid = _uid(u), _uid(e)
    names = list(dict.fromkeys(s.weapon for s in sels))
    if len(names) > 1:
        req = DecisionRequest("weapons", f"Fire Overwatch: {answer}", player, names, names,
                              prompt=f"{uid} shoots at {tid} with snap shooting: with which weapons? (04.01)",
                              context={"stratagem": "Fire Overwatch"})
        chosen = yield from ask(battle, req)
        sels = [s for s in sels if s.weapon in chosen]
    _pay(battle, record, player, uid, f"snap shooting at {tid} (15.09)")
    yield from snap_shoot(battle, u, tuple(sels))


def snap_shoot(battle, u: int, selections: tuple):
    """15.09 The unit shoots with snap shooting, now: it is granted the type (UnitState
    .snap_shooting), its command planned and checked like any other (sim.validate
    .validated_shoot), selected to shoot (sim.systems.activation), and its activation resolved
    by the systems, tick by tick, while this waits (a generator); then the grant ends."""
    st = W.unit_state(u)
    cmd = Shoot(_uid(u), selections, SH.SNAP)
    st.snap_shooting = True
    try:
        battle.validated = validated_shoot(battle, cmd)
    except PlanError as e:  # (the options were checked by the same rules: a bug if it happens)
        st.snap_shooting = False
        raise RuntimeError(f"Fire Overwatch: {e}") from None
    select_to_shoot(battle, cmd)
    while battle.activation is not None:
        yield
    st.snap_shooting = False


# --- 15.10 Smokescreen ----------------------------------------------------------------------

def smokescreen(battle, player: int):
    """15.10 At the start of the opponent's Shooting phase ``player`` may pick one SMOKE unit:
    until the end of the phase, attacks that target it get the benefit of cover (13.08;
    TurnState.smoke, read by the cover rule). The other half of 15.10 (a unit not fully visible
    because of models in the SMOKE unit) never arises here: models never block line of sight
    (Part A ruling 2). The answer is the unit's id."""
    record = SG.by_name("Smokescreen")
    if not _usable_at_all(battle, record, player, SG.START_OF_PHASE):
        return
    options = [_uid(u) for u in _own_units(player)
               if _allowed(battle, record, player, u, SG.START_OF_PHASE, ())]
    if not options:
        return
    req = DecisionRequest("stratagem", "Smokescreen", player, options + [DECLINE], DECLINE,
                          prompt=f"use Smokescreen (15.10, {SG.cost(record)} CP) on which SMOKE unit?",
                          context={"stratagem": "Smokescreen"})
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return
    u = battle.units[answer]
    battle.turn_state.smoke.append(u)
    _pay(battle, record, player, answer, "benefit of cover against attacks that target it until the end of the phase")


# --- 15.05 Explosives -------------------------------------------------------------------------

def explosives_thrower(battle, u: int, target: int) -> int | None:
    """15.05 steps 1-2: the first EXPLOSIVES/GRENADES model of the unit, in unit order, with the
    enemy unit ``target`` within 8" of it and visible to it; None if there is none. (Which
    model throws changes nothing else, so the offer names the unit and picks the model.)"""
    vis = battle.visibility
    tmodels = W.unit_models(target)
    tids = [W.model_id(t) for t in tmodels]
    for m in W.unit_models(u):
        if not W.model_keywords(m) & set(EXPLOSIVES_KEYWORDS):
            continue
        if not within_distance(W.nearest_distance(m, tmodels), EXPLOSIVES_RANGE):
            continue
        mid = W.model_id(m)
        if any(vis.model_visible(mid, t) for t in tids):
            return m
    return None


def explosives(battle, player: int):
    """15.05 In ``player``'s Shooting phase (offered at its start and after each of their units
    has shot): one unengaged EXPLOSIVES/GRENADES unit that is eligible to shoot (not yet
    selected to shoot this phase, not fallen back) and did not advance picks an unengaged enemy
    unit within 8" of, and visible to, one of its EXPLOSIVES/GRENADES models; six D6 are
    rolled, and each 4+ is a mortal wound on that unit (06.02), its casualties removed at once.
    It is not shooting (README, our rulings): the unit may still be selected to shoot. The
    answer is "unit -> target"."""
    record = SG.by_name("Explosives")
    if not _usable_at_all(battle, record, player, SG.DURING_PHASE):
        return
    options: list[str] = []
    found: dict[str, tuple[int, int, int]] = {}
    for u in _own_units(player):
        if not W.unit_keywords(u) & set(EXPLOSIVES_KEYWORDS):
            continue
        st = W.unit_state(u)
        facts = [f for f, ok in (("unengaged", not W.unit_engaged(u)),
                                 ("eligible to shoot", not st.selected_to_shoot and not st.fell_back),
                                 ("did not advance", not st.advanced)) if ok]
        if not _allowed(battle, record, player, u, SG.DURING_PHASE, facts):
            continue
        for e in W.enemy_units(u):
            if W.unit_engaged(e):
                continue
            m = explosives_thrower(battle, u, e)
            if m is not None:
                key = pair(_uid(u), _uid(e))
                options.append(key)
                found[key] = (u, e, m)
    if not options:
        return
    req = DecisionRequest("stratagem", "Explosives", player, options + [DECLINE], DECLINE,
                          prompt=f"use Explosives (15.05, {SG.cost(record)} CP): which unit, at which "
                                 f"enemy unit within 8\"?", context={"stratagem": "Explosives"})
    answer = yield from ask(battle, req)
    if answer == DECLINE:
        return
    u, e, m = found[answer]
    uid, tid, mid = _uid(u), _uid(e), W.model_id(m)
    _pay(battle, record, player, uid, f"{mid} at {tid}")
    rolls = battle.dice.d6(EXPLOSIVES_DICE, f"explosives {mid} -> {tid} (15.05)")
    mw = sum(1 for r in rolls if r >= EXPLOSIVES_WOUND_ON)
    battle.emit(ev.EXPLOSIVES, unit=uid, model=mid, target=tid, rolls=list(rolls), mortal_wounds=mw)
    battle.changes.touched(e)
    if mw:
        suffer_mortal_wounds(battle, e, mw, source="Explosives (15.05)", by=uid)
        remove_casualties(battle)  # (not an attack: removed at once, 05.04.04)


def after_shooting(battle, unit_ent: int):
    """After a unit of the active player has shot in their Shooting phase: Explosives (15.05)
    may be used again now (a generator; nothing in any other phase: a Fire Overwatch's
    shooting is the opponent's, in the Movement phase)."""
    ts = battle.turn_state
    if ts is None or ts.phase != Phase.SHOOTING or esper.component_for_entity(unit_ent, Unit).owner != ts.active:
        return
    yield from explosives(battle, ts.active)
