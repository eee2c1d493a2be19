"""The headless players' choices before battle round 1 (26 steps 7-11; a battle deployed by
the rules). The default player (``pick=None``) chooses deterministically; the random player
passes its ``pick`` (a uniformly random element of a list, from its own stream). Where a unit
goes is sim.commands.deploy's default_deploy and default_scout (the candidates of
sim.plan.deployment, each checked by the rules).

* Formations (26 step 7): the default player declares what the scenario file plans (the units
  it marks ``reserves = true``, and those it marks ``embarked``), or, if that is refused, only
  the embarked ones, else none. A file that plans no unit embarked (an army made from a
  roster or a catalogue) has its empty DEDICATED TRANSPORTs filled first with the units that
  fit, a unit in each matched so that as few as can be are lost (``filled``: an empty one is
  destroyed once formations are declared, 18.01). When the bases of the units it would deploy take more than
  CROWDED of its zone, it first sets the whole army up with the placement solver (the largest
  bases first, sim.rules.movement.solvers.placement.place_army); if that finds no room for
  them all, the units it could not place go into strategic reserves, as many as the 20.01 cap
  allows (a 4,000-point army on a 2,000-point table's zone; a 2,000-point army takes a quarter
  of it and is never looked at). The random player first embarks each unit that could ride in a
  transport on a one-in-two draw, in a transport picked at random among those with room (18.01),
  then puts each unit not embarked in strategic reserves on a one-in-four draw, as long as the
  50% cap allows (20.01, Part A ruling 27).
* Deployment (26 step 8): its next unit in unit order (random: any of them), set up where
  default_deploy finds room; in a crowded zone (``deploy_order``) the unit with the largest
  base first, as the solver found room for them all in battle formations (the tactician
  takes its units in the same order).
* Pre-battle rules (26 step 11): each Scouts unit in unit order (random: any, or an end to the
  step on a one-in-four draw), as default_scout finds; a unit with nothing legal is given up
  and the next tried; none left: the step ends for the player.
"""

from __future__ import annotations

import esper

from sim.commands import DeclareFormations, Deploy, EndPhase
from sim.commands.deploy import default_deploy, default_scout
from sim.components import Unit
from sim.errors import ScriptError
from sim.plan import deployment as PD
from sim.plan.transport import room_problems, split_pairs
from sim.players import options as O
from sim.rules.reserves import FormationUnit, reserves_problems
from sim.rules import transport as TR
from sim.rules.polygons import signed_area
from sim.rules.turn import PLAYER, PreBattleStep
from sim.world import queries as W

# the share of its deployment zone the bases of an army's units to deploy may take before the
# default player checks that they fit (the invented 2,000-point armies take 23-25%; the 4,000-point
# armies of the community data that found no room took 46-68%)
CROWDED = 0.30


def choose(battle, side: int, pick=None, tried: set | None = None):
    """The side's next pre-battle command (``tried``: units the player has given up on in this
    step, kept by the caller)."""
    ts = battle.turn_state
    if ts.pre_battle == PreBattleStep.FORMATIONS:
        return formations(battle, side, pick)
    if ts.pre_battle == PreBattleStep.DEPLOY:
        return deploy(battle, side, pick)
    return scout(battle, side, pick, tried if tried is not None else set())


def formations(battle, side: int, pick=None) -> DeclareFormations:
    specs = {u.id: u for u in battle.scenario.units}
    units = [esper.component_for_entity(u, Unit).id for u in PD.units_of(side)]
    if pick is None:
        aboard = tuple((uid, specs[uid].embarked) for uid in units if specs[uid].embarked is not None)
        for cmd in (DeclareFormations(PLAYER[side], tuple(uid for uid in units if specs[uid].reserves), aboard),
                    DeclareFormations(PLAYER[side], (), aboard)):
            cmd = with_split_halves(battle, side, cmd)
            if battle.check(cmd) is None:
                return room_for(battle, side, filled(battle, side, cmd))
        return room_for(battle, side, filled(battle, side, DeclareFormations(PLAYER[side])))
    # (26 step 7: one half of each unit a transport's rule split in it, first; the other half
    # barred from that transport)
    aboard: dict[str, str] = dict(with_split_halves(battle, side, DeclareFormations(PLAYER[side])).embarked)
    barred = {(b if aboard.get(a) == t else a, t) for a, b, t in split_pairs(battle.scenario.units, side)
              if t in (aboard.get(a), aboard.get(b))}
    carriers = [uid for uid in units if W.capacity(battle.units[uid]) is not None]
    for uid in units:
        if uid in carriers or uid in aboard or not carriers or not pick([True, False]):
            continue
        room = [t for t in carriers if (uid, t) not in barred and not room_problems(
            battle.units[t], [battle.units[u] for u, c in aboard.items() if c == t] + [battle.units[uid]])]
        if room:
            aboard[uid] = pick(room)
    held: list[str] = []
    allows = _cap(battle, units, aboard)
    for uid in units:
        if uid not in aboard and pick([True, False, False, False]) and allows(held, uid):
            held.append(uid)
    return DeclareFormations(PLAYER[side], tuple(held), tuple(aboard.items()))


def with_split_halves(battle, side: int, cmd: DeclareFormations) -> DeclareFormations:
    """26 step 7 ``cmd`` with a half of each unit a transport's rule split embarked in that
    transport where it names neither there (the first half, else the second: one not embarked
    elsewhere, with room beside the units ``cmd`` puts there; a half named in its reserves
    leaves them, and goes where the transport goes); ``cmd`` itself when every split unit has
    its half there, or when none was split."""
    pairs = split_pairs(battle.scenario.units, side)
    aboard, held = dict(cmd.embarked), list(cmd.reserves)
    for a, b, t in pairs:
        if aboard.get(a) == t or aboard.get(b) == t:
            continue
        for h in (a, b):
            if h in aboard:
                continue
            if not room_problems(battle.units[t], [battle.units[u] for u, c in aboard.items() if c == t]
                                 + [battle.units[h]]):
                aboard[h] = t
                if h in held:
                    held.remove(h)
                break
    if len(aboard) == len(cmd.embarked):
        return cmd
    return DeclareFormations(cmd.player, tuple(held), tuple(aboard.items()))


def _cap(battle, units: list[str], aboard: dict):
    """20.01 / Part A ruling 27 The reserves cap for the side's ``units`` (ids), ``aboard`` (unit
    -> transport) embarked: ``allows(held, uid)``, whether holding ``uid`` with ``held`` keeps it
    (each unit's keywords its roster's: no model is on the table yet)."""
    specs = {u.id: u for u in battle.scenario.units}
    keywords = {uid: tuple(sorted(W.roster(battle.units[uid]).keywords)) for uid in units}

    def allows(held, uid: str) -> bool:
        return not reserves_problems([FormationUnit(u, u in held or u == uid, specs[u].points, keywords[u],
                                                    embarked_in=aboard.get(u)) for u in units])
    return allows


def filled(battle, side: int, cmd: DeclareFormations) -> DeclareFormations:
    """18.01 / 26 step 7 ``cmd`` with the side's DEDICATED TRANSPORTs filled, when it embarks no
    unit but the halves of units a transport's rule split (with_split_halves): from the units
    that are not in reserves and carry no one themselves, first a half of each such unit goes
    in its transport (the one ``cmd`` names there, else the first that fits; the other half
    never goes there); then each transport with no unit yet takes one that fits (the capacity
    rule, room_problems), matched so that as few as can be are lost; then each (unit order)
    takes every other that fits with those it has; ``cmd`` itself when it embarks another unit
    already (the file's plan stands), when nothing fits, or when the rules refuse the result."""
    pairs = split_pairs(battle.scenario.units, side)
    halves = {(h, t) for a, b, t in pairs for h in (a, b)}
    if any(x not in halves for x in cmd.embarked):
        return cmd
    named = dict(cmd.embarked)
    units = PD.units_of(side)
    ids = {u: esper.component_for_entity(u, Unit).id for u in units}
    riders = [u for u in units if W.capacity(u) is None and ids[u] not in cmd.reserves]
    # (the roster's keywords: its models are not on the table yet)
    carriers = [t for t in units if TR.DEDICATED in W.roster(t).keywords and W.capacity(t) is not None]
    inside: dict[int, list[int]] = {t: [] for t in carriers}
    barred: set = set()  # (unit, transport): the other half of a unit that transport's rule split
    for a, b, t in pairs:
        te = battle.units[t]
        for h, other in sorted(((a, b), (b, a)), key=lambda p: named.get(p[0]) != t):
            he = battle.units[h]
            if he in riders and not room_problems(te, inside.get(te, []) + [he]):
                inside.setdefault(te, []).append(he)
                riders.remove(he)
                barred.add((battle.units[other], te))
                break
    # first one unit in each, that as few as can be are lost: the transport the fewest units fit
    # first, each taking the unit that fits the fewest transports (unit order breaks ties)
    fits = {t: [u for u in riders if (u, t) not in barred and not room_problems(t, [u])] for t in carriers}
    for t in sorted(carriers, key=lambda t: (len(fits[t]), units.index(t))):
        if inside[t]:
            continue  # (it has a split unit's half already)
        free = [u for u in fits[t] if u in riders]
        if free:
            u = min(free, key=lambda u: (sum(u in fits[x] for x in carriers), units.index(u)))
            inside[t].append(u)
            riders.remove(u)
    for t in carriers:  # (then each, in unit order, as full as it goes)
        for u in list(riders):
            if (u, t) not in barred and not room_problems(t, inside[t] + [u]):
                inside[t].append(u)
                riders.remove(u)
    aboard = tuple((ids[u], ids[t]) for t in units if t in inside for u in inside[t])
    if not aboard:
        return cmd
    out = DeclareFormations(cmd.player, cmd.reserves, aboard)
    return out if battle.check(out) is None else cmd


def room_for(battle, side: int, cmd: DeclareFormations) -> DeclareFormations:
    """26 step 7 / 20.01 ``cmd`` with units added to its strategic reserves until the rest fit its
    zone (the module's docstring: only when its bases take more than CROWDED of the zone), or
    ``cmd`` itself when they all fit, or when none can be added. When the placement solver finds
    no room for them all, the units held are the one it found no room for, then the others it
    did not place (unit order), each while the cap allows; then the solver tries again. (Holding
    instead the units that free the most room for the fewest models, the largest single bases,
    was tried: the tactician then lost two of them in reserves in three battles, an oval base
    finding no room in the 6" strips its own army stood in, where this order lost one unit in 48.)"""
    from sim.rules.movement.solvers import placement as PL
    from sim.rules.movement.solvers import regions as RG
    units = [esper.component_for_entity(u, Unit).id for u in PD.units_of(side)]
    held, aboard = list(cmd.reserves), dict(cmd.embarked)
    bases = {uid: _bases(battle.units[uid]) for uid in units if uid not in held and uid not in aboard}
    zone = battle.turn_state.zones()[side]
    if not _crowded(bases.values(), zone):
        return cmd
    board = tuple(battle.scenario.board)
    region, centre = RG.deployment(zone, board), PL.Prefer.toward((board[0] / 2, board[1] / 2))
    allows = _cap(battle, units, aboard)
    kept: dict = {}   # (each try's units placed before the first held back are the last try's: read back)
    while True:
        # (whether they fit, and which unit did not: no refusal's words are read here)
        got = PL.place_army(list(bases.items()), region, (), battle.scenario.terrain, centre, explain=False,
                            kept=kept)
        if not got and any(PL.turns(b) for b in bases.values()):  # (its vehicles turned, 03.01)
            turned = PL.place_army(list(bases.items()), region, (), battle.scenario.terrain, centre, turn=True,
                                   explain=False, kept=kept)
            got = turned if turned else got
        if got:
            break
        added = False
        for uid in [got.unit] + [u for u in bases if u not in got.placed and u != got.unit]:
            if uid in bases and allows(held, uid):
                held.append(uid)
                del bases[uid]
                added = True
        if not added:
            break  # (the cap is reached: the deployment says which unit finds no room)
    out = DeclareFormations(cmd.player, tuple(u for u in units if u in held), cmd.embarked)
    return out if out != cmd and battle.check(out) is None else cmd


def _area(models) -> float:
    from sim.rules.movement.solvers.regions import base_area
    return sum(base_area(f) for _m, f in models)


def _bases(ent: int) -> list:
    """(model id, base) of each of the unit's models."""
    return [(W.model_id(m), W.footprint(m)) for m in W.unit_models(ent, living=False)]


def _crowded(units_bases, zone) -> bool:
    """The units' bases take more than CROWDED of the ``zone`` polygon."""
    return sum(_area(ms) for ms in units_bases) > CROWDED * abs(signed_area(zone))


def deploy_order(battle, side: int) -> list[int]:
    """26 step 8 The side's units still to set up, in the order the default player (and the
    tactician) takes them: unit order, or, when the bases of the units it sets up in the
    deployment (those not in reserves nor embarked) take more than CROWDED of its zone, the
    largest base first (then the most base area, then unit order: the placement solver's own
    order in place_army, which found room for them all in battle formations)."""
    from sim.rules.movement.solvers.regions import base_area
    units = PD.to_deploy(side)
    placed = [u for u in PD.units_of(side) if not W.off_table(u)]
    bases = {u: _bases(u) for u in units + placed}
    if not _crowded(bases.values(), battle.turn_state.zones()[side]):
        return units
    return sorted(units, key=lambda u: (-max((base_area(f) for _m, f in bases[u]), default=0.0), -_area(bases[u])))


def deploy(battle, side: int, pick=None) -> Deploy:
    """The next unit set up (in unit order, or the random player's draw first): where its file
    plans it or where the placement solver finds room. When no unit of the side can be set up,
    the army does not fit its zone: a ScriptError with the solver's reason (26 step 8)."""
    if pick is not None:
        units = PD.to_deploy(side)
        first = pick(units)
        units = [first] + [u for u in units if u != first]
    else:
        units = deploy_order(battle, side)
    for u in units:
        cmd = default_deploy(battle, u, pick)
        if cmd is not None:
            return cmd
    u = units[0]
    why = (PD.no_room(battle, u, battle.turn_state.zones()[side])
           or f"no legal set-up of {esper.component_for_entity(u, Unit).name} was found")
    raise ScriptError(f"{battle.scenario.path}: {PLAYER[side]}'s army does not fit its deployment zone: {why}"
                      + ("" if "26 step 8" in why else " (26 step 8)"))


def scout(battle, side: int, pick, tried: set):
    units = [u for u in PD.scouts(battle, side) if u not in tried]
    if pick is not None:
        if not units or pick([True, False, False, False]):
            return EndPhase()
        units = [pick(units)]
    for u in units:
        tried.add(u)
        cmd = default_scout(battle, u, pick, O.quick_refusal)
        if cmd is not None:
            return cmd
    return EndPhase()
