"""Battle.fork (sim.world.fork): an independent copy of a battle at an idle point.

A fork shares nothing mutable with its original; playing it changes nothing of the original,
which plays on exactly as a battle never forked; with the same commands and answers a fork
(seed None) gives the original's events and state hash, with another seed other dice; forks
of forks work, a closed fork is freed; esper reads each battle's own world."""

from __future__ import annotations

import dataclasses
import enum
import gc
import json
import types
import weakref

import esper
import numpy as np
import pytest

from sim import components as K
from sim.battle import Battle
from sim.commands import StartBattle
from sim.players.loop import make_player
from sim.rules.dice import KeyedDice
from sim.scenario.load import load_scenario
from sim.world import fork as FK
from tests.support.rules_replay import ROOT, default_table_with

DEFAULT = ROOT / "scenarios/battle_default.toml"


# --- playing ------------------------------------------------------------------------------------

def players_for(battle, kinds=None):
    sc = battle.scenario
    return [make_player(k, s, battle, sc) for s, k in enumerate(kinds or battle.turn_state.mission.players)]


def play(battle, players, commands: int | None = None) -> list:
    """Play ``commands`` commands (None: to the end) with ``players`` (Start Battle first, if the
    battle has not started: not counted); returns what was played, (command, the answers given)
    each, to be played again on another battle (``replay``)."""
    ts = battle.turn_state
    script = []

    def run(command, chosen_answer=None):
        answers = []

        def answer(req):
            a = chosen_answer(req) if chosen_answer else players[req.player].answer(battle, req)
            answers.append(a)
            return a
        battle.submit(command)
        battle.resolve(answer)
        script.append((command, answers))

    if ts.round == 0:
        run(StartBattle())
    n = 0
    while not ts.over and (commands is None or n < commands):
        c = players[ts.chooser].choose(battle)
        run(c.command, c.answer)
        n += 1
    return script


def replay(battle, script, defaults: bool = False) -> None:
    """Submit the script's commands with their recorded answers (``defaults``: a command's
    decisions beyond those recorded, as a battle on other dice may ask, answered by their
    defaults)."""
    for command, answers in script:
        it = iter(answers)
        battle.submit(command)
        battle.resolve((lambda req: next(it, req.default)) if defaults else (lambda req: next(it)))


def mid_battle(path, commands: int, seed: int | None = None):
    """A battle of the file played ``commands`` commands in by its players (and the players)."""
    b = Battle(load_scenario(path), seed=seed)
    players = players_for(b)
    play(b, players, commands)
    assert not b.turn_state.over and not b.busy
    return b, players


_DEFAULT: dict = {}


def default_script() -> list:
    """The default battle played to the end by its players, once: what was played, and at its
    end the state hash and the events."""
    if not _DEFAULT:
        with Battle(load_scenario(DEFAULT)) as b:
            _DEFAULT["script"] = play(b, players_for(b))
            _DEFAULT["end"] = (b.state_hash(), json.dumps(b.events, sort_keys=True))
    return _DEFAULT["script"]


def default_mid_battle(commands: int = 60) -> tuple[Battle, list]:
    """The default battle given the start and the next ``commands`` commands of default_script
    (in battle round 2), and the rest of the script."""
    script = default_script()
    b = Battle(load_scenario(DEFAULT))
    replay(b, script[:commands + 1])
    assert not b.turn_state.over and not b.busy
    return b, script[commands + 1:]


def without_dice(events) -> str:
    return json.dumps([e for e in events if e["type"] != "dice"], sort_keys=True)


# --- sharing ------------------------------------------------------------------------------------

def _immutable(o) -> bool:
    t = type(o)
    if t in (int, float, str, bool, bytes, complex, type(None), range):
        return True
    if isinstance(o, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                      types.MethodType, types.CodeType)):
        return True
    if isinstance(o, enum.Enum):
        return True
    if dataclasses.is_dataclass(t) and t.__dataclass_params__.frozen:
        return True
    return False


def reachable(roots, stop_ids: set) -> dict[int, object]:
    """Every object reachable from ``roots`` that can change (list, dict, set, a writeable array,
    an instance of a class that is not a frozen dataclass...), by id. The walk does not enter
    immutables (it enters tuples and frozensets, which may hold mutables), objects in
    ``stop_ids`` (the battles themselves, the scenario), objects of sim.world.fork's shared
    component types, attributes sim.world.fork declares shared, and frozen dataclasses (fixed by
    the scenario)."""
    shared_types = tuple(t for t, how in FK.COMPONENTS.items() if how is FK.SHARE)
    shared_attrs = FK.SHARED_ATTRS
    seen: dict[int, object] = {}
    found: dict[int, object] = {}
    stack = list(roots)
    while stack:
        o = stack.pop()
        i = id(o)
        if i in seen or i in stop_ids or _immutable(o) or isinstance(o, shared_types):
            continue
        seen[i] = o
        t = type(o)
        if isinstance(o, np.ndarray):
            if o.flags.writeable:
                found[i] = o
            if o.base is not None:  # (a read-only view: of which array)
                stack.append(o.base)
            continue
        if t not in (tuple, frozenset) and not (isinstance(o, tuple) and hasattr(o, "_fields")):
            found[i] = o
        names = shared_attrs.get(f"{t.__module__}.{t.__qualname__}")
        if not isinstance(o, (list, dict, set, tuple, frozenset)) and (
                hasattr(o, "__dict__") or hasattr(t, "__slots__")):
            attrs = dict(getattr(o, "__dict__", {}))
            for cls in t.__mro__:
                for s in getattr(cls, "__slots__", ()):
                    if hasattr(o, s):
                        attrs[s] = getattr(o, s)
            for k, v in attrs.items():
                if names is None or k not in names:
                    stack.append(v)
            continue
        stack.extend(gc.get_referents(o))
    return found


def state_roots(battle) -> list:
    """What a battle's state is: its esper world (as esper keeps it), resources, turn state,
    changes, dice, visibility, systems, answers."""
    ctx = esper._context_map[battle.world]
    return [ctx, battle.resources, battle.turn_state, battle.changes, battle.dice,
            battle._visibility, battle._answers, battle.queue, battle.listeners,
            [p.__self__ for p in battle.systems]]


def test_a_fork_shares_no_mutable_state_with_its_original():
    b, _ = default_mid_battle()
    assert_shares_nothing(b)


def test_a_fork_of_a_battle_with_rules_shares_no_mutable_state_with_its_original(tmp_path):
    path = default_table_with(tmp_path, ["oath-of-moment", "acts-of-faith"], ["waaagh"])
    b, _ = mid_battle(path, 75, seed=7)
    res = b.resources
    assert res.rule_choices and res.dice_pools  # (the rules' records are there to be copied)
    assert_shares_nothing(b)


def assert_shares_nothing(b) -> None:
    f = b.fork()
    esper.switch_world("default")  # (esper's table then holds both worlds' current contexts)
    try:
        stop = {id(b), id(f), id(b.scenario), id(b.units), id(b.models), id(b.scenario_allocation_orders)}
        mine = reachable(state_roots(f), stop)
        theirs = reachable(state_roots(b), stop)
        both = [o for i, o in mine.items() if i in theirs]
        ents = esper._context_map[f.world][2]
        assert all(id(c[K.Position]) in mine for c in ents.values() if K.Position in c)  # (it walked the world)
        assert id(f.resources.spatial.dist) in mine and id(f._visibility.index._los) in mine
        assert not both, [type(o).__qualname__ for o in both][:20]
    finally:
        f.close()
        b.close()


def test_what_is_shared_is_not_changed_by_playing_a_fork_to_the_end():
    b, rest = default_mid_battle()
    b._enter()
    shared = [(c, repr(c)) for e, comps in esper._entities.items() for c in comps.values()
              if FK.COMPONENTS.get(type(c), 0) is FK.SHARE]
    assert shared
    with b, b.fork() as f:
        replay(f, rest)
        assert f.turn_state.over
        assert [repr(c) for c, _ in shared] == [r for _, r in shared]


# --- independence and determinism ------------------------------------------------------------------

def test_playing_a_fork_leaves_the_original_as_it_was_and_it_plays_on_as_if_never_forked():
    b, rest = default_mid_battle()
    before, events = b.state_hash(), json.dumps(b.events, sort_keys=True)
    with b.fork() as f:
        play(f, players_for(f, ("random", "random")))
        assert f.turn_state.over
    assert b.state_hash() == before and json.dumps(b.events, sort_keys=True) == events
    with b:
        replay(b, rest)
        assert b.turn_state.over
        assert (b.state_hash(), json.dumps(b.events, sort_keys=True)) == _DEFAULT["end"]


def test_a_fork_given_the_same_commands_gives_the_same_events_and_state_hash():
    b, rest = default_mid_battle()
    f, quiet = b.fork(record_dice=True), b.fork()
    assert f.state_hash() == b.state_hash() == quiet.state_hash()
    at = len(b.events)
    for x in (b, f, quiet):
        replay(x, rest)
    assert f.turn_state.over and f.state_hash() == b.state_hash() == quiet.state_hash()
    assert json.dumps(f.events[f.forked_events:]) == json.dumps(b.events[at:])  # (its dice too)
    assert without_dice(quiet.events[quiet.forked_events:]) == without_dice(b.events[at:])
    assert not any(e["type"] == "dice" for e in quiet.events)  # (a fork records no dice by default)
    assert f.dice.count == b.dice.count == quiet.dice.count
    for x in (f, quiet, b):
        x.close()


def test_a_fork_and_its_original_played_in_turns_each_play_as_if_alone():
    """One command on the original, the same on the fork, and so on: neither sees the other's
    world (nothing keyed by entity ids alone outlives a switch of world)."""
    b, rest = default_mid_battle()
    f = b.fork()
    at = len(b.events)
    for step in rest:
        replay(b, [step])
        replay(f, [step])
    assert b.turn_state.over and b.state_hash() == f.state_hash()
    assert (b.state_hash(), json.dumps(b.events, sort_keys=True)) == _DEFAULT["end"]
    assert without_dice(f.events[f.forked_events:]) == without_dice(b.events[at:])
    f.close()
    b.close()


def test_a_fork_with_a_seed_rolls_other_dice_and_one_without_the_same():
    b, _ = default_mid_battle()
    same, other = b.fork(), b.fork(seed=b.seed + 1)
    assert other.seed == b.seed + 1 and same.seed == b.seed
    assert same.dice.d6(30, "test") == b.dice.d6(30, "test")
    assert other.dice.d6(30, "test") != same.dice.d6(30, "test")
    for f in (same, other, b):
        f.close()


def test_a_keyed_fork_rolls_common_random_numbers_and_its_fork_goes_on_with_them():
    b, rest = default_mid_battle()
    mark = b.dice._rng.getstate()
    with b, b.fork(seed=5, keyed=True) as f, b.fork(seed=5, keyed=True) as g:
        assert isinstance(f.dice, KeyedDice) and f.seed == 5
        g.dice.d6(3, "advance roll u-1")  # (another roll first: the same roll the same dice)
        assert f.dice.d6(2, "charge roll u-2") == g.dice.d6(2, "charge roll u-2")
        ff = f.fork()  # (no seed: goes on with the fork's dice, the rolls counted so far)
        assert isinstance(ff.dice, KeyedDice) and ff.dice.count == f.dice.count
        assert ff.dice.d6(2, "charge roll u-2") == f.dice.d6(2, "charge roll u-2")
        # (the same commands on two keyed forks of a seed: the same battle; their dice are not
        # the recording's, so a command may ask more than it recorded: defaults, on both)
        replay(ff, rest[:20], defaults=True)
        with f.fork() as again:
            replay(again, rest[:20], defaults=True)
            assert again.state_hash() == ff.state_hash()
        ff.close()
        # (a keyed fork's dice come from its seed alone: no seed, no keyed dice)
        with pytest.raises(FK.ForkError, match="seed"):
            b.fork(keyed=True)
    assert b.dice._rng.getstate() == mark


def test_a_fork_with_another_seed_plays_another_battle():
    b, _ = default_mid_battle()
    with b, b.fork() as same, b.fork(seed=b.seed + 1) as other:
        for f in (same, other):
            play(f, players_for(f))
        assert same.state_hash() == _DEFAULT["end"][0]
        assert other.state_hash() != same.state_hash()


def test_forks_of_forks_and_closing_a_fork_frees_it():
    b, rest = default_mid_battle()
    f = b.fork()
    replay(f, rest[:15])
    ff = f.fork()
    assert ff.state_hash() == f.state_hash() and ff.forked_from == f.world
    replay(f, rest[15:])
    replay(ff, rest[15:])
    assert ff.state_hash() == f.state_hash() == _DEFAULT["end"][0]
    worlds = (f.world, ff.world)
    gone = [weakref.ref(x) for x in (f, ff)]
    gc.disable()  # (freed by reference counting alone, as a closed Battle is: Battle.close)
    try:
        f.close()  # (the last one entered: its original is entered again)
        ff.close()
        del f, ff
        assert not any(w in esper.list_worlds() for w in worlds)
        assert all(r() is None for r in gone)
    finally:
        gc.enable()
    assert esper.current_world == b.world
    with b:
        replay(b, rest)  # (the original plays on)
        assert b.state_hash() == _DEFAULT["end"][0]


def test_each_battle_reads_its_own_world_whichever_was_entered_last():
    b, _ = default_mid_battle()
    b._enter()
    unit = next(iter(b.units.values()))
    model = esper.component_for_entity(unit, K.Unit).models[0]
    f = b.fork()
    assert esper.current_world == b.world  # (forking leaves the original entered)
    f._enter()
    pos = esper.component_for_entity(model, K.Position)
    pos.x += 1.0  # (the fork's own Position)
    orig = b.state()
    assert esper.current_world == b.world
    assert esper.component_for_entity(model, K.Position) is not pos
    assert orig != f.state()
    f.close()
    b.close()


def test_a_fork_of_a_battle_resolving_a_command_is_refused():
    b, rest = default_mid_battle()
    command, answers = rest[0]
    b.submit(command)
    assert b.busy
    with pytest.raises(FK.ForkError, match="resolving a command"):
        b.fork()
    it = iter(answers)
    b.resolve(lambda req: next(it))
    b.fork().close()
    b.close()
    with pytest.raises(FK.ForkError, match="closed"):
        b.fork()


# --- the tables -----------------------------------------------------------------------------------

def test_every_component_type_is_in_the_fork_table():
    declared = {v for v in vars(K).values() if isinstance(v, type) and dataclasses.is_dataclass(v)
                and v.__module__ == K.__name__}
    assert declared == set(FK.COMPONENTS) | set(FK.NOT_AT_IDLE)


def test_a_component_type_missing_from_the_table_stops_the_fork():
    @dataclasses.dataclass(slots=True)
    class NewThing:
        value: int = 0

    b, _ = default_mid_battle(commands=2)
    b._enter()
    esper.add_component(next(iter(b.units.values())), NewThing())
    with pytest.raises(TypeError, match="NewThing is not in sim.world.fork.COMPONENTS"):
        b.fork()
    b.close()


def test_a_value_of_an_unknown_type_in_the_state_stops_the_fork():
    b, _ = default_mid_battle(commands=2)
    b.resources.rule_marks["x"] = object()
    with pytest.raises(TypeError, match="no copier"):
        b.fork()
    b.close()


# --- rules that read the past -------------------------------------------------------------------

@pytest.mark.parametrize("red, blue", [(["oath-of-moment"], ["waaagh"]), (["code-chivalric"], [])])
def test_a_fork_of_a_battle_with_rules_plays_on_as_its_original(tmp_path, red, blue):
    """Rules that read the battle's past events (sim.world.fork.HISTORY) read the fork's kept part."""
    path = default_table_with(tmp_path, red, blue)
    for n in (40, 75):
        b, players = mid_battle(path, n, seed=7)
        f = b.fork()
        at = len(b.events)
        script = play(b, players)
        replay(f, script)
        assert f.state_hash() == b.state_hash()
        assert without_dice(f.events[f.forked_events:]) == without_dice(b.events[at:])
        f.close()
        b.close()


def test_the_past_the_rules_read_reads_the_same_on_a_fork():
    """sim.world.fork.HISTORY: what the rules read of the battle's past events (the units targeted
    this phase, the units destroyed this battle round) answers the same on a fork as on its
    original, at every idle point of a battle's rounds 2 and 3."""
    from sim.phases.oaths import _destroyed_this_round
    from sim.world.rule_effects import targeted_this_phase

    def answers(battle):
        battle._enter()
        return ([sorted(targeted_this_phase(battle, u)) for u in battle.units.values()],
                [_destroyed_this_round(battle, p) for p in (0, 1)])

    b, rest = default_mid_battle(commands=30)
    seen = [0, 0]
    with b:
        for step in rest:
            replay(b, [step])
            if b.turn_state.over or b.turn_state.round > 3:
                break
            with b.fork() as f:
                mine = answers(f)
            theirs = answers(b)
            assert mine == theirs
            seen[0] += any(theirs[0])
            seen[1] += any(theirs[1])
    assert all(seen)  # (some were targeted, some destroyed: the test read something)


# --- other kinds of battles ------------------------------------------------------------------------

def test_forks_of_a_battle_deployed_by_the_rules_play_on_as_the_original():
    """Forks before the battle begins (26 steps 5-11: units still to set up) and in it."""
    path = ROOT / "scenarios/deployment.toml"
    with Battle(load_scenario(path)) as ref:
        script = play(ref, players_for(ref, ("random", "random")))
        end = ref.state_hash()
    with Battle(load_scenario(path)) as b:
        done = 0
        for k in (1, 8, len(script) // 2):
            replay(b, script[done:k])
            assert (b.turn_state.round == 0) == (k < 10)  # (the first two before battle round 1)
            with b.fork() as f:
                assert f.state_hash() == b.state_hash()
                replay(f, script[k:k + 5])
                replay(b, script[k:k + 5])
                assert f.state_hash() == b.state_hash()
            done = k + 5
        replay(b, script[done:])
        assert b.turn_state.over and b.state_hash() == end


def test_a_fork_of_a_battle_in_free_play():
    """A scenario without a mission (no turn state): its script's steps, forked half way."""
    from sim.players.resolve import run_step
    spec = load_scenario(ROOT / "scenarios/abilities_defence.toml")
    assert spec.mission is None and len(spec.script) > 2
    half = len(spec.script) // 2
    with Battle(spec) as ref:
        for step in spec.script:
            run_step(ref, spec, step)
        end = ref.state_hash()
    with Battle(spec) as b:
        for step in spec.script[:half]:
            run_step(b, spec, step)
        with b.fork() as f:
            assert f.turn_state is None
            for step in spec.script[half:]:
                run_step(f, spec, step)
            assert f.state_hash() == end
        for step in spec.script[half:]:
            run_step(b, spec, step)
        assert b.state_hash() == end
