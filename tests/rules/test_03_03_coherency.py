"""03.03 Unit coherency (2" link, 9" span, [FAQ] one contiguous group) and Part A ruling 29's
coherency removals."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from sim.rules.coherency import (
    coherency_problems, coherency_removals, is_coherent, link_groups,
)
from sim.rules.geometry import footprint, round_base

D32 = 32 / 25.4          # a 32 mm base is 1.2598" across


def line(xs, mm=32, y=10.0, prefix="u"):
    return [(f"{prefix}/{k + 1}", round_base(mm, x, y)) for k, x in enumerate(xs)]


def test_03_03_a_single_model_is_always_coherent():
    assert coherency_problems(line([5.0])) == []
    assert coherency_removals(line([5.0])) == []


def test_03_03_exactly_2_inches_apart_is_coherent():
    assert coherency_problems(line([10.0, 10.0 + D32 + 2.0])) == []
    assert coherency_problems(line([10.0, 10.0 + D32 + 2.0 - 1e-6])) == []


def test_03_03_just_over_2_inches_apart_breaks_coherency():
    for gap in (2.0 + 1e-6, 2.01):
        probs = coherency_problems(line([10.0, 10.0 + D32 + gap]))
        links = [p for p in probs if "within 2\"" in p.message]
        assert [p.model for p in links] == ["u/1", "u/2"]
        assert all(p.rule == "03.03" and abs(p.distance - gap) < 1e-9 for p in links)
        assert "u/1: " in str(links[0]) and "(03.03)" in str(links[0])
        assert "2.01" in str(links[0]) or gap < 2.01


def test_03_03_two_coherent_groups_are_not_one_contiguous_unit():
    # two pairs, each linked within 2", the pairs 2.24" apart: every model has a 2" neighbour
    # and every pair is within 9", but the unit is two groups ([FAQ])
    models = line([0.0, 1.5, 5.0, 6.5])
    probs = coherency_problems(models)
    assert len(probs) == 1
    (p,) = probs
    assert p.rule == "03.03" and "contiguous" in p.message
    assert p.model == "u/3" and abs(p.distance - (3.5 - D32)) < 1e-9
    assert not is_coherent(models)
    # closing the gap to 2" joins them
    assert coherency_problems(line([0.0, 1.5, 1.5 + D32 + 2.0, 3.0 + D32 + 2.0])) == []


def test_03_03_seven_models_must_each_be_within_9_inches_of_every_other():
    chain = line([3.0 * k for k in range(7)])       # 1.74" links: every model has a neighbour
    probs = coherency_problems(chain)
    assert probs and all("9\"" in p.message for p in probs)
    worst = [p for p in probs if p.model == "u/1"]
    assert worst and abs(worst[0].distance - (18.0 - D32)) < 1e-9 and "u/7" in worst[0].message
    # the same seven in two ranks are fine
    ranks = [(f"u/{k + 1}", round_base(32, 1.5 * (k % 4), 1.5 * (k // 4))) for k in range(7)]
    assert coherency_problems(ranks) == []


def test_03_03_9_inch_span_at_the_limit():
    d = 9.0 - 1e-7
    # three models: links of ~4.5" would break the 2" rule, so use a chain of 2" links
    xs = [0.0]
    while xs[-1] + D32 + 2.0 < d + D32:
        xs.append(xs[-1] + D32 + 2.0)
    xs[-1] = d + D32                      # last one exactly 9" (minus a hair) from the first
    assert not [p for p in coherency_problems(line(xs)) if "9\"" in p.message]
    xs[-1] = 9.0 + 1e-6 + D32
    assert [p for p in coherency_problems(line(xs)) if "9\"" in p.message]


def test_03_03_hull_bases_measure_edge_to_edge():
    tank = footprint("rect", 10.0, 10.0, 5.0, 3.0)
    crew = round_base(32, 10.0 + 2.5 + 2.0 + D32 / 2, 10.0)   # exactly 2" off the rect's side
    assert coherency_problems([("t/1", tank), ("t/2", crew)]) == []
    crew = round_base(32, 10.0 + 2.5 + 2.01 + D32 / 2, 10.0)
    assert coherency_problems([("t/1", tank), ("t/2", crew)])


def test_03_03_problems_come_in_model_order_whatever_the_input_order():
    models = line([0.0, 1.5, 5.0, 6.5, 30.0])
    shuffled = models[::-1]
    assert coherency_problems(models) == coherency_problems(shuffled)
    ms = [p.model for p in coherency_problems(models)]
    assert ms == sorted(ms)


def test_29_removal_takes_the_model_farthest_from_the_largest_group_first():
    core = line([0.0, 1.5, 3.0, 4.5])              # u/1..u/4, one group
    near = ("u/5", round_base(32, 4.5 + D32 + 3.0, 10.0))    # 3" off the group
    far = ("u/6", round_base(32, 0.0, 10.0 + D32 + 6.0))     # 6" off the group
    assert coherency_removals(core + [near, far]) == ["u/6", "u/5"]


def test_29_removal_ties_go_to_the_lowest_id():
    # two lone models equally far from the main group
    core = line([10.0, 11.5, 13.0])
    a = ("u/8", round_base(32, 13.0 + D32 + 3.0, 10.0))
    b = ("u/7", round_base(32, 10.0 - D32 - 3.0, 10.0))
    assert coherency_removals(core + [a, b]) == ["u/7", "u/8"]


def test_29_removal_of_a_two_model_split_keeps_the_lowest_id():
    assert coherency_removals(line([0.0, 10.0])) == ["u/2"]


def test_29_a_single_group_too_long_loses_its_ends_lowest_id_first():
    chain = line([3.0 * k for k in range(7)])
    assert coherency_removals(chain) == ["u/1", "u/2", "u/3"]
    assert coherency_problems(chain[3:]) == []


def test_29_a_coherent_unit_loses_nothing():
    assert coherency_removals(line([0.0, 1.5, 3.0])) == []


def test_29_a_unit_surely_coherent_by_its_bounds_is_not_measured(monkeypatch):
    """coherency_screen's "surely coherent" (bounds alone, clear of rounding) loses nothing
    without a distance matrix; a unit the bounds cannot settle, or surely out of coherency, is
    measured (its removals are the same either way: the property tests below)."""
    from sim.rules import coherency as COH
    measured = []
    real = COH.distance_matrix
    monkeypatch.setattr(COH, "distance_matrix", lambda a, b: measured.append(len(a)) or real(a, b))
    assert coherency_removals(line([0.0, 1.5, 3.0, 4.5], y=11.0)) == []
    assert measured == []
    assert coherency_removals(line([0.0, 1.5, 3.0 + D32 + 2.0 + 0.5], y=12.0)) == ["u/3"]
    assert measured == [3]
    assert coherency_removals(line([0.0, D32 + 2.0], y=13.0)) == []    # (exactly 2": measured)
    assert measured == [3, 2]


def test_29_removals_are_kept_per_layout_and_follow_every_change_of_it():
    # the answers are kept for the inputs themselves: a move, another id or a lost model is
    # another layout, measured again; the same layout gives the same answer
    unit = line([0.0, 1.5, 3.0])
    assert coherency_removals(unit) == []
    moved = unit[:2] + [(unit[2][0], unit[2][1].moved(unit[2][1].x + 5.0, 10.0))]
    assert coherency_removals(moved) == ["u/3"]
    renamed = unit[:2] + [("u/0", moved[2][1])]
    assert coherency_removals(renamed) == ["u/0"]
    assert coherency_removals(moved[:1] + moved[2:]) == ["u/3"]
    assert coherency_removals(unit) == []
    answer = coherency_removals(moved)
    answer.append("u/1")  # (each caller gets its own list)
    assert coherency_removals(moved) == ["u/3"]


def test_03_03_link_groups_order_largest_first_then_lowest_row():
    import numpy as np
    d = np.array([[0, 5, 5, 5], [5, 0, 1, 5], [5, 1, 0, 5], [5, 5, 5, 0]], dtype=float)
    assert link_groups(d) == [[1, 2], [0], [3]]


def _groups_by_search(dist, alive):
    """03.03 [FAQ] the link groups found model by model (a depth-first search from each model
    not yet reached, in row order): what link_groups must answer."""
    rows = sorted(alive)
    seen, groups = set(), []
    for s in rows:
        if s in seen:
            continue
        seen.add(s)
        stack, group = [s], []
        while stack:
            i = stack.pop()
            group.append(i)
            for j in rows:
                if j not in seen and dist[i][j] <= 2.0 + 1e-9:
                    seen.add(j)
                    stack.append(j)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 20), st.floats(0, 8)), min_size=1, max_size=22),
       st.randoms(use_true_random=False))
def test_03_03_link_groups_are_those_a_search_finds(pts, rnd):
    from sim.rules.geometry import distance_matrix
    fps = [round_base(32, x, y) for x, y in pts]
    d = distance_matrix(fps, fps)
    everyone = list(range(len(fps)))
    assert link_groups(d) == _groups_by_search(d, everyone)
    some = rnd.sample(everyone, rnd.randint(0, len(everyone)))
    assert link_groups(d, some) == _groups_by_search(d, some)


positions = st.lists(st.tuples(st.floats(0, 14), st.floats(0, 14)), min_size=1, max_size=9)


@settings(max_examples=60, deadline=None)
@given(positions, st.randoms(use_true_random=False))
def test_29_removals_always_leave_a_coherent_unit(pts, rnd):
    models = [(f"m/{k}", round_base(25, x, y)) for k, (x, y) in enumerate(pts)]
    removed = coherency_removals(models)
    left = [m for m in models if m[0] not in removed]
    assert left and is_coherent(left)
    assert (removed == []) == is_coherent(models)
    assert len(set(removed)) == len(removed)
    shuffled = list(models)
    rnd.shuffle(shuffled)
    assert coherency_removals(shuffled) == removed


@settings(max_examples=40, deadline=None)
@given(positions)
def test_03_03_coherent_iff_each_rule_holds(pts):
    from sim.rules.geometry import distance
    models = [(f"m/{k}", round_base(25, x, y)) for k, (x, y) in enumerate(pts)]
    fps = [f for _, f in models]
    n = len(fps)
    if n == 1:
        assert is_coherent(models)
        return
    d = [[distance(a, b) for b in fps] for a in fps]
    link = all(min(d[i][j] for j in range(n) if j != i) <= 2 + 1e-9 for i in range(n))
    span = all(d[i][j] <= 9 + 1e-9 for i in range(n) for j in range(n))
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in range(n):
            if j not in seen and d[i][j] <= 2 + 1e-9:
                seen.add(j)
                todo.append(j)
    assert is_coherent(models) == (link and span and len(seen) == n)


def test_03_03_ids_sort_as_strings_deterministically():
    models = line([0.0, 1.5, 20.0])
    random.Random(3).shuffle(models)
    assert coherency_removals(models) == ["u/3"]
