"""The tactician's Movement phase (issue 27 item 1): objectives taken and held with enough OC,
units kept out of the enemy's reach where it matters, advancing when it pays, falling back when
staying loses more; disembarking and arriving from reserves.

Once a phase (player.memo) it works out the threat map (tactician.threat) and a plan: each unit
given an objective by a small greedy assignment (RULES §26 Battlefield Dominance scores each
objective a side controls at its next Command phase, 14.02: OC decides), units holding one kept
on it, then the objectives most worth it and nearest filled with the OC the enemy could bring
there next turn, plus one. Each call then offers the next unit's options (remain stationary,
whole-unit moves toward its objective and away from the threat, an advance, a fall-back),
checked legal (a vehicle turned along its step where that makes a move legal), best first,
valued in VP: the objective it reaches, less the points the enemy is
expected to destroy of it where it ends (PTS_PER_VP), plus what it could shoot from there."""

from __future__ import annotations

import functools
import math

import esper
import numpy as np

from sim import commands as C
from sim.commands import Move, SelectToMove
from sim.components import Position, Wounds
from sim.phases.scoring import control_levels
from sim.players import options as O
from sim.players.tactician import judge as J
from sim.players.tactician import routes as R
from sim.players.tactician.scored import Scored
from sim.players.base import Weighed
from sim.players.tactician.threat import ThreatMap, damage, gap, threat_map
from sim.rules import objectives as OBJ
from sim.rules.abilities import Hook
from sim.rules.abilities.registry import REGISTRY
from sim.rules.grid import snap
from sim.world import queries as W
from sim.world import rule_reads as RR

PTS_PER_VP = 10.0       # points destroyed worth one VP (a 5-model squad of 10-point models: 5 VP)
HOME_VALUE = 8.0        # 3 VP a scoring, and +2 for every other objective while it is held
ENEMY_HOME_VALUE = 6.0  # 3 VP, and the enemy's +2s denied
OBJECTIVE_VALUE = 5.0   # 3 VP, +2 with the home objective held
# what a charge this turn counts for here, and the threat's weight: 0.5 and 0.5 (were 0 and 1:
# a melee army held back out of reach, never charged, and was shot off the table; tuned on seeds
# 2000-2059 as blue v default: 84% won, from 53%)
CHARGE_WEIGHT = 0.5
FIRE_WEIGHT = 0.5       # what the next Shooting phase's expected points count for here
HOLD_POWER = 0.0        # an objective's worth scales by (OC we send / OC needed) ** this
RISK_WEIGHT = 0.5       # what the enemy's expected points destroyed of the unit count for here (above)
HELD_EXPOSURE = 0.5     # the part of the threat that counts for a unit ending on its objective
FALL_BACK_RATIO = 1.3   # falls back when the enemy it is engaged with out-fights it by this much
FALL_BACK_MIN = 3.0     # points: a fight that costs less than this is not worth leaving
ADVANCE_MARGIN = 0.5    # VP an advance must gain over the best normal move
LAST_ROUND_EXPOSURE = 0.2  # the threat's weight in the last battle round (scored at its turn's end)
HOLDER_RANGE = 30      # inches of range that make a unit a good holder of our home objective
HOLDER_BONUS = 1.5      # how much the assignment prefers such a unit there
MAX_ETA = 2             # turns: objectives further than this are not assigned in the first pass
# the chance an objective we plan to hold still counts our OC when it scores (our next Command
# phase): below it, more units are kept on or sent to it (a lone holder shot to half-strength
# fails its battle-shock roll, 01.07, two times in five at Ld 7+, and the objective scores nothing)
HOLD_SURE = 0.85
STATIONARY_HIT = frozenset(d.name for d in REGISTRY.values()  # (the registry's records whose hit bonus
                           if d.modifier is not None and d.modifier.roll == "hit"  # needs the unit to stay put)
                           and d.modifier.when == "stationary")
TOP = 3                 # legal options offered per unit (best first)
MAX_DETOURS = 2         # blocked moves a choice tries to route round (each ~5 ms; most find none)


class Plan:
    """The phase's assignment: per objective its value to us and the OC needed there; per unit
    its objective (None: none) and goal point."""

    def __init__(self):
        self.value: dict = {}
        self.need: dict = {}
        self.held: dict = {}       # objective -> OC we have there now
        self.objective: dict = {}  # unit -> Objective or None
        self.goal: dict = {}       # unit -> (x, y) or None
        self.assigned: dict = {}   # objective name -> OC sent there
        self.miss: dict = {}       # objective name -> the chance none of the units sent there keeps its OC
        self.keep: dict = {}       # unit -> the chance it still counts its OC when we next score (keep_chance)
        self.home: set = set()     # the names of our home objectives

    def short(self, name: str) -> bool:
        """The objective lacks OC, or the units sent there are not sure enough to keep it (HOLD_SURE)."""
        return self.assigned[name] < self.need[name] or (name in self.home and 1.0 - self.miss[name] < HOLD_SURE)

    def send(self, b, o) -> None:
        """Unit ``b`` goes to (or stays on) objective ``o``: its OC, and its chance to keep it."""
        self.objective[b.ent] = o
        self.assigned[o.name] += b.oc_full
        self.miss[o.name] *= 1.0 - self.keep.get(b.ent, 1.0)


def objective_value(o, side: int) -> float:
    if o.kind == "home":
        return HOME_VALUE if o.owner == side else ENEMY_HOME_VALUE
    return OBJECTIVE_VALUE


def _ranges(body, o, dx: float = 0.0, dy: float = 0.0) -> float:
    """How far (inches) the unit moved by (dx, dy) is from being in range of the objective: its
    nearest model's base edge to the marker's 3" (<= 0: in range; terrain objectives by their
    point, roughly)."""
    reach = OBJ.CONTROL_RANGE + OBJ.MARKER_DIAMETER / 2
    d = [math.hypot(x + dx - o.x, y + dy - o.y) - r - reach for (x, y), r in zip(body.xy.tolist(), body.radius.tolist())]
    return min(d) if d else math.inf


def in_range(body, o, dx: float = 0.0, dy: float = 0.0) -> bool:
    return _ranges(body, o, dx, dy) <= 1e-6


def _oc_with(battle, side: int, b, o) -> int:
    """Our level of control of ``o`` now, with unit ``b`` in range of it."""
    ts = battle.turn_state
    lv = control_levels(tuple(ts.objectives), battle)[[x.name for x in ts.objectives].index(o.name)]
    return lv.get(side, 0) + (0 if in_range(b, o) else b.oc)


def keep_chance(battle, b, tm: ThreatMap, last: bool) -> float:
    """The chance unit ``b`` still counts its OC when we next score (RULES §26: at our next
    Command phase, in the last round at the end of this turn): a unit battle-shocked or at or
    below half-strength now (01.02.01) rolls 2D6 against its best Ld in our Command phase (08.03)
    and counts no OC if it fails (01.07); any other, for certain."""
    if b.oc_full <= 0:
        return 0.0
    if last:
        return 1.0 if b.oc > 0 else 0.0
    u = b.ent
    models = W.unit_models(u)
    if not models:
        return 0.0
    start = battle.turn_state.starting_strength.get(u, len(models))
    if start == 1:  # (01.02.01 a single model's strength is its wounds)
        left, start = esper.component_for_entity(models[0], Wounds).remaining / b.W, 1.0
    else:
        left = float(len(models))
    if not (W.unit_state(u).battle_shocked or 2 * left <= start):
        return 1.0
    lds = W.unit_leaderships(u)
    return J.p_2d6_at_least(min(lds)) if lds else 1.0


def holder(body) -> bool:
    """A unit that loses little holding an objective: it shoots far (HOLDER_RANGE)."""
    return body.max_range >= HOLDER_RANGE


def eta(body, o) -> int:
    """Turns until the unit can be in range of the objective (0: it is)."""
    d = _ranges(body, o)
    if d <= 1e-6:
        return 0
    return 1 + (1 if body.engaged else 0) + int(max(0.0, d - 1e-6) // max(1, body.M))


def plan(player, battle) -> Plan:
    """The phase's plan (worked out once: player.memo)."""
    p = player.memo.get("plan")
    if p is None:
        p = player.memo["plan"] = _make_plan(player, battle, threat_map(player, battle))
    return p


def _make_plan(player, battle, tm: ThreatMap) -> Plan:
    side = player.side
    ts = battle.turn_state
    objs = list(ts.objectives or ())
    pl = Plan()
    levels = control_levels(tuple(ts.objectives), battle) if objs else []
    last = ts.mission is not None and ts.round >= ts.mission.rounds
    for o, lv in zip(objs, levels):
        pl.value[o.name] = objective_value(o, side)
        # (the OC to have there when it scores: after the enemy's next move, or, in the last
        # round, which scores at the end of this turn (RULES §26), against what is there now)
        enemy = max((v for p, v in lv.items() if p != side), default=0) if last else \
            tm.enemy_oc_reaching((o.x, o.y))
        pl.need[o.name] = max(1, enemy + 1)
        pl.held[o.name] = lv.get(side, 0)
        pl.assigned[o.name] = 0
        pl.miss[o.name] = 1.0
        if o.kind == "home" and o.owner == side:
            pl.home.add(o.name)
    units = [b for b in tm.mine if b.oc_full > 0]
    for b in units:
        pl.keep[b.ent] = keep_chance(battle, b, tm, last)
    free = {b.ent for b in units}
    # 1. a unit on an objective stays while the OC there is needed (the one holding it first)
    for o in objs:
        on = sorted((b for b in units if b.ent in free and in_range(b, o)),
                    key=lambda b: (not holder(b), -b.oc_full, b.ent))
        for b in on:
            if not pl.short(o.name):
                break
            pl.send(b, o)
            free.discard(b.ent)
    # 2. the objectives most worth it, soonest reached, filled up to the OC needed
    pairs = []
    for b in units:
        for o in objs:
            t = eta(b, o)
            if t <= MAX_ETA:
                # (our home is best held by a unit that shoots far: it loses nothing standing)
                bonus = HOLDER_BONUS if o.kind == "home" and o.owner == side and holder(b) else 0.0
                pairs.append((-pl.value[o.name] / (1 + t) - bonus, _ranges(b, o), b.ent, o.name, b, o))
    pairs.sort(key=lambda x: x[:4])
    for _s, _d, ent, _n, b, o in pairs:
        if ent in free and pl.short(o.name):
            pl.send(b, o)
            free.discard(ent)
    # 3. the rest: where the OC is still short, else the nearest objective we do not hold
    for b in units:
        if b.ent not in free or not objs:
            continue
        short = [o for o in objs if pl.short(o.name)]
        pool = short or [o for o in objs if pl.held[o.name] <= 0] or objs
        o = min(pool, key=lambda o: (-pl.value[o.name] / (1 + eta(b, o)), _ranges(b, o), o.name))
        if holder(b) and eta(b, o) > 1:
            # (a far-shooting unit with no objective near: it supports from where it shoots)
            pl.objective[b.ent] = None
            pl.goal[b.ent] = (o.x, o.y)
            continue
        pl.send(b, o)
    for b in tm.mine:
        o = pl.objective.get(b.ent)
        if o is not None:
            pl.goal[b.ent] = (o.x, o.y)
        elif b.ent in pl.goal:
            pass
        else:  # (no OC: it goes for the enemy nearest our objectives' side, to fight)
            near = min(tm.enemies, key=lambda e: (math.dist(e.centre, b.centre), e.ent), default=None)
            pl.goal[b.ent] = near.centre if near is not None else None
    return pl


# --- scoring a position ----------------------------------------------------------------------

def position_value(player, battle, u: int, dx: float, dy: float, stationary: bool = False) -> tuple[float, str]:
    """A unit's worth (VP) ending moved by (dx, dy), and the words for it: its objective (in
    range, or the way there), less the threat where it stands, plus what it could shoot."""
    return _position(player, battle, u, dx, dy, stationary, True)


def position_worth(player, battle, u: int, dx: float, dy: float, stationary: bool = False) -> float:
    """``position_value``'s value alone (its words are made only for the options shown)."""
    return _position(player, battle, u, dx, dy, stationary, False)[0]


def position_worths(player, battle, u: int, shifts: list) -> list[float]:
    """``position_worth`` of the unit moved by each (dx, dy) of ``shifts`` (not stationary):
    the threat map's terms for every position at once (ThreatMap.exposure_rows...), the rest as
    ``_position`` adds them, in its order: the same values to the bit."""
    if not shifts:
        return []
    tm = threat_map(player, battle)
    pl = plan(player, battle)
    b = tm.body(battle, u)
    o = pl.objective.get(u)
    goal = pl.goal.get(u)
    ts = battle.turn_state
    last = ts.mission is not None and ts.round >= ts.mission.rounds
    risks = tm.exposure_rows(u, shifts)
    fires = tm.firepower_rows(u, shifts)
    charging = CHARGE_WEIGHT and not W.unit_state(u).advanced
    charges = tm.charge_value_rows(u, shifts) if charging else None
    if o is not None:
        worth = pl.value[o.name] * min(1.0, pl.assigned[o.name] / max(1, pl.need[o.name])) ** HOLD_POWER
    out = []
    for i, (dx, dy) in enumerate(shifts):
        v = 0.0
        on_it = False
        if o is not None:
            short = _ranges(b, o, dx, dy)
            on_it = short <= 1e-6
            if on_it:
                v += worth
            else:
                v += worth * (0.7 - 0.2 * short / max(1, b.M))
        if o is None and goal is not None:
            c = b.centre
            v -= 0.05 * math.dist((c[0] + dx, c[1] + dy), goal)
        risk = risks[i] / PTS_PER_VP
        v -= RISK_WEIGHT * risk * (HELD_EXPOSURE if on_it else 1.0) * (LAST_ROUND_EXPOSURE if last else 1.0)
        fire = fires[i] / PTS_PER_VP
        v += FIRE_WEIGHT * fire
        if charging:
            v += CHARGE_WEIGHT * charges[i] / PTS_PER_VP
        out.append(v)
    return out


def _position(player, battle, u: int, dx: float, dy: float, stationary: bool, wordy: bool) -> tuple[float, str]:
    tm = threat_map(player, battle)
    pl = plan(player, battle)
    b = tm.body(battle, u)
    o = pl.objective.get(u)
    v = 0.0
    words = []
    dest = ""
    on_it = False
    if o is not None:
        short = _ranges(b, o, dx, dy)
        on_it = short <= 1e-6
        # (an objective we cannot bring the OC to hold is worth that share of it: a lone unit
        # walked onto an objective the enemy can flood is shot off it for nothing)
        worth = pl.value[o.name] * min(1.0, pl.assigned[o.name] / max(1, pl.need[o.name])) ** HOLD_POWER
        if on_it:
            v += worth
            if wordy:
                dest = f"{'on' if stationary else 'to'} {o.name}"
                words.append(f"OC {_oc_with(battle, player.side, b, o)} v {pl.need[o.name] - 1}")
        else:
            # (the way there: each move's length of it is worth a fifth of the objective; a
            # progress term falling off with distance, tried first, left units idling far off)
            v += worth * (0.7 - 0.2 * short / max(1, b.M))
            if wordy:
                dest = f"{short:.0f}\" short of {o.name}" if stationary else f"toward {o.name}"
                words.append(f"{short:.0f}\" short" if not stationary else "")
    goal = pl.goal.get(u)
    if o is None and goal is not None:
        c = b.centre
        v -= 0.05 * math.dist((c[0] + dx, c[1] + dy), goal)
    risk = tm.exposure(u, dx, dy) / PTS_PER_VP
    ts = battle.turn_state
    last = ts.mission is not None and ts.round >= ts.mission.rounds
    # (the last round scores at the end of this turn: what the enemy does after counts little)
    v -= RISK_WEIGHT * risk * (HELD_EXPOSURE if on_it else 1.0) * (LAST_ROUND_EXPOSURE if last else 1.0)
    fire = tm.firepower(u, dx, dy) / PTS_PER_VP
    if stationary and any(STATIONARY_HIT & set(w.names) for w, _n in b.ranged):
        fire *= 1.2  # (an ability's +1 to hit for a unit that remained stationary: 24.16)
    v += FIRE_WEIGHT * fire
    if CHARGE_WEIGHT and not W.unit_state(u).advanced:
        v += CHARGE_WEIGHT * tm.charge_value(u, dx, dy) / PTS_PER_VP
    if not wordy:
        return v, ""
    if risk > 0.05:
        words.append(f"risk {risk * PTS_PER_VP:.0f} pts")
    words = "; ".join(w for w in words if w)
    return v, (dest + (f" ({words})" if words else "")).strip()


def _label(battle, u: int, what: str, words: str) -> str:
    return f"{unit_name(battle, u)} {what}" + (f" {words}" if words else "")


def unit_name(battle, u: int) -> str:
    return J.shown(battle, u)  # (the name a person reads: words only)


def _shift(cmd, u: int) -> tuple[float, float]:
    """The (dx, dy) a whole-unit translation moves the unit by."""
    if not cmd.to:
        return 0.0, 0.0
    mid, x, y = cmd.to[0]
    for m in W.unit_models(u):
        if W.model_id(m) == mid:
            p = esper.component_for_entity(m, Position)
            return x - p.x, y - p.y
    return 0.0, 0.0


def _away(b, tm: ThreatMap, length: float, only=None) -> tuple[float, float]:
    """A point ``length`` inches from the unit away from the enemy (``only``: those units)."""
    cx, cy = b.centre
    ex = [e for e in tm.enemies if only is None or e.ent in only]
    if not ex:
        return cx, cy
    near = sorted(ex, key=lambda e: (math.dist(e.centre, (cx, cy)), e.ent))[:3]
    ax = sum(cx - e.centre[0] for e in near)
    ay = sum(cy - e.centre[1] for e in near)
    n = math.hypot(ax, ay) or 1.0
    return cx + ax / n * length, cy + ay / n * length


def _toward(battle, u: int, goal, mode: str, extra: int = 0) -> list:
    """options.moves_toward, each step a hair short of the unit's reach (a step of exactly M
    can land a grid step beyond it once snapped, sim.rules.grid)."""
    if not W.unit_models(u):
        return O.moves_toward(battle, u, goal, mode, extra)
    unit = O.uid(u)
    return [Move(unit, to, mode, fly=fly) for fly, to, _dx, _dy in _toward_ends(battle, u, goal, extra)]


def _toward_ends(battle, u: int, goal, extra: int = 0) -> list:
    """_toward's moves before they are made: (fly, to, dx, dy) each, ``to`` the models' ends (on
    the grid: the Move made of it carries the same) and (dx, dy) the shift its first model
    makes (``_shift`` of the Move). Making a Move snaps its ends again (a grid point snaps to
    itself); a choice makes only the few it checks."""
    models = W.unit_models(u)
    # (each step's shift as its move would make it, the first model's snapped place less where
    # it stands, _shift: only the moves kept are built)
    p = esper.component_for_entity(models[0], Position)
    px, py = p.x, p.y
    out = []
    for fly, sx, sy in O.steps_toward(battle, u, goal, extra):
        dx, dy = snap(px + sx) - px, snap(py + sy) - py
        d = math.hypot(dx, dy)
        if d > 1.0:
            k = (d - 0.01) / d
            sx, sy = dx * k, dy * k
        to = O.translate(battle, u, sx, sy)
        out.append((fly, to, to[0][1] - px, to[0][2] - py))
    return out


def _legal_best(battle, scored: list, top: int = TOP) -> list[Scored]:
    """The legal ones among ``scored`` (value, order, command, label), best first, at most ``top``
    (a whole-unit move refused as its vehicles stand: the same ends with them turned to lie
    along the step, 03.01, where turning could make it legal: options.turned_moves; one whose
    straight paths are blocked: the same ends reached by detours round the bases and dense
    features in the way, ``routes.detoured``, when the rules accept them; the best MAX_DETOURS
    such moves are tried, which bounds a choice's time)."""
    out = []
    detours = MAX_DETOURS  # (the best MAX_DETOURS blocked ends are routed round; the rest are left)
    # (moves certainly refused for where they end, routes.ends_in_feature, not checked yet: each
    # would have spent a detour had its check named its path first (its detour, ending there too,
    # refused); read only when a later move's check needs the detours left, else never)
    pending: list = []
    for v, _i, cmd, label in sorted(scored, key=lambda s: (-s[0], s[1])):
        if callable(cmd):  # (a move made only now it is checked: _moves)
            cmd = cmd()
        if cmd is None or O.quick_refusal(battle, cmd):
            continue  # (a move the rules would certainly refuse is not checked: options.quick_refusal)
        routable = getattr(cmd, "to", None) and getattr(cmd, "via", None) == ()
        if R.ends_in_feature(battle, cmd):
            # (03.01 turned along its step, a vehicle's base may end clear of it: a gate)
            turned = _turned(battle, cmd) if routable and not cmd.face else None
            if turned is None:
                if detours and routable:
                    pending.append(cmd)
                continue
            cmd = turned
        why = battle.check(cmd)
        if why is not None and routable and not cmd.face:
            turned = _turned(battle, cmd)
            if turned is not None:
                cmd, why = turned, None
        if why is not None and detours and "path" in why and routable:
            detours = _spent(battle, pending, detours)
            pending = []
            if detours:
                detours -= 1
                cmd = R.detoured(battle, cmd)
                why = battle.check(cmd) if cmd is not None else why
        if why is None:
            out.append(Scored(v, cmd, label() if callable(label) else label))
            if len(out) >= top:
                break
    return out


def _turned(battle, cmd):
    """03.01 ``cmd`` (a whole-unit move refused as the unit's vehicles stand) with them turned to
    lie along its step, when the rules accept that (options.turned_moves: none for round
    bases, nor where no facing could help); else None."""
    turned = O.turned_moves(battle, battle.units[cmd.unit], [cmd])
    return turned[0] if turned and battle.check(turned[0]) is None else None


def _spent(battle, pending: list, detours: int) -> int:
    """The detours left after ``pending``'s moves, in order, as checking each would have left
    them: one spent on each whose check names its path first (its detour ends where it does,
    over a feature: refused, so it is not made)."""
    for cmd in pending:
        if not detours:
            break
        if "path" in (battle.check(cmd) or ""):
            detours -= 1
    return detours


def _top(player) -> int:
    """How many legal options to find: TOP, or 1 when only the first is wanted (the player's
    own choose, not explaining: the first legal one in order is the same either way, and the
    checks of the rest are saved; TacticianPlayer.first_only)."""
    return 1 if getattr(player, "first_only", False) else TOP


def _moves(player, battle, u: int, mode: str, extra: int = 0) -> list:
    """Whole-unit translations of ``mode`` toward the unit's goal and away from the threat,
    each scored: (value, order, command, label)."""
    tm = threat_map(player, battle)
    pl = plan(player, battle)
    b = tm.body(battle, u)
    goals = []
    goal = pl.goal.get(u)
    if goal is not None:
        goals.append(goal)
        goals += R.detours(b, goal)
    goals.append(_away(b, tm, b.M + extra))
    if CHARGE_WEIGHT and b.melee and tm.enemies and mode == "normal":
        e = min(tm.enemies, key=lambda e: (math.dist(e.centre, b.centre), e.ent))
        goals.append(e.centre)  # (within charge reach of the nearest enemy)
    out = []
    seen = set()
    routed = R.routed(battle, u, b, pl.goal.get(u), mode, extra) if pl.goal.get(u) is not None else []
    what = {"normal": "moves", "advance": "advances"}.get(mode, f"makes a {mode} move")
    unit = O.uid(u)
    # (each move made, and its words written, only when _legal_best checks it or shows it)
    kept = []
    for goal in goals + [None]:
        if goal is None:
            ends = [(cmd.fly, cmd.to, *_shift(cmd, u), cmd) for cmd in routed]
        else:
            ends = [(fly, to, dx, dy, None) for fly, to, dx, dy in _toward_ends(battle, u, goal, extra)] \
                if W.unit_models(u) else [(c.fly, c.to, *_shift(c, u), c) for c in _toward(battle, u, goal, mode, extra)]
        for fly, to, dx, dy, cmd in ends:
            key = (to, fly)
            if key in seen:
                continue
            seen.add(key)
            kept.append((fly, to, dx, dy, cmd))
    # (every position valued at once: position_worths, the same values as position_worth's)
    values = position_worths(player, battle, u, [(dx, dy) for _f, _t, dx, dy, _c in kept])
    for (fly, to, dx, dy, cmd), v in zip(kept, values):
        make = cmd if cmd is not None else functools.partial(Move, unit, to, mode, fly=fly)
        out.append((v, len(out), make, functools.partial(_move_label, player, battle, u, dx, dy, what)))
    return out


def _move_label(player, battle, u: int, dx: float, dy: float, what: str) -> str:
    return _label(battle, u, what, position_value(player, battle, u, dx, dy)[1])


# --- the phase ---------------------------------------------------------------------------------

def candidates(player, battle) -> list[Scored]:
    """The next unit's options this Movement phase, legal, best first (empty: end the phase)."""
    ts = battle.turn_state
    side = player.side
    # (what it decided not to do this phase: disembark or arrive; a unit's options are read off
    # its state, so asking again before a command is played gives the same options)
    done = player.memo.setdefault("done", set())
    going = ts.in_progress
    if going is not None and W.unit_state(going).move_selected is None:
        # (18.04 a Tactical disembark's move comes next)
        if (going, "adopted") not in done:
            done.add((going, "adopted"))
            threat_map(player, battle).body(battle, going, fresh=True)
            _adopt(player, battle, going)
        best = _legal_best(battle, _moves(player, battle, going, "normal"), _top(player))
        return best + _stay(player, battle, going, "normal", best)
    # (18.04 embarked units first, then from round 2 those in strategic reserves, 20.04: each
    # asked once a phase; a unit that does not come out or arrive is not asked again)
    arrivals = [(u, C.DISEMBARK, _disembark) for u in O.embarked_units(battle, side)]
    if ts.round >= 2:
        arrivals += [(u, C.INGRESS, _ingress) for u in O.reserves_units(battle, side)]
    for u, what, make in arrivals:
        if (u, what) in done:
            continue
        done.add((u, what))
        cmd = make(player, battle, u)
        if cmd is not None:
            return [cmd]
    for u in O.own_units(battle, side):
        if W.off_table(u) or W.embarked_in(u) is not None:
            continue
        st = W.unit_state(u)
        if st.move_selected == "advance" and st.move_type is None:
            best = _legal_best(battle, _moves(player, battle, u, "advance", st.advance_roll or 0), _top(player))
            return best + _stay(player, battle, u, "advance", best)
        if st.move_selected is not None or st.move_type is not None:
            continue
        out = unit_options(player, battle, u)
        if out:
            return out
    return []


def _stay(player, battle, u: int, mode: str, best: list) -> list[Scored]:
    """The unit's move of no distance (it stays where it is), when the rules accept it (not
    asked when only the first option is wanted and there is one: player.first_only)."""
    if best and getattr(player, "first_only", False):
        return []
    cmd = Move(O.uid(u), (), mode)
    return [Scored(-99.0, cmd, f"{unit_name(battle, u)} stays")] if battle.check(cmd) is None else []


def unit_options(player, battle, u: int) -> list[Scored]:
    """One unit's options, legal, best first."""
    tm = threat_map(player, battle)
    b = tm.body(battle, u)
    stay = O.stationary(u)
    if W.unit_engaged(u):
        v0, w0 = position_value(player, battle, u, 0.0, 0.0, stationary=True)
        return _engaged_options(player, battle, u, b, tm, stay, v0, w0)
    # (its words written only when _legal_best shows it: _stay_label)
    v0 = position_worth(player, battle, u, 0.0, 0.0, stationary=True)
    scored = [(v0, -1, stay, functools.partial(_stay_label, player, battle, u))]
    scored += _moves(player, battle, u, "normal")
    best = _legal_best(battle, scored, _top(player))
    adv = _advance_option(player, battle, u, b, tm, best[0].value if best else v0)
    if adv is not None:
        best = [adv] + best
    _explain(player, battle, u, best)
    return best


def _stay_label(player, battle, u: int) -> str:
    return _label(battle, u, "remains stationary", position_value(player, battle, u, 0.0, 0.0, stationary=True)[1])


def _explain(player, battle, u: int, best: list[Scored]) -> None:
    """The options weighed for one unit, for `--explain` and the sandbox (only when listened to)."""
    if best and player.explaining:
        player.explain(f"movement: {unit_name(battle, u)}", best[0].label,
                       [Weighed(c.label, c.value, "VP") for c in best])


def _engaged_options(player, battle, u, b, tm, stay, v0, w0) -> list[Scored]:
    """An engaged unit stays to fight, or falls back when the enemy it is engaged with
    out-fights it and it holds no objective (09.07)."""
    foes = [tm.bodies[e] for e in W.engaged_with(u) if e in tm.bodies]
    theirs = sum(tm.dmg(e, b, True) for e in foes)
    ours = sum(damage(b, e, True) for e in foes)
    pl = plan(player, battle)
    o = pl.objective.get(u)
    holding = o is not None and in_range(b, o)
    fight = (ours - theirs) / PTS_PER_VP
    scored = [(v0 + fight, -1, stay, _label(battle, u, "stays to fight", f"{ours:.0f} v {theirs:.0f} pts"))]
    if theirs > FALL_BACK_RATIO * ours + FALL_BACK_MIN and not holding:
        away = _away(b, tm, b.M, only={e.ent for e in foes})
        for i, goal in enumerate(g for g in (away, pl.goal.get(u)) if g is not None):
            for cmd in _toward(battle, u, goal, "fall back"):
                dx, dy = _shift(cmd, u)
                v, words = position_value(player, battle, u, dx, dy)
                scored.append((v + 1.0, len(scored), cmd,
                               _label(battle, u, "falls back", f"out-fought {theirs:.0f} v {ours:.0f} pts; {words}")))
    best = _legal_best(battle, scored, _top(player))
    _explain(player, battle, u, best)
    return best


def _advance_option(player, battle, u, b, tm, best_normal: float):
    """Select the unit to advance when the position M + 3.5" toward its goal is worth more than
    the best normal move by ADVANCE_MARGIN, less the shooting an advance costs (weapons without
    [ASSAULT], 24.04) and the charge (11.01) when a rule does not lift them."""
    pl = plan(player, battle)
    goal = pl.goal.get(u)
    if goal is None:
        return None
    free = RR.advancing_costs_nothing(battle, u)
    if not free and b.melee and any(e for e in tm.enemies if _near(b, e, b.M + 12.0)):
        return None  # (it may charge: an advance would forbid it)
    o = pl.objective.get(u)
    cx, cy = b.centre
    d = math.dist((cx, cy), goal)
    if d < 1e-6 or o is None:
        return None
    ux, uy = (goal[0] - cx) / d, (goal[1] - cy) / d
    if in_range(b, o, ux * min(d, b.M), uy * min(d, b.M)):
        return None  # (a normal move gets there)
    if not in_range(b, o, ux * min(d, b.M + 3.5), uy * min(d, b.M + 3.5)):
        return None  # (an advance's mean does not either)
    full = _toward(battle, u, goal, "normal")
    if not full or battle.check(full[0]) is not None:
        return None  # (the way is not open)
    step = min(d, b.M + 3.5)
    v, words = position_value(player, battle, u, (goal[0] - cx) / d * step, (goal[1] - cy) / d * step)
    if not free and b.ranged:
        assault = all(w.has(Hook.SHOOTS_AFTER_ADVANCING) for w, _n in b.ranged)
        if not assault:
            v -= FIRE_WEIGHT * tm.firepower(u) / PTS_PER_VP
    if v < best_normal + ADVANCE_MARGIN:
        return None
    cmd = SelectToMove(O.uid(u), "advance")
    if battle.check(cmd) is not None:
        return None
    return Scored(v, cmd, _label(battle, u, "advances", words))


def _near(b, e, reach: float) -> bool:
    return gap(b, e) <= reach


def _adopt(player, battle, u: int) -> None:
    """A unit new on the battlefield this phase (disembarked, arrived): its objective."""
    pl = plan(player, battle)
    tm = threat_map(player, battle)
    b = tm.body(battle, u)
    objs = list(battle.turn_state.objectives or ())
    if objs and b.oc_full > 0:
        short = [o for o in objs if pl.short(o.name)] or objs
        o = min(short, key=lambda o: (-pl.value[o.name] / (1 + eta(b, o)), _ranges(b, o), o.name))
        pl.send(b, o)
        pl.goal[u] = (o.x, o.y)
    elif tm.enemies:
        e = min(tm.enemies, key=lambda e: (math.dist(e.centre, b.centre), e.ent))
        pl.goal[u] = e.centre


def _wanted_point(player, battle, side: int, at=None):
    """The objective most worth reaching that is short of OC (nearest ``at`` on ties)."""
    pl = plan(player, battle)
    objs = list(battle.turn_state.objectives or ())
    if not objs:
        return None
    short = [o for o in objs if pl.short(o.name)] or objs
    key = (lambda o: (-pl.value[o.name], math.dist((o.x, o.y), at), o.name)) if at else \
        (lambda o: (-pl.value[o.name], o.name))
    o = min(short, key=key)
    return o.x, o.y


def _disembark(player, battle, u: int):
    """18.04 Disembark toward the objective short of OC most worth it, when the transport is near
    it or an enemy, or from round 2 (as the default player), the layout with the least threat."""
    t = W.embarked_in(u)
    tm = threat_map(player, battle)
    tb = tm.bodies.get(t)
    at = tb.centre if tb is not None else None
    goal = _wanted_point(player, battle, player.side, at)
    if not (battle.turn_state.round >= 2 or O.near_goal_or_enemy(t, goal, 12.0)):
        return None
    opts = C.disembark_options(battle, u, goal, limit=TOP)  # (the later sides not searched)
    best = None
    for i, cmd in enumerate(opts):
        if battle.check(cmd) is not None:
            continue
        v = -_exposure_at(player, battle, u, cmd) / PTS_PER_VP - 0.01 * i
        if best is None or v > best.value:
            best = Scored(v, cmd, f"{unit_name(battle, u)} disembarks toward the objective")
    return best


def _exposure_at(player, battle, u: int, cmd) -> float:
    """The threat to unit ``u`` were its models set up where ``cmd.to`` puts them."""
    tm = threat_map(player, battle)
    b = tm.body(battle, u)
    xy = np.array([(x, y) for _m, x, y in cmd.to], dtype=float).reshape(-1, 2)
    if not len(xy):
        return 0.0
    return tm.exposure(u, xy=xy[: len(b.radius)])


def _ingress(player, battle, u: int):
    """20.04 Arrive from reserves near the objective short of OC most worth it, where the threat
    is least among the nearest legal set-ups."""
    goal = _wanted_point(player, battle, player.side)
    toward = (goal,) if goal is not None else ()
    best = None
    n = 0
    for i, (_anchor, cmd) in enumerate(C.ingress_candidates(battle, u, toward)):
        if n >= TOP or i >= 4 * TOP:
            break
        if battle.check(cmd) is not None:
            continue
        n += 1
        v = -_exposure_at(player, battle, u, cmd) / PTS_PER_VP - 0.01 * i
        if best is None or v > best.value:
            best = Scored(v, cmd, f"{unit_name(battle, u)} arrives from reserves")
    return best


# --- deployment (26 step 8): offered for the integrator to wire in --------------------------

def deploy_candidates(player, battle) -> list[Scored]:
    """26 steps 7-11 The tactician's pre-battle choice: in the deployment step, its next unit
    (unit order) set up where the placement solver finds room nearest the point it wants: a
    far-shooting unit on our home objective (it holds it and shoots from there), any other
    toward the nearest objective that is not ours, at the front of the zone; the other steps
    (formations, Scouts) as the default player (sim.players.deployment)."""
    from sim.commands.deploy import default_deploy
    from sim.players import deployment as DEP
    from sim.rules.turn import PreBattleStep
    ts = battle.turn_state
    if ts.pre_battle != PreBattleStep.DEPLOY:
        return [Scored(0.0, DEP.choose(battle, player.side, None, player.fallback._done), "")]
    for u in DEP.deploy_order(battle, player.side):  # (unit order; the largest bases first in a crowded zone)
        target = _deploy_target(battle, player.side, u)
        if target is None:
            break
        def pick(points, target=target):
            return min(points, key=lambda p: (math.dist(p, target[:2]), p))
        cmd = default_deploy(battle, u, pick)
        if cmd is not None:
            return [Scored(0.0, cmd, f"{unit_name(battle, u)} deploys toward {target[2]}")]
    return [Scored(0.0, DEP.deploy(battle, player.side), "")]


def _deploy_target(battle, side: int, u: int):
    """(x, y, objective name) the unit deploys toward, or None without objectives."""
    objs = list(battle.turn_state.objectives or ())
    if not objs:
        return None
    reach = _reach(u)
    home = [o for o in objs if o.kind == "home" and o.owner == side]
    placed = [x for x in O.own_units(battle, side) if x != u and not W.off_table(x)]
    holding = [x for x in placed if _reach(x) >= HOLDER_RANGE and math.dist(O.centroid(x), (home[0].x, home[0].y)) < 9] \
        if home else []
    placed = [O.centroid(x) for x in placed]
    if home and reach >= HOLDER_RANGE and not holding:
        return home[0].x, home[0].y, home[0].name  # (one far-shooting unit holds home)
    zone = battle.turn_state.zones()[side]
    cx = sum(p[0] for p in zone) / len(zone)
    cy = sum(p[1] for p in zone) / len(zone)
    pool = [o for o in objs if o.kind != "home"] or objs
    # (spread along the front: the objective the fewest of our units already face)
    facing = {o.name: 0 for o in pool}
    for c in placed:
        facing[min(pool, key=lambda o: (abs(o.x - c[0]), o.name)).name] += 1
    o = min(pool, key=lambda o: (facing[o.name], math.dist((o.x, o.y), (cx, cy)), o.name))
    return o.x, o.y, o.name


def _reach(u: int) -> int:
    """The unit's longest ranged weapon (0: none)."""
    return max((w.range for m in W.unit_models(u, living=False) for w in W.weapons_of(m) if not w.is_melee),
               default=0)
