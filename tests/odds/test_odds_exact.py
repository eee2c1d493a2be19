"""The exact odds engine (sim/odds) against values worked out by hand, against brute force over
every die face through the engine's own 05.04 function, and its invariants (hypothesis)."""

from __future__ import annotations

import importlib.util
import itertools
from collections import Counter
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds_support import pool, problem, unit
from sim.odds import exact as EX
from sim.odds.engine import solve
from sim.odds.montecarlo import simulate
from sim.rules.allocation import allocation_groups, default_order
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.sequence import DamageState, PoolState, inflict_damage

BIG = 10**9


def _load_expected():
    """tests/systems/test_24_stats_expected_damage.py's ``exact``: the issue's values, worked out
    there with fractions independently of the engine (one home for them)."""
    path = Path(__file__).resolve().parents[1] / "systems" / "test_24_stats_expected_damage.py"
    spec = importlib.util.spec_from_file_location("expected_damage", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.exact


expected = _load_expected()
BIG_MODEL = ((1, BIG, 3, None, False),)


@pytest.mark.parametrize("abilities, flags, value", [
    ("", {}, 5.556),
    ("[LETHAL HITS]", {"lethal": True}, 6.111),
    ("[SUSTAINED HITS 1]", {"sustained": 1}, 6.667),
    ("[LETHAL HITS, SUSTAINED HITS 1]", {"lethal": True, "sustained": 1}, 7.222),
    ("[TWIN-LINKED]", {"twin": True}, 7.407),
])
def test_sustained_lethal_twin_linked_expected_damage(abilities, flags, value):
    """A5 WS2+ S6 AP-2 D3 at T4 Sv3+ (one model with wounds to spare, so damage is never capped)."""
    o = solve(problem([pool(A=5, skill=2, S=6, AP=-2, D=3, abilities=abilities)], [unit(models=BIG_MODEL)]))
    assert o.method == "exact"
    want = expected(5, 2, 6, 4, -2, 3, 3, **flags)
    assert o.targets[0].damage.mean == pytest.approx(float(want), abs=1e-12)
    assert round(o.targets[0].damage.mean, 3) == value


def test_anti_infantry_devastating_wounds_2_5():
    """[ANTI-INFANTRY 4+, DEVASTATING WOUNDS] A10 BS4+ S4 AP0 D1 at T4 Sv3+ W1 models: 2.5."""
    o = solve(problem([pool(A=10, skill=4, S=4, AP=0, D=1, abilities="[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]")],
                      [unit(models=((20, 1, 3, None, False),))]))
    t = o.targets[0]
    assert expected(10, 4, 4, 4, 0, 3, 1, anti=4, devastating=True) == F(5, 2)
    assert t.damage.mean == pytest.approx(2.5, abs=1e-12)
    assert t.destroyed.mean == pytest.approx(2.5, abs=1e-12)
    assert t.mortal.mean == pytest.approx(10 * F(1, 2) * F(1, 2), abs=1e-12)  # hits 1/2, criticals 1/2 of rolls


@pytest.mark.parametrize("half, value", [(True, 1.0185), (False, 0.6481)])
def test_melta_random_damage(half, value):
    """A1 BS3+ S9 AP-4 D6 [MELTA 2] at a T11 Sv2+ model: within half range D6+2."""
    o = solve(problem([pool(A=1, skill=3, S=9, AP=-4, D="D6+2" if half else "D6")],
                      [unit(models=((1, BIG, 2, None, False, 11),))]))
    assert round(o.targets[0].damage.mean, 4) == value
    assert o.targets[0].damage.mean == pytest.approx(float(expected(1, 3, 9, 11, -4, 2, F(7, 2),
                                                                     melta=2 if half else 0)), abs=1e-12)


def test_damage_does_not_carry_over_and_wipe_chance():
    """05.04: D3 at W2 models: each unsaved attack destroys one model (1 wasted). Torrent S8 vs
    T4 (2+ to wound), no save (Sv7), 4 attacks at 3 models: every model dies unless 3+ wounds
    fail: P(wipe) = P(at least 3 of 4 wound) with p = 5/6."""
    o = solve(problem([pool(A=4, skill=3, S=8, AP=0, D=3, abilities="[TORRENT]")],
                      [unit(models=((3, 2, 7, None, False),))]))
    t = o.targets[0]
    p = F(5, 6)
    wipe = 4 * p**3 * (1 - p) + p**4
    assert t.wiped == pytest.approx(float(wipe), abs=1e-12)
    assert t.damage.mean == pytest.approx(2 * t.destroyed.mean, abs=1e-12)  # 2 wounds lost per model


def test_feel_no_pain_on_each_wound():
    """24.12: one auto-hitting, auto-wounding D3 attack (S8 vs T4 fails only on a 1) at a W10
    Sv7 model with Feel No Pain 5+: wounds lost = Binomial(3, 2/3) when it wounds."""
    o = solve(problem([pool(A=1, skill=3, S=8, AP=0, D=3, abilities="[TORRENT]")],
                      [unit(models=((1, 10, 7, None, False),), fnp=5)]))
    p_w = 5 / 6
    b = [1 / 27, 6 / 27, 12 / 27, 8 / 27]
    want = [1 - p_w + p_w * b[0]] + [p_w * x for x in b[1:]]
    assert np.allclose(o.targets[0].damage.p, want, atol=1e-12)


def _brute_force_saves(models, order, wounds, AP, D):
    """05.04 over every face of ``wounds`` save rolls, through the engine's inflict_damage:
    the distribution of wounds left per model (a Counter of tuples, out of 6**wounds)."""
    out = Counter()
    ids = [m.id for m in models]
    groups = allocation_groups(models)
    for faces in itertools.product(range(1, 7), repeat=wounds):
        p = PoolState(0, 3, 4, AP, DiceExpr(0, 0, D), 4)
        p.wounds = wounds
        st = DamageState(models, {m.id: m.remaining for m in models}, groups, order)
        inflict_damage(p, sorted(faces), st, ForcedDice([]), {m.id: m.Sv for m in models},
                       {m.id: m.InSv for m in models})
        out[tuple(st.remaining[i] for i in ids)] += 1
    return out


@pytest.mark.parametrize("wounds", [3, 4])
def test_saves_lowest_first_with_mixed_saves_match_brute_force(wounds):
    """05.04 takes a pool's save rolls lowest first: with a 2+ save group allocated before a 5+
    save group the low rolls go to the first group. The chain (runs of faces, binomial split)
    gives exactly the distribution of the engine's own inflict_damage over every face."""
    tv = unit(models=((2, 1, 2, None, False), (2, 1, 5, None, False)))
    pr = problem([pool(A=wounds, skill=3, S=8, AP=0, D=1, abilities="[TORRENT]")], [tv])
    setup = EX.Setup(pr, pr.pools[0], tv.living(tv.start))
    ctx = EX.Context(pr, pr.pools[0], setup, tv.start)
    chain = EX.Chain(ctx, tv.start, wounds, 0)
    counts = np.zeros(wounds + 1)
    counts[wounds] = 1.0
    got = chain.saves(counts, counters=False)[:, 0]
    models = tv.target_models(tv.start)
    want = _brute_force_saves(models, default_order(allocation_groups(models), models), wounds, 0, 1)
    for s, n in want.items():
        assert got[chain.index[s]] == pytest.approx(n / 6**wounds, abs=1e-12), s
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_precision_and_devastating_mortal_wounds_against_the_same_rules_by_monte_carlo():
    """[PRECISION] at a visible CHARACTER leading a bodyguard unit, [DEVASTATING WOUNDS], two pools
    at the same target (the second set up on what the first left), Feel No Pain: the exact odds
    agree with a seeded Monte Carlo of the engine's own functions (roll_hits, roll_wounds,
    inflict_damage) within the 99% interval of 4,000 runs on every mean."""
    tv = unit(models=((4, 2, 3, None, False), (1, 4, 3, 4, True)), fnp=6, kw=("INFANTRY",))
    pr = problem([pool(0, A=6, skill=3, S=5, AP=-1, D=2, abilities="[PRECISION, DEVASTATING WOUNDS]",
                       visible=("t/5",)),
                  pool(1, A="D6", skill=4, S=4, AP=0, D="D3")], [tv])
    ex, mc = solve(pr), simulate(pr, 4000, 11)
    for a, b in ((ex.targets[0].destroyed, mc.targets[0].destroyed), (ex.targets[0].damage, mc.targets[0].damage),
                 (ex.targets[0].unsaved, mc.targets[0].unsaved), (ex.targets[0].mortal, mc.targets[0].mortal),
                 (ex.targets[0].groups[1][2], mc.targets[0].groups[1][2])):
        assert abs(a.mean - b.mean) <= 2.576 * max(a.sd, 1e-9) / 4000 ** 0.5, (a.name, a.mean, b.mean)


def test_hazard_rolls_on_the_attacker():
    """24.15/06.03: 3 hazard rolls, each failing on 1-2 (1/3): 1 mortal wound each on W1 models."""
    atk = unit("a", ((5, 1, 3, None, False),))
    o = solve(problem([pool(A=1)], [unit()], hazard=3, attacker=atk))
    assert o.hazard_lost.mean == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(o.hazard_destroyed.p, [8 / 27, 12 / 27, 6 / 27, 1 / 27], atol=1e-12)


def test_random_attacks_and_blast():
    """02.02.03 a random A, 24.05 [BLAST] +1 die per 5 target models: D6 + 2 dice at 10 models."""
    o = solve(problem([pool(A="D6", abilities="[BLAST]", models=10)], [unit(models=((10, 1, 7, None, False),))]))
    assert o.pools[0].dice.mean == pytest.approx(3.5 + 2, abs=1e-12)


# --- invariants --------------------------------------------------------------------------------

profiles = st.fixed_dictionaries({
    "A": st.integers(1, 8), "skill": st.integers(2, 6), "S": st.integers(2, 10), "AP": st.integers(-3, 0),
    "D": st.sampled_from([1, 2, 3, "D3", "D6"]),
    "abilities": st.sampled_from(["", "[LETHAL HITS]", "[SUSTAINED HITS 1]", "[TWIN-LINKED]", "[TORRENT]",
                                  "[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]", "[SUSTAINED HITS D3]",
                                  "[REROLL HITS 1]", "[REROLL WOUNDS 1]"]),
})
targets = st.fixed_dictionaries({
    "n": st.integers(1, 5), "W": st.integers(1, 4), "Sv": st.integers(2, 6), "fnp": st.sampled_from([None, 5, 6]),
    "n2": st.integers(0, 3), "Sv2": st.integers(2, 6),
})


def _target(t, Sv=None):
    rows = [(t["n"], t["W"], Sv or t["Sv"], None, False)]
    if t["n2"]:
        rows.append((t["n2"], t["W"], t["Sv2"], 5, False))
    return unit(models=tuple(rows), fnp=t["fnp"])


@settings(max_examples=25, deadline=None)
@given(profiles, targets)
def test_probabilities_sum_to_one(w, t):
    o = solve(problem([pool(**w)], [_target(t)]))
    for m in (o.targets[0].destroyed, o.targets[0].damage, o.targets[0].unsaved, o.targets[0].mortal,
              o.pools[0].hits, o.pools[0].wounds, o.hazard_lost):
        assert abs(m.p.sum() - 1.0) <= 1e-12 and (m.p >= -1e-15).all()


@settings(max_examples=25, deadline=None)
@given(profiles, targets)
def test_more_attacks_never_fewer_expected_wounds_or_damage(w, t):
    tv = _target(t)
    less, more = solve(problem([pool(**w)], [tv])), solve(problem([pool(**{**w, "A": w["A"] + 1})], [tv]))
    assert more.pools[0].wounds.mean >= less.pools[0].wounds.mean - 1e-12
    assert more.targets[0].damage.mean >= less.targets[0].damage.mean - 1e-12


@settings(max_examples=25, deadline=None)
@given(profiles, targets)
def test_a_better_save_never_more_damage(w, t):
    worse = solve(problem([pool(**w)], [_target(t, Sv=min(6, t["Sv"] + 1))]))
    better = solve(problem([pool(**w)], [_target(t, Sv=t["Sv"])]))
    assert better.targets[0].damage.mean <= worse.targets[0].damage.mean + 1e-12


def test_intractable_falls_back_to_a_seeded_monte_carlo_and_says_so(monkeypatch):
    from sim.odds import engine as E
    pr = problem([pool(A=8, skill=3, S=4, AP=-1, D="D3")], [unit(models=((5, 2, 4, None, False),), fnp=6)])
    exact = E.solve(pr)
    monkeypatch.setattr(EX, "MAX_STATES", 2)
    monkeypatch.setattr(E, "MC_RUNS", 3000)
    E.solve.cache_clear()
    try:
        mc = E.solve(pr)
    finally:
        E.solve.cache_clear()
    assert exact.method == "exact" and mc.method == "monte carlo" and mc.runs == 3000
    assert mc.notes[0].startswith("Monte Carlo of the same rules (3,000 runs, seed 1): intractable exactly")
    a, b = exact.targets[0].destroyed, mc.targets[0].destroyed
    assert abs(a.mean - b.mean) <= 2.576 * a.sd / 3000 ** 0.5
