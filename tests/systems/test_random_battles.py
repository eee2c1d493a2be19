"""Invariants of whole battles played by two random players (sim.players.RandomPlayer), checked
after every command: no two bases overlap, no model leaves the board, every unit that moved is
coherent after its move (03.03), wounds are never negative, VP never exceed the caps (26), and
the battle's log replays byte-identically. Seeds come from hypothesis."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import esper
from hypothesis import given, settings, strategies as st

from sim.battle import Battle
from sim.components import Unit, Wounds
from sim.players import play_battle
from sim.plan import moves as MV
from sim.replay.log import Recorder, replay, write_log
from sim.rules import geometry
from sim.rules.coherency import coherency_problems
from sim.rules.mission import CAPS, PRIMARY
from sim.rules.movement.index import Body, BodyIndex
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
SPEC = load_scenario(ROOT / "scenarios/battle_random.toml")
MOVES = ("moved", "charge", "piled in", "consolidated")


class Checker(Recorder):
    """A recorder that also checks the invariants after each command."""

    def __init__(self, battle, path):
        super().__init__(battle, path)
        self.battle = battle
        self.moved: list[str] = []
        self.checked = 0
        battle.listeners.append(self._note)

    def _note(self, e):
        if e["type"] in MOVES and e.get("to"):
            self.moved.append(e["unit"])

    def end_command(self, battle):
        super().end_command(battle)
        battle._enter()
        bw, bh = battle.scenario.board
        fps = []
        for u in W.all_units():
            for m in W.unit_models(u):
                fp = W.footprint(m)
                xs, ys = geometry.outline(fp).T  # (every part of the base on the board, 03.01)
                assert xs.min() >= -1e-6 and xs.max() <= bw + 1e-6, W.model_id(m)
                assert ys.min() >= -1e-6 and ys.max() <= bh + 1e-6, W.model_id(m)
                assert esper.component_for_entity(m, Wounds).remaining > 0
                fps.append((W.model_id(m), fp))
        for (a, fa), (b, fb) in itertools.combinations(fps, 2):
            if abs(fa.x - fb.x) < fa.bounding_radius + fb.bounding_radius and \
                    abs(fa.y - fb.y) < fa.bounding_radius + fb.bounding_radius:
                assert not geometry.overlaps(fa, fb), f"{a} overlaps {b}"
        for uid in self.moved:
            u = battle.units[uid]
            models = [(W.model_id(m), W.footprint(m)) for m in W.unit_models(u)]
            assert not coherency_problems(models), (uid, coherency_problems(models))
        self.moved.clear()
        alive = W.spatial().units_with_models(len(W.all_units()))
        for u in W.all_units():  # (enemy_units is kept per owner: the same as asking afresh)
            me = esper.component_for_entity(u, Unit).owner
            assert W.enemy_units(u) == [e for e in W.all_units()
                                        if alive[esper.component_for_entity(e, Unit).order]
                                        and esper.component_for_entity(e, Unit).owner != me]
        assert_same_bodies(MV.bodies(), BodyIndex([
            Body(W.model_id(m), esper.component_for_entity(u, Unit).id,
                 esper.component_for_entity(u, Unit).owner, W.footprint(m))
            for u in W.all_units() for m in W.unit_models(u)]))
        ts = battle.turn_state
        total, per_round = CAPS[PRIMARY]
        for p in (0, 1):
            assert 0 <= ts.vp[p] <= total
            for r in range(1, 6):
                assert ts.tallies[p].in_round(r, PRIMARY) <= per_round
        self.checked += 1


def assert_same_bodies(kept: BodyIndex, fresh: BodyIndex) -> None:
    """The table as the movement rules read it (kept on the spatial index and brought up to
    date after each move, sim.plan.moves.bodies) is the table built afresh from the world."""
    assert kept.bodies == fresh.bodies and kept.ids == fresh.ids and kept.units == fresh.units
    for a in ("players", "centres", "round", "radius", "bound"):
        assert (getattr(kept, a) == getattr(fresh, a)).all(), a
    assert {u: r.tolist() for u, r in kept.unit_rows.items()} == \
        {u: r.tolist() for u, r in fresh.unit_rows.items()}
    for j in range(len(kept)):
        if not kept.round[j]:
            assert (kept.core(j) == fresh.core(j)).all()


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_random_battles_keep_the_invariants_and_replay(tmp_path_factory, seed):
    spec = dataclasses.replace(SPEC, mission=dataclasses.replace(SPEC.mission, players=("random", "random")))
    with Battle(spec, seed=seed) as b:
        rec = Checker(b, str(ROOT / "scenarios/battle_random.toml"))
        play_battle(b, spec, rec)
        assert b.turn_state.over and rec.checked == b.commands_done > 50
        path = write_log(tmp_path_factory.mktemp("log") / "battle.jsonl", rec)
    n, div = replay(path)
    assert div is None and n == rec.checked
