"""What the tactician's answers to decisions weigh (issue 27 item 1): what a model is worth, what
a Command point is worth now (the CP budget), and the chances of the attack sequence's rolls
(05.01-05.04) read off the rules' own face tables, so that a stratagem or a re-roll is judged in
points gained against points paid. Deterministic: nothing here draws a die."""

from __future__ import annotations

import math

import esper

from sim import names
from sim.components import Character, Stats, Unit, Wounds
from sim.players.tactician.judge import model_value  # (the one measure of a model's worth)
from sim.rules.attack import CRITICAL, SUCCESS
from sim.rules.objectives import in_range
from sim.rules.sequence import hit_faces, save_faces, wound_faces
from sim.world import queries as W

# --- the CP budget -------------------------------------------------------------------------------
CP_POINTS = 14.0  # what one CP buys, in points, when the player holds a few and the battle is young
LAST_CP = 1.6  # spending the last CP: it is dearer (nothing left for a re-roll that saves a charge)
SPARE_CP = 0.7  # three or more left after paying: cheaper (CP left unspent at the end are worth 0)
LAST_ROUND = 0.4  # in the last battle round CP are nearly free: what is not spent is lost
OBJECTIVE_POINTS = 45.0  # holding an objective for a round, in points (its VP, and the game's aim)


def cp_price(battle, player: int, cost: int = 1) -> float:
    """The points a use of ``cost`` CP must be expected to gain now (inf when it cannot be paid):
    CP_POINTS a CP, dearer for the last CP held, cheaper with three or more left over, and little
    in the last battle round (08.02: each player gains 1 CP a Command phase, 2 a round)."""
    ts = battle.turn_state
    if ts is None or ts.cp[player] < cost:
        return math.inf
    left = ts.cp[player] - cost
    price = CP_POINTS * cost
    if left == 0:
        price *= LAST_CP
    elif left >= 3:
        price *= SPARE_CP
    rounds = ts.mission.rounds if ts.mission is not None else 5
    if ts.round >= rounds:
        price *= LAST_ROUND
    return price


# --- what a model is worth -----------------------------------------------------------------------

# (a model's worth: model_value, one measure, its home sim.players.tactician.judge)

def unit_value(battle, u: int) -> float:
    """A unit's living models' points."""
    return sum(model_value(battle, m) for m in W.unit_models(u))


def value_per_wound(battle, m: int) -> float:
    """What one wound on model ``m`` is worth: its points over its W (a wound lost brings it
    that much nearer to being destroyed)."""
    return model_value(battle, m) / max(1, esper.component_for_entity(m, Stats).W)


def damage_value(battle, m: int, D: float) -> float:
    """What one unsaved attack of damage ``D`` (its mean) is worth on model ``m``: the wounds it
    takes, at most those it has left, at the model's value per wound; a blow that destroys it is
    worth the whole model."""
    left = esper.component_for_entity(m, Wounds).remaining
    if D >= left:
        return model_value(battle, m)
    return min(D, left) * value_per_wound(battle, m)


# --- the odds of the attack sequence's rolls -------------------------------------------------------

def mean(x) -> float:
    return float(x.mean) if hasattr(x, "mean") else float(x)


def hit_chances(p) -> tuple[float, float]:
    """05.01 (P(hit, not critical), P(critical hit)) of one die of pool state ``p``."""
    faces = hit_faces(p.skill, p.hit_mod, p.hit_fail_below, p.snap)
    crit = sum(1 for f in faces[1:] if f == CRITICAL) / 6
    hit = sum(1 for f in faces[1:] if f == SUCCESS) / 6
    return hit, crit


def wound_faces_of(p):
    S = p.S if isinstance(p.S, int) else max(1, round(mean(p.S)))
    return wound_faces(S, p.T, p.wound_mod, p.critical_wound_on)


def wound_chances(p) -> tuple[float, float]:
    """05.02 (P(wound, not critical), P(critical wound)) of one die of pool state ``p``."""
    faces = wound_faces_of(p)
    return (sum(1 for f in faces[1:] if f == SUCCESS) / 6, sum(1 for f in faces[1:] if f == CRITICAL) / 6)


def first_target_model(target: int) -> int | None:
    """The model an attack at ``target`` would most likely be allocated to first: a living model
    that is not a CHARACTER (05.03), else any living one."""
    models = W.unit_models(target)
    if not models:
        return None
    plain = [m for m in models if not esper.has_component(m, Character)]
    return (plain or models)[0]


def fail_save(AP: int, m: int, melee: bool = False) -> float:
    """05.04 P(a save roll of model ``m`` fails) against AP (its Sv and InSv, no modifiers)."""
    st = esper.component_for_entity(m, Stats)
    insv = st.InSv
    if insv is not None and st.InSv_against and st.InSv_against != ("melee" if melee else "ranged"):
        insv = None
    faces = save_faces(AP, st.Sv, insv, 0)
    return sum(1 for f in faces[1:] if f[0]) / 6


def unsaved_value(battle, p, target: int, melee: bool = False) -> float:
    """What one wound (a successful wound roll) of pool state ``p`` is worth at ``target``."""
    m = first_target_model(target)
    if m is None:
        return 0.0
    return fail_save(p.AP, m, melee) * damage_value(battle, m, mean(p.D))


def wound_roll_value(battle, p, target: int, melee: bool = False) -> tuple[float, float]:
    """What a successful and a critical wound roll are worth, in points ([DEVASTATING WOUNDS]:
    a critical wound is mortal wounds, no save)."""
    v = unsaved_value(battle, p, target, melee)
    if p.devastating:
        m = first_target_model(target)
        crit = damage_value(battle, m, mean(p.D)) if m is not None else v
    else:
        crit = v
    return v, crit


def hit_roll_value(battle, p, target: int, melee: bool = False) -> tuple[float, float]:
    """What a hit and a critical hit are worth, in points ([LETHAL HITS]: a critical hit wounds
    automatically; [SUSTAINED HITS X]: X more hits)."""
    vw, vcrit = wound_roll_value(battle, p, target, melee)
    w, cw = wound_chances(p)
    one = w * vw + cw * vcrit
    crit = (vw if p.lethal else one) + mean(p.sustained) * one
    return one, crit


def near_objective(battle, u: int) -> bool:
    """Some living model of the unit is in range of an objective (14.01)."""
    ts = battle.turn_state
    if ts is None or not ts.objectives:
        return False
    fps = [W.footprint(m) for m in W.unit_models(u)]
    return any(in_range(fp, o) for o in ts.objectives for fp in fps)


def two_d6_at_least(n: int) -> float:
    """P(2D6 >= n) (sim.players.tactician.judge, its one home)."""
    from sim.players.tactician.judge import p_2d6_at_least
    return p_2d6_at_least(n)


# --- names (never ids) in what the tactician says ------------------------------------------------

def unit_name(battle, uid: str) -> str:
    """The name a person reads ("Raider Mob (2)": sim.names), for the tactician's words only."""
    return names.of_battle(battle).get(uid, uid)


def model_name(battle, mid: str) -> str:
    """A model in words: a CHARACTER's own name, else its unit's name."""
    m = battle.models.get(mid)
    if m is None:
        return mid
    c = esper.component_for_entity(m, Character).name if esper.has_component(m, Character) else ""
    return c or esper.component_for_entity(W.unit_of(m), Unit).name
