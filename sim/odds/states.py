"""What sim.odds.fast reads of a target's states and how it multiplies its transitions at a
large target (issue 29): a state's allocation read once (Reader), a sparse chain's products by
its nonzero entries (Sparse)."""

from __future__ import annotations

import numpy as np

from sim.odds import budget as BU
from sim.odds.problem import UnitView


class Reader:
    """What a pool's set-up and allocation read of a state of the target, worked out once per state
    (a state stays live over many pools: each pool asked it again before) and small enough that
    the states which allocate alike share one key (a context is built once per key, not per state):

    * the kinds of model alive (a kind is what the unit's keywords, T and CHARACTER, and the
      re-roll of its save rolls read of a model: sets over the living models, 19.03, 05.02.01,
      sim.rules.effects.attack.save_reroll_faces), as a bit mask;
    * the lasting groups with a living model, in the listed order of their first living models
      (each group's key and listed place: 05.03's default order and the declared one) and
      whether one is wounded (the order the rules force);
    * the CHARACTERs' wounds left ([PRECISION]'s default pick).

    None for a destroyed target."""

    def __init__(self, tv: UnitView, groups: list):
        kinds: dict = {}
        sr = tv.save_reroll or ("",) * len(tv.ids)
        self.kind_of = [1 << kinds.setdefault((tv.keywords[i], tv.character[i], tv.T[i], tv.bodyguard[i],
                                                 tv.Sv[i], tv.saves_InSv[i], tv.save_mod[i], sr[i]), len(kinds))
                        for i in range(len(tv.ids))]
        self.groups = [(g, members, tuple(tv.W[i] for i in members)) for g, members in enumerate(groups)]
        self.chars = tuple(i for i, c in enumerate(tv.character) if c)
        self.cost = 1 + len(tv.ids) // 16  # (python steps: one pass over the models' wounds)

    def read(self, r: tuple):
        mask = 0
        for k, x in zip(self.kind_of, r):
            if x > 0:
                mask |= k
        if not mask:
            return None
        alive = []
        for g, members, W in self.groups:
            first, hurt = -1, False
            for i, w in zip(members, W):
                x = r[i]
                if x > 0:
                    if first < 0:
                        first = i
                    if x < w:
                        hurt = True
                        break
            if first >= 0:
                alive.append((first, g, hurt))
        alive.sort()
        return mask, (tuple((g, hurt) for _f, g, hurt in alive), tuple(r[i] for i in self.chars))


SPARSE_FROM = 64  # states of a chain from which its save rolls' products may go by nonzero entries
SPARSE_SHARE = 8  # ...when at most 1/this of each transition's entries are nonzero


class Sparse:
    """A transition matrix by its nonzero entries (numpy only): ``times(x)`` is ``t @ x``, each
    row's entries summed in column order. The entries are kept in slots, the k-th entry of every
    row that has one in slot k, so that each slot is one gather, multiply and scatter with no
    row twice (a chain's rows hold one to a few entries: the states a step can come from)."""

    __slots__ = ("n", "nnz", "slots")

    def __init__(self, t: np.ndarray):
        rows, cols = np.nonzero(t)  # (row-major: by row, then column)
        self.n, self.nnz = t.shape[0], len(rows)
        counts = np.bincount(rows, minlength=self.n)
        rank = np.arange(len(rows)) - (np.cumsum(counts) - counts)[rows]  # each entry's place in its row
        self.slots = []
        for k in range(int(counts.max()) if len(rows) else 0):
            at = rank == k
            r, c = rows[at], cols[at]
            self.slots.append((r, c, t[r, c][:, None]))

    def times(self, x: np.ndarray) -> np.ndarray:
        BU.spend((3 * self.nnz + self.n) * x.shape[1], "the save rolls")
        out = np.zeros((self.n, x.shape[1]))
        for r, c, d in self.slots:
            out[r] += d * x[c]
        return out
