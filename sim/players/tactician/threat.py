"""What the enemy can do to a unit where it might stand, for the tactician's movement (issue 27
item 1): each enemy unit's reach next turn (its move, then its weapons' ranges or a 2D6 charge:
11.02, 03.04) and the points it is expected to destroy of one of ours, by a plain expectation of
the attack sequence (05: hit, wound, save, damage; no re-rolls or critical effects): cheap enough
to ask of every candidate position, where sim.odds (tactician.judge) answers only for legal
commands in the position as it is. Worked out once a phase (``threat_map``: player.memo)."""

from __future__ import annotations

import bisect
import math

import esper
import numpy as np

from sim.components import Position, Stats, Unit
from sim.players import options as O
from sim.players.tactician import judge as J
from sim.players.tactician.judge import model_worth
from sim.rules.abilities import Hook
from sim.rules.geometry import ENGAGEMENT_RANGE
from sim.world import queries as W

CHARGE_REACH = 12.0  # 11.01 a charge is declared only at units within 12"
# (exposure counts what the enemy would take of a unit beyond what it takes anyway: each enemy
# unit's shooting and charge go to one of ours, its best; standing in its reach costs the army only
# what the unit offers it over the best of our other units it reaches from where they stand.
# Before 5 December a fixed share, 0.3, of each reaching enemy unit's fire was counted instead.)


def _p_hit(w) -> float:
    return 1.0 if w.has(Hook.AUTOMATIC_HITS) else J.p_success(w.skill)


class Body:
    """One unit as the threat map sees it: its models' centres and reach, move, OC, worth, its
    defence (its first living model's) and its weapons (profile, how many models carry it)."""

    __slots__ = ("ent", "side", "name", "xy", "radius", "M", "oc", "oc_full", "worth", "models", "T", "Sv", "InSv",
                 "W", "ranged", "melee", "engaged", "_centre")

    def __init__(self, battle, u: int):
        self.ent = u
        unit = esper.component_for_entity(u, Unit)
        self.side, self.name = unit.owner, unit.name
        models = W.unit_models(u)
        self.models = len(models)
        self.xy = np.array([(esper.component_for_entity(m, Position).x, esper.component_for_entity(m, Position).y)
                            for m in models], dtype=float).reshape(-1, 2)
        self.radius = np.array([W.footprint(m).bounding_radius for m in models], dtype=float)
        self.M = O.min_move(u, battle) if models else 0
        st = W.unit_state(u)
        stats = [esper.component_for_entity(m, Stats) for m in models]
        # (its OC now, and as it will be once a battle-shock passes, 01.07)
        self.oc_full = sum(max(0, s.OC) for s in stats)
        self.oc = 0 if st.battle_shocked else self.oc_full
        self.worth = model_worth(battle, u)
        first = stats[0] if stats else Stats(0, 4, 7, 1, 7, 0)
        self.T = W.toughness(u) if models else first.T
        self.Sv, self.InSv, self.W = first.Sv, first.InSv, max(1, first.W)
        ranged: dict = {}
        melee: dict = {}
        for m in models:
            ws = W.weapons_of(m)
            for w in ws:
                if w.is_melee:
                    continue
                ranged[w] = ranged.get(w, 0) + 1
            mel = [w for w in ws if w.is_melee]
            if mel:  # (a model fights with one melee weapon, its best here, and its extra ones)
                best = max((w for w in mel if not w.has(Hook.EXTRA_WEAPON)), default=None,
                           key=lambda w: w.A.mean * (7 - w.skill) * (w.S + 2) * w.D.mean * (1 - w.AP))
                for w in ([best] if best is not None else []) + [w for w in mel if w.has(Hook.EXTRA_WEAPON)]:
                    melee[w] = melee.get(w, 0) + 1
        self.ranged = sorted(ranged.items(), key=lambda kv: (kv[0].range, kv[0].name))
        self.melee = sorted(melee.items(), key=lambda kv: kv[0].name)
        self.engaged = W.unit_engaged(u)
        self._centre = None

    @property
    def centre(self) -> tuple[float, float]:
        if self._centre is None:  # (its models' centres never change: worked out once)
            c = self.xy.mean(axis=0)
            self._centre = float(c[0]), float(c[1])
        return self._centre

    @property
    def max_range(self) -> float:
        return max((w.range for w, _n in self.ranged), default=0.0)


def expected_models(w, count: int, target: Body) -> float:
    """Models of ``target`` the weapon carried by ``count`` models is expected to destroy (05:
    attacks x hit x wound x unsaved x the share of a model each unsaved attack takes)."""
    attacks = w.A.mean * count
    per = min(w.D.mean, target.W) / target.W
    return attacks * _p_hit(w) * J.p_wound(w.S, target.T) * J.p_unsaved(target.Sv, w.AP, target.InSv) * per


def damage(attacker: Body, target: Body, melee: bool, within: float | None = None) -> float:
    """Points of ``target`` the attacker's ranged weapons (those reaching ``within`` inches when
    given) or melee weapons are expected to destroy, at most the whole unit."""
    if melee:
        models = sum(expected_models(w, n, target) for w, n in attacker.melee)
    else:
        models = sum(expected_models(w, n, target) for w, n in attacker.ranged
                     if within is None or w.range >= within)
    return min(models, target.models) * target.worth


def gap(a: Body, b: Body, dx: float = 0.0, dy: float = 0.0, xy=None) -> float:
    """The closest distance between the two units' models, base edge to base edge (bounding
    circles), with ``a`` moved by (dx, dy) (or its models' centres at ``xy``)."""
    xy = a.xy if xy is None else xy
    if not len(xy) or not len(b.xy):
        return math.inf
    d = np.hypot(xy[:, None, 0] + dx - b.xy[None, :, 0], xy[:, None, 1] + dy - b.xy[None, :, 1])
    d = d - a.radius[:len(xy), None] - b.radius[None, :]
    return max(0.0, float(d.min()))


class Shots(list):
    """``ThreatMap.shots``' list, with what ``_reaching`` reads kept beside it: the ranges, and
    when they rise (``Body.ranged`` is in range order) the sum of each run of weapons from one
    to the last, added in the list's order."""

    __slots__ = ("ranges", "tails")

    def __init__(self, items):
        super().__init__(items)
        self.ranges = [r for r, _m in self]
        ms = [m for _r, m in self]
        rising = all(a <= b for a, b in zip(self.ranges, self.ranges[1:]))
        self.tails = [sum(ms[k:]) for k in range(len(ms) + 1)] if rising else None


def _reaching(shots: Shots, gap: float):
    """``sum(m for r, m in shots if r >= gap)``: the expected models of the weapons that reach
    ``gap``: in range order, those are a run to the last, whose sum is kept (the same sum)."""
    if shots.tails is None or gap != gap:
        return sum(m for r, m in shots if r >= gap)
    return shots.tails[bisect.bisect_left(shots.ranges, gap)]


_AT_LEAST_ROW = np.array(J._AT_LEAST + (0.0,))  # (p_2d6_at_least's table, 0 beyond 12: its last entry)


def _p_2d6_rows(n: np.ndarray) -> np.ndarray:
    """``J.p_2d6_at_least`` of each of ``n`` (the same ceiling and table, element by element)."""
    need = np.ceil(n - 1e-9)
    return _AT_LEAST_ROW[np.clip(need, 0, 13).astype(np.intp)]


def _reaching_rows(shots: Shots, gaps: np.ndarray) -> np.ndarray:
    """``_reaching`` of each of ``gaps`` (no NaN among them): the kept run sums read at each
    gap's place in the ranges, or each weapon's term added in the list's order where it reaches
    (adding 0.0 where it does not: the same sums)."""
    if shots.tails is not None:
        return np.array(shots.tails, dtype=float)[np.searchsorted(np.array(shots.ranges, dtype=float), gaps, "left")]
    acc = np.zeros(len(gaps))
    for r, m in shots:
        acc = acc + np.where(r >= gaps, m, 0.0)
    return acc


class ThreatMap:
    """The enemy's reach next turn against each of our units, for any position of it."""

    def __init__(self, battle, side: int):
        self.side = side
        self.bodies: dict[int, Body] = {}
        for u in W.all_units():
            if W.unit_destroyed(u) or W.off_table(u) or not W.unit_models(u):
                continue
            self.bodies[u] = Body(battle, u)
        self.enemies = [b for b in self.bodies.values() if b.side != side]
        self.mine = [b for b in self.bodies.values() if b.side == side]
        self._dmg: dict = {}
        # (per (attacker body, target body): each of the attacker's ranged weapons' range and
        # expected models destroyed, in the attacker's order (expected_models is a function of
        # the two bodies alone); and the last gaps asked for: exposure and firepower ask the
        # same position's in turn)
        self._shots: dict = {}
        self._last_gaps = None
        self._primed: dict = {}  # (our body, dx, dy) -> gaps, worked out together (``prime``)
        self._alts = None  # per enemy unit, its best two of our units (``alternatives``; None: not yet)
        # (every enemy model in one block: one distance matrix per position asked about)
        self._exy = np.concatenate([e.xy for e in self.enemies]) if self.enemies else np.zeros((0, 2))
        self._er = np.concatenate([e.radius for e in self.enemies]) if self.enemies else np.zeros(0)
        self._starts = np.cumsum([0] + [len(e.xy) for e in self.enemies[:-1]]).astype(int)

    def gaps(self, me: Body, dx: float = 0.0, dy: float = 0.0, xy=None) -> list[float]:
        """``gap`` from our unit (moved by (dx, dy), or at ``xy``) to each enemy unit, in order."""
        key = (me, dx, dy) if xy is None else None
        last = self._last_gaps
        if key is not None and last is not None and last[0] == key:
            return last[1]
        if key is not None:
            got = self._primed.get(key)
            if got is not None:
                self._last_gaps = (key, got)
                return got
        xy = me.xy if xy is None else xy
        if not self.enemies or not len(xy):
            return [math.inf] * len(self.enemies)
        d = np.hypot(xy[:, None, 0] + dx - self._exy[None, :, 0], xy[:, None, 1] + dy - self._exy[None, :, 1])
        d = (d - me.radius[:len(xy), None] - self._er[None, :]).min(axis=0)
        out = np.maximum(np.minimum.reduceat(d, self._starts), 0.0).tolist()
        if key is not None:
            self._last_gaps = (key, out)
        return out

    def prime(self, me: Body, shifts) -> None:
        """``gaps`` of our unit moved by each (dx, dy) of ``shifts``, worked out in one step and
        kept for the asking (a choice values a unit's candidate positions in turn): the same
        arithmetic element by element, so the same gaps to the bit."""
        shifts = [s for s in dict.fromkeys(shifts) if (me, s[0], s[1]) not in self._primed]
        if not shifts or not self.enemies or not len(me.xy):
            return
        sh = np.array(shifts, dtype=float).reshape(-1, 2)
        xy = me.xy
        d = np.hypot(xy[None, :, None, 0] + sh[:, None, None, 0] - self._exy[None, None, :, 0],
                     xy[None, :, None, 1] + sh[:, None, None, 1] - self._exy[None, None, :, 1])
        d = (d - me.radius[None, :len(xy), None] - self._er[None, None, :]).min(axis=1)
        rows = np.maximum(np.minimum.reduceat(d, self._starts, axis=1), 0.0).tolist()
        for (dx, dy), row in zip(shifts, rows):
            self._primed[(me, dx, dy)] = row

    def shots(self, a: Body, t: Body) -> list:
        """(range, expected models of ``t`` destroyed) of each of ``a``'s ranged weapons, in
        ``a.ranged``'s order (expected_models, worked out once per pair of bodies)."""
        key = (a, t)
        v = self._shots.get(key)
        if v is None:
            v = self._shots[key] = Shots((w.range, expected_models(w, n, t)) for w, n in a.ranged)
        return v

    def melee(self, a: Body, t: Body) -> float:
        """``damage(a, t, True)``, worked out once per pair of bodies (it reads nothing else)."""
        key = ("melee", a, t)
        v = self._shots.get(key)
        if v is None:
            v = self._shots[key] = damage(a, t, True)
        return v

    def body(self, battle, u: int, fresh: bool = False) -> Body:
        """Our unit's body (made anew with ``fresh``: a unit set up or disembarked this phase)."""
        b = self.bodies.get(u)
        if b is None or fresh:
            b = self.bodies[u] = Body(battle, u)
            self.mine = [x for x in self.mine if x.ent != u] + [b]
            self._alts = None
        return b

    def dmg(self, a: Body, t: Body, melee: bool) -> float:
        key = (a.ent, t.ent, melee)
        v = self._dmg.get(key)
        if v is None:
            v = self._dmg[key] = damage(a, t, melee)
        return v

    def exposure(self, u: int, dx: float = 0.0, dy: float = 0.0, ignore=(), xy=None) -> float:
        """Points of our unit ``u`` the enemy is expected to destroy in its next turn were ``u``
        moved by (dx, dy), beyond what it takes of our other units anyway (``alternatives``):
        each enemy unit's shooting that reaches it after a move and its charge's chance times
        its fight, less the best it has of the others. ``ignore``: enemy units left out; ``xy``:
        the models' centres instead (a unit not yet on the battlefield)."""
        me = self.bodies[u]
        total = 0.0
        n, worth = me.models, me.worth
        for (e, move, shots, melee), g, (alt_s, alt_m) in zip(self.against(me), self.gaps(me, dx, dy, xy),
                                                              self.alternatives(me)):
            if e.ent in ignore:
                continue
            after_move = g - move
            if shots:
                total += max(0.0, min(_reaching(shots, after_move), n) * worth - alt_s)
            if melee and after_move <= CHARGE_REACH:
                total += max(0.0, J.p_2d6_at_least(after_move - ENGAGEMENT_RANGE) * self.dmg(e, me, True) - alt_m)
        return min(total, n * worth)

    def alternatives(self, me: Body) -> list:
        """Per enemy unit, in order: (the points its shooting, the points its charge, is expected
        to take of the best of our units other than ``me``, each where it stands now): what it
        takes anyway were ``me`` out of its reach. Read from each enemy unit's best two of our
        units (``_best_two``, worked out once until one of our units is made anew): the best
        unless it is ``me``, then the second."""
        if self._alts is None:
            self._alts = self._best_two()
        ent = me.ent
        return [(s2 if su == ent else s1, m2 if mu == ent else m1) for s1, su, s2, m1, mu, m2 in self._alts]

    def _best_two(self) -> list:
        """Per enemy unit: (the most its shooting is expected to take of one of our units on the
        battlefield, that unit, the most of any other; the same for its charge), each at least 0."""
        n = len(self.enemies)
        s1, su, s2 = [0.0] * n, [None] * n, [0.0] * n
        m1, mu, m2 = [0.0] * n, [None] * n, [0.0] * n
        for o in self.mine:
            if not len(o.xy):
                continue
            for i, ((e, move, shots, melee), g) in enumerate(zip(self.against(o), self.gaps(o))):
                after_move = g - move
                if shots:
                    v = min(_reaching(shots, after_move), o.models) * o.worth
                    if v > s1[i]:
                        s2[i], s1[i], su[i] = s1[i], v, o.ent
                    elif v > s2[i]:
                        s2[i] = v
                if melee and after_move <= CHARGE_REACH:
                    v = J.p_2d6_at_least(after_move - ENGAGEMENT_RANGE) * self.dmg(e, o, True)
                    if v > m1[i]:
                        m2[i], m1[i], mu[i] = m1[i], v, o.ent
                    elif v > m2[i]:
                        m2[i] = v
        return list(zip(s1, su, s2, m1, mu, m2))

    def gap_rows(self, me: Body, shifts) -> np.ndarray:
        """``gaps`` for each (dx, dy) of ``shifts``: one row each (``prime``'s, kept)."""
        self.prime(me, shifts)
        return np.array([self.gaps(me, dx, dy) for dx, dy in shifts], dtype=float).reshape(len(shifts), -1)

    def exposure_rows(self, u: int, shifts) -> list[float]:
        """``exposure(u, dx, dy)`` for each (dx, dy) of ``shifts``: the same terms added in the
        same order, each position's an element of one array (so the same sums to the bit)."""
        me = self.bodies[u]
        n, worth = me.models, me.worth
        G = self.gap_rows(me, shifts)
        total = np.zeros(len(shifts))
        for i, ((e, move, shots, melee), (alt_s, alt_m)) in enumerate(zip(self.against(me), self.alternatives(me))):
            after_move = G[:, i] - move
            if shots:
                total = total + np.maximum(0.0, np.minimum(_reaching_rows(shots, after_move), n) * worth - alt_s)
            if melee:
                near = after_move <= CHARGE_REACH
                if near.any():
                    total = np.where(near, total + np.maximum(
                        0.0, _p_2d6_rows(after_move - ENGAGEMENT_RANGE) * self.dmg(e, me, True) - alt_m), total)
        return np.minimum(total, n * worth).tolist()

    def firepower_rows(self, u: int, shifts) -> list[float]:
        """``firepower(u, dx, dy)`` for each (dx, dy) of ``shifts`` (the same maxima)."""
        me = self.bodies[u]
        if not me.ranged:
            return [0.0] * len(shifts)
        max_range = me.max_range
        G = self.gap_rows(me, shifts)
        best = np.zeros(len(shifts))
        for i, e in enumerate(self.enemies):
            g = G[:, i]
            reach = g <= max_range
            if reach.any():
                val = np.minimum(_reaching_rows(self.shots(me, e), g), e.models) * e.worth
                best = np.where(reach, np.maximum(best, val), best)
        return best.tolist()

    def charge_value_rows(self, u: int, shifts) -> list[float]:
        """``charge_value(u, dx, dy)`` for each (dx, dy) of ``shifts`` (the same maxima)."""
        me = self.bodies[u]
        if not me.melee:
            return [0.0] * len(shifts)
        G = self.gap_rows(me, shifts)
        best = np.zeros(len(shifts))
        for i, e in enumerate(self.enemies):
            g = G[:, i]
            near = g <= CHARGE_REACH
            if near.any():
                best = np.where(near, np.maximum(best, _p_2d6_rows(g - ENGAGEMENT_RANGE) * self.melee(me, e)), best)
        return best.tolist()

    def against(self, me: Body) -> list:
        """Per enemy unit, in order: (its body, its M, ``shots(e, me)``, whether it has melee
        weapons): what exposure reads of each (kept)."""
        key = ("against", me)
        v = self._shots.get(key)
        if v is None:
            v = self._shots[key] = [(e, e.M, self.shots(e, me), bool(e.melee)) for e in self.enemies]
        return v

    def firepower(self, u: int, dx: float = 0.0, dy: float = 0.0) -> float:
        """Points our unit ``u`` could shoot next Shooting phase from where (dx, dy) puts it: its
        best target among the enemy units its weapons reach (no line of sight here)."""
        me = self.bodies[u]
        if not me.ranged:
            return 0.0
        max_range = me.max_range
        best = 0.0
        for e, g in zip(self.enemies, self.gaps(me, dx, dy)):
            if g > max_range:
                continue
            # (damage(me, e, False, within=g), its per-weapon terms kept: the same sum)
            models = _reaching(self.shots(me, e), g)
            best = max(best, min(models, e.models) * e.worth)
        return best

    def charge_value(self, u: int, dx: float = 0.0, dy: float = 0.0) -> float:
        """Points our unit ``u`` could expect from a charge this turn from where (dx, dy) puts
        it: its best target within 12" (11.01), the 2D6 roll's chance to reach engagement range
        times its fight's expected points."""
        me = self.bodies[u]
        if not me.melee:
            return 0.0
        best = 0.0
        for e, g in zip(self.enemies, self.gaps(me, dx, dy)):
            if g > CHARGE_REACH:
                continue
            best = max(best, J.p_2d6_at_least(g - ENGAGEMENT_RANGE) * self.melee(me, e))
        return best

    def enemy_oc_reaching(self, point: tuple[float, float], reach: float = 3.0) -> int:
        """The OC of the enemy units that could be within ``reach`` of ``point`` after their next
        move (an advance's mean included)."""
        total = 0
        for e in self.enemies:
            if not e.oc:
                continue
            d = np.hypot(e.xy[:, 0] - point[0], e.xy[:, 1] - point[1]) - e.radius
            if float(d.min()) <= e.M + 3.5 + reach:
                total += e.oc
        return total


def threat_map(player, battle) -> ThreatMap:
    """The phase's threat map (worked out once a phase: player.memo)."""
    tm = player.memo.get("threat")
    if tm is None:
        tm = player.memo["threat"] = ThreatMap(battle, player.side)
    return tm
