"""05.03 / 19.02 The attached-unit allocation example through the ECS: a CHARACTER leader and
two non-CHARACTER groups. The defender's order must put both non-CHARACTER groups before the
CHARACTER; an illegal answer is refused; damage follows the declared order."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import EndTurn, Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

def spec(A=8, D=2, **bodyguard_kw):
    WEAPONS = {"cannon": weapon(36, A, 2, 8, -3, D)}
    gun = unit("gun", model((30, 10), ["cannon"], keywords=("VEHICLE",), base_mm=60), keywords=("VEHICLE",))
    squad = unit("squad",
                 model((20, 30), [], name="Captain", W=5, Sv=3, InSv=4, keywords=("CHARACTER",),
                       role="leader", ids=["captain"]),
                 model(row(22, 30, 3), [], name="Veteran", W=2, Sv=3, ids=["vet1", "vet2", "vet3"]),
                 model(row(26.5, 30, 2), [], name="Gunner", W=3, Sv=3, ids=["gun1", "gun2"]),
                 **bodyguard_kw)
    return scenario(WEAPONS, [gun], [squad])


SHOOT = Shoot("gun", (Selection("gun/1", "cannon", "squad"),))
# 8 hits (2+), 8 wounds (S8 vs T4: 2+), 8 saves all 1 (fail)
DICE = [4] * 8 + [4] * 8 + [1] * 8


def test_05_03_groups_and_default_order_put_character_last():
    with Battle(spec(), dice=ForcedDice(DICE)) as b:
        b.submit(SHOOT)
        b.step_until_blocked()
        req = b.pending
        assert req.kind == "allocation_order" and req.player == 1
        assert req.options == ["captain", "vet1", "gun1"]
        assert req.default == ["vet1", "gun1", "captain"]


@pytest.mark.parametrize("bad", [["captain", "vet1", "gun1"], ["vet1", "captain", "gun1"],
                                 ["vet1", "gun1"], ["vet1", "gun1", "captain", "captain"]])
def test_05_03_illegal_order_refused_and_nothing_changes(bad):
    with Battle(spec(), dice=ForcedDice(DICE)) as b:
        b.submit(SHOOT)
        b.step_until_blocked()
        h = b.state_hash()
        n = len(b.events)
        with pytest.raises(Refusal, match="05.03"):
            b.answer(bad)
        assert b.state_hash() == h and len(b.events) == n
        assert b.pending is not None and b.pending.kind == "allocation_order"


def test_05_03_declared_order_gunners_first_then_veterans_then_captain():
    """8 failed saves of D2: gunners (W3) take 2 each (gun1 2+2, gun2 2+2), veterans 1 each
    (vet1, vet2, vet3), the 8th reaches the captain (InSv 4+ does not save a 1)."""
    with Battle(spec(), dice=ForcedDice(DICE)) as b:
        b.run_command(SHOOT, answer=lambda req: ["gun1", "vet1", "captain"])
        (alloc,) = of_type(b, "allocation order")
        assert alloc["order"] == ["gun1", "vet1", "captain"]
        assert alloc["groups"] == {"captain": ["captain"], "vet1": ["vet1", "vet2", "vet3"],
                                   "gun1": ["gun1", "gun2"]}
        (dmg,) = of_type(b, "damage")
        assert [s["model"] for s in dmg["steps"]] == ["gun1", "gun1", "gun2", "gun2", "vet1", "vet2",
                                                      "vet3", "captain"]
        assert [s["lost"] for s in dmg["steps"]] == [2, 1, 2, 1, 2, 2, 2, 2]
        assert wounds(b, "captain") == 3
        assert all(wounds(b, m) == 0 for m in ("vet1", "vet2", "vet3", "gun1", "gun2"))


def test_05_03_default_order_veterans_then_gunners():
    with Battle(spec(), dice=ForcedDice(DICE)) as b:
        b.run_command(SHOOT)
        (dmg,) = of_type(b, "damage")
        assert [s["model"] for s in dmg["steps"]] == ["vet1", "vet2", "vet3", "gun1", "gun1", "gun2",
                                                      "gun2", "captain"]


def test_part_a_9_scenario_declared_allocation_order_is_the_default():
    with Battle(spec(allocation_order=["gun1", "vet1", "captain"]), dice=ForcedDice(DICE)) as b:
        b.run_command(SHOOT)
        assert of_type(b, "allocation order")[0]["order"] == ["gun1", "vet1", "captain"]


def test_05_03_wounded_group_forced_first_on_the_next_pool():
    """A first activation leaves gun1 wounded; in the next one the gunners' group must be first:
    the default puts it first, veterans-first is refused, and the wounded gunner is picked."""
    with Battle(spec(A=1, D=1), dice=ForcedDice([4, 4, 1, 4, 4, 1])) as b:
        b.run_command(SHOOT, answer=lambda r: ["gun1", "vet1", "captain"])
        assert wounds(b, "gun1") == 2
        b.run_command(EndTurn())
        b.submit(SHOOT)
        b.step_until_blocked()
        assert b.pending.default == ["gun1", "vet1", "captain"]
        with pytest.raises(Refusal, match="first"):
            b.answer(["vet1", "gun1", "captain"])
        b.answer(["gun1", "vet1", "captain"])
        b.step_until_blocked()
        assert (wounds(b, "gun1"), wounds(b, "gun2")) == (1, 3)


def test_part_a_9_declared_order_survives_the_death_of_a_groups_first_model():
    """The scenario declares gunners first (by the key gun1). Once gun1 is destroyed the gunners'
    group is keyed gun2, but it is the same group: the declared order still puts it first."""
    from scen import kill
    with Battle(spec(A=1, D=1, allocation_order=["gun1", "vet1", "captain"]),
                dice=ForcedDice([4, 4, 1])) as b:
        kill(b, "gun1")
        b.run_command(SHOOT)
        assert of_type(b, "allocation order")[0]["order"] == ["gun2", "vet1", "captain"]
        assert wounds(b, "gun2") == 2
