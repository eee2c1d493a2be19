"""06.01 / 13.08 How the visibility index settles fully visible for its pairs (and with it the
cover entries, 13.08): a batch of directed pairs from their capsule inputs (the certificates of
every pair at once, the round pairs' samples, the one-pair kernel for the rest), the pairs only
that kernel settles deferred and kept with their inputs until a model moves, and fully visible
counting only Solid features (13.11.01).

``FullResolution`` is a base class of ``sim.rules.visibility.index_pairs.PairResolution``: it
holds no state of its own, the index's ``__init__`` sets every attribute these methods read and
write. Split from it so that each file keeps one concern: that one line of sight, this one fully
visible.
"""

from __future__ import annotations

import numpy as np

from sim.rules.arrays import count_true, flatnonzero, sorted_unique
from sim.rules.visibility.batch import csr_concat as _csr_concat, csr_subset as _csr_subset
from sim.rules.visibility.full import round_samples
from sim.rules.visibility.hull_full import full_certificates
from sim.rules.visibility.kernels import footprint_fully_visible
from sim.rules.visibility.pairs import capsule_inputs
from sim.rules.visibility.umbra import umbra_blocked


class FullResolution:
    """Fully visible for pairs of models (a base class of the index's PairResolution)."""

    def _ensure_full(self, I, J, defer: list | None = None) -> None:
        """06.01 Resolve fully visible for the directed pairs (I, J) not yet known (each from
        its unordered pair's capsule inputs, as _resolve would), and their cover entries.
        With ``defer`` (a list), the pairs only the one-pair kernel settles are left unknown
        and appended to it instead, for ``_settle_deferred`` (``_full_pairs``); such a pair
        is kept with its inputs while neither model moves (``_deferred``), so a later read
        hands it on (or, without ``defer``, settles it) without finding them again."""
        todo = ~self._fv_known[I, J]
        if not count_true(todo):
            return
        I, J = I[todo], J[todo]
        self._ensure_los(I, J)
        todo = ~self._fv_known[I, J]        # (a pair resolved now may have settled it)
        if not count_true(todo):
            return
        I, J = I[todo], J[todo]
        held = self._deferred_at[I, J]
        if count_true(held):              # (deferred before: its inputs kept)
            items = [(i, j, *self._deferred[i, j]) for i, j in zip(I[held].tolist(), J[held].tolist())]
            if defer is not None:
                defer += items
            else:
                for item in items:
                    self._settle_deferred(item)
            keep = ~held
            if not count_true(keep):
                return
            I, J = I[keep], J[keep]
        lo, hi = np.minimum(I, J), np.maximum(I, J)
        f = np.empty(len(I), dtype=bool)
        kept, rows = self._kept_capsule_rows(lo, hi)
        have = kept >= 0
        # every pair's capsule inputs (those a _resolve found for it, batch by batch, else
        # measured now), then one _full_pairs call for all of them: its stages cost about as
        # much for a few pairs as for many
        parts = []
        for k in (sorted_unique(kept[have]).tolist() if count_true(have) else ()):
            h = flatnonzero(kept == k)
            ps, pi, os_, op = self._capsules[k]
            parts.append((h, (*_csr_subset(ps, pi, rows[h]), *_csr_subset(os_, op, rows[h]))))
        if not have.all():
            h = flatnonzero(~have)
            parts.append((h, capsule_inputs(self, lo[h], hi[h])[:4]))
        if len(parts) == 1:
            order, (pstart, pidx, ostart, opts) = parts[0]
        else:
            order = np.concatenate([h for h, _c in parts])
            pstart, pidx = _csr_concat([c[:2] for _h, c in parts])
            ostart, opts = _csr_concat([c[2:] for _h, c in parts])
        part = [] if defer is not None else None
        f[order] = self._full_pairs(I[order], J[order], pstart, pidx, ostart, opts, part)
        left = [(order[q], *rest) for q, *rest in part] if part else None
        if left:                    # (deferred: still unknown, kept with their inputs)
            keep = np.ones(len(I), dtype=bool)
            keep[[q for q, *_rest in left]] = False
            items = [(int(I[q]), int(J[q]), pieces, verts) for q, pieces, verts in left]
            for i, j, pieces, verts in items:
                # (the vertices copied out of the batch's array: a kept pair keeps only its own)
                self._deferred[i, j] = (pieces, verts.copy())
                self._deferred_at[i, j] = True
            defer += items
            I, J, f = I[keep], J[keep], f[keep]
        self._fv[I, J] = f
        self._fv_known[I, J] = True
        self._cover[I, J] = (self.hideable & self.within_any)[J] | ~f

    def _settle_deferred(self, item) -> bool:
        """06.01 Fully visible for one pair ``_ensure_full`` deferred: (observer, target, its
        pieces, its obstacle vertices), by kernels.footprint_fully_visible as ``_full_pairs``
        would (no model moved since), recorded with its cover entry."""
        i, j, pieces, opts = item
        (ac, ar), (bc, br) = self._core(i), self._core(j)
        f = footprint_fully_visible(ac, ar, bc, br, pieces, opts)
        self._fv[i, j] = f
        self._fv_known[i, j] = True
        self._cover[i, j] = bool(self.hideable[j] and self.within_any[j]) or not f
        return f

    def _forget_deferred(self, rows=None) -> None:
        """Drop the kept deferred pairs (``_ensure_full``) of the models ``rows`` (they
        moved), or every one."""
        if not self._deferred:
            return
        if rows is None:
            self._deferred = {}
            self._deferred_at[:] = False
            return
        gone = set(rows)
        self._deferred = {k: v for k, v in self._deferred.items() if k[0] not in gone and k[1] not in gone}
        self._deferred_at[rows, :] = False
        self._deferred_at[:, rows] = False

    def _ensure_block(self, rows, cols, for_cover: bool = False) -> None:
        """Resolve the unknown fully-visible entries of a block (rows, cols: index arrays or
        slices); for cover only those whose answer depends on it (13.08: a target model
        INFANTRY/BEASTS/SWARM within an area qualifies either way)."""
        n = len(self.fps)
        r = np.arange(n)[rows] if isinstance(rows, slice) else np.atleast_1d(np.asarray(rows, dtype=np.int64))
        c = np.arange(n)[cols] if isinstance(cols, slice) else np.atleast_1d(np.asarray(cols, dtype=np.int64))
        todo = ~self._fv_known[r[:, None], c[None, :]]
        if for_cover:
            todo &= ~(self.hideable & self.within_any)[c][None, :]
        if not count_true(todo):
            return
        ri, ci = todo.nonzero()
        self._ensure_full(r[ri], c[ci])

    def _full_pairs(self, I, J, pstart, pidx, ostart, opts, defer: list | None = None) -> np.ndarray:
        """06.01 Exact fully-visible for directed pairs (observer I, target J), given their
        capsule inputs (every pair with a piece): the certificates of every pair at once
        (hull_full.full_certificates), then the round pairs' samples batched
        (full.round_samples), the others kernels.footprint_fully_visible; with ``defer``
        (a list) that kernel is not run: (pair, its pieces, its obstacle vertices) appended
        instead, the pair's answer left unspecified."""
        self.stats["exact_full"] += len(I)
        out = np.ones(len(I), dtype=bool)
        pk = self.blk.pieces
        rnd = self.round[I] & self.round[J]
        # the certificates for every pair at once (a round pair's: the first stages of
        # fully_visible_round), then the round pairs' samples, the others' kernel
        settled, ans, D, near = full_certificates(self, I, J, pk, pstart, pidx)
        out[settled] = ans[settled]
        round_samples(D, flatnonzero(rnd & ~settled), near, out, pk, pstart, pidx, ostart, opts)
        h = flatnonzero(~rnd & ~settled)
        for q in h.tolist():
            a, b = pstart[q], pstart[q + 1]
            if defer is not None:
                defer.append((q, pk.subset(pidx[a:b]), opts[ostart[q]:ostart[q + 1]]))
                continue
            (ac, ar), (bc, br) = self._core(I[q]), self._core(J[q])
            out[q] = footprint_fully_visible(ac, ar, bc, br, pk.subset(pidx[a:b]),
                                             opts[ostart[q]:ostart[q + 1]])
        return out

    def _full_dense(self, I, J) -> np.ndarray:
        """13.11.01 Fully visible counting only Solid features, directed pairs (I, J)."""
        out = np.zeros(len(I), dtype=bool)
        if len(I) == 0:
            return out
        lo, hi = np.minimum(I, J), np.maximum(I, J)      # capsule inputs of the unordered pair
        out[:] = ~umbra_blocked(self, lo, hi, dense_only=True)
        pstart, pidx, ostart, opts, _ = capsule_inputs(self, lo, hi, True)
        todo = flatnonzero(out & (pstart[1:] > pstart[:-1]))
        if len(todo):
            ps, pi = _csr_subset(pstart, pidx, todo)
            os_, op = _csr_subset(ostart, opts, todo)
            out[todo] = self._full_pairs(I[todo], J[todo], ps, pi, os_, op)
        return out

    def _ensure_dense(self, need: np.ndarray) -> None:
        """13.11.01 Fill full_dense (fully visible counting only Solid features) for the
        (observer, target) entries in ``need`` not yet known. Only asked for pairs where gone
        to ground changes the answer, so this stays small."""
        todo = need & ~self._dense_known
        if not count_true(todo):
            return
        I, J = todo.nonzero()
        self.full_dense[I, J] = self._full_dense(I, J)
        self._dense_known[I, J] = True
