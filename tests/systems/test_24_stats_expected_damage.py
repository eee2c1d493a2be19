"""Seeded statistical checks that the engine's average damage matches the exact expectation for
the issue-6 cases (24.23 LETHAL HITS, 24.36 SUSTAINED HITS, 24.38 TWIN-LINKED, 24.03 ANTI + 24.10
DEVASTATING WOUNDS, 24.25 MELTA with a random D).

**The exact expectation** is computed here, independently of the engine, by :func:`exact` with
fractions, one attack at a time (attacks are independent, so a volley of A attacks is A times
one attack): the chance of each unmodified hit roll (1 fails, 6 critical, otherwise BS), the
hits that go on to wound (normal hits, SUSTAINED extra hits, and critical hits unless LETHAL
wounds them automatically), each wound roll's chance to be a critical or a normal wound (ANTI
lowers the critical threshold; TWIN-LINKED re-rolls a failure once), then the chance the save
fails (unmodified 1, or roll + AP below Sv), times the mean of D (plus MELTA X within half range).
A DEVASTATING critical wound deals D mortal wounds with no save.

**"Expected damage"** is the damage dealt by D before any model's wounds cap it: the pure-function
runs use one target model with 10**9 wounds, so nothing is ever capped or lost to excess, and the
engine's "wounds lost" equal the damage dealt. (The ANTI case is D1 against W1 models: there the
cap never bites either, so the issue's "vs W1 models" gives the same 2.5.)

**Samples and tolerance.** The pure-function checks drive sim/rules/sequence.py (roll_hits,
roll_wounds, roll_saves, inflict_damage) with a seeded Dice: 200 batches of 250 volleys (50,000
volleys, a fixed seed per case, so each test is deterministic). Tolerance: 4 standard errors of
the mean, the standard error estimated from the 200 batch means (about 0.014-0.017 damage for
the A5 cases, so about +-0.06; about 0.006 for the MELTA cases); each test also asserts the
standard error is that small, so the band is never loose. The neighbouring cases differ by 0.37
to 0.56 damage (over 25 standard errors), so a rule applied wrongly cannot pass.

The whole-battle checks run the same profiles through the ECS (Battle, Shoot commands, every
system: pooling, the ability-to-pool-state wiring, allocation, damage) with fewer samples: a unit
of many models all firing at one target, 100 or more Shoot commands (6,000 A5 volleys, 1,000 A10
volleys, 6,000 MELTA attacks), the target healed after each command. Tolerance: 4 standard errors,
estimated from the per-command damage (about 0.045 for A5, 0.04 for ANTI, 0.03 for MELTA; each test
asserts its bound). Each test runs in well under 5 s (about 0.5 s).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import esper
import pytest

from sim.battle import Battle
from sim.commands import EndTurn, Selection, Shoot
from sim.components import Wounds
from sim.rules.allocation import TargetModel, allocation_groups, default_order
from sim.rules.dice import Dice, DiceExpr, parse_dice_expr
from sim.rules.sequence import DamageState, PoolState, inflict_damage, roll_hits, roll_saves, roll_wounds
from sim.scenario.load import parse_scenario

BIG = 10**9


# --- the exact expectation, independent of the engine ----------------------------------------


def exact(A, skill, S, T, AP, Sv, D_mean, *, lethal=False, sustained=0, twin=False, anti=6,
          devastating=False, melta=0) -> F:
    """Exact expected damage of a volley of A attacks (see the module docstring)."""
    sixth = F(1, 6)
    p_crit_hit = sixth  # unmodified 6
    p_normal_hit = sixth * sum(1 for r in range(2, 6) if r >= skill)  # 2..5 reaching BS/WS
    to_wound = p_normal_hit + p_crit_hit * sustained + (0 if lethal else p_crit_hit)
    auto = p_crit_hit if lethal else F(0)
    need = 2 if S >= 2 * T else 3 if S > T else 4 if S == T else 6 if 2 * S <= T else 5
    p_cw = sixth * sum(1 for r in range(2, 7) if r >= anti)  # critical wound: unmodified >= anti
    p_nw = sixth * sum(1 for r in range(2, 7) if need <= r < anti)
    if twin:  # a failed roll is re-rolled once
        fail = 1 - p_cw - p_nw
        p_cw, p_nw = p_cw + fail * p_cw, p_nw + fail * p_nw
    p_save_fails = sixth * sum(1 for r in range(1, 7) if r == 1 or r + AP < Sv)
    D = F(D_mean) + melta
    per_wound_roll = p_nw * p_save_fails * D + p_cw * (D if devastating else p_save_fails * D)
    per_attack = to_wound * per_wound_roll + auto * p_save_fails * D
    return A * per_attack


def test_exact_expectations_are_the_issue_numbers():
    base = dict(A=5, skill=2, S=6, T=4, AP=-2, Sv=3, D_mean=3)
    assert round(float(exact(**base)), 3) == 5.556
    assert round(float(exact(**base, lethal=True)), 3) == 6.111
    assert round(float(exact(**base, sustained=1)), 3) == 6.667
    assert round(float(exact(**base, lethal=True, sustained=1)), 3) == 7.222
    assert round(float(exact(**base, twin=True)), 3) == 7.407
    assert exact(10, 4, 4, 4, 0, 3, 1, anti=4, devastating=True) == F(5, 2)
    assert round(float(exact(1, 3, 9, 11, -4, 2, F(7, 2), melta=2)), 4) == 1.0185
    assert round(float(exact(1, 3, 9, 11, -4, 2, F(7, 2))), 4) == 0.6481


# --- the engine's pure functions ---------------------------------------------------------------


def engine_mean(seed, A, skill, S, T, AP, Sv, D, batches=200, per_batch=250, **flags):
    """Mean damage per volley of A attacks and its standard error (from batch means)."""
    dice = Dice(seed)
    means = []
    for _ in range(batches):
        p = PoolState(dice=A * per_batch, skill=skill, S=S, AP=AP, D=D, T=T, **flags)
        roll_hits(p, dice)
        roll_wounds(p, dice)
        m = TargetModel("big/1", BIG, BIG, Sv, None, False)
        gs = allocation_groups([m])
        st = DamageState([m], {m.id: BIG}, gs, default_order(gs, [m]))
        inflict_damage(p, roll_saves(p, dice), st, dice, {m.id: Sv}, {m.id: None})
        means.append((BIG - st.remaining[m.id]) / per_batch)
    mean = sum(means) / batches
    sd = math.sqrt(sum((x - mean) ** 2 for x in means) / (batches - 1))
    return mean, sd / math.sqrt(batches)


A5 = dict(A=5, skill=2, S=6, T=4, AP=-2, Sv=3)
CASES = {
    # name: (engine flags, exact() flags)
    "none": ({}, {}),
    "lethal hits": ({"lethal": True}, {"lethal": True}),
    "sustained hits 1": ({"sustained": 1}, {"sustained": 1}),
    "lethal + sustained 1": ({"lethal": True, "sustained": 1}, {"lethal": True, "sustained": 1}),
    "twin-linked": ({"twin_linked": True}, {"twin": True}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_24_a5_ws2_s6_ap2_d3_vs_t4_sv3(name):
    eng, ex = CASES[name]
    expected = float(exact(**A5, D_mean=3, **ex))
    mean, se = engine_mean(1000 + list(CASES).index(name), **A5, D=DiceExpr(0, 0, 3), **eng)
    assert se < 0.02
    assert abs(mean - expected) <= 4 * se, (name, mean, expected, se)


def test_24_03_24_10_anti_infantry_4_devastating_a10():
    expected = float(exact(10, 4, 4, 4, 0, 3, 1, anti=4, devastating=True))
    mean, se = engine_mean(2024, 10, 4, 4, 4, 0, 3, DiceExpr(0, 0, 1), critical_wound_on=4, devastating=True)
    assert se < 0.02
    assert abs(mean - expected) <= 4 * se, (mean, expected, se)


@pytest.mark.parametrize("half", [True, False], ids=["within half range", "beyond half range"])
def test_24_25_melta_2_random_d(half):
    expected = float(exact(1, 3, 9, 11, -4, 2, F(7, 2), melta=2 if half else 0))
    D = parse_dice_expr("D6+2" if half else "D6")  # what the engine's MELTA makes of D6 (24.25)
    mean, se = engine_mean(77 + half, 1, 3, 9, 11, -4, 2, D, batches=200, per_batch=500)
    assert se < 0.01
    assert abs(mean - expected) <= 4 * se, (mean, expected, se)


# --- whole battles through the ECS ---------------------------------------------------------------


def battle_spec(weapon, n_shooters, target_kw, target_T, target_Sv, target_at, target_W=BIG, target_n=1,
                shooter_at=(5, 5), cols=15):
    shooters = [[shooter_at[0] + 1.5 * (i % cols), shooter_at[1] + 1.5 * (i // cols)] for i in range(n_shooters)]
    targets = [[target_at[0] + 1.5 * (i % 30), target_at[1] + 1.5 * (i // 30)] for i in range(target_n)]
    data = {"battle": {"name": "stats", "seed": 1, "board": [60, 44]},
            "weapons": {"gun": weapon, "fist": {"range": "melee", "A": 1, "WS": 4, "S": 3, "AP": 0, "D": 1}},
            "armies": [
                {"name": "A", "units": [{"id": "sh", "name": "sh", "keywords": ["INFANTRY"], "models": [
                    {"count": n_shooters, "at": shooters, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1,
                     "base_mm": 32, "weapons": ["gun"]}]}]},
                {"name": "B", "units": [{"id": "t", "name": "t", "keywords": list(target_kw), "models": [
                    {"count": target_n, "at": targets, "M": 6, "T": target_T, "Sv": target_Sv, "W": target_W,
                     "Ld": 6, "OC": 1, "base_mm": 32, "weapons": ["fist"]}]}]},
            ]}
    return parse_scenario(data, "stats.toml")


def battle_mean(sp, n_shooters, volleys, seed, target_W=BIG, answer=None):
    """Per-command damage (wounds lost by the target unit) over ``volleys`` Shoot commands; returns
    the mean damage per model's volley and its standard error."""
    per_cmd = []
    with Battle(sp, seed=seed) as b:
        b._enter()
        tents = [b.models[m] for m in b.models if m.startswith("t/")]
        sels = tuple(Selection(f"sh/{i}", "gun", "t") for i in range(1, n_shooters + 1))
        for _ in range(volleys):
            before = sum(esper.component_for_entity(e, Wounds).remaining for e in tents)
            b.run_command(Shoot("sh", sels), answer=answer)
            b._enter()
            after = sum(esper.component_for_entity(e, Wounds).remaining for e in tents)
            per_cmd.append((before - after) / n_shooters)
            for e in tents:  # heal the target back to full for the next volley
                esper.component_for_entity(e, Wounds).remaining = target_W
            b.run_command(EndTurn())
    mean = sum(per_cmd) / volleys
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_cmd) / (volleys - 1))
    return mean, sd / math.sqrt(volleys)


ABILITIES = {"none": "", "lethal hits": "[LETHAL HITS]", "sustained hits 1": "[SUSTAINED HITS 1]",
             "lethal + sustained 1": "[LETHAL HITS, SUSTAINED HITS 1]", "twin-linked": "[TWIN-LINKED]"}


@pytest.mark.parametrize("name", list(CASES))
def test_24_a5_cases_whole_battle(name):
    """60 models x A5 at one T4 Sv3+ model with 10**9 wounds, 100 Shoot commands (6,000 volleys of A5)."""
    w = {"range": 24, "A": 5, "BS": 2, "S": 6, "AP": -2, "D": 3, "abilities": ABILITIES[name]}
    sp = battle_spec(w, 60, ["INFANTRY"], 4, 3, (15, 25))
    expected = float(exact(**A5, D_mean=3, **CASES[name][1]))
    mean, se = battle_mean(sp, 60, 100, seed=500 + list(CASES).index(name))
    assert se < 0.06
    assert abs(mean - expected) <= 4 * se, (name, mean, expected, se)


def test_24_03_24_10_anti_devastating_whole_battle_w1_models():
    """10 models x A10 [ANTI-INFANTRY 4+, DEVASTATING WOUNDS] at 120 INFANTRY W1 Sv3+ models (the
    cap never bites: D1), healed after each command; 100 commands (1,000 volleys)."""
    w = {"range": 36, "A": 10, "BS": 4, "S": 4, "AP": 0, "D": 1,
         "abilities": "[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]"}
    sp = battle_spec(w, 10, ["INFANTRY"], 4, 3, (8, 25), target_W=1, target_n=120)
    mean, se = battle_mean(sp, 10, 100, seed=9, target_W=1)
    assert se < 0.06
    assert abs(mean - 2.5) <= 4 * se, (mean, se)


@pytest.mark.parametrize("half", [True, False], ids=["within half range", "beyond half range"])
def test_24_25_melta_whole_battle(half):
    """20 models x A1 [MELTA 2] D6 at one T11 Sv2+ VEHICLE, all within 12" (half range) or all
    beyond it; 300 commands (6,000 attacks)."""
    w = {"range": 24, "A": 1, "BS": 3, "S": 9, "AP": -4, "D": "D6", "abilities": "[MELTA 2]"}
    sp = battle_spec(w, 20, ["VEHICLE"], 11, 2, (8, 14 if half else 24), cols=5)
    expected = float(exact(1, 3, 9, 11, -4, 2, F(7, 2), melta=2 if half else 0))
    mean, se = battle_mean(sp, 20, 300, seed=31 + half)
    assert se < 0.04
    assert abs(mean - expected) <= 4 * se, (mean, expected, se)
