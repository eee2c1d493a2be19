"""sim.world.rule_effects: which grants of rules reach a unit (its own, friendly auras within
range of a bearer, enemy auras), when they act (their conditions read off the world: charged,
below half-strength, the rule's choice), and a battle without rules answering nothing."""

import esper
import pytest
from scen import model, row, unit, weapon

from sim.battle import Battle
from sim.components import UnitRules, Wounds
from sim.rules.effects import vocabulary as V
from sim.scenario.load import parse_scenario
from sim.world import queries as Q
from sim.world import rule_effects as RE
from sim.world.mutations import mark_destroyed

W = {"gun": weapon(24, 1, 3, 4, 0, 1)}
HIT = V.Effect(V.MODIFY, "hit", 1)


def _battle(army0, army1, rules0=(), rules1=()):
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "units": army0, "rules": list(rules0)},
                       {"name": "B", "units": army1, "rules": list(rules1)}]}
    return Battle(parse_scenario(data, "t.toml"))


def _give(b, uid, *records, bearers=()):
    """Give a unit test-only records (the table's records are the project's; these are the test's)."""
    b._enter()
    u = b.units[uid]
    old = esper.try_component(u, UnitRules)
    held = (old.held if old else ()) + tuple(V.Held(r, bearers) for r in records)
    esper.add_component(u, UnitRules(held))
    b.resources.has_rules = True
    return u


def _rec(key, *grants, choice=None):
    return V.RuleRecord(key, (key.title(),), V.DATASHEET, "test rule", grants, choice=choice)


def test_a_battle_without_rules_reaches_nothing():
    with _battle([unit("a", model(row(10, 10, 2), ["gun"]))], [unit("b", model(row(10, 30, 2), ["gun"]))]) as b:
        b._enter()
        assert not RE.any_rules()
        assert RE.reaching(b.units["a"]) == []
        assert RE.acting(b, b.units["a"], V.KINDS) == []


def test_army_rules_are_held_by_every_unit_of_that_army_only():
    with _battle([unit("a", model(row(10, 10, 2), ["gun"])), unit("a2", model(row(20, 10, 1), ["gun"]))],
                 [unit("b", model(row(10, 30, 2), ["gun"]))], rules0=["Reanimation Protocols"]) as b:
        b._enter()
        assert RE.any_rules()
        assert [h.record.key for h in RE.held_by(b.units["a"])] == ["reanimation-protocols"]
        assert [h.record.key for h in RE.held_by(b.units["a2"])] == ["reanimation-protocols"]
        assert RE.held_by(b.units["b"]) == ()


def test_model_rules_name_their_bearers_and_every_model_means_the_unit():
    a = unit("a", model(row(10, 10, 1), ["gun"], ids=["a/cap"]), model(row(12, 10, 2), ["gun"]))
    a["models"][0]["rules"] = ["Oath of Moment"]
    c = unit("c", model(row(30, 10, 2), ["gun"]), rules=["Oath of Moment"])
    with _battle([a, c], [unit("b", model(row(10, 30, 2), ["gun"]))]) as b:
        b._enter()
        assert [(h.record.key, h.bearers) for h in RE.held_by(b.units["a"])] == [("oath-of-moment", ("a/cap",))]
        assert [(h.record.key, h.bearers) for h in RE.held_by(b.units["c"])] == [("oath-of-moment", ())]


def test_an_aura_reaches_friendly_units_within_range_of_a_bearer_and_keywords_narrow_it():
    aura = _rec("banner", V.Grant(HIT, V.AURA, range=6, keywords=("INFANTRY",)))
    near, far = unit("near", model(row(16, 10, 1), ["gun"])), unit("far", model(row(30, 10, 1), ["gun"]))
    tank = unit("tank", model(row(10, 14, 1), ["gun"]), keywords=("VEHICLE",))
    with _battle([unit("src", model(row(10, 10, 1), ["gun"])), near, far, tank],
                 [unit("foe", model(row(12, 12, 1), ["gun"]))]) as b:
        _give(b, "src", aura)
        got = {uid: [a.held.record.key for a in RE.reaching(b.units[uid])] for uid in ("src", "near", "far", "tank", "foe")}
        assert got == {"src": ["banner"], "near": ["banner"], "far": [], "tank": [], "foe": []}


def test_an_enemy_aura_reaches_enemies_within_range_only():
    dread = _rec("dread", V.Grant(V.Effect(V.MODIFY, "Ld", -1), V.ENEMY_AURA, range=6))
    with _battle([unit("src", model(row(10, 10, 1), ["gun"]))],
                 [unit("close", model(row(10, 15, 1), ["gun"])), unit("away", model(row(40, 30, 1), ["gun"]))]) as b:
        _give(b, "src", dread)
        assert [a.held.record.key for a in RE.reaching(b.units["close"])] == ["dread"]
        assert RE.reaching(b.units["away"]) == []
        assert RE.reaching(b.units["src"]) == []  # (an enemy aura never reaches its own side)


def test_acting_reads_conditions_off_the_world():
    charged = _rec("fury", V.Grant(HIT, when=V.When(conditions=((V.CHARGED, None),))))
    half = _rec("grit", V.Grant(V.Effect(V.FEEL_NO_PAIN, value=5), when=V.When(conditions=((V.BELOW_HALF, None),))))
    with _battle([unit("a", model(row(10, 10, 3), ["gun"]))], [unit("b", model(row(10, 30, 1), ["gun"]))]) as b:
        u = _give(b, "a", charged, half)
        assert RE.acting(b, u, (V.MODIFY, V.FEEL_NO_PAIN)) == []
        Q.unit_state(u).charged = True
        assert [a.held.record.key for a in RE.acting(b, u, (V.MODIFY,))] == ["fury"]
        for mid in ("a/1", "a/2"):
            esper.component_for_entity(b.models[mid], Wounds).remaining = 0
            mark_destroyed(b.models[mid], "test")
        assert [a.held.record.key for a in RE.acting(b, u, (V.FEEL_NO_PAIN,))] == ["grit"]
        why = {h.record.key: w for h, g, w in RE.explain(b, u)}
        assert why == {"fury": None, "grit": None}


def test_a_choice_in_force_makes_its_grants_act_for_its_player_only():
    oath = _rec("mark", V.Grant(V.Effect(V.REROLL, "hit", which=V.FAILED),
                                when=V.When(conditions=((V.TARGET_CHOSEN, None),))),
                choice=V.RuleChoice(V.PICK_ENEMY, "command", "pick"))
    with _battle([unit("a", model(row(10, 10, 1), ["gun"]))],
                 [unit("b", model(row(10, 30, 1), ["gun"])), unit("c", model(row(30, 30, 1), ["gun"]))]) as b:
        u = _give(b, "a", oath)
        assert RE.acting(b, u, (V.REROLL,), other=b.units["b"]) == []
        b.resources.rule_choices[RE.choice_key(0, "mark", "a")] = {"value": "b", "round": 1, "player": 0}
        assert len(RE.acting(b, u, (V.REROLL,), other=b.units["b"])) == 1
        assert RE.acting(b, u, (V.REROLL,), other=b.units["c"]) == []
        assert RE.choice_of(1, "mark", "a") is None and RE.choice_of(0, "mark") is None


def test_two_units_with_one_datasheet_ability_call_it_and_use_it_apart():
    """A datasheet ability's choice and uses are its holding unit's own (scope_of), an army
    rule's the army's: one unit's call gives the other nothing."""
    might = _rec("might", V.Grant(V.Effect(V.MODIFY, "A", 3), when=V.When(conditions=((V.CHOSEN, None),))),
                 choice=V.RuleChoice(V.CALL, "fight", "call it?", uses=1))
    with _battle([unit("k1", model(row(10, 10, 1), ["gun"])), unit("k2", model(row(30, 10, 1), ["gun"]))],
                 [unit("b", model(row(10, 30, 1), ["gun"]))]) as b:
        k1, k2 = _give(b, "k1", might), _give(b, "k2", might)
        assert RE.scope_of(might, k1) == "k1" and RE.choice_key(0, "might", "k1") == "red:might@k1"
        b.resources.rule_choices[RE.choice_key(0, "might", "k1")] = {"value": True, "round": 1, "player": 0}
        assert len(RE.acting(b, k1, (V.MODIFY,))) == 1 and RE.acting(b, k2, (V.MODIFY,)) == []
        oath = RE.held_by(k1)  # (an army rule's scope is the army's)
        assert all(RE.scope_of(h.record, k1) == "" for h in oath if h.record.source != V.DATASHEET)


def test_a_choice_made_enters_the_state_hash_and_none_made_leaves_it_unchanged():
    with _battle([unit("a", model(row(10, 10, 1), ["gun"]))], [unit("b", model(row(10, 30, 1), ["gun"]))],
                 rules0=["Waaagh!"]) as b:
        before = b.state_hash()
        b.resources.rule_choices[RE.choice_key(0, "waaagh")] = {"value": True, "round": 1, "player": 0}
        assert b.state_hash() != before


@pytest.mark.parametrize("rules", [["No Such Rule"], [3]])
def test_loader_refuses_a_rule_it_does_not_model(rules):
    from sim.errors import ScenarioError
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "units": [unit("a", model(row(10, 10, 1), ["gun"]), rules=rules)]},
                       {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t.toml")
    assert "rules" in str(e.value)


def test_a_scenario_sets_choices_in_force_as_the_battle_starts():
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "rules": ["Waaagh!", "Oath of Moment"],
                        "chosen": {"Waaagh!": True, "oath-of-moment": "b"},
                        "units": [unit("a", model(row(10, 10, 1), ["gun"]))]},
                       {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
    spec = parse_scenario(data, "t.toml")
    assert spec.armies[0].chosen == (("waaagh", True), ("oath-of-moment", "b"))
    with Battle(spec) as b:
        b._enter()
        assert RE.choice_of(0, "waaagh") is True and RE.choice_of(0, "oath-of-moment") == "b"
        assert len(RE.acting(b, b.units["a"], (V.REROLL,), other=b.units["b"])) == 1


def test_a_scenario_sets_an_option_in_force_and_only_its_grants_act():
    for stance, ability in (("Rendax Stance", "LETHAL HITS"), ("Dacatarai Stance", "SUSTAINED HITS 1")):
        data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
                "armies": [{"name": "A", "rules": ["Martial Ka'tah"], "chosen": {"Martial Ka'tah": stance},
                            "units": [unit("a", model(row(10, 10, 1), ["gun"]))]},
                           {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
        with Battle(parse_scenario(data, "t.toml")) as b:
            b._enter()
            acts = RE.acting(b, b.units["a"], (V.WEAPON_ABILITY,), attack="melee", other=b.units["b"])
            assert [a.grant.what.ability for a in acts] == [ability]


@pytest.mark.parametrize("chosen, found", [
    ({"Reanimation Protocols": True}, "a rule with a choice"),  # (held, but asks no choice)
    ({"Waaagh!": "b"}, "true (the rule is called)"),
    ({"Oath of Moment": "a"}, "the id of an enemy unit"),
    ({"Shadow of Nothing": True}, "a rule with a choice"),
    ({"Martial Ka'tah": "Sword Stance"}, "one of the rule's options (Dacatarai Stance, Rendax Stance)"),
])
def test_a_scenario_choice_must_fit_its_rule(chosen, found):
    from sim.errors import ScenarioError
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "rules": ["Waaagh!", "Oath of Moment", "Reanimation Protocols", "martial-katah"],
                        "chosen": chosen, "units": [unit("a", model(row(10, 10, 1), ["gun"]))]},
                       {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t.toml")
    assert found in str(e.value)


def test_a_rule_its_bearer_carries_ends_with_the_bearer():
    """A leader's rule (held by its model only) no longer reaches its unit once the leader is
    destroyed; nor does 'leading' hold then."""
    fury = _rec("fury-of-the-boss", V.Grant(HIT), V.Grant(V.Effect(V.MODIFY, "A", 1), when=V.When(
        conditions=((V.LEADING, None),))))
    a = unit("a", model(row(10, 10, 1), ["gun"], ids=["a/boss"], role="leader"), model(row(12, 10, 2), ["gun"]))
    with _battle([a], [unit("b", model(row(10, 30, 1), ["gun"]))]) as b:
        u = _give(b, "a", fury, bearers=("a/boss",))
        assert len(RE.acting(b, u, (V.MODIFY,))) == 2
        esper.component_for_entity(b.models["a/boss"], Wounds).remaining = 0
        mark_destroyed(b.models["a/boss"], "test")
        assert RE.reaching(u) == [] and RE.acting(b, u, (V.MODIFY,)) == []


def test_a_scenario_choice_of_a_once_per_battle_call_is_its_use():
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "rules": ["Waaagh!"], "chosen": {"Waaagh!": True},
                        "units": [unit("a", model(row(10, 10, 1), ["gun"]))]},
                       {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
    with Battle(parse_scenario(data, "t.toml")) as b:
        assert b.resources.rule_uses == {RE.choice_key(0, "waaagh"): 1}


def test_a_name_several_rules_print_is_refused_naming_their_keys():
    from sim.errors import ScenarioError
    from sim.rules.effects import table
    several = [n for r in table.records() for n in r.names if len(table.named(n)) > 1]
    assert several  # (the table has such names: one per faction or option)
    name = several[0]
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "units": [unit("a", model(row(10, 10, 1), ["gun"]), rules=[name])]},
                       {"name": "B", "units": [unit("b", model(row(10, 30, 1), ["gun"]))]}]}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t.toml")
    assert all(r.key in str(e.value) for r in table.named(name))
    data["armies"][0]["units"][0]["rules"] = [table.named(name)[1].key]
    assert parse_scenario(data, "t.toml").units[0].models[0].rules == (table.named(name)[1].key,)


def test_reaching_reads_a_chosen_friend_pick_changed_while_nothing_moves():
    """What reaching reads of where models stand is kept while nothing moves (sim.world.
    rule_effects._reach); a chosen friend's pick is read on every call: a pick changed between two
    calls, no model moved, reaches the unit now picked and no longer the one picked before, and a
    list of picks (PICK_FRIENDS) reaches each unit in it."""
    aid = _rec("aid", V.Grant(HIT, V.CHOSEN_FRIEND), choice=V.RuleChoice(V.PICK_FRIEND, "command", "pick"))
    with _battle([unit("src", model(row(10, 10, 1), ["gun"])), unit("x", model(row(20, 10, 1), ["gun"])),
                  unit("y", model(row(30, 10, 1), ["gun"]))], [unit("foe", model(row(10, 30, 1), ["gun"]))]) as b:
        src = _give(b, "src", aid)
        x, y = b.units["x"], b.units["y"]
        version = Q.spatial().version
        assert RE.reaching(x) == [] and RE.reaching(y) == []
        picks = b.resources.rule_choices
        picks[RE.choice_key(0, "aid", "src")] = {"value": "x", "round": 1, "player": 0}
        assert [a.holder for a in RE.reaching(x)] == [src] and RE.reaching(y) == []
        picks[RE.choice_key(0, "aid", "src")] = {"value": "y", "round": 1, "player": 0}
        assert RE.reaching(x) == [] and [a.holder for a in RE.reaching(y)] == [src]
        picks[RE.choice_key(0, "aid", "src")] = {"value": ["x", "y"], "round": 1, "player": 0}
        assert [a.holder for a in RE.reaching(x)] == [src] == [a.holder for a in RE.reaching(y)]
        del picks[RE.choice_key(0, "aid", "src")]
        assert RE.reaching(x) == [] and RE.reaching(y) == []
        assert RE.reaching(b.units["foe"]) == []  # (a friend's rule: never an enemy)
        assert Q.spatial().version == version  # (nothing moved: the kept readings stood throughout)
