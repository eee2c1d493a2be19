"""The default player's Shooting phase asks only about the enemies its unit could shoot at
(sim.plan.common.could_shoot, 04.02's necessary condition) before planning a Shoot at each in
order of distance: the battle is the one it plays planning a Shoot at every enemy in turn, event
for event, on a table with terrain and full-size armies deployed by the rules."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.players import default as D
from sim.players.runner import play
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _events(spec, seed):
    with Battle(spec, seed=seed) as b:
        play(b, spec)
        return b.events


@pytest.mark.parametrize("name, seed, rounds", [("battle_default", 2, 5), ("ladder/full_size", 1, 1)])
def test_default_player_shoots_as_when_it_plans_every_enemy(monkeypatch, name, seed, rounds):
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    mission = dataclasses.replace(spec.mission, rounds=rounds, players=("default", "default"))
    spec = dataclasses.replace(spec, mission=mission)
    asked = []
    real = D.could_shoot

    def counted(battle, u, targets):
        targets = list(targets)
        got = real(battle, u, targets)
        asked.append(len(targets) - len(got))
        return got

    monkeypatch.setattr(D, "could_shoot", counted)
    fast = _events(spec, seed)
    assert sum(asked) > 0  # (it did pass over enemies it could not shoot)
    monkeypatch.setattr(D, "could_shoot", lambda battle, u, targets: list(targets))
    assert _events(spec, seed) == fast


@pytest.mark.parametrize("name, seed, rounds", [("battle_default", 6, 5), ("ladder/full_size", 1, 2)])
def test_default_player_skips_units_that_qualify_for_no_shooting_type(monkeypatch, name, seed, rounds):
    """10.02 A unit that qualifies for no shooting type (engaged, say) has every Shoot refused:
    the default player builds none for it, and the battle is the one it plays building and
    checking a Shoot at each enemy as before."""
    from sim.players import options as O
    spec = load_scenario(ROOT / f"scenarios/{name}.toml")
    mission = dataclasses.replace(spec.mission, rounds=rounds, players=("default", "default"))
    spec = dataclasses.replace(spec, mission=mission)
    skipped = []
    real = O.qualifies_to_shoot

    def counted(u, battle=None):
        got = real(u, battle)
        skipped.append(not got)
        return got

    refused = []
    check = Battle.check

    def checked(battle, cmd):
        why = check(battle, cmd)
        refused.append(why is not None and "qualifies for no shooting type" in why)
        return why

    monkeypatch.setattr(O, "qualifies_to_shoot", counted)
    monkeypatch.setattr(Battle, "check", checked)
    fast = _events(spec, seed)
    assert any(skipped) and not any(refused)  # (it passed over units that could not shoot, unchecked)
    monkeypatch.setattr(O, "qualifies_to_shoot", lambda u, battle=None: True)
    assert _events(spec, seed) == fast
    assert any(refused)  # (which the rules refuse, one Shoot at a time)


def test_default_player_makes_no_charge_the_rules_refuse_and_the_battle_goes_on(monkeypatch):
    """After its charge roll, the default player's charge move is the solver's; were the rules to
    refuse it (a rule's condition on a target, a limit the solver did not weigh), the charge is
    not made (an empty charge move, as when the solver finds no room) instead of the battle
    stopping on a refused command."""
    from phased import mission_scenario, model, unit
    from sim.commands import ChargeMove, DeclareCharge, EndPhase, StartBattle
    from sim.rules.dice import ForcedDice
    red = [unit("r", model((20, 10), ["blade"]))]
    blue = [unit("b", model((20, 18), ["blade"]))]
    spec = mission_scenario(red, blue)
    with Battle(spec, dice=ForcedDice([6, 6])) as b:
        b.run_command(StartBattle())
        while str(b.turn_state.phase) != "charge":
            b.run_command(EndPhase())
        b.run_command(DeclareCharge("r"))
        player = D.DefaultPlayer(0, b, spec)
        made = player.choose(b).command
        assert made.targets == ("b",) and made.to and b.check(made) is None
        short = ChargeMove("r", ("b",), (("r/1", 20.0, 11.0),))  # (1" on: nowhere near b)
        assert b.check(short) is not None
        monkeypatch.setattr(D, "charge_command", lambda *a, **k: short)
        cmd = player.choose(b).command
        assert cmd == ChargeMove("r", (), ())
        b.run_command(cmd)
        assert [e["result"] for e in b.events if e["type"] == "charge"][-1] == "not made"
