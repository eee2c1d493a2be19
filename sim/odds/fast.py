"""The exact odds of every pool at one target, without multiplying state spaces (issue 29): the
same chain as sim.odds.exact (its Setup, Context and transitions, so the same rules decide every
step), worked out for all the target's start states of a pool at once.

sim.odds.exact.solve_target (the reference path, kept for the tests) follows each state a pool
can start from on its own: a chain of its own, a run of the save rolls of its own, and the
counters carried as a joint (wounds left, unsaved attacks, mortal wounds) dictionary, so that
six pools at ten models meant hundreds of chains and tens of thousands of entries. Here:

* **One chain per allocation.** The transitions from a state depend on the pool's set-up (its
  abilities, T and keywords as its target's living models give them) and on the allocation made
  at the pool's start (the order of the groups, the [PRECISION] pick, the save faces' runs),
  never on which start state it came from. Groups are keyed by what never changes as models die
  (each non-CHARACTER group holds every model of its W, Sv and InSv, a destroyed one is never
  picked; a CHARACTER is its own group), so start states that allocate alike share one chain,
  and the save rolls of all of them are worked out in one pass of numpy arithmetic.
* **Per number of save rolls.** With devastating criticals (resolved after every save roll of
  the pool) the chain is worked out for each number of save rolls at once (UnionChain.per_dice:
  with one or two runs of failing faces, powers of one die's transition), so the joint table
  of (save rolls, criticals) is a product, not a batch of chains.
* **Counters as marginals.** What a report shows of the counters is each one's distribution; each
  is a Markov chain with the wounds left ((wounds left, unsaved attacks) and (wounds left, mortal
  wounds)), so each is carried on its own instead of as a joint three-way table. Without counters
  (the preview, the matrix, the players) only the wounds left are carried.
* **Pruning.** A start state whose chance is below ``PRUNE_BELOW`` is dropped, smallest first,
  and a pool's least likely numbers of save rolls and criticals (at most ``PRUNE_TAIL`` a table),
  while the chance dropped in all stays below ``PRUNE_TOTAL``: the answer then sums to
  1 - pruned, and the result carries the pruned chance (sim.odds.result.Odds.pruned).

A lone pool at a target (one start state, nothing to share) goes the reference path's way
unless it is large with devastating criticals: the same work there, with less around it.

The budgets of sim.odds.budget are counted as the reference path counts them (each array's
entries before it is allocated, each multiply-add and Python step), so an attack too large for
this path still gets the Monte Carlo, its note saying why."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from sim.odds import budget as BU
from sim.odds import dist as DI
from sim.odds import exact as EX
from sim.odds import states as ST
from sim.odds.problem import Problem, UnitView
from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.allocation import first_group_with_models, select_model

PRUNE_BELOW = 1e-15  # a start state below this chance may be dropped...
PRUNE_TOTAL = 1e-13  # ...while the chance dropped in one target stays below this
PRUNE_TAIL = 1e-14  # the most likely numbers of save rolls and devastating criticals cut from a pool's table


class Final:
    """A target after every pool at it: ``states`` {wounds left per model: chance}, and when
    counted the distributions of unsaved attacks and of mortal wounds (arrays, ``p[k]``);
    ``pruned`` the chance dropped."""

    __slots__ = ("states", "unsaved", "mortal", "pruned")

    def __init__(self, states: dict, unsaved, mortal, pruned: float):
        self.states, self.unsaved, self.mortal, self.pruned = states, unsaved, mortal, pruned


class _Ctx(EX.Context):
    """A Context whose 05.04/24.12 losses and model selections are kept for the whole target
    (the losses depend on the state, the model and the damage; the model a save roll goes to on
    the state, the order and the [PRECISION] pick; never on the pool's AP)."""

    def __init__(self, problem, pool, setup, r, kept: tuple, alloc_key):
        """``kept``: (losses, models selected, the target's target_static, allocation_at per
        ``alloc_key``: what of a state its allocation reads, sim.odds.states.Reader.read)."""
        self._losses, self._selected, static, allocs = kept
        alloc = allocs.get(alloc_key)
        if alloc is None:
            alloc = allocs[alloc_key] = EX.allocation_at(problem, problem.targets[pool.target], r)
        super().__init__(problem, pool, setup, r, static, alloc)

    def lose(self, r, i, amounts):
        key = (r, i, tuple(amounts))
        out = self._losses.get(key)
        if out is None:
            out = self._losses[key] = super().lose(r, i, amounts)
        return out

    def _save(self, k: int, r):
        """sim.odds.exact.Context._save, the model selected kept across the target's pools."""
        step = self._step.get((k, r))
        if step is not None:
            return step
        key = (self.order, self.precision, r)
        i = self._selected.get(key, -1)
        if i == -1:
            rem = dict(zip(self.ids, r))
            group = first_group_with_models(self.order, rem, self.members_of, self.precision)
            i = None if group is None else self.index[select_model(self.members_of[group], rem, self.W)]
            self._selected[key] = i
        if i is None or not self.runs[k][2][self.profile_of[i]]:
            step = {(r, 0): 1.0}  # (the unit destroyed: the attack lost; or the save passes)
        else:
            acc: dict = defaultdict(float)
            for (r2, _lost), p in self.lose(r, i, self.damage_to[i]):
                acc[(r2, 1)] += p
            step = dict(acc)
        self._step[(k, r)] = step
        return step


def _groups_for_good(tv: UnitView) -> tuple[dict, dict]:
    """(model id -> its group's lasting key, lasting key -> every member in listed order): a
    non-CHARACTER group is every model of its W, Sv and InSv (05.03 step 1), a CHARACTER its own."""
    key_of, members, first = {}, defaultdict(list), {}
    for i, mid in enumerate(tv.ids):
        kind = ("CHARACTER", mid) if tv.character[i] else (tv.W[i], tv.Sv[i], tv.InSv[i])
        k = first.setdefault(kind, mid)
        key_of[mid] = k
        members[k].append(mid)
    return key_of, {k: tuple(v) for k, v in members.items()}


def _lasting(ctx: EX.Context, key_of: dict, members: dict) -> tuple:
    """Re-key ``ctx``'s groups by their lasting keys (every member kept: a destroyed model is never
    selected, 05.04, so the transitions from any state are unchanged) and return what its
    transitions depend on beyond the pool's set-up."""
    ctx.order = tuple(key_of[ctx.members_of[g][0]] for g in ctx.order)
    if ctx.precision is not None:
        ctx.precision = key_of[ctx.precision]
    ctx.members_of = members
    return ctx.order, ctx.precision, tuple(ctx.runs), ctx.save_reroll


class UnionChain:
    """sim.odds.exact.Chain from several start states at once (the first ``len(starts)`` states),
    over every state reachable from any of them."""

    def __init__(self, ctx: EX.Context, starts: list, saves: int, mortal: int):
        self.ctx = ctx
        (self.states, self.index, self.passes, self.fails,
         self.mortal) = EX.transitions(ctx, starts, saves, mortal)
        self.either = [tp + tf for tp, tf in zip(self.passes, self.fails)]
        n = len(self.states)
        # (a large chain's save rolls move each state to a few others: its products take the
        # nonzero entries only, not n^2 multiply-adds of which nearly all are by zero)
        self.sparse = (n >= ST.SPARSE_FROM
                       and all(np.count_nonzero(t) * ST.SPARSE_SHARE <= n * n for t in self.either))
        if self.sparse:
            self.either = [ST.Sparse(t) for t in self.either]
            self.both = [(ST.Sparse(tp), ST.Sparse(tf)) for tp, tf in zip(self.passes, self.fails)]
        else:
            # (with the counters a save roll is one product with both: passes over fails)
            self.both = [np.vstack((tp, tf)) for tp, tf in zip(self.passes, self.fails)]
        self.any_mortal = sum(self.mortal.values()) if self.mortal else None

    def _apply(self, k: int, w: np.ndarray, counters: bool) -> np.ndarray:
        """One save roll of run k on w [state, failed so far (or a passive axis), ...]."""
        n = w.shape[0]
        flat = w.reshape(n, -1)
        if self.sparse:
            if not counters:
                return self.either[k].times(flat).reshape(w.shape)
            tp, tf = self.both[k]
            out = tp.times(flat).reshape(w.shape)
            out[:, 1:] += tf.times(flat).reshape(w.shape)[:, :-1]
            return out
        BU.spend((2 * n + 2) * flat.size, "the save rolls")
        if not counters:
            return (self.either[k] @ flat).reshape(w.shape)
        both = self.both[k] @ flat
        out = both[:n].reshape(w.shape)
        out[:, 1:] += both[n:].reshape(w.shape)[:, :-1]
        return out

    def saves(self, v: np.ndarray, counters: bool) -> np.ndarray:
        """05.03 step 3 + 05.04: v [state, failed so far, batch, save rolls] -> [state, failed,
        batch] (sim.odds.exact.Chain.saves with a start distribution and a batch axis; with
        ``counters`` False the second axis is carried along untouched)."""
        runs = self.ctx.runs
        n, U, _b, M1 = v.shape
        M = M1 - 1
        if not runs:
            return v.sum(axis=3)
        left = 1.0
        for k, (_first, _faces, _fails, chance) in enumerate(runs):
            q = min(1.0, chance / left)
            left -= chance
            B = DI.binomial_rows(M, q)[:M + 1, :M + 1]
            if k == len(runs) - 1:
                P = np.tensordot(v, B, axes=([3], [0]))
                acc = np.ascontiguousarray(P[..., M])
                for c in range(M - 1, -1, -1):
                    acc = P[..., c] + self._apply(k, acc, counters)
                return acc
            new = np.zeros_like(v)
            top = int(np.flatnonzero(v.any(axis=(0, 2, 3)))[-1]) + 1 if counters else U
            w = v[:, :top]
            for c in range(M + 1):
                new[:, :w.shape[1], :, :M + 1 - c] += w * B[c:, c]
                if c < M:
                    w = w[..., 1:]
                    if counters and w.shape[1] < U:
                        w = np.concatenate([w, np.zeros((n, 1, *w.shape[2:]))], axis=1)
                    w = self._apply(k, np.ascontiguousarray(w), counters)
            v = new
        raise AssertionError("unreachable")

    def saves_of(self, x: np.ndarray, col: np.ndarray, counters: bool) -> np.ndarray | None:
        """:meth:`saves` of an input that is one table ``x`` [state, failed so far (or a passive
        axis)] times the distribution ``col`` of the number of save rolls (v = x col, as a pool's
        are): [state, failed]. For at most two runs of failing faces (None for more): c1 rolls
        of the first run (Binomial(m, q1), taken first, 05.04) and c2 of the second (Binomial(m
        - c1, q2)) give T2^c2 T1^c1 x, so with z_c1 = T1^c1 x the answer is sum over c2 of
        T2^c2 s_c2, s_c2 = sum over c1 of coef[c2, c1] z_c1 (coef: the chance of c1 and c2 over
        col), worked out as s_0 + T2(s_1 + T2(s_2 + ...)): 2M products on x's size, where
        :meth:`saves` makes about M^2/2 (each count of rolls carried apart). With one run, the
        count c of rolls that show it is a mixture of binomials and the answer sum of T^c
        p_c x. ``x`` needs room for M more failed rolls on its second axis with ``counters``."""
        runs = self.ctx.runs
        M = len(col) - 1
        if not runs:
            return x * col.sum()
        if len(runs) > 2:
            return None
        qs = _run_shares(runs)
        B1 = DI.binomial_rows(M, qs[0])[:M + 1, :M + 1]
        if len(runs) == 1:
            p = col @ B1  # the count of rolls that show the run
            acc = p[M] * x
            for c in range(M - 1, -1, -1):
                acc = p[c] * x + self._apply(0, acc, counters)
            return acc
        B2 = DI.binomial_rows(M, qs[1])[:M + 1, :M + 1]
        coef = np.zeros((M + 1, M + 1))  # [c2, c1]
        for c1 in range(M + 1):
            coef[:, c1] = (col[c1:] * B1[c1:, c1]) @ B2[:M + 1 - c1]
        z = np.empty((M + 1,) + x.shape)  # z[c1] = T1^c1 x
        z[0] = x
        for c1 in range(1, M + 1):
            z[c1] = self._apply(0, z[c1 - 1], counters)
        s = np.tensordot(coef, z, axes=([1], [0]))  # [c2, state, failed]
        acc = s[M]
        for c2 in range(M - 1, -1, -1):
            acc = s[c2] + self._apply(1, acc, counters)
        return acc

    def per_dice(self, x: np.ndarray, M: int, counters: bool) -> np.ndarray | None:
        """x [state, failed so far (or a passive axis)] -> Y [state, failed, m]: where m save rolls
        (m = 0..M) leave the target, each m apart, so that any distribution of the number of
        save rolls (and of devastating criticals with it) is a product with Y. For at most two
        runs of failing faces (one or two save characteristics among the target's models);
        None for more (Chain.saves then). With one run the rolls that do not show it pass, so
        m rolls are A^m, A = q T + (1 - q) I; with two, c of m show the first run
        (Binomial(m, q1), taken first: lowest first, 05.04) and the m - c others are A2^(m-c)."""
        runs = self.ctx.runs
        n, U = x.shape
        BU.need(3 * n * U * (M + 1), f"{M:,} save rolls on {n:,} states")
        Y = np.zeros((n, U, M + 1))
        if not runs:
            Y[:] = x[:, :, None]
            return Y
        if len(runs) > 2:
            return None
        qs = _run_shares(runs)
        last = len(runs) - 1

        def A(w):  # one die of the last run's share: it shows the run or passes
            return qs[last] * self._apply(last, w, counters) + (1.0 - qs[last]) * w

        if last == 0:
            Y[:, :, 0] = x
            for m in range(1, M + 1):
                Y[:, :, m] = A(Y[:, :, m - 1])
            return Y
        Z = np.zeros((n, U, M + 1))  # Z[..., c] = T1^c x
        Z[:, :, 0] = x
        for c in range(1, M + 1):
            Z[:, :, c] = self._apply(0, Z[:, :, c - 1], counters)
        B1 = DI.binomial_rows(M, qs[0])[:M + 1, :M + 1]
        W = Z
        for r in range(M + 1):  # W[..., c] = A2^r T1^c x, which m = r + c rolls reach with B1[m, c]
            c = np.arange(M + 1 - r)
            Y[:, :, r:] += W * B1[r + c, c]
            if r < M:
                W = A(np.ascontiguousarray(W[:, :, :M - r]))
        return Y

    def criticals(self, y: np.ndarray, first: int = 0) -> np.ndarray:
        """y [state, x, batch], batch b holding ``first + b`` [DEVASTATING WOUNDS] criticals
        still to resolve: [state, x] after each batch's criticals (their mortal wounds not
        counted)."""
        for _ in range(first):
            y = self._mortal_any(y)
        acc = y[:, :, 0].copy()
        cur = y[:, :, 1:]
        while cur.shape[2]:
            cur = self._mortal_any(cur)
            acc += cur[:, :, 0]
            cur = cur[:, :, 1:]
        return acc

    def _mortal_any(self, y: np.ndarray) -> np.ndarray:
        n = y.shape[0]
        flat = y.reshape(n, -1)
        BU.spend((n + 2) * flat.size, "the devastating wounds")
        return (self.any_mortal @ flat).reshape(y.shape)

    def counted_criticals_each(self, y: np.ndarray) -> np.ndarray:
        """y [state, mortal so far, c] (c criticals to come) -> [state, mortal wounds]: the sum
        over c of counted_criticals(y[:, :, c], c), as y_0 + C(y_1 + C(y_2 + ...)) (one critical's
        step C applied once per c, not c times for each)."""
        top_c = _trimmed_width(y.any(axis=0)) - 1
        acc = y[:, :, top_c]
        for c in range(top_c - 1, -1, -1):
            acc = self.counted_criticals(acc, 1)
            acc[:, :y.shape[1]] += y[:, :, c]
        return acc

    def counted_criticals(self, x: np.ndarray, count: int) -> np.ndarray:
        """``count`` criticals on x [state, mortal wounds so far]: [state, mortal wounds]."""
        if not count:
            return x
        top = max(self.mortal)
        BU.need(3 * x.shape[0] * (x.shape[1] + count * top), "the devastating wounds")
        y = np.zeros((x.shape[0], x.shape[1] + count * top))
        y[:, :x.shape[1]] = x
        width = x.shape[1]
        for _ in range(count):
            z = np.zeros_like(y)
            for amount, t in self.mortal.items():
                BU.spend((t.shape[0] + 2) * t.shape[0] * width, "the devastating wounds")
                z[:, amount:amount + width] += t @ y[:, :width]
            width += top
            y = z
        return y


def _trimmed_width(a: np.ndarray) -> int:
    nz = np.flatnonzero(a.any(axis=0))
    return int(nz[-1]) + 1 if len(nz) else 1


SMALL_POOL = 40  # attack dice at most of a lone pool with [DEVASTATING WOUNDS] the reference path works out


def _lone(problem: Problem, t: int) -> bool:
    """One pool at target ``t`` (one start state: nothing to share), and either no devastating
    criticals (one pass over the counts of save rolls, the same work on both paths) or at most
    SMALL_POOL attack dice (none an ability adds): the reference path does the same work with
    less around it."""
    pools = [p for p in problem.pools if p.target == t]
    if len(pools) != 1:
        return False
    if Hook.CRITICAL_WOUND_MORTALS not in AB.effects_of(pools[0].first_abilities):
        return True
    most = 0
    for m in pools[0].members:
        if m.adds_dice:
            return False
        most += m.attacks if m.attacks is not None else m.A.n * max(m.A.sides, 1) + m.A.k
    return most <= SMALL_POOL


def _from_joint(final: dict, counters: bool) -> Final:
    """The reference path's joint {(wounds left, unsaved, mortal): chance} as a Final."""
    states: dict = defaultdict(float)
    unsaved, mortal = defaultdict(float), defaultdict(float)
    for (r, u, mw), p in final.items():
        states[r] += p
        unsaved[u] += p
        mortal[mw] += p
    if not counters:
        return Final(dict(states), None, None, 0.0)

    def array(d):
        out = np.zeros(max(d) + 1)
        for k, p in d.items():
            out[k] += p
        return out
    return Final(dict(states), array(unsaved), array(mortal), 0.0)


def solve_target(problem: Problem, t: int, pool_odds: dict, counters: bool = True) -> Final:
    """Target ``t`` after every pool at it, in order (sim.odds.exact.solve_target's answer, its
    counters as two marginals; a lone small pool by that path itself)."""
    if _lone(problem, t):
        return _from_joint(EX.solve_target(problem, t, pool_odds, counters), counters)
    tv = problem.targets[t]
    states: list[tuple] = [tv.start]
    index = {tv.start: 0}
    mass = np.ones(1)
    xu = np.ones((1, 1)) if counters else None  # [state, unsaved attacks]
    xm = np.ones((1, 1)) if counters else None  # [state, mortal wounds]
    pruned = 0.0
    kept: tuple = ({}, {}, EX.target_static(tv), {})  # (losses, models selected, ...) of the whole target: _Ctx
    key_of, members = _groups_for_good(tv)
    at = {mid: i for i, mid in enumerate(tv.ids)}
    reader = ST.Reader(tv, [tuple(at[m] for m in ms) for ms in members.values()])
    read: list = []  # per state (global index): sim.odds.states.Reader.read of it, worked out when first live
    skeys: dict = {}  # kinds alive (bit mask) -> ((keywords, CHARACTER, T), the living models of one such state)
    for pool in problem.pools:
        if pool.target != t:
            continue
        po = pool_odds[pool.index]
        live = np.flatnonzero(mass)
        BU.python_steps(2 * len(live), "the target's states")
        small = live[mass[live] < PRUNE_BELOW]
        if small.size and pruned < PRUNE_TOTAL:
            small = small[np.argsort(mass[small], kind="stable")]
            cum = pruned + np.cumsum(mass[small])
            drop = small[:int(np.searchsorted(cum, PRUNE_TOTAL, side="right"))]
            if drop.size:
                pruned = float(cum[drop.size - 1])
                mass[drop] = 0.0
                if counters:
                    xu[drop] = 0.0
                    xm[drop] = 0.0
                live = np.flatnonzero(mass)
        if len(read) < len(states):
            read.extend([False] * (len(states) - len(read)))
        setups: dict = {}  # (keywords, CHARACTER, T) -> [Setup, chance it is rolled with]
        contexts: dict = {}  # (kinds alive, what the allocation reads) -> (context, its allocation's key)
        chains: dict = {}  # (set-up, allocation) -> [context, set-up, start states]
        carried: list = []
        masses = mass[live].tolist()
        for gi, m in zip(live.tolist(), masses):
            seen = read[gi]
            if seen is False:
                BU.python_steps(reader.cost, "the target's states")
                seen = read[gi] = reader.read(states[gi])
            if seen is None:  # the target is destroyed: these attacks are lost
                po.lost += m
                carried.append(gi)
                continue
            found = contexts.get(seen)
            if found is None:
                r0 = states[gi]
                kinds = skeys.get(seen[0])
                if kinds is None:
                    living = UnitView.living(r0)
                    kinds = skeys[seen[0]] = ((tv.unit_keywords(living), tv.has_character(living),
                                               tv.toughness(living)), living)
                skey = kinds[0]
                entry = setups.get(skey)
                if entry is None:
                    entry = setups[skey] = [EX.Setup(problem, pool, kinds[1]), 0.0]
                BU.python_steps(4 * len(tv.ids), "an allocation context")
                ctx = _Ctx(problem, pool, entry[0], r0, kept, seen[1][0])
                ck = (skey, _lasting(ctx, key_of, members))
                found = contexts[seen] = (chains.setdefault(ck, [ctx, entry[0], []])[0], ck, entry)
            found[2][1] += m
            chains[found[1]][2].append(gi)
        for setup, m in setups.values():
            po.add(setup, m)
        results = []  # (global index of each chain state, chance, [unsaved], [mortal])
        tables: dict = {}  # id(set-up) -> (its wound table without its least likely tails, the chance cut)
        for ctx, setup, starts in chains.values():
            if id(setup) not in tables:
                tables[id(setup)] = _tails(setup.wound_table, min(PRUNE_TAIL, PRUNE_TOTAL - pruned))
            table, cut = tables[id(setup)]
            if cut:
                pruned += cut * float(mass[starts].sum())
            chain = UnionChain(ctx, [states[g] for g in starts], table.shape[0] - 1, table.shape[1] - 1)
            gidx = np.empty(len(chain.states), dtype=np.intp)
            for j, r in enumerate(chain.states):
                g = index.get(r)
                if g is None:
                    g = index[r] = len(states)
                    states.append(r)
                gidx[j] = g
            results.append((gidx,) + _advance(chain, table, starts, mass, xu, xm, counters))
        S = len(states)
        if counters:
            U = max([xu.shape[1]] + [r[2].shape[1] for r in results])
            W = max([xm.shape[1]] + [r[3].shape[1] for r in results])
            nu, nm = np.zeros((S, U)), np.zeros((S, W))
            if carried:
                nu[carried, :xu.shape[1]] += xu[carried]
                nm[carried, :xm.shape[1]] += xm[carried]
            for gidx, _m, u, w in results:
                nu[gidx, :u.shape[1]] += u
                nm[gidx, :w.shape[1]] += w
            xu, xm = nu[:, :_trimmed_width(nu)], nm[:, :_trimmed_width(nm)]
            mass = xu.sum(axis=1)
        else:
            new = np.zeros(S)
            if carried:
                new[carried] += mass[carried]
            for gidx, m, _u, _w in results:
                new[gidx] += m
            mass = new
        outcomes = int(np.count_nonzero(mass))
        BU.python_steps(outcomes * (1 + len(tv.ids) // 16), "the target's outcomes")
        if outcomes > EX.MAX_ENTRIES:
            raise EX.Intractable(f"more than {EX.MAX_ENTRIES:,} outcomes of the target")
    out = {states[i]: float(mass[i]) for i in np.flatnonzero(mass)}
    if not counters:
        return Final(out, None, None, pruned)
    return Final(out, xu.sum(axis=0), xm.sum(axis=0), pruned)


def _tails(table: np.ndarray, allowance: float) -> tuple[np.ndarray, float]:
    """``table`` [save rolls, devastating criticals] without its highest rows and columns whose
    chance is at most ``allowance`` in all (half each way), and the chance cut: 120 dice with
    [SUSTAINED HITS] can make 240 wounds, of which more than about 130 have a chance far below
    1e-15, and the save rolls' work grows with the square of the rows."""
    if allowance <= 0.0:
        return table, 0.0
    rows = np.cumsum(table.sum(axis=1)[::-1])  # rows[k]: the chance of the last k + 1 rows
    keep_rows = table.shape[0] - int(np.searchsorted(rows, allowance / 2, side="right"))
    cols = np.cumsum(table[:keep_rows].sum(axis=0)[::-1])
    keep_cols = table.shape[1] - int(np.searchsorted(cols, allowance / 2, side="right"))
    keep_rows, keep_cols = max(keep_rows, 1), max(keep_cols, 1)
    if keep_rows == table.shape[0] and keep_cols == table.shape[1]:
        return table, 0.0
    cut = table[:keep_rows, :keep_cols]
    return cut, max(0.0, float(table.sum() - cut.sum()))


def _advance(chain: UnionChain, table: np.ndarray, starts: list, mass, xu, xm, counters: bool):
    """One pool's save rolls and devastating criticals from its start states (``starts``, the
    chain's first states): (chance per chain state, [state, unsaved], [state, mortal]) (None for
    what is not counted)."""
    n, ns = len(chain.states), len(starts)
    cols = [mc for mc in range(table.shape[1]) if table[:, mc].any()]
    M = max(len(DI.trim(table[:, mc])) for mc in cols) - 1
    w = np.zeros((M + 1, cols[-1] + 1))
    w[:, cols] = table[:M + 1, cols]  # [save rolls, devastating criticals]
    if not counters:
        x = np.zeros((n, 1))
        x[:ns, 0] = mass[starts]
        Y = chain.per_dice(x, M, False) if len(cols) > 1 else None  # (as with the counters, below)
        if Y is None:
            BU.need(4 * n * len(cols) * (M + 1), f"{M:,} save rolls on {n:,} states")
            v = np.zeros((n, 1, len(cols), M + 1))
            v[:ns, 0] = mass[starts][:, None, None] * table[:M + 1, cols].T[None]
            after = chain.saves(v, False)  # [state, 1, batch]
            y = np.zeros((n, 1, cols[-1] + 1))
            y[:, :, cols] = after
        else:
            y = Y @ w  # [state, 1, criticals]
        return chain.criticals(y)[:, 0], None, None
    u0, w0 = xu[starts], xm[starts]
    uw, ww = _trimmed_width(u0), _trimmed_width(w0)
    xu0 = np.zeros((n, uw + M))
    xu0[:ns, :uw] = u0[:, :uw]
    xm0 = np.zeros((n, ww))
    xm0[:ns] = w0[:, :ww]
    # (per number of rolls when there are devastating criticals to batch; without them one pass
    # over the counts of rolls, Chain.saves's, does half the work)
    Yu = chain.per_dice(xu0, M, True) if len(cols) > 1 else None
    if Yu is not None:
        # (no mortal wounds so far: their table is the chance of each state, Yu's sum)
        Ym = Yu.sum(axis=1, keepdims=True) if ww == 1 else chain.per_dice(xm0, M, False)
        u = chain.criticals(Yu @ w)
        m_by = Ym @ w  # [state, mortal so far, criticals]
        return u.sum(axis=1), u, chain.counted_criticals_each(m_by)
    u_out, m_out = None, None
    for mc in cols:
        col = DI.trim(table[:, mc])
        M = len(col) - 1
        U = uw + M
        BU.need(4 * n * (U + ww) * (M + 1), f"{M:,} save rolls on {n:,} states")
        if len(chain.ctx.runs) <= 2:  # (the pool's input is one table times col: saves_of)
            x = np.zeros((n, U))
            x[:ns, :uw] = u0[:, :uw]
            u = chain.saves_of(x, col, True)
            if ww == 1:  # (no mortal wounds so far: their table is the chance of each state)
                m = u.sum(axis=1, keepdims=True)
            else:
                x = np.zeros((n, ww))
                x[:ns] = w0[:, :ww]
                m = chain.saves_of(x, col, False)
            if mc:
                u = chain.criticals(u[:, :, None], mc)
            got = chain.counted_criticals(m, mc)
            u_out = u if u_out is None else _plus(u_out, u)
            m_out = got if m_out is None else _plus(m_out, got)
            continue
        v = np.zeros((n, U, 1, M + 1))
        v[:ns, :uw, 0] = u0[:, :uw, None] * col
        u = chain.saves(v, True)[:, :, 0]
        if mc:
            u = chain.criticals(u[:, :, None], mc)
        v = np.zeros((n, ww, 1, M + 1))
        v[:ns, :, 0] = w0[:, :ww, None] * col
        got = chain.counted_criticals(chain.saves(v, False)[:, :, 0], mc)
        u_out = u if u_out is None else _plus(u_out, u)
        m_out = got if m_out is None else _plus(m_out, got)
    return u_out.sum(axis=1), u_out, m_out


def _plus(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.shape[1] < b.shape[1]:
        a, b = b, a
    a = a.copy()
    a[:, :b.shape[1]] += b
    return a


def _run_shares(runs) -> list[float]:
    """Each run of failing save faces as the chance a die shows it given it showed none of the
    runs before (a chain of binomials: the count of dice showing run k among those left)."""
    qs, left = [], 1.0
    for _first, _faces, _fails, chance in runs:
        qs.append(min(1.0, chance / left))
        left -= chance
    return qs
