"""sim.odds.problem.held_still: while a battle is held still (a player weighing its options,
Battle.check recording nothing) the unit views its attacks' problems read are worked out once
(the plain view for every attacker nothing acts against), and their anonymous views too; a
change the battle records within (an attack resolved: its dice, its wounds) lets them go, and
outside a hold nothing is kept (a direct edit of the world shows at once)."""

from __future__ import annotations

from pathlib import Path

import esper

from sim.battle import Battle
from sim.components import Wounds
from sim.odds.problem import anonymous, held_still, problem_for_command, unit_view
from sim.scenario.load import load_scenario
from sim.scenario.script_run import to_command

ROOT = Path(__file__).resolve().parents[2]


def _retinue_shoots_snipers(b: Battle):
    spec = load_scenario(ROOT / "scenarios/default.toml")
    step = spec.script[2]
    assert step.action["unit"] == "retinue"
    return to_command(b, step)


def test_views_are_kept_while_held_and_let_go_when_the_battle_changes():
    spec = load_scenario(ROOT / "scenarios/default.toml")
    with Battle(spec) as b:
        cmd = _retinue_shoots_snipers(b)
        snipers, retinue = b.units["snipers"], b.units["retinue"]
        outside = problem_for_command(b, cmd)
        with held_still(b):
            first, again = problem_for_command(b, cmd), problem_for_command(b, cmd)
            assert first == outside  # (the same problem, kept or not)
            assert again.targets[0] is first.targets[0] and again.attacker is first.attacker
            assert anonymous(again).targets[0] is anonymous(first).targets[0]
            # nothing acts on the snipers against the retinue: their plain view, kept once
            assert unit_view(b, snipers, retinue) is unit_view(b, snipers) == first.targets[0]
            before = first.targets[0].start
            b.submit(cmd)  # (the retinue's attack resolved within the hold: dice and wounds)
            b.resolve()
            after = unit_view(b, snipers)
            b._enter()
            assert after.start == tuple(max(esper.component_for_entity(b.models[m], Wounds).remaining, 0)
                                        for m in after.ids)
            assert after.start != before  # (else this would not test letting go)


def test_outside_a_hold_nothing_is_kept():
    spec = load_scenario(ROOT / "scenarios/default.toml")
    with Battle(spec) as b:
        snipers = b.units["snipers"]
        with held_still(b):
            held = unit_view(b, snipers)
        b._enter()
        esper.component_for_entity(b.models[held.ids[0]], Wounds).remaining = 0  # (no event: a test's edit)
        now = unit_view(b, snipers)
        assert now.start[0] == 0 and held.start[0] > 0
        assert unit_view(b, snipers) is not unit_view(b, snipers)
