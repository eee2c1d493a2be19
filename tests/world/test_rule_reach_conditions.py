"""sim.world.rule_effects reads the later conditions off the world: "below starting strength"
(01.02.01: a model lost; a single model: a wound lost), "led" (an attached unit with a leader,
19.01) and "target lacks keyword" (judged against the other unit of an attack)."""

import esper
from scen import model, row, unit, weapon

from sim.battle import Battle
from sim.components import UnitRules, Wounds
from sim.rules.effects import vocabulary as V
from sim.scenario.load import parse_scenario
from sim.world import rule_effects as RE
from sim.world.mutations import mark_destroyed

W = {"gun": weapon(24, 1, 3, 4, 0, 1)}
HIT = V.Effect(V.MODIFY, "hit", 1)


def _battle(army0, army1):
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": W,
            "armies": [{"name": "A", "units": army0}, {"name": "B", "units": army1}]}
    return Battle(parse_scenario(data, "t.toml"))


def _give(b, uid, *records):
    b._enter()
    u = b.units[uid]
    esper.add_component(u, UnitRules(tuple(V.Held(r) for r in records)))
    b.resources.has_rules = True
    return u


def _rec(key, *conds):
    return V.RuleRecord(key, (key.title(),), V.DATASHEET, "test rule", (V.Grant(HIT, when=V.When(conditions=conds)),))


def _keys(b, u, other=None):
    return [a.held.record.key for a in RE.acting(b, u, (V.MODIFY,), other=other)]


def test_below_starting_strength_once_a_model_is_lost_before_half():
    r = _rec("martyr", (V.BELOW_STARTING, None))
    with _battle([unit("a", model(row(10, 10, 4), ["gun"]))], [unit("b", model((10, 30), ["gun"], W=5))]) as b:
        u = _give(b, "a", r)
        assert _keys(b, u) == []
        esper.component_for_entity(b.models["a/1"], Wounds).remaining = 0
        mark_destroyed(b.models["a/1"], "test")
        assert _keys(b, u) == ["martyr"]  # 3 of 4: below starting strength, not below half
        single = _give(b, "b", r)
        assert _keys(b, single) == []
        esper.component_for_entity(b.models["b/1"], Wounds).remaining = 4  # a single model: a wound lost
        assert _keys(b, single) == ["martyr"]


def test_led_only_an_attached_unit_with_a_leader():
    r = _rec("protocols", (V.LED, None))
    led = unit("a", model((10, 10), ["gun"], role="leader"), model(row(12, 10, 2), ["gun"]))
    with _battle([led, unit("c", model(row(30, 10, 2), ["gun"]))], [unit("b", model((10, 30), ["gun"]))]) as b:
        assert _keys(b, _give(b, "a", r)) == ["protocols"]
        assert _keys(b, _give(b, "c", r)) == []


def test_target_lacks_keyword_is_judged_against_the_other_unit():
    r = _rec("thin", (V.NOT_TARGET_KEYWORD, "MONSTER"))
    with _battle([unit("a", model((10, 10), ["gun"]))],
                 [unit("b", model((10, 30), ["gun"])), unit("m", model((30, 30), ["gun"]), keywords=("MONSTER",))]) as b:
        u = _give(b, "a", r)
        assert _keys(b, u, b.units["b"]) == ["thin"]
        assert _keys(b, u, b.units["m"]) == []
        assert _keys(b, u) == []  # (no other unit: nothing to lack it)


def test_target_on_objective_reads_the_other_units_models():
    from phased import mission_scenario
    r = _rec("saturate", (V.TARGET_ON_OBJECTIVE, None))
    red = [unit("a", model((10, 10), ["gun"]))]
    blue = [unit("b", model((30, 30), ["gun"])), unit("c", model((50, 30), ["gun"]))]
    with Battle(mission_scenario(red, blue, weapons=W, objectives=[{"name": "o1", "at": [30, 31], "kind": "central"}])) as b:
        u = _give(b, "a", r)
        assert _keys(b, u, b.units["b"]) == ["saturate"]
        assert _keys(b, u, b.units["c"]) == []
        assert _keys(b, u) == []
