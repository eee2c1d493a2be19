"""01.04 Far pairs (sim.rules.distance_rows: a pair of footprints whose bounding circles are more
than FAR apart keeps that bound in the kept distance matrices until a reader needs the exact
value): whole battles on a wide table are the same, event for event, whether no pair is ever
far (FAR infinite), far pairs stand at the shipped FAR, or nearly every pair is far (FAR 4":
the readers of values above it measure many). Random and tactician players read distances in
every way the rules and the players do: engagement, ranges, auras, nearest targets, orderings."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

import sim.rules.distance_rows as DR
from sim.battle import Battle
from sim.players import play_battle
from sim.world import queries as W

_BENCH = Path(__file__).resolve().parents[1] / "bench" / "_scaled_table.py"


def _scaled_spec(k: int, players):
    spec = importlib.util.spec_from_file_location("_scaled_table", _BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.scaled_spec(k, players)


@contextlib.contextmanager
def _far_at(inches: float):
    """distance_rows.FAR at ``inches`` for the block; below the shipped value, every row with a
    far pair left so (FAR_FEW 0)."""
    was = DR.FAR, DR.FAR_FEW
    DR.FAR = inches
    if inches < was[0]:
        DR.FAR_FEW = 0
    try:
        yield
    finally:
        DR.FAR, DR.FAR_FEW = was


def _hulls_moved(b, dx: float):
    """Every model not on a round base moved ``dx`` inches along x (its rows written: far
    pairs' bounds where FAR allows); the spatial index."""
    from sim.world import mutations as M
    sp = W.spatial()
    for ent in b.models.values():
        fp = sp.fps[W.model_row(ent)]
        if fp.shape != "round":
            M.move_model(ent, fp.x + dx, fp.y)
    return sp


def _battle(spec, seed: int, far_at: float) -> tuple[int, str, int]:
    """The battle's events (count, hash) and how many far entries its readers measured."""
    h, n, measured = hashlib.sha256(), [0], [0]
    refine = DR.refine

    def counting(dist, far, fps, I, J):
        measured[0] += int((far[np.asarray(I, dtype=np.intp), np.asarray(J, dtype=np.intp)] != 0).sum())
        return refine(dist, far, fps, I, J)

    def on(e):
        h.update(json.dumps(e, sort_keys=True, default=str).encode())
        n[0] += 1

    DR.refine = counting    # (refine_block's and refine_rows_min's: the module's name)
    try:
        with _far_at(far_at):
            DR.forget_tables()
            with Battle(spec, seed=seed) as b:
                b.listeners.append(on)
                play_battle(b, spec)
    finally:
        DR.refine = refine
    return n[0], h.hexdigest(), measured[0]


@pytest.mark.parametrize("players, seed", [(("random", "random"), 1), (("random", "random"), 2),
                                           (("tactician", "random"), 1)])
def test_battles_are_the_same_whichever_pairs_are_far(players, seed):
    spec = _scaled_spec(2, players)   # (the default table copied twice: 120" x 44")
    exact = _battle(spec, seed, math.inf)
    shipped = _battle(spec, seed, DR.FAR)
    tight = _battle(spec, seed, 4.0)
    assert exact[2] == 0
    assert tight[2] > 0      # (the readers did measure far pairs)
    assert shipped[:2] == exact[:2] == tight[:2]


def test_queries_measure_a_far_pair_when_read():
    """model_distance and nearest_distance read a far pair exactly."""
    spec = _scaled_spec(2, ("random", "random"))
    with _far_at(4.0):
        with Battle(spec, seed=3) as b:
            b._enter()
            sp = W.spatial()
            mover = next(m for m, r in b.models.items() if sp.fps[W.model_row(r)].shape != "round")
            ent = b.models[mover]
            from sim.world import mutations as M
            fp = sp.fps[W.model_row(ent)]
            M.move_model(ent, fp.x + 0.5, fp.y)
            i = W.model_row(ent)
            js = np.flatnonzero(sp.far[i])
            assert len(js)
            want = DR.distance_matrix([sp.fps[i]], [sp.fps[j] for j in js.tolist()])[0]
            assert (sp.dist[i, js] <= want).all()
            rows = {W.model_row(e): e for e in b.models.values()}
            j = int(js[0])
            assert W.model_distance(ent, rows[j]) == want[0] and not sp.far[i, j]
            assert W.nearest_distance(ent, [rows[int(x)] for x in js[1:3]]) == min(want[1:3])


def _views_after_moves(far_at: float) -> tuple[list, int]:
    """Every model not on a round base moved 1" (its rows written: far pairs' bounds where
    FAR allows), then every TargetView's nearest distances, each (shooter, target) pair of
    units; and how many far entries were still standing before they were read."""
    from sim.plan.shoot_targets import TargetView, shooters_of
    from sim.components import Unit
    import esper
    spec = _scaled_spec(2, ("random", "random"))
    with _far_at(far_at):
        DR.forget_tables()
        with Battle(spec, seed=1) as b:
            b._enter()
            sp = _hulls_moved(b, 1.0)
            standing = int((sp.far != 0).sum())
            out = []
            for shooter in b.units.values():
                owner = esper.component_for_entity(shooter, Unit).owner
                for target in b.units.values():
                    if esper.component_for_entity(target, Unit).owner != owner:
                        out.append(TargetView(b, shooters_of(shooter), target).nearest)
            return out, standing


def test_target_views_read_far_pairs_exactly():
    """04.02's distances from each shooting model to the closest model of a target: the same
    with every pair measured as with nearly every pair far (then measured when read)."""
    exact, none = _views_after_moves(math.inf)
    tight, standing = _views_after_moves(4.0)
    assert none == 0 and standing > 0
    assert tight == exact


def test_unit_within_measures_the_far_pairs_it_compares():
    """queries.unit_within (a unit's distance to another against a distance, measured alone)
    between the bound a far pair holds and its distance: the distance answers."""
    spec = _scaled_spec(2, ("random", "random"))
    found = 0
    with _far_at(4.0):
        with Battle(spec, seed=3) as b:
            b._enter()
            sp = _hulls_moved(b, 0.5)
            units = W.all_units()
            for u in units:
                for t in units:
                    rows, cols = W.living(u).index, W.living(t).index
                    if u == t or not W.index_size(rows) or not W.index_size(cols):
                        continue
                    bound = float(W.block(sp.dist, rows, cols).min())
                    if bound <= DR.FAR or not W.block(sp.far, rows, cols).any():
                        continue
                    fps = sp.fps
                    n = len(fps)
                    r, c = np.arange(n)[rows], np.arange(n)[cols]
                    exact = DR.distance_matrix([fps[i] for i in r], [fps[j] for j in c]).min()
                    if exact - bound < 1e-3:
                        continue
                    mid = 0.5 * (bound + exact)
                    assert not W.unit_within(u, t, mid)
                    assert W.unit_within(u, t, exact + 1e-9)
                    found += 1
    assert found
