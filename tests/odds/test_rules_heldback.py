"""Issue 26 item 5, the held-back style check: ten well-known units with their army rule (or a
very common datasheet or detachment record), each in a small scenario of ONE attack built here
(tests/odds/heldback_support.py: names and datasheet numbers only), played with the rule and
without it.

For each attack case:
(a) the exact odds (sim.analysis.locate.first_attack, problem_at, sim.odds.engine.solve, as
    tests/odds/test_odds_crosscheck.py) with the rule against the same scenario without it: the
    mean moves the way the rule says (more damage for an attacker's rule, less for a
    defender's), and where the arithmetic is short it equals the fraction worked by hand in the
    case's note (tolerance 1e-9);
(b) the battle itself: the same one-step script played over seeds 1..RUNS (RUNS = 200) with
    sim stats' machinery (sim.analysis.stats.iter_runs, Tally), with and without the rule: each
    battle mean lies within the 99% interval 2.576 * sd / sqrt(RUNS) of its exact mean, and
    over the same seeds the battles with the rule move the way the rule says (strictly), so the
    rule reaches both the battle and the odds.

Reanimation Protocols acts outside attacks: the odds of an attack on Necron Warriors are the
same with it and without it, and a seeded two-round battle with a mission (the Warriors shot at
in each of their opponent's turns) ends with at least as many Warriors on the table with the rule
as without it on each of six seeds, and its event log names the rule returning models.

Every test is deterministic (fixed seeds); the module runs in a few seconds."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F
from typing import Callable

import pytest

from heldback_support import (RUNS, WEAPONS, battle_means, boyz, custodian_guard, deathwing_knights, exact,
                              fire_warriors, intercessors, necron_warriors, one_attack, plague_marines,
                              rangers, row, termagants, within_99)
from sim.battle import Battle
from sim.players.runner import play
from sim.scenario.load import parse_scenario
from sim.world import queries as W

UP, DOWN = 1, -1  # the way the rule moves the measure: an attacker's rule up, a defender's down


def shoot(unit, weapon, target):
    return {"shoot": unit, "targets": {weapon: target}}


def fight(unit, weapon, target):
    return {"fight": unit, "targets": {weapon: target}}


@dataclass(frozen=True)
class Case:
    """``build(with_rule)`` the scenario; ``target`` whose ``measure`` ("damage": wounds lost,
    "destroyed": models destroyed) the rule moves ``way``; ``hand``: exact means worked by hand
    (without, with; None where excess damage makes the sum long); ``pool``: hand values of
    the attack pool's mean hits and wounds (without, with), which no excess damage caps."""

    name: str
    build: Callable
    target: str
    measure: str
    way: int
    hand: tuple = (None, None)
    pool: tuple | None = None


def _boyz_fight(rules, chosen=None):
    return lambda r: one_attack(boyz(row(10, 10, 5)), intercessors(row(10, 12, 5)),
                                fight("boyz", "choppa", "intercessors"), rules=rules if r else (),
                                chosen=chosen if r else None)


CASES = [
    # Boyz (5) fight Intercessors (5, T4 Sv3+ W2), choppas A3 WS3+ S4 AP-1. Without: 15 attacks,
    # 10 hits, 5 wounds (4+), 5/2 unsaved (Sv4+ after AP). Waaagh! called: A4 S5: 20 attacks,
    # 40/3 hits, 80/9 wounds (3+), 40/9 unsaved; wounds lost slightly under, capped at 10.
    Case("boyz-waaagh-melee", _boyz_fight(["waaagh"], {"waaagh": True}), "intercessors", "damage", UP,
         pool=((F(10), F(5)), (F(40, 3), F(80, 9)))),
    # Intercessors (5) shoot Boyz (10, T5 Sv5+ W1): bolt rifles A2 BS3+ [HEAVY] stationary: 2+;
    # 25/3 hits, 25/9 wounds (5+). Without: Sv6+ after AP-1, 5/6 fail: 125/54 destroyed. In a
    # Waaagh! turn their 5+ invulnerable save: 2/3 fail: 50/27.
    Case("boyz-waaagh-invulnerable",
         lambda r: one_attack(intercessors(row(10, 10, 5)), boyz(row(10, 20, 10)),
                              shoot("intercessors", "bolt rifle", "boyz"), theirs=["waaagh"] if r else (),
                              their_chosen={"waaagh": True} if r else None),
         "boyz", "destroyed", DOWN, hand=(F(125, 54), F(50, 27))),
    # Intercessors with Oath of Moment on the Boyz: hits re-rolled: 10 * (5/6 + 1/6 * 5/6) =
    # 350/36 hits, then * 1/3 * 5/6: 875/324 destroyed (125/54 without).
    Case("intercessors-oath-of-moment",
         lambda r: one_attack(intercessors(row(10, 10, 5)), boyz(row(10, 20, 10)),
                              shoot("intercessors", "bolt rifle", "boyz"), rules=["oath-of-moment"] if r else (),
                              chosen={"oath-of-moment": "boyz"} if r else None),
         "boyz", "destroyed", UP, hand=(F(125, 54), F(875, 324))),
    # Plague Marines (5) shoot Intercessors 2.54" away (inside the 3" contagion range, outside
    # the 2" engagement range): boltguns A2 BS3+ S4 AP0: 20/3 hits; T4 -> T3 wounds on 3+ not
    # 4+: 10/3 -> 40/9 wounds; Sv3+ fails 1/3: 10/9 -> 40/27 wounds lost.
    Case("plague-marines-nurgles-gift",
         lambda r: one_attack(plague_marines(row(10, 10, 5)), intercessors(row(10, 13.8, 5)),
                              shoot("plague", "boltgun", "intercessors"), rules=["nurgles-gift"] if r else ()),
         "intercessors", "damage", UP, hand=(F(10, 9), F(40, 27))),
    # A Custodian Guard fights Intercessors: guardian spear A5 WS2+ S7 AP-2 D2: 25/6 hits, with
    # [SUSTAINED HITS 1] (Dacatarai) 5 (a 6 adds one); wounds (3+) 25/9 -> 10/3; Sv5+ fails 2/3
    # at D2: 100/27 wounds lost without (at most 10: no excess); with, slightly under 40/9.
    Case("custodian-guard-martial-katah",
         lambda r: one_attack(custodian_guard(row(10, 10, 1)), intercessors(row(10, 12.3, 5)),
                              fight("custodes", "guardian spear", "intercessors"),
                              rules=["martial-katah"] if r else (),
                              chosen={"martial-katah": "Dacatarai Stance"} if r else None),
         "intercessors", "damage", UP, hand=(F(100, 27), None), pool=((F(25, 6), F(25, 9)), (F(5), F(10, 3)))),
    # Skitarii Rangers (10) shoot Boyz: galvanic rifles A1 BS4+ S4: 1/2 to hit; Protector: BS3+
    # and [HEAVY] (stationary, +1): 2+, 5/6. Wounds 5+ (1/3), Sv5+ fails 2/3: 10/9 -> 50/27.
    Case("skitarii-rangers-doctrina-imperatives",
         lambda r: one_attack(rangers(row(10, 10, 10)), boyz(row(10, 30, 10)),
                              shoot("rangers", "galvanic rifle", "boyz"), rules=["doctrina-imperatives"] if r else (),
                              chosen={"doctrina-imperatives": "Protector Imperative"} if r else None),
         "boyz", "destroyed", UP, hand=(F(10, 9), F(50, 27))),
    # Fire Warriors (10) shoot Boyz 20" away (no rapid fire): pulse rifles A1 BS4+ S5: wounds
    # 4+, Sv5+ fails 2/3. The Boyz Spotted: BS3+: 10 * 1/2 * 1/2 * 2/3 = 5/3 -> 10 * 2/3 ... = 20/9.
    Case("fire-warriors-for-the-greater-good",
         lambda r: one_attack(fire_warriors(row(10, 10, 10)), boyz(row(10, 30, 10)),
                              shoot("firewarriors", "pulse rifle", "boyz"),
                              rules=["for-the-greater-good"] if r else (),
                              chosen={"for-the-greater-good": "boyz"} if r else None),
         "boyz", "destroyed", UP, hand=(F(5, 3), F(20, 9))),
    # Termagants (5) fight Intercessors: claws A1 WS4+ S3: 5/2 hits; S3 vs T4 5+ (1/3), in
    # Synapse S4 4+ (1/2); Sv3+ fails 1/3: 5/18 -> 5/12 wounds lost.
    Case("termagants-synapse",
         lambda r: one_attack(termagants(row(10, 10, 5)), intercessors(row(10, 12, 5)),
                              fight("gants", "claws and teeth", "intercessors"), rules=["synapse"] if r else ()),
         "intercessors", "damage", UP, hand=(F(5, 18), F(5, 12))),
    # A Custodian Guard fights Deathwing Knights (T5 Sv2+ InSv4+ W3, Inner Circle: -1 Damage):
    # 25/6 hits, wounds 3+, 4+ invulnerable fails 1/2: 25/18 unsaved; D2 -> D1 with the rule:
    # 25/18 wounds lost (without, D2 on W3 wastes a wound per model: under 25/9).
    Case("deathwing-knights-inner-circle",
         lambda r: one_attack(custodian_guard(row(10, 10, 1)),
                              deathwing_knights(row(10, 12.3, 5)) | ({"rules": ["inner-circle"]} if r else {}),
                              fight("custodes", "guardian spear", "knights")),
         "knights", "damage", DOWN, hand=(None, F(25, 18))),
    # Boyz in the War Horde detachment (Get Stuck In: ORKS melee [SUSTAINED HITS 1]) fight
    # Intercessors: 15 attacks, hits 10 -> 10 + 15/6 = 25/2, wounds 5 -> 25/4; damage capped at 10.
    Case("boyz-get-stuck-in", _boyz_fight(["get-stuck-in"]), "intercessors", "damage", UP,
         pool=((F(10), F(5)), (F(25, 2), F(25, 4)))),
]


def _target(odds, uid):
    (t,) = [t for t in odds.targets if t.uid == uid]
    return t


_ODDS: dict = {}


def _odds(case: Case, with_rule: bool):
    key = (case.name, with_rule)
    if key not in _ODDS:
        _ODDS[key] = exact(case.build(with_rule))
    return _ODDS[key]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_exact_odds_move_as_the_rule_says(case):
    """(a) With the rule the mean of the case's measure moves its way, strictly; hand values
    to 1e-9; the report names the rule acting."""
    without, with_ = _odds(case, False), _odds(case, True)
    m0 = getattr(_target(without, case.target), case.measure).mean
    m1 = getattr(_target(with_, case.target), case.measure).mean
    assert case.way * (m1 - m0) > 1e-6, (m0, m1)
    for hand, got in zip(case.hand, (m0, m1)):
        if hand is not None:
            assert got == pytest.approx(float(hand), abs=1e-9)
    if case.pool is not None:
        for (hits, wounds), o in zip(case.pool, (without, with_)):
            assert o.pools[0].hits.mean == pytest.approx(float(hits), abs=1e-9)
            assert o.pools[0].wounds.mean == pytest.approx(float(wounds), abs=1e-9)
    assert not any("rules" in n for n in without.notes)
    assert any("takes from rules" in n or "take from rules" in n for n in with_.notes), with_.notes


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_battle_moves_as_the_rule_says_and_matches_the_odds(case):
    """(b) RUNS seeded battles each way: both means (models destroyed and wounds lost) within
    2.576 * sd / sqrt(RUNS) of the exact ones; over the same seeds the battles with the rule
    move the case's measure its way, strictly."""
    got = {}
    for with_rule in (False, True):
        odds = _odds(case, with_rule)
        t = _target(odds, case.target)
        destroyed, lost = battle_means(case.build(with_rule))[case.target]
        for mc, measure, what in ((destroyed, t.destroyed, "destroyed"), (lost, t.damage, "wounds lost")):
            ok, tol = within_99(mc, measure)
            assert ok, (case.name, with_rule, what, mc, measure.mean, tol)
        got[with_rule] = {"destroyed": destroyed, "damage": lost}[case.measure]
    assert case.way * (got[True] - got[False]) > 0, got


# --- Reanimation Protocols: outside the attack ------------------------------------------------

def _warriors_shot(with_rule: bool):
    return one_attack(intercessors(row(10, 10, 5)), necron_warriors(row(10, 26, 5) + row(10.8, 27.4, 5)),
                      shoot("intercessors", "bolt rifle", "warriors"),
                      theirs=["reanimation-protocols"] if with_rule else ())


def test_reanimation_protocols_leaves_the_odds_of_an_attack_alone():
    """The rule returns models as the Command phase ends, not during an attack: the exact odds of
    bolt rifles at the Warriors (T4 Sv4+ W1) are the same with and without it: 10 * 5/6 hits, 1/2
    wound, Sv5+ after AP-1 fails 2/3: 25/9 destroyed."""
    a = _target(exact(_warriors_shot(False)), "warriors").destroyed.mean
    b = _target(exact(_warriors_shot(True)), "warriors").destroyed.mean
    assert a == pytest.approx(25 / 9, abs=1e-9) and b == pytest.approx(a, abs=1e-12)


def _mission(with_rule: bool, seed: int):
    red = {"name": "Necrons", "units": [necron_warriors(row(20, 8, 5) + row(20.8, 9.4, 5))]}
    if with_rule:
        red["rules"] = ["reanimation-protocols"]
    blue = {"name": "Marines", "units": [intercessors(row(20, 26, 5))]}
    shot = {"shoot": "intercessors", "targets": {"bolt rifle": "warriors"}}
    data = {"battle": {"name": "reanimation", "seed": seed, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [red, blue], "mission": {"first": "blue", "rounds": 2, "deployed": False},
            "script": [shot | {"round": 1}, shot | {"round": 2}]}
    return parse_scenario(data, "reanimation.toml")


SEEDS = range(1, 7)


def _played(with_rule: bool, seed: int):
    spec = _mission(with_rule, seed)
    with Battle(spec) as b:
        play(b, spec)
        b._enter()
        alive = len(W.unit_models(b.units["warriors"]))
        returned = [m for e in b.events if e["type"] == "rule effect" and e.get("rule") == "Reanimation Protocols"
                    for m in e.get("returned", ())]
        shots = sum(1 for e in b.events if e["type"] == "attacks resolved")
    return alive, returned, shots


def test_reanimation_protocols_returns_warriors_in_a_battle():
    """Two battle rounds, blue first: the Intercessors shoot the Warriors in each of their turns
    (script steps for rounds 1 and 2) and the default players play the rest. On each of six
    seeds the Warriors end with at least as many models on the table with the rule as without
    it, more over the six, and the event log names the rule returning models."""
    with_, without, returned_any = [], [], False
    for seed in SEEDS:
        a0, r0, s0 = _played(False, seed)
        a1, r1, s1 = _played(True, seed)
        assert s0 == s1 == 2 and r0 == []
        assert a1 >= a0, (seed, a0, a1)
        with_.append(a1)
        without.append(a0)
        returned_any = returned_any or bool(r1)
    assert sum(with_) > sum(without), (with_, without)
    assert returned_any


# --- the same records where their condition does not hold: no change -------------------------

def _oath_elsewhere(r):
    """Oath of Moment on another enemy unit (the Gretchin-like decoy far away)."""
    decoy = boyz(row(40, 40, 2), uid="decoy")
    spec = {"battle": {"name": "heldback", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [intercessors(row(10, 10, 5))]},
                       {"name": "B", "units": [boyz(row(10, 20, 10)), decoy]}],
            "script": [shoot("intercessors", "bolt rifle", "boyz")]}
    if r:
        spec["armies"][0] |= {"rules": ["oath-of-moment"], "chosen": {"oath-of-moment": "decoy"}}
    return parse_scenario(spec, "heldback.toml")


CONTROLS = [
    # Nurgle's Gift 4.74" away: beyond the 3" contagion range, the Intercessors keep T4
    ("nurgles-gift-out-of-range",
     lambda r: one_attack(plague_marines(row(10, 10, 5)), intercessors(row(10, 16, 5)),
                          shoot("plague", "boltgun", "intercessors"), rules=["nurgles-gift"] if r else ()),
     "intercessors"),
    # the Waaagh! held but not called: no +1 S / +1 A
    ("waaagh-not-called", _boyz_fight(["waaagh"]), "intercessors"),
    # the Waaagh! called: nothing for the Boyz' shooting (melee only)
    ("waaagh-called-shooting",
     lambda r: one_attack(boyz(row(10, 10, 5)) | {"models": [
         {**boyz(row(10, 10, 5))["models"][0], "weapons": ["slugga"]}]}, intercessors(row(10, 18, 5)),
         shoot("boyz", "slugga", "intercessors"), rules=["waaagh"] if r else (),
         chosen={"waaagh": True} if r else None),
     "intercessors"),
    # Oath of Moment on another unit: no re-roll against the Boyz
    ("oath-of-moment-elsewhere", _oath_elsewhere, "boyz"),
    # Get Stuck In held by a unit without the ORKS keyword
    ("get-stuck-in-not-orks",
     lambda r: one_attack(intercessors(row(10, 10, 5)), boyz(row(10, 12, 5)),
                          fight("intercessors", "close combat weapon", "boyz"), rules=["get-stuck-in"] if r else ()),
     "boyz"),
]


@pytest.mark.parametrize("name, build, target", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_where_the_records_condition_fails_the_odds_do_not_move(name, build, target):
    """The record held but its condition false (range, not called, melee only, another target,
    keyword): the exact means (models destroyed, wounds lost) equal those without it (1e-12)."""
    a, b = _target(exact(build(False)), target), _target(exact(build(True)), target)
    assert b.damage.mean == pytest.approx(a.damage.mean, abs=1e-12)
    assert b.destroyed.mean == pytest.approx(a.destroyed.mean, abs=1e-12)
