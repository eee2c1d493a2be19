"""Read-only queries on a battle's world, shared by validation, planning, systems, report and
sandbox.

Nothing here changes the world (its few mutations are sim.world.mutations). The queries read
the current battle's world: its esper world and its resources (sim.world.resources), both
entered by Battle._enter. The per-unit answers cached on the spatial index are caches of what
the components say, not state. Iteration follows listed (creation) order, never set order.
"""

from __future__ import annotations

import operator

import esper
import numpy as np

from sim.components import (Base, Destroyed, Keyword, ModelAbilities, ModelId, Position, Roster,
                            Stats, Transport, Unit, UnitMember, UnitState, Weapon, Wounds)
from sim.rules import geometry
from sim.rules import distance_rows as DR
from sim.rules.distance_rows import refine_rows_min
from sim.rules.allocation import Group, TargetModel, allocation_groups
from sim.rules.attack import unit_toughness
from sim.world import resources as R
from sim.world.spatial import SpatialIndex

MONSTER_VEHICLE = frozenset({"MONSTER", "VEHICLE"})
_REMAINING = operator.attrgetter("remaining")  # a Wounds component's value


def alive(ent: int) -> bool:
    return esper.component_for_entity(ent, Wounds).remaining > 0


def on_table(ent: int) -> bool:
    d = esper.try_component(ent, Destroyed)
    return d is None or not d.removed


def unit_models(unit_ent: int, living: bool = True) -> list[int]:
    """The unit's models in listed order (living ones only by default). The living list is
    cached on the spatial index until one of the unit's models is destroyed or a model moves."""
    if not living:
        return list(esper.component_for_entity(unit_ent, Unit).models)
    return list(_living(unit_ent))


def roster(unit_ent: int) -> Roster:
    return esper.component_for_entity(unit_ent, Roster)


def _living(unit_ent: int) -> list[int]:
    """unit_models(unit_ent), the cached list itself (do not mutate)."""
    return living(unit_ent).models


class Living:
    """A unit's living models as parallel lists (listed order): entities, roster positions,
    ids and index rows (numpy, for blocks of the distance and visibility matrices). Cached on
    the spatial index like the living models; never mutate it."""

    __slots__ = ("slots", "_r", "_models", "_ids", "_rows", "_index", "memo")

    def __init__(self, r: Roster, off_table: bool = False):
        n = len(r.wounds)
        if off_table:  # 20.01 in strategic reserves: no model on the battlefield
            self.slots = []
        elif n and min(map(_REMAINING, r.wounds)) > 0:
            self.slots = list(range(n))  # (the usual case: none of them lost)
        else:
            self.slots = [i for i, w in enumerate(r.wounds) if w.remaining > 0]
        self._r = r
        self._models = self._ids = self._rows = self._index = None  # each made on first use
        self.memo: dict = {}  # other answers that depend only on these models (sim.plan)

    @property
    def models(self) -> list[int]:
        if self._models is None:
            models = self._r.models
            self._models = [models[i] for i in self.slots]
        return self._models

    @property
    def ids(self) -> list[str]:
        if self._ids is None:
            ids = self._r.ids
            self._ids = [ids[i] for i in self.slots]
        return self._ids

    @property
    def rows(self) -> np.ndarray:
        if self._rows is None:
            rows = self._r.rows
            self._rows = np.array([rows[i] for i in self.slots], dtype=np.intp)
        return self._rows

    @property
    def index(self) -> slice | np.ndarray:
        """The rows as numpy reads them fastest: a slice when they are one contiguous run (the
        usual case: a unit's models are consecutive rows, and none of them is lost), else
        ``rows``. Index a matrix with ``block``."""
        if self._index is None:
            slots, rows = self.slots, self._r.rows
            if slots and rows[slots[-1]] - rows[slots[0]] == len(slots) - 1:
                self._index = slice(rows[slots[0]], rows[slots[-1]] + 1)
            else:
                self._index = self.rows
        return self._index


def index_size(index: slice | np.ndarray) -> int:
    """How many rows a ``Living.index`` names."""
    return index.stop - index.start if isinstance(index, slice) else len(index)


def index_rows(index: slice | np.ndarray) -> np.ndarray:
    """The rows a ``Living.index`` names, as an array."""
    return np.arange(index.start, index.stop) if isinstance(index, slice) else index


# count_true(block): how many entries of a boolean block are True (numpy's public function: its
# private C entry point saved too little to measure, and private modules move between versions)
count_true = np.count_nonzero


def block(matrix: np.ndarray, rows: slice | np.ndarray, cols: slice | np.ndarray) -> np.ndarray:
    """The block of ``matrix`` at these rows and columns (each a ``Living.index``): a view
    when both are slices, else a copy."""
    if isinstance(rows, slice) or isinstance(cols, slice):
        return matrix[rows, cols]
    return matrix[rows[:, None], cols]


def living(unit_ent: int) -> Living:
    sp = R.current.spatial
    cache = sp.living
    hit = cache.get(unit_ent)
    if hit is None:
        hit = cache[unit_ent] = Living(esper.component_for_entity(unit_ent, Roster),
                                       unit_ent in sp.off_table)
    return hit


def in_reserves(unit_ent: int) -> bool:
    """20.01 The unit is in strategic reserves (not on the battlefield, not embarked, not
    waiting to be deployed)."""
    res = R.current
    return unit_ent in res.spatial.off_table and unit_ent not in res.undeployed and embarked_in(unit_ent) is None


def off_table(unit_ent: int) -> bool:
    """01.02.04 The unit is not on the battlefield: in strategic reserves (20.01), embarked in
    a transport (18.02) or waiting to be deployed (26 step 8)."""
    return unit_ent in R.current.spatial.off_table


def undeployed(unit_ent: int) -> bool:
    """26 step 8 The unit is still to be set up in the deployment (not on the battlefield)."""
    return unit_ent in R.current.undeployed


def every_model_has(unit_ent: int, hook: str) -> bool:
    """An ability "every model has" (24.09, 24.20, 24.31...): each of the unit's models not
    destroyed has an ability with ``hook`` (on the battlefield or not)."""
    models = [m for m in esper.component_for_entity(unit_ent, Unit).models
              if esper.component_for_entity(m, Wounds).remaining > 0]
    conferred = R.current.conferred  # a unit ability a rule confers (V.UNIT_ABILITY)
    if models and conferred is not None and hook in conferred(unit_ent):
        return True
    return bool(models) and all(any(hook in a.spec.hooks for a in model_abilities(m)) for m in models)


def ability_values(model_ent: int, hook: str) -> list:
    """The values of the model's abilities with ``hook`` (Scouts 6" -> [6])."""
    return [a.value for a in model_abilities(model_ent) if hook in a.spec.hooks]


def embarked_in(unit_ent: int) -> int | None:
    """18.02 The transport the unit is embarked in (its unit entity), or None."""
    return esper.component_for_entity(unit_ent, UnitState).embarked_in


def passengers(transport_ent: int) -> list[int]:
    """18.02 The units embarked in the transport, in unit order."""
    return [u for u in _units_in_order() if esper.component_for_entity(u, UnitState).embarked_in == transport_ent]


def capacity(unit_ent: int):
    """18.01 The unit's transport capacity (sim.rules.transport.Capacity), or None."""
    t = esper.try_component(unit_ent, Transport)
    return None if t is None else t.capacity


def alive_models(unit_ent: int) -> list[int]:
    """The unit's models that are not destroyed, on the battlefield or not (an embarked unit's,
    or one in reserves, which ``unit_models`` leaves out: they are not on the battlefield)."""
    return [m for m in esper.component_for_entity(unit_ent, Unit).models
            if esper.component_for_entity(m, Wounds).remaining > 0]


def living_slots(unit_ent: int) -> list[int]:
    """The roster positions of the unit's living models (the cached list: do not mutate)."""
    return living(unit_ent).slots


def unit_destroyed(unit_ent: int) -> bool:
    return not living(unit_ent).slots


def model_id(ent: int) -> str:
    return esper.component_for_entity(ent, ModelId).id


def model_keywords(ent: int) -> frozenset[str]:
    return esper.component_for_entity(ent, Keyword).names


def model_wounds_characteristic(ent: int) -> int:
    """02.02 The model's Wounds characteristic (W), not the wounds it has left."""
    return esper.component_for_entity(ent, Stats).W


def unit_leaderships(unit_ent: int) -> list[int]:
    """01.06 The Leadership of each living model of the unit (a Leadership roll takes the
    best, the lowest), on the battlefield or not (08.03: embarked units test too)."""
    return [esper.component_for_entity(m, Stats).Ld for m in alive_models(unit_ent)]


def unit_keywords(unit_ent: int) -> frozenset[str]:
    """19.03 / 02.05.01: a unit has every keyword of every model in it (an attached unit has its
    leader's keywords). Destroyed models no longer count."""
    cache = R.current.spatial.keywords
    hit = cache.get(unit_ent)
    if hit is None:  # cached like the living models (see unit_models)
        r = esper.component_for_entity(unit_ent, Roster)
        if len(living(unit_ent).slots) == len(r.models):
            return r.keywords
        out: set[str] = set()
        for m in _living(unit_ent):
            out |= model_keywords(m)
        hit = cache[unit_ent] = frozenset(out)
    return hit


def unit_ranged_weapon_effects(unit_ent: int) -> frozenset[str]:
    """What the abilities (24) of the ranged weapons the unit's models carry do (their hooks,
    sim.rules.abilities.Hook), cached like the living models (see unit_models)."""
    cache = R.current.spatial.ranged_abilities
    hit = cache.get(unit_ent)
    if hit is None:
        out: set[str] = set()
        for m in _living(unit_ent):
            for w in weapons_of(m):
                if not w.is_melee:
                    out |= w.effects
        hit = cache[unit_ent] = frozenset(out)
    return hit


def is_monster_or_vehicle(ent: int) -> bool:
    return bool(model_keywords(ent) & MONSTER_VEHICLE)


def unit_is_monster_or_vehicle(unit_ent: int) -> bool:
    """02.05.01 'MONSTER/VEHICLE unit': a unit with either keyword (any model)."""
    if not any(esper.component_for_entity(unit_ent, Roster).monster_or_vehicle):
        return False  # (no model of it is either)
    memo = living(unit_ent).memo  # (depends only on which models live)
    mv = memo.get("monster_or_vehicle")
    if mv is None:
        mv = memo["monster_or_vehicle"] = bool(unit_keywords(unit_ent) & MONSTER_VEHICLE)
    return mv


def every_model_monster_or_vehicle(unit_ent: int) -> bool:
    mv = esper.component_for_entity(unit_ent, Roster).monster_or_vehicle
    slots = living_slots(unit_ent)
    return bool(slots) and all(mv[i] for i in slots)


def footprint(ent: int) -> geometry.Footprint:
    """The model's footprint where it stands, facing as it was last turned (Position.angle, else
    its base's own): geometry.footprint's, without its checks of the shape and sizes (the
    world's bases are checked as it is built, and no rule changes one)."""
    pos = esper.component_for_entity(ent, Position)
    base = esper.component_for_entity(ent, Base)
    angle = base.angle if pos.angle is None else pos.angle
    return geometry.Footprint(base.shape, float(pos.x), float(pos.y), float(base.length), float(base.width),
                              float(angle))


def spatial() -> SpatialIndex:
    """The current battle's SpatialIndex (distances between all models, sim.world.spatial)."""
    return R.current.spatial


def kept_while_still() -> dict:
    """A dict of answers read from where models stand, kept while the spatial index's version
    stands (no model has moved, come or gone since: SpatialIndex.rule_facts); its keys are
    tuples whose first item says whose answer it is."""
    sp = R.current.spatial
    kept = sp.rule_facts
    if kept is None or kept[0] != sp.version:
        kept = sp.rule_facts = (sp.version, {})
    return kept[1]


def model_row(ent: int) -> int:
    """The model's row in the distance and visibility indexes (its ModelId.order)."""
    return esper.component_for_entity(ent, ModelId).order


def model_distance(a: int, b: int) -> float:
    """01.04 Closest distance between two models, base edge to base edge."""
    sp, i, j = spatial(), model_row(a), model_row(b)
    if sp.far[i, j]:
        sp.exact([i], [j])
    return float(sp.dist[i, j])


def nearest_distance(model_ent: int, others: list[int]) -> float:
    """01.04 Distance from a model to the closest of ``others``."""
    return spatial().nearest(model_row(model_ent), [model_row(o) for o in others])


def nearest_distances(model_ents: list[int], others: list[int]) -> list[float]:
    """01.04 For each of ``model_ents``: the distance to the closest of ``others`` (one numpy
    block; the same values nearest_distance gives one model at a time)."""
    if not others:
        return [float("inf")] * len(model_ents)
    return spatial().nearest_rows([model_row(m) for m in model_ents], [model_row(o) for o in others])


def exact_mins(rows, cols, block: np.ndarray) -> list[float]:
    """The minimum of each row of ``block`` (the spatial index's distances at ``rows`` x
    ``cols``, each an index array or a slice), exact: a row above FAR, where a far pair's bound
    may stand, measured (sim.rules.distance_rows.refine_rows_min)."""
    sp = spatial()
    return refine_rows_min(sp.dist, sp.far, sp.fps, index_rows(rows), index_rows(cols),
                           np.array(block, dtype=float)).tolist()


class UnitNearest(dict):
    """unit_nearest's answer: unit entity -> inches. A far pair's entry of the distance matrix
    is a bound above FAR (sim.rules.distance_rows), so a value above FAR read from the matrix
    may be a bound: ``get`` and ``[]`` give the exact distance (measuring the unit's far pairs
    once, when asked), ``bound`` the value as read (exact at or below FAR; above it, at most
    the distance), which is all a comparison with FAR or less needs."""

    __slots__ = ("rows", "exact")

    def __init__(self, values, rows):
        super().__init__(values)
        self.rows = rows            # (the models measured from: a Living.index)
        self.exact: set[int] = set()

    bound = dict.get   # (the value as read: C's dict.get)

    def __getitem__(self, u: int) -> float:
        v = dict.__getitem__(self, u)
        if v > DR.FAR and u not in self.exact:
            # (each row's exact minimum, measuring only the bounds that can be it:
            # distance_rows.refine_rows_min, through the spatial index's nearest_rows)
            v = min(spatial().nearest_rows(index_rows(self.rows), living(u).rows))
            dict.__setitem__(self, u, v)
            self.exact.add(u)
        return v

    def get(self, u: int, default=None):
        return self[u] if u in self else default

    def closest(self, units) -> float | None:
        """The smallest value among ``units`` (None: none has one): the bounds' when that is at
        most FAR (every other value is at least its bound), else measured."""
        get, best = dict.get, None
        for u in units:
            d = get(self, u)
            if d is not None and (best is None or d < best):
                best = d
        if best is None or best <= DR.FAR:
            return best
        # (best first: the units by bound, each measured until the next bound is above the
        # smallest value measured: every unit left is further, its distance at least its bound,
        # up to rounding: FAR_MARGIN)
        best = None
        for d, _k, u in sorted((get(self, u), k, u) for k, u in enumerate(units) if u in self):
            if best is not None and d > best + DR.FAR_MARGIN:
                break
            v = self[u]
            if best is None or v < best:
                best = v
        return best


def unit_nearest(rows: slice | np.ndarray) -> UnitNearest:
    """01.04 For every unit with a model on the battlefield: the distance from the closest of
    the models ``rows`` (a ``Living.index``, not empty) to the closest of its living models
    (unit entity -> inches; the minimum of the distance matrix's block, so exactly the value
    ``block(dist, rows, living(u).index).min()`` gives, a far pair's measured when read:
    UnitNearest). One pass over the models on the battlefield, whatever the number of units
    asked about."""
    sp = spatial()
    perm, starts, ents = _living_layout(sp)
    if not ents:
        return UnitNearest({}, rows)
    nearest = sp.dist[rows].min(axis=0)[perm]
    return UnitNearest(zip(ents, np.minimum.reduceat(nearest, starts).tolist()), rows)


def unit_nearest_kept(unit_ent: int) -> UnitNearest:
    """``unit_nearest`` of the unit's living models ({} when it has none on the battlefield),
    kept with them while the spatial index's version stands (any move, set-up or removal
    bumps it)."""
    lv = living(unit_ent)
    version = R.current.spatial.version
    kept = lv.memo.get("unit nearest")
    if kept is None or kept[0] != version:
        kept = lv.memo["unit nearest"] = (version, unit_nearest(lv.index) if index_size(lv.index)
                                          else UnitNearest({}, lv.index))
    return kept[1]


def unit_nearest_is_kept(unit_ent: int) -> bool:
    """``unit_nearest_kept`` of the unit is kept for the layout now."""
    kept = living(unit_ent).memo.get("unit nearest")
    return kept is not None and kept[0] == R.current.spatial.version


def unit_within(unit_ent: int, target: int, inches: float) -> bool:
    """Whether the unit's closest living model is within ``inches`` of the target's, measured
    alone: the minimum of the same entries of the distance matrix as ``unit_nearest``'s, a far
    pair's bound measured when it cannot tell (and only the pairs whose bounds are within
    ``inches``: the others are further). A question about one unit after a move (e.g. the Fire
    Overwatch offer's) need not read every unit's."""
    mine, theirs = living(unit_ent), living(target)
    if not index_size(mine.index) or not index_size(theirs.index):
        return False
    sp = spatial()
    d = float(block(sp.dist, mine.index, theirs.index).min())
    if d > inches:
        return False
    if d <= DR.FAR:
        return True
    sp.exact(mine.rows, theirs.rows, inches)
    return float(sp.dist[np.ix_(mine.rows, theirs.rows)].min()) <= inches


def units_near(unit_ent: int, units, inches: float) -> list:
    """Those of ``units`` (in order) that may have a living model within ``inches`` of one of
    the unit's: a superset, from each unit's box of model centres and largest bounding radius
    (two models are no nearer, edge to edge, than their units' boxes less both radii), kept per
    layout; every unit left out is farther than ``inches``, measured as the distances are."""
    pos, bound = _unit_bounds()
    k = pos.get(unit_ent)
    if k is None:
        return []
    near = (bound[k] <= inches + 1e-6).tolist()
    return [t for t in units if (j := pos.get(t)) is not None and near[j]]


def may_be_within(a: int, b: int, inches: float) -> bool:
    """01.04 ``units_near`` for one pair: False only when no living model of ``b`` can be within
    ``inches`` of one of ``a``'s (nor any subset of them: a bound on every model's distance)."""
    pos, bound = _unit_bounds()
    i, j = pos.get(a), pos.get(b)
    return i is not None and j is not None and bool(bound[i, j] <= inches + 1e-6)


def _unit_bounds() -> tuple[dict, np.ndarray]:
    """(unit entity -> its row, the (U, U) lower bounds of the distance between two units'
    living models): each unit's box of model centres less both units' largest bounding radii,
    kept while the spatial index's version stands (``units_near``)."""
    sp = spatial()
    hit = sp.unit_boxes
    if hit is None or hit[0] != sp.version:
        perm, starts, ents = _living_layout(sp)
        if ents:   # (every pair of units' bound at once: (U, U))
            c, b = sp.table.centres[perm], sp.table.bounds[perm]
            x0, x1 = np.minimum.reduceat(c[:, 0], starts), np.maximum.reduceat(c[:, 0], starts)
            y0, y1 = np.minimum.reduceat(c[:, 1], starts), np.maximum.reduceat(c[:, 1], starts)
            r = np.maximum.reduceat(b, starts)
            gx = np.maximum(np.maximum(x0[:, None] - x1, x0 - x1[:, None]), 0.0)
            gy = np.maximum(np.maximum(y0[:, None] - y1, y0 - y1[:, None]), 0.0)
            bound = np.hypot(gx, gy) - r[:, None] - r
        else:
            bound = np.zeros((0, 0))
        hit = sp.unit_boxes = (sp.version, ({u: k for k, u in enumerate(ents)}, bound))
    return hit[1]


def _living_layout(sp: SpatialIndex) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Every living model's row grouped by unit (in unit order), where each unit's run starts,
    and the units (those with a living model on the battlefield): kept on the spatial index
    while its presence_version stands (a removal, a set-up or a unit's caches forgotten bumps
    it; a move changes none of this)."""
    hit = sp.living_layout
    if hit is not None and hit[0] == sp.presence_version:
        return hit[1]
    parts, starts, ents, n = [], [], [], 0
    for u in _units_in_order():
        r = living(u).rows
        if len(r):
            parts.append(r)
            starts.append(n)
            ents.append(u)
            n += len(r)
    perm = np.concatenate(parts) if parts else np.zeros(0, dtype=np.intp)
    out = (perm, np.asarray(starts, dtype=np.intp), ents)
    sp.living_layout = (sp.presence_version, out)
    return out


def models_engaged(a: int, b: int) -> bool:
    """03.04 Engagement range: within 2" horizontally (2-D battlefield)."""
    return geometry.in_engagement_range(model_distance(a, b))


def enemy_units(unit_ent: int) -> list[int]:
    """The enemy units with models left, in unit order. Kept per owner while the spatial
    index's list of units with models is the same one (it is made anew after any removal or
    set-up)."""
    owner = esper.component_for_entity(unit_ent, Unit).owner
    sp = spatial()
    units = _units_in_order()
    living = sp.units_with_models(len(units))
    hit = sp.enemies.get(owner)
    if hit is None or hit[0] is not living:
        out = []
        for e in units:
            u = esper.component_for_entity(e, Unit)
            if u.owner != owner and living[u.order]:
                out.append(e)
        hit = sp.enemies[owner] = (living, out)
    return list(hit[1])


def _units_in_order() -> list[int]:
    """Unit entities in unit order (do not mutate). Kept on the spatial index once known: units
    are created only when the world is built, so the list never goes stale."""
    sp = R.current.spatial
    if sp.units is None:
        sp.units = [e for _o, e in sorted((u.order, e) for e, u in esper.get_component(Unit))]
    return sp.units


def all_units() -> list[int]:
    return list(_units_in_order())


def other_models(unit_ent: int) -> list[tuple[str, geometry.Footprint]]:
    """(id, footprint) of every living model on the battlefield of every other unit, in unit
    order: what a set-up of ``unit_ent`` is checked against (03.02: on no other model's base).
    The footprints are the spatial index's, kept current through every move and set-up (the
    ones its distances are measured from)."""
    fps = spatial().fps
    out: list[tuple[str, geometry.Footprint]] = []
    for u in _units_in_order():
        if u != unit_ent:
            lv = living(u)
            out.extend(zip(lv.ids, [fps[r] for r in lv.rows.tolist()]))
    return out


def engaged_with(unit_ent: int) -> list[int]:
    """03.04 The enemy units this unit is engaged with, in unit order (the spatial index keeps
    the contacts between units current through every move and removal)."""
    contacts = spatial().contacts[esper.component_for_entity(unit_ent, Unit).order]
    if not contacts:
        return []
    units = _units_in_order()  # units[o] has order o (build_world numbers them 0, 1, ...)
    return [units[o] for o in sorted(contacts)]


def unit_engaged(unit_ent: int) -> bool:
    """03.04 Is the unit engaged with any enemy unit."""
    return bool(spatial().contacts[esper.component_for_entity(unit_ent, Unit).order])


def target_models(unit_ent: int) -> list[TargetModel]:
    """The unit's models as the allocation rules see them (listed order, living and dead)."""
    return list(allocation_view(unit_ent)[0])


def allocation_view(unit_ent: int) -> tuple[tuple[TargetModel, ...], tuple[Group, ...]]:
    """target_models and their 05.03 allocation groups (shared tuples: do not mutate). A unit
    at full wounds reads the roster's; otherwise they are cached while the remaining wounds
    stay the same."""
    r = esper.component_for_entity(unit_ent, Roster)
    remaining = tuple(map(_REMAINING, r.wounds))
    if remaining == r.full_wounds:
        return r.full, r.full_groups
    cache = R.current.spatial.target_models
    hit = cache.get(unit_ent)
    if hit is not None and hit[0] == remaining:
        return hit[1]
    out = tuple(t if rem == t.remaining else TargetModel(t.id, t.W, rem, t.Sv, t.InSv, t.character)
                for t, rem in zip(r.full, remaining))
    view = (out, allocation_groups(out))
    cache[unit_ent] = (remaining, view)
    return view


def has_character(unit_ent: int) -> bool:
    """Does the unit have a CHARACTER model left (05.03, 24.28)."""
    ch = esper.component_for_entity(unit_ent, Roster).character
    return any(ch[i] for i in living_slots(unit_ent))


def toughness(unit_ent: int) -> int:
    """05.02.01 / 19.02 Mixed T: an attached unit uses the highest T among its bodyguard models
    on the battlefield; otherwise (or once only leaders remain) the highest T of its models."""
    lv = living(unit_ent)
    T = lv.memo.get("T")  # (depends only on which models live)
    if T is None:
        r = esper.component_for_entity(unit_ent, Roster)
        T = lv.memo["T"] = (r.full_T if len(lv.slots) == len(r.models)
                            else unit_toughness(r.T, r.bodyguard, lv.slots))
    return T


def unit_of(model_ent: int) -> int:
    return esper.component_for_entity(model_ent, UnitMember).unit


def unit_state(unit_ent: int) -> UnitState:
    return esper.component_for_entity(unit_ent, UnitState)


def weapons_of(model_ent: int):
    return esper.component_for_entity(model_ent, Weapon).profiles


def model_abilities(model_ent: int) -> tuple:
    return esper.component_for_entity(model_ent, ModelAbilities).abilities


def casualties() -> list[int]:
    """05.04.04 The destroyed models not yet removed from the table, in creation order."""
    pending = R.current.casualties
    return sorted(pending, key=model_row) if pending else []


def wounds_left(ent: int) -> int:
    return esper.component_for_entity(ent, Wounds).remaining


def feel_no_pain(unit_ent: int) -> dict[str, int]:
    """24.12 Feel No Pain X+ per living model id (models without it are absent), on the
    battlefield or not (an embarked unit's hazard rolls, 18.05)."""
    r = esper.component_for_entity(unit_ent, Roster)
    if not any(r.fnp):
        return {}
    return {r.ids[i]: r.fnp[i] for i, w in enumerate(r.wounds) if w.remaining > 0 and r.fnp[i]}
