"""The exact odds (``sim odds``) of attacks under rule effects (sim.plan.rule_effects): the odds
engine reads the same plan and the same target side as the battle, so each kind changes the odds
exactly as worked out by hand; and one case against a Monte Carlo of the battle itself (400
seeded battles; tolerance: 4 standard errors of the battles' mean)."""

from __future__ import annotations

import statistics

import esper
import pytest
from oath_file import oath_file

from scen import model, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.components import UnitRules, Wounds
from sim.odds import engine as E
from sim.rules.effects import vocabulary as V
from sim.world import rule_effects as RE

WEAPONS = {
    "gun": weapon(36, 10, 3, 4, 0, 1),
    "piercer": weapon(36, 10, 3, 4, -3, 1),
    "heavy": weapon(36, 10, 3, 4, 0, 2),
    "lobber": weapon(36, 10, 3, 4, 0, "D3"),
    "volley": weapon(36, 4, 3, 4, 0, 2),
}
BASE = 10 * (2 / 3) * (1 / 2)  # A10, BS3+, S4 vs T4, no save: 10/3 unsaved attacks


def rec(key, *grants, choice=None):
    return V.RuleRecord(key, (key.title(),), V.DATASHEET, "test rule", tuple(grants), choice=choice)


def give(b, uid, *records):
    b._enter()
    u = b.units[uid]
    old = esper.try_component(u, UnitRules)
    esper.add_component(u, UnitRules((old.held if old else ()) + tuple(V.Held(r) for r in records)))
    b.resources.has_rules = True


def battle(Sv=7, W=100, n=1, seed=1):
    sh = unit("sh", model((10, 10), list(WEAPONS), W=10))
    t = unit("t", model([(10 + 1.5 * i, 30) for i in range(n)], ["gun"], W=W, Sv=Sv))
    return Battle(scenario(WEAPONS, [sh], [t], seed=seed))


def odds(name, mine=(), theirs=(), choices=(), **kw):
    with battle(**kw) as b:
        if mine:
            give(b, "sh", *mine)
        if theirs:
            give(b, "t", *theirs)
        for player, key in choices:  # (a datasheet ability's choice: its holding unit's, sh or t)
            unit = ("sh", "t")[player]
            b.resources.rule_choices[RE.choice_key(player, key, unit)] = {"value": True, "round": 1, "player": player}
        o = E.for_command(b, Shoot("sh", (Selection("sh/1", name, "t"),)))
    assert o.method == "exact"
    return o


def g(kind, stat="", value=0, which="", when=V.ALWAYS):
    return V.Grant(V.Effect(kind, stat, value, which), V.UNIT, when)


@pytest.mark.parametrize("weapon_, mine, theirs, Sv, expected", [
    ("gun", (), (), 7, BASE),
    ("gun", (rec("sights", g(V.MODIFY, "hit", 1)),), (), 7, 10 * (5 / 6) / 2),  # hits on 2+
    ("gun", (rec("oath", g(V.REROLL, "hit", which=V.FAILED)),), (), 7, 10 * (8 / 9) / 2),  # 2/3 + 1/3 * 2/3
    ("gun", (rec("hate", g(V.REROLL, "wound", which=V.ONES)),), (), 7, 10 * (2 / 3) * (7 / 12)),
    ("gun", (rec("fury", g(V.MODIFY, "S", 4)),), (), 7, 10 * (2 / 3) * (5 / 6)),  # S8 vs T4: 2+
    ("gun", (), (rec("hide", g(V.MODIFY, "T", 4)),), 7, 10 * (2 / 3) * (1 / 6)),  # S4 vs T8: 6+
    ("gun", (), (rec("smoke", g(V.MODIFY, "save", 1)),), 4, BASE * (1 / 3)),  # Sv4+ at +1: saves on 3+
    ("heavy", (), (), 7, 2 * BASE),
    ("heavy", (), (rec("tough", g(V.MODIFY, "damage taken", -1)),), 7, BASE),  # D2 -> 1
    ("lobber", (), (rec("tough", g(V.MODIFY, "damage taken", -1)),), 7, BASE * (4 / 3)),  # max(1, D3-1): 1, 1, 2
    ("lobber", (rec("blunt", g(V.MODIFY, "D", -1)),), (), 7, BASE * (4 / 3)),  # its D is D3-1: rolls 1, 1, 2
    ("volley", (rec("slow", g(V.MODIFY, "A", -1)),), (), 7, 3 * (2 / 3) * (1 / 2) * 2),  # A4-1, D2
    ("gun", (), (rec("grit", V.Grant(V.Effect(V.FEEL_NO_PAIN, value=5))),), 7, BASE * (2 / 3)),
])
def test_exact_odds_by_hand(weapon_, mine, theirs, Sv, expected):
    o = odds(weapon_, mine, theirs, Sv=Sv)
    assert o.targets[0].damage.mean == pytest.approx(expected, abs=1e-12)


def test_invulnerable_granted_while_its_choice_is_in_force():
    """AP-3 at Sv7: nothing saves; a 4+ invulnerable save while the rule is called halves it."""
    ward = rec("ward", g(V.INVULNERABLE, value=4, when=V.When(conditions=((V.CHOSEN, None),))),
               choice=V.RuleChoice(V.CALL, "command", "raise the ward?"))
    assert odds("piercer", theirs=(ward,)).targets[0].damage.mean == pytest.approx(BASE, abs=1e-12)
    called = odds("piercer", theirs=(ward,), choices=((1, "ward"),))
    assert called.targets[0].damage.mean == pytest.approx(BASE / 2, abs=1e-12)
    assert any("Ward" in n for n in called.notes)


def test_the_report_names_the_rules_acting():
    o = odds("gun", (rec("sights", g(V.MODIFY, "hit", 1)),), (rec("grit", V.Grant(V.Effect(V.FEEL_NO_PAIN, value=5))),))
    assert "pool 0 takes from rules: Sights: +1 to hit rolls" in o.notes
    assert "t's models take from rules: Grit: Feel No Pain 5+" in o.notes


MC_RULES = (rec("sights", g(V.MODIFY, "hit", 1)), rec("hate", g(V.REROLL, "wound", which=V.FAILED)))
MC_TARGET = (rec("grit", V.Grant(V.Effect(V.FEEL_NO_PAIN, value=5))), rec("tough", g(V.MODIFY, "damage taken", -1)),
             rec("smoke", g(V.MODIFY, "save", 1)))


def _battle_damage(seed: int) -> int:
    with battle(Sv=5, W=2, n=3, seed=seed) as b:
        give(b, "sh", *MC_RULES)
        give(b, "t", *MC_TARGET)
        b.run_command(Shoot("sh", (Selection("sh/1", "volley", "t"),)))
        return sum(2 - max(0, esper.component_for_entity(b.models[f"t/{i}"], Wounds).remaining) for i in (1, 2, 3))


def test_exact_odds_match_a_monte_carlo_of_the_battle():
    """A4 BS3+ +1 to hit, S4 D2 re-rolling failed wounds, at three W2 Sv5+ models with +1 to
    save, -1 Damage taken and Feel No Pain 5+: the wounds lost in 400 seeded battles have the
    exact mean within 4 standard errors."""
    with battle(Sv=5, W=2, n=3) as b:
        give(b, "sh", *MC_RULES)
        give(b, "t", *MC_TARGET)
        o = E.for_command(b, Shoot("sh", (Selection("sh/1", "volley", "t"),)))
    assert o.method == "exact"
    runs = [_battle_damage(seed) for seed in range(400)]
    exact = o.targets[0].damage
    # (by hand: 4 * 5/6 * 3/4 * 1/2 * 2/3 = 5/6, D2 -> 1 per unsaved attack)
    assert exact.mean == pytest.approx(5 / 6, abs=1e-12)
    assert abs(statistics.fmean(runs) - exact.mean) <= 4 * exact.sd / len(runs) ** 0.5


@pytest.mark.parametrize("which, fail", [(V.FAILED, 1 / 4), (V.ONES, 1 / 2 - 1 / 12)])
def test_save_rerolls_in_the_exact_odds(which, fail):
    """Sv4+: a failed save re-rolled fails 1/2 * 1/2; a 1 re-rolled fails 1/2 - 1/6 * 1/2."""
    o = odds("gun", theirs=(rec("faith", g(V.REROLL, "save", which=which)),), Sv=4)
    assert o.targets[0].damage.mean == pytest.approx(BASE * fail, abs=1e-12)


def test_save_rerolls_exact_odds_match_the_engines_monte_carlo():
    from sim.odds.montecarlo import simulate
    with battle(Sv=4, W=2, n=3) as b:
        give(b, "t", rec("faith", g(V.REROLL, "save", which=V.FAILED)))
        cmd = Shoot("sh", (Selection("sh/1", "volley", "t"),))
        o = E.for_command(b, cmd)
        from sim.odds.problem import problem_for_command
        mc = simulate(problem_for_command(b, cmd), 4000, 5)
    t, m = o.targets[0], mc.targets[0]
    assert abs(t.damage.mean - m.damage.mean) <= 2.576 * t.damage.sd / 4000 ** 0.5


OATH_FILE = oath_file(A=10, W=100, chosen=True)


def test_sim_odds_of_a_scenario_file_naming_a_rule_and_its_choice(tmp_path, capsys):
    """``sim odds`` on a file whose army holds Oath of Moment with its target chosen: A10 BS3+
    hits 10 * 8/9 (failed hits re-rolled), wounds half of those; the note names the rule."""
    import json

    from sim.cli import main
    path = tmp_path / "oath.toml"
    path.write_text(OATH_FILE)
    assert main(["odds", str(path), "--unit", "sh", "--target", "t", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pools"][0]["hits"]["mean"] == pytest.approx(80 / 9, abs=1e-12)
    assert out["targets"][0]["damage"]["mean"] == pytest.approx(40 / 9, abs=1e-12)
    assert "pool 0 takes from rules: Oath of Moment: re-roll hit rolls" in out["notes"]


SIGHTS = (rec("sights", g(V.MODIFY, "hit", 1)),)


@pytest.mark.parametrize("mine, theirs, Sv, expected", [
    ((), (rec("blur", g(V.MODIFY, "hit taken", -1)),), 7, 10 * (1 / 2) * (1 / 2)),  # hits on 4+
    ((), (rec("hide", g(V.MODIFY, "wound taken", -1)),), 7, 10 * (2 / 3) * (1 / 3)),  # wounds on 5+
    (SIGHTS, (rec("blur", g(V.MODIFY, "hit taken", -1)),), 7, BASE),  # +1 and -1 net to 0: hits on 3+
    ((), (rec("unravel", g(V.MODIFY, "AP taken", 1)),), 4, BASE * (2 / 3)),  # AP-1 vs Sv4+: saves on 5+
    ((), (rec("ague", g(V.MODIFY, "Sv", -1)),), 4, BASE * (2 / 3)),  # Sv 5+ at AP0
])
def test_exact_odds_of_modifiers_taken_by_the_target(mine, theirs, Sv, expected):
    o = odds("gun", mine, theirs, Sv=Sv)
    assert o.targets[0].damage.mean == pytest.approx(expected, abs=1e-12)
