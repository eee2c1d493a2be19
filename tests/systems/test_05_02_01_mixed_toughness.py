"""05.02.01 / 19.02 Mixed T: an attached unit uses the highest T among its bodyguard models on the
battlefield; once only leaders remain, the highest T among them; otherwise the highest T."""

from __future__ import annotations

from scen import kill, model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WS = {"gun": weapon(36, 1, 2, 5, 0, 1)}


def spec(leader_role="leader"):
    shooter = unit("gun", model((10, 10), ["gun"]))
    target = unit("t",
                  model((10, 30), [], T=6, W=4, keywords=("CHARACTER",), role=leader_role, ids=["boss"]),
                  model(row(11.5, 30, 2), [], T=4, W=1, ids=["g1", "g2"]),
                  model((14.5, 30), [], T=3, W=1, ids=["g3"]))
    return scenario(WS, [shooter], [target])


def test_19_02_attached_unit_uses_highest_bodyguard_t():
    with Battle(spec()) as b:
        assert W.toughness(b.units["t"]) == 4


def test_19_02_leader_t_once_bodyguards_are_gone():
    with Battle(spec()) as b:
        for m in ("g1", "g2"):
            kill(b, m)
        assert W.toughness(b.units["t"]) == 3  # g3 is still a bodyguard
        kill(b, "g3")
        assert W.toughness(b.units["t"]) == 6


def test_05_02_01_unattached_unit_highest_t():
    with Battle(spec(leader_role="bodyguard")) as b:
        assert W.toughness(b.units["t"]) == 6


def test_05_02_01_wound_roll_uses_bodyguard_t_in_the_pool():
    """S5 vs the bodyguards' T4 wounds on 3+ although the leader is T6 (5+)."""
    with Battle(spec(), dice=ForcedDice([4, 3, 6])) as b:
        b.run_command(Shoot("gun", (Selection("gun/1", "gun", "t"),)))
        (pool,) = of_type(b, "pool")
        (wr,) = of_type(b, "wound rolls")
        assert (pool["T"], wr["T"], wr["wounds"]) == (4, 4, 1)


def test_05_02_01_full_strength_t_on_the_roster_matches_the_rule():
    """The roster's T at full strength (read instead of working it out for a fresh unit) is the
    rule's answer for all its models, in every unit of every scenario and of this one."""
    from pathlib import Path

    from sim.rules.attack import unit_toughness
    from sim.scenario.load import load_scenario
    scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    specs = [spec(), spec("bodyguard")] + [load_scenario(p) for p in sorted(scenarios.glob("*.toml"))]
    for sc in specs:
        with Battle(sc) as b:
            for ent in b.units.values():
                r = W.roster(ent)
                assert r.full_T == unit_toughness(r.T, r.bodyguard, range(len(r.models)))
                if not W.off_table(ent):  # (01.02.04 in reserves, embarked, undeployed: no model to wound)
                    assert W.toughness(ent) == r.full_T
