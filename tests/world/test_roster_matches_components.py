"""The Roster (a unit's models' static data, read once when the world is built) and the caches
built on it answer exactly what the model components say, however models are lost: unit
keywords (19.03), mixed T (05.02.01/19.02), Feel No Pain (24.12), CHARACTER presence, target
models and allocation groups (05.03), MONSTER/VEHICLE status."""

from __future__ import annotations

import dataclasses

import esper
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.battle import Battle
from sim.components import (Character, Keyword, ModelAbilities, ModelId, Roster, Stats, Unit,
                            UnitMember, Wounds)
from sim.rules.allocation import TargetModel, allocation_groups
from sim.world import queries as W
from scen import kill, model, row, scenario, unit, weapon

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1)}


def spec():
    leader = model((10, 20), ["gun"], name="Captain", T=5, W=4, Sv=2, InSv=4, role="leader",
                   keywords=("CHARACTER",), ids=["band/cap"])
    guards = model(row(12, 20, 4), ["gun"], T=4, W=2, Sv=3)
    heavy = model((20, 20), ["gun"], T=6, W=3, Sv=3, keywords=("VEHICLE",))
    band = unit("band", leader, guards, heavy, abilities="Feel No Pain 5+")
    foes = unit("foes", model(row(12, 40, 3), ["gun"], W=1))
    return scenario(WEAPONS, [band], [foes])


def by_components(u: int) -> dict:
    """The answers, read off each model's own components."""
    models = esper.component_for_entity(u, Unit).models
    living = [m for m in models if esper.component_for_entity(m, Wounds).remaining > 0]
    kw = frozenset().union(*(esper.component_for_entity(m, Keyword).names for m in living))
    guards = [m for m in living if esper.component_for_entity(m, UnitMember).role == "bodyguard"]
    T = max(esper.component_for_entity(m, Stats).T for m in (guards or living)) if living else None
    fnp = {}
    for m in living:
        vals = [a.value for a in esper.component_for_entity(m, ModelAbilities).abilities
                if a.name == "FEEL NO PAIN"]
        if vals:
            fnp[esper.component_for_entity(m, ModelId).id] = min(vals)
    tm = []
    for m in models:
        s = esper.component_for_entity(m, Stats)
        tm.append(TargetModel(esper.component_for_entity(m, ModelId).id, s.W,
                              esper.component_for_entity(m, Wounds).remaining, s.Sv, s.InSv,
                              esper.has_component(m, Character)))
    return {"living": living, "keywords": kw, "T": T, "fnp": fnp, "target_models": tm,
            "groups": allocation_groups(tm),
            "character": any(esper.has_component(m, Character) for m in living),
            "OC": [esper.component_for_entity(m, Stats).OC for m in living],
            "all_mv": bool(living) and all(esper.component_for_entity(m, Keyword).names
                                           & {"MONSTER", "VEHICLE"} for m in living)}


def by_world(u: int) -> dict:
    living = W.unit_models(u)
    return {"living": living, "keywords": W.unit_keywords(u), "T": W.toughness(u) if living else None,
            "fnp": W.feel_no_pain(u), "target_models": W.target_models(u),
            "groups": W.allocation_view(u)[1], "character": W.has_character(u),
            "OC": [W.roster(u).OC[i] for i in W.living_slots(u)],
            "all_mv": W.every_model_monster_or_vehicle(u)}


ids = ["band/cap", "band/2", "band/3", "band/4", "band/5", "band/6"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ids), st.integers(0, 3)), max_size=8))
def test_world_answers_match_the_components(steps):
    """Wound and destroy models in any order (asking in between, so caches are warm): every
    answer read through the roster equals the one read off the components."""
    with Battle(spec()) as b:
        b._enter()
        u = b.units["band"]
        for mid, hurt in steps:
            assert by_world(u) == by_components(u)
            w = esper.component_for_entity(b.models[mid], Wounds)
            if w.remaining <= 0:
                continue
            if hurt >= w.remaining:
                kill(b, mid)
            else:
                w.remaining -= hurt
        assert by_world(u) == by_components(u)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(ids), max_size=6))
def test_living_index_reads_the_rows_blocks(lost):
    """Living.index (a slice while the living models are one contiguous run of rows, else the
    rows) and W.block read exactly the blocks the rows read, however models are lost."""
    import numpy as np
    with Battle(spec()) as b:
        b._enter()
        for mid in lost:
            if W.alive(b.models[mid]):
                kill(b, mid)
        u, f = b.units["band"], b.units["foes"]
        lu, lf = W.living(u), W.living(f)
        if lu.slots:
            assert isinstance(lu.index, slice) == (lu.rows.tolist() == list(range(lu.rows[0], lu.rows[-1] + 1)))
        M = np.arange(100 * 100).reshape(100, 100)
        for a, c in ((lu, lf), (lf, lu), (lu, lu)):
            assert W.index_size(a.index) == len(a.rows)
            assert W.block(M, a.index, c.index).tolist() == M[a.rows[:, None], c.rows].tolist()


def test_roster_is_built_by_keyword_only():
    """23 fields, several of one type: a positional call could swap two silently, so it is
    refused; the world's own roster names every field."""
    with Battle(spec()) as b:
        r = W.roster(b.units["band"])
        values = [getattr(r, f.name) for f in dataclasses.fields(Roster)]
        with pytest.raises(TypeError):
            Roster(*values)
        assert Roster(**{f.name: v for f, v in zip(dataclasses.fields(Roster), values)}) == r
