"""05.04 through the ECS: remaining attacks lost when the unit is destroyed (also for later pools
at it), random D rolled after the save fails, destroyed models removed only once the attacking
unit's attacks are resolved (05.04.04); invariants over seeded battles (hypothesis)."""

from __future__ import annotations

import esper
from hypothesis import given, settings
from hypothesis import strategies as st

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.components import Destroyed, Wounds
from sim.rules.dice import ForcedDice

WEAPONS = {
    "rifle": weapon(24, 3, 2, 4, 0, 1),
    "melta": weapon(24, 2, 2, 9, -4, "D6"),
    "bolter": weapon(24, 2, 3, 4, -1, "D3"),
}


def spec(n_targets=2, W=2, Sv=3, char=False):
    shooters = unit("sh", model((10, 10), ["rifle", "melta"]), model((11.5, 10), ["bolter"]))
    tm = [model(row(10, 30, n_targets), [], W=W, Sv=Sv)]
    if char:
        tm.append(model((20, 30), [], W=3, Sv=Sv, keywords=("CHARACTER",), role="leader", ids=["boss"]))
    return scenario(WEAPONS, [shooters], [unit("t", *tm)])


def test_05_04_remaining_attacks_lost_and_later_pools_at_the_dead_unit_make_none():
    """rifle A3 kills both W1 models with its first two failed saves; the third is lost; the
    melta pool at the destroyed unit gathers no dice and rolls nothing."""
    cmd = Shoot("sh", (Selection("sh/1", "rifle", "t"), Selection("sh/1", "melta", "t")))
    with Battle(spec(W=1), dice=ForcedDice([2, 2, 2, 4, 4, 4, 1, 1, 1])) as b:
        b.run_command(cmd)
        dmg = of_type(b, "damage")[0]["steps"]
        assert [s.get("model") for s in dmg] == ["t/1", "t/2", None]
        assert dmg[2]["lost"].startswith("unit destroyed")
        pools = of_type(b, "pool")
        assert (pools[1]["dice"], pools[1]["note"]) == (0, "target destroyed: these attacks are lost")
        assert len(of_type(b, "unit destroyed")) == 1
        assert b.dice.remaining == 0


def test_02_02_03_damage_roll_follows_the_failed_save_and_only_then():
    cmd = Shoot("sh", (Selection("sh/2", "bolter", "t"),))
    # hits 4 4; wounds 4 4; saves 6 2 -> sorted 2 6: the 2 fails (AP-1: 1 < 3) -> D3 roll 5 -> 3
    with Battle(spec(W=3), dice=ForcedDice([4, 4, 4, 4, 6, 2, 5])) as b:
        b.run_command(cmd)
        purposes = [e["purpose"] for e in b.events if e["type"] == "dice"]
        assert purposes == ["hit rolls", "wound rolls", "save rolls", "damage roll (D3)"]
        (dmg,) = of_type(b, "damage")
        assert [(s["save"], s.get("damage")) for s in dmg["steps"]] == [(2, 3), (6, None)]
        assert wounds(b, "t/1") == 0 and wounds(b, "t/2") == 3


def test_05_04_04_destroyed_models_removed_after_all_attacks():
    cmd = Shoot("sh", (Selection("sh/1", "rifle", "t"), Selection("sh/2", "bolter", "t")))
    seen = []
    with Battle(spec(n_targets=3, W=1), dice=ForcedDice([4, 1, 1, 4, 1, 1, 1, 1])) as b:
        def watch(e):
            if e["type"] == "pool" and e["pool"] == 1:
                d = esper.try_component(b.models["t/1"], Destroyed)
                seen.append(None if d is None else d.removed)
        b.listeners.append(watch)
        b.run_command(cmd)
        assert seen == [False]  # destroyed in pool 0, still on the table in pool 1
        (done,) = of_type(b, "attacks resolved")
        assert done["removed"] == ["t/1"]
        assert esper.component_for_entity(b.models["t/1"], Destroyed).removed is True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 5), st.integers(1, 3), st.booleans())
def test_05_04_invariants_over_seeded_battles(seed, n, W, char):
    """Whatever the dice: no living model below zero wounds or above W, a destroyed model never
    receives a later allocation, and every damage step names a model of the target."""
    cmd = Shoot("sh", (Selection("sh/1", "rifle", "t"), Selection("sh/1", "melta", "t"),
                       Selection("sh/2", "bolter", "t")))
    with Battle(spec(n_targets=n, W=W, char=char), seed=seed) as b:
        b.run_command(cmd)
        dead: set[str] = set()
        for e in b.events:
            if e["type"] == "damage":
                for s in e["steps"]:
                    if "model" in s:
                        assert s["model"] not in dead
                        assert s["model"].startswith("t/") or s["model"] == "boss"
                        if s.get("destroyed"):
                            dead.add(s["model"])
        for mid, ent in b.models.items():
            w = esper.component_for_entity(ent, Wounds).remaining
            assert w >= 0
            if mid.startswith("t/"):
                assert w <= W
                assert (w == 0) == (mid in dead)
