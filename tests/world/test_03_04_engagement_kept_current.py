"""03.04 Engagement between units is kept current by the spatial index through every move and
every destroyed model: a unit is engaged with exactly the enemy units that have a model on the
battlefield within 2" of one of its own models on the battlefield (friendly units never count)."""

from __future__ import annotations

import esper
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.battle import Battle
from sim.components import Unit
from sim.rules.geometry import distance
from sim.world import mutations as M
from sim.world import queries as W
from scen import kill, model, row, scenario, unit, weapon

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1)}
IDS = [f"{u}/{i}" for u in ("a1", "a2", "b1", "b2") for i in (1, 2, 3)]


def spec():
    # two units a side, all within a few inches, so contacts come and go with small moves
    return scenario(WEAPONS,
                    [unit("a1", model(row(10, 10, 3), ["gun"])), unit("a2", model(row(10, 13, 3), ["gun"]))],
                    [unit("b1", model(row(10, 15.5, 3), ["gun"])), unit("b2", model(row(17.5, 10.5, 3), ["gun"]))])


def brute_engaged(b: Battle, u: int) -> list[int]:
    """03.04 straight from the footprints of the living models."""
    owner = esper.component_for_entity(u, Unit).owner
    mine = [W.footprint(m) for m in W.unit_models(u)]
    out = []
    for v in W.all_units():
        if esper.component_for_entity(v, Unit).owner == owner:
            continue
        theirs = [W.footprint(m) for m in W.unit_models(v)]
        if any(distance(f, g) <= 2.0 + 1e-9 for f in mine for g in theirs):
            out.append(v)
    return out


step = st.one_of(
    st.tuples(st.just("move"), st.sampled_from(IDS), st.floats(6, 22), st.floats(6, 20)),
    st.tuples(st.just("kill"), st.sampled_from(IDS), st.just(0.0), st.just(0.0)))


@settings(max_examples=80, deadline=None)
@given(st.lists(step, max_size=12))
def test_engagement_matches_the_footprints(steps):
    """Move and destroy models in any order (asking in between): every unit's engaged enemy
    units are those the footprints say, in unit order."""
    with Battle(spec()) as b:
        b._enter()
        units = W.all_units()
        for kind, mid, x, y in steps:
            for u in units:
                assert W.engaged_with(u) == brute_engaged(b, u)
            ent = b.models[mid]
            if not W.alive(ent):
                continue
            if kind == "kill":
                kill(b, mid)
            else:
                M.move_model(ent, round(x, 2), round(y, 2))
        for u in units:
            assert W.engaged_with(u) == brute_engaged(b, u)


def test_friendly_models_close_by_engage_no_one():
    with Battle(spec()) as b:
        b._enter()
        M.move_model(b.models["a2/1"], 10, 11.5)  # touching a1's bases: friends
        assert W.engaged_with(b.units["a1"]) == []
        assert W.engaged_with(b.units["a2"]) == [b.units["b1"]]
