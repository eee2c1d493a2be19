"""The exact odds of one declared attack (a Problem): the attack sequence of every pool (05.01
hit rolls, 05.02 wound rolls, 05.03/05.04 allocation, saves and damage, 06.02 mortal wounds,
24.12 Feel No Pain) and the attacker's hazard rolls (24.15, 06.03), as distributions.

**Arithmetic.** float64; every distribution sums to 1 within 1e-12 (checked, ``SUM_TOLERANCE``).

**Before allocation** a pool is a few counts: its attack dice (the sum over its declarations of
A, or a split share, plus what the registry's ``extra_dice`` add: 24.05, 24.06, 24.30; random A
and X rolled as sim.rules.dice rolls them), then per die a hit roll whose result (fail, hit,
critical) comes from the engine's own table (sim.odds.faces), [TORRENT] hitting without a roll,
[SUSTAINED HITS X] adding X hits per critical, [LETHAL HITS] turning it into an automatic wound;
then per hit a wound roll ([ANTI] lowering the critical threshold, [TWIN-LINKED] re-rolling a
failure; the re-roll-1s abilities re-roll a hit or wound roll of 1: the faces the rules re-roll,
sim.rules.sequence), [DEVASTATING WOUNDS] setting critical wounds aside as mortal wounds. Dice are
independent, so these are convolution powers of one die's outcome, mixed over the number of
dice: joint tables of (hits, automatic wounds), then (wounds to save, devastating criticals).
What a pool's abilities do (and its T, keywords and [PRECISION]) depend on which of the target's
models are alive when the pool is gathered, so a pool is set up once per set of living models.

**Allocation and damage** are a Markov chain on the target's wounds left, model by model (a
tuple in listed order: that is all 05.04 reads). One step is one save roll or one mortal wound:
the current allocation group and the model are chosen by the rules themselves
(first_group_with_models, select_model, mortal_wound_target) on the state, the save fails or not
by the face (sim.odds.faces), random damage is rolled, each wound is offered to Feel No Pain,
the excess is lost (05.04), and a unit with no model left absorbs the rest (its remaining
attacks are lost). The save rolls of a pool are rolled together and taken lowest first (05.04),
which matters when the target's models save differently: the faces are cut into runs that act
alike on every model of the target (say 1-2 fail on all, 3 fails only on the 4+ save models,
4-6 pass), and, going up the faces, the number of the pool's dice in each run is binomial among
those left; within a run the steps are powers of one transition. With a single run that fails
(all models save alike) this is just Binomial(wounds, fail chance) failed saves.
The allocation order (05.03) and the [PRECISION] pick are made at each pool's start from the
state then (the answers given, fitted as the battle fits a script's answer, or the defaults).
Counters ride along: saves failed ("unsaved attacks") and mortal wounds inflicted by
[DEVASTATING WOUNDS]; damage (wounds lost), models destroyed, per group and in all, and the unit
destroyed are read off the final state.

Deadly Demise (24.08) of the destroyed models is not part of it: the odds say so when a model
that could be destroyed has it (sim.odds.engine)."""

from __future__ import annotations

import threading
from collections import defaultdict

import numpy as np

from sim.odds import budget as BU
from sim.odds import dist as DI
from sim.odds import faces as FA
from sim.odds.problem import PoolInput, Problem, UnitView
from sim.rules import abilities as AB
from sim.rules import pools as PL
from sim.rules.abilities import Hook
from sim.rules.allocation import (allocation_groups, default_order, first_group_with_models, fit_order,
                                  precision_default, preferred_groups, select_model)
from sim.rules.dice import DiceExpr
from sim.rules.mortal import hazard_mortal_wounds, mortal_wound_target
from sim.rules import sequence as SQ
from sim.rules.sequence import PoolState
from sim.rules.effects.attack import damage_after, save_reroll_faces
from sim.odds.budget import Intractable  # noqa: F401  (raised here, beyond the budgets)

MAX_ENTRIES = 200_000  # outcomes of a target at once; beyond, the attack is too large to work out exactly
MAX_STATES = 3_000  # states of one pool's chain (its matrices are dense)


# --- a pool before allocation -----------------------------------------------------------------


class Setup:
    """A pool as gathered with these models of its target alive: its PoolState flags (set by its
    abilities' registry ``pool`` effects, as AttackResolutionSystem sets them), and the
    distributions before allocation (``odds`` False: the flags only, what the Monte Carlo reads)."""

    __slots__ = ("state", "abilities", "precision", "dice", "hits", "joint_hits", "wound_table",
                 "wounds", "criticals", "damage")

    def __init__(self, problem: Problem, pool: PoolInput, living: tuple[int, ...], odds: bool = True):
        tv = problem.targets[pool.target]
        keywords, has_char = tv.unit_keywords(living), tv.has_character(living)
        key = pool.key
        self.abilities = (PL.applying(pool.first_abilities, keywords, has_char) if pool.first_abilities else ())
        p = PoolState(0, key.skill, key.S, key.AP, key.D, tv.toughness(living), key.hit_mod, key.wound_mod,
                      hit_fail_below=key.fail_below, snap=key.snap)

        def answer(choice):  # (the script's answer when it is an option, else the default)
            given = problem.decision(choice.kind)
            return given if given in choice.options else choice.default

        PL.apply_pool_effects(self.abilities, p, answer)
        self.state = p
        self.precision = Hook.PRECISION in AB.effects_of(self.abilities)
        self.damage = DI.dice_expr(p.D)
        if not odds:
            return
        # 04.03 step 2: the attack dice
        dice = np.array([1.0])
        for m in pool.members:
            d = _member_dice(m, keywords, has_char)
            BU.spend(len(dice) * len(d), "the attack dice")
            dice = np.convolve(dice, d)
        self.dice = dice
        self.joint_hits, self.hits, self.wound_table, self.wounds, self.criticals = _rolls(p, dice)


_KEPT: dict = {}  # _rolls's answers by their inputs (see there), oldest first
_KEPT_BYTES = [0]
_KEPT_LOCK = threading.Lock()
KEPT_BUDGET = 32 * 2**20  # bytes of the arrays kept; beyond, the oldest let go


def _rolls(p: PoolState, dice: np.ndarray) -> tuple:
    """05.01/05.02 from a pool's attack dice: (joint hits [hits, automatic wounds], hits, the wound
    table [wounds to save, devastating criticals], wounds, critical wounds). Kept by their inputs
    (the dice's distribution, bit for bit, and the hit and wound rolls' faces and flags): the same
    weapons at many targets (a player weighing each) roll them alike, and the answer is the same
    arrays (read-only); the joint hits by the dice and the hit roll alone (targets of another
    Toughness roll other wounds from the same hits). The work is counted as if done each time
    (sim.odds.budget: which engine answers never depends on what was asked before)."""
    if p.torrent:
        kernel = None
    else:
        fail, normal, crit = FA.hit(p.skill, p.hit_mod, p.hit_fail_below, p.snap, SQ.hit_reroll_faces(p))
        extra = DI.dice_expr(p.sustained) if p.sustained else np.array([1.0])
        kernel: dict[tuple[int, int], float] = defaultdict(float)
        kernel[(0, 0)] += fail
        kernel[(1, 0)] += normal
        for x, px in DI.support(extra):
            kernel[(x, 1) if p.lethal else (1 + x, 0)] += crit * px
        _power_mixture_cost(kernel, len(dice) - 1)
    fail, normal, crit = FA.wound_of(p)
    rolled = (dice.tobytes(), None if kernel is None else tuple(kernel.items()))
    key = rolled + (fail, normal, crit, bool(p.devastating))
    got = _kept(key)
    if got is not None:
        _wound_cost(got[0], p.devastating, 3 if p.devastating else 2)
        return got
    # 05.01: (hits to roll wounds for, automatic wounds) per attack die, and the "hits" the
    # report counts; kept by the dice and the hit roll alone (the same weapon at targets of
    # other Toughness: only the wound rolls differ)
    hit_key = ("hits",) + rolled
    kept_hits = _kept(hit_key)
    if kept_hits is None:
        kept_hits = _keep(hit_key, _hits(kernel, dice))
    h, hits = kept_hits
    # 05.02: per hit (wounds to save, devastating criticals); automatic wounds join the first
    wk = {(0, 0): fail, (1, 0): normal}
    if p.devastating:
        wk[(0, 1)] = crit
    else:
        wk[(1, 0)] += crit
    nh, na = h.shape
    width = _wound_cost(h, p.devastating, len(wk))
    w = np.zeros((nh + na - 1, width))
    for hh, table in enumerate(_power_rows(wk, nh - 1)):  # (the joint of hh hits' wound rolls, one at a time)
        row = h[hh]
        if not row.any():
            continue
        for a in np.flatnonzero(row):
            w[a:a + table.shape[0]] += row[a] * table
    total = np.zeros(w.shape[0] + w.shape[1] - 1)
    for c in range(w.shape[1]):
        total[c:c + w.shape[0]] += w[:, c]
    return _keep(key, (h, hits, w, DI.trim(total), DI.trim(DI.binomial_mixture(np.sum(h, axis=1), crit))))


def _hits(kernel: dict | None, dice: np.ndarray) -> tuple:
    """05.01 from a pool's attack dice and its hit roll's ``kernel`` (None: [TORRENT], no roll):
    (joint hits [hits to roll wounds for, automatic wounds], the "hits" the report counts:
    normal, critical and extra, LETHAL criticals included). Its work counted by the caller
    (_power_mixture_cost)."""
    if kernel is None:
        h = np.zeros((len(dice), 1))
        h[:, 0] = dice
    else:
        h = _power_mixture(kernel, dice, counted=True)
    hits = np.zeros(h.shape[0] + h.shape[1] - 1)
    for a in range(h.shape[1]):
        hits[a:a + h.shape[0]] += h[:, a]
    return h, DI.trim(hits)


def _kept(key):
    """_rolls's kept answer for ``key``, made the most recent, or None."""
    with _KEPT_LOCK:  # (a front end may work odds out on another thread)
        got = _KEPT.pop(key, None)
        if got is not None:
            _KEPT[key] = got  # (the most recent last)
    return got


def _keep(key, got: tuple) -> tuple:
    """Keep ``got`` (arrays, made read-only: they are shared) for ``key``, the oldest let go
    beyond KEPT_BUDGET bytes; returns it."""
    size = sum(x.nbytes for x in got)
    for x in got:
        x.flags.writeable = False
    with _KEPT_LOCK:
        if key not in _KEPT:
            _KEPT[key] = got
            _KEPT_BYTES[0] += size
        while _KEPT_BYTES[0] > KEPT_BUDGET and len(_KEPT) > 1:
            _KEPT_BYTES[0] -= sum(x.nbytes for x in _KEPT.pop(next(iter(_KEPT))))
    return got


def _wound_cost(h: np.ndarray, devastating: bool, kinds: int) -> int:
    """Count the wound rolls' table (its memory and work) from the joint hits; its width."""
    nh, na = h.shape
    width = (nh - 1) * (1 if devastating else 0) + 1
    BU.need((nh + na - 1) * width + 2 * nh * width, "the wound rolls' table")
    BU.spend(int(np.count_nonzero(h)) * nh * width + nh * nh * width * kinds, "the wound rolls' table")
    return width


def _member_dice(m, keywords, has_char) -> np.ndarray:
    """04.03 step 2 for one declared attack: its A (random A rolled; a split share instead)
    plus the dice its abilities that apply to the target add (the registry's extra_dice)."""
    d = np.zeros(m.attacks + 1) if m.attacks is not None else DI.dice_expr(m.A)
    if m.attacks is not None:
        d[m.attacks] = 1.0
    if not m.adds_dice:
        return d
    for ab in PL.applying(m.abilities, keywords, has_char):
        add = ab.spec.extra_dice
        if add is not None:
            x = add(ab, m.half_range, m.target_models, m.split)
            d = np.convolve(d, DI.dice_expr(x if isinstance(x, DiceExpr) else int(x)))
    return d


def _power_mixture(kernel: dict, counts: np.ndarray, counted: bool = False) -> np.ndarray:
    """The joint distribution of the sum of N independent draws of ``kernel`` ((da, db) ->
    chance), N distributed as ``counts`` (``counted``: its work counted already)."""
    rows = _power_mixture_rows(kernel, len(counts) - 1, counted)
    return np.tensordot(counts, rows, axes=1)


def _power_mixture_cost(kernel: dict, n_max: int) -> tuple:
    """Count _power_mixture_rows's memory and work; its rows' shape."""
    ma = max(a for a, _b in kernel)
    mb = max(b for _a, b in kernel)
    shape = (n_max * ma + 1, n_max * mb + 1)
    entries = (n_max + 1) * shape[0] * shape[1]
    BU.need(entries, f"the joint table of up to {n_max:,} dice")
    BU.spend(entries * len(kernel), f"the joint table of up to {n_max:,} dice")
    return shape


def _power_rows(kernel: dict, n_max: int):
    """_power_mixture_rows's rows one at a time (row n from row n - 1, the same arithmetic),
    holding two of them: the joint tables of many hits' wound rolls fit where all of them at
    once (n_max**3 entries) would not."""
    ma = max(a for a, _b in kernel)
    mb = max(b for _a, b in kernel)
    shape = (n_max * ma + 1, n_max * mb + 1)
    items = [(a, b, p) for (a, b), p in kernel.items() if p > 0.0]
    prev = np.zeros(shape)
    prev[0, 0] = 1.0
    yield prev
    for n in range(1, n_max + 1):
        cur = np.zeros(shape)
        ha, hb = (n - 1) * ma + 1, (n - 1) * mb + 1  # the support so far
        for a, b, p in items:
            cur[a:a + ha, b:b + hb] += p * prev[:ha, :hb]
        yield cur
        prev = cur


def _power_mixture_rows(kernel: dict, n_max: int, counted: bool = False) -> np.ndarray:
    """rows[n] = the joint distribution of the sum of n draws of ``kernel``."""
    ma = max(a for a, _b in kernel)
    mb = max(b for _a, b in kernel)
    shape = (n_max * ma + 1, n_max * mb + 1)
    if not counted:
        _power_mixture_cost(kernel, n_max)
    rows = np.zeros((n_max + 1, *shape))
    rows[0, 0, 0] = 1.0
    items = [(a, b, p) for (a, b), p in kernel.items() if p > 0.0]
    for n in range(1, n_max + 1):
        prev, cur = rows[n - 1], rows[n]
        ha, hb = (n - 1) * ma + 1, (n - 1) * mb + 1  # the support so far
        for a, b, p in items:
            cur[a:a + ha, b:b + hb] += p * prev[:ha, :hb]
    return rows


# --- allocation and damage: the chain ----------------------------------------------------------


class Context:
    """A pool's allocation at one state of its target: its groups, order and [PRECISION] pick
    (made at the pool's start), what a save roll's face does to each model, and the transitions
    of the chain, kept per state."""

    def __init__(self, problem: Problem, pool: PoolInput, setup: Setup, r: tuple[int, ...],
                 static: tuple | None = None, alloc: tuple | None = None):
        """``static`` (target_static of the target) and ``alloc`` (allocation_at of ``r``) may be
        given when worked out already: a caller that keeps them for a target's many states and
        pools (sim.odds.fast) saves their passes over the models."""
        tv = problem.targets[pool.target]
        self.tv = tv
        self.ids = tv.ids
        self.index, self.W, profiles, self.profile_of, self.lost_to_damage = static or target_static(tv)
        self.models, self.members_of, self.order = alloc or allocation_at(problem, tv, r)
        self.precision = None
        if setup.precision:
            options = [c for c in pool.visible_characters if r[self.index[c]] > 0]
            if options:
                given = problem.decision("precision")
                if given == "decline":
                    self.precision = None
                elif given in options:
                    self.precision = given
                else:
                    self.precision = precision_default(options, {c: r[self.index[c]] for c in options})
        p = setup.state
        self.damage = DI.support(setup.damage)
        # save rolls: the runs of faces that act alike on every model of the target
        table = [FA.save_fails(p.AP, sv, inv, mod) for sv, inv, mod in profiles]
        # 01.05.02 the faces a rule acting on the target's models re-rolls (the battle's rule:
        # sim.rules.effects.attack.save_reroll_faces): each face's chance after the re-rolls
        rerolled = (save_reroll_faces((tv.save_reroll[i], FA.save_fails(p.AP, tv.Sv[i], tv.saves_InSv[i],
                                                                          tv.save_mod[i]))
                                      for i in range(len(tv.ids)) if r[i] > 0) if tv.save_reroll else ())
        chance = [0.0] + [(0.0 if f in rerolled else 1 / 6) + len(rerolled) / 36 for f in range(1, 7)]
        runs: list[list] = []  # [first face, faces, fails per profile, chance of a die showing one]
        for f in range(1, 7):
            fails = tuple(t[f] for t in table)
            if runs and runs[-1][2] == fails:
                runs[-1][1] += 1
                runs[-1][3] += chance[f]
            else:
                runs.append([f, 1, fails, chance[f]])
        while runs and not any(runs[-1][2]):
            runs.pop()  # (passing on every model: those faces change nothing)
        self.runs = [(f, n, fails, c) for f, n, fails, c in runs]
        self.save_reroll = frozenset(rerolled)
        # the damage of an attack allocated to each model: a rule's change to it (05.04, never below 1)
        self.damage_to = [_taken(self.damage, t) for t in tv.taken] if tv.taken else [self.damage] * len(tv.ids)
        self._step: dict = {}

    def key(self):
        return (self.order, self.precision, tuple(sorted(self.members_of.items())))

    # one save roll of run ``k`` on state r -> {(r', failed): chance}
    def _save(self, k: int, r):
        step = self._step.get((k, r))
        if step is not None:
            return step
        rem = dict(zip(self.ids, r))
        group = first_group_with_models(self.order, rem, self.members_of, self.precision)
        if group is None:  # the unit is destroyed: the remaining attacks are lost
            step = {(r, 0): 1.0}
        else:
            mid = select_model(self.members_of[group], rem, self.W)
            i = self.index[mid]
            if not self.runs[k][2][self.profile_of[i]]:
                step = {(r, 0): 1.0}
            else:
                step = defaultdict(float)
                for (r2, _lost), p in self.lose(r, i, self.damage_to[i]):
                    step[(r2, 1)] += p
                step = dict(step)
        self._step[(k, r)] = step
        return step

    def lose(self, r, i, amounts):
        """05.04 step 3 / 24.12: model ``i`` loses each amount (damage or mortal wounds, with its
        chance), each wound first offered to Feel No Pain, the excess lost. [(r', amount), chance]."""
        q = self.lost_to_damage[i]
        out = []
        for amount, pa in amounts:
            if q >= 1.0:
                lost_dist = [(min(amount, r[i]), 1.0)]
            else:
                row = DI.binomial_rows(amount, q)[amount, :amount + 1]
                agg: dict[int, float] = defaultdict(float)
                for k, pk in enumerate(row):
                    if pk > 0.0:
                        agg[min(k, r[i])] += pk
                lost_dist = agg.items()
            for lost, pl in lost_dist:
                r2 = r if not lost else r[:i] + (r[i] - lost,) + r[i + 1:]
                out.append(((r2, amount), pa * pl))
        return out

    # one [DEVASTATING WOUNDS] critical on state r -> {(r', mortal wounds): chance} (24.10, 06.02)
    def _mortal(self, r):
        step = self._step.get(("mortal", r))
        if step is not None:
            return step
        if max(r) <= 0:
            step = {(r, 0): 1.0}
        else:
            rem = dict(zip(self.ids, r))
            mid = None
            if self.precision is not None:  # the [PRECISION] group first (Part A ruling 4)
                mid = next((m for m in self.members_of.get(self.precision, ()) if rem.get(m, 0) > 0), None)
            if mid is None:
                mid = mortal_wound_target(self.models, rem)
            step = defaultdict(float)
            for (r2, amount), p in self.lose(r, self.index[mid], self.damage):
                step[(r2, amount)] += p
            step = dict(step)
        self._step[("mortal", r)] = step
        return step


def target_static(tv: UnitView) -> tuple:
    """What a Context reads of its target that no state or pool changes: (model id -> index,
    model id -> W, the save profiles (Sv, InSv, modifier) sorted, each model's profile, each
    model's chance that a wound is lost past Feel No Pain)."""
    profiles = sorted({(tv.Sv[i], tv.saves_InSv[i], tv.save_mod[i]) for i in range(len(tv.ids))}, key=repr)
    at = {pr: k for k, pr in enumerate(profiles)}
    return ({mid: i for i, mid in enumerate(tv.ids)}, {mid: w for mid, w in zip(tv.ids, tv.W)}, profiles,
            [at[(tv.Sv[i], tv.saves_InSv[i], tv.save_mod[i])] for i in range(len(tv.ids))],
            [FA.damage_lost(x) for x in tv.fnp])


def allocation_at(problem: Problem, tv: UnitView, r: tuple) -> tuple:
    """05.03 at state ``r``: (the models as the rules see them, group key -> members, the
    allocation order: the declared or scripted one fitted, else the default)."""
    models = tv.target_models(r)
    groups = allocation_groups(models)
    declared = preferred_groups(groups, models, tv.preferred)
    order = default_order(groups, models, declared)
    scripted = problem.decision("allocation_order")
    if scripted is not None and len(groups) > 1:  # (asked only then: AttackResolutionSystem)
        order, _problems = fit_order(groups, models, [str(v) for v in scripted], order)
    return models, {g.key: g.members for g in groups}, tuple(order)


def _taken(damage, taken: int):
    """The support of the damage of an attack allocated to a model whose rules change the Damage
    it takes by ``taken`` (sim.rules.effects.attack.damage_after), equal amounts merged."""
    if not taken:
        return damage
    out: dict[int, float] = defaultdict(float)
    for amount, p in damage:
        out[damage_after(amount, taken)] += p
    return sorted(out.items())


def transitions(ctx: Context, starts: list, saves: int, mortal: int) -> tuple:
    """The states reachable from ``starts`` (found by following the single steps, which the
    rules decide: at most ``saves`` save rolls, then at most ``mortal`` devastating criticals),
    their index, and the transitions over them: per run of save faces those of a save roll that
    passes and of one that fails, per amount those of a critical (Chain's matrices; the starts
    are the first states). Shared by Chain and sim.odds.fast.UnionChain."""
    states = list(starts)
    index = {r: i for i, r in enumerate(states)}
    runs = range(len(ctx.runs))

    def grow(level, steps):
        nxt = []
        BU.python_steps(len(level) * (len(ctx.runs) + 1), "the target's states")
        for r in level:
            for s in steps(r):
                if s not in index:
                    index[s] = len(states)
                    states.append(s)
                    nxt.append(s)
                    if len(states) > MAX_STATES:
                        raise Intractable(f"more than {MAX_STATES:,} states of the target")
        return nxt

    level = list(starts)
    for _ in range(saves):
        level = grow(level, lambda r: [s for k in runs for (s, _n) in ctx._save(k, r)])
        if not level:
            break
    level = states[:]  # (the criticals come after every save roll, from wherever they left it)
    for _ in range(mortal):
        level = grow(level, lambda r: [s for (s, _n) in ctx._mortal(r)])
        if not level:
            break
    n = len(states)
    if len(ctx._step) * (BU.ITEM * len(ctx.ids) + 400) > BU.MEMORY_BUDGET:
        ctx._step.clear()  # (the transitions kept from other start states let go: a bounded cache)
    BU.need((2 * len(ctx.runs) + (len(ctx.damage) + 1 if mortal else 0)) * n * n,
            f"the transitions of {n:,} states")
    BU.python_steps(n * (len(ctx.runs) + (1 if mortal else 0)) * len(ctx.damage), "the transitions")
    passes, fails = [], []
    for k in runs:
        tp, tf = np.zeros((n, n)), np.zeros((n, n))
        for j, r in enumerate(states):
            for (s, failed), p in ctx._save(k, r).items():
                i = index.get(s)
                if i is not None:  # (beyond the last step: no mass ever moves along it)
                    (tf if failed else tp)[i, j] += p
        passes.append(tp)
        fails.append(tf)
    mortals: dict[int, np.ndarray] = {}
    if mortal:
        for j, r in enumerate(states):
            for (s, amount), p in ctx._mortal(r).items():
                i = index.get(s)
                if i is None:
                    continue
                t = mortals.get(amount)
                if t is None:
                    t = mortals[amount] = np.zeros((n, n))
                t[i, j] += p
    return states, index, passes, fails, mortals


class Chain:
    """The chain of one pool from one start state r0, as matrices over the states reachable from
    it (found by following the single steps, which the rules decide): per run of save faces the
    transition of a save roll that passes and of one that fails, and per amount the transition
    of a [DEVASTATING WOUNDS] critical. Columns are the state before, rows the state after."""

    def __init__(self, ctx: Context, r0, saves: int, mortal: int):
        """The states reachable from r0 in at most ``saves`` save rolls and then at most
        ``mortal`` devastating criticals."""
        self.ctx = ctx
        (self.states, self.index, self.passes, self.fails,
         self.mortal) = transitions(ctx, [r0], saves, mortal)

    def _apply(self, k: int, w: np.ndarray, counters: bool) -> np.ndarray:
        """One save roll of run k on w [state, failed so far, ...]."""
        n = w.shape[0]
        flat = w.reshape(n, -1)
        BU.spend((2 * n + 2) * flat.size, "the save rolls")
        if not counters:
            return ((self.passes[k] + self.fails[k]) @ flat).reshape(w.shape)
        out = (self.passes[k] @ flat).reshape(w.shape)
        failed = (self.fails[k] @ flat).reshape(w.shape)
        out[:, 1:] += failed[:, :-1]
        return out

    def saves(self, wounds: np.ndarray, counters: bool) -> np.ndarray:
        """05.03 step 3 + 05.04 for a number of save rolls distributed as ``wounds``:
        [state, saves failed] (one column when not counting)."""
        runs = self.ctx.runs
        n, M = len(self.states), len(wounds) - 1
        U = M + 1 if counters else 1
        BU.need(4 * n * U * (M + 1), f"{M:,} save rolls on {n:,} states")
        v = np.zeros((n, U, M + 1))
        v[0, 0, :] = wounds
        if not runs:
            return v.sum(axis=2)
        left = 1.0  # the share of faces from this run's first face up
        for k, (_first, _faces, _fails, chance) in enumerate(runs):
            q = min(1.0, chance / left)
            left -= chance
            B = DI.binomial_rows(M, q)[:M + 1, :M + 1]  # B[m, c]: c of m dice show this run
            if k == len(runs) - 1:
                # the dice left after it pass: P[s, u, c] = sum_m v[s, u, m] B[m, c], then
                # sum_c T^c P[..., c] by Horner's scheme
                P = np.tensordot(v, B, axes=([2], [0]))
                acc = P[:, :, M]
                for c in range(M - 1, -1, -1):
                    acc = P[:, :, c] + self._apply(k, acc, counters)
                return acc
            new = np.zeros_like(v)
            # w = T^c v over the columns m >= c (the others are done) and the counts of failed
            # saves that can have mass (each roll fails at most one more)
            top = int(np.flatnonzero(v.any(axis=(0, 2)))[-1]) + 1
            w = v[:, :top]
            for c in range(M + 1):
                new[:, :w.shape[1], :M + 1 - c] += w * B[c:, c]
                if c < M:
                    w = w[:, :, 1:]
                    if counters and w.shape[1] < U:
                        w = np.concatenate([w, np.zeros((n, 1, w.shape[2]))], axis=1)
                    w = self._apply(k, np.ascontiguousarray(w), counters)
            v = new
        raise AssertionError("unreachable")

    def mortals(self, x: np.ndarray, n: int) -> np.ndarray:
        """n [DEVASTATING WOUNDS] criticals on x [state, failed]: [state, failed, mortal wounds]."""
        top = max(self.mortal) if self.mortal else 0
        BU.need(3 * x.size * (n * top + 1), f"{n:,} devastating wounds on {len(self.states):,} states")
        y = np.zeros((*x.shape, n * top + 1))
        y[:, :, 0] = x
        for _ in range(n):
            z = np.zeros_like(y)
            flat = y.reshape(y.shape[0], -1)
            for amount, t in self.mortal.items():
                BU.spend((t.shape[0] + 2) * flat.size, "the devastating wounds")
                moved = (t @ flat).reshape(y.shape)
                if amount:
                    z[:, :, amount:] += moved[:, :, :-amount]
                else:
                    z += moved
            y = z
        return y


# --- the whole attack ------------------------------------------------------------------------


class PoolOdds:
    """What one pool rolled: attack dice, hits, wounds, critical wounds (each given that its dice
    were rolled: divided by the chance they were, the mass added, not by 1 - lost, which is
    only rounding when the target is all but surely destroyed before the pool) and the chance
    they were lost (its target destroyed before it)."""

    def __init__(self, pool: PoolInput, target: UnitView):
        self.pool = pool
        self.target = target
        self.lost = 0.0
        self.rolled = 0.0
        self.dice = np.zeros(1)
        self.hits = np.zeros(1)
        self.wounds = np.zeros(1)
        self.criticals = np.zeros(1)

    def add(self, setup: Setup, p: float) -> None:
        def acc(a, b):  # (a + b * p, the shorter padded with zeros)
            out = np.zeros(max(len(a), len(b)))
            out[:len(a)] = a
            out[:len(b)] += b * p
            return out
        self.rolled += p
        self.dice = acc(self.dice, setup.dice)
        self.hits = acc(self.hits, setup.hits)
        self.wounds = acc(self.wounds, setup.wounds)
        self.criticals = acc(self.criticals, setup.criticals)

    def finish(self) -> None:
        rolled = self.rolled
        for name in ("dice", "hits", "wounds", "criticals"):
            v = getattr(self, name)
            setattr(self, name, DI.trim(v / rolled) if rolled > 0 else np.array([1.0]))


def solve_target(problem: Problem, t: int, pool_odds: dict, count: bool = True) -> dict:
    """The final distribution {(wounds left per model, saves failed, mortal wounds): chance} of
    target ``t`` after every pool at it, in order (``count`` False: the two counters left at 0,
    which is much cheaper when the target's models save differently)."""
    tv = problem.targets[t]
    states = {(tv.start, 0, 0): 1.0}
    static = target_static(tv)  # (what no state or pool changes: once per target)
    setups: dict = {}
    contexts: dict = {}
    for pool in problem.pools:
        if pool.target != t:
            continue
        po = pool_odds[pool.index]
        setups.clear()  # (kept for this pool only: the keys name it; their memory is bounded)
        contexts.clear()
        kept = 0
        BU.python_steps(len(states) * (2 + len(tv.ids) // 16), "the target's states")
        by_r: dict = defaultdict(dict)
        for (r, u, mw), p in states.items():
            by_r[r][(u, mw)] = p
        new: dict = defaultdict(float)
        for r0, counters in by_r.items():
            mass = sum(counters.values())
            if max(r0) <= 0:  # the target is destroyed: these attacks are lost
                po.lost += mass
                for (u, mw), p in counters.items():
                    new[(r0, u, mw)] += p
                continue
            living = UnitView.living(r0)
            setup = setups.get((pool.index, living))
            if setup is None:
                setup = Setup(problem, pool, living)
                size = setup.joint_hits.size + setup.wound_table.size + 4 * len(setup.hits)
                if kept + size > BU.MEMORY_BUDGET // BU.ITEM:  # (the set-ups kept so far let go)
                    setups.clear()
                    kept = 0
                setups[(pool.index, living)] = setup
                kept += size
            po.add(setup, mass)
            BU.python_steps(4 * len(tv.ids), "an allocation context")
            ctx = Context(problem, pool, setup, r0, static)
            ctx = contexts.setdefault((pool.index, ctx.key()), ctx)  # (its transitions kept)
            table = setup.wound_table
            chain = Chain(ctx, r0, table.shape[0] - 1, table.shape[1] - 1)
            for mc in range(table.shape[1]):
                col = table[:, mc]
                if not col.any():
                    continue
                after = chain.saves(DI.trim(col), count)
                after = chain.mortals(after, mc) if mc else after[:, :, None]
                if not count:
                    after = after.sum(axis=(1, 2), keepdims=True)
                BU.python_steps(int(np.count_nonzero(after)) * len(counters) * (1 + len(tv.ids) // 16),
                                "the target's outcomes")  # (each hashes its wounds left, a tuple)
                for j, du, dmw in zip(*np.nonzero(after)):
                    p = float(after[j, du, dmw])
                    r2 = chain.states[j]
                    for (u, mw), q in counters.items():
                        new[(r2, u + int(du), mw + int(dmw))] += p * q
        if len(new) > MAX_ENTRIES:
            raise Intractable(f"more than {MAX_ENTRIES:,} outcomes of the target")
        states = dict(new)
    return states


def solve_hazard(problem: Problem) -> dict:
    """24.15/06.03 The attacker's wounds left after its hazard rolls: {wounds left per model:
    chance}; each failed roll is 1 mortal wound (3 if every model is MONSTER or VEHICLE),
    resolved one at a time on the model 06.02 picks, each offered to Feel No Pain."""
    av = problem.attacker
    n = problem.hazard_rolls
    if n == 0:
        return {av.start: 1.0}
    fails = DI.binomial_rows(n, FA.hazard_fail())[n, :n + 1]
    models = av.target_models(av.start)
    lost = [FA.mortal_lost(x) for x in av.fnp]
    step_cache: dict = {}

    def step(r):
        hit = step_cache.get(r)
        if hit is None:
            if max(r) <= 0:
                hit = {r: 1.0}
            else:
                i = av.ids.index(mortal_wound_target(models, dict(zip(av.ids, r))))
                r2 = r[:i] + (r[i] - 1,) + r[i + 1:]
                hit = {r2: lost[i]} if lost[i] >= 1.0 else {r2: lost[i], r: 1.0 - lost[i]}
            step_cache[r] = hit
        return hit

    out: dict = defaultdict(float)
    cur = {av.start: 1.0}
    done = 0
    by_wounds: dict = defaultdict(float)
    for f, pf in enumerate(fails):
        by_wounds[hazard_mortal_wounds(f, problem.attacker_all_monster_or_vehicle)] += pf
    for mw in sorted(by_wounds):
        while done < mw:
            BU.python_steps(len(cur) * (2 + len(av.ids) // 64), "the hazard rolls")
            nxt: dict = defaultdict(float)
            for r, p in cur.items():
                for r2, q in step(r).items():
                    nxt[r2] += p * q
            cur = nxt
            done += 1
        for r, p in cur.items():
            out[r] += by_wounds[mw] * p
    return dict(out)
