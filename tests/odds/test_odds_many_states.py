"""Issue 29: many pools at a large target (sim.odds.fast): a state's allocation is read once per
state and its context built once per allocation (not per state: 100 pools at 200 models built
13,000 of them, each a pass over the models); a large chain's save rolls go by the nonzero
entries of its transitions; a pool's hit and wound rolls are kept by their inputs. The answers
stay the reference path's within 1e-12, and the work counted is the same whatever was asked
before."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from odds_support import pool, problem, unit
from sim.odds import budget as BU
from sim.odds import engine as E
from sim.odds import exact as EX
from sim.odds import fast as FA
from sim.odds import states as ST
from test_odds_fast import same


@pytest.fixture(autouse=True)
def fresh():
    E.solve.cache_clear()
    yield
    E.solve.cache_clear()


def horde_problem(pools: int = 4):
    """Pools of 3D6 D1 shots at 40 W2 models in two allocation groups listed interleaved (Sv4+
    and Sv5+, so the groups' listed order turns as their first models die): chains of more than
    SPARSE_FROM states."""
    rows = tuple(row for _ in range(4) for row in ((5, 2, 4, None, False), (5, 2, 5, None, False)))
    return problem([pool(index=i, A="3D6", S=4 + i % 3, AP=-(i % 2)) for i in range(pools)], [unit(models=rows)])


@pytest.mark.parametrize("counters", [False, True])
def test_a_horde_under_many_pools_equals_the_reference_through_the_sparse_products(monkeypatch, counters):
    used = []
    original = ST.Sparse.times
    monkeypatch.setattr(ST.Sparse, "times", lambda self, x: used.append(1) or original(self, x))
    same(horde_problem(), counters)
    assert used  # (the chains were large enough to go by their nonzero entries)


def test_a_context_is_built_per_allocation_not_per_state(monkeypatch):
    """Ten pools at 40 models: hundreds of states, each read once, a few allocations per pool
    (before: a context, a pass over every model, per state live at each pool)."""
    built, read = [], []
    original, reading = FA._Ctx.__init__, ST.Reader.read

    def spy(self, *a, **k):
        built.append(1)
        original(self, *a, **k)
    monkeypatch.setattr(FA._Ctx, "__init__", spy)
    monkeypatch.setattr(ST.Reader, "read", lambda self, r: read.append(r) or reading(self, r))
    odds = E.solve(horde_problem(10), counters=False)
    assert odds.method == "exact"
    assert len(read) == len(set(read)) > 500
    assert len(built) * 8 <= len(read)


def test_the_sparse_product_is_the_dense_one():
    rng = np.random.default_rng(5)
    t = np.where(rng.random((70, 70)) < 0.05, rng.random((70, 70)), 0.0)
    t[3] = 0.0  # (a row with no entry)
    x = rng.random((70, 9))
    assert np.max(np.abs(ST.Sparse(t).times(x) - t @ x)) <= 1e-15


def test_the_kept_rolls_count_their_work_as_if_done():
    """The same attack solved with the kept hit and wound rolls and without: the same answer and
    the same work counted (which engine answers never depends on what was asked before)."""
    pr = problem([pool(index=0, A="2D6", S=5, AP=-1, abilities="SUSTAINED HITS 1"),
                  pool(index=1, A=12, S=4, abilities="DEVASTATING WOUNDS")], [unit(models=((6, 2, 3, None, False),))])
    counts, answers = [], []
    for _ in range(2):
        with BU.counting() as b:
            answers.append(E._exact(pr, True))
        counts.append(b.work)
    assert counts[0] == counts[1]
    EX._KEPT.clear()
    EX._KEPT_BYTES[0] = 0
    with BU.counting() as b:
        cold = E._exact(pr, True)
    assert b.work == counts[0]
    for a in answers:
        assert [t.destroyed.p.tolist() for t in a.targets] == [t.destroyed.p.tolist() for t in cold.targets]
    setup = EX.Setup(pr, pr.pools[0], tuple(range(6)))
    with pytest.raises(ValueError):
        setup.wound_table[0, 0] = 1.0  # (kept arrays are shared: read-only)


def test_the_kept_hits_serve_targets_of_another_toughness():
    """The joint hits are kept by the dice and the hit roll alone: the same weapon at a target of
    another Toughness reads them (the same arrays) and rolls its own wounds, bit for bit those of
    a cold start; another hit roll (another BS) has its own."""
    def setup_at(T, skill=3):
        pr = problem([pool(A="2D6", skill=skill, S=5, AP=-1, abilities="SUSTAINED HITS 1")],
                     [unit(models=((6, 2, 3, None, False),))])
        pr = replace(pr, targets=(replace(pr.targets[0], T=(T,) * 6),))
        return EX.Setup(pr, pr.pools[0], tuple(range(6)))
    EX._KEPT.clear()
    EX._KEPT_BYTES[0] = 0
    t4, t6, bs4 = setup_at(4), setup_at(6), setup_at(4, skill=4)
    assert t6.joint_hits is t4.joint_hits and t6.hits is t4.hits
    assert bs4.joint_hits is not t4.joint_hits and bs4.hits.tolist() != t4.hits.tolist()
    assert t6.wounds.tolist() != t4.wounds.tolist()
    warm = [(s.joint_hits.tolist(), s.hits.tolist(), s.wound_table.tolist(), s.wounds.tolist(), s.criticals.tolist())
            for s in (t4, t6, bs4)]
    cold = []
    for T, skill in ((4, 3), (6, 3), (4, 4)):
        EX._KEPT.clear()
        EX._KEPT_BYTES[0] = 0
        s = setup_at(T, skill)
        cold.append((s.joint_hits.tolist(), s.hits.tolist(), s.wound_table.tolist(), s.wounds.tolist(),
                     s.criticals.tolist()))
    assert warm == cold
