"""Edge-to-edge distances between every pair of models, kept up to date incrementally.

01.04 distances and 03.04 engagement are read many times per activation; the matrix is built
once per battle (numpy) and only the rows and columns of models that moved are recomputed:
the engagement neighbours at each move (the pairs within 2" alone), the rows when the matrix is
next read, every model moved since in one call (a Movement phase's moves are read at its end).
Models are indexed in creation order, so each unit's models are one contiguous range."""

from __future__ import annotations

import numpy as np

from sim.rules import geometry
from sim.rules.arrays import count_true, flatnonzero
from sim.rules import distance_rows as DR
from sim.rules.distance_rows import FAR_COL, FAR_ROW, DistanceRows, full_matrix, refine_block, refine_rows_min


_LOWER: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _lower_pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.tril_indices(k, -1)`` (read-only arrays), kept per size: a unit's move asks it for
    its model count at every move, and numpy builds it anew in Python each call."""
    got = _LOWER.get(k)
    if got is None:
        got = np.tril_indices(k, -1)
        for a in got:
            a.flags.writeable = False
        _LOWER[k] = got
    return got


class SpatialIndex:
    def __init__(self, footprints: list, unit_of: list[int], owner_of_unit: list[int]):
        self.fps = list(footprints)
        self.unit_of = np.asarray(unit_of, dtype=np.int64)  # unit index per model
        self._present = [True] * len(self.fps)  # on the battlefield, per model index
        self._unit_of_list = [int(u) for u in unit_of]
        # (the table as distance rows read it: a move's rows against every model without
        # reading every footprint again)
        self.table = DistanceRows(self.fps)
        # ``dist`` (a property: the moved models' rows written first, ``_write_moved``)
        self._dist = full_matrix(self.fps).copy()  # (self.table.rows(self.fps), kept per table)
        np.fill_diagonal(self._dist, np.inf)
        # ``far``: which entries of ``dist`` are far pairs' bounds, not distances
        # (sim.rules.distance_rows: FAR_ROW / FAR_COL, 0 exact): every entry at or below
        # distance_rows.FAR is exact; the readers of a value above it ask for it exactly
        # (``exact``, ``nearest``)
        self._far = np.zeros(self._dist.shape, dtype=np.int8)
        # the models moved since ``dist`` was last read, in the order they moved: (model index,
        # footprint); their rows are measured together when it is next read (``_write_moved``)
        self._moved: list[tuple[int, object]] = []
        # (per model: its row, and so its column, may hold a code: a code is written to (i, j)
        # and (j, i) together, and cleared together)
        self._far_rows = np.zeros(len(self.fps), dtype=bool)
        self._owner_of_unit = list(owner_of_unit)  # owner per unit index
        # owner per model index (numpy: compared with a whole row at once)
        self._owner = np.asarray(self._owner_of_unit, dtype=np.int64)[self.unit_of]
        # 03.04 engagement neighbours, sparse: model index -> the models of enemy units (units
        # are only ever engaged with enemy units) within 2"
        self.near: list[set[int]] = [set() for _ in self.fps]
        enemy = self._owner[:, None] != self._owner[None, :]
        for i, j in zip(*(geometry.in_engagement_range(self._dist) & enemy).nonzero()):
            self.near[int(i)].add(int(j))
        # 03.04 engagement between units, kept current through every move and removal:
        # contacts[u][v] = how many pairs (a model of unit u, a model of enemy unit v) on the
        # battlefield stand within 2" of each other. Unit u is engaged with exactly the keys.
        self.contacts: list[dict[int, int]] = [{} for _ in self._owner_of_unit]
        for i in range(len(self.fps)):
            self._touch(i, [j for j in self.near[i] if j > i], +1)
        self._alive_units = None
        # sim.world.queries.enemy_units: owner -> (the units_with_models array it was read
        # from, the enemy units); an entry stands while that array is the current one
        self.enemies: dict[int, tuple] = {}
        # Per-unit answers sim.world.queries derives from which of a unit's models are on the
        # battlefield (never from where: an answer that reads places keeps the ``version`` it
        # was made at, as queries.unit_nearest's does). A move leaves them; a removal, a set-up
        # and an embarkation forget those of the units they change (forget_unit: sim.world
        # .mutations' mark_destroyed, set_up, embark, leave_transport...).
        self.living: dict[int, list[int]] = {}  # unit entity -> living models
        self.keywords: dict[int, frozenset[str]] = {}  # unit entity -> keywords (19.03)
        self.ranged_abilities: dict[int, frozenset[str]] = {}  # unit entity -> ranged weapon abilities
        # unit entity -> (each model's remaining wounds, queries.target_models' list): reused
        # only while the remaining wounds are the same, so it never needs clearing.
        self.target_models: dict[int, tuple] = {}
        # Unit entities in unit order, filled by sim.world.queries on first use. Never invalidated:
        # units are created only when the battle's world is built.
        self.units: list[int] | None = None
        # 01.02.04 unit entities not on the battlefield: in strategic reserves (20.01) or
        # embarked in a transport (18.02), so their models count for nothing a distance or
        # visibility reads (sim.world.queries.living: none)
        self.off_table: set[int] = set()
        # sim.plan.moves.bodies: the table as the movement rules read it (a BodyIndex), made
        # on first use after each set-up; a move only notes the rows it changed (bodies_moved:
        # model index -> footprint) and a removal the row it took off (bodies_removed), which
        # bodies() applies when next read
        self.bodies = None
        self.bodies_moved: dict[int, object] = {}
        self.bodies_removed: set[int] = set()
        self.row_ids: dict[int, str] | None = None  # model index -> model id (sim.plan.moves)
        # Bumped by every change of who is on the battlefield or where (a move, a set-up, a
        # removal, a unit's caches forgotten): an answer derived from those alone stays good
        # while the version it was made at is the current one (sim.phases.scoring's control)
        self.version = 0
        # Bumped by every change of who is on the battlefield (a set-up, a removal, a unit's
        # caches forgotten: an embarkation, a disembarkation...), not by a move: an answer
        # derived from who is there, not where, stays good while it stands (the players'
        # lists of units, sim.players.options)
        self.presence_version = 0
        # Bumped by every move and set-up (where models stand, or models come onto the
        # battlefield), not by a removal: between two bumps the distances between models are
        # the same and the living models only fewer, so a unit's distance to another can only
        # grow (the random player's Shooting draws keep the targets within reach of each unit
        # that long, as a superset: sim.players.random_player)
        self.layout_version = 0
        # sim.phases.scoring.control_levels: (objectives, (version, battle-shocked units, OC
        # modifiers), levels, ((presence_version, the same two), each model's player, OC and row))
        self.control_levels = None
        # sim.phases.scoring.in_range_rows: (objectives, the footprint each model's row was measured
        # for, by model index (None: not yet), each model's row of "in range of each objective")
        self.in_range_rows = None
        # answers read from where models stand (sim.world.queries.kept_while_still): (version,
        # key -> answer): sim.world.rule_effects' facts of the rules' conditions (("domain",
        # unit entity, Domain) -> the unit's domain facts; ("near", unit entity, player) -> each
        # of the player's units' keywords and distance to it; ("gap", ...) the distance between
        # two units), read by every rule's condition on them (each unit's OC at the end of every
        # phase, each model's Move...); ("reaching", unit entity) -> the grants that reach the unit
        # by where models stand (rule_effects._reach) and ("aura candidates", player) -> the aura
        # sources that can reach that player's units (_aura_candidates): these read the units'
        # rules and the battle's aura sources too, which the scenario fixes (UnitRules is built
        # with the world and never changes); sim.plan.transport's ("tactical", unit, transport):
        # 18.04 whether the unit can be set up round its transport
        self.rule_facts = None
        # sim.players.options.translate: (version, unit entity -> (model id, x, y) of each
        # living model, in order, where it stands)
        self.unit_places = None
        # sim.world.queries._living_layout: (presence_version, (living rows by unit, run starts, units))
        self.living_layout = None
        # sim.world.queries.units_near: (version, (unit -> its place, every pair of units'
        # bound from their boxes of centres and largest bounding radii))
        self.unit_boxes = None
        # sim.phases.upkeep.coherency_removals: unit entity -> (its living rows, their
        # footprints) when it was last found in coherency (footprints are immutable and replaced
        # by every move: the same objects at the same rows are the same layout)
        self.coherent: dict[int, tuple] = {}

    def _touch(self, i: int, others, delta: int) -> None:
        """Count (delta +1) or discount (-1) the contacts between model ``i`` and ``others``
        (models of enemy units; each pair once from each side: ``i``'s unit's and the other
        unit's). Only models on the battlefield count; the caller makes sure no pair is
        counted twice."""
        if not self._present[i] or not others:
            return
        u = self._unit_of_list[i]
        mine = self.contacts[u]
        for j in others:
            if not self._present[j]:
                continue
            v = self._unit_of_list[j]
            theirs = self.contacts[v]
            n = mine.get(v, 0) + delta
            if n:
                mine[v] = theirs[u] = n
            else:
                del mine[v], theirs[u]

    def move(self, index: int, fp) -> None:
        self.move_many([index], [fp])

    @property
    def dist(self) -> np.ndarray:
        """01.04 The edge-to-edge distance between every two models (inf on the diagonal; a
        far pair's entry may be a bound above distance_rows.FAR, marked in ``far``), the rows
        of the models moved since it was last read written first."""
        if self._moved:
            self._write_moved()
        return self._dist

    @property
    def far(self) -> np.ndarray:
        """``dist``'s codes (distance_rows.FAR_ROW / FAR_COL where an entry is a far pair's
        bound, 0 where it is exact), the moved models' written first."""
        if self._moved:
            self._write_moved()
        return self._far

    def move_many(self, indices: list[int], fps: list) -> None:
        """``move`` for several models at once (one unit's move: one player's models, so no
        pair of them is ever an engagement pair): the engagement neighbours updated model by
        model from the moved models' distances, each within 2" of an enemy model measured
        (the bounding circles' distances first, DistanceRows.bounds_of; exact rows, with
        ``rows``'s ``limit``, only when an enemy model's is within 2"), so the result is
        what moving them one at a time gives; their rows of ``dist`` are
        measured when it is next read, with those of every model moved since
        (``_write_moved``: a Movement phase's moves are read after the last of them, measured
        in one call). (Each entry as writing the rows and columns one model after another
        leaves it: tests/world/test_01_04_move_many_plain_form.py holds that plain form and
        compares.)"""
        k_all = len(indices)
        if k_all > 1 and len(set(indices)) < k_all:  # (a model twice: one at a time, in order)
            for index, fp in zip(indices, fps):
                self.move_many([index], [fp])
            return
        table = self.table
        for i, fp in zip(indices, fps):
            self.fps[i] = fp
            table.set(i, fp)
        self._moved.extend(zip(indices, fps))
        # 03.04 the engagement neighbours, model by model: the rows' entries within 2" of an
        # enemy model (those the whole rows would hold, to the bit), the others bounds above it
        # or not read (a model of the same player)
        idx = np.asarray(indices, dtype=np.int64)
        owners = self._owner[idx]
        enemy = self._owner[None, :] != owners[:, None]
        limit = geometry.ENGAGEMENT_RANGE + geometry.EPS
        eng = (table.bounds_of(fps) <= limit + DR.FAR_MARGIN) & enemy
        if count_true(eng):   # (else no enemy model within 2": its bound is at most its distance)
            among = enemy[0] if (owners == owners[0]).all() else None
            rows = table.rows(fps, far=True, limit=limit, among=among)[0]
            rows[np.arange(k_all), idx] = np.inf
            eng = geometry.in_engagement_range(rows) & enemy
        near_of = self.near
        for k, index in enumerate(indices):
            self._touch(index, near_of[index], -1)
            for j in near_of[index]:
                near_of[j].discard(index)
            mine = near_of[index] = set(flatnonzero(eng[k]).tolist())
            for j in mine:
                near_of[j].add(index)
            self._touch(index, mine, +1)
        kept, pending, removed = self.bodies, self.bodies_moved, self.bodies_removed
        self._changed()
        if kept is not None:  # (the same models on the table: only these rows change)
            pending.update(zip(indices, fps))
            self.bodies, self.bodies_moved, self.bodies_removed = kept, pending, removed

    def _write_moved(self) -> None:
        """The rows and columns of ``dist`` (and ``far``'s codes) of the models moved since it
        was last read, measured in one call against the table as it stands, then written model
        by model in the order of their last moves, as writing each model's at its move leaves
        them: an entry between two of them is the later mover's row's, at (later, earlier)
        from its row and at (earlier, later) from its column; an entry against any other model
        is the same either way (neither has moved since). A model moved twice counts at its
        last move (its earlier rows were all overwritten by it). Which far pairs a row leaves
        bounds is counted against the table as it stands when measured (distance_rows.FAR_FEW),
        so it may differ from the count at the move; each entry at or below FAR, and each far
        entry once measured, is the same to the bit either way."""
        last: dict[int, object] = {}
        for index, fp in self._moved:
            last.pop(index, None)   # (moved again: its place in the order is its last move's)
            last[index] = fp
        self._moved = []
        indices, fps = list(last), list(last.values())
        k_all = len(indices)
        idx = np.asarray(indices, dtype=np.int64)
        among = None
        if k_all > 1:   # (an entry against a later mover is its row's: not measured here)
            order = np.full(len(self.fps), -1)
            order[idx] = np.arange(k_all)
            among = order[None, :] <= np.arange(k_all)[:, None]
        # (geometry.distance_matrix(fps, self.fps), to the bit, but the far pairs' bounds and
        # the entries against later movers)
        rows, approx = self.table.rows(fps, far=True, among=among)
        rows[np.arange(k_all), idx] = np.inf
        # each moved model's row and column, as writing them one model after another would
        # leave them: between two moved models p < q the later's (q's) row is what stands, at
        # (q, p) from its row and at (p, q) from its column
        dist = self._dist
        dist[idx, :] = rows
        dist[:, idx] = rows.T
        if k_all > 1:
            p, q = _lower_pairs(k_all)   # (p > q)
            dist[idx[p], idx[q]] = rows[p, idx[q]]
        if approx is None:
            return self._clear_codes(indices)
        approx[range(k_all), indices] = False
        codes = approx.view(np.int8) * FAR_ROW
        col_codes = approx.view(np.int8) * FAR_COL
        coded = approx.any(axis=1).tolist()
        far, far_rows = self._far, self._far_rows
        for k, index in enumerate(indices):  # (the far codes: rare, one model at a time)
            if not coded[k]:
                self._clear_codes([index])
            else:
                far[index, :] = codes[k]
                far[:, index] = col_codes[k]
                far_rows[index] = True
                far_rows[approx[k]] = True

    def _clear_codes(self, indices) -> None:
        """No far code in these models' rows and columns (each measured whole)."""
        far, far_rows = self._far, self._far_rows
        for index in indices:
            if far_rows[index]:
                far[index, :] = 0
                far[:, index] = 0
                far_rows[index] = False

    def place_many(self, indices: list[int], fps: list) -> None:
        """Models set up on the battlefield (20.04 an ingress move): present again, at ``fps``."""
        for i in indices:
            for j in self.near[i]:
                self.near[j].discard(i)
            self.near[i] = set()
            self._present[i] = True
        self._alive_units = None
        self.presence_version += 1
        self.move_many(indices, fps)
        self._forget_bodies()

    def remove(self, index: int) -> None:
        """The model leaves the battlefield (destroyed). The per-unit caches are left to the
        caller (forget_unit): only its own unit's can change (engagement is kept here)."""
        if not self._present[index]:
            return
        self._touch(index, self.near[index], -1)
        self._present[index] = False
        self._alive_units = None
        if self.bodies is not None:  # (the same table less this row: bodies() takes it off)
            self.bodies_removed.add(index)
        self.version += 1
        self.presence_version += 1

    def forget_unit(self, unit_ent: int) -> None:
        # (the unit's models on the table are remove's and place_many's to note: ``bodies``)
        self.living.pop(unit_ent, None)
        self.keywords.pop(unit_ent, None)
        self.ranged_abilities.pop(unit_ent, None)
        self.version += 1
        self.presence_version += 1

    def _forget_bodies(self) -> None:
        self.bodies = None
        self.bodies_moved = {}
        self.bodies_removed = set()

    def _changed(self) -> None:
        self._forget_bodies()  # (a move changes where models are, not which are present)
        self.version += 1
        self.layout_version += 1

    def units_with_models(self, n_units: int) -> np.ndarray:
        """A boolean per unit: it still has a model on the battlefield (not destroyed)."""
        if self._alive_units is None:
            present = np.array(self._present, dtype=bool)
            self._alive_units = np.bincount(self.unit_of[present], minlength=n_units) > 0
        return self._alive_units

    def nearest(self, model_index: int, others: list[int]) -> float:
        """01.04 The distance from model ``model_index`` to the closest of ``others`` (exact:
        far pairs measured when they decide it)."""
        if not others:
            return float("inf")
        d = float(self.dist[model_index, others].min())
        if d > DR.FAR and count_true(self.far[model_index, others]):
            return self.nearest_rows([model_index], others)[0]
        return d

    def nearest_rows(self, model_indices: list[int], others: list[int]) -> list[float]:
        """``nearest`` for several models at once (``others`` not empty)."""
        rows = np.array(model_indices, dtype=np.intp)
        cols = np.asarray(others, dtype=np.intp)
        return refine_rows_min(self.dist, self.far, self.fps, rows, cols,
                               self.dist[rows[:, None], cols]).tolist()

    def exact(self, rows, cols, within: float | None = None) -> None:
        """Measure the far pairs among ``rows`` x ``cols`` (index arrays): ``dist``'s block is
        then every distance, exact (``within``: every distance at or below it; the others stay
        bounds above it: distance_rows.refine_block)."""
        refine_block(self.dist, self.far, self.fps, rows, cols, within)
