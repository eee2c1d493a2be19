"""The tactician's charges (issue 27 item 1): declared where the chance of reaching times the
fight's expected value is worth the risk; its targets, pile-ins and consolidations.

A charge is declared before its roll (11.02) and its targets are chosen after it (11.04), so a
declaration is worth, over the 36 rolls of 2D6, the best charge that roll reaches (or none, when
every charge it reaches would cost more than it gains), less the risk of declaring (Fire
Overwatch, 15.08, when the opponent has the CP for it). A charge at one target is worth what the
charging unit is expected to destroy of it in the fight that follows (it fights first), plus
its shooting silenced, less what it is expected to lose when the survivors strike back and its
own shooting locked in combat (quick estimates from the profiles: the unit is not engaged yet,
so no Fight command exists to ask the exact odds of). The chance that the roll reaches a
target ``gap`` inches away is exact: P(2D6 >= gap), the roll a target must be within (11.04,
sim.rules.charge.in_reach)."""

from __future__ import annotations

import math

import esper

from sim import commands as C
from sim.commands import ChargeMove, DeclareCharge, charge_command, consolidate_command, pile_in_command
from sim.components import Roster, Unit
from sim.phases.state import FightStep
from sim.players import options as O
from sim.players.tactician.scored import Scored
from sim.players.tactician import judge as J
from sim.plan import moves as MV
from sim.plan.fight import was_eligible_to_fight
from sim.rules import charge as CHG
from sim.rules.geometry import EPS
from sim.rules.movement.moves import ConsolidationMode
from sim.rules.movement.solvers import charge as CS
from sim.rules.movement.solvers import pile_in as PS
from sim.world import queries as W

DECLARE_SHARE = 0.03   # a declaration must be worth this share of the charging unit's worth...
DECLARE_MIN = 1.0      # ...and at least this much
LOCK_SHARE = 0.5       # of a unit's next shooting, what being locked in combat costs / is worth
OVERWATCH = 0.5        # the chance an opponent with the CP fires overwatch at a declared charge


def p_reach(gap: float) -> float:
    """P(a 2D6 charge roll reaches a target ``gap`` inches away): the roll must be at least the
    gap (11.04, within the roll: up to the measuring tolerance); a gap over 12" is never in
    reach (11.02)."""
    if gap is None or gap > CHG.CHARGE_RANGE + EPS:
        return 0.0
    need = max(0, math.ceil(gap - EPS))
    return J.p_2d6_at_least(need)


def _first(u: int):
    """(toughness, save, invulnerable save against melee, wounds) of the unit's first living model."""
    r = esper.component_for_entity(u, Roster)
    i = r.models.index(W.unit_models(u)[0])
    mid = r.ids[i]
    return r.T[i], r.Sv_of.get(mid, 7), r.InSv_melee_of.get(mid), r.full_wounds[i]


def melee_wounds(attacker: int, defender: int, share: float = 1.0) -> float:
    """The attacker's living models' expected wounds on the defender in one fight (each model its
    best melee weapon there; quick estimate), ``share`` of its models fighting."""
    t, sv, insv, w = _first(defender)
    r = esper.component_for_entity(attacker, Roster)
    living = set(W.unit_models(attacker))
    total = 0.0
    for m, ws in zip(r.models, r.weapons):
        if m in living:
            total += max((J.quick_damage(x, t, sv, insv, w) for x in ws if x.is_melee), default=0.0)
    return total * share


def ranged_wounds(attacker: int, defender: int) -> float:
    t, sv, insv, w = _first(defender)
    r = esper.component_for_entity(attacker, Roster)
    living = set(W.unit_models(attacker))
    return sum(J.quick_damage(x, t, sv, insv, w) for m, ws in zip(r.models, r.weapons) if m in living
               for x in ws if not x.is_melee)


def charge_value(battle, u: int, t: int) -> float:
    """What a charge of ``u`` at ``t`` that reaches is worth (see the module's docstring); kept
    while the table stands (the phase and the spatial index's version: what it reads, the
    living models and the objectives' stakes, changes only with a move, a set-up or a removal)."""
    memo = J._WORTH.setdefault(battle, {})
    key = (J._state_key(battle), W.spatial().version)
    kept = memo.get("charge values")
    if kept is None or kept[0] != key:
        kept = memo["charge values"] = (key, {})
    got = kept[1].get((u, t))
    if got is None:
        got = kept[1][(u, t)] = _charge_value(battle, u, t)
    return got


def _charge_value(battle, u: int, t: int) -> float:
    alive_t = len(W.unit_models(t))
    if not alive_t:
        return 0.0
    killed = min(float(alive_t), melee_wounds(u, t) / max(1.0, _first(t)[3]))
    stake = J.objective_stakes(battle).get(O.uid(t), 0.0)
    gain = killed * (J.model_worth(battle, t) + stake) * J.target_priority(battle, t)
    if killed >= alive_t - 1e-9:
        gain += 0.25 * J.unit_worth(battle, t) * len(W.unit_models(t)) / max(1, len(esper.component_for_entity(t, Roster).full))
    left = 1.0 - killed / alive_t
    lost = min(float(len(W.unit_models(u))), melee_wounds(t, u, left) / max(1.0, _first(u)[3]))
    loss = lost * J.model_worth(battle, u)
    # (locked in combat: its shooting silenced next turn, and ours)
    silenced = LOCK_SHARE * left * ranged_wounds(t, u) / max(1.0, _first(u)[3]) * J.model_worth(battle, u)
    locked = LOCK_SHARE * left * ranged_wounds(u, t) / max(1.0, _first(t)[3]) * J.model_worth(battle, t)
    return gain + silenced - loss - locked


def overwatch_risk(battle, u: int, near: list[int]) -> float:
    """What declaring may cost: the nearest enemy unit firing overwatch (hits on 6s), when the
    opponent has a CP to spend."""
    ts = battle.turn_state
    foe = 1 - esper.component_for_entity(u, Unit).owner
    cp = ts.cp[foe] if ts is not None and ts.cp is not None else 0
    if not near or cp < 1:
        return 0.0
    worst = max(ranged_wounds(e, u) for e in near)
    return OVERWATCH * worst * 0.25 / max(1.0, _first(u)[3]) * J.model_worth(battle, u)


def declare_value(battle, u: int) -> tuple[float, str]:
    """The worth of declaring a charge with ``u`` now (see the module's docstring), with words."""
    uid = O.uid(u)
    dist = CS.charge_target_distances(uid, MV.bodies())
    near = [(d, tid) for tid, d in sorted(dist.items()) if d <= CHG.CHARGE_RANGE + EPS]
    if not near:
        return 0.0, ""
    vals = {tid: charge_value(battle, u, battle.units[tid]) for _d, tid in near}
    ev = 0.0
    for roll in range(2, 13):
        p = J.TWO_D6[roll]
        best = max((vals[tid] for d, tid in near if CHG.in_reach(d, CHG.reach(roll))), default=0.0)
        ev += p * max(0.0, best)
    risk = overwatch_risk(battle, u, [battle.units[tid] for _d, tid in near])
    top = max(near, key=lambda x: (vals[x[1]], -x[0]))
    words = (f"{J.shown(battle, u)} declares a charge: {p_reach(top[0]):.0%} to reach "
             f"{J.shown(battle, battle.units[top[1]])} {top[0]:.1f}\" away; {ev - risk:.1f} pts expected")
    return ev - risk, words


def charge_move(battle, u: int) -> tuple[float, object, str]:
    """After the roll: the charge at the target in reach worth most (its move the solver's),
    or no charge (no targets) when none is worth making or can be made."""
    uid = O.uid(u)
    st = W.unit_state(u)
    cands = []
    for fly in [False] + ([True] if MV.can_fly(u) else []):
        limit = MV.charge_limit(u, st.charge_roll, fly)
        for tid in CS.charge_targets(uid, limit, MV.bodies()):
            cands.append((charge_value(battle, u, battle.units[tid]), not fly, tid, fly))
    cands.sort(key=lambda c: (-c[0], not c[1], c[2]))
    tried = set()
    for v, _ground, tid, fly in cands:
        if v <= 0:
            break
        if (tid, fly) in tried:
            continue
        tried.add((tid, fly))
        cmd = charge_command(battle, uid, [tid], None, fly=fly)
        if cmd.targets and battle.check(cmd) is None:
            return v, cmd, f"{J.shown(battle, u)} charges {J.shown(battle, battle.units[tid])}: {v:.1f} pts expected"
    return 0.0, ChargeMove(uid, (), ()), f"{J.shown(battle, u)} makes no charge"


def candidates(player, battle) -> list[Scored]:
    for u in O.own_units(battle, player.side):
        st = W.unit_state(u)
        if st.charge_roll is not None and not st.charge_resolved:
            v, cmd, words = charge_move(battle, u)  # (11.02 step 3: resolved before anything else)
            return [Scored(v, cmd, words)]
    out = []
    for u in O.own_units(battle, player.side):
        if (u, C.DECLARE_CHARGE) in player.fallback._done:
            continue
        if W.unit_state(u).charge_roll is not None:
            continue
        if not any(w.is_melee for m in W.unit_models(u) for w in W.weapons_of(m)):
            continue
        cmd = DeclareCharge(O.uid(u))
        if battle.check(cmd) is not None:
            continue
        v, words = declare_value(battle, u)
        if v >= max(DECLARE_MIN, DECLARE_SHARE * J.unit_worth(battle, u)):
            out.append(Scored(v, cmd, words))
    out.sort(key=lambda s: (-s.value, s.command.unit))
    if out and player.explaining:
        from sim.players.base import Weighed
        player.explain("charges", out[0].label, [Weighed(s.label, s.value, "pts") for s in out[:5]])
    return out


# --- pile-in and consolidation (12.03, 12.08) ---------------------------------------------------

def _pile_in(battle, u: int, rule):
    """12.03 A pile-in: an engaged unit's targets are the rule's; an unengaged one that charged
    piles in toward the enemy unit within 5" worth most (the others if it cannot reach it).
    ``rule()``: the rule's own move (Part A ruling 18, ``_rule_default``)."""
    uid = O.uid(u)
    st = W.unit_state(u)
    if W.unit_destroyed(u) or st.piled_in:
        return None
    if W.unit_engaged(u) or not st.charged:
        return rule()
    near = PS.pile_in_targets(uid, MV.bodies())
    ranked = sorted(near, key=lambda t: (-charge_value(battle, u, battle.units[t]), t))
    for tgt in ranked[:1]:
        cmd = pile_in_command(battle, uid, None, [tgt], checked=False)
        if cmd is not None and cmd.to and battle.check(cmd) is None:
            return cmd
    return rule()


def _consolidate(battle, u: int, rule):
    """12.08 A consolidation: engaging, toward the enemy unit within 3" worth charging most (the
    rule's nearest if none is worth it); objective, toward an objective within 3" the side does
    not control (else the rule's nearest). ``rule()``: the rule's own move (``_rule_default``)."""
    uid = O.uid(u)
    if W.unit_destroyed(u) or W.unit_state(u).consolidated or not was_eligible_to_fight(battle, u):
        return None
    objs = MV.objectives(battle)
    choices = PS.consolidation_choices(uid, MV.bodies(), objs)
    if choices is None or choices[0] == ConsolidationMode.ONGOING:
        return rule()
    mode, units, idxs = choices
    if mode == ConsolidationMode.ENGAGING:
        best = max(units, key=lambda t: (charge_value(battle, u, battle.units[t]), t))
        return consolidate_command(battle, uid, None, targets=(best,), checked=False)
    ts = battle.turn_state
    side = esper.component_for_entity(u, Unit).owner
    mine = {n for n, c in ts.control.items() if c.controller == side} if ts is not None else set()
    free = [k for k in idxs if objs[k].name not in mine]
    return consolidate_command(battle, uid, None, objective=objs[(free or idxs)[0]].name, checked=False)


def fight_moves(player, battle) -> list[Scored]:
    """The pile-in and consolidation step's moves: one unit's at a time, in unit order (each
    put to Battle.check here: the solvers' own check is not asked for, ``checked=False``)."""
    ts = battle.turn_state
    make = _pile_in if ts.step == FightStep.PILE_IN else _consolidate
    done = player.fallback._done
    for u in O.own_units(battle, player.side):
        if (u, ts.step) in done:
            continue
        done.add((u, ts.step))
        # (the rule's move worked out once: the chosen move may be it, and it is the fallback;
        # the solver's answer for one position is the same each time)
        kept = []

        def rule(u=u):
            if not kept:
                kept.append(_rule_default(battle, u, ts.step))
            return kept[0]
        for build in (lambda: make(battle, u, rule), rule):
            cmd = build()
            if cmd is not None and cmd.to and battle.check(cmd) is None:
                return [Scored(0.0, cmd, f"{J.shown(battle, u)} {'piles in' if ts.step == FightStep.PILE_IN else 'consolidates'}")]
            if kept and cmd is kept[0]:
                break  # (the rule's move was the chosen one: refused, it is not tried again)
    return []


def _rule_default(battle, u: int, step):
    """Part A ruling 18's move (the rule's targets), when the chosen one is refused."""
    make = pile_in_command if step == FightStep.PILE_IN else consolidate_command
    return make(battle, O.uid(u), None, checked=False)
