"""Rule records of our own invention for the tests of sim.phases.rule_effects: one effect each,
added to the rules table for the test that asks (``with_test_records``)."""

from __future__ import annotations

import pytest

from sim.rules.abilities.value import norm
from sim.rules.dice import DiceExpr
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V


def _rec(key, *grants, choice=None):
    return V.RuleRecord(key, (key.replace("-", " ").title(),), V.DATASHEET, f"{key}: a test rule.", grants=grants,
                        choice=choice)


def _g(effect, who=V.UNIT, when=V.ALWAYS, **kw):
    return V.Grant(effect, who, when, **kw)


RECORDS = (
    _rec("test-swift", _g(V.Effect(V.MODIFY, "M", 2)), _g(V.Effect(V.MODIFY, "advance", 1))),
    _rec("test-eager", _g(V.Effect(V.REROLL, "charge", which=V.ANY)), _g(V.Effect(V.MODIFY, "charge", 1))),
    _rec("test-witch-hunt", _g(V.Effect(V.REROLL, "charge", which=V.ANY),
                               when=V.When(conditions=((V.TARGET_KEYWORD, "PSYKER"),)))),
    _rec("test-holders", _g(V.Effect(V.MODIFY, "OC", 1))),
    _rec("test-steady", _g(V.Effect(V.MODIFY, "Ld", 1))),
    _rec("test-stubborn", _g(V.Effect(V.REROLL, "battle-shock", which=V.FAILED))),
    _rec("test-first", _g(V.Effect(V.FIGHTS_FIRST))),
    _rec("test-shrouded", _g(V.Effect(V.TARGET_LIMIT, value=12))),
    _rec("test-impact", _g(V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(0, 0, 1), roll=4, trigger=V.ON_CHARGE))),
    _rec("test-fury", _g(V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(0, 0, 1), trigger=V.ON_SELECTED_FIGHT))),
    _rec("test-spite", _g(V.Effect(V.MORTAL_WOUNDS, dice=DiceExpr(0, 0, 2), trigger=V.ON_DESTROYED))),
    _rec("test-cheap", _g(V.Effect(V.STRATAGEM_COST, value=-1, ability="Command Re-roll"))),
    _rec("test-cheap-once", _g(V.Effect(V.STRATAGEM_COST, value=-1, ability="Command Re-roll"),
                               when=V.When(limit=V.ONCE_PER_BATTLE))),
    _rec("test-rally", _g(V.Effect(V.MODIFY, "advance", 2), when=V.When(limit=V.ONCE_PER_BATTLE))),
    _rec("test-knit", _g(V.Effect(V.RETURN, which=V.MODELS, dice=DiceExpr(0, 0, 1), trigger=V.AT_COMMAND))),
    _rec("test-grit", _g(V.Effect(V.FEEL_NO_PAIN, value=5))),
    _rec("test-parry", _g(V.Effect(V.FEEL_NO_PAIN, value=2), when=V.When(attacks="melee"))),
)


@pytest.fixture
def with_test_records(monkeypatch):
    """The rules table with RECORDS added (by key and name)."""
    by_key, by_id, by_name = table._tables()
    by_key, by_name = dict(by_key), {k: list(v) for k, v in by_name.items()}
    for r in RECORDS:
        by_key[r.key] = r
        by_name.setdefault(norm(r.name), []).append(r)
    monkeypatch.setattr(table, "_tables", lambda: (by_key, by_id, by_name))
    yield
