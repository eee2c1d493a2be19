"""What the tactician's judgements rest on: what a unit is worth, and what an attack is expected
to destroy, worked out by the odds engine (sim.odds) from the same rules the battle rolls with.

A unit's worth is its file's points where it has them; where it has none (the default battle),
a value in the same scale from what the unit is: each model's wounds and saves (how much it takes
to remove it), its weapons' expected output (how much it removes: ``quick_damage`` against a
reference target) and its Objective Control. An attack's value is the worth of the models it is
expected to destroy, with some credit for the wounds it leaves on models that survive it
(``attack_odds``: exact distributions from sim.odds)."""

from __future__ import annotations

import math
import weakref
from typing import NamedTuple

import esper
import numpy as np

from sim import names
from sim.components import Roster, Unit
from sim.errors import PlanError
from sim.odds.engine import summary
from sim.odds.problem import OddsError, problem_for_command
from sim.rules.attack import CRITICAL, SUCCESS
from sim.rules.sequence import save_faces, wound_faces
from sim.world import queries as W

# the reference target of a weapon's expected output (a typical line infantry model)
REF_T, REF_SV, REF_W = 4, 3, 2
PER_WOUND = 3.0      # worth of one wound of a model with no save worth speaking of
PER_OUTPUT = 6.0     # worth of one expected wound a turn its weapons deal the reference target
PER_OC = 2.0         # worth of a point of Objective Control
DAMAGE_CREDIT = 0.3  # share of an attack's value given by wounds dealt, not models destroyed

_WORTH: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # battle -> {unit id: worth, (kind, ...): kept}


def p_success(need: int) -> float:
    """A D6 roll of ``need`` or more (an unmodified 1 always fails, a 6 always succeeds)."""
    return min(5, max(1, 7 - need)) / 6.0


def p_wound(s: int, t: int) -> float:
    """05.02 The wound roll's chance for Strength ``s`` against Toughness ``t``, unmodified
    (the rules' own faces, sim.rules.sequence.wound_faces)."""
    return sum(1 for f in wound_faces(s, t, 0, 6)[1:] if f in (SUCCESS, CRITICAL)) / 6.0


def p_unsaved(sv: int, ap: int, insv: int | None) -> float:
    """05.03 The chance a save fails: the armour save worsened by AP, or the invulnerable save
    (the rules' own faces, sim.rules.sequence.save_faces)."""
    return sum(1 for f in save_faces(ap, sv, insv, 0)[1:] if f[0]) / 6.0


TWO_D6 = tuple(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == n) / 36.0 for n in range(13))
"""P(2D6 = n), n from 0 to 12 (a charge roll, 11.02; a battle-shock test, 01.07)."""


def p_2d6_at_least(n: float) -> float:
    """P(2D6 >= n), ``n`` rounded up to a whole number."""
    need = math.ceil(n - 1e-9)
    return _AT_LEAST[max(need, 0)] if need <= 12 else 0.0


_AT_LEAST = tuple(sum(TWO_D6[need:]) for need in range(13))  # (p_2d6_at_least's sums, each made once)


def quick_damage(w, t: int = REF_T, sv: int = REF_SV, insv: int | None = None, wounds: int = REF_W) -> float:
    """A weapon profile's expected wounds dealt to one target of Toughness ``t`` (a rough
    estimate, no abilities read: what ranks targets before the exact odds are asked)."""
    hit = p_success(w.skill) if w.skill else 1.0
    return w.A.mean * hit * p_wound(w.S, t) * p_unsaved(sv, w.AP, insv) * min(float(w.D.mean), float(wounds))


def model_output(profiles) -> tuple[float, float]:
    """(ranged, melee) expected wounds a turn of a model's weapons against the reference target:
    every ranged weapon, the best melee one."""
    ranged = sum(quick_damage(w) for w in profiles if not w.is_melee)
    melee = max((quick_damage(w) for w in profiles if w.is_melee), default=0.0)
    return ranged, melee


def _model_estimate(r: Roster, i: int) -> float:
    """The estimate of the model in slot ``i`` (see the module's docstring)."""
    mid = r.ids[i]
    sv, insv = r.Sv_of.get(mid, 7), r.InSv_of.get(mid)
    toughness = 1.0 / max(0.17, p_unsaved(sv, -1, insv))  # (how many AP -1 wounds one wound takes)
    ranged, melee = model_output(r.weapons[i])
    return (PER_WOUND * r.full_wounds[i] * (0.5 + 0.5 * toughness)
            + PER_OUTPUT * (ranged + melee) + PER_OC * r.OC[i])


def _estimated_worth(r: Roster) -> float:
    """A unit's worth where its file gives no points (see the module's docstring)."""
    return sum(_model_estimate(r, i) for i in range(len(r.ids)))


def unit_worth(battle, u: int) -> float:
    """A unit's worth at full strength: its file's points, else the estimate (kept per battle)."""
    unit = esper.component_for_entity(u, Unit)
    cache = _WORTH.setdefault(battle, {})
    got = cache.get(unit.id)
    if got is None:
        r = esper.component_for_entity(u, Roster)
        spec = next((s for s in battle.scenario.units if s.id == unit.id), None)
        got = cache[unit.id] = float(spec.points if spec is not None and spec.points else _estimated_worth(r))
    return got


def model_worth(battle, u: int) -> float:
    """A unit's worth per model (its points, or its estimated worth, spread evenly): the mean of
    its models' ``model_value``."""
    r = esper.component_for_entity(u, Roster)
    return unit_worth(battle, u) / max(1, len(r.full))


def model_value(battle, m: int) -> float:
    """One model's worth, the one measure of it (the tactician's every judgement, its answers to
    decisions included): its unit's worth (``unit_worth``) shared among the unit's models by
    each one's estimate (its wounds and saves, its weapons' output, its OC: a special weapon's
    bearer is worth more than the squad's riflemen); of an attached unit (19.01), each part's
    own points among that part's models, where the file gives them."""
    u = W.unit_of(m)
    unit = esper.component_for_entity(u, Unit)
    cache = _WORTH.setdefault(battle, {})
    shares = cache.get(("shares", unit.id))
    if shares is None:
        r = esper.component_for_entity(u, Roster)
        est = [max(1e-9, _model_estimate(r, i)) for i in range(len(r.ids))]
        slot = {mid: i for i, mid in enumerate(r.ids)}
        spec = next((s for s in battle.scenario.units if s.id == unit.id), None)
        groups = [(None, list(range(len(r.ids))))]
        if spec is not None and spec.parts and all(p.points for p in spec.parts):
            groups = [(float(p.points), [slot[x.id] for x in p.models if x.id in slot]) for p in spec.parts]
        shares = [0.0] * len(r.ids)
        for points, idx in groups:
            total = sum(est[i] for i in idx)
            worth = unit_worth(battle, u) * total / sum(est) if points is None else points
            for i in idx:
                shares[i] = worth * est[i] / total
        cache[("shares", unit.id)] = shares
    return shares[esper.component_for_entity(u, Roster).models.index(m)]


class TargetResult(NamedTuple):
    """One target of an attack: expected models destroyed, wounds dealt, P(wiped out)."""

    uid: str
    models: int      # alive when the attack starts
    destroyed: float
    damage: float
    wiped: float


class AttackOdds(NamedTuple):
    targets: tuple      # TargetResult per target
    hazard_lost: float  # the attacker's expected models destroyed by its own hazard rolls


def attack_odds(battle, command) -> AttackOdds | None:
    """The exact odds of a Shoot or Fight command, summarised (None when the rules refuse it);
    kept for the battle per equal Problem (the odds are a function of it alone, as sim.odds's
    own cache has it: an attack asked again in a later phase, or after the engine's 128 kept
    problems have moved on, is not solved again)."""
    try:
        problem = problem_for_command(battle, command)
    except (OddsError, PlanError):
        return None
    kept = _WORTH.setdefault(battle, {}).setdefault(("odds",), {})  # (a tuple: no unit id is one)
    got = kept.get(problem)
    if got is not None:
        return got
    try:
        # (solve(problem, counters=False)'s means, without the parts of its Odds not read here)
        odds = summary(problem)
    except (OddsError, PlanError):
        return None
    got = kept[problem] = AttackOdds(tuple(TargetResult(*t) for t in odds.targets), odds.hazard_destroyed)
    return got


def result_value(battle, t: TargetResult) -> float:
    """The worth of one target's result: models destroyed (each with the Objective Control it
    takes off the objectives it holds, ``objective_stakes``), with some credit for wounds dealt
    to models that survive (a wound on a 12-wound tank brings its end nearer)."""
    u = battle.units[t.uid]
    ppm = model_worth(battle, u)
    r = esper.component_for_entity(u, Roster)
    per_wound = ppm / max(1.0, sum(r.full_wounds) / max(1, len(r.full_wounds)))
    stake = objective_stakes(battle).get(t.uid, 0.0)
    return (1.0 - DAMAGE_CREDIT) * ppm * t.destroyed + DAMAGE_CREDIT * per_wound * t.damage + stake * t.destroyed


def name(u: int) -> str:
    """The unit's datasheet name, shared by units of one datasheet: the spelling of the
    tie-break keys (attacks.Option.key), kept as it was so that the choices stay the same."""
    return esper.component_for_entity(u, Unit).name


def shown(battle, u: int) -> str:
    """The unit's name as a person reads it ("Raider Mob (2)" when two share one: sim.names),
    for the words the tactician says (--explain, the sandbox's log), never a key."""
    uid = esper.component_for_entity(u, Unit).id
    return names.of_battle(battle).get(uid) or name(u)


def wounds_left(u: int) -> int:
    r = esper.component_for_entity(u, Roster)
    return sum(max(0, w.remaining) for w in r.wounds)


OBJECTIVE_REACH = 3.0  # 14.02 a model within 3" of an objective marker contests it (edge to centre)
NEAR_OBJECTIVE = 6.0   # a unit this close to an objective is on it or about to be
NEAR_WEIGHT, NEAR_RANGE = 2.0, 24.0  # an enemy unit next to ours matters up to this much more


def near_objective(battle, u: int, reach: float = NEAR_OBJECTIVE) -> bool:
    """Some living model of the unit within ``reach`` of an objective marker's centre."""
    ts = battle.turn_state
    objs = list(ts.objectives) if ts is not None else []
    if not objs:
        return False
    from sim.components import Position
    for m in W.unit_models(u):
        p = esper.component_for_entity(m, Position)
        for o in objs:
            if (p.x - o.x) ** 2 + (p.y - o.y) ** 2 <= reach * reach:
                return True
    return False


def target_priority(battle, t: int) -> float:
    """How much more than its worth destroying enemy unit ``t`` matters now: more when it is on
    or near an objective (its OC), more when it has our units within its reach (its threat)."""
    memo = _WORTH.setdefault(battle, {})
    key = ("prio", esper.component_for_entity(t, Unit).id, _state_key(battle))
    got = memo.get(key)
    if got is not None:
        return got
    from sim.plan import moves as MV
    f = 1.0
    if near_objective(battle, t):
        f += 0.1  # (on or about to be on an objective; what it holds there: objective_stakes)
    r = esper.component_for_entity(t, Roster)
    reach = max((w.range or 0 for ws in r.weapons for w in ws), default=0)
    melee = any(w.is_melee for ws in r.weapons for w in ws)
    gap = MV.unit_gap(t, W.enemy_units(t))
    if gap is not None:
        if gap <= reach or (melee and gap <= 12.0):
            f += 0.15
        f += NEAR_WEIGHT * max(0.0, 1.0 - gap / NEAR_RANGE)  # (the nearer our units, the sooner it strikes)
    memo[key] = f
    return f


def _state_key(battle):
    ts = battle.turn_state
    return None if ts is None else (ts.round, ts.active, ts.phase)


OC_WORTH = 10.0  # worth of one point of enemy Objective Control taken off an objective it holds or contests


def objective_stakes(battle) -> dict:
    """Per unit id: the worth, per model destroyed, of the Objective Control it takes off the
    objectives it stands on (14.02: the sum of the OC of each side's models in range), full
    where its side controls or ties an objective its loss could flip or make contested, a third
    where the margin is beyond it. Worked out once per table state."""
    ts = battle.turn_state
    objs = list(ts.objectives) if ts is not None else []
    memo = _WORTH.setdefault(battle, {})
    # (what it reads changes only when a model moves, is set up or removed: the spatial index's
    # version, which each of those bumps; not with every event, as the dice of each attack)
    key = ("stakes", _state_key(battle), W.spatial().version)
    got = memo.get("stakes")
    if got is not None and got[0] == key:
        return got[1]
    out: dict = {}
    if objs:
        from sim.phases.scoring import in_range_rows
        rows, where = stake_models()
        if rows:
            # (who is in range of what, every objective at once: each column models_in_range's,
            # each model's row kept from the phases' control checks while its footprint stands)
            out = stakes_of(battle, rows, in_range_rows(W.spatial(), ts.objectives, where))
    memo["stakes"] = (key, out)
    return out


def stake_models() -> tuple[list, list[int]]:
    """``objective_stakes``'s models: (unit id, owner, OC) of every living model on the
    battlefield, unit by unit, and each one's row of the spatial index, in the same order."""
    rows, where = [], []
    for u in W.all_units():
        unit = esper.component_for_entity(u, Unit)
        oc = esper.component_for_entity(u, Roster).OC
        lv = W.living(u)
        rows += [(unit.id, unit.owner, oc[slot]) for slot in lv.slots]
        where += lv.rows.tolist()
    return rows, where


def stakes_of(battle, rows: list, hit: np.ndarray) -> dict:
    """``objective_stakes`` of the models ``rows`` (``stake_models``), given which of them are in
    range of which objective (``hit``: models x objectives, 14.01.01): per objective, each
    side's level of control and each unit's share of it, the models in its range in order."""
    out: dict = {}
    for j in range(hit.shape[1]):
        level = {0: 0, 1: 0}
        by_unit: dict = {}
        for k in np.flatnonzero(hit[:, j]).tolist():
            uid, owner, oc = rows[k]
            level[owner] += oc
            n, s = by_unit.get(uid, (0, 0))
            by_unit[uid] = (n + 1, s + oc)
        for uid, (n, s) in by_unit.items():
            owner = esper.component_for_entity(battle.units[uid], Unit).owner
            margin = level[owner] - level[1 - owner]
            if margin < 0 or not s:
                continue
            weight = 1.0 if margin <= s else 1.0 / 3.0
            out[uid] = out.get(uid, 0.0) + weight * OC_WORTH * s / n
    return out
