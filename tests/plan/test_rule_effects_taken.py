"""What an attack takes from the rules of the unit it targets (sim.plan.rule_effects._attacked,
sim.rules.effects.attack.attacked_takes), with forced dice: "hit taken" / "wound taken" join the
attacker's hit / wound modifiers, labelled and netted and clamped with them (02.02.01); "AP
taken" and a worse Save characteristic change the attack's AP; a BEARER one only when every
living model of the target is its bearer; melee-only ones not for shooting."""

from __future__ import annotations

import esper

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Fight, Selection, Shoot
from sim.components import UnitRules
from sim.rules.dice import ForcedDice
from sim.rules.effects import vocabulary as V

WEAPONS = {"rifle": weapon(36, 1, 3, 4, 0, 1), "knife": weapon("melee", 1, 3, 4, 0, 1)}


def rec(key, *grants):
    return V.RuleRecord(key, (key.title(),), V.DATASHEET, "test rule", tuple(grants))


def grant(stat, value, who=V.UNIT, when=V.ALWAYS):
    return V.Grant(V.Effect(V.MODIFY, stat, value), who, when)


def give(b, uid, *records, bearers=()):
    b._enter()
    u = b.units[uid]
    old = esper.try_component(u, UnitRules)
    esper.add_component(u, UnitRules((old.held if old else ()) + tuple(V.Held(r, bearers) for r in records)))
    b.resources.has_rules = True


def shoot(rolls, mine=(), theirs=(), Sv=7, n_target=1, bearers=()):
    sh = unit("sh", model((10, 10), ["rifle"], W=10))
    t = unit("t", model(row(10, 30, n_target), ["knife"], W=5, Sv=Sv))
    b = Battle(scenario(WEAPONS, [sh], [t]), dice=ForcedDice(rolls))
    if mine:
        give(b, "sh", *mine)
    if theirs:
        give(b, "t", *theirs, bearers=bearers)
    b.run_command(Shoot("sh", (Selection("sh/1", "rifle", "t"),)))
    assert b.dice.remaining == 0
    return b


def test_hit_taken_is_a_labelled_hit_modifier_of_the_attack():
    with shoot([3], theirs=[rec("blur", grant("hit taken", -1))]) as b:  # a 3 misses at -1 (BS3+)
        (pool,) = of_type(b, "pool")
        assert ["Blur", -1] in pool["modifiers"] and pool["hit_mod"] == -1
        assert ["Blur", "-1 to hit rolls of attacks that target it"] in pool["rules"]
        assert of_type(b, "hit rolls")[0]["hits"] == 0 and wounds(b, "t/1") == 5
    with shoot([4, 4, 1]) as b:  # (without the rule a 4 hits and wounds)
        assert wounds(b, "t/1") == 4


def test_hit_taken_nets_with_the_attackers_own_modifiers():
    """+1 of the attacker and -1 at the target net to 0: a 3 hits."""
    with shoot([3, 4, 1], mine=[rec("sights", grant("hit", 1))], theirs=[rec("blur", grant("hit taken", -1))]) as b:
        assert of_type(b, "pool")[0]["hit_mod"] == 0 and wounds(b, "t/1") == 4


def test_hit_taken_is_clamped_with_the_others():
    """-1 and -1 at the target clamp to -1 (02.02.01): a 4 still hits."""
    recs = [rec("blur", grant("hit taken", -1)), rec("haze", grant("hit taken", -1))]
    with shoot([4, 4, 1], theirs=recs) as b:
        assert of_type(b, "pool")[0]["hit_mod"] == -1 and wounds(b, "t/1") == 4


def test_wound_taken():
    with shoot([3, 4], theirs=[rec("hide", grant("wound taken", -1))]) as b:  # a 4 fails to wound T4 at -1
        assert of_type(b, "pool")[0]["wound_mod"] == -1 and wounds(b, "t/1") == 5
    with shoot([3, 5, 1], theirs=[rec("hide", grant("wound taken", -1))]) as b:
        assert wounds(b, "t/1") == 4


def test_ap_taken_and_a_worse_save_improve_the_attacks_ap():
    for r in (rec("unravel", grant("AP taken", 1)), rec("ague", grant("Sv", -1))):
        with shoot([3, 4, 3], theirs=[r], Sv=3) as b:  # AP -1 vs Sv3+: a save of 3 fails
            assert of_type(b, "pool")[0]["AP"] == -1 and wounds(b, "t/1") == 4


def test_a_melee_only_taken_modifier_does_not_act_on_shooting():
    with shoot([3, 4, 1], theirs=[rec("parry", grant("hit taken", -1, when=V.When(attacks="melee")))]) as b:
        assert of_type(b, "pool")[0]["hit_mod"] == 0 and wounds(b, "t/1") == 4


def test_a_melee_taken_modifier_acts_in_the_fight():
    a = unit("a", model((10, 10), ["knife"]))
    t = unit("t", model((10, 11.6), ["knife"], W=5, Sv=7))
    with Battle(scenario(WEAPONS, [a], [t]), dice=ForcedDice([3])) as b:
        give(b, "t", rec("parry", grant("hit taken", -1, when=V.When(attacks="melee"))))
        b.run_command(Fight("a", (Selection("a/1", "knife", "t"),)))
        assert of_type(b, "pool")[0]["hit_mod"] == -1 and of_type(b, "hit rolls")[0]["hits"] == 0


def test_a_bearer_taken_modifier_only_when_every_living_model_is_a_bearer():
    r = rec("glamour", grant("hit taken", -1, who=V.BEARER))
    with shoot([3], theirs=[r], bearers=("t/1",)) as b:  # one model, the bearer: -1
        assert of_type(b, "pool")[0]["hit_mod"] == -1
    with shoot([3, 4, 1], theirs=[r], n_target=2, bearers=("t/1",)) as b:  # a unit of two: not at it
        assert of_type(b, "pool")[0]["hit_mod"] == 0
