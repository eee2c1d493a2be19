"""Whole battles deployed by the rules (26 steps 5-11) and played by two random players
(sim.players.RandomPlayer): the battle invariants after every command (tests/support
battle_checker), and before battle round 1 every unit set up by a Deploy is wholly within its
player's zone or, by Infiltrators, more than 8" from every enemy model (24.20); every scout move
ends more than 8" from the enemy (24.32); the reserves stay within the cap (20.01);
the log replays byte-identically. Seeds come from hypothesis."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
from battle_checker import Checker
from hypothesis import given, settings, strategies as st

from sim import events as ev
from sim.battle import Battle
from sim.components import Unit
from sim.players import play_battle
from sim.replay.log import replay, write_log
from sim.rules import geometry, pre_battle as PB
from sim.rules.deployment import deployment_problems
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
# scenarios/deployment.toml played for two battle rounds (the log names the file it replays)
TEXT = (ROOT / "scenarios/deployment.toml").read_text().replace('deployment = "rules"\n',
                                                               'deployment = "rules"\nrounds = 2\n')


class DeployChecker(Checker):
    """Checks each unit's set-up the moment it is made, against the rules' own functions."""

    def __init__(self, battle, path):
        super().__init__(battle, path)
        self.deployed: list[dict] = []
        self.scouted: list[dict] = []
        battle.listeners.append(self._pre_battle)

    def _pre_battle(self, e):
        if e["type"] == ev.DEPLOYED:
            self.deployed.append(e)
            b = self.battle
            u = b.units[e["unit"]]
            owner = esper.component_for_entity(u, Unit).owner
            fps = [(W.model_id(m), owner, W.footprint(m)) for m in W.unit_models(u)]
            zones = b.turn_state.zones()
            if e.get("infiltrators"):
                enemy = [W.footprint(m) for x in W.enemy_units(u) for m in W.unit_models(x) if not W.in_reserves(x)
                         and not W.undeployed(x)]
                for _mid, _o, fp in fps:
                    assert all(geometry.distance(fp, o) > PB.INFILTRATE_DISTANCE for o in enemy), e["unit"]
            else:
                assert not deployment_problems(fps, zones, b.scenario.board), e["unit"]
        elif e["type"] == ev.SCOUTED:
            self.scouted.append(e)
            u = self.battle.units[e["unit"]]
            enemy = [W.footprint(m) for x in W.enemy_units(u) for m in W.unit_models(x)
                     if not W.in_reserves(x) and not W.undeployed(x)]
            for m in W.unit_models(u):
                assert all(geometry.distance(W.footprint(m), o) > PB.SCOUT_END_DISTANCE for o in enemy), e["unit"]


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_random_players_deploy_by_the_rules_play_and_replay(tmp_path_factory, seed):
    path = tmp_path_factory.mktemp("deploy") / "deployment.toml"
    path.write_text(TEXT)
    spec = load_scenario(path)
    assert spec.mission.rounds == 2
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    with Battle(spec, seed=seed) as b:
        rec = DeployChecker(b, str(path))
        play_battle(b, spec, rec)
        assert b.turn_state.over and rec.checked == b.commands_done
        waiting = sum(len(e["reserves"]) for e in b.events if e["type"] == ev.FORMATIONS)
        assert len(rec.deployed) + waiting == len(spec.units)  # every unit set up or waiting, once each
        assert len({e["unit"] for e in rec.deployed}) == len(rec.deployed)
        log = write_log(path.parent / "battle.jsonl", rec)
    n, div = replay(log)
    assert div is None and n == rec.checked
