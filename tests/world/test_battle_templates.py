"""sim.world.templates: a battle of a scenario played before is a copy of a pristine battle of it,
and that copy is what building it from the scenario gives, on every scenario: the same state
hash before the first command, the same events and final state when played (its players, or
its script), its own seed's dice; the pristine battle never changes as copies are played; only
the last few scenarios keep one; a battle given its own dice is built."""

from __future__ import annotations

import json
from pathlib import Path

import esper
import pytest

from sim.battle import Battle
from sim.players.runner import play
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario
from sim.world import templates

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml")) + [ROOT / "scenarios/ladder/full_size.toml"]


def _played(spec, seed: int) -> tuple[str, str, list, str]:
    """A battle of ``spec``: its state hash before the first command, its world's name, its
    events played out (as JSON lines) and its final state hash."""
    with Battle(spec, seed=seed) as b:
        start, world = b.state_hash(), b.world
        play(b, spec)
        return start, world, [json.dumps(e, sort_keys=True) for e in b.events], b.state_hash()


@pytest.fixture(autouse=True)
def fresh():
    templates.forget()
    yield
    templates.forget()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_copy_is_the_battle_built_from_the_scenario(path):
    spec = load_scenario(path)
    seed = spec.seed                       # (a script is written for its scenario's dice)
    built = _played(spec, seed)            # (the first battle of a scenario: built)
    assert not templates.kept_worlds()
    copied = _played(spec, seed)           # (the second: a copy of a pristine one, kept)
    pristine = next(t for s, t in templates._kept if s is spec)
    assert templates.kept_worlds() == {pristine.world} and copied[1] != pristine.world
    assert copied[0] == built[0] and copied[3] == built[3]
    assert copied[2] == built[2]
    assert pristine.state_hash() == built[0] and not pristine.events   # (never played)
    again = _played(spec, seed)            # (a copy made after another was played)
    assert (again[0], again[2], again[3]) == (built[0], built[2], built[3])


def test_copies_have_their_own_seeds_dice_and_leave_the_pristine_battle_as_it_was():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    runs = {}
    for seed in (1, 2, 1, 3, 2):
        start, _world, events, end = _played(spec, seed)
        runs.setdefault(seed, []).append((start, events, end))
    assert all(r == rs[0] for rs in runs.values() for r in rs)         # (a seed: the same battle)
    assert len({rs[0][2] for rs in runs.values()}) == 3                 # (seeds: other battles)
    templates.forget()
    assert [_played(spec, s)[2] for s in (3, 1)] == [runs[3][0][1], runs[1][0][1]]


def test_only_the_last_scenarios_keep_a_pristine_battle_and_a_let_go_one_is_closed():
    names = ("default", "anti_vehicle", "modifiers", "reserves", "transport")
    specs = [load_scenario(ROOT / f"scenarios/{n}.toml") for n in names]
    worlds = []
    for spec in specs:
        for _ in range(2):
            with Battle(spec, seed=1):
                pass
        worlds.append(next(t for s, t in templates._kept if s is spec).world)
    assert len(templates._kept) == templates.KEEP == 4
    assert worlds[0] not in esper.list_worlds() and templates.kept_worlds() == set(worlds[1:])
    with Battle(specs[1], seed=2):                                      # (asked for again: kept longest)
        pass
    same = load_scenario(ROOT / "scenarios/modifiers.toml")             # (loaded again: another)
    with Battle(same, seed=1):
        pass
    assert all(s is not same or t is None for s, t in templates._kept)
    assert worlds[1] in esper.list_worlds() and worlds[2] not in esper.list_worlds()


def test_a_battle_given_its_dice_is_built():
    spec = load_scenario(ROOT / "scenarios/default.toml")
    for _ in range(3):
        with Battle(spec, dice=ForcedDice([3] * 50)) as b:
            assert b.world not in templates.kept_worlds()
    assert not templates.kept_worlds()
