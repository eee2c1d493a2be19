"""24.09 Deep Strike with Warp Rifts (a rule's shorter arrival distance, ARRIVAL_DISTANCE, while
the unit is set up wholly within its army's domain, sim.rules.effects.domain): 6.5" from an enemy
model is accepted wholly within red's deployment zone and refused outside it (and without the
rule); the automatic players' spots use the shorter distance where it is allowed; the set-up is
logged as the rule's effect."""

from __future__ import annotations

import pytest

from phased import WEAPONS, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Ingress, StartBattle
from sim.commands.ingress import default_ingress, ingress_candidates
from sim.rules.geometry import distance
from sim.scenario.load import parse_scenario
from sim.world import queries as W

GAP = 6.5 + 32 / 25.4  # centre to centre: 6.5" edge to edge between two 32 mm bases


def _battle(enemy_at, rules=("Warp Rifts",), objectives=None):
    red = [unit("r", model((5, 6), ["gun"])),
           unit("d", model((50, 2), ["gun"]), abilities=["Deep Strike"], reserves=True)]
    blue = [unit("e", model(enemy_at, ["gun"]))]
    data = {"battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red, "rules": list(rules)}, {"name": "B", "units": blue}],
            "mission": {"first": "red", "rounds": 5, "deployed": False}}
    if objectives is not None:
        data["mission"]["objectives"] = objectives
    return Battle(parse_scenario(data, "test.toml"))


def _to_red_movement_round_2(b):
    b.run_command(StartBattle())
    while (b.turn_state.round, str(b.turn_state.phase)) != (2, "movement"):
        b.run_command(EndPhase())
    b._enter()


@pytest.mark.parametrize("enemy_at, at, rules, accepted", [
    ((30, 14), (30, 14 - GAP), ("Warp Rifts",), True),  # wholly within red's zone (y 0-12)
    ((30, 22), (30 + GAP, 22), ("Warp Rifts",), False),  # in No Man's Land: 8" still
    ((30, 14), (30, 14 - GAP), (), False),  # (no rule: 8")
])
def test_warp_rifts_a_deep_strike_65_inches_from_an_enemy(enemy_at, at, rules, accepted):
    with _battle(enemy_at, rules) as b:
        _to_red_movement_round_2(b)
        cmd = Ingress("d", (("d/1", *at),))
        why = b.check(cmd)
        assert (why is None) is accepted, why
        if not accepted:
            assert "more than 8\" from all enemy models" in str(why)
            return
        b.run_command(cmd)
        (eff,) = [e for e in of_type(b, "rule effect") if e["unit"] == "d"]
        assert eff["rule"] == "Warp Rifts" and "6.50\"" in eff["effect"]


def test_warp_rifts_the_players_spots_use_the_shorter_distance_where_it_is_allowed():
    """With blue's model 2" outside red's zone and the one objective in it 8" from that model, the
    candidates include spots in red's zone between 6" and 8" from it (legal only by the rule),
    each accepted by the check, and the default player takes one (nearest the objective, Part A
    ruling 27); without the rule, none is nearer than 8"."""
    home = [{"name": "home", "at": [30, 6], "kind": "home", "owner": "red"}]
    for rules, near in ((("Warp Rifts",), True), ((), False)):
        with _battle((30, 14), rules, home) as b:
            _to_red_movement_round_2(b)
            e = W.footprint(b.models["e/1"])
            close = []
            for _anchor, cmd in ingress_candidates(b, b.units["d"], [(30, 14)]):
                assert b.check(cmd) is None
                fp = W.footprint(b.models["d/1"]).moved(cmd.to[0][1], cmd.to[0][2])
                if distance(fp, e) <= 8.0:
                    close.append(cmd)
            assert bool(close) is near
            first = default_ingress(b, b.units["d"], 0)
            fp = W.footprint(b.models["d/1"]).moved(first.to[0][1], first.to[0][2])
            assert (distance(fp, e) <= 8.0) is near and b.check(first) is None
