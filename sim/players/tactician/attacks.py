"""The tactician's shooting and fighting (issue 27 item 1): each unit's weapons at the targets
that maximise the expected value destroyed, across units, avoiding overkill.

Shooting: every unit still to shoot gets its options (all its weapons at one target it could
shoot, sim.plan.common.could_shoot; or its weapons split, each at the target it does most to,
a multi-profile weapon with its best profile), each valued from the exact odds (judge). A plan
assigns units greedily, each option's value discounted by what the units already planned are
expected to destroy of the same target (no second unit at a target expected gone). The unit
that goes first is the one that loses most by waiting (the largest gap between its best and
second-best option: it has nowhere better to shoot); after each unit's attacks resolve the
world has changed and the plan is made again (the odds of pairs the attacks left alone are
kept in ``player.memo`` for the phase).

Fighting (12.04): of the units eligible to fight, the one whose best fight is worth most
(counting what it removes of enemy units that have still to fight back) fights first; each
model attacks the target the unit's option names where it can (else the nearest it can),
with its best melee weapon against it."""

from __future__ import annotations

from typing import NamedTuple

import esper

from sim.commands import Fight, Selection
from sim.components import Roster, Unit
from sim.phases.state import FightStep
from sim.players import options as O
from sim.players.base import to_the_end
from sim.players.tactician.scored import Scored
from sim.players.tactician import judge as J
from sim.odds.problem import held_still
from sim.plan.common import could_shoot
from sim.plan.fight import fight_eligible, fight_targets, fights_first, nearest_fight_target, selectable_melee
from sim.rules.attack import AttackKind
from sim.scenario.script_run import attack_action, expand
from sim.scenario.spec import ScriptStep
from sim.world import queries as W

WIPE_BONUS = 0.25  # a unit wiped out is worth this share of its worth more (its OC, its actions gone)
# the fight choice picks the unit a Counteroffensive made the next pick (TurnState.forced_pick,
# 15.12), so decisions_stratagems may use the stratagem (a refused pick would end the battle)
HONOURS_FORCED_PICK = True


class Option(NamedTuple):
    """One unit's attacks: the command, its value per target id, and the words."""

    unit: int
    command: object
    per_target: dict   # target uid -> (value, expected models destroyed, alive, P(wiped))
    cost: float        # what it costs us (hazard losses)
    label: str         # the words a person reads (units by their names: "Raider Mob (2)")
    key: str = ""      # the tie-break between options of equal value: the label as it was
                       # spelled with datasheet names (J.name), so the choices stay the same


# --- values -----------------------------------------------------------------------------------

def _signature(battle, command) -> tuple:
    """What an option's odds depend on that changes within a phase: the wounds left of the
    attacker and of each unit it names."""
    ids = {command.unit} | {s.target for s in command.selections if s.target is not None}
    return tuple((i, J.wounds_left(battle.units[i])) for i in sorted(ids))


def evaluate(player, battle, u: int, command, label: str, tie: str = "") -> Option | None:
    """The option of ``command`` (None when the rules refuse it), its odds kept in the memo.
    ``label``: its words; ``tie``: its tie-break (Option.key)."""
    if command is None:
        return None
    key = ("odds", command, _signature(battle, command))
    if key in player.memo:
        odds = player.memo[key]
    elif player.memo.get(("refused", command)) == battle.mark():
        # (its expansion found a weapon no model can use, and nothing has happened since: the
        # check's verdict, a refusal, without the check)
        odds = player.memo[key] = None
    else:
        odds = player.memo[key] = (J.attack_odds(battle, command) if battle.check(command) is None else None)
    if odds is None:
        return None
    per = {}
    for t in odds.targets:
        tu = battle.units[t.uid]
        v = J.result_value(battle, t) * J.target_priority(battle, tu)
        v += WIPE_BONUS * t.wiped * J.model_worth(battle, tu) * t.models
        per[t.uid] = (v, t.destroyed, t.models, t.wiped)
    cost = odds.hazard_lost * J.model_worth(battle, u)
    return Option(u, command, per, cost, label, tie)


def marginal(opt: Option, load: dict) -> float:
    """An option's value given what the plan already sends at its targets: ``load`` is, per
    target uid, (expected models destroyed, P(still standing)) by the units planned before; the
    option's models destroyed there count up to the models expected left (no overkill)."""
    total = -opt.cost
    for uid, (v, d, alive, _wiped) in opt.per_target.items():
        if uid not in load:
            total += v
            continue
        gone, _standing = load[uid]
        # (its models destroyed count only up to those expected left: fire is focused until
        # the target is expected gone, then goes elsewhere)
        left = max(0.0, alive - gone)
        total += v * min(1.0, left / d) if d > 1e-9 else v * (1.0 if left > 1e-9 else 0.0)
    return total


def add_load(opt: Option, load: dict) -> None:
    for uid, (_v, d, _alive, wiped) in opt.per_target.items():
        gone, standing = load.get(uid, (0.0, 1.0))
        load[uid] = (gone + d, standing * (1.0 - wiped))


# --- shooting --------------------------------------------------------------------------------

def shoot_spec(battle, u: int, spec: dict, shared: dict | None = None):
    """The expansion of a Shoot of ``u`` from a weapon -> target uid table (the shorthand: models
    that cannot use a weapon at its target leave it out, 04.02): its command, and whether the
    expansion already knows the rules refuse it now (Expansion.refused). ``shared``: expand's,
    kept by the caller while nothing moves or dies."""
    step = ScriptStep(attack_action(AttackKind.SHOOTING, O.uid(u), {w: {t: None} for w, t in spec.items()}),
                      {}, "policy")
    return expand(battle, step, shared)


def _shoot(player, battle, u: int, spec: dict):
    """``shoot_spec``'s command, kept for the phase (player.memo) while no model moves, arrives or
    is removed (the spatial index's version): what it reads of the table (who can see and reach
    whom, 04.02) changes only then; the wounds the shooting before it dealt do not count. A
    command its expansion knew refused, from views all made at the battle's mark then
    (Battle.mark), is noted with that mark: its check is spared while nothing has happened since
    (``evaluate``)."""
    version = W.spatial().version
    key = ("spec", u, tuple(spec.items()), version)
    got = player.memo.get(key)
    if got is None:
        # (the unit's shooting type and its view of each target, shared by its expansions
        # while the table stands: sim.scenario.script_run.expand; with the mark it was begun at)
        shared = player.memo.get(("expand shared", u, version))
        if shared is None:
            shared = player.memo[("expand shared", u, version)] = {}
            player.memo[("expand shared at", u, version)] = battle.mark()
        exp = shoot_spec(battle, u, spec, shared)
        got = player.memo[key] = exp.command
        # (a refusal read off views all made now: a view kept from before may be stale, a rule's
        # target limit or a unit hidden changing while nothing moves; the check decides then)
        if exp.refused is not None and player.memo[("expand shared at", u, version)] == battle.mark():
            player.memo[("refused", got)] = battle.mark()
    return got


def ranged_groups(u: int) -> dict[str, list[str]]:
    """The unit's ranged weapons: weapon name -> its profiles' names (one for a weapon with a
    single profile; 04.01.03), in the order first carried."""
    out: dict[str, list[str]] = {}
    for m in W.unit_models(u):
        for w in W.weapons_of(m):
            if w.is_melee:
                continue
            names = out.setdefault(w.weapon or w.name, [])
            if w.name not in names:
                names.append(w.name)
    return out


def shooters(player, battle) -> list[int]:
    return [u for u in O.own_units(battle, player.side)
            if not W.unit_state(u).selected_to_shoot and not W.off_table(u) and O.qualifies_to_shoot(u, battle)]


def shoot_targets(player, battle, u: int) -> list[int]:
    """The enemy units ``u`` could shoot (sim.plan.common.could_shoot, kept for the phase in
    player.memo), less those destroyed since."""
    key = ("targets", u)
    if key not in player.memo:
        player.memo[key] = could_shoot(battle, u, W.enemy_units(u))
    return [t for t in player.memo[key] if not W.unit_destroyed(t)]


def unit_options(player, battle, u: int) -> list[Option]:
    """A unit's shooting options: all weapons at each target it could shoot (each multi-profile
    weapon with its best profile there), and its weapons split each at its best target."""
    targets = shoot_targets(player, battle, u)
    if not targets:
        return []
    groups = ranged_groups(u)
    plural = len(groups) > 1 or any(len(p) > 1 for p in groups.values())
    who = J.shown(battle, u)
    best_of: dict = {}  # (group, target uid) -> (value, profile)
    if plural:
        for t in targets:
            tid = O.uid(t)
            for g, profiles in groups.items():
                for p in profiles:
                    o = evaluate(player, battle, u, _shoot(player, battle, u, {p: tid}), "")
                    if o is not None:
                        v = sum(x[0] for x in o.per_target.values()) - o.cost
                        if (g, tid) not in best_of or v > best_of[(g, tid)][0]:
                            best_of[(g, tid)] = (v, p)
    out = []
    for t in targets:
        tid = O.uid(t)
        if plural:
            spec = {best_of[(g, tid)][1]: tid for g in groups if (g, tid) in best_of}
            if not spec:
                continue
        else:
            spec = {next(iter(groups.values()))[0]: tid}
        o = evaluate(player, battle, u, _shoot(player, battle, u, spec), f"{who} shoots {J.shown(battle, t)}",
                     f"{J.name(u)} shoots {J.name(t)}")
        if o is not None:
            out.append(o)
    if len(groups) > 1 and best_of:  # each weapon at the target it does most to
        spec = {}
        for g in groups:
            cands = [(v, tid, p) for (gg, tid), (v, p) in best_of.items() if gg == g]
            if cands:
                v, tid, p = max(cands, key=lambda c: (c[0], c[1]))
                spec[p] = tid
        if len(set(spec.values())) > 1:
            names = ", ".join(f"{p} at {J.shown(battle, battle.units[t])}" for p, t in spec.items())
            plain = ", ".join(f"{p} at {J.name(battle.units[t])}" for p, t in spec.items())
            o = evaluate(player, battle, u, _shoot(player, battle, u, spec), f"{who} shoots {names}",
                         f"{J.name(u)} shoots {plain}")
            if o is not None:
                out.append(o)
    return out


def plan(options: dict[int, list[Option]]) -> list[tuple[float, Option]]:
    """Greedy assignment of units to options (each option's value discounted by the units
    planned before it at the same targets); returns (urgency, option) per unit planned, the
    one to go first first: urgency = its value less that of its second-best option then."""
    load: dict = {}
    left = dict(options)
    chosen = []
    while left:
        best = None
        for u in sorted(left, key=lambda x: O.uid(x)):
            for o in left[u]:
                v = marginal(o, load)
                if best is None or v > best[0]:
                    best = (v, o)
        if best is None or best[0] <= 0.0:
            break
        v, o = best
        del left[o.unit]
        add_load(o, load)
        chosen.append(o)
    last = []  # (units with nothing left worth shooting still shoot, last, when it costs nothing)
    for u in sorted(left, key=lambda x: O.uid(x)):
        free = [o for o in left[u] if o.cost <= 0.0]
        if free:
            last.append(max(free, key=lambda o: (marginal(o, load), sum(x[0] for x in o.per_target.values()))))
    out = []
    for o in chosen:  # urgency against the plan without this unit's own load
        rest: dict = {}
        for other in chosen:
            if other is not o:
                add_load(other, rest)
        vals = sorted((marginal(x, rest) for x in options[o.unit]), reverse=True)
        second = vals[1] if len(vals) > 1 else 0.0
        out.append((vals[0] - max(0.0, second), o))
    out.sort(key=lambda x: (-x[0], O.uid(x[1].unit)))
    return out + [(-1.0, o) for o in last]


def words(o: Option, value: float) -> str:
    return f"{o.label}: {expectation(o, value)}"


def expectation(o: Option, value: float) -> str:
    """What the option is expected to do, from the odds it was judged by (sim.odds, kept in
    the Option): models destroyed and their worth."""
    models = sum(d for _v, d, _a, _w in o.per_target.values())
    return f"{models:.1f} models, {value:.0f} pts expected"


def shooting_candidates(player, battle) -> list[Scored]:
    # (nothing changes in the battle while its options are weighed: the unit views each
    # option's odds read are worked out once, sim.odds.problem.held_still)
    with held_still(battle):
        return to_the_end(_shooting_candidates(player, battle))


def shooting_thinking(player, battle):
    """``shooting_candidates`` a step at a time (Player.thinking): a generator that yields
    after each unit's options are weighed and returns the same list. The battle is held still
    until it returns or is closed."""
    with held_still(battle):
        return (yield from _shooting_candidates(player, battle))


def _shooting_candidates(player, battle):
    """A generator: yields after each unit's options (the slow part of a full-size army's first
    choice of a Shooting phase, a hundred milliseconds and more), returns the candidates."""
    options = {}
    units = shooters(player, battle)
    # (the benefit of cover each unit's options read at each of its targets, worked out in one
    # batch: read option by option, the first read of each pair would be a batch of its own)
    battle.visibility.resolve_cover([(u, t) for u in units for t in shoot_targets(player, battle, u)])
    for u in units:
        opts = unit_options(player, battle, u)
        if opts:
            options[u] = opts
        yield
    planned = _legal_plan(player, battle, options)
    if not planned:
        return []
    rest: dict = {}
    for _urg, o in planned[1:]:
        add_load(o, rest)
    first = planned[0][1]
    v0 = marginal(first, rest)
    out = [Scored(v0, first.command, words(first, v0), expectation(first, v0))]
    seen = {first.command}
    others = sorted(((marginal(o, rest), o) for opts in options.values() for o in opts),
                    key=lambda x: (-x[0], O.uid(x[1].unit), x[1].key))
    for v, o in others:
        if o.command not in seen and v > 0:
            seen.add(o.command)
            out.append(Scored(v, o.command, words(o, v), expectation(o, v)))
    if player.explaining:
        from sim.players.base import Weighed
        player.explain(f"shooting: {J.shown(battle, first.unit)}", out[0].label,
                       [Weighed(s.label, s.value, "pts") for s in out[:5]])
    return out


def _legal_plan(player, battle, options: dict) -> list:
    """``plan(options)`` whose first option the rules accept now. An option's odds (and the
    check they were worked out after) are kept for the phase while the wounds they read stand
    (``evaluate``); a rule's condition can turn against it meanwhile without a wound lost (Thrill
    Seekers: no other unit has attacked the target this phase). Such an option is dropped, its
    odds forgotten, and the plan made again. (The check is the one the submission reuses.)"""
    while options:
        planned = plan(options)
        if not planned:
            return []
        first = planned[0][1]
        if battle.check(first.command) is None:
            return planned
        player.memo[("odds", first.command, _signature(battle, first.command))] = None
        options[first.unit] = [o for o in options[first.unit] if o is not first]
        if not options[first.unit]:
            del options[first.unit]
    return []


# --- fighting --------------------------------------------------------------------------------

def _legal_first(battle, out: list[Scored]) -> list[Scored]:
    """``out`` from its first candidate the rules accept now (a fight's odds are kept for the
    phase as a shot's are, _legal_plan; the check is the one the submission reuses)."""
    while out and battle.check(out[0].command) is not None:
        out = out[1:]
    return out


def fight_option(player, battle, u: int, target: int | None) -> Option | None:
    """``u`` fights, each model at ``target`` where it can reach it (else the nearest it can;
    None: every model its nearest), with its best melee weapon against its target."""
    from sim.rules import multi_profile as MP
    enemies = W.engaged_with(u)
    used = W.unit_state(u).used_one_shot
    sels = []
    for m in W.unit_models(u):
        mid = W.model_id(m)
        can = fight_targets(m, enemies)
        if not can:
            continue
        t = target if target in can else nearest_fight_target(m, enemies)
        melee = selectable_melee(m, mid, used)
        if not melee:
            continue
        tr = esper.component_for_entity(t, Roster)
        i = tr.models.index(W.unit_models(t)[0])  # (its first living model stands for the unit)
        tid = tr.ids[i]
        tsv, tinsv, tw = tr.Sv_of.get(tid, 7), tr.InSv_melee_of.get(tid), tr.full_wounds[i]
        tt = tr.T[i]

        def score(w, tt=tt, tsv=tsv, tinsv=tinsv, tw=tw):
            return J.quick_damage(w, tt, tsv, tinsv, tw)
        extra = [w for w in melee if O._extra(w)]
        main = [w for w in melee if not O._extra(w)]
        # (one profile of a multi-profile weapon: the best here, 04.01.03)
        picked = MP.pick_profiles(main, lambda profiles: max(profiles, key=score)) if main else []
        chosen = ([max(picked, key=score)] if picked else []) + extra
        tname = esper.component_for_entity(t, Unit).id
        sels += [Selection(mid, w.name, tname) for w in chosen]
    if not sels:
        return None
    cmd = Fight(O.uid(u), tuple(sels))
    what = "its nearest enemies" if target is None else J.shown(battle, target)
    plain = "its nearest enemies" if target is None else J.name(target)
    return evaluate(player, battle, u, cmd, f"{J.shown(battle, u)} fights {what}", f"{J.name(u)} fights {plain}")


def fight_options(player, battle, u: int) -> list[Option]:
    out = []
    seen = set()
    for t in [None] + W.engaged_with(u):
        o = fight_option(player, battle, u, t)
        if o is not None and o.command not in seen:
            seen.add(o.command)
            out.append(o)
    out.sort(key=lambda o: (-sum(x[0] for x in o.per_target.values()), o.key))
    return out


def strike_back(battle, o: Option) -> float:
    """What the option removes of enemy units that have still to fight this phase: the share of
    their models it is expected to destroy times their melee worth against us (quick)."""
    total = 0.0
    me = esper.component_for_entity(o.unit, Roster)
    ppm = J.model_worth(battle, o.unit)
    for uid, (_v, d, alive, _w) in o.per_target.items():
        t = battle.units[uid]
        st = W.unit_state(t)
        if st.selected_to_fight or not alive:
            continue
        r = esper.component_for_entity(t, Roster)
        dealt = sum(max((J.quick_damage(w, me.T[0], me.Sv_of.get(me.ids[0], 7), me.InSv_melee_of.get(me.ids[0]),
                                        me.full_wounds[0]) for w in ws if w.is_melee), default=0.0)
                    for ws, m in zip(r.weapons, r.models) if m in W.unit_models(t))
        per_model_wounds = max(1.0, sum(me.full_wounds) / max(1, len(me.full_wounds)))
        total += min(1.0, d / alive) * dealt / per_model_wounds * ppm
    return total


def fight_candidates(player, battle) -> list[Scored]:
    ts = battle.turn_state
    owed = O.pending_fight(battle, player.side)
    if owed is not None:
        if not W.unit_engaged(owed):  # (12.06 / 12.08: an overrun fight, or its fight after one)
            return [Scored(0.0, O.owed_fight(battle, owed), f"{J.shown(battle, owed)} fights")]
        opts = fight_options(player, battle, owed)
        out = [Scored(sum(x[0] for x in o.per_target.values()), o.command, words(o, sum(x[0] for x in o.per_target.values())))
               for o in opts]
        return _legal_first(battle, out) or [Scored(0.0, O.owed_fight(battle, owed), f"{J.shown(battle, owed)} fights")]
    if ts.step == FightStep.FIGHT:
        eligible = fight_eligible(battle, player.side)
        if ts.forced_pick is not None:  # (15.12 a Counteroffensive's unit is the next pick)
            eligible = [u for u in eligible if u == ts.forced_pick] or [ts.forced_pick]
        elif ts.fights_first_step:
            eligible = [u for u in eligible if fights_first(u, battle)] or eligible
        scored = []
        for u in eligible:
            if not W.unit_engaged(u):
                cmd = O.fight_command(battle, u)  # (an overrun fight, 12.06)
                if cmd is not None and battle.check(cmd) is None:
                    scored.append((0.0, 0.0, cmd, f"{J.shown(battle, u)} makes an overrun fight", ""))
                continue
            opts = fight_options(player, battle, u)
            for o in opts:
                v = sum(x[0] for x in o.per_target.values()) - o.cost
                scored.append((v + strike_back(battle, o), v, o.command, words(o, v), expectation(o, v)))
            if not opts:  # (no melee attacks to make: it is selected all the same, 12.04)
                cmd = O.fight_command(battle, u)
                if cmd is not None and battle.check(cmd) is None:
                    scored.append((0.0, 0.0, cmd, f"{J.shown(battle, u)} fights", ""))
        if not scored:
            return []
        scored.sort(key=lambda s: (-s[0], s[3]))
        out = _legal_first(battle, [Scored(p, cmd, label, expect) for p, _v, cmd, label, expect in scored])
        if not out:
            return []
        if player.explaining:
            from sim.players.base import Weighed
            player.explain("fighting", out[0].label, [Weighed(s.label, s.value, "pts") for s in out[:5]])
        return out
    from sim.players.tactician import charges
    return charges.fight_moves(player, battle)
