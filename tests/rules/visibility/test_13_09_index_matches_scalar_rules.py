"""13.09 Hidden, 13.09/13.11.01 detection range, 06.01 + 24.24 visible to, 13.08 cover: the
scalar rules in sim.rules.visibility.sight (``is_hidden``, ``detection_range``, ``visible_to``,
``cover_qualifies``) are the definitions; the battle's VisibilityIndex computes the same
answers for every model and pair at once. This checks the index's batch answers against the
scalar rules, pair by pair, on every shipped scenario, as the world is built, and again after
some models moved (some into terrain areas) and some units made ranged attacks.

The rules' geometric inputs come from the scalar geometry too (edge distance, "within" an
area, fully visible counting only Solid features for gone to ground); line of sight and fully
visible come from the index (their own reference tests check them against brute force).
Only enemy pairs are checked: the battle's index resolves no friendly pair (include_friendly)."""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path

import esper
import pytest

from sim.world import mutations as M
from sim.world import queries as W
from sim.battle import Battle
from sim.components import Position, Unit
from sim.rules.geometry import distance
from sim.rules.terrain import model_within_area
from sim.rules.visibility.sight import (HIDEABLE, cover_qualifies, detection_range, is_hidden,
                                  model_fully_visible_dense, visible_to)
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def check(b: Battle, memo: dict | None = None) -> dict:
    """Every answer of the index against the scalar rules; returns how many of each kind of
    case were seen (so the test can insist the cases it means to cover occur). ``memo``: the
    scalar rules' pure answers (keyed by the footprints they read; the terrain is the
    battle's, which never changes) kept from an earlier check of the same battle, so a pair
    neither of whose models moved is not asked again."""
    memo = {} if memo is None else memo
    b._enter()
    vis = b.visibility
    vis.refresh()
    idx = vis.index
    areas = b.scenario.terrain
    ents = [b.models[mid] for mid in idx.ids]
    fps = [W.footprint(e) for e in ents]
    kws = [W.model_keywords(e) for e in ents]
    owner = [esper.component_for_entity(W.unit_of(e), Unit).owner for e in ents]
    shot = []
    for e in ents:
        st = W.unit_state(W.unit_of(e))
        shot.append(st.ranged_attacks_this_turn or st.ranged_attacks_last_turn)
    within = [_memo(memo, ("within", fp), lambda: [model_within_area(fp, a) for a in areas])
              for fp in fps]
    # 13.09 (the index's per-model flags)
    hidden = [is_hidden(kws[j], any(w and a.obscuring for w, a in zip(within[j], areas)), shot[j])
              for j in range(len(ents))]
    assert idx.hidden.tolist() == hidden
    visible, cover, fully = idx.visible, idx.cover, idx.fully_visible
    seen = {"hidden": sum(hidden), "hidden seen": 0, "hidden unseen": 0, "gone to ground": 0,
            "lone operative unseen": 0, "cover": 0, "pairs": 0}
    for i in range(len(ents)):
        for j in range(len(ents)):
            if i == j or owner[i] == owner[j]:
                continue
            seen["pairs"] += 1
            los = bool(idx.los[i, j])
            gone = bool(hidden[j] and los and not _memo(
                memo, ("dense", fps[i], fps[j]), lambda: model_fully_visible_dense(fps[i], fps[j], idx.blk)))
            lo_x = float(idx.lo_x[j])  # (24.24.01, the system's part: None in an attached unit)
            dist = distance(fps[i], fps[j])
            want = visible_to(los, True, dist, hidden[j], detection_range(gone),
                              None if math.isinf(lo_x) else lo_x)
            assert bool(visible[i, j]) == want, (idx.ids[i], idx.ids[j])
            want_cover = cover_qualifies(kws[j], any(within[j]), bool(fully[i, j]))
            assert bool(cover[i, j]) == want_cover, (idx.ids[i], idx.ids[j])
            seen["cover"] += want_cover
            seen["lone operative unseen"] += los and not hidden[j] and dist > lo_x
            if hidden[j] and los:
                seen["hidden seen" if want else "hidden unseen"] += 1
                seen["gone to ground"] += gone
    return seen


def _memo(memo: dict, key, make):
    if key not in memo:
        memo[key] = make()
    return memo[key]


def shake(b: Battle, rng: random.Random) -> None:
    """Move about half the units a few inches, put a hideable model into each terrain area
    that has room on the board, and mark the first unit of each army as having shot."""
    b._enter()
    bw, bh = b.scenario.board
    moved = []

    def put(ent, x, y):
        r = W.footprint(ent).bounding_radius
        M.move_model(ent, min(max(x, r), bw - r), min(max(y, r), bh - r))
        moved.append(ent)

    for u in W.all_units():
        if rng.random() < 0.5:
            dx, dy = rng.uniform(-5, 5), rng.uniform(-5, 5)
            for m in W.unit_models(u):
                p = esper.component_for_entity(m, Position)
                put(m, p.x + dx, p.y + dy)
    hideable = [m for u in W.all_units() for m in W.unit_models(u)
                if HIDEABLE.intersection(W.model_keywords(m)) and m not in moved]
    for area, m in zip(b.scenario.terrain, hideable):
        xs, ys = zip(*area.polygon)
        put(m, sum(xs) / len(xs) + rng.uniform(-1, 1), sum(ys) / len(ys) + rng.uniform(-1, 1))
    b.changes.moved(moved)
    firsts = {}
    for u in W.all_units():
        firsts.setdefault(esper.component_for_entity(u, Unit).owner, u)
    for u in firsts.values():
        W.unit_state(u).ranged_attacks_this_turn = True
    b.changes.shots_changed = True


@functools.cache
def checked(path: Path) -> tuple[tuple[str, int], ...]:
    """check() on the scenario as built and after each of two shakes; the cases seen, summed
    (made once per worker: the test of the scenario and the cases test below share it)."""
    total: dict[str, int] = {}
    memo: dict = {}
    with Battle(load_scenario(path)) as b:
        rng = random.Random(path.stem)
        for k in range(3):
            if k:
                shake(b, rng)
            for key, n in check(b, memo).items():
                total[key] = total.get(key, 0) + n
    return tuple(sorted(total.items()))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_13_09_index_equals_the_scalar_rules_before_and_after_moves(path):
    checked(path)


def test_13_09_the_cases_are_met():
    """Over the shipped scenarios and their shaken layouts, the comparison above meets hidden
    models seen and unseen, gone to ground, a Lone Operative out of sight and cover (so it
    compares something)."""
    total: dict[str, int] = {}
    for path in SCENARIOS:
        for key, n in checked(path):
            total[key] = total.get(key, 0) + n
    assert all(total[k] > 0 for k in ("hidden", "hidden seen", "hidden unseen", "gone to ground",
                                      "lone operative unseen", "cover")), total
