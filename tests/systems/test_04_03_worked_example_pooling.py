"""04.03 rulebook worked example through the whole ECS path: four rifles and a [PISTOL]
sidearm with identical profiles are gathered into one pool of 5 dice; the heavy rifle is
resolved as its own pool (with its [HEAVY] +1 to hit)."""

from __future__ import annotations

from pathlib import Path

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]

WEAPONS = {
    "rifle": weapon(24, 1, 3, 4, 0, 1),
    "sidearm": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]"),
    "heavy rifle": weapon(36, 3, 3, 5, -1, 2, "[HEAVY]"),
}


def spec():
    wardens = unit("wardens",
                   model(row(10, 20, 4), ["rifle"], name="Warden", W=2),
                   model((16, 20), ["sidearm"], name="Sergeant", W=2),
                   model((17.5, 20), ["heavy rifle"], name="Gunner", W=2))
    raiders = unit("raiders", model(row(10, 28, 8), [], T=4, Sv=5, W=1))
    return scenario(WEAPONS, [wardens], [raiders])


CMD = Shoot("wardens", tuple(
    [Selection(f"wardens/{i}", "rifle", "raiders") for i in range(1, 5)]
    + [Selection("wardens/5", "sidearm", "raiders"), Selection("wardens/6", "heavy rifle", "raiders")]))

# pool 0: hits 6 5 3 2 1 -> 3 hits; wounds 4 4 4; saves 4 1 2 -> 1 2 4 all fail (Sv5+)
# pool 1: hits 5 6 6 (+1 HEAVY) -> 3 hits; wounds 6 2 5 -> 2 (S5 vs T4: 3+); saves 5 5, AP-1 -> 4 4 fail
DICE = [6, 5, 3, 2, 1, 4, 4, 4, 4, 1, 2, 5, 6, 6, 6, 2, 5, 5, 5]


def test_04_03_worked_example_pools_5_dice_plus_heavy_separately():
    with Battle(spec(), dice=ForcedDice(DICE)) as b:
        b.run_command(CMD)
        pools = of_type(b, "pool")
        assert [(p["dice"], p["weapons"]) for p in pools] == [(5, ["rifle", "sidearm"]), (3, ["heavy rifle"])]
        assert pools[0]["attackers"] == ["wardens/1", "wardens/2", "wardens/3", "wardens/4", "wardens/5"]
        assert (pools[1]["S"], pools[1]["AP"], pools[1]["D"], pools[1]["hit_mod"]) == (5, -1, "2", 1)
        hits = of_type(b, "hit rolls")
        assert [(h["rolls"], h["hits"]) for h in hits] == [([6, 5, 3, 2, 1], 3), ([5, 6, 6], 3)]
        assert [w["wounds"] for w in of_type(b, "wound rolls")] == [3, 2]
        assert [s["rolls"] for s in of_type(b, "save rolls")] == [[1, 2, 4], [5, 5]]
        dead = [e["model"] for e in of_type(b, "model destroyed")]
        assert dead == ["raiders/1", "raiders/2", "raiders/3", "raiders/4", "raiders/5"]
        assert [wounds(b, f"raiders/{i}") for i in range(1, 9)] == [0, 0, 0, 0, 0, 1, 1, 1]
        assert b.dice.remaining == 0
        assert b.busy is False


def test_04_03_worked_example_scenario_file_pools_the_same_way():
    sc = load_scenario(ROOT / "scenarios" / "worked_example_pools.toml")
    with Battle(sc, dice=ForcedDice(DICE)) as b:
        b.run_command(CMD)
        assert [(p["dice"], p["weapons"]) for p in of_type(b, "pool")] == [
            (5, ["rifle", "sidearm"]), (3, ["heavy rifle"])]
        assert len(of_type(b, "model destroyed")) == 5


def test_04_03_without_the_sidearm_the_rifle_pool_has_4_dice():
    """The same example with the sidearm model missing: 4 dice, nothing else changes."""
    cmd = Shoot("wardens", tuple(s for s in CMD.selections if s.model != "wardens/5"))
    with Battle(spec(), dice=ForcedDice([2, 2, 2, 2, 1, 1, 1])) as b:
        b.run_command(cmd)
        assert [p["dice"] for p in of_type(b, "pool")] == [4, 3]
