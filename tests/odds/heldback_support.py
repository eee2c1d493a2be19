"""Support for tests/odds/test_rules_heldback.py: well-known units as scenario dicts (names and
the numbers of their public datasheets; no rules prose), one-attack scenarios with and without
an army's rule, their exact odds and the Monte Carlo of the battle itself (sim stats)."""

from __future__ import annotations

import dataclasses
import math

from scen import model, unit, weapon
from sim.analysis.locate import first_attack, problem_at
from sim.analysis.stats import Tally, iter_runs
from sim.odds.engine import solve
from sim.scenario.load import parse_scenario

Z99 = 2.576  # the 99% interval: |battle mean - exact mean| <= Z99 * sd / sqrt(runs)
RUNS = 200

WEAPONS = {
    "choppa": weapon("melee", 3, 3, 4, -1, 1),
    "slugga": weapon(12, 1, 5, 4, 0, 1, "[PISTOL]"),
    "bolt rifle": weapon(24, 2, 3, 4, -1, 1, "[ASSAULT, HEAVY]"),
    "boltgun": weapon(24, 2, 3, 4, 0, 1),
    "guardian spear": weapon("melee", 5, 2, 7, -2, 2),
    "galvanic rifle": weapon(30, 1, 4, 4, 0, 1),
    "pulse rifle": weapon(30, 1, 4, 5, 0, 1, "[RAPID FIRE 1]"),
    "claws and teeth": weapon("melee", 1, 4, 3, 0, 1),
    "gauss flayer": weapon(24, 1, 4, 4, 0, 1, "[LETHAL HITS, RAPID FIRE 1]"),
    "close combat weapon": weapon("melee", 3, 3, 4, 0, 1),
}


def row(x, y, n, dx=1.6):
    return [(x + i * dx, y) for i in range(n)]


def boyz(at, uid="boyz"):
    return unit(uid, model(at, ["choppa"], name="Boy", T=5, Sv=5, W=1, M=6, Ld=7, OC=2),
                keywords=("INFANTRY", "MOB", "ORKS", "BOYZ"), name="Boyz")


def intercessors(at, uid="intercessors"):
    return unit(uid, model(at, ["bolt rifle", "close combat weapon"], name="Intercessor", T=4, Sv=3, W=2),
                keywords=("INFANTRY", "BATTLELINE", "ADEPTUS ASTARTES"), name="Intercessor Squad")


def plague_marines(at, uid="plague"):
    return unit(uid, model(at, ["boltgun"], name="Plague Marine", T=5, Sv=3, W=2, M=5),
                keywords=("INFANTRY", "BATTLELINE", "DEATH GUARD"), name="Plague Marines")


def custodian_guard(at, uid="custodes"):
    return unit(uid, model(at, ["guardian spear"], name="Custodian Guard", T=6, Sv=2, W=3, InSv=4, base_mm=40,
                           OC=2), keywords=("INFANTRY", "BATTLELINE", "ADEPTUS CUSTODES"), name="Custodian Guard")


def rangers(at, uid="rangers"):
    return unit(uid, model(at, ["galvanic rifle"], name="Skitarii Ranger", T=3, Sv=4, W=1, M=6, Ld=7, base_mm=28),
                keywords=("INFANTRY", "BATTLELINE", "ADEPTUS MECHANICUS"), name="Skitarii Rangers")


def fire_warriors(at, uid="firewarriors"):
    return unit(uid, model(at, ["pulse rifle"], name="Fire Warrior", T=3, Sv=4, W=1, Ld=7, OC=2, base_mm=28),
                keywords=("INFANTRY", "BATTLELINE", "T'AU EMPIRE"), name="Strike Team")


def termagants(at, uid="gants"):
    return unit(uid, model(at, ["claws and teeth"], name="Termagant", T=3, Sv=5, W=1, Ld=8, OC=2, base_mm=28),
                keywords=("INFANTRY", "BATTLELINE", "ENDLESS MULTITUDE", "TYRANIDS"), name="Termagants")


def necron_warriors(at, uid="warriors"):
    return unit(uid, model(at, ["gauss flayer", "close combat weapon"], name="Necron Warrior", T=4, Sv=4, W=1, M=5,
                           Ld=7, OC=2), keywords=("INFANTRY", "BATTLELINE", "NECRONS"), name="Necron Warriors")


def deathwing_knights(at, uid="knights"):
    return unit(uid, model(at, ["close combat weapon"], name="Deathwing Knight", T=5, Sv=2, W=3, InSv=4, M=5,
                           base_mm=40), keywords=("INFANTRY", "TERMINATOR", "ADEPTUS ASTARTES", "DARK ANGELS"),
                name="Deathwing Knights")


def one_attack(attacker: dict, target: dict, step: dict, *, rules=(), theirs=(), chosen=None, their_chosen=None):
    """A free-play scenario: army A (``rules``, ``chosen``) holds ``attacker``, army B (``theirs``,
    ``their_chosen``) ``target``; a script of ONE attack step."""
    a = {"name": "A", "units": [attacker]}
    b = {"name": "B", "units": [target]}
    if rules:
        a["rules"] = list(rules)
    if chosen:
        a["chosen"] = dict(chosen)
    if theirs:
        b["rules"] = list(theirs)
    if their_chosen:
        b["chosen"] = dict(their_chosen)
    data = {"battle": {"name": "heldback", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [a, b], "script": [step]}
    return parse_scenario(data, "heldback.toml")


def exact(spec):
    """The exact odds of the scenario's attack (sim.analysis.locate, sim.odds.engine)."""
    loc = first_attack(spec)
    with loc.battle:
        odds = solve(problem_at(loc))
    assert odds.method == "exact"
    return odds


def battle_means(spec, runs: int = RUNS):
    """The script played over seeds 1..runs (sim stats' machinery): per unit id, the mean models
    destroyed and wounds lost."""
    one = dataclasses.replace(spec, script=spec.script[:1])
    tally = Tally(one).add_all(iter_runs(one, 1, runs, jobs=1))
    assert not tally.stops, tally.stops
    return {u.id: (tally.destroyed[k] / runs, tally.wounds_lost[k] / runs) for k, u in enumerate(one.units)}


def within_99(mc_mean: float, measure, runs: int = RUNS) -> tuple[bool, float]:
    tol = Z99 * measure.sd / math.sqrt(runs)
    return abs(mc_mean - measure.mean) <= tol + 1e-12, tol
