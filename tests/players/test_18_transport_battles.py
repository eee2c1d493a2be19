"""18 Transports in whole battles played by two random players on scenarios/transport.toml (the
random player embarks after a move on a coin and picks any disembark the rules allow), checked
after every command with the random battles' invariants (bases, board, coherency, the movement
index) and the transports' own: a unit is never both embarked and on the battlefield, is embarked
only in a living friendly transport that can carry it, and the log replays. Seeds come from
hypothesis."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
from hypothesis import given, settings, strategies as st

from sim.battle import Battle
from sim.components import Unit
from sim.players import play_battle
from sim.replay.log import replay, write_log
from sim.scenario.load import load_scenario
from sim.world import queries as W
from test_random_battles import Checker

ROOT = Path(__file__).resolve().parents[2]
SPEC = load_scenario(ROOT / "scenarios/transport.toml")


class TransportChecker(Checker):
    def __init__(self, battle, path):
        super().__init__(battle, path)
        self.embarks = self.disembarks = 0
        battle.listeners.append(self._count)

    def _count(self, e):
        self.embarks += e["type"] == "embarked"
        self.disembarks += e["type"] == "disembarked"

    def end_command(self, battle):
        super().end_command(battle)
        sp = W.spatial()
        for u in W.all_units():
            t = W.embarked_in(u)
            if t is None:
                continue
            assert W.unit_models(u) == [], f"{W.unit_state(u)} embarked and on the table"
            assert u in sp.off_table
            assert esper.component_for_entity(t, Unit).owner == esper.component_for_entity(u, Unit).owner
            assert W.alive_models(t) or not W.alive_models(u), "a passenger outlived its transport aboard"
            assert W.capacity(t) is not None and W.embarked_in(t) is None


@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_18_random_transport_battles_keep_the_invariants_and_replay(tmp_path_factory, seed):
    spec = dataclasses.replace(SPEC, script=(), mission=dataclasses.replace(SPEC.mission, players=("random", "random")))
    with Battle(spec, seed=seed) as b:
        rec = TransportChecker(b, str(ROOT / "scenarios/transport.toml"))
        play_battle(b, spec, rec)
        assert b.turn_state.over and rec.checked == b.commands_done
        path = write_log(tmp_path_factory.mktemp("log") / "battle.jsonl", rec)
    n, div = replay(path)
    assert div is None and n == rec.checked
