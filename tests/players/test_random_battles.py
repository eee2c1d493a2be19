"""Invariants of whole battles played by two random players (sim.players.RandomPlayer), checked
after every command: no two bases overlap, no model leaves the board, every unit that moved is
coherent after its move (03.03), wounds are never negative, VP never exceed the caps (26), every
model of a unit that fights attacks if it can (12.04), and the battle's log replays
byte-identically. Seeds come from hypothesis."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from battle_checker import Checker
from hypothesis import given, settings, strategies as st

from sim.battle import Battle
from sim.players import play_battle
from sim.replay.log import replay, write_log
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SPEC = load_scenario(ROOT / "scenarios/battle_random.toml")


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



# A small table where every unit starts engaged (12.04): r1 with two enemy units, each of its
# models engaged with one of them only ([EXTRA ATTACKS] weapons too); r2 without a melee weapon
# (the rules' FAQ); r3 with a [ONE SHOT] melee weapon (24.26).
CLOSE_QUARTERS = """
[battle]
name = "Close quarters"
seed = 1
board = [60, 44]

[mission]
first = "red"
rounds = 2
deployed = false
players = { red = "random", blue = "random" }

[weapons.blade]
range = "melee"
A = 2
WS = 3
S = 4
AP = 0
D = 1

[weapons.spike]
range = "melee"
A = 1
WS = 4
S = 4
AP = 0
D = 1
abilities = "[EXTRA ATTACKS]"

[weapons.charge]
range = "melee"
A = 1
WS = 3
S = 5
AP = 0
D = 1
abilities = "[ONE SHOT]"

[weapons.gun]
range = 24
A = 1
BS = 3
S = 4
AP = 0
D = 1

[[armies]]
name = "Red"

[[armies.units]]
id = "r1"
keywords = ["INFANTRY"]
models = [{ count = 3, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, weapons = ["blade", "spike"], at = [[16, 20], [18, 20], [20, 20]] }]

[[armies.units]]
id = "r2"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[30, 20], [31.5, 20]] }]

[[armies.units]]
id = "r3"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, weapons = ["charge", "blade"], at = [[40, 20], [41.5, 20]] }]

[[armies]]
name = "Blue"

[[armies.units]]
id = "b1"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[15, 21.3], [16.3, 21.3]] }]

[[armies.units]]
id = "b2"
keywords = ["INFANTRY"]
models = [{ M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["blade", "spike"], at = [[21.3, 20]] }]

[[armies.units]]
id = "b3"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[30, 21.3], [31.5, 21.3]] }]

[[armies.units]]
id = "b4"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, weapons = ["blade", "spike"], at = [[40, 21.3], [41.5, 21.3]] }]
"""


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_random_battles_at_close_quarters_fight_by_the_rules_and_replay(tmp_path_factory, seed):
    """The random players' fights pass the rules (12.04: every model that can fight attacks),
    so battles that start in melee play to their end, with fights, and replay."""
    path = tmp_path_factory.mktemp("close") / "close_quarters.toml"
    path.write_text(CLOSE_QUARTERS)
    spec = load_scenario(path)
    with Battle(spec, seed=seed) as b:
        rec = Checker(b, str(path))
        play_battle(b, spec, rec)
        assert b.turn_state.over and rec.checked == b.commands_done
        assert any(e["type"] == "weapons selected" and e["kind"] == "fight" for e in b.events)
        log = write_log(path.parent / "battle.jsonl", rec)
    n, div = replay(log)
    assert div is None and n == rec.checked
