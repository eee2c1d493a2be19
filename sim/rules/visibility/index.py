"""06.01 / 13.08-13.11 / 24.24 A model-by-model visibility index (pure Python + numpy).

Holds, for models in a stable order (the order given), numpy bool matrices indexed
``[observer, target]``:

* ``los``: terrain line of sight (dense features + obscuring areas), exact and symmetric;
* ``fully_visible``: the target is fully visible to the observer (06.01);
* ``cover``: 13.08 per-model cover qualification of the target against that observer;
* ``visible``: ``los`` with Hidden (13.09, incl. gone to ground 13.11.01) and Lone Operative
  (24.24) applied for enemy observers; recomputed from cached geometry, so changing who has
  made ranged attacks needs no geometry.

``hidden``, ``visible`` and ``cover`` are the scalar rules of sim.rules.visibility.sight
(``is_hidden``, ``visible_to`` with ``detection_range``, ``cover_qualifies``) computed for
all models at once; a test checks them equal to those rules on every shipped scenario
(tests/rules/visibility/test_13_09_index_matches_scalar_rules.py).

``full_recompute`` resolves line of sight for every pair; ``update`` only marks the pairs of
the moved models unknown, and they are resolved when read (``_ensure_los``: the first read
after a move takes with it every unknown pair within either model's reach, ``set_reach``;
a pair beyond is resolved when a block holding it is read, e.g. ``visible_block``, or the
whole matrix through ``los``/``visible``). Resolving sight settles fully visible wherever
the capsule stage does (a clear capsule: fully visible; no sight: not); the pairs left
(sight, and a piece in the capsule) are resolved when first read (``_ensure_full``: a row,
a block, one entry, or the whole matrix through the ``fully_visible``/``cover``
properties; ``cover_every`` only those that can change whether every target model qualifies,
13.08, its first read after a move with every enemy pair in reach that can: ``_cover_near``).
Every stage works pair by pair with the same inputs and kernels, so a read answers exactly
what an eager pass would, whichever pairs share its batch. The geometry and
the resolution live in the index's base class, sim.rules.visibility.index_pairs.PairResolution
(fully visible in its own base, sim.rules.visibility.index_full.FullResolution). Pairs
are resolved in stages, all pairs at once (sim.rules.visibility.pairs, .umbra): a "definitely blocked"
certificate (the target's bounding circle inside the umbra of one piece's chord lit by the
observer's bounding circle; candidates by angular bins per observer), then for the pairs
left the pieces meeting their capsule; pairs with a blocker in the capsule and a blocked
centre line get the exact test, batched over pairs in rounds of candidate lines
(sim.rules.visibility.batch; bases that are not round after certificates on discs and on
segments between sample points of the two bases, all at once, go to
sim.rules.visibility.kernels one pair at a time). Pairs with sight and a blocker in the capsule
get fully visible both ways from the same capsule inputs, batched for round bases
(sim.rules.visibility.full, certificates first:
sim.rules.visibility.certs; the answer of kernels.footprint_fully_visible), other bases
certificates first, all at once (sim.rules.visibility.hull_full), then that kernel one pair at a
time. ``full_dense`` (13.11.01, only Solid features) is computed
when ``visible`` needs it (a hidden target in the band the 3" penalty changes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from sim.rules.geometry import EPS, Footprint
from sim.rules.terrain import TerrainArea
from sim.rules.visibility.sight import (
    DETECTION_RANGE, HIDEABLE, TerrainBlockers, clamp_range, detection_range,
)
from sim.rules.visibility.index_pairs import _REACH_SLACK, PairResolution
from sim.rules.arrays import count_true, flatnonzero, sorted_unique, tile
from sim.rules.compiled import kernel

__all__ = ["ModelEntry", "VisibilityIndex"]


def cover_rows_known(fv_known: np.ndarray, fv: np.ndarray, hideable: np.ndarray, within_any: np.ndarray,
                     r0: int, r1: int, c0: int, c1: int) -> np.ndarray | None:
    """13.08 ``VisibilityIndex.cover_every`` for the rows r0:r1 and columns c0:c1 (the attacking
    and target models, each a run of consecutive rows: a unit with none of its models lost),
    when every entry of that block of fully visible is resolved (``fv_known``): per row, every
    column qualifies for cover, by area (``hideable`` and ``within_any``: INFANTRY, BEASTS or
    SWARM within a terrain area) or by not being fully visible (``fv``). None when an entry
    is unresolved: cover_every resolves those it needs."""
    kb = fv_known[r0:r1, c0:c1]
    if not kb.all():
        return None
    return ~_denies_cover(kb, fv[r0:r1, c0:c1], (hideable & within_any)[c0:c1]).any(axis=1)


cover_rows_known = kernel("visibility.cover_rows_known", cover_rows_known)


def _denies_cover(known: np.ndarray, fv: np.ndarray, by_area: np.ndarray) -> np.ndarray:
    """13.08 The entries of a block (attacking model, target model) that deny a row its cover:
    known fully visible, the target model not qualifying by area (``by_area``, per column)."""
    hit = known & fv
    hit &= ~by_area
    return hit


def rows_seen_nearest(visible: np.ndarray, dist: np.ndarray, r0: int, r1: int, c0: int,
                      c1: int) -> tuple[np.ndarray, np.ndarray]:
    """06.01 / 01.04 For each row of the block r0:r1 x c0:c1 (the models of a shooting unit and
    of a target unit, each a run of consecutive rows), whether any column is visible
    (``visible``, the index's resolved there) and the least of its distances (``dist``, the
    spatial index's: a far pair's entry is a bound above FAR, sim.rules.distance_rows)."""
    return (np.logical_or.reduce(visible[r0:r1, c0:c1], axis=1),
            np.minimum.reduce(dist[r0:r1, c0:c1], axis=1))


rows_seen_nearest = kernel("visibility.rows_seen_nearest", rows_seen_nearest)

_BUILT: dict = {}      # VisibilityIndex.built: (areas, models) -> a pristine index, oldest first
_BUILT_KEEP = 4  # (a benchmark alternates three tables; a batch of battles plays one)


def _keep_heap() -> None:
    """glibc only: keep freed heap memory instead of returning it to the system at once
    (M_TRIM_THRESHOLD 32 MiB) and serve blocks up to 4 MiB from the heap (M_MMAP_THRESHOLD).
    A recompute allocates and frees a few MiB of numpy temporaries; with the defaults
    (128 KiB) the heap is trimmed several times per call and every page is faulted in again,
    and every temporary over 128 KiB is a fresh mmap. Process-wide, set once at import;
    memory use grows by at most the largest recent working set. No-op elsewhere."""
    try:
        import ctypes
        import ctypes.util
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        if hasattr(libc, "mallopt") and hasattr(libc, "gnu_get_libc_version"):
            libc.mallopt(-1, 32 << 20)      # M_TRIM_THRESHOLD
            libc.mallopt(-3, 4 << 20)       # M_MMAP_THRESHOLD
    except OSError:
        pass


_keep_heap()


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


@dataclass(frozen=True)
class ModelEntry:
    """One model for the index: stable id, footprint, army, unit, keywords and the inputs of
    Hidden (13.09: the unit's ranged attacks this/last turn is set on the index) and Lone
    Operative (24.24: effective X or None, and whether the unit is attached)."""

    id: str
    fp: Footprint
    army: str
    unit: str
    keywords: frozenset = field(default_factory=frozenset)
    lone_operative: float | None = None
    attached: bool = False
    detection_base: float = DETECTION_RANGE


class VisibilityIndex(PairResolution):
    """06.01 Model-by-model visibility, fully-visible and cover matrices with incremental
    updates. ``include_friendly``: also resolve pairs of models of the same army (needed only
    by rules that ask for visible *friendly* units); otherwise same-army entries are False
    except the diagonal."""

    def __init__(self, areas: Iterable[TerrainArea], models: Sequence[ModelEntry],
                 include_friendly: bool = False):
        self.blk = TerrainBlockers.build(areas)
        self.models = list(models)
        self.ids = [m.id for m in self.models]
        self.row = {mid: i for i, mid in enumerate(self.ids)}
        if len(self.row) != len(self.ids):
            raise ValueError("model ids must be unique")
        self.include_friendly = include_friendly
        n = len(self.models)
        armies = sorted({m.army for m in self.models})
        self.army = np.array([armies.index(m.army) for m in self.models], dtype=np.int64)
        self.units = [m.unit for m in self.models]
        cols: dict[str, list[int]] = {}   # (each unit's models' rows, in order: _unit_cols)
        for i, u in enumerate(self.units):
            cols.setdefault(u, []).append(i)
        self._cols_of = {u: tuple(c) for u, c in cols.items()}
        unit_names = {}
        self._unit_code = np.array([unit_names.setdefault(u, len(unit_names)) for u in self.units],
                                   dtype=np.int64)
        # where each unit's run of models starts, when every unit's models are one run (codes
        # are given in order of first appearance, so they then never decrease); else None
        steps = np.diff(self._unit_code)
        self._unit_starts = (flatnonzero(np.concatenate([[True], steps != 0]))
                             if n and (steps >= 0).all() else None)
        self.hideable = np.array([bool(HIDEABLE.intersection(m.keywords)) for m in self.models])
        self.lo_x = np.array([np.inf if (m.lone_operative is None or m.attached)
                              else clamp_range(m.lone_operative) for m in self.models])
        # 13.09 / 13.11.01 each model's detection range, in plain sight and gone to ground: the
        # rule's own answers (detection_range), fixed for the index's life
        self.det_full = np.array([detection_range(False, m.detection_base) for m in self.models],
                                 dtype=float)
        self.det_gone = np.array([detection_range(True, m.detection_base) for m in self.models],
                                 dtype=float)
        self.attacked_units: set[str] = set()
        self.fps = [m.fp for m in self.models]
        self._los = np.zeros((n, n), dtype=bool)
        self._los_known = np.ones((n, n), dtype=bool)    # (entries of _los resolved so far)
        self._fv = np.zeros((n, n), dtype=bool)          # fully visible (06.01)
        self._fv_known = np.ones((n, n), dtype=bool)     # (entries of _fv resolved so far)
        self._cover = np.zeros((n, n), dtype=bool)       # cover qualification (13.08)
        self._cover_ro = _read_only(self._cover)  # (_cover is only updated in place: stays current)
        self._clear = np.zeros((n, n), dtype=bool)       # no blocker in the pair's capsule
        self.full_dense = np.ones((n, n), dtype=bool)
        self.stats = {"pairs": 0, "exact_los": 0, "exact_full": 0}
        self._visible = self._all_pairs = self._hidden = None
        # capsule inputs kept while neither model of the pair moves (PairResolution._keep_capsules):
        # the batches, and per unordered pair (lo, hi) its batch and row there, or -1
        self._capsules: list = []
        self._capsule_at = np.full((n, n), -1, dtype=np.int32)
        self._chords = None     # (each model's chords as an observer: PairResolution.kept_chords)
        # directed pairs whose fully visible only the one-pair kernel settles, left unknown
        # when a batch deferred them (PairResolution._ensure_full's ``defer``), with their
        # pieces and obstacle vertices, kept while neither model moves: (i, j) -> (pieces, vertices)
        self._deferred: dict = {}
        self._deferred_at = np.zeros((n, n), dtype=bool)
        self._attacked = None   # (hidden's: each model's unit in attacked_units)
        # entries of _visible gone stale since it was made (its rows and columns of these
        # models, and these (observer, target) pairs): recomputed when next read (_fresh_visible)
        self._vis_rows: set[int] = set()
        self._vis_pairs: list[tuple[np.ndarray, np.ndarray]] = []
        # each model's reach (set_reach): pairs within it of either model are resolved
        # together on the first read after a move (_ensure_los); the others when read
        self.reach = np.full(n, np.inf)
        self._near_pending = False
        # the models moved since that batch was last made (their rows hold its unknown pairs)
        self._near_rows: set[int] = set()
        # the first cover read after a move takes with it every enemy pair in reach whose
        # fully visible is unknown and can decide cover (_cover_near): one batch
        self._cover_pending = False
        self._all_known = True
        # the rows that may hold unknown entries of _los while not _all_known (the models moved
        # since every entry was last known: an unknown pair has a moved model at one end)
        self._unsure_rows: set[int] = set()
        self._pack_areas()
        self.full_recompute()

    @classmethod
    def built(cls, areas: Sequence[TerrainArea], models: Sequence[ModelEntry]) -> "VisibilityIndex":
        """A new index for these areas and models: a copy of one built before for the same
        inputs (the last few kept), else built now. Battles of one scenario (every seed of a
        ``sim stats`` run) start from the same table, so each after the first skips the full
        recompute. The copy is equal to a fresh build, array for array (tested)."""
        key = (tuple(areas), tuple(models))
        hit = _BUILT.get(key)
        if hit is None:
            hit = cls(areas, models)
            _BUILT[key] = hit
            while len(_BUILT) > _BUILT_KEEP:
                del _BUILT[next(iter(_BUILT))]
        return hit.copy()

    def copy(self) -> "VisibilityIndex":
        """An independent copy: arrays and the containers the index changes copied, the rest
        (terrain blockers, ids, fixed pair lists) shared."""
        new = object.__new__(type(self))
        for k, v in vars(self).items():
            if isinstance(v, np.ndarray):
                v = v.copy()
            elif isinstance(v, (list, dict, set)):
                v = type(v)(v)
            setattr(new, k, v)
        new._cover_ro = _read_only(new._cover)
        new._chords = None  # (kept work: the copy finds its own again)
        new._deferred = {}  # (so too the deferred pairs' inputs: those pairs stay unknown)
        new._deferred_at = np.zeros_like(self._deferred_at)
        # (the copy's moves change the footprints its distance rows' table keeps)
        new._table = None if self._table is None else self._table.copy()
        return new

    # --- public API --------------------------------------------------------------------------

    def full_recompute(self) -> None:
        """06.01 / 13.08 Recompute line of sight, fully visible and cover from scratch."""
        n = len(self.fps)
        self._refresh_geometry()
        self._forget_capsules()
        self._forget_deferred()
        self._los[:] = False
        self._los_known[:] = True
        self._near_pending, self._all_known = False, True
        self._near_rows = set()
        self._unsure_rows = set()
        self._cover_pending = False
        self._fv[:] = False
        self._fv_known[:] = True
        self._clear[:] = False
        self.full_dense[:] = True
        np.fill_diagonal(self._los, True)
        np.fill_diagonal(self._fv, True)
        I, J = self._pairs_for()
        self._resolve(I, J)
        self._dense_known = np.zeros((n, n), dtype=bool)
        np.logical_not(self._fv, out=self._cover)
        self._cover |= (self.hideable & self.within_any)[None, :]
        self._visible = self._hidden = None

    def update(self, moved_ids: Iterable[str], new_footprints: Iterable[Footprint],
               distances: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """06.01 Models moved: recompute only their rows and columns. ``distances``: the
        distance matrix and its far codes (sim.rules.distance_rows) of another index of the
        same models in the same rows, already brought up to date with these moves (a battle's
        spatial index, sim.world.spatial): the moved models' rows and columns are copied from
        it, not measured again, so both hold one distance per pair."""
        rows = []
        for mid, fp in zip(moved_ids, new_footprints):
            i = self.row[mid]
            self.fps[i] = fp
            rows.append(i)
        if not rows:
            return
        self._refresh_geometry(rows, distances)
        self._forget_capsules(rows)
        self._forget_deferred(rows)
        if self._chords is not None:
            self._chords.fresh[rows] = False
        # line of sight (and with it fully visible) resolved when read (_ensure_los): the pairs
        # of each moved model (_pairs_for's: with every enemy model, or every other model when
        # friendly pairs are resolved too), both ways, unknown again
        R = np.asarray(rows, dtype=np.int64)
        if self.include_friendly:
            other = np.arange(len(self.fps))[None, :] != R[:, None]
        else:
            other = self.army[R][:, None] != self.army[None, :]
        for a in (self._los_known, self._fv_known):
            a[R, :] &= ~other
            a[:, R] &= ~other.T
        self._near_pending = self._cover_pending = True
        self._near_rows.update(rows)
        self._unsure_rows.update(rows)
        self._all_known = False
        self._dense_known[rows, :] = False
        self._dense_known[:, rows] = False
        a = self.hideable & self.within_any
        self._cover[rows, :] = a[None, :] | ~self._fv[rows, :]
        self._cover[:, rows] = a[rows][None, :] | ~self._fv[:, rows]
        self._hidden = None
        self._stale_rows(rows)  # (their distances, sight and hidden flags: their rows and columns)

    def set_reach(self, reach: Sequence[float]) -> None:
        """How far each model (index order) may look for a target (its unit's longest ranged
        weapon; inf: no limit): after a move, the pairs of two units within a reach of each
        other are resolved together at the first read. Only which pairs are resolved together
        changes, never an answer."""
        new = np.array(reach, dtype=float)
        if len(new) != len(self.reach) or count_true(new > self.reach):
            # (pairs left out of a batch for being out of reach may be within it now: the
            # next batch looks at every pair, not only the moved models')
            self._near_rows.update(range(len(new)))
        self.reach = new

    def set_lone_operative(self, model_id: str, x: float | None) -> None:
        """24.24 Set a model's effective Lone Operative range (None: the ability does not
        apply, e.g. in an attached unit that is not all Lone Operatives, 24.24.01)."""
        i = self.row[model_id]
        new = np.inf if x is None else clamp_range(x)
        if self.lo_x[i] != new:
            self.lo_x[i] = new
            self._stale_rows([i])

    def set_unit_made_ranged_attacks(self, unit_id: str, made: bool) -> None:
        """13.09 Record whether a unit made ranged attacks this turn or the previous one. The
        cached ``visible`` matrix only goes stale if one of the unit's models could be hidden
        now (hideable and within an obscuring area); moves reset the cache anyway."""
        if (unit_id in self.attacked_units) == made:
            return
        if made:
            self.attacked_units.add(unit_id)
        else:
            self.attacked_units.discard(unit_id)
        self._attacked = None
        rows = self._unit_cols(unit_id)
        if count_true(self.hideable[rows] & self.within_obscuring[rows]):
            self._hidden = None
            self._stale_rows(rows)  # (their hidden flags: their columns)

    @property
    def fully_visible(self) -> np.ndarray:
        """06.01 fully_visible[i, j]: target j is fully visible to observer i."""
        self._ensure_all()
        return self._fv

    def row_fully_visible(self, i: int) -> np.ndarray:
        """06.01 One observer row of ``fully_visible``."""
        self._ensure_block([i], slice(None))
        return self._fv[i]

    def row_cover(self, i: int) -> np.ndarray:
        """13.08 One attacking-model row of ``cover`` (a read-only view, kept current)."""
        self._ensure_block([i], slice(None), for_cover=True)
        return self._cover_ro[i]

    @property
    def hidden(self) -> np.ndarray:
        """13.09 Per-model hidden flags."""
        if self._hidden is None:
            if self._attacked is None:   # (each model's unit made ranged attacks: kept till changed)
                self._attacked = np.array([u in self.attacked_units for u in self.units], dtype=bool)
            self._hidden = self.hideable & self.within_obscuring & ~self._attacked
        return self._hidden

    @property
    def cover(self) -> np.ndarray:
        """13.08 cover[i, j]: target j qualifies for cover against attacking model i: (a)
        INFANTRY/BEASTS/SWARM within a terrain area, or (b) not fully visible to i (a
        read-only view, kept current)."""
        self._ensure_all()
        return self._cover_ro

    def cover_block(self, rows, cols) -> np.ndarray:
        """13.08 The block of ``cover`` at these rows and columns (index arrays or slices: a
        view when both are slices, else a copy), resolved first."""
        self._ensure_block(rows, cols, for_cover=True)
        if isinstance(rows, slice) or isinstance(cols, slice):
            return self._cover_ro[rows, cols]
        return self._cover_ro[np.asarray(rows)[:, None], cols]

    def cover_every(self, rows, cols) -> np.ndarray:
        """13.08 Per row: every column qualifies for cover (``cover_block(rows, cols)`` reduced
        with ``all`` per row; index arrays or slices), resolving only the fully-visible entries
        that can change it. A column qualifying by area (INFANTRY/BEASTS/SWARM within one)
        qualifies either way; a row is settled False by any other column fully visible to it.
        The unknown entries of the rows left open are resolved at once, but for the pairs only
        the one-pair kernel settles (``_ensure_full``'s ``defer``); those then one by one,
        nearest first, each only while its row is open. Each entry is the same pair-by-pair
        answer as a whole block's (the module docstring), so the rows are too."""
        if type(rows) is slice and type(cols) is slice and rows.step is None and cols.step is None:
            # (the usual read: two units with none of their models lost, the block resolved)
            every = cover_rows_known(self._fv_known, self._fv, self.hideable, self.within_any,
                                     rows.start, rows.stop, cols.start, cols.stop)
            if every is not None:
                return every
        a = (self.hideable & self.within_any)[cols]
        if isinstance(rows, slice) or isinstance(cols, slice):
            kb, fb = self._fv_known[rows, cols], self._fv[rows, cols]
        else:
            rows = np.asarray(rows)
            kb, fb = self._fv_known[rows[:, None], cols], self._fv[rows[:, None], cols]
        hit = _denies_cover(kb, fb, a)
        if kb.all():
            return ~hit.any(axis=1)
        todo = ~kb & ~a
        shut = hit.any(axis=1)
        todo &= ~shut[:, None]      # (rows settled False need nothing more)
        if not count_true(todo):
            return ~shut
        n = len(self.fps)
        r = np.arange(n)[rows] if isinstance(rows, slice) else rows
        c = np.arange(n)[cols] if isinstance(cols, slice) else np.asarray(cols)
        ri, ci = todo.nonzero()
        I, J = r[ri], c[ci]
        defer: list = []
        if self._cover_pending:
            I, J = self._cover_near(I, J)
        self._ensure_full(I, J, defer)
        blk = (r[:, None], c[None, :])
        shut = _denies_cover(self._fv_known[blk], self._fv[blk], a).any(axis=1)
        if defer:
            pos = {int(i): k for k, i in enumerate(r.tolist())}
            asked = set(c.tolist())
            d = self.dist
            for item in sorted(defer, key=lambda it: (d[it[0], it[1]], it[0], it[1])):
                k = pos.get(item[0])
                # (a pair the batch took along that this block does not hold stays unknown)
                if k is not None and item[1] in asked and not shut[k] and self._settle_deferred(item):
                    shut[k] = True
        return ~shut

    def resolve_cover(self, I, J) -> None:
        """13.08 Resolve now, in one batch, the fully-visible entries cover reads for the
        directed pairs (observer I[k], target J[k]; index arrays) that are not known yet and
        whose target does not qualify by area (its cover entry is settled without them), with
        the first cover read after a move's pairs in reach (``_cover_near``). A player about
        to weigh many attacks asks for all their pairs at once: read unit block by unit block
        (``cover_every``), the pairs beyond the first read's reach (an observer out of range
        of some of the target's models) make a batch per block, and a batch's stages cost
        about as much for a few pairs as for many. Only which pairs are resolved together
        changes, never an answer (the module docstring). The pairs only the one-pair kernel
        settles are left unknown, as ``cover_every`` leaves them (``_ensure_full``'s
        ``defer``): it settles them one by one, nearest first, only while a row is open, and
        most rows close on another pair first (settled here, a table's vehicles made some of
        the default table's slowest Shooting choices four times as slow)."""
        I, J = np.asarray(I, dtype=np.int64), np.asarray(J, dtype=np.int64)
        if self._cover_pending:
            I, J = self._cover_near(I, J)
        todo = ~self._fv_known[I, J]
        todo &= ~(self.hideable & self.within_any)[J]
        if count_true(todo):
            self._ensure_full(I[todo], J[todo], defer=[])

    def _cover_near(self, I, J) -> tuple[np.ndarray, np.ndarray]:
        """The first cover read after a move (``_cover_pending``): the pairs asked (I, J) and
        with them every pair whose fully visible is unknown and can decide a cover question an
        attack may ask: an enemy target with sight, within the observer's reach (set_reach),
        and not qualifying by area either way (13.08); unique, in ascending order. Their
        answers are each their own pair's (the module docstring): a batch of a few calls
        instead of a few calls per block read. Sight first, for the pairs asked (its own
        first read after a move takes the near pairs along, _ensure_los)."""
        self._cover_pending = False
        self._ensure_los(I, J)
        n = len(self.fps)
        m = ~self._fv_known
        m &= self._los_known
        m &= self._los
        m &= self.army[:, None] != self.army[None, :]
        m &= ~(self.hideable & self.within_any)[None, :]
        m &= self.dist <= self.reach[:, None] + _REACH_SLACK
        ei, ej = m.nonzero()
        key = sorted_unique(np.concatenate([I * n + J, ei * n + ej]))
        return key // n, key % n

    def _ensure_all(self) -> None:
        if not self._fv_known.all():
            I, J = (~self._fv_known).nonzero()
            self._ensure_full(I, J)

    @property
    def los(self) -> np.ndarray:
        """06.01 los[i, j]: terrain line of sight between models i and j (every pair resolved
        first; read-only use)."""
        if not self._all_known:
            # (every unknown pair has a moved model at one end: those rows hold each one)
            rows = np.array(sorted(self._unsure_rows), dtype=np.int64)
            ri, J = (~self._los_known[rows]).nonzero()
            if len(ri):
                self._near_pending = False  # (every unknown pair is asked for: no reach step)
                self._ensure_los(rows[ri], J)
            else:
                self._all_known = True
                self._unsure_rows.clear()
        return self._los

    @property
    def visible(self) -> np.ndarray:
        """06.01 + 13.09 + 24.24 visible[i, j]: target j is visible to observer i."""
        self.los                # (every pair resolved first: the cache then holds every entry)
        return self._fresh_visible()

    def _fresh_visible(self) -> np.ndarray:
        """``_visible`` brought up to date: made whole when there is none, else only its stale
        entries recomputed (each entry is a function of its own pair's and its target's data
        only, so the others stand); every entry whose sight is known (the others are False and
        not read before resolved)."""
        if self._visible is None:
            los = self._los if self._all_known else self._los & self._los_known
            self._visible = self._visible_of(los)
            self._vis_rows, self._vis_pairs = set(), []
            return self._visible
        if not self._vis_rows and not self._vis_pairs:
            return self._visible
        n = len(self.fps)
        parts = list(self._vis_pairs)
        if self._vis_rows:
            d = np.array(sorted(self._vis_rows), dtype=np.int64)
            every = np.arange(n)
            parts.append((d.repeat(n), tile(every, len(d))))     # their rows
            parts.append((tile(every, len(d)), d.repeat(n)))     # their columns
        I = np.concatenate([p[0] for p in parts])
        J = np.concatenate([p[1] for p in parts])
        self._vis_rows, self._vis_pairs = set(), []
        if len(I) * 3 >= n * n:  # (most of it: the whole matrix at once)
            self._visible = None
            return self._fresh_visible()
        self._visible[I, J] = self._visible_entries(I, J)
        return self._visible

    def _stale_rows(self, rows) -> None:
        if self._visible is not None:
            self._vis_rows.update(int(r) for r in rows)

    def _stale_pairs(self, I, J) -> None:
        if self._visible is not None and len(I):
            self._vis_pairs.append((np.asarray(I, dtype=np.int64), np.asarray(J, dtype=np.int64)))

    def _visible_entries(self, I: np.ndarray, J: np.ndarray) -> np.ndarray:
        """``_visible_of``'s entries (I, J) (1-D index arrays): the same arithmetic entry by
        entry, and the same full_dense entries filled (``_ensure_dense`` of the same need)."""
        n = len(self.fps)
        hj = self.hidden[J]
        enemy = self.army[I] != self.army[J]
        los = self._los[I, J] & self._los_known[I, J]
        d = self.dist[I, J]
        need_e = hj & enemy & los & (d > self.det_gone[J] + EPS) & (d <= self.det_full[J] + EPS)
        if count_true(need_e):
            need = np.zeros((n, n), dtype=bool)
            need[I[need_e], J[need_e]] = True
            self._ensure_dense(need)
        gone = hj & ~self.full_dense[I, J]
        in_det = np.where(gone, d <= self.det_gone[J] + EPS, d <= self.det_full[J] + EPS)
        ok = (~hj | in_det) & (d <= self.lo_x[J] + EPS)
        return los & (~enemy | ok)

    def _visible_of(self, los) -> np.ndarray:
        """``visible`` from these ``los`` entries (every entry that is asked for known)."""
        hidden = self.hidden
        enemy = self.army[:, None] != self.army[None, :]
        det_full, det_gone = self.det_full[None, :], self.det_gone[None, :]
        self._ensure_dense(hidden[None, :] & enemy & los
                           & (self.dist > det_gone + EPS) & (self.dist <= det_full + EPS))
        gone = hidden[None, :] & ~self.full_dense    # (n, n) comparisons stay boolean
        in_det = np.where(gone, self.dist <= det_gone + EPS, self.dist <= det_full + EPS)
        ok = (~hidden[None, :] | in_det) & (self.dist <= self.lo_x[None, :] + EPS)
        return los & (~enemy | ok)

    def visible_block(self, rows, cols, need=None) -> np.ndarray:
        """06.01 + 13.09 + 24.24 The block of ``visible`` at these rows and columns (each an
        index array or a slice; a new array), its line of sight resolved first; with ``need``
        (a bool array of the block's shape) only the entries it marks are resolved and
        answered (the others are unspecified)."""
        visible = self.visible_resolved(rows, cols, need)
        if isinstance(rows, slice) or isinstance(cols, slice):
            return visible[rows, cols].copy()
        return visible[np.asarray(rows)[:, None], cols]

    def visible_resolved(self, rows, cols, need=None) -> np.ndarray:
        """The whole ``visible`` matrix (read only: the index's own, until the next change),
        with line of sight resolved in the block at these rows and columns (``need``: only
        the entries it marks), as ``visible_block`` reads it."""
        if not self._all_known:
            if isinstance(rows, slice) or isinstance(cols, slice):
                unknown = ~self._los_known[rows, cols]
            else:
                unknown = ~self._los_known[np.asarray(rows)[:, None], cols]
            if need is not None:
                unknown &= need
            if count_true(unknown):
                n = len(self.fps)
                r = np.arange(n)[rows] if isinstance(rows, slice) else np.asarray(rows, dtype=np.int64)
                c = np.arange(n)[cols] if isinstance(cols, slice) else np.asarray(cols, dtype=np.int64)
                ui, uj = unknown.nonzero()
                self._ensure_los(r[ui], c[uj])
        return self._fresh_visible()

    def is_visible(self, a_id: str, b_id: str) -> bool:
        """06.01 Is model b visible to model a (terrain, hidden, Lone Operative)?"""
        i, j = self.row[a_id], self.row[b_id]
        return bool(self.visible_block([i], [j])[0, 0])

    def is_fully_visible(self, a_id: str, b_id: str) -> bool:
        """06.01 Is model b fully visible to model a?"""
        i, j = self.row[a_id], self.row[b_id]
        self._ensure_block([i], [j])
        return bool(self._fv[i, j])

    def has_cover(self, a_id: str, b_id: str) -> bool:
        """13.08 Does target model b qualify for cover against attacking model a?"""
        i, j = self.row[a_id], self.row[b_id]
        self._ensure_block([i], [j], for_cover=True)
        return bool(self._cover[i, j])

    def _unit_cols(self, unit_id: str) -> list[int]:
        """The rows of the unit's models, in order (a new list)."""
        return list(self._cols_of.get(unit_id, ()))

    def unit_visible(self, a_id: str, unit_id: str) -> bool:
        """06.01 Unit visible: at least one of its models is visible to model a."""
        cols = self._unit_cols(unit_id)
        return bool(count_true(self.visible_block([self.row[a_id]], cols))) if cols else False

    def unit_fully_visible(self, a_id: str, unit_id: str) -> bool:
        """06.01 Unit fully visible: every model of the unit is fully visible to model a."""
        cols = self._unit_cols(unit_id)
        r = self.row[a_id]
        if cols:
            self._ensure_block([r], cols)
        return bool(cols) and bool((self.visible_block([r], cols)[0] & self._fv[r, cols]).all())

    def unit_cover_flags(self, a_id: str, unit_id: str) -> list[bool]:
        """13.08 Per-model cover qualification of a unit's models against attacking model a."""
        r, cols = self.row[a_id], self._unit_cols(unit_id)
        self._ensure_block([r], cols, for_cover=True)
        return self._cover[r, cols].tolist()
