"""sim.plan.rule_effects in a battle, with forced dice: each kind of rule effect that acts in the
attack sequence reaches it (hit/BS/wound modifiers, A/S/AP/D, re-rolls of hits and wounds,
conferred weapon abilities; save and T modifiers, Damage taken, Feel No Pain and invulnerable
saves on the target's models), labelled with the rule's name; BEARER grants only for their
bearers, melee/ranged-only grants only for those attacks; pooling keeps equal keys together and
different effects apart; a rule named in a scenario file (``rules = [...]``) acts with its
choice in force. The records here are the test's own (given with _give), except the file's."""

from __future__ import annotations

import esper
import pytest
from oath_file import oath_file

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.components import UnitRules
from sim.rules.dice import ForcedDice
from sim.rules.effects import vocabulary as V
from sim.scenario.load import load_scenario
from sim.world import rule_effects as RE

WEAPONS = {
    "rifle": weapon(36, 1, 3, 4, 0, 1),
    "cannon": weapon(36, 1, 3, 4, -3, 2),
    "knife": weapon("melee", 1, 3, 4, 0, 1),
}


def rec(key, *grants, choice=None):
    return V.RuleRecord(key, (key.title(),), V.DATASHEET, "test rule", tuple(grants), choice=choice)


def grant(kind, stat="", value=0, which="", ability="", who=V.UNIT, when=V.ALWAYS):
    return V.Grant(V.Effect(kind, stat, value, which, ability), who, when)


def give(b, uid, *records, bearers=()):
    """Give a unit test-only records (as the scenario's ``rules`` would hold the table's)."""
    b._enter()
    u = b.units[uid]
    old = esper.try_component(u, UnitRules)
    held = (old.held if old else ()) + tuple(V.Held(r, bearers) for r in records)
    esper.add_component(u, UnitRules(held))
    b.resources.has_rules = True
    return u


def spec(n=1, Sv=7, W=5, T=4, target_weapons=("knife",)):
    sh = unit("sh", model(row(10, 10, n), ["rifle", "cannon", "knife"], W=10))
    t = unit("t", model((10, 30), list(target_weapons), W=W, Sv=Sv, T=T))
    return scenario(WEAPONS, [sh], [t])


def shoot(records, rolls, weapon_="rifle", target_records=(), n=1, bearers=(), **kw):
    b = Battle(spec(n=n, **kw), dice=ForcedDice(rolls))
    try:
        if records:
            give(b, "sh", *records, bearers=bearers)
        if target_records:
            give(b, "t", *target_records)
        b.run_command(Shoot("sh", tuple(Selection(f"sh/{i + 1}", weapon_, "t") for i in range(n))))
        assert b.dice.remaining == 0
    except BaseException:
        b.close()
        raise
    return b


def purposes(b):
    return [e["purpose"] for e in b.events if e["type"] == "dice"]


# --- the attacker's attacks ------------------------------------------------------------------------


def test_modify_hit_adds_a_labelled_hit_roll_modifier():
    with shoot([rec("sights", grant(V.MODIFY, "hit", 1))], [2, 4, 1]) as b:  # a 2 hits at +1 (BS3+)
        (pool,) = of_type(b, "pool")
        assert ["Sights", 1] in pool["modifiers"] and pool["hit_mod"] == 1
        assert pool["rules"] == [["Sights", "+1 to hit rolls"]]
        assert of_type(b, "hit rolls")[0]["hits"] == 1 and wounds(b, "t/1") == 4


def test_modify_hit_is_clamped_with_the_other_modifiers():
    recs = [rec("sights", grant(V.MODIFY, "hit", 1)), rec("scope", grant(V.MODIFY, "hit", 1))]
    with shoot(recs, [2, 1]) as b:  # +2 clamped to +1 (02.02.01): a 2 hits, a 1 fails to wound
        assert of_type(b, "pool")[0]["hit_mod"] == 1 and of_type(b, "hit rolls")[0]["hits"] == 1


def test_modify_bs_changes_the_characteristic_for_ranged_attacks_only():
    r = rec("eyes", grant(V.MODIFY, "BS", 1), grant(V.MODIFY, "WS", -1))
    with shoot([r], [2, 1]) as b:
        assert of_type(b, "pool")[0]["skill"] == 2 and of_type(b, "hit rolls")[0]["hits"] == 1


def test_modify_wound():
    with shoot([rec("venom", grant(V.MODIFY, "wound", 1))], [3, 3, 1]) as b:  # a 3 wounds T4 at +1
        assert of_type(b, "pool")[0]["wound_mod"] == 1 and wounds(b, "t/1") == 4


def test_modify_attacks_strength_ap_damage_change_the_weapon():
    r = rec("fury", grant(V.MODIFY, "A", 1), grant(V.MODIFY, "S", 4), grant(V.MODIFY, "AP", 1),
            grant(V.MODIFY, "D", 1))
    # 2 dice: hits 3, 3; S8 vs T4 wounds on 2+: 2, 2; AP-1 vs Sv3+: a 3 fails (3 - 1), a 4 saves
    with shoot([r], [3, 3, 2, 2, 3, 4], Sv=3) as b:
        (pool,) = of_type(b, "pool")
        assert (pool["dice"], pool["S"], pool["AP"], pool["D"]) == (2, 8, -1, "2")
        assert wounds(b, "t/1") == 3  # one unsaved attack, D 2
        assert ["Fury", "+1 to AP"] in pool["rules"]


def test_modify_ap_never_above_0_and_damage_never_below_1():
    r = rec("blunt", grant(V.MODIFY, "AP", -1), grant(V.MODIFY, "D", -3))
    with shoot([r], [3, 4, 2], Sv=3) as b:  # AP 0 stays 0, D 1 stays 1: a save of 2 fails
        (pool,) = of_type(b, "pool")
        assert (pool["AP"], pool["D"]) == (0, "1") and wounds(b, "t/1") == 4


def test_reroll_failed_hits():
    with shoot([rec("oath", grant(V.REROLL, "hit", which=V.FAILED))], [2, 5, 4, 1]) as b:
        hits = of_type(b, "hit rolls")[0]
        assert hits["rolls"] == [5] and hits["rerolled"] == [5] and hits["hits"] == 1
        assert "hit re-rolls (failed)" in purposes(b)


def test_reroll_any_hit_is_made_of_the_failed_ones():
    with shoot([rec("luck", grant(V.REROLL, "hit", which=V.ANY))], [4, 4, 1]) as b:  # a hit: no re-roll
        assert of_type(b, "hit rolls")[0]["rerolled"] == []


def test_reroll_wound_ones_and_failed():
    with shoot([rec("hate", grant(V.REROLL, "wound", which=V.ONES))], [3, 1, 4, 1]) as b:
        assert of_type(b, "wound rolls")[0]["rerolled"] == [4] and "wound re-rolls (1s)" in purposes(b)
    with shoot([rec("hate", grant(V.REROLL, "wound", which=V.FAILED))], [3, 3, 5, 1]) as b:
        assert of_type(b, "wound rolls")[0]["rerolled"] == [5] and "wound re-rolls (failed)" in purposes(b)


def test_no_hit_rerolls_under_snap_shooting_but_the_wound_modifier_stays():
    from sim.rules.sequence import PoolState, hit_reroll_faces
    p = PoolState(1, 3, 4, 0, None, 4, snap=True, reroll_hit_failed=True)
    assert hit_reroll_faces(p) == frozenset()


@pytest.mark.parametrize("ability, rolls, check", [
    ("LETHAL HITS", [6, 1], lambda b: of_type(b, "wound rolls")[0]["auto"] == 1),
    ("SUSTAINED HITS 1", [6, 1, 1], lambda b: of_type(b, "hit rolls")[0]["hits"] == 2),
    ("DEVASTATING WOUNDS", [3, 6], lambda b: of_type(b, "damage")[0]["steps"][0]["source"] == "devastating wounds"),
    ("ANTI-INFANTRY 4+", [3, 4, 1], lambda b: of_type(b, "wound rolls")[0]["criticals"] == 1),
])
def test_weapon_ability_is_conferred_and_its_record_acts(ability, rolls, check):
    with shoot([rec("gift", grant(V.WEAPON_ABILITY, ability=ability))], rolls) as b:
        assert ability in of_type(b, "pool")[0]["abilities"]
        assert check(b)


def test_weapon_ability_lance_gives_its_modifier_after_a_charge():
    a = unit("a", model((10, 10), ["knife"]))
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7))
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice([3, 3, 1])) as b:
        give(b, "a", rec("spear", grant(V.WEAPON_ABILITY, ability="LANCE", when=V.When(attacks="melee"))))
        from sim.world import queries as Q
        Q.unit_state(b.units["a"]).charged = True
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))
        pool = of_type(b, "pool")[0]
        assert "LANCE" in pool["abilities"] and pool["wound_mod"] == 1 and wounds(b, "t/1") == 4


def test_a_melee_grant_does_not_act_on_ranged_attacks():
    with shoot([rec("brawl", grant(V.MODIFY, "hit", 1, when=V.When(attacks="melee")))], [2]) as b:
        (pool,) = of_type(b, "pool")
        assert pool["hit_mod"] == 0 and "rules" not in pool


def test_a_bearer_grant_acts_for_its_bearer_only_and_pools_apart():
    r = rec("eye", grant(V.MODIFY, "hit", 1, who=V.BEARER))
    with shoot([r], [2, 2, 1], n=2, bearers=("sh/1",)) as b:  # sh/1's 2 hits (+1), sh/2's 2 misses
        pools = of_type(b, "pool")
        assert [(p["attackers"], p["hit_mod"]) for p in pools] == [(["sh/1"], 1), (["sh/2"], 0)]


def test_equal_effects_pool_together():
    with shoot([rec("sights", grant(V.MODIFY, "hit", 1))], [2, 2, 1, 1], n=2) as b:
        (pool,) = of_type(b, "pool")
        assert pool["attackers"] == ["sh/1", "sh/2"] and pool["dice"] == 2


# --- the target's models ---------------------------------------------------------------------------


def test_modify_save_on_the_target():
    with shoot([], [3, 4, 3], Sv=4, target_records=[rec("smoke", grant(V.MODIFY, "save", 1))]) as b:
        step = of_type(b, "damage")[0]["steps"][0]
        assert step["saved"] and step["save_mod"] == 1
        assert of_type(b, "pool")[0]["target_rules"] == [["Smoke", "+1 to save rolls"]]


def test_modify_toughness_on_the_target():
    with shoot([], [3, 5], target_records=[rec("hide", grant(V.MODIFY, "T", 4))]) as b:  # S4 vs T8: 6+
        assert of_type(b, "pool")[0]["T"] == 8 and of_type(b, "wound rolls")[0]["wounds"] == 0


def test_damage_taken_lowers_damage_never_below_1():
    r = rec("tough", grant(V.MODIFY, "damage taken", -1))
    with shoot([], [3, 4, 1], weapon_="cannon", target_records=[r]) as b:  # D2 -> 1
        step = of_type(b, "damage")[0]["steps"][0]
        assert (step["damage"], step["taken"], step["lost"]) == (1, -1, 1) and wounds(b, "t/1") == 4
    r = rec("tough", grant(V.MODIFY, "damage taken", -2))
    with shoot([], [3, 4, 1], weapon_="cannon", target_records=[r]) as b:
        assert of_type(b, "damage")[0]["steps"][0]["damage"] == 1


def test_feel_no_pain_granted_and_the_best_counts():
    r = rec("grit", V.Grant(V.Effect(V.FEEL_NO_PAIN, value=5)))
    with shoot([], [3, 4, 1, 5, 4], weapon_="cannon", target_records=[r]) as b:  # D2: FNP 5 saves one
        step = of_type(b, "damage")[0]["steps"][0]
        assert step["fnp"] == [5, 4] and step["lost"] == 1


def test_invulnerable_granted_only_while_its_choice_is_in_force():
    shield = rec("ward", V.Grant(V.Effect(V.INVULNERABLE, value=4), when=V.When(conditions=((V.CHOSEN, None),))),
                 choice=V.RuleChoice(V.CALL, "command", "raise the ward?"))
    with shoot([], [3, 4, 4], weapon_="cannon", Sv=3, target_records=[shield]) as b:  # AP-3: a 4 fails
        assert not of_type(b, "damage")[0]["steps"][0]["saved"]
    b = Battle(spec(Sv=3), dice=ForcedDice([3, 4, 4]))
    with b:
        give(b, "t", shield)
        b.resources.rule_choices[RE.choice_key(1, "ward", "t")] = {"value": True, "round": 1, "player": 1}
        b.run_command(Shoot("sh", (Selection("sh/1", "cannon", "t"),)))
        step = of_type(b, "damage")[0]["steps"][0]
        assert step["saved"] and step["invulnerable"]


# --- a scenario file naming a rule -------------------------------------------------------------------

FILE = oath_file(A=1, W=5)


def test_a_rule_named_in_a_scenario_file_acts_with_its_choice(tmp_path):
    path = tmp_path / "oath.toml"
    path.write_text(FILE)
    with Battle(load_scenario(path), dice=ForcedDice([2, 1])) as b:  # no target picked: no re-roll
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        assert "rules" not in of_type(b, "pool")[0]
    with Battle(load_scenario(path), dice=ForcedDice([2, 3, 4, 1])) as b:
        b.resources.rule_choices[RE.choice_key(0, "oath-of-moment")] = {"value": "t", "round": 1, "player": 0}
        b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
        assert of_type(b, "pool")[0]["rules"] == [["Oath of Moment", "re-roll hit rolls"]]
        assert of_type(b, "hit rolls")[0]["rerolled"] == [3] and wounds(b, "t/1") == 4
        assert b.dice.remaining == 0


def test_weapon_ability_ignores_cover_takes_the_benefit_of_cover_away():
    sh = unit("sh", model((10, 10), ["rifle"], W=10))
    t = unit("t", model((10, 30), ["knife"], W=5, Sv=7), abilities="Stealth")
    for gift, skill in (((), 4), ((rec("flare", grant(V.WEAPON_ABILITY, ability="IGNORES COVER")),), 3)):
        with Battle(scenario(WEAPONS, [sh], [t]), dice=ForcedDice([1])) as b:
            if gift:
                give(b, "sh", *gift)
            b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
            pool = of_type(b, "pool")[0]
            assert pool["skill"] == skill
            assert (["benefit of cover (13.08)", -1] in pool["modifiers"]) == (not gift)


def test_weapon_ability_heavy_gives_its_modifier_to_a_stationary_unit():
    with shoot([rec("brace", grant(V.WEAPON_ABILITY, ability="HEAVY"))], [2, 1]) as b:
        pool = of_type(b, "pool")[0]
        assert "HEAVY" in pool["abilities"] and pool["hit_mod"] == 1 and of_type(b, "hit rolls")[0]["hits"] == 1


def test_reroll_saves_ones_and_failed_on_the_target():
    r1 = rec("faith", grant(V.REROLL, "save", which=V.ONES))
    with shoot([], [3, 4, 1, 5], Sv=4, target_records=[r1]) as b:  # the 1 re-rolled to 5: saved
        saves = of_type(b, "save rolls")[0]
        assert saves["rolls"] == [5] and saves["rerolled"] == [5] and of_type(b, "damage")[0]["steps"][0]["saved"]
        assert "save re-rolls" in purposes(b)
    rf = rec("faith", grant(V.REROLL, "save", which=V.FAILED))
    with shoot([], [3, 4, 3, 2], Sv=4, target_records=[rf]) as b:  # the 3 re-rolled to 2: fails
        assert of_type(b, "save rolls")[0]["rerolled"] == [2] and wounds(b, "t/1") == 4
    with shoot([], [3, 4, 4], Sv=4, target_records=[rf]) as b:  # a 4 saves: no re-roll
        assert of_type(b, "save rolls")[0]["rerolled"] == []
