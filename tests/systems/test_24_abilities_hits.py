"""Hit-roll abilities through the ECS, forced dice: 24.36 [SUSTAINED HITS X], 24.23 [LETHAL HITS]
(and its decision with [DEVASTATING WOUNDS]), 24.37 [TORRENT], 24.16 [HEAVY] (only if the unit is
unengaged, was not set up this turn and no model moved more than 3"), and the 24.01 conditional
forms [X: KEYWORD], which apply only against a target unit with the keyword."""

from __future__ import annotations


from scen import model, of_type, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {
    "burst gun": weapon(24, 2, 3, 4, 0, 1, "[SUSTAINED HITS 2]"),
    "needle gun": weapon(24, 2, 3, 4, 0, 1, "[LETHAL HITS]"),
    "hunter gun": weapon(24, 2, 3, 4, 0, 1, "[LETHAL HITS, SUSTAINED HITS 1]"),
    "ripper gun": weapon(24, 1, 3, 4, 0, 2, "[LETHAL HITS, DEVASTATING WOUNDS]"),
    "flamer": weapon(12, 3, 6, 4, 0, 1, "[TORRENT, SUSTAINED HITS 2, LETHAL HITS]"),
    "siege gun": weapon(36, 1, 4, 4, 0, 1, "[HEAVY]"),
    "tank burst": weapon(24, 1, 3, 4, 0, 1, "[SUSTAINED HITS 1: VEHICLE]"),
    "tank needle": weapon(24, 1, 3, 4, 0, 1, "[LETHAL HITS: VEHICLE]"),
    "tank siege": weapon(36, 1, 4, 4, 0, 1, "[HEAVY: VEHICLE]"),
    "knife": weapon("melee", 1, 4, 4, 0, 1),
}
HEAVY = ["[HEAVY] (24.16)", 1]


def spec(target_kw=("INFANTRY",), W_=10, **shooter_kw):
    sh = unit("sh", model((10, 10), list(WEAPONS)), **shooter_kw)
    t = unit("t", model((10, 20), ["knife"], W=W_, Sv=7, base_mm=60), keywords=target_kw)
    return scenario(WEAPONS, [sh], [t])


def fire(sp, name, rolls, answer=None, before=None):
    with Battle(sp, dice=ForcedDice(rolls)) as b:
        if before:
            before(b)
        b.run_command(Shoot("sh", (Selection("sh/1", name, "t"),)), answer=answer)
        assert b.dice.remaining == 0
        return (of_type(b, "pool")[0], of_type(b, "hit rolls")[0],
                (of_type(b, "wound rolls") or [None])[0], wounds(b, "t/1"), b.events)


# --- SUSTAINED HITS -------------------------------------------------------------------------


def test_24_36_sustained_hits_2_critical_gives_three_hits():
    # hit [6, 2]: 1 critical + 2 extra = 3 hits; wounds [4, 4, 4]; saves [1, 1, 1] (Sv 7: saves
    # are always rolled, 05.03 FAQ)
    pool, hits, wr, left, _ = fire(spec(), "burst gun", [6, 2, 4, 4, 4, 1, 1, 1])
    assert pool["abilities"] == ["SUSTAINED HITS 2"]
    assert (hits["hits"], hits["criticals"], hits["sustained"]) == (3, 1, 2)
    assert wr["rolls"] == [4, 4, 4] and left == 7


# --- LETHAL HITS ----------------------------------------------------------------------------


def test_24_23_lethal_hits_critical_wounds_automatically_default_taken():
    # hit [6, 3]: the 6 wounds automatically; the 3 rolls to wound (1 fails); no decision asked
    pool, hits, wr, left, events = fire(spec(), "needle gun", [6, 3, 1, 1])
    assert hits["lethal"] == 1 and wr["rolls"] == [1] and (wr["auto"], wr["wounds"]) == (1, 1)
    assert not of_type_in(events, "decision") and left == 9


def test_24_23_lethal_and_sustained_same_critical_hit():
    """hit [6, 1]: the critical wounds automatically AND scores 1 sustained hit, which rolls to wound."""
    pool, hits, wr, left, _ = fire(spec(), "hunter gun", [6, 1, 5, 1, 1])
    assert (hits["criticals"], hits["sustained"], hits["lethal"], hits["hits"]) == (1, 1, 1, 2)
    assert wr["rolls"] == [5] and wr["wounds"] == 2 and left == 8


def test_24_23_lethal_with_devastating_is_a_decision_defaulting_to_decline():
    """With [DEVASTATING WOUNDS] the attacker is asked; the default declines (an auto-wound can never
    be a critical wound). Declined: the critical hit rolls to wound, a 6 -> 2 mortal wounds."""
    pool, hits, wr, left, events = fire(spec(), "ripper gun", [6, 6])
    (dec,) = of_type_in(events, "decision")
    assert (dec["kind"], dec["answer"]) == ("lethal_hits", "decline")
    assert hits["lethal"] == 0 and (wr["criticals"], wr["devastating"]) == (1, 1) and left == 8


def test_24_23_lethal_with_devastating_taken_goes_to_a_save():
    take = lambda r: "take" if r.kind == "lethal_hits" else r.default  # noqa: E731
    pool, hits, wr, left, events = fire(spec(), "ripper gun", [6, 1], answer=take)
    assert hits["lethal"] == 1 and wr["rolls"] == [] and wr["devastating"] == 0
    assert of_type_in(events, "save rolls")[0]["rolls"] == [1] and left == 8


# --- TORRENT ------------------------------------------------------------------------------------


def test_24_37_torrent_hits_automatically_never_critical():
    """BS6+ flamer with SUSTAINED 2 and LETHAL: 3 automatic hits, no hit dice, no criticals, so no
    extra hits and no automatic wounds; the first dice are wound rolls."""
    pool, hits, wr, left, events = fire(spec(), "flamer", [4, 4, 1, 1, 1])
    assert hits["auto"] and (hits["hits"], hits["criticals"]) == (3, 0)
    assert not [e for e in events if e["type"] == "dice" and e["purpose"] == "hit rolls"]
    assert wr["rolls"] == [4, 4, 1] and wr["auto"] == 0 and left == 8


# --- HEAVY ----------------------------------------------------------------------------------------


def test_24_16_heavy_plus_one_when_stationary():
    pool, hits, *_ = fire(spec(), "siege gun", [3, 1])
    assert HEAVY in pool["modifiers"] and pool["hit_mod"] == 1 and hits["hits"] == 1  # 3 + 1 >= 4


def test_24_16_heavy_moved_exactly_3_inches_still_applies():
    pool, *_ = fire(spec(moved=3.0), "siege gun", [3, 1])
    assert HEAVY in pool["modifiers"]


def test_24_16_heavy_moved_more_than_3_inches_no_bonus():
    pool, hits, *_ = fire(spec(moved=3.5), "siege gun", [3])
    assert HEAVY not in pool["modifiers"] and hits["hits"] == 0


def test_24_16_heavy_not_when_set_up_this_turn():
    def set_up(b):
        b._enter()
        W.unit_state(b.units["sh"]).set_up_this_turn = True
    pool, hits, *_ = fire(spec(), "siege gun", [3], before=set_up)
    assert HEAVY not in pool["modifiers"] and hits["hits"] == 0


def test_24_16_heavy_not_when_engaged():
    """An engaged VEHICLE firing its HEAVY gun with close-quarters shooting at the unit it is
    engaged with: no HEAVY bonus (the unit is engaged); the -1 for a non-CQ weapon (10.06)."""
    ws = {"siege gun": WEAPONS["siege gun"], "knife": WEAPONS["knife"]}
    tank = unit("tank", model((10, 10), ["siege gun"], W=12, T=9, base_mm=60), keywords=("VEHICLE",))
    foe = unit("foe", model((10, 12.6), ["knife"], W=5, Sv=7))
    sp = scenario(ws, [tank], [foe])
    with Battle(sp, dice=ForcedDice([5, 1])) as b:
        b.run_command(Shoot("tank", (Selection("tank/1", "siege gun", "foe"),), "close-quarters"))
        (pool,) = of_type(b, "pool")
        assert HEAVY not in pool["modifiers"] and pool["hit_mod"] == -1


# --- 24.01 conditional forms [X: KEYWORD] ----------------------------------------------------------


def test_24_01_sustained_hits_vehicle_only_against_vehicles():
    pool, hits, *_ = fire(spec(("VEHICLE",)), "tank burst", [6, 4, 4, 1, 1])
    assert pool["abilities"] == ["SUSTAINED HITS 1: VEHICLE"] and hits["sustained"] == 1
    pool, hits, *_ = fire(spec(("INFANTRY",)), "tank burst", [6, 4, 1])
    assert pool["abilities"] == [] and hits["sustained"] == 0 and hits["hits"] == 1


def test_24_01_lethal_hits_vehicle_only_against_vehicles():
    *_, left, _ = fire(spec(("VEHICLE",)), "tank needle", [6, 1])
    assert left == 9  # wounded automatically, no wound roll
    _p, hits, wr, left, _ = fire(spec(("INFANTRY",)), "tank needle", [6, 1])
    assert hits["lethal"] == 0 and wr["rolls"] == [1] and left == 10


def test_24_01_heavy_vehicle_only_against_vehicles():
    pool, *_ = fire(spec(("VEHICLE",)), "tank siege", [3, 1])
    assert HEAVY in pool["modifiers"]
    pool, hits, *_ = fire(spec(("INFANTRY",)), "tank siege", [2])  # misses with or without +1
    assert HEAVY not in pool["modifiers"]


def of_type_in(events, t):
    return [e for e in events if e["type"] == t]
