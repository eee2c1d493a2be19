"""12.03 / 12.08 The player selects the pile-in targets and the consolidation's enemy units or
objective; the rules check the choice and do not impose the automatic player's (Part A ruling
18, clarified: its choices are the automatic players' defaults only). A legal move toward a
farther target, refused while the rules imposed the closest, is accepted; selections the rules
do not allow are refused with the section."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import Consolidate, EndPhase, PileIn, StartBattle, consolidate_command, pile_in_command
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.world import queries as W

D = 32 / 25.4  # a 32 mm base, inches


def _uid(u) -> str:
    import esper
    from sim.components import Unit
    return esper.component_for_entity(u, Unit).id


def _to(b, name, step=None):
    while not (str(b.turn_state.phase) == name and (step is None or str(b.turn_state.step) == step)):
        b.run_command(EndPhase())


def _after_a_charge(b, uid: str):
    """In red's Fight phase, with ``uid`` marked as having charged (so it may pile in while
    unengaged, 12.03), at the step given."""
    b._enter()
    W.unit_state(b.units[uid]).charged = True


def _two_near():
    """r1 unengaged; b1 3" north of it, b2 4.5" east: both within 5" (pile-in targets it may
    select), b1 the closer."""
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 10 + D + 3.0), ["blade"])), unit("b2", model((20 + D + 4.5, 10), ["blade"]))]
    return mission_scenario(red, blue)


def test_12_03_an_unengaged_unit_may_pile_in_toward_the_farther_target_it_selects():
    toward_b2 = (("r1/1", 22.9, 10),)  # 2.9" east: 1.6" from b2, and farther from b1 than at the start
    with Battle(_two_near(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to(b, "fight", "pile in")
        _after_a_charge(b, "r1")
        # the automatic selection (every unit within 5": each model heads for its closest) refuses it
        assert "closest target" in (b.check(PileIn("r1", toward_b2)) or "")
        # selected by the player, b2 alone: the move is legal (closer to b2, engaged with it)
        cmd = PileIn("r1", toward_b2, targets=("b2",))
        assert b.check(cmd) is None
        b.run_command(cmd)
        b._enter()
        assert [_uid(u) for u in W.engaged_with(b.units["r1"])] == ["b2"]
        (e,) = of_type(b, "command")[-1:]
        assert e["command"]["targets"] == ["b2"]  # (the selection is in the log)


def test_12_03_a_pile_in_target_must_be_an_enemy_unit_within_5_inches():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 10 + D + 3.0), ["blade"])), unit("b2", model((20 + D + 6.0, 10), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to(b, "fight", "pile in")
        _after_a_charge(b, "r1")
        with pytest.raises(Refusal, match=r"pile-in target b2 is not an enemy unit within 5\" \(12.03\)"):
            b.submit(PileIn("r1", (("r1/1", 22.9, 10),), targets=("b2",)))


def test_12_03_an_engaged_unit_piles_in_toward_every_unit_it_is_engaged_with():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 10 + D + 1.0), ["blade"])), unit("b2", model((20 + D + 1.5, 10), ["blade"]))]
    with Battle(mission_scenario(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        _to(b, "fight", "pile in")
        with pytest.raises(Refusal, match=r"an engaged unit piles in towards every enemy unit it is engaged "
                                          r"with \(b1, b2\), not b2 \(12.03\)"):
            b.submit(PileIn("r1", (("r1/1", 20.4, 10),), targets=("b2",)))
        cmd = pile_in_command(b, "r1", None)
        assert cmd.targets == ("b1", "b2")  # (the default names the rule's selection)


def _consolidating(red, blue, **kw):
    b = Battle(mission_scenario(red, blue, **kw), dice=ForcedDice([]))
    b.run_command(StartBattle())
    _to(b, "fight", "consolidate")
    b._enter()
    W.unit_state(b.units["r1"]).selected_to_fight = True  # (as if it had fought)
    return b


def test_12_08_an_engaging_consolidation_may_select_a_farther_enemy_unit_within_3_inches():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 10 + D + 2.2), ["blade"])), unit("b2", model((20 + D + 2.8, 10), ["blade"]))]
    with _consolidating(red, blue) as b:
        default = consolidate_command(b, "r1", None)
        assert default.targets == ("b1",)  # (ruling 18: the closest)
        cmd = consolidate_command(b, "r1", None, targets=("b2",))
        assert cmd is not None and cmd.targets == ("b2",) and b.check(cmd) is None
        b.run_command(cmd)
        b._enter()
        assert [_uid(u) for u in W.engaged_with(b.units["r1"])] == ["b2"]
        # (12.08: b2, engaged and yet to fight, is selected to fight)
        assert b.turn_state.pending_fights == [b.units["b2"]]


def test_12_08_an_engaging_consolidation_selects_only_enemy_units_within_3_inches():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((20, 10 + D + 2.2), ["blade"])), unit("b2", model((20 + D + 3.5, 10), ["blade"]))]
    with _consolidating(red, blue) as b:
        with pytest.raises(Refusal, match=r"b2 is not an enemy unit within 3\" \(12.08\)"):
            b.submit(Consolidate("r1", (("r1/1", 22.9, 10),), targets=("b2",)))
        with pytest.raises(Refusal, match=r"it selects enemy units, not an objective \(12.08\)"):
            b.submit(Consolidate("r1", (("r1/1", 20, 12),), objective="home"))


def test_12_08_an_objective_consolidation_may_select_any_objective_within_3_inches():
    red = [unit("r1", model((20, 10), ["blade"]))]
    blue = [unit("b1", model((50, 40), ["blade"]))]
    objectives = [{"name": "near", "at": [20, 13.5], "kind": "central"},
                  {"name": "other", "at": [17, 10], "kind": "expansion"}]
    with _consolidating(red, blue, objectives=objectives) as b:
        assert consolidate_command(b, "r1", None).objective == "other"  # (ruling 18: the nearest)
        with pytest.raises(Refusal, match=r"no objective 'nowhere' \(the objectives: near, other\)"):
            b.submit(Consolidate("r1", (("r1/1", 20, 12),), objective="nowhere"))
        with pytest.raises(Refusal, match=r"selects an objective, not enemy units \(12.08\)"):
            b.submit(Consolidate("r1", (("r1/1", 20, 12),), targets=("b1",)))
        cmd = consolidate_command(b, "r1", None, objective="near")
        assert cmd is not None and cmd.objective == "near" and b.check(cmd) is None
        b.run_command(cmd)
