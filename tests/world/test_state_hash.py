"""The state hash by declaration (sim.world.state_hash): every field of every state dataclass
feeds the hash unless its declaration marks it a cache, with the reason; the hash written
after every command is the digest of Battle.state(), entities shown by their ids."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from dataclasses import dataclass, field
from enum import StrEnum

import esper
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.components
from _state_values import ROOT, hashed, off_default, other, played_battle
from sim.battle import Battle
from sim.components import Destroyed, Position, UnitState, Wounds
from sim.phases.state import TurnState
from sim.scenario.load import load_scenario
from sim.world import state_hash as SH
from sim.world.resources import Resources


def _ids(b):
    return b._state_parts()["ids"]


def _live_state_objects(b):
    """One live object of each top-level state dataclass the hash reads: a destroyed model's
    Position, Wounds and Destroyed, a unit's UnitState, the TurnState, the Resources."""
    b._enter()
    dead = next(e for e, _ in esper.get_component(Destroyed))
    unit = b.units["r-squad1"]
    return [esper.component_for_entity(dead, Position), esper.component_for_entity(dead, Wounds),
            esper.component_for_entity(dead, Destroyed), esper.component_for_entity(unit, UnitState),
            b.turn_state, b.resources]


def _nested(value, found: dict) -> None:
    """Every dataclass instance held (at any depth) in ``value``, one per class."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found.setdefault(type(value), value)
        for f in hashed(type(value)):
            _nested(getattr(value, f.name), found)
    elif isinstance(value, dict):
        for v in value.values():
            _nested(v, found)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _nested(v, found)


def test_changing_any_hashed_field_of_the_battle_state_changes_the_hash():
    """For each field of Position, Wounds, Destroyed, UnitState, TurnState and Resources that
    is not marked a cache: another value in the live battle changes Battle.state_hash, and
    putting it back restores it."""
    with played_battle() as b:
        before = b.state_hash()
        checked = []
        for obj in _live_state_objects(b):
            for f in hashed(type(obj)):
                old = getattr(obj, f.name)
                setattr(obj, f.name, other(old, f, b))
                changed = b.state_hash()
                setattr(obj, f.name, old)
                assert changed != before, f"{type(obj).__name__}.{f.name} does not reach the hash"
                assert b.state_hash() == before
                checked.append(f"{type(obj).__name__}.{f.name}")
        assert {"UnitState.move_type", "UnitState.model_moved", "UnitState.counteroffensive",
                "UnitState.snap_shooting", "TurnState.tallies", "TurnState.stratagem_targets",
                "TurnState.eligible_this_phase", "TurnState.resume_chooser",
                "TurnState.starting_strength", "Resources.casualties"} <= set(checked)


def test_the_battle_turn_and_the_units_in_reserves_are_in_the_hash():
    with played_battle() as b:
        before = b.state_hash()
        b.turn += 1
        assert b.state_hash() != before
        b.turn -= 1
        off = b.resources.spatial.off_table
        off.add(b.units["w-tank"])
        assert b.state_hash() != before and b.state()["reserves"] == ["w-tank"]
        off.discard(b.units["w-tank"])
        assert b.state_hash() == before


def test_every_field_of_a_nested_state_dataclass_reaches_its_encoding():
    """Objective control, VP tallies and their awards: each hashed field changes the
    canonical form of the object holding it (which the TurnState's form holds)."""
    with played_battle() as b:
        found: dict = {}
        _nested(b.turn_state, found)
        names = {cls.__name__ for cls in found}
        assert {"ObjectiveControl", "VPTally", "Award"} <= names  # (the battle scored)
        ids = _ids(b)
        for cls, obj in found.items():
            for f in hashed(cls):
                changed = dataclasses.replace(obj, **{f.name: other(getattr(obj, f.name), f, b)})
                assert SH.encode(changed, ids) != SH.encode(obj, ids), f"{cls.__name__}.{f.name}"


def test_the_hashed_keys_are_the_declared_fields_less_the_caches():
    """With every field off its default, an object's canonical form has exactly one key per
    declared field not marked a cache: a field added to a state dataclass is hashed without
    anyone listing it."""
    with played_battle() as b:
        ids = _ids(b)
        found: dict = {}
        for obj in _live_state_objects(b):
            _nested(obj, found)
        for cls, obj in found.items():
            names = [f.name for f in hashed(cls)]
            assert list(SH.hashed_fields(cls)) == names
            if cls in (TurnState, Resources):  # (its caches hold the scenario and the index)
                assert len(names) < len(dataclasses.fields(cls))
            full = dataclasses.replace(obj, **{f.name: off_default(obj, f, b) for f in hashed(cls)})
            assert sorted(SH.encode(full, ids)) == sorted(names), cls.__name__


def test_a_field_added_to_a_state_dataclass_is_hashed():
    grown = dataclasses.make_dataclass("GrownUnitState", [("new_flag", bool, False)],
                                       bases=(UnitState,), slots=True)
    assert SH.hashed_fields(grown) == SH.hashed_fields(UnitState) + ("new_flag",)
    assert SH.encode(grown(), None) == {}
    assert SH.encode(grown(new_flag=True), None) == {"new_flag": True}


def test_every_cache_mark_gives_its_reason():
    for cls in (Position, Wounds, Destroyed, UnitState, TurnState, Resources):
        for f in dataclasses.fields(cls):
            if SH.CACHE in f.metadata:
                assert isinstance(f.metadata[SH.CACHE], str) and f.metadata[SH.CACHE].strip()


@pytest.mark.parametrize("meta, expected", [
    ({"cache": ""}, "expected the reason it is not hashed"),
    ({"cache": None}, "expected the reason it is not hashed"),
    ({"chache": "derived"}, "expected metadata keys"),
    ({"ids": "squad"}, "expected ids of unit or model"),
    ({"reset": "round"}, "expected a reset scope of turn or phase"),
])
def test_a_misdeclared_field_is_an_error_naming_it(meta, expected):
    probe = dataclasses.make_dataclass("Probe", [("a", int, 0), ("b", int, field(default=0, metadata=meta))])
    with pytest.raises(ValueError, match=expected) as err:
        SH.hashed_fields(probe)
    assert "Probe.b" in str(err.value)


def test_every_component_is_state_or_says_why_not():
    """Each dataclass of sim.components is hashed per model, per unit, or named in NOT_STATE
    with its reason: a new component cannot be left out unseen."""
    components = {c for _, c in inspect.getmembers(sim.components, inspect.isclass)
                  if dataclasses.is_dataclass(c) and c.__module__ == "sim.components"}
    state = set(SH.MODEL_STATE) | set(SH.UNIT_STATE)
    assert not state & set(SH.NOT_STATE)
    assert components == state | set(SH.NOT_STATE)
    assert all(isinstance(why, str) and why.strip() for why in SH.NOT_STATE.values())


def test_entities_are_shown_by_their_unit_and_model_ids():
    with played_battle() as b:
        state = b.state()
        assert set(state["battle"]["starting_strength"]) == set(b.units)
        assert set(state["models"]) == set(b.models) and set(state["units"]) == set(b.units)
        ts = b.turn_state
        ts.engaged_at_fight_step = {b.units["w-tank"], b.units["r-boss"]}
        ts.pending_fights = [b.units["w-tank"], b.units["r-boss"]]
        b.resources.casualties.append(b.models["r-squad1/2"])
        state = b.state()
        assert state["battle"]["engaged_at_fight_step"] == ["r-boss", "w-tank"]  # (sorted)
        assert state["battle"]["pending_fights"] == ["w-tank", "r-boss"]  # (in order)
        assert state["resources"] == {"casualties": ["r-squad1/2"]}
        b.resources.casualties.pop()


def test_a_fresh_object_shows_only_what_differs_from_its_defaults():
    assert SH.encode(UnitState(), None) == {}
    assert SH.encode(UnitState(moved=1e-9), None) == {}  # (shown as 0.0, the default)
    assert SH.encode(UnitState(moved=2.0000004, used_one_shot=frozenset({"b", "a"})), None) == {
        "moved": 2.0, "used_one_shot": ["a", "b"]}
    assert SH.encode(Destroyed(), None) == {}  # (its presence is the news: a destroyed model)


class Colour(StrEnum):
    RED = "red"


@dataclass
class _Probe:
    a: object = None


def test_the_canonical_form():
    assert SH.canonical(-0.0, None) == 0.0 and math.copysign(1, SH.canonical(-0.0, None)) == 1
    assert SH.canonical(1.23456789, None) == 1.234568
    assert SH.canonical({3, 1, 2}, None) == [1, 2, 3]
    assert SH.canonical((Colour.RED, None), None) == ["red", None]
    assert SH.canonical({1: _Probe(2.5)}, None) == {"1": {"a": 2.5}}
    with pytest.raises(TypeError, match="cannot show a object"):
        SH.canonical(object(), None)


def test_free_play_hashes_what_it_has():
    with Battle(load_scenario(ROOT / "scenarios/default.toml")) as b:
        assert b.turn_state is None
        state = b.state()
        assert sorted(state) == ["models", "reserves", "resources", "turn", "units"]
        before = b.state_hash()
        b._enter()
        st_ = esper.component_for_entity(next(iter(b.units.values())), UnitState)
        st_.snap_shooting = True
        assert b.state_hash() != before
        st_.snap_shooting = False
        assert b.state_hash() == before


def test_the_hash_is_the_digest_of_the_state_after_every_command(monkeypatch):
    """Battle.state_hash writes the models' and units' parts from memoised texts
    (state_hash.battle_digest): after every command of two random battles it is the digest of
    Battle.state() as canonical JSON."""
    seen = []
    original = Battle.resolve

    def resolve(self, answer=None):
        original(self, answer)
        assert self.state_hash() == SH.digest(self.state())
        seen.append(1)

    monkeypatch.setattr(Battle, "resolve", resolve)
    for seed in (5, 6):
        played_battle(seed).close()
    assert len(seen) > 100


_numbers = st.one_of(st.floats(-100, 100, allow_nan=False), st.integers(-3, 3), st.booleans(),
                     st.sampled_from([0, 0.0, -0.0, 1, 1.0, True, False]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_numbers, _numbers, st.integers(-1, 3), st.one_of(st.none(), st.tuples(
    st.booleans(), st.sampled_from(["", "shooting", "coherency (03.03)"])))), min_size=1, max_size=6),
    st.lists(st.tuples(_numbers, _numbers), max_size=3))
def test_the_memoised_texts_are_the_canonical_json(models, earlier):
    """entity_texts (memoised, column-wise) writes what json writes of entity_state, whatever
    was memoised before: 1, 1.0 and True (and 0.0 and -0.0) of the same value never share a
    text unless they show alike."""
    names = {i: f"m/{i}" for i in range(len(models))}
    SH.entity_texts({Position: [(0, Position(x, y)) for x, y in earlier]}, {0: "m/0"}, None)
    comps = {Position: [(i, Position(x, y)) for i, (x, y, _, _) in enumerate(models)],
             Wounds: [(i, Wounds(w)) for i, (_, _, w, _) in enumerate(models)],
             Destroyed: [(i, Destroyed(*d)) for i, (_, _, _, d) in enumerate(models) if d is not None]}
    text = SH.entity_texts(comps, names, None)
    assert text == json.dumps(SH.entity_state(comps, names, None), sort_keys=True, separators=(",", ":"))
